"""Array creation: empty, zeros, ones, full (and *_like), arange, linspace, eye, asarray.

Default dtypes follow NumPy (float64, int64), except that on a device without fp64 the
default floating dtype is float32.
"""
from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from .._convert import asarray, assign, from_numpy
from .._convert import empty as _empty
from ..dim import Dim
from ..place import CLPlace, Place, PlaceLike, parse, runtime

__all__ = ["asarray", "empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like",
           "arange", "linspace", "eye"]


def default_float(place: Place) -> np.dtype:
    """float64, or float32 on an OpenCL device without fp64."""
    if isinstance(place, CLPlace) and not runtime(place).info.fp64:
        return _dt.float32
    return _dt.float64


def _dtype(dtype: Any, place: Place, op: str) -> np.dtype:
    return default_float(place) if dtype is None else _dt.as_dtype(dtype, op)


def empty(shape: Any, *, dtype: Any = None, device: PlaceLike = None) -> DArray:
    """An uninitialised array. See also: numpy.empty."""
    place = parse(device)
    return _empty(shape, _dtype(dtype, place, "empty"), place)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: PlaceLike = None) -> DArray:
    """An array filled with ``fill_value``; dtype inferred from it when not given. See also: numpy.full."""
    return _full("full", shape, fill_value, dtype, parse(device))


def _full(op: str, shape: Any, fill_value: Any, dtype: Any, place: Place) -> DArray:
    """``full`` on ``place``, its errors naming ``op``."""
    if dtype is None:
        dtype = _dt.result_type(fill_value) if isinstance(fill_value, (bool, int, float, complex)) else \
            np.asarray(fill_value).dtype
        if dtype == _dt.float64:
            dtype = default_float(place)
    out = _empty(shape, _dt.as_dtype(dtype, op), place, op)
    if not isinstance(fill_value, DArray) and np.ndim(fill_value) == 0:
        value = np.empty((), out.dtype)
        np.copyto(value, fill_value, casting="unsafe")  # numpy.full's cast: complex -> real, 2.5 -> 2, ...
        fill_value = value
    assign(out, out._dim, fill_value)
    return out


def zeros(shape: Any, *, dtype: Any = None, device: PlaceLike = None) -> DArray:
    """An array of zeros (default dtype: the place's default float). See also: numpy.zeros."""
    place = parse(device)
    return _full("zeros", shape, 0, _dtype(dtype, place, "zeros"), place)


def ones(shape: Any, *, dtype: Any = None, device: PlaceLike = None) -> DArray:
    """An array of ones (default dtype: the place's default float). See also: numpy.ones."""
    place = parse(device)
    return _full("ones", shape, 1, _dtype(dtype, place, "ones"), place)


def _like(op: str, x: DArray, dtype: Any, device: PlaceLike) -> tuple[np.dtype, Place]:
    return (x.dtype if dtype is None else _dt.as_dtype(dtype, op)), (x.place if device is None else parse(device))


def empty_like(x: DArray, /, *, dtype: Any = None, device: PlaceLike = None) -> DArray:
    """An array like ``x`` (its shape; its dtype and place unless given). See also: numpy.empty_like."""
    dt, place = _like("empty_like", x, dtype, device)
    return _empty(x.shape, dt, place, "empty_like")


def zeros_like(x: DArray, /, *, dtype: Any = None, device: PlaceLike = None) -> DArray:
    """An array like ``x`` (its shape; its dtype and place unless given). See also: numpy.zeros_like."""
    dt, place = _like("zeros_like", x, dtype, device)
    return _full("zeros_like", x.shape, 0, dt, place)


def ones_like(x: DArray, /, *, dtype: Any = None, device: PlaceLike = None) -> DArray:
    """An array like ``x`` (its shape; its dtype and place unless given). See also: numpy.ones_like."""
    dt, place = _like("ones_like", x, dtype, device)
    return _full("ones_like", x.shape, 1, dt, place)


def full_like(x: DArray, /, fill_value: Any, *, dtype: Any = None, device: PlaceLike = None) -> DArray:
    """An array like ``x`` (its shape; its dtype and place unless given). See also: numpy.full_like."""
    dt, place = _like("full_like", x, dtype, device)
    return _full("full_like", x.shape, fill_value, dt, place)


def arange(start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: PlaceLike = None) -> DArray:
    """Evenly spaced values in ``[start, stop)``, computed on the host, then copied. See also: numpy.arange."""
    if step == 0:
        raise ValueError("darray arange: step must not be zero")
    place = parse(device)
    dt = None if dtype is None else _dt.as_dtype(dtype, "arange")
    host = np.arange(start, stop, step, dtype=dt) if stop is not None else np.arange(start, step=step, dtype=dt)
    if dt is None and host.dtype == _dt.float64:
        host = host.astype(default_float(place))
    return from_numpy(host, place)


def linspace(start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: PlaceLike = None,
             endpoint: bool = True) -> DArray:
    """``num`` evenly spaced values from ``start`` to ``stop``, computed on the host, then copied.

    The endpoints may be DArrays (read back; the result goes to their place unless ``device``
    says otherwise); ``num`` is anything NumPy takes as an integer (``operator.index``: a
    0-d integer DArray too). See also: numpy.linspace."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"darray linspace: number of samples, {num}, must be non-negative")
    ends = [v for v in (start, stop) if isinstance(v, DArray)]
    place = ends[0].place if ends and device is None else parse(device)
    dt = None if dtype is None else _dt.as_dtype(dtype, "linspace")
    start, stop = (v.get() if isinstance(v, DArray) else v for v in (start, stop))
    host = np.linspace(start, stop, num, endpoint=endpoint, dtype=dt)
    if dt is None and host.dtype == _dt.float64:
        host = host.astype(default_float(place))
    return from_numpy(host, place)


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None,
        device: PlaceLike = None) -> DArray:
    """Ones on the ``k``-th diagonal of an ``n_rows`` x ``n_cols`` matrix, zeros elsewhere. See also: numpy.eye."""
    place = parse(device)
    for v in (n_rows, n_cols if n_cols is not None else 0):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 0:
            raise ValueError(f"darray eye: sizes must be non-negative integers, got {v!r}")
    out = zeros((n_rows, n_rows if n_cols is None else n_cols), dtype=dtype, device=place)
    cols = out.shape[1]
    start = k if k >= 0 else -k * cols
    count = max(0, min(out.shape[0] - max(-k, 0), cols - max(k, 0)))
    if count:
        assign(out, Dim((count,), (cols + 1,), start), 1)
    return out
