"""Cumulative sums and products along one axis (Array API ``cumulative_sum``/``cumulative_prod``).

On OpenCL places the result is a new contiguous [rows, axis] buffer. The kernels
(``kernels/scan.cl``) read the input where it lies when each row is contiguous (converting
integer or float input to the result dtype as they read), else from one contiguous copy; the
chunks' totals come first (a read), their scan (recursively) starts each chunk's scan (a read
and a write). The result is a view with the axis back in place.
"""
from __future__ import annotations

import math
from functools import cache
from importlib import resources
from typing import Any, cast

import numpy as np
import pyopencl as cl

from .. import dtypes as _dt
from .._array import DArray
from ..dim import normalize_axis
from ..dtypes import ctype
from ..lazy import at_once, host
from ..lazy.render import header
from ..place import CLPlace, runtime
from ..transfer.convert import asarray, astype, empty, from_numpy
from . import _dispatch as D
from ._kernel import run as launch
from ._out import reduced
from .reduction import _dtypes

__all__ = ["cumulative_sum", "cumulative_prod", "cumsum", "cumprod"]


@cache
def _source(complex_: bool) -> str:
    text = resources.files("darray.kernels").joinpath("scan.cl").read_text()
    return (header("complex.h") + text) if complex_ else text


def _kernel(place: CLPlace, dt: np.dtype, op: str, name: str, src: np.dtype | None = None) -> cl.Kernel:
    t = ctype(dt)
    opts = [f"-D T={t}", f"-D S={ctype(src if src is not None else dt)}", f"-D OP_{op.upper()}"]
    if dt.kind == "f":
        opts.append("-D T_FLOAT")
    if dt.kind == "b":
        opts.append("-D T_BOOL")
    if dt.kind == "c":
        opts.append(f"-D COMPLEX_R={t[:-1]}")
    else:
        opts.append(f"-D U={ {'char': 'uchar', 'short': 'ushort', 'int': 'uint', 'long': 'ulong'}.get(t, t) }")
    if _dt.float64 in (dt, src) or _dt.complex128 == dt:
        opts.append("-D DARRAY_FP64=1")
    src_text = ("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" if "DARRAY_FP64=1" in " ".join(opts) else "") + \
        _source(dt.kind == "c")
    return runtime(place).programs.kernel(src_text, name, " ".join(opts))


def _scan(src: DArray, dst: DArray, op: str, skip: int = 0) -> None:
    """Inclusive scans of the rows of the 2-D ``src`` (each row contiguous, rows evenly spaced; a real dtype
    that converts to dst's, or dst's own) into the rows of the contiguous 2-D ``dst`` after their first ``skip``
    elements (``dst`` may be ``src``: in place). Two passes over the values: the chunks' totals, whose
    scan (recursively) starts each chunk's scan."""
    m, k = src.shape
    place = cast(CLPlace, src.place)
    parts = _parts(place, m, k)
    item, sa, da_ = dst.dtype.itemsize, src._data(), dst._data()
    row = src._dim.strides[0] if m > 1 else k
    head = (sa.buffer, np.int64(sa.offset // src.dtype.itemsize + src._dim.offset), np.int64(row))
    sizes = (np.int64(m), np.int64(k), np.int64(parts))
    source = None if src.dtype == dst.dtype else src.dtype
    if parts > 1:
        totals = empty((m, parts), dst.dtype, place)
        ta = totals._data()
        launch("scan_totals", _kernel(place, dst.dtype, op, "scan_totals", source),
               (*head, ta.buffer, np.int64(ta.offset // item), *sizes), m * parts, place, reads=[sa], writes=[ta],
               nbytes=src.nbytes)
        _scan(totals, totals, op)
    else:
        ta = da_
    launch("scan_apply", _kernel(place, dst.dtype, op, "scan_apply", source),
           (*head, da_.buffer, np.int64(da_.offset // item + dst._dim.offset + skip), np.int64(dst.shape[1]),
            ta.buffer, np.int64(ta.offset // item), *sizes), m * parts, place, reads=[sa, ta], writes=[da_],
           nbytes=src.nbytes + m * k * item)


def _parts(place: CLPlace, m: int, k: int) -> int:
    """Chunks per row of a scan of ``m`` rows of ``k`` elements: enough work-items for the device."""
    target = max(4096, runtime(place).info.compute_units * 2048)
    return max(1, min(-(-target // max(m, 1)), k // 64))


def _readable(rows: DArray, dt: np.dtype) -> DArray:
    """``rows`` as the scan kernels read them (each row contiguous; dt itself, or an integer or bool type, or a
    float type into a float ``dt``: converted as they are read), else a contiguous copy in ``dt``."""
    direct = rows.shape[1] == 1 or rows._dim.strides[1] == 1
    kinds = rows.dtype == dt or (rows.dtype.kind in "biu" and dt.kind in "biuf") or (rows.dtype.kind == dt.kind == "f")
    if direct and kinds and rows.dtype != _dt.float16:
        return rows
    return astype(rows, dt, copy=True)


def _scan_rows(data: DArray, op: str) -> None:
    """Inclusive scan, in place, of each row of the contiguous 2-D array ``data``."""
    _scan(data, data, op)


def _cumulative(op: str, x: Any, axis: int | None, dtype: Any, include_initial: bool) -> DArray:
    x = x if isinstance(x, DArray) else asarray(x)
    name = f"cumulative_{op}"
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"darray {name}: axis must be given for arrays of more than one dimension")
        x, axis = (x.reshape(1) if x.ndim == 0 else x), 0
    axis = normalize_axis(axis, x.ndim, name)
    out_dt = _dtypes(op, x.dtype, dtype)
    return D.implementation(name, x.place)(op, x, axis, out_dt, include_initial)


@D.register("cumulative_sum", "cpu")
@D.register("cumulative_prod", "cpu")
def _cumulative_cpu(op: str, x: DArray, axis: int, out_dt: np.dtype, include_initial: bool) -> DArray:
    """The cumulative ``op`` ("sum" or "prod") along ``axis`` in ``out_dt`` through NumPy."""
    host = (np.cumsum if op == "sum" else np.cumprod)(x._host_view(), axis=axis, dtype=out_dt)
    if include_initial:
        pad = np.full(host.shape[:axis] + (1,) + host.shape[axis + 1:], 0 if op == "sum" else 1, out_dt)
        host = np.concatenate([pad, host], axis=axis)
    return from_numpy(host, x.place)


@D.register("cumulative_sum", "cl")
@D.register("cumulative_prod", "cl")
def _cumulative_cl(op: str, x: DArray, axis: int, out_dt: np.dtype, include_initial: bool) -> DArray:
    """The cumulative ``op`` ("sum" or "prod") along ``axis`` in ``out_dt``: a contiguous copy with
    the axis last, scanned row by row in place (:func:`_scan_rows`)."""
    dev_dt = D.device_dtype(out_dt, x.place)
    last = axis == x.ndim - 1  # the common case: no axes to move
    perm = tuple(a for a in range(x.ndim) if a != axis) + (axis,)
    moved = x if last else x.transpose(perm)
    k = x.shape[axis] + (1 if include_initial else 0)
    rows = math.prod(moved.shape[:-1])
    inverse = tuple(sorted(range(x.ndim), key=perm.__getitem__))
    done = _scan_now(op, moved, dev_dt, rows, k, include_initial)
    if done is not None:
        return done if last else done.transpose(inverse)
    work = empty(moved.shape[:-1] + (k,), dev_dt, x.place)
    if include_initial:  # the initial column is not scanned (NumPy: [0, -0.0] stays so)
        work[..., :1] = 0 if op == "sum" else 1
    if rows and x.shape[axis]:
        src = _readable(moved.reshape(rows, x.shape[axis]), dev_dt)
        _scan(src, work.reshape(rows, k), op, skip=int(include_initial))
    return work if last else work.transpose(inverse)


def _scan_now(op: str, moved: DArray, dt: np.dtype, rows: int, k: int, initial: bool) -> DArray | None:
    """The scan of ``moved`` (the scanned axis last) by NumPy as it is called, into a new contiguous
    array, where the host engine may read ``moved`` and takes its size and NumPy gives the kernels'
    bits: integer and bool scans (exact in any order), and float scans the kernels run as one chunk
    per row (each element after the one before it: a chain the compiler cannot reorder; with more
    chunks, Intel's compiler reorders the chunk totals' folds). Not float16, not complex products."""
    place = cast(CLPlace, moved._place)
    n = k - int(initial)
    if not rows or dt == _dt.float16 or (op == "prod" and dt.kind == "c") or not host.exact_copy(moved.dtype, dt) \
            or (dt.kind in "fc" and _parts(place, rows, n) > 1) or not host.usable(place, moved.size):
        return None
    v = host.view(moved)
    made = at_once.fresh(place, moved.shape[:-1] + (k,), dt) if v is not None else None
    if v is None or made is None:
        return None
    out = made[1].reshape(rows, k)
    if initial:
        out[:, 0] = 0 if op == "sum" else 1
    if n:
        fold = np.add if op == "sum" else np.multiply
        host.quietly(fold.accumulate, v.reshape(rows, n), axis=1, dtype=dt, out=out[:, int(initial):])
    return made[0]


def cumulative_sum(x: Any, /, *, axis: int | None = None, dtype: Any = None, out: Any = None,
                   include_initial: bool = False) -> DArray:
    """Cumulative sum along ``axis`` (required for N-D input). Integer input widens as in ``sum``.
    The result may be a transposed view. See also: numpy.cumulative_sum."""
    return reduced("cumulative_sum", _cumulative("sum", x, axis, dtype, include_initial), out)


def cumulative_prod(x: Any, /, *, axis: int | None = None, dtype: Any = None, out: Any = None,
                    include_initial: bool = False) -> DArray:
    """Cumulative product along ``axis``. See also: numpy.cumulative_prod."""
    return reduced("cumulative_prod", _cumulative("prod", x, axis, dtype, include_initial), out)


def cumsum(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> DArray:
    """Cumulative sum along ``axis``; None scans the flattened array (NumPy's ``cumsum``, where the
    Array API's ``cumulative_sum`` needs an axis). See also: numpy.cumsum."""
    return _numpy_scan("sum", a, axis, dtype, out)


def cumprod(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> DArray:
    """Cumulative product along ``axis``; None scans the flattened array. See also: numpy.cumprod."""
    return _numpy_scan("prod", a, axis, dtype, out)


def _numpy_scan(op: str, a: Any, axis: int | None, dtype: Any, out: Any) -> DArray:
    x = a if isinstance(a, DArray) else asarray(a)
    if axis is None:
        x, axis = x.reshape(-1), 0
    return reduced(f"cum{op}", _cumulative(op, x, axis, dtype, False), out)

