"""Manipulation family (issue 13): joins and transposes as strided copies.

Figures, from one run: ``concat`` of two 4096 x 2048 float32 along axis 1 (two strided copies
into halves of the rows) and a transposed copy of 4096 x 4096 float32 (a strided read), each
as effective bandwidth (bytes read + written, device time) over the copy bandwidth, and as
speed vs NumPy (wall time, in turns). Target: >= 0.7x the copy bandwidth. --quick quarters
both sides. ``astype`` of 16M float32 to float16 and int32 likewise (target >= 0.9x copy).
Beside the transpose, the best of a sweep of raw pyopencl transpose kernels (8 x 8 float8
blocks in tiles of several shapes; device time) over the copy bandwidth: what a hand-written
transpose reaches on the device.
"""
from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

import numpy as np
import pyopencl as cl

import darray as da
from darray.place import runtime

from .harness import Run, case, compare, device_seconds
from .memory import device_copy_bandwidth

# out[i][j] = in[j][i] for n x n float32 (n a multiple of the tile): work-item t writes a TR x TC
# tile of out in 8 x 8 blocks (8 columns of in loaded as float8, turned into 8 rows of out).
RAW_TRANSPOSE = """
#define LD(j) const float8 k##j = vload8(0, in + (jb + j) * n + ib);
#define ROW(i) vstore8((float8)(k0.s##i, k1.s##i, k2.s##i, k3.s##i, k4.s##i, k5.s##i, k6.s##i, k7.s##i), \\
                       0, out + (ib + i) * n + jb);
__kernel void bench_transpose(__global const float *in, __global float *out, const long n) {
    const long t = get_global_id(0), cb = (t % (n / TC)) * TC, rb = (t / (n / TC)) * TR;
    for (long jb = cb; jb < cb + TC; jb += 8)
        for (long ib = rb; ib < rb + TR; ib += 8) {
            LD(0) LD(1) LD(2) LD(3) LD(4) LD(5) LD(6) LD(7)
            ROW(0) ROW(1) ROW(2) ROW(3) ROW(4) ROW(5) ROW(6) ROW(7)
        }
}
"""
TILES = ((16, 256), (256, 16), (64, 64), (32, 32), (256, 32))  # (TR, TC) swept by raw_transpose_bandwidth


def raw_transpose_bandwidth(run: Run, hx: np.ndarray) -> float:
    """GB/s (read + written, median device time) of the best RAW_TRANSPOSE tile shape on ``hx``."""
    rt, n = runtime(run.place), hx.shape[0]
    queue, mf = rt.new_queue(), cl.mem_flags
    src = cl.Buffer(rt.context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=hx)
    dst = cl.Buffer(rt.context, mf.READ_WRITE, hx.nbytes)
    best = 0.0
    try:
        for rows, cols in TILES:
            kernel = cl.Kernel(cl.Program(rt.context, RAW_TRANSPOSE).build(f"-D TR={rows} -D TC={cols}"),
                               "bench_transpose")
            kernel.set_args(src, dst, np.int64(n))
            cl.enqueue_fill_buffer(queue, dst, np.zeros(1, np.float32), 0, hx.nbytes)
            seconds = []
            for _ in range(run.pick(5, 3) + 1):
                ev = cl.enqueue_nd_range_kernel(queue, kernel, ((n // rows) * (n // cols),), (1,))
                ev.wait()
                seconds.append((ev.profile.end - ev.profile.start) * 1e-9)
            out = np.empty_like(hx)
            cl.enqueue_copy(queue, out, dst).wait()
            if not np.array_equal(out, hx.T):  # every tile shape that counts is checked
                raise AssertionError(f"raw transpose kernel ({rows} x {cols} tiles) returned wrong values")
            best = max(best, 2 * hx.nbytes / statistics.median(seconds[1:]) / 1e9)
    finally:
        src.release()
        dst.release()
    return best


def _report(run: Run, key: str, fns: dict[str, Callable[[], Any]], nbytes: int, target: str = ">= 0.7",
            prefix: str = "") -> None:
    """Effective bandwidth of ``fns["darray"]`` (``nbytes`` moved; device time) over the copy
    bandwidth, and speed vs ``fns["numpy"]``; ``prefix`` tells several reports of one case apart."""
    dev = device_seconds(fns["darray"], repeat=run.pick(5, 3))
    t = compare(fns, repeat=run.pick(5, 3), sync=["darray"])
    gbps = nbytes / dev / 1e9
    run.figure(f"{key}_GBps", gbps, "GB/s", label=f"{key} effective bandwidth (device time)")
    run.ratio(f"{prefix}bandwidth/copy", gbps / device_copy_bandwidth(run),
              label=f"{prefix}effective / copy bandwidth", target=target)
    run.ratio(f"{prefix}darray/numpy", t["numpy"] / t["darray"], label=f"{prefix}speed vs NumPy (wall, same run)")


@case("concat_axis1_4096x2048")
def concat_axis1(run: Run) -> None:
    """``da.concat([a, b], axis=1)`` of two 4096 x 2048 float32 (1024 x 512 with --quick)."""
    rows, cols = run.pick((4096, 2048), (1024, 512))
    rng = np.random.default_rng(0)
    ha, hb = (rng.standard_normal((rows, cols), dtype=np.float32) for _ in range(2))
    a, b = da.asarray(ha, device=run.place), da.asarray(hb, device=run.place)
    if not np.array_equal(da.concat([a, b], axis=1).get(), np.concatenate([ha, hb], axis=1)):
        raise AssertionError("darray concat returned wrong values")
    _report(run, "concat", {"darray": lambda: da.concat([a, b], axis=1),
                            "numpy": lambda: np.concatenate([ha, hb], axis=1)}, 4 * rows * cols * 4)


@case("transpose_copy_4096")
def transpose_copy(run: Run) -> None:
    """``da.transpose(x).copy()`` of 4096 x 4096 float32 (1024 x 1024 with --quick)."""
    n = run.pick(4096, 1024)
    hx = np.random.default_rng(0).standard_normal((n, n), dtype=np.float32)
    x = da.asarray(hx, device=run.place)
    if not np.array_equal(da.transpose(x).copy().get(), hx.T):
        raise AssertionError("darray transpose copy returned wrong values")
    _report(run, "transpose", {"darray": lambda: da.transpose(x).copy(),
                               "numpy": lambda: np.ascontiguousarray(hx.T)}, 2 * n * n * 4)
    raw = raw_transpose_bandwidth(run, hx)
    run.ratio("raw_transpose/copy", raw / device_copy_bandwidth(run),
              label="best raw transpose kernel / copy bandwidth")
    run.ratio("darray/raw_transpose", run.result.figures["transpose_GBps"] / raw,
              label="darray / best raw transpose kernel (bandwidth)")


@case("astype_16M")
def astype_16m(run: Run) -> None:
    """``x.astype`` of 16M float32 (4M with --quick) to float16 (where the device has it) and int32:
    a contiguous cast, read in one dtype and written in the other. Target (issue 29): >= 0.9x copy."""
    n = run.pick(1 << 24, 1 << 22)
    hx = (np.random.default_rng(0).standard_normal(n, dtype=np.float32) * 1000).astype(np.float32)
    x = da.asarray(hx, device=run.place)
    for dt in (np.float16, np.int32):
        if dt == np.float16 and not runtime(run.place).info.fp16:
            continue
        if not np.array_equal(x.astype(dt).get(), hx.astype(dt)):
            raise AssertionError(f"darray astype({np.dtype(dt).name}) returned wrong values")
        _report(run, f"astype_{np.dtype(dt).name}", {"darray": lambda dt=dt: x.astype(dt),
                                                     "numpy": lambda dt=dt: hx.astype(dt)},
                n * (4 + np.dtype(dt).itemsize), target=">= 0.9", prefix=f"{np.dtype(dt).name}: ")
