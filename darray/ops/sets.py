"""Set functions: ``unique_values``, ``unique_counts``, ``unique_inverse``, ``unique_all``, ``isin``.

On OpenCL places the flattened input is sorted on the device (``sorting.sort_rows``, an
argsort when indices are asked for); ``unique_count`` counts the runs of equal keys that
start in each chunk, the scan op turns the counts into output offsets, one number (the
total) is read back, and ``unique_scatter`` writes values, run starts, first indices and
the inverse in one launch; counts are differences of the run starts. ``isin`` sorts the test
elements and binary-searches each element (``isin_search``). NaNs are distinct values
(NumPy 2's ``unique_*``, the Array API's rule); -0.0 equals 0.0.

Complex input is ordered as NumPy orders it (``sorting.complex_argsort``: three stable argsorts
of real keys), then runs of equal values are found with elementwise ops, a scan and a gather;
``isin`` finds the runs of the test elements followed by the elements, and an element is in the
test elements where its run starts with one of them.
"""
from __future__ import annotations

from typing import Any, NamedTuple, cast

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..dim import normalize_axis
from ..place import CLPlace, Place
from ..transfer.convert import asarray, astype, empty, from_numpy
from . import _dispatch as D
from . import elementwise as E
from . import reduction as R
from ._kernel import ref
from .creation import arange, full
from .indexing import nonzero
from .manipulation import concat, moveaxis
from .scan import _scan_rows, cumulative_sum
from .selection import lexsort
from .sorting import argsort as sort_index
from .sorting import complex_argsort, contiguous, kernel, launch, sort, sort_rows, span
from .taking import take

__all__ = ["unique", "union1d", "intersect1d", "setdiff1d", "setxor1d",
           "unique_values", "unique_counts", "unique_inverse", "unique_all", "isin",
           "UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult"]


class UniqueAllResult(NamedTuple):
    values: DArray
    indices: DArray
    inverse_indices: DArray
    counts: DArray


class UniqueCountsResult(NamedTuple):
    values: DArray
    counts: DArray


class UniqueInverseResult(NamedTuple):
    values: DArray
    inverse_indices: DArray


def _runs(ordered: DArray, differs: DArray, order: DArray) -> tuple[DArray, DArray, DArray, DArray]:
    """(values, first indices, inverse, counts) from ``ordered`` (the n >= 1 items, rows along axis
    0, in sorted order), ``differs`` (n - 1 bools: item i + 1 differs from item i) and ``order``
    (the sorting positions)."""
    n, place = ordered.shape[0], ordered.place
    starts_mask = concat([full((1,), True, dtype=_dt.bool_, device=place), differs])
    run = E.apply("subtract", cumulative_sum(starts_mask, dtype=_dt.int64), 1)
    (starts,) = nonzero(starts_mask)
    inverse = empty((n,), _dt.int64, place)
    inverse[order] = run
    ends = concat([starts[1:], full((1,), n, dtype=_dt.int64, device=place)])
    return take(ordered, starts, axis=0), take(order, starts), inverse, E.apply("subtract", ends, starts)


def _unique_complex(x: DArray) -> tuple[DArray, DArray, DArray, DArray]:
    """``_unique`` of the non-empty complex OpenCL array ``x``: a value starts where it differs
    from the one before in NumPy's order (a NaN in either part differs from everything)."""
    flat = x.reshape(-1)
    order = complex_argsort(flat, 0)
    ordered = take(flat, order)
    values, first, inverse, counts = _runs(ordered, E.apply("not_equal", ordered[1:], ordered[:-1]), order)
    return values, first, inverse.reshape(x.shape), counts


def _unique_axis(x: DArray, axis: int) -> tuple[DArray, DArray, DArray, DArray]:
    """``_unique`` of the slices of ``x`` along ``axis`` (rows compared elementwise, ordered
    lexicographically by a lexsort on the device); the inverse is 1-d."""
    axis = normalize_axis(axis, x.ndim, "darray unique")
    moved = moveaxis(x, axis, 0)
    n = moved.shape[0]
    if n == 0:
        none = empty((0,), _dt.int64, x.place)
        return x, none, none, none
    rows = moved.reshape(n, -1)
    k = rows.shape[1]
    order = lexsort([rows[:, j] for j in range(k - 1, -1, -1)]) if k else arange(n, dtype=_dt.int64,
                                                                               device=x.place)
    ordered = take(rows, order, axis=0)
    differs = R.any(E.apply("not_equal", ordered[1:], ordered[:-1]), axis=1)
    values, first, inverse, counts = _runs(ordered, differs, order)
    return moveaxis(values.reshape((values.shape[0],) + moved.shape[1:]), 0, axis), first, inverse, counts


def _unique(op: str, x: Any, with_order: bool) -> tuple[DArray, DArray, DArray, DArray]:
    """(values, first indices, inverse indices with x's shape, counts) of ``x``; the indices
    are unset (empty placeholders) unless ``with_order`` (always set for complex input)."""
    x = x if isinstance(x, DArray) else asarray(x)
    return D.implementation("unique", x.place)(x, with_order)


@D.register("unique", "cpu")
def _unique_cpu(x: DArray, with_order: bool) -> tuple[DArray, DArray, DArray, DArray]:
    """``_unique`` through NumPy (the indices are always set)."""
    values, first, inverse, counts = (from_numpy(np.asarray(r), x.place) for r in np.unique_all(x._host_view()))
    return values, first, inverse, counts


@D.register("unique", "cl")
def _unique_cl(x: DArray, with_order: bool) -> tuple[DArray, DArray, DArray, DArray]:
    """``_unique`` on the device: a sort, then the runs of equal keys counted, scanned and scattered."""
    place = cast(CLPlace, x.place)
    n = x.size
    if n == 0:
        none = empty((0,), _dt.int64, place)
        return empty((0,), x.dtype, place), none, empty(x.shape, _dt.int64, place), none
    if x.dtype.kind == "c":
        return _unique_complex(x)
    if with_order:
        ordered, index = sort_rows(x.reshape(1, n), arg=True)
    else:  # ``sort`` picks its engine (NumPy's sort on the mapped buffers of host-memory devices)
        ordered, index = contiguous(sort(x.reshape(-1))).reshape(1, n), None
    order = ordered if index is None else astype(index, _dt.int64, copy=False)  # index: set when with_order
    items, length = span(n, place)
    offs = empty((1, items + 1), _dt.int64, place)
    launch("unique_count", kernel(place, x.dtype, "unique_count"), [*ref(ordered), *ref(offs), np.int64(n), length],
           items, place, [ordered], [offs])
    _scan_rows(offs, "sum")
    count = int(offs[0, items])
    values, starts = empty((count,), x.dtype, place), empty((count + 1,), _dt.int64, place)
    first = empty((count,), _dt.int64, place) if with_order else starts
    inverse = empty((n,), _dt.int64, place) if with_order else starts
    launch("unique_scatter", kernel(place, x.dtype, "unique_scatter"),
           [*ref(ordered), *ref(offs), *ref(order), *ref(values), *ref(starts), *ref(first), *ref(inverse),
            np.int64(n), length, np.int32(with_order)],
           items, place, [ordered, offs, order], [values, starts, first, inverse])
    starts[count:] = n
    counts = E.apply("subtract", starts[1:], starts[:-1])
    return values, first, inverse.reshape(x.shape) if with_order else inverse, counts


def unique_values(x: Any) -> DArray:
    """The distinct values of ``x`` (flattened), sorted (complex: by real, then imaginary part, NaNs
    last as NumPy 2 sorts them); each NaN is distinct. See also: numpy.unique_values.

    darray differs from NumPy >= 2.3, whose ``unique_values`` may return them unsorted.
    """
    x = x if isinstance(x, DArray) else asarray(x)
    return D.implementation("unique_values", x.place)(x)


@D.register("unique_values", "cpu")
def _unique_values_cpu(x: DArray) -> DArray:
    """unique_values through NumPy."""
    return from_numpy(np.unique(x._host_view(), equal_nan=False), x.place)


@D.register("unique_values", "cl")
def _unique_values_cl(x: DArray) -> DArray:
    """unique_values on the device: the values of :func:`_unique_cl`, without the indices."""
    return _unique_cl(x, False)[0]


def unique_counts(x: Any) -> UniqueCountsResult:
    """(values, counts): distinct values and how often each occurs (int64). See also: numpy.unique_counts."""
    values, _, _, counts = _unique("unique_counts", x, False)
    return UniqueCountsResult(values, counts)


def unique_inverse(x: Any) -> UniqueInverseResult:
    """(values, inverse_indices): ``values[inverse_indices]`` rebuilds ``x`` (inverse has x's shape,
    int64). See also: numpy.unique_inverse."""
    values, _, inverse, _ = _unique("unique_inverse", x, True)
    return UniqueInverseResult(values, inverse)


def unique_all(x: Any) -> UniqueAllResult:
    """(values, indices, inverse_indices, counts); ``indices`` are the first occurrences in the
    flattened ``x``. See also: numpy.unique_all."""
    return UniqueAllResult(*_unique("unique_all", x, True))


def isin(element: Any, test_elements: Any, assume_unique: bool = False, invert: bool = False, *,
         kind: str | None = None) -> DArray:
    """Boolean array of ``element``'s shape: whether each of its elements is in ``test_elements``
    (``invert`` negates). Both are compared in their promoted dtype; NaN is in nothing. ``kind``
    (None, 'sort', 'table') and ``assume_unique`` are checked and give the same result. See also:
    numpy.isin."""
    if kind not in (None, "sort", "table"):
        raise ValueError(f"darray isin: invalid kind {kind!r}; use None, 'sort' or 'table'")
    (a, b), place = D.operands("isin", (element, test_elements))
    dt = _dt.result_type(a, b)
    a, b = (asarray(v, dtype=dt, device=place) for v in (a, b))
    if kind == "table" and dt.kind not in "biu":
        raise ValueError("darray isin: the 'table' method is only supported for boolean or integer arrays")
    return D.implementation("isin", place)(a, b, dt, invert, place)


@D.register("isin", "cpu")
def _isin_cpu(a: DArray, b: DArray, dt: np.dtype, invert: bool, place: Place) -> DArray:
    """isin through NumPy (``a`` and ``b`` already of dtype ``dt``)."""
    return from_numpy(np.asarray(np.isin(a._host_view(), b._host_view(), invert=invert)), place)


@D.register("isin", "cl")
def _isin_cl(a: DArray, b: DArray, dt: np.dtype, invert: bool, place: CLPlace) -> DArray:
    """isin on the device: ``b`` sorted, then a binary search per element of ``a``."""
    if a.size == 0 or b.size == 0:
        return full(a.shape, bool(invert), dtype=_dt.bool_, device=place)
    if dt.kind == "c":  # the runs of b's values then a's, in NumPy's order (stable: b's items first)
        _, first, inverse, _ = _unique_complex(concat([b.reshape(-1), a.reshape(-1)]))
        return take(E.apply("greater_equal" if invert else "less", first, b.size), inverse[b.size:]).reshape(a.shape)
    table, _ = sort_rows(b.reshape(1, b.size))
    flat = contiguous(a)
    out = empty(a.shape, _dt.bool_, place)
    items, length = span(a.size, place)
    launch("isin_search", kernel(place, dt, "isin_search"),
           [*ref(flat), *ref(table), *ref(out), np.int64(a.size), np.int64(b.size), length, np.int32(bool(invert))],
           items, place, [flat, table], [out])
    return out


def unique(ar: Any, return_index: bool = False, return_inverse: bool = False, return_counts: bool = False,
           axis: int | None = None, *, equal_nan: bool = True, sorted: bool = True) -> Any:
    """The sorted distinct values of the flattened ``ar``, with (as asked) the first indices, the
    inverse indices (``ar``'s shape) and the counts, all int64; NaNs are one value with
    ``equal_nan``: the first NaN in sorted order, or (complex values alone, as NumPy >= 2.3 finds
    them by hashing) the first in ``ar``. See also: numpy.unique.

    ``axis``: the distinct slices along it (compared elementwise, sorted lexicographically; the
    inverse is 1-d). Differs from NumPy: the values are always sorted."""
    x = ar if isinstance(ar, DArray) else asarray(ar)
    if axis is not None:
        values, first, inverse, counts = _unique_axis(x, axis)
    else:
        values, first, inverse, counts = _unique("unique", x, return_index or return_inverse)
    if axis is None and equal_nan and values.dtype.kind in "fc" and values.size and bool(E.apply("isnan", values[-1])):
        nans = int(R.sum(E.apply("isnan", values)))  # NaNs sort last: counted only when the last value is one
        if nans > 1:
            j = values.size - nans
            if return_index:
                first = concat([first[:j], (R.min(first[j:]) if values.dtype.kind == "f" else first[j]).reshape(1)])
            values, counts = values[:j + 1], concat([counts[:j], R.sum(counts[j:]).reshape(1)])
            if values.dtype.kind == "c" and not (return_index or return_inverse or return_counts):
                flat = x.reshape(-1)  # NumPy hashes for the values alone: its NaN is x's first
                values = concat([values[:j], take(flat, R.argmax(E.apply("isnan", flat))).reshape(1)])
            if return_inverse:
                inverse = E.apply("minimum", inverse, j)
    extra = [r for r, want in ((first, return_index), (inverse, return_inverse), (counts, return_counts)) if want]
    return (values, *extra) if extra else values


def _flat_pair(name: str, ar1: Any, ar2: Any) -> tuple[DArray, DArray]:
    """Both arrays flattened, in their promoted dtype, on one place."""
    (a, b), place = D.operands(name, (ar1, ar2))
    a, b = (v if isinstance(v, DArray) else asarray(v, device=place) for v in (a, b))
    dt = _dt.result_type(a.dtype, b.dtype)
    return astype(a, dt, copy=False).reshape(-1), astype(b, dt, copy=False).reshape(-1)


def union1d(ar1: Any, ar2: Any) -> DArray:
    """The sorted distinct values in either array (flattened). See also: numpy.union1d."""
    a, b = _flat_pair("union1d", ar1, ar2)
    return cast(DArray, unique(concat([a, b])))


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False, return_indices: bool = False) -> Any:
    """The sorted values in both arrays (flattened), with their first indices in each when
    ``return_indices``. See also: numpy.intersect1d."""
    a, b = _flat_pair("intersect1d", ar1, ar2)
    if not assume_unique:
        (a, ia), (b, ib) = unique(a, return_index=True), unique(b, return_index=True)
    aux = concat([a, b])
    order = sort_index(aux)
    aux = take(aux, order)
    mask = E.apply("equal", aux[1:], aux[:-1])
    both = aux[:-1][mask]
    if not return_indices:
        return both
    i1, i2 = order[:-1][mask], E.apply("subtract", order[1:][mask], a.size)
    if not assume_unique:
        i1, i2 = take(ia, i1), take(ib, i2)
    return both, i1, i2


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> DArray:
    """The values of ``ar1`` not in ``ar2`` (sorted and distinct unless ``assume_unique``).
    See also: numpy.setdiff1d."""
    (a, b), place = D.operands("setdiff1d", (ar1, ar2))
    a = a if isinstance(a, DArray) else asarray(a, device=place)
    a = a.reshape(-1) if assume_unique else cast(DArray, unique(a))
    return a[isin(a, b, invert=True)]


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> DArray:
    """The sorted values in exactly one of the arrays. See also: numpy.setxor1d."""
    a, b = _flat_pair("setxor1d", ar1, ar2)
    if not assume_unique:
        a, b = cast(DArray, unique(a)), cast(DArray, unique(b))
    aux = concat([a, b])
    if not aux.size:
        return aux
    aux = sort(aux)
    edge = full((1,), True, dtype=_dt.bool_, device=aux.place)
    flag = concat([edge, E.apply("not_equal", aux[1:], aux[:-1]), edge])
    return aux[E.apply("logical_and", flag[1:], flag[:-1])]
