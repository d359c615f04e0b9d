"""Selecting and partitioning: partition, lexsort, argwhere, extract, select, choose, compress, putmask.

Everything is composed of darray ops on the array's place: partitions are full stable sorts
(which satisfy the partition property), lexsort is stable argsorts from the last key, selections
are elementwise ``where`` chains (fused lazily on OpenCL places) or mask compaction (``nonzero``),
and the in-place writers (``place``, ``putmask``, ``put_along_axis``, ``copyto``) write through
darray's indexing. Only counts (the size of a compaction) are read back.
"""
from __future__ import annotations

from collections.abc import Sequence
from operator import index
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .. import place as _places
from .._array import DArray, read_only
from ..dim import broadcast_shapes, normalize_axis
from ..transfer.convert import asarray, astype
from . import _dispatch as D
from . import elementwise as E
from . import reduction as R
from .creation import arange, full, zeros_like
from .indexing import nonzero, setitem
from .manipulation import named, stack
from .sorting import argsort, sort
from .taking import (
    along,
    along_axis,
    check_mode,
    flat_key,
    gather,
    into,
    positions,
    put,
    take,
    take_along_axis,
    values_as,
)

# ``place`` is left out of the namespace: ``darray.place`` is the package of places (CPUPlace, CLPlace).
__all__ = ["where", "partition", "argpartition", "lexsort", "sort_complex", "argwhere", "flatnonzero", "extract",
           "select", "choose", "compress", "piecewise", "putmask", "put_along_axis", "copyto"]


def _array(x: Any, place: Any = None) -> DArray:
    return x if isinstance(x, DArray) else asarray(x, device=place)


def _partition(name: str, a: Any, kth: Any, axis: int | None, kind: str, order: Any) -> tuple[DArray, int]:
    """(array, axis) of a partition call after NumPy's checks of ``kth``, ``kind`` and ``order``."""
    x = _array(a)
    if kind != "introselect":
        raise ValueError(f"darray {name}: select kind must be 'introselect' (got {kind!r})")
    if order is not None:
        raise ValueError(f"darray {name}: cannot specify order when the array has no fields")
    if axis is None:
        x, axis = x.reshape(-1), 0
    axis = normalize_axis(axis, x.ndim, f"darray {name}")
    kths = np.asarray(kth.get() if isinstance(kth, DArray) else kth)
    if kths.dtype.kind not in "iu":
        raise TypeError(f"darray {name}: partition index must be integer, got {kths.dtype}")
    n = x.shape[axis]
    for k in kths.reshape(-1).tolist():
        if not -n <= k < n:
            raise ValueError(f"darray {name}: kth(={k}) out of bounds ({n})")
    return x, axis


def partition(a: Any, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None) -> DArray:
    """A copy of ``a`` with the elements at the ``kth`` positions (int or sequence, negative too)
    where a sorted array has them, smaller ones before and larger after. See also: numpy.partition.

    Differs from NumPy: the whole axis is sorted (stably), which satisfies the partition property."""
    x, axis = _partition("partition", a, kth, axis, kind, order)
    return sort(x, axis)


def argpartition(a: Any, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None) -> DArray:
    """int64 indices that partition ``a`` along ``axis`` (see :func:`partition`). See also: numpy.argpartition.

    Differs from NumPy: the indices sort the whole axis (stably), which satisfies the partition property."""
    x, axis = _partition("argpartition", a, kth, axis, kind, order)
    return argsort(x, axis)


def lexsort(keys: Any, axis: int = -1) -> DArray:
    """int64 indices that sort by several keys of one shape, the last key the primary one: a
    stable argsort per key, from the first key to the last, on the keys' place. See also: numpy.lexsort."""
    if isinstance(keys, (DArray, np.ndarray)):
        keys = [keys[i] for i in range(keys.shape[0])] if keys.ndim else []
    keys = [_array(k) for k in keys]
    if not keys:
        raise TypeError("darray lexsort: need sequence of keys with len > 0 in lexsort")
    if any(k.shape != keys[0].shape for k in keys):
        raise ValueError("darray lexsort: all keys need to be the same shape")
    axis = index(axis)
    if keys[0].ndim == 0:
        return full((), 0, dtype=_dt.int64, device=keys[0].place)
    axis = normalize_axis(axis, keys[0].ndim, "darray lexsort")
    order = argsort(keys[0], axis)
    for key in keys[1:]:
        order = take_along_axis(order, argsort(take_along_axis(key, order, axis=axis), axis), axis=axis)
    return order


def sort_complex(a: Any) -> DArray:
    """``a`` sorted along its last axis (real part first, then imaginary), as complex: complex64
    for int8/int16/uint8/uint16 and complex64 input, else complex128. See also: numpy.sort_complex."""
    x = _array(a)
    dtype = x.dtype if x.dtype.kind == "c" else np.dtype(np.complex64 if x.dtype.char in "bhBH" else np.complex128)
    return astype(sort(x), dtype, copy=False)


def argwhere(a: Any) -> DArray:
    """int64 array of shape (N, a.ndim): the indices of the N non-zero elements, in C order. See
    also: numpy.argwhere. A 0-d input gives shape (1, 0) when it is non-zero, else (0, 0), as NumPy."""
    x = _array(a)
    if x.ndim == 0:
        found = nonzero(x.reshape(1))[0]
        return found.reshape(found.shape[0], 1)[:, :0]
    return stack(nonzero(x), axis=1)


def flatnonzero(a: Any) -> DArray:
    """int64 indices of the non-zero elements of the flattened ``a``. See also: numpy.flatnonzero."""
    return nonzero(_array(a).reshape(-1))[0]


def extract(condition: Any, arr: Any) -> DArray:
    """The elements of the flattened ``arr`` where the flattened ``condition`` is non-zero
    (IndexError where condition is longer and true past ``arr``'s end). See also: numpy.extract."""
    (cond, x), place = D.operands("extract", (condition, arr))
    return take(_array(x, place).reshape(-1), flatnonzero(_array(cond, place)))


def _result_type(name: str, values: Sequence[Any]) -> np.dtype:
    """NumPy's result dtype of arrays and weak Python scalars (a TypeError naming ``name`` if none)."""
    try:
        return np.result_type(*[v.dtype if isinstance(v, DArray) else v for v in values])
    except TypeError as err:
        raise TypeError(f"darray {name}: the values have no common dtype: {err}") from None


def _operands(name: str, values: Sequence[Any], place: Any) -> list[Any]:
    """``values`` as DArrays on ``place``, Python scalars kept (weak, as NumPy's result types take them)."""
    return [v if type(v) in D.PY_SCALARS else _array(v, place) for v in values]


def _cast(v: Any, dtype: np.dtype, place: Any) -> DArray:
    return asarray(v, dtype=dtype, device=place)


def select(condlist: Sequence[Any], choicelist: Sequence[Any], default: Any = 0) -> DArray:
    """Elementwise, the choice of the first true condition (``default`` where none is), all
    broadcast together; one fused ``where`` chain. See also: numpy.select."""
    name = "select"
    if len(condlist) != len(choicelist):
        raise ValueError(f"darray {name}: list of cases must be same length as list of conditions")
    if not len(condlist):
        raise ValueError(f"darray {name}: select with an empty condition list is not possible")
    conds, place = D.operands(name, tuple(condlist) + tuple(choicelist) + (default,))
    values = _operands(name, conds[len(condlist):], place)
    conds = tuple(_array(c, place) for c in conds[:len(condlist)])
    dtype = _result_type(name, values)
    for i, c in enumerate(conds):
        if c.dtype != _dt.bool_:
            raise TypeError(f"darray {name}: invalid entry {i} in condlist: should be boolean ndarray")
    D.shape_of(name, (*conds, *[v for v in values if isinstance(v, DArray)]))  # they broadcast
    result = _cast(values[-1], dtype, place)
    for cond, choice in zip(conds[::-1], values[-2::-1]):
        result = E.apply("where", cond, _cast(choice, dtype, place), result)
    return result


@named
def choose(a: Any, choices: Sequence[Any], out: Any = None, mode: str = "raise") -> DArray:
    """Elementwise ``choices[a]``: ``a`` picks, for each position, the choice array to read
    (all broadcast together). ``mode``: 'raise' (ValueError for an entry outside [0, n)), 'wrap'
    (modulo n) or 'clip' (to [0, n-1]); ``out`` of any dtype (cast unsafely). See also: numpy.choose."""
    name = "choose"
    check_mode(name, mode)
    if isinstance(choices, (DArray, np.ndarray)):
        choices = [choices[i] for i in range(choices.shape[0])]
    if not len(choices):
        raise ValueError(f"darray {name}: 0-length sequence")
    args, place = D.operands(name, (a, *choices))
    pick = _array(positions(name, args[0], place, "safe"), place)
    values = _operands(name, args[1:], place)
    dtype = _result_type(name, values)
    D.shape_of(name, (pick, *[v for v in values if isinstance(v, DArray)]))
    n = len(values)
    if mode == "wrap":
        pick = E.apply("remainder", pick, n)
    elif mode == "clip":
        pick = E.apply("clip", pick, 0, n - 1)
    elif bool(R.any(E.apply("logical_or", E.apply("less", pick, 0), E.apply("greater_equal", pick, n)))):
        raise ValueError(f"darray {name}: invalid entry in choice array (outside [0, {n}))")
    result = _cast(values[-1], dtype, place)
    for i in range(n - 1, -1, -1):  # the last where broadcasts ``pick`` with the last choice too
        result = E.apply("where", E.apply("equal", pick, i), _cast(values[i], dtype, place), result)
    return into(name, result, out, "unsafe")


@named
def compress(condition: Any, a: Any, axis: int | None = None, out: Any = None) -> DArray:
    """The slices of ``a`` along ``axis`` (None: of the flattened ``a``; a 0-d ``a`` counts as 1-d)
    where the 1-d ``condition`` is non-zero; ``out`` as :func:`darray.take`'s. See also: numpy.compress."""
    name = "compress"
    (cond, x), place = D.operands(name, (condition, a))
    cond, x = _array(cond, place), _array(x, place)
    if cond.ndim != 1:
        raise ValueError(f"darray {name}: condition must be a 1-d array, got {cond.ndim} dimensions")
    return into(name, gather(name, x, nonzero(cond)[0], axis, "raise"), out)


def piecewise(x: Any, condlist: Any, funclist: Sequence[Any], *args: Any, **kw: Any) -> DArray:
    """``x``'s shape and dtype, with ``funclist[i]`` (a callable of the selected elements, or a
    value) where ``condlist[i]``; one extra function is the "otherwise" case; zero elsewhere.
    See also: numpy.piecewise."""
    name = "piecewise"
    xd = _array(x)
    if isinstance(condlist, (bool, np.bool_)) or (isinstance(condlist, (list, tuple)) and condlist
                                                  and not isinstance(condlist[0], (list, np.ndarray, DArray))
                                                  and xd.ndim != 0):
        condlist = [condlist]
    if isinstance(condlist, (DArray, np.ndarray)) and condlist.ndim == xd.ndim:
        condlist = [condlist]
    conds = [astype(_array(c, xd.place), _dt.bool_, copy=False) for c in condlist]
    if len(conds) == len(funclist) - 1:
        seen = conds[0]
        for c in conds[1:]:
            seen = E.apply("logical_or", seen, c)
        conds.append(E.apply("logical_not", seen))
    elif len(conds) != len(funclist):
        raise ValueError(f"darray {name}: with {len(conds)} condition(s), either {len(conds)} or "
                         f"{len(conds) + 1} functions are expected")
    y = zeros_like(xd)
    for cond, func in zip(conds, funclist):
        if not callable(func):
            y[cond] = func
        else:
            vals = xd[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


def _target(name: str, arr: Any) -> DArray:
    if not isinstance(arr, DArray):
        raise TypeError(f"darray {name}: the array written in place must be a DArray, got {type(arr).__name__}")
    if arr._readonly:
        read_only(name)
    return arr


@named
def place(arr: DArray, mask: Any, vals: Any) -> None:
    """In place: the elements of ``arr`` where ``mask`` is true, in order, become ``vals``
    (repeated as needed; cast as :func:`putmask` casts). See also: numpy.place."""
    arr = _target("place", arr)
    m = _array(mask, arr.place)
    if m.size != arr.size:
        raise ValueError("darray place: mask and data must be the same size")
    values = values_as("place", vals, arr.dtype, arr.place, "safe")
    where = flatnonzero(m)
    if not where.size:
        return
    if not values.size:
        raise ValueError("darray place: cannot insert from an empty array")
    put(arr, where, values)


_places.on_call(place)  # ``da.place(arr, mask, vals)``: NumPy's name is darray's places package


def _value(name: str, value: Any, dtype: np.dtype, casting: str, place: Any) -> DArray:
    """``value`` as a DArray of ``dtype`` after NumPy's casting check: a Python int, float or
    complex is weak (it takes the target's dtype when the kinds allow; OverflowError when it does
    not fit), anything else casts by ``casting`` (TypeError naming the rule)."""
    weak = {int: "iufc", float: "fc", complex: "c"}.get(type(value))
    if weak is not None and dtype.kind in weak:
        return full((), D.scalar_value(name, value, dtype), dtype=dtype, device=place)
    v = _array(value, place)
    if not np.can_cast(v.dtype, dtype, casting):  # type: ignore[arg-type]
        raise TypeError(f"darray {name}: cannot cast array data from {v.dtype} to {dtype} according to the rule "
                        f"{casting!r}")
    return astype(v, dtype, copy=False)


def _same_size(name: str, mask: Any, a: DArray) -> DArray:
    m = _array(mask, a.place)
    if m.size != a.size:
        raise ValueError(f"darray {name}: mask and data must be the same size")
    return astype(m, _dt.bool_, copy=False).reshape(a.shape)


@named
def putmask(a: DArray, mask: Any, values: Any) -> None:
    """In place: ``a.flat[i] = values.flat[i % values.size]`` where ``mask.flat[i]`` is true
    (``values`` repeated over ``a``'s positions, as NumPy; an array of them cast by the 'safe' rule,
    Python values converted as ``numpy.asarray(values, a.dtype)``). See also: numpy.putmask."""
    name = "putmask"
    a = _target(name, a)
    m = _same_size(name, mask, a)
    vals = values_as(name, values, a.dtype, a.place, "safe").reshape(-1)
    if not vals.size or not a.size:
        return
    if vals.size != a.size:
        vals = take(vals, E.apply("remainder", arange(a.size, dtype=_dt.int64, device=a.place), vals.size))
    a[...] = E.apply("where", m, vals.reshape(a.shape), a)


@named
def put_along_axis(arr: DArray, indices: Any, values: Any, axis: int | None) -> None:
    """In place: ``values`` (cast unsafely, as NumPy) written at ``indices`` along ``axis`` (the other
    axes broadcast; None: of the flattened ``arr``, with 1-d indices). See also: numpy.put_along_axis."""
    name = "put_along_axis"
    arr = _target(name, arr)
    idx, axis = along_axis(name, arr, indices, axis)
    vals = values_as(name, values, arr.dtype, arr.place, "unsafe")
    if axis is None:  # NumPy's ``arr.flat[idx] = values``: the values' shape is checked before the indices
        shape = vals.shape
        while len(shape) > 1 and shape[0] == 1:
            shape = shape[1:]
        if shape not in ((), (1,), idx.shape):
            raise ValueError(f"darray {name}: shape mismatch: value array of shape {vals.shape} could not be "
                             f"broadcast to indexing result of shape {idx.shape}")
        setitem(*flat_key(name, arr, idx), vals)
    else:
        setitem(arr, along(arr, idx, axis), vals)


def copyto(dst: DArray, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    """In place: ``src`` (broadcast to ``dst``'s shape, cast by ``casting``) written into ``dst``
    where ``where`` is true. See also: numpy.copyto."""
    name = "copyto"
    dst = _target(name, dst)
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"darray {name}: casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'")
    value = _fits(name, "input array", _value(name, src, dst.dtype, casting, dst.place), dst)
    if where is True:
        dst[...] = value
        return
    mask = _fits(name, "where mask", astype(_array(where, dst.place), _dt.bool_, copy=False), dst)
    dst[...] = E.apply("where", mask, value, dst)


def _fits(name: str, what: str, x: DArray, dst: DArray) -> DArray:
    """``x`` when it broadcasts to ``dst``'s shape, else NumPy's ValueError."""
    try:
        fits = broadcast_shapes(x.shape, dst.shape) == dst.shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"darray {name}: could not broadcast {what} from shape {x.shape} into shape {dst.shape}")
    return x


def where(condition: Any, x: Any = None, y: Any = None, /) -> Any:
    """``x`` where ``condition`` holds, else ``y`` (broadcast; elementwise, lazy on OpenCL places);
    with only ``condition`` (None: not given, as darray has no object arrays), its non-zero
    indices (``nonzero``), as NumPy's one-argument form. See also: numpy.where."""
    if x is None and y is None:
        return nonzero(condition if isinstance(condition, DArray) else asarray(condition))
    if x is None or y is None:
        raise ValueError("darray where: either both or neither of x and y should be given")
    return E.apply("where", condition, x, y)
