"""Sorting along one axis: ``sort`` and ``argsort`` (NumPy signatures, with the Array API's keywords).

On devices whose memory is host memory, large sorts of values go to NumPy on the mapped
buffers (:func:`engine`, ``DARRAY_SORT``). Otherwise, on OpenCL places the axis is moved last
(a contiguous copy unless it already is), giving M rows of K elements, and each row is sorted
on its own (``kernels/sort.cl``); the input is never written:

- short rows (K <= ``SHORT_ROW``): each work-item insertion-sorts a run of rows (stable);
- longer rows: an LSD radix sort over ``DIGIT``-bit digits of order-preserving unsigned keys
  (``kernels/include/sort_key.h``) in one of two plans (:func:`plan`): ``gpu`` in the ``gpu``
  kernel form (work-group tiles, one launch per pass: ``radix_gpu``), else ``chunked``:
  ``radix_hist`` counts the first digit in each of P chunks of every row and gives the key
  bits that vary (one small read-back: passes over digits that never vary are skipped, so
  int32 keys drawn from 1000 values take two passes). Each pass scans every row's counts in
  digit-major order (the scan op's ``_scan_rows``) and scatters every chunk stably to its
  offsets (``radix_scatter``), counting the next pass's digit by destination chunk as it
  goes (``radix_merge`` adds those counts up), so the keys are read once per pass.

argsort carries int32 indices (int64 for rows of 2**31 or more) and returns int64.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any, Literal, cast, overload

import numpy as np
import pyopencl as cl

from .. import dtypes as _dt
from .._array import DArray
from ..dim import normalize_axis
from ..lazy import execute, host
from ..place import CLPlace, runtime
from ..transfer.convert import asarray, astype, empty, from_numpy
from . import _dispatch as D
from . import elementwise as E
from ._kernel import on_host, ref, run, source
from .radix_gpu import fits, key_options
from .radix_gpu import sort_rows as gpu_rows
from .scan import _scan_rows
from .taking import take_along_axis

__all__ = ["sort", "argsort"]

DIGIT = 8  # bits per radix pass (4M float32 on Intel: 8 bits 0.14 s, 4 bits 0.31 s, 11 bits 0.15 s)
SHORT_ROW = 128  # rows up to this length are insertion-sorted (argsort of 2M float32 in rows of 64: 87 ms
# against radix 271 ms; rows of 128: 144 against 189; rows of 256: 254 against 142)
CHUNK = 1 << 14  # the fewest keys a radix work-item handles
MODES = ("auto", "kernel", "host", "chunked", "gpu")
HOST_MIN = 1 << 16  # auto: sorts of values of at least this many elements go to NumPy on host-memory devices


def kernel(place: CLPlace, dt: np.dtype, name: str, *, descending: bool = False, arg: bool = False,
           idx: np.dtype = _dt.int64) -> cl.Kernel:
    """Entry point ``name`` of ``kernels/sort.cl`` built for elements of ``dt``."""
    opts = key_options(dt, descending=descending, arg=arg) + [f"-D BITS={DIGIT}",
                                                              f"-D IDX={'int' if idx == _dt.int32 else 'long'}"]
    return runtime(place).programs.kernel(source("include/sort_key.h") + source("sort.cl"), name, " ".join(opts))


def launch(name: str, kern: cl.Kernel, args: Sequence[Any], items: int, place: CLPlace,
           reads: Sequence[DArray], writes: Sequence[DArray]) -> None:
    """Run ``kern`` over ``items`` work-items through the scheduler (``_kernel.run``)."""
    run(name, kern, args, items, place, reads=[a._data() for a in reads], writes=[a._data() for a in writes])


def contiguous(x: DArray) -> DArray:
    """``x`` when its elements are contiguous in C order, else a contiguous copy."""
    return x if x._dim.is_c_contiguous else astype(x, x.dtype, copy=True)


def span(n: int, place: CLPlace) -> tuple[int, np.int64]:
    """(work-items, elements per work-item) for the chunked set kernels over ``n`` elements."""
    length = max(4096, -(-n // (runtime(place).info.compute_units * 16)))
    return -(-n // length), np.int64(length)


def _chunks(m: int, k: int, place: CLPlace) -> tuple[int, int]:
    """(log2 of the chunk length, chunks per row): enough work-items for the device, each with
    at least CHUNK keys; chunk lengths are powers of two."""
    want = max(CHUNK, -(-k * m // (runtime(place).info.compute_units * 4)))
    logc = (min(want, k) - 1).bit_length()
    return logc, -(-k // (1 << logc))


@overload
def sort_rows(data: DArray, *, descending: bool = ..., arg: Literal[True]) -> tuple[DArray, DArray]: ...
@overload
def sort_rows(data: DArray, *, descending: bool = ..., arg: Literal[False] = ...) -> tuple[DArray, None]: ...
@overload
def sort_rows(data: DArray, *, descending: bool = ..., arg: bool) -> tuple[DArray, DArray | None]: ...
def sort_rows(data: DArray, *, descending: bool = False, arg: bool = False) -> tuple[DArray, DArray | None]:
    """Stable sort of each row of the non-empty 2-D OpenCL array ``data`` (left unchanged).
    Returns (sorted values, their positions in the row or None); the positions are int32 for
    rows shorter than 2**31, else int64. Rows longer than ``SHORT_ROW`` take :func:`plan`'s radix sort."""
    m, k = data.shape
    place, dt = cast(CLPlace, data.place), data.dtype
    idt = _dt.int32 if k < 2**31 else _dt.int64
    if k > SHORT_ROW and plan(place) == "gpu" and fits(place, k, dt, arg):
        return gpu_rows(contiguous(data), descending=descending, arg=arg)
    if k <= SHORT_ROW:  # in place, in a copy
        data = astype(data, dt, copy=True)
        index = empty((m, k), idt, place) if arg else None
        rows = data if index is None else index  # where the kernel writes the positions (arg), else data
        kern = kernel(place, dt, "rows_sort", descending=descending, arg=arg, idx=idt)
        per = max(1, int(span(m * k, place)[1]) // k)
        launch("rows_sort", kern, [*ref(data), *ref(rows), np.int64(m), np.int64(k), np.int64(per)],
               -(-m // per), place, [data], [data] + [rows] * arg)
        return data, index
    data = contiguous(data)
    logc, parts = _chunks(m, k, place)
    radix = 1 << DIGIT
    hist = empty((m, radix * parts + 1), idt, place)
    diff = empty((m * parts,), _dt.uint64 if dt.itemsize == 8 else _dt.uint32, place)
    bufs = [data, empty((m, k), dt, place)]
    idx = [empty((m, k), idt, place), empty((m, k), idt, place)] if arg else [data, data]
    sizes = (np.int64(m), np.int64(k), np.int64(parts), np.int32(logc))
    launch("radix_hist", kernel(place, dt, "radix_hist", descending=descending, idx=idt),
           [*ref(data), *ref(hist), *ref(diff), *sizes, np.int32(0)], m * parts, place, [data], [hist, diff])
    bits = int(np.bitwise_or.reduce(diff.get()))
    shifts = [s for s in range(0, 8 * dt.itemsize, DIGIT) if (bits >> s) & (radix - 1)] or [0]
    if shifts[0]:  # the first pass that matters is not over digit 0: count its digit instead
        launch("radix_hist", kernel(place, dt, "radix_hist", descending=descending, idx=idt),
               [*ref(data), *ref(hist), *ref(diff), *sizes, np.int32(shifts[0])], m * parts, place, [data],
               [hist, diff])
    part = empty((m * parts * parts * radix,), idt, place) if len(shifts) > 1 else hist
    scatter = kernel(place, dt, "radix_scatter", descending=descending, arg=arg, idx=idt)
    merge = kernel(place, dt, "radix_merge", idx=idt)
    for n, shift in enumerate(shifts):
        _scan_rows(hist, "sum")
        nxt = shifts[n + 1] if n + 1 < len(shifts) else -1
        launch("radix_scatter", scatter,
               [*ref(bufs[0]), *ref(bufs[1]), *ref(idx[0]), *ref(idx[1]), *ref(hist), *ref(part), *sizes,
                np.int32(shift), np.int32(n == 0), np.int32(nxt)],
               m * parts, place, [bufs[0], hist] + [idx[0]] * (arg and n > 0),
               [bufs[1], part] + [idx[1]] * arg)
        if nxt < 0:  # the last pass wrote the sorted rows
            break
        launch("radix_merge", merge, [*ref(part), *ref(hist), np.int64(m), np.int64(parts)], m * parts, place,
               [part], [hist])
        bufs = [bufs[1], bufs[0] if n else empty((m, k), dt, place)]  # data is never written
        idx.reverse()
    return bufs[1], idx[1] if arg else None


def _host_argsort(host: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """NumPy's stable argsort; descending as array_api_strict does it (ties in original order)."""
    if not descending:
        return np.argsort(host, axis=axis, kind="stable")
    flipped = np.flip(np.argsort(np.flip(host, axis), axis=axis, kind="stable"), axis)
    return host.shape[axis] - 1 - flipped


def _host_sorted(host: np.ndarray, axis: int, descending: bool, arg: bool) -> np.ndarray:
    """The sort or argsort (int64) of ``host`` through NumPy, with darray's ordering."""
    if arg:
        return _host_argsort(host, axis, descending).astype(_dt.int64)
    res = np.empty_like(host)
    _sort_into(res, host, axis, descending)
    return res


def _sort_into(out: np.ndarray, host: np.ndarray, axis: int, descending: bool) -> None:
    """``out[...] = sort(host)`` along ``axis`` through NumPy's fastest sort (vectorised, not
    stable), on every core: rows split between threads, one long row partitioned at its middle
    first. Equal values are interchangeable but for the signs of zeros and NaN payloads, which
    are then put back in their input order, as a stable sort leaves them."""
    src, dst = np.moveaxis(host, axis, -1), np.moveaxis(out, axis, -1)  # rows along the axis
    dst[...] = src
    if _THREADS == 1 or dst.size < 2 * HOST_MIN:
        parts = [dst]
    elif dst.ndim == 1:  # both halves sorted on their own after a partition at the middle
        half = dst.size // 2
        dst.partition(half)
        parts = [dst[:half], dst[half:]]
    else:
        parts = np.array_split(dst, _THREADS, axis=0)  # views: rows shared between threads
    list(_pool().map(lambda part: part.sort(axis=-1), parts))
    if descending:
        dst[...] = np.flip(dst, -1).copy()
    if host.dtype.kind == "f":
        for pick in (np.isnan, lambda a: a == 0):
            where = pick(dst)
            if where.any():
                dst[where] = src[pick(src)]


_THREADS = max(1, os.cpu_count() or 1)


@cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(_THREADS, thread_name_prefix="darray-sort")


def _mode() -> str:
    """``DARRAY_SORT`` (read at every call), checked."""
    value = os.environ.get("DARRAY_SORT", "auto").strip().lower() or "auto"
    if value not in MODES:
        raise ValueError(f"darray sort: DARRAY_SORT={value!r} is not one of {', '.join(MODES)}")
    return value


def plan(place: CLPlace) -> str:
    """The radix sort of the kernels on ``place``: 'gpu' (work-groups, one launch per pass:
    ``radix_gpu``) in the ``gpu`` kernel form, else 'chunked' (a chunk per work-item);
    ``DARRAY_SORT=chunked|gpu`` forces one on any device."""
    value = _mode()
    if value in ("chunked", "gpu"):
        return value
    return "gpu" if execute.form(place) == "gpu" else "chunked"


def engine(place: CLPlace, n: int, arg: bool) -> str:
    """'host' (NumPy on the mapped buffers) or the kernels' plan ('chunked' or 'gpu', :func:`plan`)
    for a sort (``arg``: argsort) of ``n`` elements on ``place``; ``DARRAY_SORT=auto|kernel|host|
    chunked|gpu`` (read at every call) decides. auto: the host for sorts of values from
    ``HOST_MIN`` elements on devices whose memory is host memory, else the kernels; kernel: the
    kernels. (4M float32 on Intel's CPU runtime, 2-core Zen 1 EPYC: NumPy's sort 54 ms, the radix
    kernels 138 ms; but a stable argsort, 792 ms in NumPy, 214 ms in the kernels.)"""
    value = _mode()
    if value == "host" or (value == "auto" and not arg and host.on(place) and n >= HOST_MIN):
        return "host"
    return plan(place)


KINDS = ("quicksort", "mergesort", "heapsort", "stable")


def _sorted(op: str, x: Any, axis: int | None, kind: str | None, order: Any, descending: bool, arg: bool) -> DArray:
    x = x if isinstance(x, DArray) else asarray(x)
    if kind is not None and kind not in KINDS:
        raise ValueError(f"darray {op}: sort kind must be one of {', '.join(map(repr, KINDS))} (got {kind!r})")
    if order is not None:
        raise ValueError(f"darray {op}: cannot specify order when the array has no fields")
    if axis is None:  # NumPy: the flattened array
        x, axis = x.reshape(-1), 0
    axis = normalize_axis(axis, x.ndim, f"darray {op}")
    if x.dtype.kind == "c":
        index = complex_argsort(x, axis, descending)
        return index if arg else take_along_axis(x, index, axis=axis)
    return D.implementation(op, x.place)(op, x, axis, descending, arg)


def complex_argsort(x: DArray, axis: int, descending: bool = False) -> DArray:
    """int64 indices that sort the complex ``x`` along ``axis`` as NumPy orders complex: by real
    part, then imaginary part, NaNs in NumPy 2's classes ``[R + Rj, R + nanj, nan + Rj, nan + nanj]``;
    stable. Stable argsorts by the imaginary part, the real part, then the NaN class."""
    re, im = E.apply("real", x), E.apply("imag", x)
    nan_class = astype(E.apply("add", E.apply("multiply", E.apply("isnan", re), 2), E.apply("isnan", im)),
                       _dt.int8, copy=False)
    index: DArray | None = None
    for key in (im, re, nan_class):
        key = key if index is None else take_along_axis(key, index, axis=axis)
        step = _sorted("argsort", key, axis, None, None, descending, True)
        index = step if index is None else take_along_axis(index, step, axis=axis)
    assert index is not None
    return index


@D.register("sort", "cpu")
@D.register("argsort", "cpu")
def _sorted_cpu(op: str, x: DArray, axis: int, descending: bool, arg: bool) -> DArray:
    """``op`` (sort, or argsort when ``arg``) along ``axis`` through NumPy."""
    return from_numpy(_host_sorted(x._host_view(), axis, descending, arg), x.place)


@D.register("sort", "cl")
@D.register("argsort", "cl")
def _sorted_cl(op: str, x: DArray, axis: int, descending: bool, arg: bool) -> DArray:
    """``op`` (sort, or argsort when ``arg``) along ``axis``: the kernels, or NumPy on the mapped
    buffers (:func:`engine`)."""
    if x.size == 0:
        return empty(x.shape, _dt.int64 if arg else x.dtype, x.place)
    if engine(cast(CLPlace, x.place), x.size, arg) == "host":
        out = empty(x.shape, _dt.int64 if arg else x.dtype, x.place)

        if arg:
            on_host(op, [x], [out], lambda xv, ov: ov.__setitem__(..., _host_argsort(xv, axis, descending)))
        else:
            on_host(op, [x], [out], lambda xv, ov: _sort_into(ov, xv, axis, descending))
        return out
    perm = tuple(a for a in range(x.ndim) if a != axis) + (axis,)
    moved = x.transpose(perm)
    values, index = sort_rows(moved.reshape(x.size // x.shape[axis], x.shape[axis]), descending=descending, arg=arg)
    out = (values if index is None else index).reshape(moved.shape).transpose(tuple(int(i) for i in np.argsort(perm)))
    return astype(out, _dt.int64, copy=False) if arg else out


def sort(a: Any, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
         stable: bool | None = None, descending: bool = False) -> DArray:
    """Sorted copy of ``a`` along ``axis`` (always stable, whatever ``kind`` and ``stable``).

    NaN sorts last; -0.0 and 0.0 are equal (kept in input order); complex sorts by real, then
    imaginary part, NaNs last as NumPy 2. ``descending=True`` (the Array API's keyword) orders
    as array_api_strict (the values of its ``flip(sort(x))``): largest first, NaNs first, equal
    elements in their input order. ``axis=None`` sorts the flattened array and 0-d input raises
    AxisError, as in NumPy. On OpenCL places with ``axis`` not last the result is a transposed
    view of a contiguous buffer. See also: numpy.sort.

    Differs from NumPy: ``order`` (structured arrays) is a ValueError, as darray has no fields.
    """
    return _sorted("sort", a, axis, kind, order, descending, False)


def argsort(a: Any, axis: int | None = -1, kind: str | None = None, order: Any = None, *,
            stable: bool | None = None, descending: bool = False) -> DArray:
    """int64 indices that sort ``a`` along ``axis`` (stable, ties in input order; ordering as in
    :func:`sort`, descending included). See also: numpy.argsort."""
    return _sorted("argsort", a, axis, kind, order, descending, True)
