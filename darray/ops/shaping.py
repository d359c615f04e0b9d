"""Shapes and orders: atleast_*, rot90, fliplr/flipud, rollaxis, resize, trim_zeros, require,
apply_along_axis, apply_over_axes and the memory-sharing questions, NumPy's forms on the device.

Views where NumPy gives views (atleast_*, rot90, fliplr, flipud, rollaxis); ``resize`` and
``trim_zeros`` copy. ``apply_along_axis`` calls the Python function once per 1-D slice, as
NumPy's does, and stacks the results on the device.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..dim import normalize_axes, normalize_axis
from ..transfer.convert import asarray
from . import elementwise as E
from . import reduction as R
from .arrange import tile
from .creation import zeros
from .manipulation import expand_dims, flip, moveaxis, named, one, reshape, stack, transpose


def _atleast(n: int, op: str, arys: tuple[Any, ...]) -> Any:
    out = []
    for a in arys:
        x = one(op, a)
        if x.ndim < n:
            shape = {0: (1,) * n, 1: ((1, x.size) if n == 2 else (1, x.size, 1)), 2: (*x.shape, 1)}[x.ndim]
            x = reshape(x, shape)
        out.append(x)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys: Any) -> Any:
    """Each input as an array of at least 1 dimension (a view). See also: numpy.atleast_1d."""
    return _atleast(1, "atleast_1d", arys)


def atleast_2d(*arys: Any) -> Any:
    """Each input as an array of at least 2 dimensions (1-D becomes a row). See also: numpy.atleast_2d."""
    return _atleast(2, "atleast_2d", arys)


def atleast_3d(*arys: Any) -> Any:
    """Each input with at least 3 dimensions ((N,) becomes (1, N, 1), (M, N) becomes (M, N, 1)).
    See also: numpy.atleast_3d."""
    return _atleast(3, "atleast_3d", arys)


@named
def rot90(m: Any, k: int = 1, axes: Sequence[int] = (0, 1)) -> DArray:
    """Rotated by 90 degrees ``k`` times in the plane of ``axes`` (a view). See also: numpy.rot90."""
    x = one("rot90", m)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    a, b = (normalize_axis(ax, x.ndim) for ax in axes)
    if a == b:
        raise ValueError("Axes must be different.")
    k %= 4
    if k == 0:
        return x[...]
    if k == 2:
        return flip(flip(x, axis=a), axis=b)
    order = list(range(x.ndim))
    order[a], order[b] = order[b], order[a]
    return transpose(flip(x, axis=b), order) if k == 1 else flip(transpose(x, order), axis=b)


def fliplr(m: Any) -> DArray:
    """Columns in reverse order (axis 1; a view). See also: numpy.fliplr."""
    x = one("fliplr", m)
    if x.ndim < 2:
        raise ValueError("darray fliplr: Input must be >= 2-d.")
    return flip(x, axis=1)


def flipud(m: Any) -> DArray:
    """Rows in reverse order (axis 0; a view). See also: numpy.flipud."""
    x = one("flipud", m)
    if x.ndim < 1:
        raise ValueError("darray flipud: Input must be >= 1-d.")
    return flip(x, axis=0)


@named
def rollaxis(a: Any, axis: int, start: int = 0) -> DArray:
    """``axis`` moved to position ``start`` (NumPy's older form of moveaxis; a view). See also: numpy.rollaxis."""
    x = one("rollaxis", a)
    axis = normalize_axis(axis, x.ndim)
    if not -x.ndim <= start <= x.ndim:
        raise np.exceptions.AxisError(f"start arg requires {-x.ndim} <= start < {x.ndim + 1} but {start} was passed in")
    start = start + x.ndim if start < 0 else start
    if axis < start:
        start -= 1
    return moveaxis(x, axis, start) if axis != start else x[...]


@named
def resize(a: Any, new_shape: Any) -> DArray:
    """A new array of ``new_shape`` filled with the elements of ``a`` repeated in C order (NumPy's
    function, unlike ``ndarray.resize``, which pads with zeros). See also: numpy.resize."""
    x = one("resize", a)
    shape = (int(new_shape),) if isinstance(new_shape, (int, np.integer)) else tuple(int(n) for n in new_shape)
    if any(n < 0 for n in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    total = int(np.prod(shape, dtype=np.int64))
    flat = reshape(x, (-1,))
    if not total or not x.size:  # NumPy fills from an empty input with zeros
        return zeros(shape, dtype=x.dtype, device=x.place)
    reps = -(-total // x.size)
    return reshape(tile(flat, (reps,))[:total], shape)


@named
def trim_zeros(filt: Any, trim: str = "fb", axis: Any = None) -> DArray:
    """``filt`` without its leading ('f') and/or trailing ('b') zeros, per ``axis`` (all axes when
    None): a view. Reads where the non-zero region starts and ends. See also: numpy.trim_zeros."""
    x = one("trim_zeros", filt)
    trim = trim.lower()
    if any(c not in "fb" for c in trim):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = normalize_axes(axis, x.ndim)
    nonzero = E.apply("not_equal", x, 0)
    key: list[Any] = [slice(None)] * x.ndim
    for ax in axes:
        others = tuple(a for a in range(x.ndim) if a != ax)
        hits = np.flatnonzero(R.any(nonzero, axis=others).get()) if x.ndim else np.flatnonzero(nonzero.get())
        start = int(hits[0]) if hits.size and "f" in trim else (x.shape[ax] if not hits.size else 0)
        stop = int(hits[-1]) + 1 if hits.size and "b" in trim else (start if not hits.size else x.shape[ax])
        key[ax] = slice(start, max(start, stop))
    return x[tuple(key)]


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O",
                 "E": "E", "ENSUREARRAY": "E"}


def require(a: Any, dtype: Any = None, requirements: Any = None, *, like: Any = None) -> DArray:
    """``a`` as a DArray of ``dtype`` meeting ``requirements`` ('C', 'F', 'A', 'W', 'O', 'E'; a copy
    only when needed). Differs from NumPy: darray copies in C order only, so 'F' of an array of more
    than one dimension that is not already Fortran-contiguous is a ValueError. See also: numpy.require."""
    x = a if isinstance(a, DArray) else asarray(a, dtype=dtype)
    if dtype is not None and x.dtype != _dt.as_dtype(dtype, "require"):
        x = x.astype(dtype)
    wanted = {_REQUIREMENTS.get(str(r).upper(), "?") for r in ([requirements] if isinstance(requirements, str)
                                                              else requirements or [])}
    if "?" in wanted:
        raise KeyError(f"darray require: unknown requirement in {requirements!r}")
    if "F" in wanted and not x._dim.is_f_contiguous:
        if x.ndim > 1:
            raise ValueError("darray require: Fortran-ordered arrays of more than 1 dimension are not supported")
        x = x.copy()
    if ("C" in wanted and not x._dim.is_c_contiguous) or ("O" in wanted and x._base is not None):
        x = x.copy()
    return x


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: Any, *args: Any, **kwargs: Any) -> DArray:
    """``func1d`` applied to every 1-D slice along ``axis`` (a Python call per slice, as NumPy), its
    results stacked where the axis was. See also: numpy.apply_along_axis."""
    x = one("apply_along_axis", arr)
    axis = normalize_axis(axis, x.ndim)
    moved = moveaxis(x, axis, -1)
    outer = moved.shape[:-1]
    if not int(np.prod(outer, dtype=np.int64)):
        raise ValueError("darray apply_along_axis: Cannot apply_along_axis when any iteration dimensions are 0")
    results = [one("apply_along_axis", func1d(moved[idx], *args, **kwargs)) for idx in product(*map(range, outer))]
    stacked = reshape(stack(results), (*outer, *results[0].shape))
    # NumPy puts the function's own axes where ``axis`` was
    return moveaxis(stacked, tuple(range(len(outer), stacked.ndim)), tuple(range(axis, axis + results[0].ndim)))


def apply_over_axes(func: Callable[[DArray, int], Any], a: Any, axes: Any) -> DArray:
    """``func(a, axis)`` for each axis in turn, keeping the dimension (NumPy's rule: the result must
    have the input's rank or one less, which gets the axis back). See also: numpy.apply_over_axes."""
    x = one("apply_over_axes", a)
    for ax in [axes] if isinstance(axes, (int, np.integer)) else axes:
        ax = normalize_axis(ax, x.ndim)
        res = one("apply_over_axes", func(x, ax))
        if res.ndim == x.ndim - 1:
            res = expand_dims(res, axis=ax)
        elif res.ndim != x.ndim:
            raise ValueError("darray apply_over_axes: function is not returning an array of the correct shape")
        x = res
    return x


def shares_memory(a: Any, b: Any, /, max_work: int = -1) -> bool:
    """Whether two arrays touch a common byte: both DArrays over one allocation, found exactly as
    NumPy does (``max_work`` bounds the search, as NumPy's). See also: numpy.shares_memory."""
    if not (isinstance(a, DArray) and isinstance(b, DArray)) or not a.size or not b.size or a._data() is not b._data():
        return False
    return a._dim.shares(b._dim, a.itemsize, b.itemsize, max_work)


def may_share_memory(a: Any, b: Any, /, max_work: int = 0) -> bool:
    """Whether two arrays' extents overlap in one allocation (``max_work=None``: exactly). See also:
    numpy.may_share_memory."""
    try:
        return shares_memory(a, b, max_work)
    except np.exceptions.TooHardError:  # not settled within max_work: may share
        return True


def isfortran(a: Any) -> bool:
    """True for Fortran-contiguous arrays that are not also C-contiguous. See also: numpy.isfortran."""
    x = one("isfortran", a)
    return bool(x._dim.is_f_contiguous and not x._dim.is_c_contiguous)


__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "rot90", "fliplr", "flipud", "rollaxis", "resize", "trim_zeros",
           "require", "apply_along_axis", "apply_over_axes", "shares_memory", "may_share_memory", "isfortran"]
