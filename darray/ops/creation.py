"""Array creation: empty, zeros, ones, full (and *_like), arange, linspace, eye, asarray.

Default dtypes follow NumPy (float64, int64), except that on a device without fp64 the
default floating dtype is float32.
"""
from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import READ_ONLY, DArray
from ..dim import Dim
from ..place import CLPlace, Place, PlaceLike, parse, runtime
from ..transfer.convert import asarray, assign, from_numpy
from ..transfer.convert import empty as _empty
from ..transfer.convert import full as _filled
from . import elementwise as E
from ._dispatch import PY_SCALARS

__all__ = ["asarray", "empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like",
           "arange", "linspace", "eye", "array", "asanyarray", "ascontiguousarray", "asfortranarray",
           "asarray_chkfinite", "copy", "identity", "logspace", "geomspace", "fromfunction", "fromiter", "frombuffer",
           "fromstring", "tri", "vander", "diag", "diagflat"]


def default_float(place: Place) -> np.dtype:
    """float64, or float32 on an OpenCL device without fp64."""
    if isinstance(place, CLPlace) and not runtime(place).info.fp64:
        return _dt.float32
    return _dt.float64


def _dtype(dtype: Any, place: Place, op: str) -> np.dtype:
    return default_float(place) if dtype is None else _dt.as_dtype(dtype, op)


def _ordered(shape: Any, order: str, make: Any) -> DArray:
    """``make(shape)``, or for ``order="F"`` the transpose of ``make(reversed shape)`` (a
    Fortran-contiguous array)."""
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"darray: order must be one of 'C', 'F', 'A', 'K', got {order!r}")
    if order != "F":
        return make(shape)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    return make(shape[::-1]).T


def empty(shape: Any, dtype: Any = None, order: str = "C", *, device: PlaceLike = None, like: Any = None) -> DArray:
    """An uninitialised array (``order="F"``: Fortran-contiguous). See also: numpy.empty."""
    place = parse(device)
    return _ordered(shape, order, lambda s: _empty(s, _dtype(dtype, place, "empty"), place))


def full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", *, device: PlaceLike = None,
         like: Any = None) -> DArray:
    """An array filled with ``fill_value``; dtype inferred from it when not given. See also: numpy.full."""
    return _ordered(shape, order, lambda s: _full("full", s, fill_value, dtype, parse(device)))


def _full(op: str, shape: Any, fill_value: Any, dtype: Any, place: Place) -> DArray:
    """``full`` on ``place``, its errors naming ``op``."""
    if dtype is None:
        dtype = _dt.result_type(fill_value) if isinstance(fill_value, (bool, int, float, complex)) else \
            np.asarray(fill_value).dtype
        if dtype == _dt.float64:
            dtype = default_float(place)
    dtype = _dt.as_dtype(dtype, op)
    if type(fill_value) in PY_SCALARS or not isinstance(fill_value, DArray) and np.ndim(fill_value) == 0:
        value = np.empty((), dtype)
        np.copyto(value, fill_value, casting="unsafe")  # numpy.full's cast: complex -> real, 2.5 -> 2, ...
        return _filled(shape, value, place, op)
    out = _empty(shape, dtype, place, op)
    assign(out, out._dim, fill_value)
    return out


def zeros(shape: Any, dtype: Any = None, order: str = "C", *, device: PlaceLike = None, like: Any = None) -> DArray:
    """An array of zeros (default dtype: the place's default float). See also: numpy.zeros."""
    place = parse(device)
    return _ordered(shape, order, lambda s: _full("zeros", s, 0, _dtype(dtype, place, "zeros"), place))


def ones(shape: Any, dtype: Any = None, order: str = "C", *, device: PlaceLike = None, like: Any = None) -> DArray:
    """An array of ones (default dtype: the place's default float). See also: numpy.ones."""
    place = parse(device)
    return _ordered(shape, order, lambda s: _full("ones", s, 1, _dtype(dtype, place, "ones"), place))


def _like(op: str, x: Any, dtype: Any, device: PlaceLike, order: str, shape: Any,
          make: Any) -> DArray:
    """``make(shape, dtype, place)`` for an array like ``x`` (its shape, dtype and place unless given;
    ``order`` "K"/"A" keep a Fortran-contiguous ``x``'s order)."""
    x = x if isinstance(x, DArray) else asarray(x)
    dt = x.dtype if dtype is None else _dt.as_dtype(dtype, op)
    place = x.place if device is None else parse(device)
    if order in ("K", "A") and x.ndim > 1 and x._dim.is_f_contiguous and not x._dim.is_c_contiguous:
        order = "F"
    return _ordered(x.shape if shape is None else shape, order, lambda s: make(s, dt, place))


def empty_like(prototype: DArray, /, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None, *,
               device: PlaceLike = None) -> DArray:
    """An array like ``x`` (its shape; its dtype and place unless given). See also: numpy.empty_like."""
    return _like("empty_like", prototype, dtype, device, order, shape, lambda s, d, p: _empty(s, d, p, "empty_like"))


def zeros_like(a: DArray, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None, *,
               device: PlaceLike = None) -> DArray:
    """An array like ``x`` (its shape; its dtype and place unless given). See also: numpy.zeros_like."""
    return _like("zeros_like", a, dtype, device, order, shape, lambda s, d, p: _full("zeros_like", s, 0, d, p))


def ones_like(a: DArray, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None, *,
              device: PlaceLike = None) -> DArray:
    """An array like ``x`` (its shape; its dtype and place unless given). See also: numpy.ones_like."""
    return _like("ones_like", a, dtype, device, order, shape, lambda s, d, p: _full("ones_like", s, 1, d, p))


def full_like(a: DArray, fill_value: Any, dtype: Any = None, order: str = "K", subok: bool = True,
              shape: Any = None, *, device: PlaceLike = None) -> DArray:
    """An array like ``x`` (its shape; its dtype and place unless given). See also: numpy.full_like."""
    return _like("full_like", a, dtype, device, order, shape,
                 lambda s, d, p: _full("full_like", s, fill_value, d, p))


def arange(start_or_stop: Any, /, stop: Any = None, step: Any = 1, dtype: Any = None, *, device: PlaceLike = None,
           like: Any = None) -> DArray:
    """Evenly spaced values in ``[start, stop)``, computed on the host, then copied. See also: numpy.arange."""
    if step == 0:
        raise ValueError("darray arange: step must not be zero")
    place = parse(device)
    dt = None if dtype is None else _dt.as_dtype(dtype, "arange")
    host = np.arange(start_or_stop, stop, step, dtype=dt) if stop is not None else \
        np.arange(start_or_stop, step=step, dtype=dt)
    if dt is None and host.dtype == _dt.float64:
        host = host.astype(default_float(place))
    return from_numpy(host, place)


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: Any = None, axis: int = 0, *, device: PlaceLike = None) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop``, computed on the host, then copied.

    The endpoints may be DArrays (read back; the result goes to their place unless ``device``
    says otherwise); ``num`` is anything NumPy takes as an integer (``operator.index``: a
    0-d integer DArray too). See also: numpy.linspace."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"darray linspace: number of samples, {num}, must be non-negative")
    place, (start, stop) = _endpoints(device, start, stop)
    dt = None if dtype is None else _dt.as_dtype(dtype, "linspace")
    host, step = np.linspace(start, stop, num, endpoint=endpoint, dtype=dt, retstep=True, axis=axis)
    if dt is None and host.dtype == _dt.float64:
        host = host.astype(default_float(place))
    return (from_numpy(host, place), step) if retstep else from_numpy(host, place)


def _endpoints(device: PlaceLike, *values: Any) -> tuple[Place, list[Any]]:
    """The place of a spacing (``device``, else that of the DArray endpoints, else the current one)
    and the endpoints read back to the host."""
    ends = [v for v in values if isinstance(v, DArray)]
    place = ends[0].place if ends and device is None else parse(device)
    return place, [v.get() if isinstance(v, DArray) else v for v in values]


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, order: str = "C", *,  # noqa: N803
        device: PlaceLike = None, like: Any = None) -> DArray:
    """Ones on the ``k``-th diagonal of an ``N`` x ``M`` matrix, zeros elsewhere (default dtype: the
    place's default float). See also: numpy.eye."""
    if order == "F":
        return eye(N if M is None else M, N, -k, dtype, device=device).T
    place = parse(device)
    for v in (N, M if M is not None else 0):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 0:
            raise ValueError(f"darray eye: sizes must be non-negative integers, got {v!r}")
    out = zeros((N, N if M is None else M), dtype=dtype, device=place)
    cols = out.shape[1]
    start = k if k >= 0 else -k * cols
    count = max(0, min(out.shape[0] - max(-k, 0), cols - max(k, 0)))
    if count:
        assign(out, Dim((count,), (cols + 1,), start), 1)
    return out


def array(object: Any, dtype: Any = None, *, copy: bool | None = True, order: str = "K", subok: bool = False,  # noqa: A002
          ndmin: int = 0, ndmax: int = 0, like: Any = None, device: PlaceLike = None) -> DArray:
    """``object`` as a new DArray (``copy=None``: only when needed; ``copy=False``: ValueError when
    needed), with at least ``ndmin`` dimensions; ``order="F"`` gives a Fortran-contiguous copy.
    See also: numpy.array."""
    x = asarray(object, dtype=dtype, device=device, copy=copy, order=order)
    if ndmax and x.ndim > ndmax:
        raise TypeError(f"darray array: ndmax={ndmax} would make an object array of {x.ndim}-d input (darray "
                        "has no object arrays)")
    if ndmin > x.ndim:
        x = x.reshape((1,) * (ndmin - x.ndim) + x.shape)
    return x


def asanyarray(a: Any, dtype: Any = None, order: str | None = None, *, device: PlaceLike = None,
               copy: bool | None = None, like: Any = None) -> DArray:
    """``asarray`` (darray has no array subclasses). See also: numpy.asanyarray."""
    return asarray(a, dtype=dtype, device=device, copy=copy)


def ascontiguousarray(a: Any, dtype: Any = None, *, like: Any = None, device: PlaceLike = None) -> DArray:
    """``a`` as a C-contiguous DArray of at least 1 dimension (a copy only when needed). See also:
    numpy.ascontiguousarray."""
    return array(a, dtype, copy=None, order="C", ndmin=1, device=device)


def asfortranarray(a: Any, dtype: Any = None, *, like: Any = None, device: PlaceLike = None) -> DArray:
    """``a`` as a Fortran-contiguous DArray of at least 1 dimension (a copy only when needed). See also:
    numpy.asfortranarray."""
    return array(a, dtype, copy=None, order="F", ndmin=1, device=device)


def asarray_chkfinite(a: Any, dtype: Any = None, order: str | None = None, *, device: PlaceLike = None) -> DArray:
    """``asarray``, with ValueError when an element is NaN or infinite (one device reduction). See also:
    numpy.asarray_chkfinite."""
    x = asarray(a, dtype=dtype, device=device)
    if x.dtype.kind in "fc" and x.size and not bool(E.apply("isfinite", x).all()):
        raise ValueError("darray asarray_chkfinite: array must not contain infs or NaNs")
    return x


def copy(a: Any, order: str = "K", subok: bool = False) -> DArray:  # noqa: A001
    """A copy of ``a`` in memory order ``order`` ("K", "A": Fortran for a Fortran-contiguous ``a``, else C).
    See also: numpy.copy."""
    return array(a, copy=True, order=order)


def identity(n: int, dtype: Any = None, *, like: Any = None, device: PlaceLike = None) -> DArray:
    """The ``n`` x ``n`` identity matrix. See also: numpy.identity."""
    return eye(n, dtype=dtype, device=device)


def _host_made(host: np.ndarray, dtype: Any, place: Place) -> DArray:
    if dtype is None and host.dtype == _dt.float64:
        host = host.astype(default_float(place))
    return from_numpy(host, place)


def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: Any = 10.0, dtype: Any = None,
             axis: int = 0, *, device: PlaceLike = None) -> DArray:
    """``base ** linspace(start, stop, num)``, computed on the host, then copied (endpoints and base
    may be DArrays, as in :func:`linspace`). See also: numpy.logspace."""
    place, (start, stop, base) = _endpoints(device, start, stop, base)
    return _host_made(np.logspace(start, stop, num, endpoint, base, dtype, axis), dtype, place)


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None, axis: int = 0, *,
              device: PlaceLike = None) -> DArray:
    """A geometric progression from ``start`` to ``stop``, computed on the host, then copied. See also:
    numpy.geomspace. The endpoints may be DArrays, as in :func:`linspace`."""
    place, (start, stop) = _endpoints(device, start, stop)
    return _host_made(np.geomspace(start, stop, num, endpoint, dtype, axis), dtype, place)


def fromfunction(function: Any, shape: Any, *, dtype: Any = float, like: Any = None, device: PlaceLike = None,
                 **kwargs: Any) -> Any:
    """``function(*indices)`` called once with one index array per axis (DArrays of ``dtype``), as NumPy.
    See also: numpy.fromfunction."""
    place = parse(device)
    grids = np.indices(tuple(shape), dtype=dtype)
    return function(*(from_numpy(np.ascontiguousarray(g), place) for g in grids), **kwargs)


def fromiter(iter: Any, dtype: Any, count: int = -1, *, like: Any = None, device: PlaceLike = None) -> DArray:  # noqa: A002
    """A 1-D array from an iterable (read on the host, then copied). See also: numpy.fromiter."""
    return from_numpy(np.fromiter(iter, dtype, count), parse(device))


def frombuffer(buffer: Any, dtype: Any = None, count: int = -1, offset: int = 0, *, like: Any = None,
               device: PlaceLike = None) -> DArray:
    """A 1-D array of the bytes of ``buffer`` (copied to the place). Differs from NumPy: a copy, not a
    view of the buffer. See also: numpy.frombuffer."""
    return from_numpy(np.frombuffer(buffer, dtype, count, offset).copy(), parse(device))


def fromstring(string: str, dtype: Any = float, count: int = -1, *, sep: str, like: Any = None,
               device: PlaceLike = None) -> DArray:
    """A 1-D array parsed from text separated by ``sep`` (NumPy 2 requires it). See also: numpy.fromstring."""
    return from_numpy(np.fromstring(string, dtype, count, sep=sep), parse(device))


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = float, *, like: Any = None,  # noqa: N803
        device: PlaceLike = None) -> DArray:
    """Ones at and below the ``k``-th diagonal of an ``N`` x ``M`` array. See also: numpy.tri."""
    place = parse(device)
    rows = arange(N, dtype=_dt.int64, device=place).reshape(N, 1)
    cols = arange(N if M is None else M, dtype=_dt.int64, device=place)
    return (cols - rows <= k).astype(_dt.as_dtype(dtype, "tri"))


def vander(x: Any, N: int | None = None, increasing: bool = False) -> DArray:  # noqa: N803
    """The Vandermonde matrix of 1-D ``x``: columns ``x**(N-1), ..., x**0`` (reversed with
    ``increasing``). See also: numpy.vander."""
    v = asarray(x)
    if v.ndim != 1:
        raise ValueError("darray vander: x must be a one-dimensional array or sequence.")
    n = v.size if N is None else N
    powers = arange(n, dtype=_dt.int64, device=v.place)
    if not increasing:
        powers = powers[::-1]
    out_dt = np.promote_types(v.dtype, _dt.int64)  # NumPy's: float32 -> float64, complex64 -> complex128
    return (v.reshape(-1, 1).astype(out_dt) ** powers.astype(out_dt)).astype(out_dt)


def diag(v: Any, k: int = 0) -> DArray:
    """The ``k``-th diagonal of a 2-D array (a read-only view), or a 2-D array with 1-D ``v`` on its ``k``-th
    diagonal. See also: numpy.diag."""
    x = asarray(v)
    if x.ndim == 2:
        rows, cols = x.shape
        count = max(0, min(rows - max(-k, 0), cols - max(k, 0)))
        start = x._dim.offset + (k * x._dim.strides[1] if k >= 0 else -k * x._dim.strides[0])
        return x._view(Dim((count,), (x._dim.strides[0] + x._dim.strides[1],), start if count else x._dim.offset),
                       readonly=READ_ONLY)  # read-only, as NumPy's
    if x.ndim != 1:
        raise ValueError("darray diag: Input must be 1- or 2-d.")
    n = x.size + abs(k)
    out = zeros((n, n), dtype=x.dtype, device=x.place)
    if x.size:
        assign(out, Dim((x.size,), (n + 1,), k if k >= 0 else -k * n), x)
    return out


def diagflat(v: Any, k: int = 0) -> DArray:
    """A 2-D array with the flattened input on its ``k``-th diagonal. See also: numpy.diagflat."""
    return diag(asarray(v).reshape(-1), k)
