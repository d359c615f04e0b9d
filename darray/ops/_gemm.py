"""The two matmul engines on OpenCL places, and the choice between them.

``kernel``: the GEMM kernel of ``kernels/gemm.cl``, specialised by ``-D`` defines per dtype
and device kind (register-blocked straight from global memory on CPU devices, tiled in
local memory elsewhere), reading strided and broadcast operands in place.

``host``: on devices whose memory is host memory, the operands' bytes are mapped (zero
copy) through the scheduler and NumPy's BLAS-backed ``matmul`` writes into the mapped
output; the unmaps go through the scheduler too, so later work waits for them.

``DARRAY_MATMUL=auto|kernel|host`` (read at import into ``SETTING``, checked at each call) overrides
:func:`choose`.
"""
from __future__ import annotations

import itertools
import os
from functools import cache
from importlib import resources
from typing import cast

import numpy as np
import pyopencl as cl

from .. import dtypes as _dt
from .. import sched
from .._array import DArray
from ..dim import collapse
from ..lazy import host
from ..place import CLPlace, runtime
from ._kernel import on_host

MODES = ("auto", "kernel", "host")
HOST_MIN_MACS = 1 << 24  # auto sends products this large (256^3 multiply-adds) to host BLAS
# (LX, LY, TK): force the local-memory (GPU) variant with this work-group on any device (tests
# use it on CPU devices); None chooses by device kind.
FORCE_TILED: tuple[int, int, int] | None = None

# Unsigned storage types: unsigned arithmetic wraps exactly as NumPy's integer matmul does.
_UNSIGNED = {1: "uchar", 2: "ushort", 4: "uint", 8: "ulong"}
_L = np.dtype(np.int64)
_ARGS = [None, _L, _L, None, _L, _L, _L, None, _L, _L, _L] + [_L] * 10


SETTING: str | None = os.environ.get("DARRAY_MATMUL")  # read once: a small product's call is a few us


def mode() -> str:
    """The ``DARRAY_MATMUL`` setting (``SETTING``; ValueError for an unknown value)."""
    value = SETTING
    if value is None:
        return "auto"
    value = value.strip().lower() or "auto"
    if value not in MODES:
        raise ValueError(f"darray matmul: DARRAY_MATMUL={value!r} is not one of {', '.join(MODES)}")
    return value


def choose(place: CLPlace, dtype: np.dtype, macs: int) -> str:
    """'host' or 'kernel' for a matmul of ``macs`` multiply-adds in ``dtype`` on ``place``.

    auto: on host-memory devices, NumPy's matmul for small products (below ``HOST_MIN_MACS``: on
    the host engine, at once over settled memory; not float16, and only where the engine is on,
    ``lazy.host.usable``), and for large floating and complex ones (host BLAS) and bool (NumPy's
    bool loop stops early); the kernel for large integer products (NumPy's integer matmul is a
    plain loop, 10-25x slower than the kernel) and on other devices. So on a host-memory device a
    float product has BLAS's sums, the kernel's inside a ``da.jit`` trace (equal to rounding).
    """
    m = mode()
    if m != "auto":
        return m
    if macs < HOST_MIN_MACS and dtype.kind in "iuf" and dtype != np.float16 and host.usable(place, 0):
        return "host"  # the common small product, decided without the device's facts (usable implies them)
    if not host.on(place):
        return "kernel"
    if dtype.kind == "b":
        return "host"
    work = macs * (4 if dtype.kind == "c" else 1)
    if work >= HOST_MIN_MACS:
        return "host" if dtype.kind in "fc" else "kernel"
    # small: the host engine at once, where it is on (no maps, no launch), but float16 (the kernel
    # accumulates it in float32)
    return "host" if dtype != np.float16 and host.usable(place, 0) else "kernel"


# -- kernel path ------------------------------------------------------------------------
@cache
def _source() -> str:
    return resources.files("darray.kernels").joinpath("gemm.cl").read_text()


def _tiled(place: CLPlace) -> bool:
    return FORCE_TILED is not None or runtime(place).info.type != "CPU"


def _blocking(dtype: np.dtype, tiled: bool) -> tuple[int, int]:
    """(MR, NR) for ``dtype``: NR-wide vectors of at most 32 bytes on CPU devices (AVX2 width;
    measured best on PoCL), 4 x 4 scalars per work-item in the local-memory variant."""
    if tiled:
        return (2, 2) if dtype.itemsize >= 16 else (4, 4)
    if dtype.kind == "c":
        return 4, (8 if dtype.itemsize == 8 else 4)
    return 8, (4 if dtype.itemsize == 8 else 8)


def _group(place: CLPlace) -> tuple[int, int, int]:
    """(LX, LY, TK) of the local-memory variant, within the device's work-group limit."""
    if FORCE_TILED is not None:
        return FORCE_TILED
    return (16, 16, 16) if runtime(place).info.max_work_group_size >= 256 else (8, 8, 16)


@cache
def _options(dtype: np.dtype, tiled: bool, b_vec: bool, group: tuple[int, int, int]) -> str:
    mr, nr = _blocking(dtype, tiled)
    if dtype.kind == "c":
        real = _dt.ctype(_dt.real_dtype(dtype))
        defs = {"T": _dt.ctype(dtype), "COMPLEX": 1, "R": real, "NRW": 2 * nr}
    elif dtype.kind == "b":
        defs = {"T": "uchar", "BOOL": 1}
    elif dtype.kind in "iu":
        defs = {"T": _UNSIGNED[dtype.itemsize]}
    else:
        defs = {"T": _dt.ctype(dtype)}
    defs.update(MR=mr, NR=nr, TILED=int(tiled))
    if tiled:
        defs.update(LX=group[0], LY=group[1], TK=group[2])
    else:
        defs.update(B_VEC=int(b_vec))
    if dtype in (_dt.float64, _dt.complex128):
        defs["DARRAY_FP64"] = 1
    return " ".join(f"-D{k}={v}" for k, v in defs.items())


_kernels: dict[tuple[CLPlace, str], cl.Kernel] = {}


def _kernel(place: CLPlace, options: str) -> cl.Kernel:
    k = _kernels.get((place, options))
    if k is None:
        k = runtime(place).programs.kernel(_source(), "gemm", options)
        k.set_scalar_arg_dtypes(_ARGS)
        _kernels[(place, options)] = k
    return k


def run_kernel(a: DArray, b: DArray, out: DArray) -> None:
    """``out[...] = a @ b`` with the GEMM kernel. ``a`` is ``(..., M, K)`` and ``b`` ``(..., K, N)``
    (any views; their batch dims broadcast to ``out``'s), ``out`` a fresh contiguous
    ``batch + (M, N)`` array; all of ``out``'s dtype, M, N, K > 0."""
    place = cast(CLPlace, out.place)  # the kernel path of an OpenCL matmul
    dtype = out.dtype
    *batch, m, n = out.shape
    k = a.shape[-1]
    tiled = _tiled(place)
    mr, nr = _blocking(dtype, tiled)
    if not tiled and b._dim.strides[-1] != 1 and m > 2 * mr and n >= nr:
        b = b.astype(dtype, copy=True)  # gathering B's columns costs more than a contiguous copy
    ad = a._dim.broadcast_to((*batch, m, k))
    bd = b._dim.broadcast_to((*batch, k, n))
    cd = out._dim
    b_vec = bd.strides[-1] == 1 or n < nr
    group = _group(place)
    kern = _kernel(place, _options(dtype, tiled, b_vec, group))
    if tiled:
        lx, ly = group[0], group[1]
    else:  # the direct variant works with any work-group: one per tile for small products (PoCL
        # compiles a work-group function per size, so only two sizes are used)
        lx, ly = (4, 16) if -(-m // mr) * -(-n // nr) >= 16 else (1, 1)
    gx = -(-n // (lx * nr)) * lx
    gy = -(-m // (ly * mr)) * ly
    nb = len(batch)
    bshape, bstrides = collapse(tuple(batch), ad.strides[:nb], bd.strides[:nb], cd.strides[:nb])
    pad = max(0, 2 - len(bshape))  # the kernel takes two batch dims; more are looped over here
    bshape = (1,) * pad + bshape
    abs_, bbs, cbs = ((0,) * pad + s for s in bstrides)
    outer = bshape[:-2]
    nb0, nb1 = bshape[-2:]
    aa, ba, ca = a._data(), b._data(), out._data()
    fixed = [m, n, k, nb1, cbs[-2], cbs[-1], abs_[-2], abs_[-1], bbs[-2], bbs[-1]]
    nbytes = (a.size + b.size + out.size) * dtype.itemsize
    for idx in itertools.product(*(range(s) for s in outer)):
        ao = ad.offset + sum(i * s for i, s in zip(idx, abs_))
        bo = bd.offset + sum(i * s for i, s in zip(idx, bbs))
        co = cd.offset + sum(i * s for i, s in zip(idx, cbs))
        args = [ca.buffer, ca.offset // dtype.itemsize + co, n,
                aa.buffer, aa.offset // dtype.itemsize + ao, ad.strides[-2], ad.strides[-1],
                ba.buffer, ba.offset // dtype.itemsize + bo, bd.strides[-2], bd.strides[-1], *fixed]
        sched.launch_kernel("gemm", kern, args, (gx, gy, nb0 * nb1), (lx, ly, 1), place=place, reads=[aa, ba],
                            writes=[ca], nbytes=nbytes, dtypes=_ARGS)


# -- host path ------------------------------------------------------------------------------
def run_host(a: DArray, b: DArray, out: DArray) -> None:
    """``out[...] = a @ b`` through NumPy on the host engine (any dtypes; NumPy casts).
    ``a``/``b`` may broadcast against each other as in ``numpy.matmul``; ``out`` is fresh and
    contiguous, and no operand is empty."""
    def matmul(av: np.ndarray, bv: np.ndarray, ov: np.ndarray) -> None:
        with np.errstate(all="ignore"):
            np.matmul(av, bv, out=ov)

    on_host("matmul", [a, b], [out], matmul)
