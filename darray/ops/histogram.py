"""Counting: bincount, digitize, histogram, histogram_bin_edges, histogram2d, histogramdd, on the
array's place.

Counts come from a sort: the sorted bin numbers are cut at each bin's first and last position
(``searchsorted``), and weights are summed as differences of their running sum in that order.
Bin numbers follow NumPy's rules (the last edge belongs to the last bin; NumPy's correction
of uniform bins against the edges themselves). The edges of a histogram are computed on the
host from the range (two device reductions read back); NumPy's string estimators ('auto',
'fd', ...) compute them from a host copy of the data.
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..dtypes import ctype
from ..place import CLPlace, runtime
from ..transfer.convert import asarray, empty, from_numpy, to_numpy
from . import _dispatch as D
from . import elementwise as E
from . import reduction as R
from ._kernel import origin, run, source
from .creation import ascontiguousarray
from .manipulation import reshape
from .searching import searchsorted
from .taking import take


def _array(x: Any, place: Any = None) -> DArray:
    return x if isinstance(x, DArray) else asarray(x, device=place)


def _rows(place: CLPlace, n: int, bins: int) -> int:
    """Work-items of a count over ``n`` values, one row of ``bins`` cells each: enough for the
    device's cores, in runs of at least 4096 values, and rows that take about as much memory as the values."""
    info = runtime(place).info
    want = info.compute_units * (64 if info.form == "gpu" else 4)
    return max(1, min(want, -(-n // 4096), (4 * n + (1 << 20)) // max(bins, 1)))


def _launch(entry: str, x: DArray, bins: int, w: DArray | None, extra: tuple = (), options: str = "") -> DArray:
    """The sums over the rows of ``entry`` of ``kernels/histogram.cl`` on the contiguous values ``x``:
    counts (int64), or sums of the weights ``w`` (the device's float64)."""
    place = cast(CLPlace, x.place)
    n, cell = x.size, (_dt.uint32 if w is None else D.device_dtype(_dt.float64, place))
    parts = _rows(place, n, bins)
    rows = empty((parts, bins), cell, place)
    xa, xo = origin(x)
    args: list[Any] = [xa.buffer, xo]
    reads = [xa]
    opts = [f"-D T={ctype(x.dtype)}", f"-D C={ctype(cell)}", options]
    if w is not None:
        wa, wo = origin(w)
        args += [wa.buffer, wo]
        reads.append(wa)
        opts += ["-D WEIGHTED", f"-D W={ctype(cell)}"]
    for a in extra:
        if isinstance(a, DArray):
            ea, eo = origin(a)
            args += [ea.buffer, eo]
            reads.append(ea)
        else:
            args.append(a)
    if _dt.float64 in (x.dtype, cell) or "double" in options:
        opts.append("-D DARRAY_FP64=1")
    kernel = runtime(place).programs.kernel(source("histogram.cl"), entry, " ".join(opts))
    ra, ro = origin(rows)
    run(entry, kernel, [*args, ra.buffer, ro, np.int64(parts), np.int64(bins), np.int64(n), np.int64(-(-n // parts))],
        parts, place, reads=reads, writes=[ra], nbytes=x.nbytes)
    return R.sum(rows, axis=0, dtype=_dt.int64 if w is None else cell)


def _flat(x: DArray) -> DArray:
    return ascontiguousarray(reshape(x, (-1,)))


def bin_counts(idx: DArray, bins: int, weights: DArray | None = None) -> DArray:
    """How many of the integers ``idx`` are each of 0 .. bins - 1 (int64), or the sums of their
    ``weights`` (float64); other values are skipped."""
    return D.implementation("histogram.count", idx.place)(idx, bins, weights)


@D.register("histogram.count", "cpu")
def _count_cpu(idx: DArray, bins: int, weights: DArray | None) -> DArray:
    """:func:`bin_counts` through ``numpy.bincount``."""
    v = idx._host_view().reshape(-1)
    keep = (v >= 0) & (v < bins)
    w = None if weights is None else weights._host_view().reshape(-1)[keep]
    return from_numpy(np.bincount(v[keep].astype(np.intp), w, minlength=bins), idx.place)


@D.register("histogram.count", "cl")
def _count_cl(idx: DArray, bins: int, weights: DArray | None) -> DArray:
    """:func:`bin_counts` in one launch of ``count`` (``kernels/histogram.cl``) and a sum of its rows."""
    w = None if weights is None else _flat(weights.astype(D.device_dtype(_dt.float64, idx.place), copy=False))
    return _launch("count", _flat(idx), bins, w)


def uniform_counts(v: DArray, edges: DArray, weights: DArray | None) -> DArray:
    """The counts (int64), or sums of ``weights`` (float64), of the values ``v`` in the equal bins
    between ``edges`` (NumPy's bin numbers: the last edge belongs to the last bin)."""
    return D.implementation("histogram.uniform", v.place)(v, edges, weights)


@D.register("histogram.uniform", "cpu")
def _uniform_cpu(v: DArray, edges: DArray, weights: DArray | None) -> DArray:
    """:func:`uniform_counts` through ``numpy.histogram``."""
    lo, hi = (float(e) for e in edges._host_view()[[0, -1]])
    w = None if weights is None else weights._host_view().astype(np.float64)
    return from_numpy(np.histogram(v._host_view(), edges.size - 1, (lo, hi), weights=w)[0], v.place)


@D.register("histogram.uniform", "cl")
def _uniform_cl(v: DArray, edges: DArray, weights: DArray | None) -> DArray:
    """:func:`uniform_counts` in one launch of ``hist_uniform`` (``kernels/histogram.cl``) and a sum of its rows."""
    host = edges.get()
    et = edges.dtype.type
    w = None if weights is None else _flat(weights.astype(D.device_dtype(_dt.float64, v.place), copy=False))
    return _launch("hist_uniform", _flat(v), edges.size - 1, w, (edges, et(host[0]), et(host[-1])),
                  f"-D E={ctype(edges.dtype)}")


def bincount(x: Any, /, weights: Any = None, minlength: int = 0) -> DArray:
    """How many times each value 0, 1, ... occurs in the non-negative integers ``x`` (int64), or the
    sum of their ``weights`` (float64). Differs from NumPy: on a device, weights are summed in runs
    (one per work-item) and then across them, so the last digits may round differently.
    See also: numpy.bincount."""
    v = _array(x)
    if v.ndim != 1:
        raise ValueError("darray bincount: object too deep for desired array" if v.ndim else
                         "darray bincount: object of too small depth for desired array")
    if v.dtype.kind not in "biu" and v.size:
        raise TypeError(f"darray bincount: Cannot cast array data from {v.dtype} to int64 according to the rule "
                        "'safe'")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("darray bincount: 'minlength' must not be negative")
    if v.size and int(R.min(v)) < 0:
        raise ValueError("darray bincount: 'list' argument must have no negative elements")
    bins = max(int(R.max(v)) + 1 if v.size else 0, minlength)
    if weights is None or not v.size:  # NumPy: an empty input counts in int64, weighted or not
        return bin_counts(v, bins)
    w = _array(weights, v.place)
    if w.shape != v.shape:
        raise ValueError("darray bincount: The weights and list don't have the same length.")
    if w.dtype.kind == "c":
        raise TypeError(f"darray bincount: Cannot cast array data from {w.dtype} to float64 according to the rule "
                        "'safe'")
    return bin_counts(v, bins, w)


def digitize(x: Any, bins: Any, right: bool = False) -> DArray:
    """The index of the bin each value falls in, for monotonic ``bins`` (increasing or decreasing).
    See also: numpy.digitize."""
    v = _array(x)
    b = _array(bins, v.place)
    if v.dtype.kind == "c":
        raise TypeError("darray digitize: x may not be complex")
    if not _dt.can_cast(b.dtype, _dt.float64):  # NumPy's monotonicity check reads bins as doubles
        raise TypeError(f"darray digitize: Cannot cast array data from {b.dtype!r} to dtype('float64') according to "
                        "the rule 'safe'")
    if b.ndim != 1:
        raise ValueError("darray digitize: bins must be 1d")
    host = to_numpy(b)
    rising = bool(np.all(host[1:] >= host[:-1]))
    if not rising and not bool(np.all(host[1:] <= host[:-1])):
        raise ValueError("darray digitize: bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if rising:
        return searchsorted(b, v, side=side)
    return E.apply("subtract", b.size, searchsorted(b[::-1], v, side=side))


def _range(v: DArray, range_: Any) -> tuple[float, float]:
    if range_ is not None:
        lo, hi = (float(r) for r in range_)
        if lo > hi:
            raise ValueError("darray histogram: max must be larger than min in range parameter.")
    elif v.size:
        lo, hi = float(R.min(v)), float(R.max(v))
    else:
        lo, hi = 0.0, 1.0
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise ValueError(f"darray histogram: autodetected range of [{lo}, {hi}] is not finite")
    return (lo - 0.5, hi + 0.5) if lo == hi else (lo, hi)


def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None, weights: Any = None) -> DArray:  # noqa: A002
    """The bin edges :func:`histogram` uses. See also: numpy.histogram_bin_edges."""
    v = reshape(_array(a), (-1,))
    if isinstance(bins, str):  # NumPy's estimators need the data's spread: computed on a host copy
        edges = np.histogram_bin_edges(to_numpy(v), bins, range)
    elif np.ndim(bins) == 0:
        n = operator.index(bins)
        if n < 1:
            raise ValueError("darray histogram: `bins` must be positive, when an integer")
        lo, hi = _range(v, range)
        dt = np.result_type(v.dtype, np.float16) if v.dtype.kind in "fc" else np.float64
        edges = np.linspace(lo, hi, n + 1, endpoint=True, dtype=dt)
    else:
        edges = to_numpy(bins) if isinstance(bins, DArray) else np.asarray(bins)
        if edges.ndim != 1 or np.any(edges[:-1] > edges[1:]):
            raise ValueError("darray histogram: `bins` must increase monotonically, when an array")
    return from_numpy(np.ascontiguousarray(edges), v.place)


def _bin_numbers(v: DArray, edges: DArray, uniform: bool) -> tuple[DArray, DArray]:
    """(bin number of each value, whether it lies within the edges): the last edge closes the last bin."""
    n = edges.size - 1
    lo, hi = float(edges[0]), float(edges[-1])
    inside = E.apply("logical_and", E.apply("greater_equal", v, lo), E.apply("less_equal", v, hi))
    if uniform and hi > lo:  # NumPy's: scaled, then corrected against the edges themselves
        f = E.apply("multiply", E.apply("subtract", v.astype(_dt.float64), lo), n / (hi - lo))
        idx = E.apply("clip", E.apply("floor", f), 0, n - 1).astype(_dt.int64)
        idx = E.apply("where", E.apply("equal", v, hi), n - 1, idx)
        down = E.apply("less", v, take(edges, idx))
        up = E.apply("logical_and", E.apply("greater_equal", v, take(edges, E.apply("add", idx, 1))),
                     E.apply("not_equal", idx, n - 1))
        idx = E.apply("subtract", E.apply("add", idx, up.astype(_dt.int64)), down.astype(_dt.int64))
    else:
        idx = E.apply("subtract", searchsorted(edges, v, side="right"), 1)
        idx = E.apply("where", E.apply("equal", v, hi), n - 1, idx)
    return E.apply("clip", idx, 0, max(n - 1, 0)), inside


def _counts(cols: list[DArray], bins: Sequence[Any], ranges: Sequence[Any], weights: Any
            ) -> tuple[DArray, list[DArray]]:
    """(the counts, or sums of ``weights``, in the shape of the bins; the edges of each column)."""
    edges = [histogram_bin_edges(c, b, r) for c, b, r in zip(cols, bins, ranges)]
    shape = tuple(e.size - 1 for e in edges)
    w = None if weights is None else reshape(_array(weights, cols[0].place), (-1,))
    if w is not None and w.dtype.kind == "c":
        raise TypeError("darray histogram: complex weights are not supported")
    equal = [np.ndim(b) == 0 and not isinstance(b, str) for b in bins]
    if len(cols) == 1 and equal[0] and cols[0].dtype.kind in "iuf" and cols[0].dtype != _dt.float16:
        return reshape(uniform_counts(cols[0], edges[0], w), shape), edges
    flat: Any = None
    valid: Any = True
    for c, e, eq in zip(cols, edges, equal):
        idx, inside = _bin_numbers(c, e, eq)
        flat = idx if flat is None else E.apply("add", E.apply("multiply", flat, e.size - 1), idx)
        valid = inside if valid is True else E.apply("logical_and", valid, inside)
    return reshape(bin_counts(E.apply("where", valid, flat, -1), int(np.prod(shape)), w), shape), edges


def _density(hist: DArray, edges: list[DArray]) -> DArray:
    """``hist`` divided by its total and by each bin's volume."""
    volume: Any = 1.0
    for k, e in enumerate(edges):
        width = E.apply("subtract", e[1:], e[:-1])
        volume = E.apply("multiply", volume, reshape(width, tuple(-1 if j == k else 1 for j in np.arange(len(edges)))))
    return E.apply("divide", E.apply("divide", hist.astype(_dt.float64), R.sum(hist)), volume)


def histogramdd(sample: Any, bins: Any = 10, range: Any = None, density: Any = None,  # noqa: A002
                weights: Any = None) -> tuple[DArray, list[DArray]]:
    """The multidimensional histogram of ``sample`` (N points x D coordinates, or a sequence of D
    arrays). See also: numpy.histogramdd."""
    if isinstance(sample, (list, tuple)):
        cols = [reshape(_array(s), (-1,)) for s in sample]
    else:
        s = _array(sample)
        s = reshape(s, (-1, 1)) if s.ndim == 1 else s
        cols = [s[:, k] for k in np.arange(s.shape[1])]
    d = len(cols)
    per_dim = bins if isinstance(bins, Sequence) and not isinstance(bins, str) and len(bins) == d else [bins] * d
    hist, edges = _counts(cols, per_dim, range if range is not None else [None] * d, weights)
    return (_density(hist, edges) if density else hist.astype(_dt.float64)), edges


def histogram(a: Any, bins: Any = 10, range: Any = None, density: Any = None,  # noqa: A002
              weights: Any = None) -> tuple[DArray, DArray]:
    """(counts, edges) of the values of ``a`` in ``bins`` (a count, the edges, or one of NumPy's
    estimator names); values outside ``range`` are ignored. Equal bins on a device take one pass
    over the values. See also: numpy.histogram.

    Differs from NumPy: complex values or weights raise TypeError (NumPy bins complex values by
    their real parts between complex edges)."""
    v = reshape(_array(a), (-1,))
    if v.dtype.kind == "c":
        raise TypeError("darray histogram: complex input is not supported")
    hist, edges = _counts([v], [bins], [range], weights)
    if density:
        return _density(hist, edges), edges[0]
    return (hist if weights is None else hist.astype(_array(weights, v.place).dtype)), edges[0]


def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None, density: Any = None,  # noqa: A002
                weights: Any = None) -> tuple[DArray, DArray, DArray]:
    """The 2-D histogram of the points (x, y): (counts, x edges, y edges). See also: numpy.histogram2d."""
    try:
        given = len(bins)
    except TypeError:
        given = 1
    if given not in (1, 2):  # one array of edges for both axes, as NumPy
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


__all__ = ["bincount", "digitize", "histogram", "histogram_bin_edges", "histogram2d", "histogramdd"]
