"""Index tricks: r_, c_, s_, index_exp, mgrid, ogrid, ix_, indices, the *_indices functions,
(un)ravel_index, fill_diagonal, ndindex/ndenumerate and the shape questions.

Results that depend only on shapes and Python values (``mgrid``, ``indices``, ``tril_indices``...)
are computed by NumPy on the host and copied to the default place; those of array arguments
(``r_``/``c_`` of DArrays, ``ix_``, ``unravel_index``, ``fill_diagonal``) run on the arrays' place.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from math import prod
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..dim import Dim
from ..dim import broadcast_shapes as _broadcast_shapes
from ..place import PlaceLike, parse
from ..transfer.convert import asarray, assign, from_numpy, to_numpy
from . import elementwise as E
from . import reduction as R
from .creation import arange, linspace
from .indexing import nonzero
from .joining import concatenate
from .manipulation import reshape, transpose
from .shaping import resize

s_ = np.s_  # slice objects only: NumPy's own
index_exp = np.index_exp
ndindex = np.ndindex  # shapes only: NumPy's own


class _Concatenator:
    """``r_`` and ``c_``: slices become ranges (a complex step is a number of points), scalars and
    arrays are joined along an axis; a leading string sets it ("0", "1,2,0", "r", "c")."""

    def __init__(self, axis: int, ndmin: int, trans1d: int) -> None:
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key: Any) -> DArray:
        items = list(key) if isinstance(key, tuple) else [key]
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        if items and isinstance(items[0], str):
            spec = items.pop(0)
            if spec in ("r", "c"):
                raise TypeError(f"darray r_: the matrix directive {spec!r} is not supported (darray has no matrix)")
            parts = [int(p) for p in spec.split(",")]
            axis, ndmin, trans1d = (parts + [ndmin, trans1d][len(parts) - 1:])[:3]
        pieces = []
        for item in items:
            if isinstance(item, slice):
                x = _range(item)
                if ndmin > 1:
                    x = reshape(x, (1,) * (ndmin - 1) + x.shape)
                    if trans1d != -1:
                        x = x.swapaxes(-1, trans1d)
                pieces.append(x)
                continue
            x = item if isinstance(item, DArray) else asarray(item)
            if x.ndim < ndmin:
                k2, k1 = ndmin - x.ndim, trans1d
                x = reshape(x, (1,) * k2 + x.shape)
                if trans1d != -1 and np.ndim(item) > 0:  # NumPy's placement of the original axes
                    k1 = k1 + k2 + 1 if k1 < 0 else k1
                    axes = list(range(ndmin))
                    x = transpose(x, axes[:k1] + axes[k2:] + axes[k1:k2])
            pieces.append(x)
        return concatenate(pieces, axis=axis)


def _range(s: slice) -> DArray:
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    if isinstance(step, complex):
        return linspace(start, s.stop, int(abs(step)))
    return arange(start, s.stop, step)


r_ = _Concatenator(0, 1, -1)
c_ = _Concatenator(-1, 2, 0)


class _Grid:
    """``mgrid`` (dense) and ``ogrid`` (open): NumPy's grids of slices, copied to the default place."""

    def __init__(self, grid: Any) -> None:
        self._grid = grid

    def __getitem__(self, key: Any) -> Any:
        got = self._grid[key]
        return tuple(from_numpy(np.ascontiguousarray(g), parse(None)) for g in got) if isinstance(got, tuple) \
            else from_numpy(np.ascontiguousarray(got), parse(None))


mgrid = _Grid(np.mgrid)
ogrid = _Grid(np.ogrid)


def indices(dimensions: Any, dtype: Any = int, sparse: bool = False, *, device: PlaceLike = None) -> Any:
    """One array per axis holding the index along it (``sparse``: broadcastable ones). See also: numpy.indices."""
    place = parse(device)
    if sparse:
        return tuple(from_numpy(np.ascontiguousarray(g), place) for g in np.indices(tuple(dimensions), dtype, True))
    return from_numpy(np.indices(tuple(dimensions), dtype), place)


def ix_(*args: Any) -> tuple[DArray, ...]:
    """Open-mesh index arrays from 1-D sequences (booleans as their non-zero positions): the k-th has
    its values along axis k. See also: numpy.ix_."""
    out = []
    for k, a in enumerate(args):
        x = a if isinstance(a, DArray) else asarray(a if np.ndim(a) else a, dtype=None if np.size(a) else _dt.int64)
        if x.ndim != 1:
            raise ValueError("darray ix_: Cross index must be 1 dimensional")
        if x.dtype == _dt.bool_:
            x = nonzero(x)[0]
        out.append(reshape(x, (1,) * k + (x.size,) + (1,) * (len(args) - k - 1)))
    return tuple(out)


def _strides(shape: tuple[int, ...], order: str) -> list[int]:
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    axes = range(len(shape)) if order == "C" else reversed(range(len(shape)))
    strides, step = [0] * len(shape), 1
    for a in reversed(list(axes)):
        strides[a] = step
        step *= shape[a]
    return strides


def unravel_index(indices: Any, shape: Any, order: str = "C") -> tuple[DArray, ...]:
    """Flat indices as one index array per axis of ``shape`` (on the indices' place). See also:
    numpy.unravel_index."""
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(n) for n in shape)
    x = indices if isinstance(indices, DArray) else asarray(indices)
    if x.dtype.kind not in "iu":
        raise TypeError(f"darray unravel_index: only int indices permitted, got {x.dtype}")
    size = prod(shape)
    x = x.astype(_dt.int64, copy=False)
    if x.size and bool(R.any((x < 0) | (x >= size))):
        bad = to_numpy(x).reshape(-1)
        raise ValueError(f"darray unravel_index: index {bad[(bad < 0) | (bad >= size)][0]} is out of bounds for "
                         f"array with size {size}")
    return tuple((x // s) % n for s, n in zip(_strides(shape, order), shape))


def ravel_multi_index(multi_index: Any, dims: Any, mode: Any = "raise", order: str = "C") -> DArray:
    """Index arrays (one per axis of ``dims``) as flat indices; ``mode`` "raise", "wrap" or "clip"
    (one per axis or for all). See also: numpy.ravel_multi_index."""
    dims = tuple(int(n) for n in dims)
    parts = [m if isinstance(m, DArray) else asarray(m) for m in multi_index]
    if len(parts) != len(dims):
        raise ValueError(f"darray ravel_multi_index: parameter multi_index must be a sequence of length {len(dims)}")
    modes = [mode] * len(dims) if isinstance(mode, str) else list(mode)
    total: Any = 0
    for part, n, m, s in zip(parts, dims, modes, _strides(dims, order)):
        if part.dtype.kind not in "iu":
            raise TypeError(f"darray ravel_multi_index: only int indices permitted, got {part.dtype}")
        part = part.astype(_dt.int64, copy=False)
        if m == "wrap":
            part = part % n
        elif m == "clip":
            part = E.apply("clip", part, 0, n - 1)
        elif m == "raise":
            if part.size and bool(R.any((part < 0) | (part >= n))):
                raise ValueError("darray ravel_multi_index: invalid entry in coordinates array")
        else:
            raise ValueError(f"darray ravel_multi_index: clipmode not understood: {m!r}")
        total = part * s + total
    return total if isinstance(total, DArray) else asarray(total, dtype=_dt.int64)


def _host_pair(got: tuple[np.ndarray, ...], device: PlaceLike) -> tuple[DArray, ...]:
    place = parse(device)
    return tuple(from_numpy(np.ascontiguousarray(g), place) for g in got)


def diag_indices(n: int, ndim: int = 2, *, device: PlaceLike = None) -> tuple[DArray, ...]:
    """The indices of the main diagonal of an ``n``-sided ``ndim``-cube. See also: numpy.diag_indices."""
    return _host_pair(np.diag_indices(n, ndim), device)


def diag_indices_from(arr: Any) -> tuple[DArray, ...]:
    """``diag_indices`` for an array with all sides equal. See also: numpy.diag_indices_from."""
    x = arr if isinstance(arr, DArray) else asarray(arr)
    if x.ndim < 2 or len(set(x.shape)) != 1:
        raise ValueError("darray diag_indices_from: input array must be at least 2-d with all dimensions equal")
    return diag_indices(x.shape[0], x.ndim, device=x.place)


def tril_indices(n: int, k: int = 0, m: int | None = None, *, device: PlaceLike = None) -> tuple[DArray, ...]:
    """Row and column indices of the lower triangle. See also: numpy.tril_indices."""
    return _host_pair(np.tril_indices(n, k, m), device)


def triu_indices(n: int, k: int = 0, m: int | None = None, *, device: PlaceLike = None) -> tuple[DArray, ...]:
    """Row and column indices of the upper triangle. See also: numpy.triu_indices."""
    return _host_pair(np.triu_indices(n, k, m), device)


def _from(arr: Any, op: str) -> DArray:
    x = arr if isinstance(arr, DArray) else asarray(arr)
    if x.ndim != 2:
        raise ValueError(f"darray {op}: input array must be 2-d")
    return x


def tril_indices_from(arr: Any, k: int = 0) -> tuple[DArray, ...]:
    """``tril_indices`` for a 2-D array's shape. See also: numpy.tril_indices_from."""
    x = _from(arr, "tril_indices_from")
    return tril_indices(x.shape[0], k, x.shape[1], device=x.place)


def triu_indices_from(arr: Any, k: int = 0) -> tuple[DArray, ...]:
    """``triu_indices`` for a 2-D array's shape. See also: numpy.triu_indices_from."""
    x = _from(arr, "triu_indices_from")
    return triu_indices(x.shape[0], k, x.shape[1], device=x.place)


def mask_indices(n: int, mask_func: Callable[[DArray, int], DArray], k: int = 0) -> tuple[DArray, ...]:
    """The indices where ``mask_func(ones((n, n)), k)`` is non-zero (e.g. ``darray.triu``). See also:
    numpy.mask_indices."""
    ones = E.apply("positive", asarray(np.ones((n, n), dtype=np.int64)))
    return nonzero(mask_func(ones, k) != 0)


def fill_diagonal(a: DArray, val: Any, wrap: bool = False) -> None:
    """Write ``val`` (repeated as needed) on the main diagonal of ``a`` in place; for a tall 2-D array
    ``wrap`` starts again below each square block, as NumPy. See also: numpy.fill_diagonal."""
    if not isinstance(a, DArray):
        raise TypeError("darray fill_diagonal: a must be a DArray (it is written in place)")
    if a.ndim < 2:
        raise ValueError("darray fill_diagonal: array must be at least 2-d")
    if a.ndim > 2 and len(set(a.shape)) != 1:
        raise ValueError("darray fill_diagonal: All dimensions of input must be of equal length")
    d = a._dim
    step = sum(d.strides)
    rows, cols = a.shape[0], a.shape[1]
    starts = range(0, rows, cols + 1) if wrap and a.ndim == 2 else [0]
    spans = [(r, min(cols, rows - r) if a.ndim == 2 else a.shape[0]) for r in starts]
    total = sum(n for _, n in spans)
    values = None if np.ndim(val) == 0 and not isinstance(val, DArray) else resize(asarray(val, device=a.place), total)
    done = 0
    for r, n in spans:
        if n <= 0:
            continue
        view = Dim((n,), (step,), d.offset + r * d.strides[0])
        assign(a, view, val if values is None else values[done:done + n], "fill_diagonal")
        done += n


def ndenumerate(arr: Any) -> Iterator[tuple[tuple[int, ...], Any]]:
    """(index, element) pairs in C order, from one host copy (NumPy scalars). See also: numpy.ndenumerate."""
    return np.ndenumerate(to_numpy(arr) if isinstance(arr, DArray) else np.asarray(arr))


def broadcast_shapes(*args: Any) -> tuple[int, ...]:
    """The shape the given shapes broadcast to. See also: numpy.broadcast_shapes."""
    return _broadcast_shapes(*[(a,) if isinstance(a, (int, np.integer)) else tuple(a) for a in args])


def shape(a: Any) -> tuple[int, ...]:
    """The array's shape (NumPy's for anything else). See also: numpy.shape."""
    return a.shape if isinstance(a, DArray) else np.shape(a)


def ndim(a: Any) -> int:
    """The array's number of dimensions. See also: numpy.ndim."""
    return a.ndim if isinstance(a, DArray) else np.ndim(a)


def size(a: Any, axis: int | None = None) -> int:
    """The number of elements (along ``axis`` when given). See also: numpy.size."""
    if isinstance(a, DArray):
        return a.size if axis is None else a.shape[axis]
    return int(np.size(a, axis))


def isscalar(element: Any) -> bool:
    """True for Python and NumPy scalars (False for arrays, 0-d DArrays included). See also: numpy.isscalar."""
    return not isinstance(element, DArray) and bool(np.isscalar(element))


def iterable(y: Any) -> bool:
    """Whether ``iter(y)`` works (a 0-d DArray does not). See also: numpy.iterable."""
    if isinstance(y, DArray):
        return y.ndim > 0
    return bool(np.iterable(y))


__all__ = ["r_", "c_", "s_", "index_exp", "mgrid", "ogrid", "indices", "ix_", "unravel_index", "ravel_multi_index",
           "diag_indices", "diag_indices_from", "tril_indices", "tril_indices_from", "triu_indices",
           "triu_indices_from", "mask_indices", "fill_diagonal", "ndindex", "ndenumerate", "broadcast_shapes",
           "shape", "ndim", "size", "isscalar", "iterable"]
