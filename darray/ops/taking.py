"""take, take_along_axis and put: NumPy's index functions, as keys of ``x[key]`` (``ops.indexing``).

The conversions follow NumPy's C functions, shared with the selection family's writers: indices
(:func:`positions`) and written values (:func:`values_as`) given as Python objects convert as
``numpy.asarray(obj, dtype)`` does (floats truncate, an int out of range is an OverflowError);
given as arrays they cast by a rule that depends on the function. ``mode`` is NumPy's: "raise",
"wrap" (modulo the length) or "clip"; an out-of-range index is an IndexError naming the function.
"""
from __future__ import annotations

from math import prod
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray, read_only
from ..dim import normalize_axis
from ..transfer.convert import asarray, astype, empty
from . import elementwise as E
from . import reduction as R
from ._out import finish
from .creation import arange
from .indexing import _checked, getitem, setitem
from .manipulation import named

__all__ = ["take", "take_along_axis", "put"]

MODES = ("clip", "raise", "wrap")


def _host(op: str, obj: Any, dtype: np.dtype) -> np.ndarray:
    """A Python object (a list, a scalar) as ``numpy.asarray(obj, dtype)`` makes it, errors named after ``op``."""
    try:
        return np.asarray(obj, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as err:
        raise type(err)(f"darray {op}: {err}") from None


def _cast(op: str, x: DArray, dtype: np.dtype, casting: str) -> DArray:
    """The array ``x`` as ``dtype`` when ``casting`` allows it, else NumPy's TypeError."""
    if casting != "unsafe" and not np.can_cast(x.dtype, dtype, casting):  # type: ignore[arg-type]
        raise TypeError(f"darray {op}: cannot cast array data from {x.dtype} to {dtype} according to the rule "
                        f"{casting!r}")
    return astype(x, dtype, copy=False)


def positions(op: str, indices: Any, place: Any, casting: str = "same_kind") -> int | DArray:
    """``indices`` as NumPy converts them to intp: a Python int as it is, other Python objects as
    ``numpy.asarray(indices, intp)`` (bools count 1 and 0, floats truncate), an array cast by
    ``casting`` ('same_kind' for take, 'safe' for put, repeat and choose)."""
    if isinstance(indices, int) and not isinstance(indices, bool):
        return indices
    if not isinstance(indices, (DArray, np.ndarray)):
        return asarray(_host(op, indices, _dt.int64), device=place)
    return _cast(op, indices if isinstance(indices, DArray) else asarray(indices, device=place), _dt.int64, casting)


def values_as(op: str, values: Any, dtype: np.dtype, place: Any, casting: str) -> DArray:
    """``values`` written into an array of ``dtype``: a Python object as ``numpy.asarray(values,
    dtype)`` makes it, an array cast by ``casting`` ('unsafe' for put, 'safe' for putmask, place)."""
    if not isinstance(values, (DArray, np.ndarray)):
        return asarray(_host(op, values, dtype), device=place)
    return _cast(op, values if isinstance(values, DArray) else asarray(values, device=place), dtype, casting)


def check_mode(op: str, mode: str) -> None:
    if mode not in MODES:
        raise ValueError(f"darray {op}: clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")


def _moded(op: str, idx: Any, n: int, mode: str) -> Any:
    """``idx`` under NumPy's ``mode``: "raise" as given, "wrap" modulo ``n``, "clip" into ``[0, n)``."""
    if mode == "raise" or (not isinstance(idx, int) and idx.size == 0):
        return idx
    if isinstance(idx, int):
        return idx % n if mode == "wrap" else min(max(idx, 0), n - 1)
    return E.apply("remainder", idx, n) if mode == "wrap" else E.apply("minimum", E.apply("maximum", idx, 0), n - 1)


def into(op: str, result: DArray, out: Any, casting: str = "safe") -> DArray:
    """``result``, or ``result`` stored in ``out`` as NumPy's take, compress (and choose, ``casting``
    'unsafe') store: ``out``'s dtype must cast to the result's by ``casting`` (NumPy reads ``out`` as
    it), the values cast unsafely."""
    if isinstance(out, DArray):
        if not np.can_cast(out.dtype, result.dtype, casting):  # type: ignore[arg-type]
            raise TypeError(f"darray {op}: cannot cast array data from {out.dtype} to {result.dtype} according to "
                            f"the rule {casting!r}")
        result = astype(result, out.dtype, copy=False)
    return finish(op, result, out)


def gather(op: str, a: DArray, indices: Any, axis: int | None, mode: str) -> DArray:
    """take's elements (``op``: the function named in errors): ``indices`` converted, a 0-d ``a`` as
    1-d; as in NumPy, the indices of an empty result are checked only in mode "raise" and where
    ``a`` has elements before ``axis`` (NumPy's loop over them checks each index)."""
    check_mode(op, mode)
    indices = positions(op, indices, a.place)
    if axis is None or a.ndim == 0:
        a = a.reshape(-1)
    axis = normalize_axis(0 if axis is None else axis, a.ndim, f"darray {op}")
    n = a.shape[axis]
    shape = a.shape[:axis] + (() if isinstance(indices, int) else indices.shape) + a.shape[axis + 1:]
    if not n and prod(shape):
        raise IndexError(f"darray {op}: cannot do a non-empty take from an empty axis")
    if not prod(shape) and (mode != "raise" or not prod(a.shape[:axis])):
        return empty(shape, a.dtype, a.place)
    return getitem(a, (slice(None),) * axis + (_moded(op, indices, n, mode),))


@named
def take(a: Any, indices: Any, axis: int | None = None, out: Any = None, mode: str = "raise") -> DArray:
    """Elements of ``a`` at ``indices`` along ``axis`` (None: of the flattened array), written into
    ``out`` when given (a 0-d ``a`` counts as 1-d, as in NumPy). See also: numpy.take."""
    a = a if isinstance(a, DArray) else asarray(a)
    return into("take", gather("take", a, indices, axis, mode), out)


def along(arr: DArray, idx: DArray, axis: int) -> tuple[Any, ...]:
    """The key of ``arr[key]`` that pairs ``idx`` along ``axis`` with the other axes' positions."""
    return tuple(idx if d == axis else
                 arange(n, dtype=_dt.int64, device=arr.place).reshape((1,) * d + (n,) + (1,) * (arr.ndim - d - 1))
                 for d, n in enumerate(arr.shape))


def along_axis(op: str, arr: DArray, indices: Any, axis: int | None) -> tuple[DArray, int | None]:
    """(indices, axis) of take_along_axis and put_along_axis after NumPy's checks, in its order
    (axis=None: 1-d indices into the flattened ``arr``; the axis returned is None then)."""
    idx = indices if isinstance(indices, DArray) else asarray(indices, device=arr.place)
    if axis is None:
        if idx.ndim != 1:
            raise ValueError(f"darray {op}: when axis=None, `indices` must have a single dimension")
    else:
        axis = normalize_axis(axis, arr.ndim, f"darray {op}")
    if idx.dtype.kind not in "iu":
        raise IndexError(f"darray {op}: `indices` must be an integer array, got {idx.dtype}")
    if axis is not None and idx.ndim != arr.ndim:
        raise ValueError(f"darray {op}: `indices` and `arr` must have the same number of dimensions, got "
                         f"{idx.ndim} and {arr.ndim}")
    return idx, axis


@named
def take_along_axis(arr: DArray, indices: Any, axis: int | None = -1) -> DArray:
    """Elements of ``arr`` at ``indices`` along ``axis``; the other axes broadcast (None: of the
    flattened ``arr``, with 1-d indices). See also: numpy.take_along_axis."""
    arr = arr if isinstance(arr, DArray) else asarray(arr)
    idx, axis = along_axis("take_along_axis", arr, indices, axis)
    return getitem(arr.reshape(-1), (idx,)) if axis is None else getitem(arr, along(arr, idx, axis))


def flat_key(op: str, a: DArray, idx: DArray) -> tuple[DArray, tuple[DArray, ...]]:
    """(target, key): ``target[key]`` are the elements of ``a`` at the flat positions ``idx`` (negative
    ones count from the end; out of range: an IndexError naming ``op``); the target is ``a``, or a
    1-d view of a 0-d ``a``."""
    n = a.size
    bad = (idx < -n) | (idx >= n)
    if _checked() and bool(R.any(bad)):
        raise IndexError(f"darray {op}: index {idx.get()[bad.get()][0]} is out of bounds for axis 0 with size {n}")
    flat = E.where(idx < 0, idx + n, idx)
    if a.ndim == 0:
        return a.reshape(1), (flat,)
    inner = [prod(a.shape[j + 1:]) for j in range(a.ndim)]
    return a, tuple((flat // inner[j]) % a.shape[j] for j in range(a.ndim))


@named
def put(a: DArray, ind: Any, v: Any, mode: str = "raise") -> None:
    """``a.flat[ind] = v`` in place, ``v`` repeated to the length of ``ind`` (cast unsafely, as
    NumPy; no values: nothing is written). See also: numpy.put."""
    check_mode("put", mode)
    if not isinstance(a, DArray):
        raise TypeError(f"darray put: the array written in place must be a DArray, got {type(a).__name__}")
    if a._readonly:
        read_only("put", "output array")
    idx = positions("put", ind, a.place, "safe")
    idx = (idx if isinstance(idx, DArray) else asarray(idx, dtype=_dt.int64, device=a.place)).reshape(-1)
    if idx.size and not a.size:
        raise IndexError("darray put: cannot replace elements of an empty array")
    vals = values_as("put", v, a.dtype, a.place, "unsafe").reshape(-1)
    if not idx.size or not vals.size:
        return
    idx = _moded("put", idx, a.size, mode)
    if vals.size != idx.size:
        vals = take(vals, arange(idx.size, dtype=_dt.int64, device=a.place) % vals.size)
    setitem(*flat_key("put", a, idx), vals)
