"""Order statistics and averages: median, percentile, quantile (NumPy's 13 methods), their nan*
forms, average, cov and corrcoef, on the array's place.

Quantiles sort each slice on the device (darray's sort; NaN last), then gather the two
neighbours of each virtual index and interpolate them in one fused step. One long slice on a
device takes a selection instead of the sort (:func:`_ranked`): a count in equal bins finds the
bins holding the ranks, and only their values are sorted. The neighbours and weights depend
only on the slice's length (its count of non-NaN elements for the nan* forms): computed on the
host by NumPy's definitions (:func:`_positions`), once per distinct length. cov and corrcoef
are matmuls on the device.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..dim import normalize_axes
from ..transfer.convert import asarray, from_numpy, to_numpy
from . import elementwise as E
from . import reduction as R
from ._out import finish, reduced
from .creation import diag, full
from .histogram import histogram_bin_edges, uniform_counts
from .linalg import matmul
from .manipulation import broadcast_to, concat, moveaxis, reshape
from .scan import cumulative_sum
from .sorting import argsort, sort
from .taking import take, take_along_axis

_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
            "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest")
_DISCRETE = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")


# Hyndman and Fan's sample quantiles as NumPy computes them. Continuous methods: the virtual index
# n q + (alpha + q (1 - alpha - beta)) - 1 of their (alpha, beta) (linear: (n - 1) q as NumPy writes it).
_ALPHA_BETA = {"interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5), "weibull": (0.0, 0.0),
               "median_unbiased": (1 / 3.0, 1 / 3.0), "normal_unbiased": (3 / 8.0, 3 / 8.0)}


def _boundary(index: np.ndarray, stay: np.ndarray) -> np.ndarray:
    """The discrete methods' order statistic: floor(index) where ``stay``, else the next; never below 0."""
    below = np.floor(index)
    return np.maximum(np.where(stay, below, below + 1), 0).astype(np.int64)


@lru_cache(maxsize=4096)
def _positions(n: int, qs: tuple[float, ...], method: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(previous, next, gamma) for quantiles ``qs`` of a sorted slice of ``n >= 1`` values, as NumPy computes
    them: the result is ``sorted[previous]`` for the discrete methods, else NumPy's interpolation between
    ``sorted[previous]`` and ``sorted[next]`` by gamma (an index past either end takes that end for both)."""
    q = np.asarray(qs, dtype=np.float64)
    lin = (n - 1) * q
    if method in _DISCRETE:
        index = {"lower": lambda: np.floor(lin).astype(np.int64), "higher": lambda: np.ceil(lin).astype(np.int64),
                 "nearest": lambda: np.around(lin).astype(np.int64),
                 "inverted_cdf": lambda: _boundary(n * q - 1, (n * q - 1) % 1 == 0),
                 "closest_observation": lambda: _boundary(n * q - 1.5, ((n * q - 1.5) % 1 == 0) &
                                                          (np.floor(n * q - 1.5) % 2 == 1))}[method]()
        return index, index, np.zeros(q.shape)
    if method in _ALPHA_BETA:
        alpha, beta = _ALPHA_BETA[method]
        virtual = n * q + (alpha + q * (1 - alpha - beta)) - 1
    else:
        virtual = {"linear": lin, "averaged_inverted_cdf": n * q - 1,
                   "midpoint": 0.5 * (np.floor(lin) + np.ceil(lin))}[method]
    prev = np.floor(virtual)
    above, below = virtual >= n - 1, virtual < 0
    prev[above], prev[below] = -1, 0
    gamma = virtual - prev
    if method == "averaged_inverted_cdf":
        gamma = np.where(gamma == 0, 0.5, 1.0)
    elif method == "midpoint":
        gamma = np.where(virtual % 1 == 0, 0.0, 0.5)
    nxt = np.where(above | below, prev, prev + 1)
    return np.where(prev < 0, n - 1, prev).astype(np.int64), np.where(nxt < 0, n - 1, nxt).astype(np.int64), gamma


def _lerp(a: DArray, b: DArray, t: DArray) -> DArray:
    """NumPy's interpolation between neighbours, from b's side for t >= 0.5 (as NumPy's: NaN where an
    infinite neighbour meets t = 0, and -0.0 becomes 0.0)."""
    diff = E.apply("subtract", b, a)
    low = E.apply("add", a, E.apply("multiply", diff, t))
    high = E.apply("subtract", b, E.apply("multiply", diff, E.apply("subtract", 1, t)))
    return E.apply("where", E.apply("greater_equal", t, 0.5), high, low)


_SELECT_MIN, _SELECT_BINS = 1 << 16, 2048


def _ranked(v: DArray, ranks: np.ndarray, depth: int = 0) -> DArray:
    """The values at the positions ``ranks`` (sorted, distinct) of ``sort(v)``, 1-D ``v``, by selection:
    a count of ``v`` in equal bins over [min, max] finds the bins holding the ranks, and only their
    values are sorted (narrowed again while they are over 1/8 of ``v``). A full sort where that cannot
    gain: few values, min or max not finite (NaN included), ranks spread over many bins."""
    n = v.size
    lo, hi = (float(R.min(v)), float(R.max(v))) if n >= _SELECT_MIN and depth < 4 else (np.nan, np.nan)
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return take(sort(v), from_numpy(ranks, v.place))
    if lo == hi:
        return full(ranks.size, lo, dtype=v.dtype, device=v.place)
    edges = histogram_bin_edges(v, _SELECT_BINS, (lo, hi))
    below = np.concatenate([[0], np.cumsum(to_numpy(uniform_counts(v, edges, None)))])
    e = to_numpy(edges)
    bins = np.searchsorted(below, ranks, side="right") - 1
    chosen = np.unique(bins)
    starts = np.flatnonzero(np.diff(chosen, prepend=-2) > 1)  # runs of neighbouring bins: one interval each
    if starts.size > 8:
        return take(sort(v), from_numpy(ranks, v.place))
    mask: Any = None
    for first, last in zip(chosen[starts], chosen[np.append(starts[1:], chosen.size) - 1]):
        top = "less_equal" if last == _SELECT_BINS - 1 else "less"  # the last bin holds max
        inside = E.apply("logical_and", E.apply("greater_equal", v, e[first].item()),
                         E.apply(top, v, e[last + 1].item()))
        mask = inside if mask is None else E.apply("logical_or", mask, inside)
    found = v[mask]
    held = np.diff(below)[chosen]
    start = dict(zip(chosen.tolist(), (np.cumsum(held) - held).tolist()))
    pos = ranks - below[bins] + np.array([start[b] for b in bins.tolist()], dtype=np.int64)
    if found.size * 8 > n:
        return _ranked(found, pos, depth + 1)
    return take(sort(found), from_numpy(pos, v.place))


def _weight_rows(op: str, weights: Any, x: DArray, axes: tuple[int, ...], shape: tuple[int, int]) -> DArray:
    """``weights`` (x's shape, or 1-D along one axis) in the (rows, n) layout of x's slices; NumPy's errors."""
    w = weights if isinstance(weights, DArray) else asarray(weights, device=x.place)
    if w.shape != x.shape:
        if len(axes) != 1 or w.shape != (x.shape[axes[0]],):
            raise ValueError(f"darray {op}: Shape of weights must be consistent with shape of a along specified axis.")
        w = broadcast_to(reshape(w, tuple(-1 if k == axes[0] else 1 for k in range(x.ndim))), x.shape)
    if w.size and bool(R.any(E.apply("less", w, 0))):
        raise ValueError(f"darray {op}: Weights must be non-negative.")
    return reshape(moveaxis(w, axes, tuple(range(x.ndim - len(axes), x.ndim))), shape)


def _weighted(op: str, flat: DArray, w: DArray, qs: np.ndarray, skip_nan: bool) -> DArray:
    """NumPy's weighted ``inverted_cdf`` quantiles of each row of ``flat``: the first sorted value whose share
    of the total weight (running, in sorted order) reaches q; leading zero weights never count. Without
    ``skip_nan`` a row holding NaN gives NaN; with it, NaNs weigh nothing."""
    n = flat.shape[1]
    order = argsort(flat, axis=-1)
    ordered = take_along_axis(flat, order, axis=-1)
    ws = take_along_axis(w, order, axis=-1).astype(_dt.float64)
    nan = flat.dtype.kind == "f"
    if skip_nan and nan:
        ws = E.apply("where", E.apply("isnan", ordered), 0.0, ws)
    running = cumulative_sum(ws, axis=-1)
    cdf = E.apply("divide", running, running[:, -1:])
    bad = E.apply("isnan", cdf[:, -1])  # a total of 0, inf or NaN (an all-NaN slice is NaN with skip_nan)
    if bool(R.any(E.apply("logical_and", bad, E.apply("logical_not", E.apply("isnan", ordered[:, 0])))
                  if skip_nan and nan else bad)):
        raise ValueError(f"darray {op}: Weights included NaN, inf or were all zero.")
    cdf = E.apply("where", E.apply("equal", cdf, 0), -1.0, cdf)
    below = E.apply("less", reshape(cdf, (*cdf.shape, 1)), from_numpy(qs, flat.place))
    idx = E.apply("minimum", R.sum(below, axis=1, dtype=_dt.int64), n - 1)
    result = take_along_axis(ordered, idx, axis=-1)
    if nan and not skip_nan:
        result = E.apply("where", E.apply("isnan", ordered[:, -1:]), np.nan, result)
    return result


def _quantile(op: str, a: Any, q: Any, axis: Any, out: Any, method: str, keepdims: bool, skip_nan: bool,
              mean: bool = False, scale: float = 1.0, weights: Any = None) -> DArray:
    """The quantiles ``q`` of ``a`` over ``axis``; ``mean``: the middle of an even count is the mean of
    its two neighbours (``median``: NumPy's median averages them rather than interpolating)."""
    x = a if isinstance(a, DArray) else asarray(a)
    if method not in _METHODS:
        raise ValueError(f"darray {op}: method {method!r} is not one of {', '.join(_METHODS)}")
    if weights is not None and method != "inverted_cdf":
        raise ValueError(f"darray {op}: Only method 'inverted_cdf' supports weights. Got: {method}.")
    if x.dtype.kind == "c" and not mean:
        raise TypeError(f"darray {op}: a must be an array of real numbers")
    q = to_numpy(q) if isinstance(q, DArray) else q
    qs = np.true_divide(np.asarray(q, dtype=np.float64), scale)
    if qs.size and not (np.all(qs >= 0) and np.all(qs <= 1)):
        raise ValueError(f"darray {op}: Quantiles must be in the range [0, 1]" if op.endswith("quantile") or
                         op.endswith("median") else f"darray {op}: Percentiles must be in the range [0, 100]")
    axes = normalize_axes(axis, x.ndim, op)
    rest = tuple(n for k, n in enumerate(x.shape) if k not in axes)
    n = int(np.prod([x.shape[k] for k in axes], dtype=np.int64))
    rows = int(np.prod(rest, dtype=np.int64))
    if mean:  # NumPy's median: the mean of the middle values (bool, ints -> float64)
        out_dt = np.mean(np.zeros(2, x.dtype)).dtype
    else:  # NumPy's dtype, q's own (weak or strong) included
        probe = np.percentile if scale == 100 else np.quantile
        out_dt = probe(np.zeros(2, x.dtype), np.asarray(q).reshape(-1)[:1][0] if np.ndim(q) else q,
                       method=cast(Any, method)).dtype
    flat = reshape(moveaxis(x, axes, tuple(range(x.ndim - len(axes), x.ndim))), (rows, n))
    if n == 0 or rows == 0:
        result = full((rows, qs.size), np.nan, dtype=_dt.as_dtype(out_dt), device=x.place)
    elif weights is not None:
        w = _weight_rows(op, weights, x, axes, (rows, n))
        result = _weighted(op, flat, w, qs.reshape(-1), skip_nan).astype(out_dt, copy=False)
    else:
        nan = x.dtype.kind == "f"
        counts = to_numpy(R.sum(E.apply("logical_not", E.apply("isnan", flat)), axis=-1)) if skip_nan and nan \
            else np.full(rows, n)
        key = tuple(qs.reshape(-1).tolist())
        found = [_positions(max(int(c), 1), key, method) for c in (counts if skip_nan and nan else counts[:1])]
        lo, hi, gamma = (np.broadcast_to(np.stack(part), (rows, qs.size)) for part in zip(*found))
        if rows == 1 and not skip_nan and n >= _SELECT_MIN and x.place.kind == "cl" and \
                x.dtype.kind in "iuf" and x.dtype != _dt.float16:
            ranks = np.unique(np.concatenate([lo.ravel(), hi.ravel(), [n - 1]]))
            ordered = reshape(_ranked(reshape(flat, (n,)), ranks), (1, -1))
            lo, hi = np.searchsorted(ranks, lo), np.searchsorted(ranks, hi)
        else:
            ordered = sort(flat, axis=-1)
        work = ordered.astype(out_dt, copy=False)
        low = take_along_axis(work, from_numpy(lo, x.place), axis=-1)
        high = take_along_axis(work, from_numpy(hi, x.place), axis=-1)
        t = from_numpy(gamma.astype(out_dt if out_dt.kind == "f" else np.float64), x.place)
        if method in _DISCRETE:  # NumPy takes the element itself: no arithmetic with its neighbour
            result = low
        else:
            result = _lerp(low, high, t) if not mean else E.apply(
                "where", E.apply("equal", t, 0), low, E.apply("divide", E.apply("add", low, high), 2))
        result = result.astype(out_dt, copy=False)
        if nan and not skip_nan:  # NaN sorts last: a slice holding one gives NaN, as NumPy
            result = E.apply("where", E.apply("isnan", ordered[:, -1:]), np.nan, result)
        elif nan:  # an all-NaN slice
            result = E.apply("where", from_numpy(counts[:, None] == 0, x.place), np.nan, result)
    kept = tuple(1 if k in axes else s for k, s in enumerate(x.shape)) if keepdims else rest
    result = moveaxis(result, -1, 0) if qs.ndim else result[:, 0]
    # into out as NumPy's: the median (mean's) and the nan-functions (out[...] = ) by any cast, the
    # quantiles by their ufuncs' same_kind
    return (reduced if mean or skip_nan else finish)(op, reshape(result, qs.shape + kept), out)


def quantile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
             method: str = "linear", keepdims: bool = False, *, weights: Any = None,
             interpolation: Any = None) -> DArray:
    """The ``q``-th quantiles (q in [0, 1]) over ``axis``, by any of NumPy's 13 methods; NaN in a slice
    gives NaN; ``weights`` (x's shape, or 1-D along one axis) with ``method="inverted_cdf"``. See also:
    numpy.quantile."""
    return _quantile("quantile", a, q, axis, out, interpolation or method, keepdims, False, weights=weights)


def percentile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
               method: str = "linear", keepdims: bool = False, *, weights: Any = None,
               interpolation: Any = None) -> DArray:
    """The ``q``-th percentiles (q in [0, 100]) over ``axis``. See also: numpy.percentile."""
    return _quantile("percentile", a, q, axis, out, interpolation or method, keepdims, False, scale=100,
                     weights=weights)


def median(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False, keepdims: bool = False) -> DArray:
    """The median over ``axis`` (the mean of the two middle values for even counts). See also: numpy.median."""
    return _quantile("median", a, 0.5, axis, out, "linear", keepdims, False, mean=True)


def nanquantile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
                method: str = "linear", keepdims: bool = False, *, weights: Any = None,
                interpolation: Any = None) -> DArray:
    """:func:`quantile` ignoring NaN (NaN for an all-NaN slice). See also: numpy.nanquantile."""
    return _quantile("nanquantile", a, q, axis, out, interpolation or method, keepdims, True, weights=weights)


def nanpercentile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
                  method: str = "linear", keepdims: bool = False, *, weights: Any = None,
                  interpolation: Any = None) -> DArray:
    """:func:`percentile` ignoring NaN. See also: numpy.nanpercentile."""
    return _quantile("nanpercentile", a, q, axis, out, interpolation or method, keepdims, True, scale=100,
                     weights=weights)


def nanmedian(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
              keepdims: bool = False) -> DArray:
    """:func:`median` ignoring NaN. See also: numpy.nanmedian."""
    return _quantile("nanmedian", a, 0.5, axis, out, "linear", keepdims, True, mean=True)


def average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False, *,
            keepdims: bool = False) -> Any:
    """The (weighted) mean over ``axis``; ``returned`` adds the sum of the weights. See also: numpy.average."""
    x = a if isinstance(a, DArray) else asarray(a)
    if weights is None:
        avg = R.mean(x, axis, keepdims=keepdims)
        count = full(avg.shape, x.size // max(avg.size, 1), dtype=avg.dtype, device=x.place)
        return (avg, count) if returned else avg
    w = weights if isinstance(weights, DArray) else asarray(weights, device=x.place)
    if w.shape != x.shape:
        if axis is None or not isinstance(axis, (int, np.integer)) or w.ndim != 1 or w.size != x.shape[axis]:
            raise TypeError("darray average: Axis must be specified when shapes of a and weights differ.") \
                if axis is None else ValueError("darray average: Shape of weights must be consistent with shape of a "
                                                "along specified axis.")
        w = reshape(w, tuple(w.size if k == axis % x.ndim else 1 for k in range(x.ndim)))
    dt = _dt.result_type(x.dtype, w.dtype, _dt.float64) if x.dtype.kind in "biu" else _dt.result_type(x.dtype, w.dtype)
    total_w = R.sum(E.apply("multiply", w.astype(dt), full(x.shape, 1, dtype=dt, device=x.place)), axis,
                    keepdims=keepdims)
    if bool(R.any(E.apply("equal", total_w, 0))):
        raise ZeroDivisionError("darray average: Weights sum to zero, can't be normalized")
    avg = E.apply("divide", R.sum(E.apply("multiply", x.astype(dt), w.astype(dt)), axis, keepdims=keepdims), total_w)
    return (avg, total_w) if returned else avg


def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: int | None = None,
        fweights: Any = None, aweights: Any = None, *, dtype: Any = None) -> DArray:
    """Covariance matrix of the variables (rows; columns with ``rowvar=False``), with frequency and
    analytic weights, as NumPy's. See also: numpy.cov."""
    x = m if isinstance(m, DArray) else asarray(m)
    if x.ndim > 2:
        raise ValueError("darray cov: m has more than 2 dimensions")
    yy = None if y is None else y if isinstance(y, DArray) else asarray(y, device=x.place)
    dt = _dt.as_dtype(dtype, "cov") if dtype is not None else \
        _dt.result_type(x.dtype, *([] if yy is None else [yy.dtype]), _dt.float64)
    if dt.kind not in "fc":  # NumPy: X -= mean (float64) in place
        raise TypeError(f"darray cov: Cannot cast ufunc 'subtract' output from dtype('float64') to {dt!r} with "
                        "casting rule 'same_kind'")
    x = reshape(x, (1, -1) if x.ndim < 2 else x.shape).astype(dt)
    if not rowvar and x.shape[0] != 1:
        x = x.T
    if yy is not None:
        yy = reshape(yy, (1, -1) if yy.ndim < 2 else yy.shape).astype(dt)
        if not rowvar and yy.shape[0] != 1:
            yy = yy.T
        x = concat([x, yy], axis=0)
    n = x.shape[1]
    w: DArray | None = None
    for weights, kind in ((fweights, "f"), (aweights, "a")):
        if weights is not None:
            w = _cov_weights(weights, kind, n, x.place) if w is None else \
                E.apply("multiply", w, _cov_weights(weights, kind, n, x.place))
    if w is None:
        mean = R.mean(x, axis=1, keepdims=True)
        total = float(n)
        fact = total - (0 if bias else 1) if ddof is None else total - ddof
        centred = E.apply("subtract", x, mean)
        c = matmul(centred, E.apply("conj", centred).T)
    else:
        total_d = R.sum(w)
        mean = E.apply("divide", R.sum(E.apply("multiply", x, w), axis=1, keepdims=True), total_d)
        total = float(to_numpy(total_d))
        if ddof is None:
            ddof = 0 if bias else 1
        fact = total - ddof if aweights is None else total - ddof * float(
            to_numpy(R.sum(E.apply("multiply", w, _cov_weights(aweights, "a", n, x.place))))) / total
        centred = E.apply("subtract", x, mean)
        c = matmul(E.apply("multiply", centred, w), E.apply("conj", centred).T)
    c = E.apply("divide", c, max(fact, 0.0))
    return reshape(c, ()) if c.shape == (1, 1) else c


def _cov_weights(weights: Any, kind: str, n: int, place: Any) -> DArray:
    """``fweights``/``aweights`` as float64 (NumPy's), with NumPy's checks and exception classes."""
    w = (weights if isinstance(weights, DArray) else asarray(weights, device=place)).astype(_dt.float64)
    if w.ndim > 1:
        raise RuntimeError(f"darray cov: cannot handle multidimensional {kind}weights")
    if w.size != n or w.ndim != 1:
        raise RuntimeError(f"darray cov: incompatible numbers of samples and {kind}weights")
    if kind == "f" and not bool(R.all(E.apply("equal", w, E.apply("round", w)))):
        raise TypeError("darray cov: fweights must be integer")
    if bool(R.any(E.apply("less", w, 0))):
        raise ValueError(f"darray cov: {kind}weights cannot be negative")
    return w


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, *, dtype: Any = None) -> DArray:
    """Pearson correlation coefficients (the covariance normalised by the standard deviations, clipped
    to [-1, 1] for real input). See also: numpy.corrcoef."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return E.apply("divide", c, c)
    d = E.apply("real", E.apply("sqrt", diag(c)))
    c = E.apply("divide", E.apply("divide", c, reshape(d, (-1, 1))), reshape(d, (1, -1)))
    return E.apply("clip", c, -1, 1) if c.dtype.kind == "f" else c


__all__ = ["quantile", "percentile", "median", "nanquantile", "nanpercentile", "nanmedian", "average", "cov",
           "corrcoef"]
