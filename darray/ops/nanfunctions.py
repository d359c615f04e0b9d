"""The nan* reductions and scans: NaN treated as missing (NumPy's nanfunctions), on the device.

Each replaces NaN by the reduction's identity in a fused chain into darray's own reduction
(``nansum(x)`` is one kernel on OpenCL places); integer and bool inputs have no NaN and reduce as
they are. Differs from NumPy: no RuntimeWarning for all-NaN slices (the results are NumPy's: NaN
for nanmax, nanmean, nanvar...); nanargmax/nanargmin of an all-NaN slice raise ValueError as NumPy's.
"""
from __future__ import annotations

from typing import Any

from .. import dtypes as _dt
from .._array import DArray
from .._typing import DTypeLike
from ..dim import normalize_axes
from ..transfer.convert import asarray
from . import elementwise as E
from . import reduction as R
from . import scan as S
from ._out import reduced
from .manipulation import broadcast_to


def _array(a: Any) -> DArray:
    return a if isinstance(a, DArray) else asarray(a)


def _filled(x: DArray, value: Any) -> DArray:
    """``x`` with NaN replaced by ``value`` (x itself when it cannot hold NaN)."""
    return E.apply("where", E.apply("isnan", x), value, x) if x.dtype.kind in "fc" else x


def _nan_reduce(op: str, a: Any, fill: Any, axis: Any, dtype: Any, out: Any, keepdims: bool, initial: Any,
                where: Any) -> DArray:
    x = _array(a)
    extra = {"dtype": dtype} if op in ("sum", "prod") else {}
    return getattr(R, op)(_filled(x, fill), axis, out=out, keepdims=keepdims, initial=initial, where=where, **extra)


def nansum(a: Any, axis: Any = None, dtype: DTypeLike = None, out: Any = None, keepdims: bool = False,
           initial: Any = None, where: Any = True) -> DArray:
    """Sum over ``axis`` with NaN counted as zero. See also: numpy.nansum."""
    return _nan_reduce("sum", a, 0, axis, dtype, out, keepdims, initial, where)


def nanprod(a: Any, axis: Any = None, dtype: DTypeLike = None, out: Any = None, keepdims: bool = False,
            initial: Any = None, where: Any = True) -> DArray:
    """Product over ``axis`` with NaN counted as one. See also: numpy.nanprod."""
    return _nan_reduce("prod", a, 1, axis, dtype, out, keepdims, initial, where)


def _nan_extreme(op: str, a: Any, axis: Any, out: Any, keepdims: bool, initial: Any, where: Any) -> DArray:
    """nanmax/nanmin: NaN skipped (replaced by -inf/+inf; complex: -inf-infj/inf+infj), NaN where a
    slice has nothing else (complex: the slice's first element, as NumPy's fmax/fmin fold gives); of
    equal values (-0.0 and 0.0) the first, as NumPy's fold up to 8 elements (beyond, NumPy's SIMD
    lanes choose)."""
    x = _array(a)
    if x.dtype.kind not in "fc":
        return getattr(R, op)(x, axis, out=out, keepdims=keepdims, initial=initial, where=where)
    skip: Any = float("-inf") if op == "max" else float("inf")
    complex_ = x.dtype.kind == "c"
    filled, mask = _filled(x, complex(skip, skip) if complex_ else skip), where
    if not complex_:
        # NumPy's fmax/fmin fold keeps the first of equal values (-0.0, 0.0), max/min the last: so they
        # read the slices reversed (float16 as float32: NumPy's float16 loops keep the first)
        back = tuple(slice(None, None, -1) if d in normalize_axes(axis, x.ndim, f"nan{op}") else slice(None)
                     for d in range(x.ndim))
        filled = filled[back].astype(_dt.float32) if x.dtype == _dt.float16 else filled[back]
        mask = where if where is True else broadcast_to(asarray(where, device=x.place), x.shape)[back]
    result = getattr(R, op)(filled, axis, keepdims=keepdims, initial=initial, where=mask)
    none: Any = float("nan")
    if complex_ and where is True:
        axes = normalize_axes(axis, x.ndim, f"nan{op}")
        none = x[tuple((slice(0, 1) if keepdims else 0) if d in axes else slice(None) for d in range(x.ndim))]
    nan = E.apply("isnan", x) if where is True else E.apply("logical_or", E.apply("isnan", x),
                                                               E.apply("logical_not", where))
    empty = R.all(nan, axis, keepdims=keepdims)
    if initial is not None:
        return reduced(f"nan{op}", result.astype(x.dtype, copy=False), out)
    return reduced(f"nan{op}", E.apply("where", empty, none, result).astype(x.dtype, copy=False), out)


def nanmax(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, initial: Any = None,
           where: Any = True) -> DArray:
    """Maximum over ``axis`` ignoring NaN (NaN for an all-NaN slice). See also: numpy.nanmax."""
    return _nan_extreme("max", a, axis, out, keepdims, initial, where)


def nanmin(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, initial: Any = None,
           where: Any = True) -> DArray:
    """Minimum over ``axis`` ignoring NaN (NaN for an all-NaN slice). See also: numpy.nanmin."""
    return _nan_extreme("min", a, axis, out, keepdims, initial, where)


def _valid(x: DArray, where: Any) -> Any:
    """The mask of the elements that count: not NaN, and selected by ``where``."""
    valid = E.apply("logical_not", E.apply("isnan", x)) if x.dtype.kind in "fc" else True
    if where is True:
        return valid
    return where if valid is True else E.apply("logical_and", valid, where)


def _inexact(op: str, x: DArray, dtype: DTypeLike, out: Any) -> DArray:
    """``x``, after NumPy's check of nanmean/nanvar/nanstd: a float or complex ``x`` takes no other
    ``dtype=`` nor ``out``."""
    for given, what in ((dtype, "dtype"), (getattr(out, "dtype", None), "out")):
        if given is not None and x.dtype.kind in "fc" and _dt.as_dtype(given, op).kind not in "fc":
            raise TypeError(f"darray {op}: If a is inexact, then {what} must be inexact")
    return x


def nanmean(a: Any, axis: Any = None, dtype: DTypeLike = None, out: Any = None, keepdims: bool = False, *,
            where: Any = True) -> DArray:
    """Mean over ``axis`` of the non-NaN elements (NaN for an all-NaN slice). See also: numpy.nanmean."""
    x = _inexact("nanmean", _array(a), dtype, out)
    return R.mean(x, axis, dtype, out, keepdims, where=_valid(x, where))


def nanvar(a: Any, axis: Any = None, dtype: DTypeLike = None, out: Any = None, ddof: float = 0,
           keepdims: bool = False, *, where: Any = True, mean: Any = None, correction: float | None = None) -> DArray:
    """Variance over ``axis`` of the non-NaN elements. See also: numpy.nanvar."""
    x = _inexact("nanvar", _array(a), dtype, out)
    return R.var(x, axis, dtype, out, ddof, keepdims, where=_valid(x, where), mean=mean, correction=correction)


def nanstd(a: Any, axis: Any = None, dtype: DTypeLike = None, out: Any = None, ddof: float = 0,
           keepdims: bool = False, *, where: Any = True, mean: Any = None, correction: float | None = None) -> DArray:
    """Standard deviation over ``axis`` of the non-NaN elements. See also: numpy.nanstd."""
    x = _inexact("nanstd", _array(a), dtype, out)
    return R.std(x, axis, dtype, out, ddof, keepdims, where=_valid(x, where), mean=mean, correction=correction)


def _nan_arg(op: str, a: Any, axis: Any, out: Any, keepdims: bool) -> DArray:
    x = _array(a)
    if x.dtype.kind not in "fc":
        return getattr(R, op)(x, axis, out, keepdims=keepdims)
    nan = E.apply("isnan", x)
    axes = normalize_axes(axis, x.ndim, f"nan{op}")
    if x.size and bool(R.any(R.all(nan, axes))):
        raise ValueError(f"darray nan{op}: All-NaN slice encountered")
    skip = float("-inf") if op == "argmax" else float("inf")
    return getattr(R, op)(_filled(x, skip), axis, out, keepdims=keepdims)


def nanargmax(a: Any, axis: int | None = None, out: Any = None, *, keepdims: bool = False) -> DArray:
    """Index of the first maximum ignoring NaN; ValueError for an all-NaN slice. See also: numpy.nanargmax."""
    return _nan_arg("argmax", a, axis, out, keepdims)


def nanargmin(a: Any, axis: int | None = None, out: Any = None, *, keepdims: bool = False) -> DArray:
    """Index of the first minimum ignoring NaN; ValueError for an all-NaN slice. See also: numpy.nanargmin."""
    return _nan_arg("argmin", a, axis, out, keepdims)


def nancumsum(a: Any, axis: int | None = None, dtype: DTypeLike = None, out: Any = None) -> DArray:
    """Cumulative sum with NaN counted as zero. See also: numpy.nancumsum."""
    return S.cumsum(_filled(_array(a), 0), axis, dtype, out)


def nancumprod(a: Any, axis: int | None = None, dtype: DTypeLike = None, out: Any = None) -> DArray:
    """Cumulative product with NaN counted as one. See also: numpy.nancumprod."""
    return S.cumprod(_filled(_array(a), 1), axis, dtype, out)


__all__ = ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "nanargmax", "nanargmin",
           "nancumsum", "nancumprod"]
