"""``darray.lib.stride_tricks``: sliding_window_view and as_strided, views over the same memory.

``writeable=False`` (``sliding_window_view``'s default) gives a read-only view that can never be
made writeable, as NumPy's; a view of a read-only array is read-only whatever ``writeable`` says.
Differs from NumPy: darray counts strides in elements, so ``as_strided``'s byte strides must be
multiples of the itemsize.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import sched
from .._array import LOCKED, DArray
from ..dim import Dim, normalize_axis
from ..ops.manipulation import broadcast_arrays, broadcast_to
from ..transfer.convert import asarray


def _array(x: Any) -> DArray:
    return x if isinstance(x, DArray) else asarray(x)


def as_strided(x: Any, shape: Sequence[int] | None = None, strides: Sequence[int] | None = None,
               subok: bool = False, writeable: bool = True) -> DArray:
    """A view of ``x``'s memory with the given shape and byte strides (read-only for ``writeable=False``).
    Differs from NumPy: a view that
    would reach outside ``x``'s memory is a ValueError (NumPy reads whatever lies there). See also:
    numpy.lib.stride_tricks.as_strided."""
    a = _array(x)
    shape = a.shape if shape is None else tuple(int(n) for n in shape)
    byte_strides = a.strides if strides is None else tuple(int(s) for s in strides)
    if len(byte_strides) != len(shape):
        raise ValueError("darray as_strided: shape and strides must have the same length")
    if any(s % a.itemsize for s in byte_strides):
        raise ValueError(f"darray as_strided: strides {byte_strides} must be multiples of the itemsize {a.itemsize}")
    dim = Dim(shape, tuple(s // a.itemsize for s in byte_strides), a._dim.offset)
    lo, hi = dim.span()
    nbytes = sched.extent(a._data())  # (a da.jit trace then keys by it)
    if lo < 0 or hi * a.itemsize > nbytes:
        raise ValueError(f"darray as_strided: the view (elements {lo} to {hi}) reaches outside the array's memory "
                         f"({nbytes // a.itemsize} elements)")
    return a._view(dim, readonly=0 if writeable else LOCKED)


def sliding_window_view(x: Any, window_shape: Any, axis: Any = None, *, subok: bool = False,
                        writeable: bool = False) -> DArray:
    """Every window of ``window_shape`` along ``axis`` (all axes when None) as a view: the window axes
    come last; read-only unless ``writeable``. See also: numpy.lib.stride_tricks.sliding_window_view."""
    a = _array(x)
    window = (int(window_shape),) if np.ndim(window_shape) == 0 else tuple(int(w) for w in window_shape)
    if any(w < 0 for w in window):
        raise ValueError("darray sliding_window_view: `window_shape` cannot contain negative values")
    if axis is None:
        if len(window) != a.ndim:
            raise ValueError(f"darray sliding_window_view: Since axis is `None`, must provide window_shape for all "
                             f"dimensions of `x`; got {len(window)} window_shape elements and `x.ndim` is {a.ndim}.")
        axes: tuple[int, ...] = tuple(range(a.ndim))
    else:
        axes = tuple(normalize_axis(int(v), a.ndim, "sliding_window_view") for v in np.atleast_1d(axis))
        if len(axes) != len(window):
            raise ValueError("darray sliding_window_view: Must provide matching length window_shape and axis")
    shape = list(a.shape)
    for ax, w in zip(axes, window):
        if shape[ax] < w:
            raise ValueError("darray sliding_window_view: window shape cannot be larger than input array shape")
        shape[ax] -= w - 1
    dim = a._dim
    return a._view(Dim((*shape, *window), (*dim.strides, *(dim.strides[ax] for ax in axes)), dim.offset),
                   readonly=0 if writeable else LOCKED)


__all__ = ["as_strided", "sliding_window_view", "broadcast_to", "broadcast_arrays"]
