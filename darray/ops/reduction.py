"""Reductions: sum, prod, min, max, mean, var, std, argmin, argmax, any, all, count_nonzero.

On OpenCL places the input's pending elementwise chain fuses into the reduction kernel
(``(a * b).sum()`` reads a and b once, with no temporary); on CPU devices every reduction is
one launch (see ``darray/lazy/reduce.py``). Float sums accumulate blockwise (lanes of blocks
within a work-item's chunk, blocks of rows for axis-0 sums, then the lanes, then the partial
results), which is as accurate as NumPy's pairwise sum. Results stay on the device; full
reductions are 0-d.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from math import prod as _prod
from typing import Any, cast

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from .._convert import asarray, from_numpy, input_term
from .._typing import ArrayLike, DTypeLike, Scalar
from ..dim import Dim, normalize_axes
from ..lazy.reduce import reduce as _device_reduce
from ..place import CLPlace
from . import _dispatch as D
from . import elementwise as E
from ._table import expr
from .creation import full

__all__ = ["sum", "prod", "min", "max", "mean", "var", "std", "argmin", "argmax", "any", "all", "count_nonzero"]

_NUMPY: dict[str, Callable[..., Any]] = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min, "any": np.any,
                                         "all": np.all, "argmax": np.argmax, "argmin": np.argmin, "mean": np.mean}
_EMPTY: dict[str, Scalar] = {"sum": 0, "prod": 1, "any": False, "all": True, "mean": np.nan}
_NAMES = {"max": "maximum", "min": "minimum"}


def _sum_dtype(dt: np.dtype) -> np.dtype:
    """NumPy's default accumulator for sum/prod: small ints widen to the 64-bit int of their sign."""
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return _dt.int64
    if dt.kind == "u" and dt.itemsize < 8:
        return _dt.uint64
    return dt


def _dtypes(op: str, dt: np.dtype, dtype: Any) -> np.dtype:
    if dtype is not None:
        return _dt.as_dtype(dtype, op)
    if op in ("sum", "prod"):
        return _sum_dtype(dt)
    if op == "mean":
        return _dt.float64 if dt.kind in "biu" else dt
    if op in ("any", "all"):
        return _dt.bool_
    if op in ("argmax", "argmin"):
        return _dt.int64
    return dt


@lru_cache(maxsize=1024)
def _layout(op: str, shape: tuple[int, ...], dt: np.dtype, axis: Any, keepdims: bool, dtype: Any
            ) -> tuple[tuple[int, ...], np.dtype, tuple[int, ...], int, int]:
    """(axes, result dtype, result shape, reduced count k, output count m) of a reduction."""
    axes = normalize_axes(axis, len(shape), op)
    out_dt = _dtypes(op, dt, dtype)
    kept = tuple(n for a, n in enumerate(shape) if a not in axes)
    out_shape = tuple(1 if a in axes else n for a, n in enumerate(shape)) if keepdims else kept
    return axes, out_dt, out_shape, _prod(shape[a] for a in axes), _prod(kept)


def _ints(axes: tuple) -> bool:
    """Whether every entry is a plain int (this module's ``all`` is the reduction)."""
    for a in axes:
        if type(a) is not int:
            return False
    return True


def _reduce(op: str, x: Any, axis: Any, keepdims: bool, dtype: Any = None) -> DArray:
    x = x if isinstance(x, DArray) else asarray(x)
    if op in ("argmax", "argmin") and axis is not None and not isinstance(axis, (int, np.integer)):
        raise TypeError(f"darray {op}: axis must be an int or None, got {axis!r}")
    plain = dtype is None and (axis is None or type(axis) is int or (type(axis) is tuple and _ints(axis)))
    layout = _layout if plain else _layout.__wrapped__  # cache plain ints only (True == 1 must still raise)
    axes, out_dt, shape, k, m = layout(op, x.shape, x.dtype, axis, bool(keepdims), dtype)
    if k == 0 and op not in _EMPTY:  # NumPy: an empty reduced axis raises, even for an empty output
        what = f"attempt to get {op} of an empty sequence" if op.startswith("arg") else \
            f"zero-size array to reduction operation {_NAMES.get(op, op)} which has no identity"
        raise ValueError(f"darray {op}: {what}")
    return D.implementation("reduce", x.place)(op, x, axis, axes, out_dt, shape, k, m, keepdims)


@D.register("reduce", "cpu")
def _reduce_cpu(op: str, x: DArray, axis: Any, axes: tuple[int, ...], out_dt: np.dtype, shape: tuple[int, ...],
                k: int, m: int, keepdims: bool) -> DArray:
    """Reduction ``op`` through NumPy (``axis`` as given, ``axes`` normalised; ``shape``: the result's,
    ``k`` elements reduced into each of ``m``)."""
    host = x._host_view()
    with np.errstate(all="ignore"):
        if op.startswith("arg"):
            res = _NUMPY[op](host, axis=None if axis is None else axes[0], keepdims=keepdims)
        else:
            typed = {"dtype": out_dt} if op in ("sum", "prod", "mean") else {}
            res = _NUMPY[op](host, axis=axes, keepdims=keepdims, **typed)
    return from_numpy(np.asarray(res).astype(out_dt, copy=False), x.place)


@D.register("reduce", "cl")
def _reduce_cl(op: str, x: DArray, axis: Any, axes: tuple[int, ...], out_dt: np.dtype, shape: tuple[int, ...],
               k: int, m: int, keepdims: bool) -> DArray:
    """Reduction ``op`` in one kernel that the input's pending chain fuses into (arguments as
    :func:`_reduce_cpu`'s)."""
    if op == "mean" and out_dt.kind in "biu" and m and k:
        # NumPy: sum in ``dtype`` (wrapping), true-divide in float64, cast back (truncating)
        total = _reduce("sum", x, axes, keepdims, out_dt)
        return E.apply("divide", total, float(k)).astype(out_dt)
    if m == 0 or k == 0:
        fill = _EMPTY.get(op, 0)
        if op == "mean" and out_dt.kind == "c":
            fill = complex(np.nan, np.nan)  # NumPy: 0 / 0 in both parts
        return full(shape, fill, dtype=out_dt, device=x.place)
    acc = D.device_dtype(x.dtype if op.startswith("arg") else out_dt, x.place)
    dev_dt = D.device_dtype(out_dt, x.place)
    term = x._node if x._node is not None else input_term(x)
    place = cast(CLPlace, x.place)
    alloc = _device_reduce([term], x.shape, axes, "sum" if op == "mean" else op, acc, dev_dt, place, expr,
                           divisor=k if op == "mean" else None)
    return DArray(alloc, Dim.trusted(shape), dev_dt, x.place)


def _make(op: str, doc: str) -> Any:
    fn: Callable[..., DArray]
    if op in ("sum", "prod", "mean"):
        def fn(x: ArrayLike, /, *, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike = None,
               keepdims: bool = False) -> DArray:
            return _reduce(op, x, axis, keepdims, dtype)
    else:
        def fn(x: ArrayLike, /, *, axis: int | tuple[int, ...] | None = None,
               keepdims: bool = False) -> DArray:
            return _reduce(op, x, axis, keepdims)

    fn.__name__ = fn.__qualname__ = op
    fn.__doc__ = f"{doc}\n\nSee also: numpy.{op}"
    return fn


sum = _make("sum", "Sum over ``axis`` (None: all); ``dtype=`` sets the accumulator. Empty sums are 0.")  # noqa: A001
prod = _make("prod", "Product over ``axis``; empty products are 1.")
max = _make("max", "Maximum over ``axis``; NaN propagates; empty input raises ValueError.")  # noqa: A001
min = _make("min", "Minimum over ``axis``; NaN propagates; empty input raises ValueError.")  # noqa: A001
mean = _make("mean", "Arithmetic mean over ``axis`` (float64 for integer input; ``dtype=`` as NumPy's).")
any = _make("any", "True where any element over ``axis`` is non-zero.")  # noqa: A001
all = _make("all", "True where every element over ``axis`` is non-zero.")  # noqa: A001


def argmax(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> DArray:
    """Index of the first maximum (flat index for axis=None; the first NaN wins). See also: numpy.argmax."""
    return _reduce("argmax", x, axis, keepdims)


def argmin(x: Any, /, *, axis: int | None = None, keepdims: bool = False) -> DArray:
    """Index of the first minimum (flat index for axis=None; the first NaN wins). See also: numpy.argmin."""
    return _reduce("argmin", x, axis, keepdims)


def count_nonzero(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> DArray:
    """Number of non-zero elements over ``axis`` (int64). See also: numpy.count_nonzero."""
    return _reduce("sum", E.apply("not_equal", x, 0), axis, keepdims, _dt.int64)


def var(x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False) -> DArray:
    """Variance with ``correction`` (NumPy's ddof); the deviation chain fuses into the sum. See also: numpy.var."""
    x = x if isinstance(x, DArray) else asarray(x)
    axes = normalize_axes(axis, x.ndim, "var")
    n = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    centred = E.apply("subtract", x, _reduce("mean", x, axes, True))
    square = E.apply("real", E.apply("multiply", centred, E.apply("conj", centred))) if x.dtype.kind == "c" \
        else E.apply("multiply", centred, centred)
    total = _reduce("sum", square, axes, keepdims)
    return E.apply("divide", total, float(n - correction) if n - correction > 0 else 0.0)


def std(x: Any, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False) -> DArray:
    """Standard deviation with ``correction``. See also: numpy.std."""
    return E.apply("sqrt", var(x, axis=axis, correction=correction, keepdims=keepdims))

