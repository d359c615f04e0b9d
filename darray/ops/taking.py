"""take, take_along_axis and put: NumPy's index functions, as keys of ``x[key]`` (``ops.indexing``).

Indices are integers as NumPy casts them to intp ('same_kind': bools count as 0 and 1, floats
are a TypeError); ``mode`` is NumPy's: "raise", "wrap" (modulo the length) or "clip".
"""
from __future__ import annotations

from math import prod
from typing import Any

from .. import dtypes as _dt
from .._array import DArray, read_only
from ..dim import normalize_axis
from ..transfer.convert import asarray, astype
from . import elementwise as E
from . import reduction as R
from ._out import finish
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


def _moded(op: str, idx: Any, n: int, mode: str) -> Any:
    """``idx`` under NumPy's ``mode``: "raise" as given, "wrap" modulo ``n``, "clip" into ``[0, n)``."""
    if mode == "raise":
        return idx
    if mode not in ("wrap", "clip"):
        raise ValueError(f"darray {op}: clipmode must be one of 'clip', 'raise', or 'wrap', got {mode!r}")
    if n == 0:
        raise IndexError(f"darray {op}: cannot do a non-empty {op} from an empty axis")
    if isinstance(idx, int):
        return idx % n if mode == "wrap" else min(max(idx, 0), n - 1)
    return E.apply("remainder", idx, n) if mode == "wrap" else E.apply("minimum", E.apply("maximum", idx, 0), n - 1)


def take(a: DArray, indices: Any, axis: int | None = None, out: Any = None, mode: str = "raise") -> DArray:
    """Elements of ``a`` at ``indices`` along ``axis`` (None: of the flattened array), written into
    ``out`` when given.

    See also: numpy.take. Differs from NumPy: a list or Python float of integral floats is a
    TypeError, as a float array is (NumPy casts those unsafely)."""
    indices = _positions("take", indices, a.place)
    if axis is None:
        flat = a.reshape(-1)
        return finish("take", getitem(flat, (_moded("take", indices, flat.size, mode),)), out)
    axis = normalize_axis(axis, a.ndim, "take")
    return finish("take", getitem(a, (slice(None),) * axis + (_moded("take", indices, a.shape[axis], mode),)), out)


def take_along_axis(arr: DArray, indices: Any, axis: int = -1) -> DArray:
    """Elements of ``x`` at ``indices`` along ``axis``; the other axes broadcast.

    See also: numpy.take_along_axis."""
    idx = indices if isinstance(indices, DArray) else asarray(indices, device=arr._place)
    if idx.dtype.kind not in "iu":
        raise IndexError(f"darray take_along_axis: indices must be integers, got {idx.dtype}")
    if idx.ndim != arr.ndim:
        raise ValueError(f"darray take_along_axis: indices and arr must have the same number of dimensions, "
                         f"got {idx.ndim} and {arr.ndim}")
    axis = normalize_axis(axis, arr.ndim, "take_along_axis")
    key = tuple(idx if d == axis else
                arange(n, dtype=_dt.int64, device=arr._place).reshape((1,) * d + (n,) + (1,) * (arr.ndim - d - 1))
                for d, n in enumerate(arr.shape))
    return getitem(arr, key)


def put(a: DArray, ind: Any, v: Any, mode: str = "raise") -> None:
    """``x.flat[indices] = values`` in place, ``values`` repeated to the length of ``indices``.

    See also: numpy.put."""
    if isinstance(a, DArray) and a._readonly:
        read_only("put", "output array")
    idx = asarray(_positions("put", ind, a._place), device=a._place).reshape(-1)
    vals = (v if isinstance(v, DArray) else asarray(v, device=a._place)).reshape(-1)
    if not idx.size:
        return
    idx = _moded("put", idx, a.size, mode)
    if not vals.size:
        raise ValueError("darray put: cannot put an empty set of values into a non-empty set of indices")
    if vals.size != idx.size:
        vals = take(vals, arange(idx.size, dtype=_dt.int64, device=a._place) % vals.size)
    if a.ndim == 0:
        setitem(a.reshape(1), (idx,), vals)
        return
    n = a.size
    flat = E.where(idx < 0, idx + n, idx)
    bad = (idx < -n) | (idx >= n)
    if _checked() and bool(R.any(bad)):
        first = idx.get()[bad.get()][0]
        raise IndexError(f"darray put: index {first} is out of bounds for size {n}")
    inner = [prod(a.shape[j + 1:]) for j in range(a.ndim)]
    setitem(a, tuple((flat // inner[j]) % a.shape[j] for j in range(a.ndim)), vals)
