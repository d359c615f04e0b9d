"""Manipulations that build a new array from slices and broadcasts of their input: roll, tile,
repeat, meshgrid, tril, triu, diff (the manipulation family's second module; shapes,
views, joins and splits are in ``manipulation``, pad in ``padding``).

Every copy is ``transfer.convert``'s strided copy of a view (a slice, a broadcast, a reversed run)
into a view of the output, one kernel per piece on OpenCL places and NumPy on the CPU place;
tril, triu and diff are lazy elementwise expressions (``where`` against an index mask built
from ``arange`` comparisons; slice differences) that fuse with what follows them.
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from itertools import product
from math import prod
from typing import Any

import numpy as np

from .._array import DArray
from ..dim import normalize_axis
from ..transfer.convert import assign, empty
from . import elementwise as E
from .creation import arange
from .manipulation import along, arrays_of, broadcast_to, concat, named, one, reshape
from .taking import positions, take

__all__ = ["diff", "meshgrid", "repeat", "roll", "tile", "tril", "triu"]


def _counts(values: Any, what: str) -> list[int]:
    """Non-negative integer counts (ValueError for a negative one; a DArray of them is read back)."""
    counts = [operator.index(v) for v in np.ravel(values.get() if isinstance(values, DArray) else values).tolist()]
    if any(c < 0 for c in counts):
        raise ValueError(f"negative dimensions are not allowed ({what} {counts})")
    return counts


def _replicate(x: DArray, axis: int, count: int, whole: bool) -> DArray:
    """A copy of ``x`` with axis ``axis`` repeated ``count`` times as a whole (``whole``: tile)
    or element by element (repeat): a broadcast of a 4-d view, (before, 1, n, after) or
    (before, n, 1, after), copied into the result's shape."""
    shape = x.shape
    before, n, after = prod(shape[:axis]), shape[axis], prod(shape[axis + 1:])
    src, wide = ((before, 1, n, after), (before, count, n, after)) if whole else \
        ((before, n, 1, after), (before, n, count, after))
    return reshape(broadcast_to(reshape(x, src), wide), shape[:axis] + (n * count,) + shape[axis + 1:], copy=True)


@named
def roll(a: Any, shift: int | Sequence[int], axis: int | Sequence[int] | None = None) -> DArray:
    """Elements shifted by ``shift`` along ``axis``, wrapping around (a new array).

    ``shift`` and ``axis``: ints or tuples, broadcast together (shifts of one axis add up);
    ``axis=None`` rolls the flattened array. See also: numpy.roll.
    """
    a = one("roll", a)
    if axis is None:
        return reshape(roll(reshape(a, -1), shift, axis=0), a.shape)
    try:
        pairs = np.broadcast(shift, axis)
    except ValueError:
        raise ValueError(f"shift {shift!r} and axis {axis!r} cannot be broadcast together") from None
    total = [0] * a.ndim
    for s, ax in pairs:
        total[normalize_axis(ax, a.ndim)] += operator.index(s)
    per_axis = []  # (source slice, target slice) pieces along each axis
    for n, s in zip(a.shape, total):
        k = s % n if n else 0
        per_axis.append([(slice(None), slice(None))] if not k else
                        [(slice(None, n - k), slice(k, None)), (slice(n - k, None), slice(None, k))])
    out = empty(a.shape, a.dtype, a.place)
    for pieces in product(*per_axis):
        src = a[tuple(p[0] for p in pieces)]
        if src.size:
            assign(out, out._dim.getitem(tuple(p[1] for p in pieces)), src)
    return out


@named
def tile(A: Any, reps: int | Sequence[int]) -> DArray:
    """``x`` repeated ``repetitions`` times along each axis (a new array).

    Leading axes of size 1 are added to whichever of ``x``'s shape and ``repetitions`` is
    shorter. Counts are read as NumPy reads them: all equal to 1 (1.0 and True too) is a copy of
    an array, otherwise each must be an integer (``operator.index``: TypeError). See also: numpy.tile.
    """
    array_given = isinstance(A, (DArray, np.ndarray))
    A = one("tile", A)
    host: Any = reps.get() if isinstance(reps, DArray) else reps
    try:
        given: tuple[Any, ...] = tuple(host)
    except TypeError:
        given = (host,)
    if all(r == 1 for r in given) and array_given:  # NumPy compares first (an array: 1.0 and True are 1)
        given = (1,) * len(given)
    rank = max(len(given), A.ndim)
    given = (1,) * (rank - len(given)) + given
    out = reshape(A, (1,) * (rank - A.ndim) + A.shape)
    size = A.size
    if size:  # NumPy's order: each count not equal to 1 taken by ndarray.repeat (2.0 too), axis by axis
        for r in given:
            if r != 1:  # its TypeError, or ValueError for a negative count (none once the array is empty)
                size *= np.zeros((1 if size else 0, 1)).repeat(r, 0).shape[0]
    counts = [operator.index(r) for r in given]  # then NumPy's reshape to the product shape: integers only
    sizes = tuple(n * r for n, r in zip(out.shape, counts))
    if min(sizes, default=0) < 0:
        raise ValueError(f"negative dimensions are not allowed (repetitions {counts})")
    if A.size == 0:  # (NumPy repeats nothing of an empty array)
        return empty(sizes, A.dtype, A.place)
    if all(r == 1 for r in counts):
        return reshape(out, out.shape, copy=True)
    for axis, r in enumerate(counts):
        if r != 1:
            out = _replicate(out, axis, r, True)
    return out


@named
def repeat(a: Any, repeats: Any, axis: int | None = None) -> DArray:
    """Each element of ``x`` repeated ``repeats`` times along ``axis`` (a new array).

    ``axis=None``: of the flattened array; ``repeats``: an int or one count per element along
    the axis (converted to integers as NumPy converts them: Python floats truncate, an array casts
    by the 'safe' rule). See also: numpy.repeat. Equal counts are a copy of a broadcast view; unequal ones
    a gather (``take``) along the axis.
    """
    a = one("repeat", a)
    if axis is None or a.ndim == 0:  # a 0-d ``a`` counts as 1-d, as in NumPy
        a, axis = reshape(a, -1), 0 if axis is None else axis
    axis = normalize_axis(axis, a.ndim)
    reps = positions("repeat", repeats, a.place, "safe")
    n, size = a.shape[axis], reps.size if isinstance(reps, DArray) else 1
    if size not in (1, n):
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({size},)")
    counts = _counts(reps, "repeats") if n else [0]  # NumPy checks no count of an empty axis
    if len(set(counts)) <= 1:
        return _replicate(a, axis, counts[0] if counts else 0, False)
    return take(a, np.repeat(np.arange(n, dtype=np.int64), counts), axis=axis)


_TRI = {"tril": "less_equal", "triu": "greater_equal"}  # keep x[..., i, j] where (j - i) OP k
_ZERO = {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}  # zeros that keep x's dtype in ``where``


def _triangle(name: str, x: Any, k: int) -> DArray:
    """``where((j - i) OP k, x, 0)`` over the last two axes; a 1-d ``x`` is broadcast against
    its square mask, as NumPy does."""
    x = one(name, x)
    if x.ndim == 0:
        raise TypeError("needs an array of at least 1 dimension (numpy.tri() of a 0-d shape)")
    k = operator.index(k)
    rows, cols = x.shape[-2:] if x.ndim > 1 else x.shape * 2
    index = arange(max(rows, cols), dtype="int64", device=x.place)
    keep = E.apply(_TRI[name], E.apply("subtract", index[:cols], index[:rows, None]), k)
    return E.apply("where", keep, x, _ZERO[x.dtype.kind])


@named
def tril(m: Any, k: int = 0) -> DArray:
    """The lower triangle of the last two axes: elements above diagonal ``k`` zeroed (lazy).

    See also: numpy.tril. Differs from NumPy: ``k`` must be an integer (TypeError otherwise).
    """
    return _triangle("tril", m, k)


@named
def triu(m: Any, k: int = 0) -> DArray:
    """The upper triangle of the last two axes: elements below diagonal ``k`` zeroed (lazy).

    See also: numpy.triu. Differs from NumPy: ``k`` must be an integer (TypeError otherwise).
    """
    return _triangle("triu", m, k)


@named
def meshgrid(*xi: Any, copy: bool = True, sparse: bool = False,
             indexing: str = "xy") -> tuple[DArray, ...] | list[DArray]:
    """Coordinate arrays from coordinate vectors (inputs are flattened).

    ``indexing="xy"``: Cartesian (the first two axes swapped), ``"ij"``: matrix. ``sparse``: each
    output keeps its own axis only (size 1 on the others); ``copy=False``: views of the inputs
    (broadcast unless ``sparse``). A tuple, as NumPy 2 returns, except a list for ``sparse=True,
    copy=False``, as NumPy's (the Array API says a list). See also: numpy.meshgrid.
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for `indexing` are 'xy' and 'ij', got {indexing!r}")
    xs = [reshape(x, -1) for x in arrays_of("meshgrid", xi)[0]]
    order = list(range(len(xs)))
    if indexing == "xy" and len(xs) > 1:
        order[0], order[1] = 1, 0
    shape = tuple(xs[a].size for a in order)
    grids = [reshape(x, tuple(x.size if order[p] == a else 1 for p in range(len(xs)))) for a, x in enumerate(xs)]
    if not sparse:  # (writeable views, as NumPy's)
        grids = [g._view(g._dim.broadcast_to(shape)) for g in grids]
    elif not copy:
        return grids
    return tuple(reshape(g, g.shape, copy=True) if copy else g for g in grids)


@named
def diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> DArray:
    """The ``n``-th discrete difference along ``axis`` (lazy slice subtractions).

    ``not_equal`` for bool, as NumPy; ``prepend`` and ``append`` are joined first (scalars
    broadcast to one slice). See also: numpy.diff.
    """
    a = one("diff", a)
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if n == 0:
        return a
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = normalize_axis(axis, a.ndim)
    if prepend is not None or append is not None:
        edge = a.shape[:axis] + (1,) + a.shape[axis + 1:]
        parts = [v if v.ndim else broadcast_to(v, edge)
                 for v in arrays_of("diff", [v for v in (prepend, a, append) if v is not None])[0]]
        a = concat(parts, axis=axis)
    op = "not_equal" if a.dtype.kind == "b" else "subtract"
    for _ in range(n):
        a = E.apply(op, a[along(axis, slice(1, None))], a[along(axis, slice(None, -1))])
    return a
