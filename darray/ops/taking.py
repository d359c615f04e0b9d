"""take, take_along_axis and put: NumPy's index functions, as keys of ``x[key]`` (``ops.indexing``).

Indices are integers as NumPy casts them to intp ('same_kind': bools count as 0 and 1, floats
are a TypeError); only mode "raise" is offered.
"""
from __future__ import annotations

from math import prod
from typing import Any

from .. import dtypes as _dt
from .._array import DArray
from .._convert import asarray, astype
from ..dim import normalize_axis
from . import elementwise as E
from . import reduction as R
from .creation import arange
from .indexing import _checked, getitem, setitem

__all__ = ["take", "take_along_axis", "put"]


def _positions(op: str, indices: Any, place: Any) -> Any:
    """The ``indices`` of ``take`` or ``put`` as integers: NumPy casts them to intp with the
    'same_kind' rule, so bools count as 0 and 1 (not a mask) and floats or complex are a TypeError."""
    if isinstance(indices, int) and not isinstance(indices, bool):
        return indices
    idx = indices if isinstance(indices, DArray) else asarray(indices, device=place)
    if idx.dtype.kind == "b":
        return astype(idx, _dt.int64, copy=False)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"darray {op}: cannot cast the indices from {idx.dtype} to int64; indices must be "
                        "integers (or bools, counted as 0 and 1)")
    return idx


def take(x: DArray, indices: Any, /, *, axis: int | None = None) -> DArray:
    """Elements of ``x`` at ``indices`` along ``axis`` (None: of the flattened array).

    See also: numpy.take (mode "raise" only). Differs from NumPy: a list or Python float of
    integral floats is a TypeError, as a float array is (NumPy casts those unsafely)."""
    indices = _positions("take", indices, x.place)
    if axis is None:
        return getitem(x.reshape(-1), (indices,))
    axis = normalize_axis(axis, x.ndim, "take")
    return getitem(x, (slice(None),) * axis + (indices,))


def take_along_axis(x: DArray, indices: Any, /, *, axis: int = -1) -> DArray:
    """Elements of ``x`` at ``indices`` along ``axis``; the other axes broadcast.

    See also: numpy.take_along_axis."""
    idx = indices if isinstance(indices, DArray) else asarray(indices, device=x._place)
    if idx.dtype.kind not in "iu":
        raise IndexError(f"darray take_along_axis: indices must be integers, got {idx.dtype}")
    if idx.ndim != x.ndim:
        raise ValueError(f"darray take_along_axis: indices and x must have the same number of dimensions, "
                         f"got {idx.ndim} and {x.ndim}")
    axis = normalize_axis(axis, x.ndim, "take_along_axis")
    key = tuple(idx if d == axis else
                arange(n, dtype=_dt.int64, device=x._place).reshape((1,) * d + (n,) + (1,) * (x.ndim - d - 1))
                for d, n in enumerate(x.shape))
    return getitem(x, key)


def put(x: DArray, indices: Any, values: Any, /) -> None:
    """``x.flat[indices] = values`` in place, ``values`` repeated to the length of ``indices``.

    See also: numpy.put (mode "raise" only)."""
    idx = asarray(_positions("put", indices, x._place), device=x._place).reshape(-1)
    vals = (values if isinstance(values, DArray) else asarray(values, device=x._place)).reshape(-1)
    if not idx.size:
        return
    if not vals.size:
        raise ValueError("darray put: cannot put an empty set of values into a non-empty set of indices")
    if vals.size != idx.size:
        vals = take(vals, arange(idx.size, dtype=_dt.int64, device=x._place) % vals.size)
    if x.ndim == 0:
        setitem(x.reshape(1), (idx,), vals)
        return
    n = x.size
    flat = E.where(idx < 0, idx + n, idx)
    bad = (idx < -n) | (idx >= n)
    if _checked() and bool(R.any(bad)):
        first = idx.get()[bad.get()][0]
        raise IndexError(f"darray put: index {first} is out of bounds for size {n}")
    inner = [prod(x.shape[j + 1:]) for j in range(x.ndim)]
    setitem(x, tuple((flat // inner[j]) % x.shape[j] for j in range(x.ndim)), vals)
