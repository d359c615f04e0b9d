"""Advanced indexing: integer arrays and boolean masks in get and set, nonzero (``take``,
``take_along_axis`` and ``put`` build on it in ``ops.taking``).

Basic indices (ints, slices, ``...``, ``None``) make views (``Dim.getitem``). A key with an
integer array (DArray, NumPy array or list) or a boolean mask follows NumPy's rules: masks
become the integer arrays of their ``nonzero``, integer scalars join the arrays, the arrays
broadcast together, and their dimensions replace the indexed axes in place when the advanced
entries are adjacent in the key, else they go first. Advanced indexing copies.

On OpenCL places the element offsets of the result are one fused elementwise kernel (a bad
index becomes offset -1); one reduction over them, read back as one number, raises
IndexError before anything is read or written, so no kernel touches memory outside a buffer.
Then one gather (get) or scatter (set) kernel moves the elements as raw bits
(``kernels/index.cl``). Masks are compacted on the device after a scan; only the count is read
back. ``x[mask] = scalar`` with a mask of ``x``'s shape is one fused ``where``. On host-backed
devices (``lazy.host.usable``) masks, ``nonzero``, scatters and one-array assignments run through
NumPy on the host memory instead. The ``cpu`` place indexes through NumPy.

Differs from NumPy: with repeated indices in an assignment, which of their values lands is
unspecified (NumPy: the last), as in CuPy.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from math import prod
from typing import Any, NamedTuple, NoReturn, cast

import numpy as np

from .. import dtypes as _dt
from .. import lazy, sched
from .._array import DArray, read_only
from ..dim import MAX_RANK, Dim, broadcast_shapes
from ..lazy import at_once, host
from ..lazy.graph import Input
from ..place import CLPlace, Place
from ..transfer.convert import (
    _value_term,
    assign,
    assign_now,
    astype,
    empty,
    from_numpy,
    input_term,
    scalar_value,
    write,
)
from . import _dispatch as D
from . import elementwise as E
from . import reduction as R
from ._kernel import origin
from .compaction import _compact, nonzero
from .compaction import launch_index as _launch

__all__ = ["nonzero"]  # (defined in ``compaction``, the masks' room)
from .creation import arange

_INDEX_TYPES = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
                "boolean arrays are valid indices")


class _Advanced(NamedTuple):  # a NamedTuple: made once per advanced key entry, quicker than a frozen dataclass
    """One advanced entry: the axis of the basic view it indexes (the first of ``ndim`` for a
    mask), the axis of the original array (for messages), the index (np.ndarray or DArray) and
    whether it is a mask (a bool index)."""

    axis: int
    source_axis: int
    index: Any
    is_mask: bool


def _entry(k: Any) -> Any:
    """A key entry as basic (None, slice, Ellipsis, int) or an index array; IndexError otherwise."""
    if k is None or k is Ellipsis or type(k) is slice:
        return k
    if isinstance(k, (bool, np.bool_)):
        return np.asarray(k)
    if isinstance(k, (int, np.integer)):
        return int(k)
    if isinstance(k, (list, tuple)):
        k = np.asarray(k)
        if not k.size and k.dtype.kind == "f":  # NumPy reads an empty list as integers
            k = k.astype(np.intp)
    if isinstance(k, (np.ndarray, DArray)):
        if k.dtype.kind == "b":
            return k
        if k.dtype.kind in "iu":
            return int(k.item()) if k.ndim == 0 and isinstance(k, np.ndarray) else k
        if k.ndim or isinstance(k, DArray):
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
    raise IndexError(_INDEX_TYPES)


def _basic(key: Any) -> bool:
    """Whether ``key`` is made of ints, slices, ``...`` and ``None`` only (the common, fast case)."""
    for k in (key if type(key) is tuple else (key,)):
        if not (type(k) is int or type(k) is slice or k is None or k is Ellipsis):
            return False
    return True


def _parse(key: Any, shape: tuple[int, ...]) -> tuple[tuple | None, list[_Advanced]] | None:
    """(basic key, advanced entries) of ``key`` for an array of ``shape``, or None when it is all
    basic. In the basic key each advanced entry is replaced by the slices of the axes it indexes (a
    0-d mask by None: a new axis of length one, which it then indexes); None for a lone index array
    (no basic part). NumPy's errors in NumPy's order: the entries' types, too many indices, masks
    that do not match their axes, then integers out of bounds and zero slice steps in key order,
    then index arrays that do not broadcast together (their bounds come later, on the device)."""
    ndim = len(shape)
    if type(key) is DArray and key._dim.shape and key._dtype.kind in "biu":  # a lone index array or mask
        width = len(key._dim.shape) if key._dtype.kind == "b" else 1
        if width > ndim:
            raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {width} were indexed")
        adv = _Advanced(0, 0, key, key._dtype.kind == "b")
        if adv.is_mask:
            _check_mask(shape, adv)
        return None, [adv]
    if _basic(key):
        return None
    entries = [_entry(k) for k in (key if type(key) is tuple else (key,))]
    if not any(isinstance(e, (np.ndarray, DArray)) for e in entries):
        return None
    if sum(e is Ellipsis for e in entries) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(e.ndim if isinstance(e, (np.ndarray, DArray)) and e.dtype.kind == "b"
                   else e is not None and e is not Ellipsis for e in entries)
    if consumed > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed")
    basic: list[Any] = []
    advanced: list[_Advanced] = []
    ordered: list[tuple[int, Any]] = []  # (source axis, int or slice): checked in key order below
    axis = source = 0
    for e in entries:
        if e is None or type(e) is slice:
            basic.append(e)
            if e is not None:
                ordered.append((source, e))
            axis += 1
            source += e is not None
        elif e is Ellipsis:
            basic.append(e)
            axis += ndim - consumed
            source += ndim - consumed
        elif isinstance(e, int) or e.ndim or e.dtype.kind != "b":
            mask = not isinstance(e, int) and e.dtype.kind == "b"
            width = e.ndim if mask else 1
            advanced.append(_Advanced(axis, source, np.asarray(e) if isinstance(e, int) else e, mask))
            if mask:
                _check_mask(shape, advanced[-1])
            elif isinstance(e, int):
                ordered.append((source, e))
            basic += [slice(None)] * width
            axis += width
            source += width
        else:  # a 0-d mask: a new axis of length one, kept or dropped
            advanced.append(_Advanced(axis, source, np.zeros(int(bool(e)), np.int64), False))
            basic.append(None)
            axis += 1
    for a, e in ordered:
        if type(e) is slice:
            if e.step == 0:
                raise ValueError("slice step cannot be zero")
        elif not -shape[a] <= e < shape[a]:
            raise IndexError(f"index {e} is out of bounds for axis {a} with size {shape[a]}")
    _check_broadcast(advanced)
    return tuple(basic), advanced


def _check_broadcast(advanced: list[_Advanced]) -> None:
    """NumPy's IndexError when the key's index arrays do not broadcast together, before any bound
    is checked (a mask counts as the 1-d array of its nonzero; a DArray mask's count is not known
    without a read back, so ``_layout`` checks keys with one)."""
    if len(advanced) < 2 or any(a.is_mask and isinstance(a.index, DArray) for a in advanced):
        return
    shapes = [(int(np.count_nonzero(a.index)),) if a.is_mask else tuple(a.index.shape) for a in advanced]
    try:
        broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError(_mismatch(shapes)) from None


def _mismatch(shapes: Sequence[tuple[int, ...]]) -> str:
    return ("shape mismatch: indexing arrays could not be broadcast together with shapes "
            + " ".join(str(s) for s in shapes))


def _check_mask(shape: tuple[int, ...], adv: _Advanced) -> None:
    """IndexError when a mask's shape does not match the axes of ``shape`` (the indexed array's) it
    indexes (as NumPy, a mask axis of length 0 matches an axis of any length: the mask is empty and
    selects nothing)."""
    for j, m in enumerate(adv.index.shape):
        n = shape[adv.source_axis + j]
        if m != n and m:
            raise IndexError(f"boolean index did not match indexed array along axis {adv.source_axis + j}; "
                             f"size of axis is {n} but size of corresponding boolean axis is {m}")


def _on_place(index: Any, place: Place) -> DArray:
    if isinstance(index, DArray):
        if index._place is not place and index._place != place:
            raise IndexError(f"darray getitem: the index is on {index._place} but the array is on {place}")
        return index
    return from_numpy(np.ascontiguousarray(index), place)


def _integer_indices(view: DArray, advanced: list[_Advanced]) -> list[tuple[int, int, DArray]]:
    """(view axis, source axis, int64 DArray) per indexed axis: masks become their nonzero."""
    out: list[tuple[int, int, DArray]] = []
    for adv in advanced:
        if adv.is_mask:
            coords = nonzero(_on_place(adv.index, view._place))
            out += [(adv.axis + j, adv.source_axis + j, c) for j, c in enumerate(coords)]
        else:
            idx = _on_place(adv.index, view._place)
            out.append((adv.axis, adv.source_axis,
                        idx if idx.dtype == _dt.int64 else astype(idx, _dt.int64, copy=False)))
    return out


def _layout(view: DArray, axes: Sequence[int],
            shapes: Sequence[tuple[int, ...]]) -> tuple[tuple[int, ...], int, list[int]]:
    """(result shape, position of the broadcast index dims in it, the view's other axes)."""
    try:
        b = broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError(_mismatch(shapes)) from None
    rest = [d for d in range(view.ndim) if d not in axes]
    adjacent = list(axes) == list(range(axes[0], axes[0] + len(axes)))
    at = axes[0] if adjacent else 0
    shape = tuple(view.shape[d] for d in rest)
    return shape[:at] + b + shape[at:], at, rest


def _offsets(view: DArray, indices: list[tuple[int, int, DArray]], *, check: bool = True) -> DArray:
    """Element offsets (into the view's allocation) of the selected elements, -1 where an index
    is out of bounds; with ``check`` (always for an empty selection), IndexError naming the
    first bad index when there is one (else the kernel that reads them flags it)."""
    axes = [a for a, _, _ in indices]
    shape, at, rest = _layout(view, axes, [i.shape for _, _, i in indices])
    if len(shape) > MAX_RANK:  # NumPy's IndexError for a bad index comes first
        _check(view, indices, empty((0,), _dt.int64, view._place))
        raise ValueError(f"darray indexing: the result would have rank {len(shape)} (shape {shape}); darray "
                         f"supports at most {MAX_RANK} dimensions")
    nb = len(shape) - len(rest)
    total: Any = view._dim.offset
    bad: Any = False
    for a, _, idx in indices:
        n, stride = view.shape[a], view._dim.strides[a]
        placed = idx.reshape((1,) * at + (1,) * (nb - idx.ndim) + idx.shape + (1,) * (len(shape) - at - nb))
        total = total + E.where(placed < 0, placed + n, placed) * stride
        bad = bad | (placed < -n) | (placed >= n)
    for j, d in enumerate(rest):  # the other axes, stepped through as a grid (length one: nothing to add)
        pos = j if j < at else j + nb
        if view.shape[d] != 1:
            total = total + arange(view.shape[d], dtype=_dt.int64, device=view._place).reshape(
                (1,) * pos + (view.shape[d],) + (1,) * (len(shape) - pos - 1)) * view._dim.strides[d]
    offsets = E.where(bad, -1, total)
    assert offsets.shape == shape, (offsets.shape, shape)
    if (check or not offsets.size) and _checked():
        _check(view, indices, offsets)
    return offsets


def _checked() -> bool:
    """Whether indices are bounds-checked: not inside a ``da.jit`` trace (NumPy's IndexError needs a
    read back; there a gather reads 0 at an index out of bounds and a scatter skips it)."""
    return sched.capturing() is None


def _check(view: DArray, indices: list[tuple[int, int, DArray]], offsets: DArray) -> None:
    """IndexError naming the first bad index when an offset is flagged -1 (one reduction read
    back); for an empty selection, the indices themselves are checked, as NumPy does (none when
    the indices broadcast to nothing: NumPy then reads none of them)."""
    if offsets.size:
        flagged = bool(R.any(offsets < 0))
    elif not prod(broadcast_shapes(*[idx.shape for _, _, idx in indices])):
        flagged = False
    else:
        flagged = any(idx.size and bool(R.any((idx < -view.shape[a]) | (idx >= view.shape[a])))
                      for a, _, idx in indices)
    if flagged:
        _raise_bad(view, indices)


def _raise_bad(view: DArray, indices: list[tuple[int, int, DArray]]) -> NoReturn:
    for a, source, idx in indices:
        host, n = idx.get(), view.shape[a]
        bad = host[(host < -n) | (host >= n)]
        if bad.size:
            raise IndexError(f"index {bad.flat[0]} is out of bounds for axis {source} with size {n}")
    raise AssertionError("offsets flagged an index no check finds")


def _gather(name: str, view: DArray, shape: tuple[int, ...], args: list[Any], reads: list[Any],
            start: int = 0) -> DArray | None:
    """Run gather kernel ``name`` (``args``: what comes between the source and the output) into a
    new array of ``shape``, the source starting ``start`` elements into the view's allocation;
    None when the kernel's flag (read back before returning) reports a bad index."""
    place = cast(CLPlace, view._place)
    out = empty(shape, view.dtype, place)
    if not out.size:
        return out
    flag = from_numpy(np.zeros(1, np.int32), place)
    (src, src_o), (dst, dst_o), (fl, fl_o) = _base(view), origin(out), origin(flag)
    _launch(name, place, view.dtype.itemsize, out.size,
            [src.buffer, src_o + np.int64(start), *args, dst.buffer, dst_o, fl.buffer, fl_o],
            reads=[src, *reads], writes=[dst, fl])
    return out if not _checked() or not flag.item() else None


def _base(x: DArray) -> tuple[Any, np.int64]:
    """(allocation, element offset of the allocation's start in its buffer): the origin of the
    offsets ``_offsets`` computes (they include the view's own offset)."""
    alloc = x._data()
    return alloc, np.int64(alloc.offset // x.dtype.itemsize)


def _advanced_view(x: DArray, key: Any) -> tuple[DArray, list[_Advanced]] | None:
    parsed = _parse(key, x._dim.shape)
    if parsed is None:
        return None
    basic, advanced = parsed
    if basic is None or all([type(b) is slice and b == _WHOLE for b in basic]):  # the view is x itself
        return x, advanced
    return x._view(x._dim.getitem(basic)), advanced


_WHOLE = slice(None)


def _host_key(key: Any) -> Any:
    entries = key if type(key) is tuple else (key,)
    return tuple(e.get() if isinstance(e, DArray) else e for e in entries)


def getitem(x: DArray, key: Any, /) -> DArray:
    """``x[key]``: a view for basic keys, a copy for advanced ones (NumPy's rules). An element
    (a 0-d result of a key without ``...``) is a copy, as NumPy's scalar: a new 0-d DArray (read at
    once where the host engine may: ``at_once.element_at``)."""
    made = at_once.element_at(x, key)
    if made is not None:
        return made
    found = None if _basic(key) else _advanced_view(x, key)
    if found is None:
        dim = x._dim.getitem(key)
        if dim.shape or key is Ellipsis or (type(key) is tuple and Ellipsis in key):
            return x._view(dim)
        return D.implementation("element", x._place)(x, dim)
    view, advanced = found
    return D.implementation("getitem", x._place)(x, key, view, advanced)


@D.register("element", "cpu")
def _element_cpu(x: DArray, dim: Dim) -> DArray:
    return from_numpy(np.array(x._view(dim)._host_view()), x._place)


@D.register("element", "cl")
def _element_cl(x: DArray, dim: Dim) -> DArray:
    """The element at ``x``'s 0-d view ``dim`` as a pending copy (``item()`` of it reads the view
    itself: ``convert.item``); ``getitem`` reads it at once where the host engine may."""
    return lazy.record(lazy.graph.node("cast", (input_term(x._view(dim)),), x._dtype, (), True), x._place)


@D.register("getitem", "cpu")
def _getitem_cpu(x: DArray, key: Any, view: DArray, advanced: list[_Advanced]) -> DArray:
    """``x[key]`` for an advanced ``key`` through NumPy."""
    return from_numpy(np.asarray(x._host_view()[_host_key(key)]), x._place)


@D.register("getitem", "cl")
def _getitem_cl(x: DArray, key: Any, view: DArray, advanced: list[_Advanced]) -> DArray:
    """``x[key]`` for an advanced ``key``: ``view`` is x indexed by the key's basic part, ``advanced``
    the key's index arrays; one gather kernel (masks: a compaction)."""
    if len(advanced) == 1 and advanced[0].is_mask and advanced[0].index.shape == view.shape:
        return _compact(view, _on_place(advanced[0].index, view._place))
    if host.usable(cast(CLPlace, view._place), max(view.size, *[a.index.size for a in advanced])):
        return _gather_host(view, advanced)
    indices = _integer_indices(view, advanced)
    if view.ndim == 1 and len(indices) == 1:  # x[idx] on a 1-d view: the kernel reads the indices
        idx = indices[0][2]
        if not idx._dim.is_c_contiguous:
            idx = astype(idx, _dt.int64, copy=True)
        i, i_o = origin(idx)
        out = _gather("gather_index", view, idx.shape, [i.buffer, i_o,
                      np.int64(view.shape[0]), np.int64(view._dim.strides[0])], [i], start=view._dim.offset)
    else:
        offsets = _offsets(view, indices, check=False)
        off, off_o = origin(offsets)
        out = _gather("gather", view, offsets.shape, [off.buffer, off_o], [off])
    if out is None:
        _raise_bad(view, indices)
    return out


def _gather_host(view: DArray, advanced: list[_Advanced]) -> DArray:
    """``view`` indexed by ``advanced`` through NumPy on a host-backed device: no kernel and no flag
    read back; an index out of bounds raises darray's IndexError."""
    place = cast(CLPlace, view._place)
    if len(advanced) == 1 and not advanced[0].is_mask and type(advanced[0].index) is DArray:
        done = _take_now(view, advanced[0], place)  # one index array: NumPy's take, at once
        if done is not None:
            return done
    arrays = [a.index for a in advanced if isinstance(a.index, DArray)]

    def select(v: np.ndarray, *dev: np.ndarray) -> np.ndarray:
        given, at = iter(dev), 0
        key: list[Any] = []
        for a in advanced:  # in axis order; the others whole
            key += [slice(None)] * (a.axis - at)
            key.append(next(given) if isinstance(a.index, DArray) else a.index)
            at = a.axis + (a.index.ndim if a.is_mask else 1)
        return np.array(v[tuple(key)])

    try:
        return from_numpy(host.call("gather", select, place, [input_term(view), *map(input_term, arrays)]), place)
    except IndexError:
        indices = _integer_indices(view, advanced)
        _layout(view, [a for a, _, _ in indices], [i.shape for _, _, i in indices])  # shapes that do not broadcast
        _raise_bad(view, indices)


def _integers(key: Any, ndim: int) -> bool:
    """Whether ``key`` names one element by an integer per axis (``()`` of a 0-d array): NumPy's
    scalar assignment, which takes no sequence."""
    entries = key if type(key) is tuple else (key,)
    return len(entries) == ndim and all(isinstance(k, (int, np.integer)) and not isinstance(k, bool) for k in entries)


def _whole_mask(key: Any, ndim: int) -> bool:
    """Whether ``key`` is one boolean mask of ``ndim`` axes (a bool scalar for a 0-d array)."""
    whole = key if type(key) is not tuple else key[0] if len(key) == 1 else None
    if isinstance(whole, (bool, np.bool_)):
        return ndim == 0
    if isinstance(whole, list):
        try:
            whole = np.asarray(whole)
        except ValueError:  # ragged: not a mask
            return False
    return isinstance(whole, (np.ndarray, DArray)) and whole.dtype == np.bool_ and whole.ndim == ndim


def _rank(value: Any) -> int:
    """The number of axes of ``value`` as NumPy converts it (0 for what it cannot)."""
    if isinstance(value, DArray):
        return value.ndim
    try:
        return int(np.ndim(value))
    except ValueError:  # a ragged list: NumPy's own error comes later
        return 0


def _sequence(value: Any) -> bool:
    """Whether ``value`` is an array of at least one axis, or a list or tuple."""
    return isinstance(value, (list, tuple)) or (isinstance(value, (DArray, np.ndarray)) and value.ndim > 0)


def _element_key(shape: tuple[int, ...], key: Any) -> bool:
    """Whether ``key`` is an int per axis (the commonest key of a loop: NumPy reads it as darray does)."""
    if type(key) is int:
        return len(shape) == 1
    return type(key) is tuple and len(key) == len(shape) and all([type(k) is int for k in key])


def _take_now(view: DArray, entry: _Advanced, place: CLPlace) -> DArray | None:
    """``view`` indexed along ``entry.axis`` by the integer DArray ``entry.index`` through NumPy's
    ``take`` into a new array, where the host engine may read both (``host.view``); else None."""
    index = entry.index
    vv = host.view(view)
    vi = host.view(index) if vv is not None and index._dtype.kind in "iu" else None
    if vv is None or vi is None:
        return None
    axis = entry.axis
    shape = view._dim.shape
    made = at_once.fresh(place, shape[:axis] + index._dim.shape + shape[axis + 1:], view._dtype)
    if made is None:
        return None
    try:
        vv.take(vi, axis=axis, out=made[1])
    except IndexError:
        _raise_bad(view, _integer_indices(view, [entry]))
    return made[0]


def setitem(x: DArray, key: Any, value: Any, /) -> None:
    """``x[key] = value``: through the view for a basic key (``transfer.convert.assign``), else a
    scatter (NumPy's casting and broadcasting either way)."""
    if _element_key(x._dim.shape, key) and assign_now(x, key, 1, value):  # an element, by the host engine
        return
    found = _advanced_view(x, key)
    if found is None:
        dim = x._dim.getitem(key)
        if not dim.shape and _integers(key, x.ndim) and _sequence(value):
            raise ValueError(f"darray setitem: setting an array element with a sequence (a value of shape "
                             f"{np.shape(value)} into one element)")
        assign(x, dim, value)
        return
    if x._readonly:  # (a basic key: checked by ``assign``)
        read_only("setitem")
    view, advanced = found
    if _whole_mask(key, x.ndim) and _rank(value) > 1:  # NumPy's assignment through one mask of x's rank
        raise TypeError(f"darray setitem: NumPy boolean array indexing assignment requires a 0 or 1-dimensional "
                        f"input, input has {_rank(value)} dimensions")
    if isinstance(value, DArray) and value._place is not x._place and value._place != x._place:
        raise ValueError(f"darray setitem: value is on {value._place} but the array is on {x._place}; use .to()")
    D.implementation("setitem", x._place)(x, key, value, view, advanced)


@D.register("setitem", "cpu")
def _setitem_cpu(x: DArray, key: Any, value: Any, view: DArray, advanced: list[_Advanced]) -> None:
    """``x[key] = value`` for an advanced ``key`` through NumPy."""
    consumed = sum(a.index.ndim if a.is_mask else 1 for a in advanced)
    try:
        rank = view.ndim - consumed + len(broadcast_shapes(*[(1,) if a.is_mask else a.index.shape for a in advanced]))
    except ValueError:  # indices that do not broadcast: NumPy's IndexError below
        rank = 0
    if rank > MAX_RANK:  # as on OpenCL places: NumPy's IndexError for a bad index first, then the limit
        x._host_view()[_host_key(key)]
        raise ValueError(f"darray setitem: the selection would have rank {rank}; darray supports at most "
                         f"{MAX_RANK} dimensions")
    try:
        x._host_view()[_host_key(key)] = value.get() if isinstance(value, DArray) else value
    except ValueError as err:
        raise ValueError(f"darray setitem: {err}") from None


@D.register("setitem", "cl")
def _setitem_cl(x: DArray, key: Any, value: Any, view: DArray, advanced: list[_Advanced]) -> None:
    """``x[key] = value`` for an advanced ``key`` (``view``, ``advanced`` as in :func:`_getitem_cl`):
    one scatter kernel (a mask of the view's shape and a scalar: one fused ``where``; with a scalar
    or an array of ``x``'s dtype on a host-backed device: NumPy's assignment in place)."""
    place = x._place
    assert isinstance(place, CLPlace)  # (cheaper than typing.cast per call)
    if (len(advanced) == 1 and host.usable(place, view.size)
            and (advanced[0].index.shape == view.shape if advanced[0].is_mask else advanced[0].index.dtype.kind == "i")
            and (value._dtype == x.dtype if isinstance(value, DArray) else _scalar(value))):
        _set_host(view, advanced[0], value)
        return
    if (len(advanced) == 1 and advanced[0].is_mask and advanced[0].index.shape == view.shape
            and not isinstance(value, DArray) and _scalar(value)):
        mask = _on_place(advanced[0].index, place)  # one fused where into x, as in-place operators write
        write(view, E.build("where", mask, scalar_value(value, x.dtype).item(), view)[0])
        return
    indices = _integer_indices(view, advanced)
    shape = _layout(view, [a for a, _, _ in indices], [i.shape for _, _, i in indices])[0]
    values = empty(shape, x.dtype, place)  # the value checked before the indices' bounds, as NumPy
    write(values, _value_term(value, x.dtype, shape, place, values))
    offsets = _offsets(view, indices)
    if offsets.size:
        dst, dst_o = _base(view)
        lazy.before_write(dst)
        if host.usable(place, offsets.size):  # the scatter through NumPy, over the allocation's elements
            whole = Input(dst, Dim.contiguous((dst.nbytes // x.dtype.itemsize,)), x.dtype)
            host.call("scatter", _scatter, place, [input_term(offsets), input_term(values)], [whole])
            return
        off, off_o = origin(offsets)
        val, val_o = origin(values)
        _launch("scatter", place, x.dtype.itemsize, offsets.size,
                [dst.buffer, dst_o, off.buffer, off_o, val.buffer, val_o], reads=[off, val], writes=[dst])


def _scalar(value: Any) -> bool:
    """Whether a value that is not a DArray is one scalar (``np.ndim`` 0; Python's quickly)."""
    return type(value) in D.PY_SCALARS or np.ndim(value) == 0


def _set_host(view: DArray, adv: _Advanced, value: Any) -> None:
    """``view[key] = value`` through NumPy for one advanced entry ``adv`` (a mask of the view's shape
    or an integer array); ``value``: a scalar, or a DArray of the view's dtype."""
    place = view._place
    assert isinstance(place, CLPlace)
    index = _on_place(adv.index, place)
    target = input_term(view)
    lazy.before_write(target.alloc)
    lead = (slice(None),) * adv.axis
    if isinstance(value, DArray):
        fn, reads = partial(_store, lead, None), [input_term(index), input_term(value)]
    else:
        fn, reads = partial(_store, lead, scalar_value(value, view._dtype)), [input_term(index)]
    try:
        host.call("setitem", fn, place, reads, [target])
    except IndexError:
        _raise_bad(view, [(adv.axis, adv.source_axis, index)])
    except ValueError as err:
        raise ValueError(f"darray setitem: {err}") from None


def _store(lead: tuple, value: Any, dst: np.ndarray, index: np.ndarray, values: Any = None) -> None:
    """``dst[(*lead, index)] = value`` (``values``, the view of a DArray, where given)."""
    dst[(*lead, index) if lead else index] = value if values is None else values


def _scatter(dst: np.ndarray, offsets: np.ndarray, values: np.ndarray) -> None:
    dst[offsets] = values
