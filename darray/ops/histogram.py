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
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from .._convert import asarray, from_numpy, to_numpy
from . import elementwise as E
from . import reduction as R
from .creation import arange, zeros
from .indexing import take
from .manipulation import concat, reshape
from .scan import cumulative_sum
from .searching import searchsorted
from .sorting import argsort, sort


def _array(x: Any, place: Any = None) -> DArray:
    return x if isinstance(x, DArray) else asarray(x, device=place)


def bincount(x: Any, /, weights: Any = None, minlength: int = 0) -> DArray:
    """How many times each value 0, 1, ... occurs in the non-negative integers ``x`` (int64), or the
    sum of their ``weights`` (float64). Differs from NumPy: weights are summed as differences of a
    running sum in sorted order, so the last digits may round differently. See also: numpy.bincount."""
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
    if v.size and bool(R.any(E.apply("less", v, 0))):
        raise ValueError("darray bincount: 'list' argument must have no negative elements")
    top = int(R.max(v)) + 1 if v.size else 0
    bins = max(top, minlength)
    edges = arange(bins, dtype=_dt.int64, device=v.place)
    if weights is None or not v.size:  # NumPy: an empty input counts in int64, weighted or not
        ordered = sort(v.astype(_dt.int64, copy=False))
        right = searchsorted(ordered, edges, side="right")
        left = searchsorted(ordered, edges, side="left")
        return E.apply("subtract", right, left).astype(_dt.int64, copy=False)
    w = _array(weights, v.place)
    if w.shape != v.shape:
        raise ValueError("darray bincount: The weights and list don't have the same length.")
    w = w.astype(_dt.float64, copy=False)
    finite = E.apply("isfinite", w)
    order = argsort(v)
    keys = take(v.astype(_dt.int64, copy=False), order)
    running = concat([zeros(1, dtype=_dt.float64, device=v.place),
                      cumulative_sum(take(E.apply("where", finite, w, 0.0), order))])
    right = searchsorted(keys, edges, side="right")
    left = searchsorted(keys, edges, side="left")
    sums = E.apply("subtract", take(running, right), take(running, left))
    if bool(R.all(finite)):
        return sums
    # inf and NaN weights stay in their own bins (a running sum would carry them into the next ones)
    def count(mask: DArray) -> DArray:
        return bincount(take(v, reshape(asarray(np.flatnonzero(to_numpy(mask)), device=v.place), (-1,))),
                        minlength=bins)

    up, down = count(E.apply("equal", w, np.inf)), count(E.apply("equal", w, -np.inf))
    nan = count(E.apply("isnan", w))
    bad = E.apply("logical_or", E.apply("greater", nan, 0),
                  E.apply("logical_and", E.apply("greater", up, 0), E.apply("greater", down, 0)))
    special = E.apply("where", bad, np.nan, E.apply("where", E.apply("greater", up, 0), np.inf, -np.inf))
    return E.apply("where", E.apply("greater", E.apply("add", E.apply("add", up, down), nan), 0), special, sums)


def digitize(x: Any, bins: Any, right: bool = False) -> DArray:
    """The index of the bin each value falls in, for monotonic ``bins`` (increasing or decreasing).
    See also: numpy.digitize."""
    v = _array(x)
    b = _array(bins, v.place)
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
    ranges = range if range is not None else [None] * d
    edges = [histogram_bin_edges(c, b, r) for c, b, r in zip(cols, per_dim, ranges)]
    flat: Any = None
    valid: Any = True
    for c, e, b in zip(cols, edges, per_dim):
        idx, inside = _bin_numbers(c, e, np.ndim(b) == 0 and not isinstance(b, str))
        flat = idx if flat is None else E.apply("add", E.apply("multiply", flat, e.size - 1), idx)
        valid = inside if valid is True else E.apply("logical_and", valid, inside)
    shape = tuple(e.size - 1 for e in edges)
    w = None if weights is None else reshape(_array(weights, cols[0].place), (-1,))
    keep = np.flatnonzero(to_numpy(valid)) if valid is not True else None
    if keep is not None and keep.size != cols[0].size:
        sel = from_numpy(keep, cols[0].place)
        flat, w = take(flat, sel), (None if w is None else take(w, sel))
    counts = bincount(flat, w, minlength=int(np.prod(shape))) if cols[0].size else \
        zeros(int(np.prod(shape)), dtype=_dt.int64 if w is None else _dt.float64, device=cols[0].place)
    hist = reshape(counts[:int(np.prod(shape))], shape)
    if density:
        widths = [E.apply("subtract", e[1:], e[:-1]) for e in edges]
        volume: Any = 1.0
        for k, wd in enumerate(widths):
            volume = E.apply("multiply", volume, reshape(wd, tuple(-1 if j == k else 1 for j in np.arange(d))))
        hist = E.apply("divide", E.apply("divide", hist.astype(_dt.float64), R.sum(hist)), volume)
    else:
        hist = hist.astype(_dt.float64)
    return hist, edges


def histogram(a: Any, bins: Any = 10, range: Any = None, density: Any = None,  # noqa: A002
              weights: Any = None) -> tuple[DArray, DArray]:
    """(counts, edges) of the values of ``a`` in ``bins`` (a count, the edges, or one of NumPy's
    estimator names); values outside ``range`` are ignored. See also: numpy.histogram."""
    v = reshape(_array(a), (-1,))
    if v.dtype.kind == "c":
        raise TypeError("darray histogram: complex input is not supported")
    edges = histogram_bin_edges(v, bins, range)
    hist, _ = histogramdd([v], [edges if not (np.ndim(bins) == 0 and not isinstance(bins, str)) else bins],
                          None if range is None else [range], density, weights)
    if not density and weights is None:
        hist = hist.astype(_dt.int64)
    return hist, edges


def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None, density: Any = None,  # noqa: A002
                weights: Any = None) -> tuple[DArray, DArray, DArray]:
    """The 2-D histogram of the points (x, y): (counts, x edges, y edges). See also: numpy.histogram2d."""
    try:
        count = len(bins)
    except TypeError:
        count = 1
    if count not in (1, 2):  # one array of edges for both axes, as NumPy
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


__all__ = ["bincount", "digitize", "histogram", "histogram_bin_edges", "histogram2d", "histogramdd"]
