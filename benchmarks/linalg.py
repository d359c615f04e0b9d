"""Linear-algebra family: matmul 1024 x 1024 float32 on both OpenCL paths.

Figures to reach (issue 4), from one run:
- the auto path at least 0.8x NumPy's speed on CPU devices (NumPy time / darray time, timed
  in turns; on a CPU device auto is host BLAS on the mapped buffers);
- the kernel path (``DARRAY_MATMUL=kernel``) at least 10 GFLOP/s on PoCL and 40 GFLOP/s on
  Intel's CPU runtime (device time from OpenCL profiling).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import darray as da
from darray.ops import _gemm
from darray.place import runtime

from .harness import Run, case, compare, device_seconds


def _with_mode(mode: str, fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn`` run with the matmul setting ``mode`` (``_gemm.SETTING``, ``DARRAY_MATMUL`` as read at import;
    the previous setting restored after)."""
    def run() -> Any:
        old, _gemm.SETTING = _gemm.SETTING, mode
        try:
            return fn()
        finally:
            _gemm.SETTING = old
    return run


@case("matmul_f32")
def matmul_f32(run: Run) -> None:
    """``a @ b`` for n x n float32 (n = 1024, 512 with --quick): auto vs NumPy, kernel GFLOP/s."""
    place = run.place
    n = run.pick(1024, 512)
    rng = np.random.default_rng(0)
    a_host = rng.standard_normal((n, n), dtype=np.float32)
    b_host = rng.standard_normal((n, n), dtype=np.float32)
    a, b = da.asarray(a_host, device=place), da.asarray(b_host, device=place)
    flops = 2.0 * n ** 3
    info = runtime(place).info

    auto = _with_mode("auto", lambda: (a @ b).eval())
    kernel = _with_mode("kernel", lambda: (a @ b).eval())
    want = a_host @ b_host
    for fn in (auto, kernel):  # warm-up and a correctness check of both paths
        got = fn().get()
        if not np.allclose(got, want, rtol=1e-3, atol=1e-3 * np.sqrt(n)):
            raise AssertionError("matmul result differs from NumPy's")

    times = compare({"numpy": lambda: a_host @ b_host, "auto": auto}, repeat=run.pick(7, 3), sync=["auto"])
    run.figure("numpy_GFLOPs", flops / times["numpy"] / 1e9, "GFLOP/s", label=f"NumPy matmul {n} float32")
    run.figure("auto_GFLOPs", flops / times["auto"] / 1e9, "GFLOP/s",
               label=f"darray auto path ({_gemm.choose(place, np.dtype(np.float32), n ** 3)})")
    host_like = _gemm.host.on(place)  # (the host engine takes products here: BLAS is the bar)
    run.ratio("auto_vs_numpy", times["numpy"] / times["auto"], label="auto speed / NumPy speed",
              target=">= 0.8" if host_like else None)

    seconds = device_seconds(kernel, repeat=run.pick(5, 3), name="gemm")
    target = ">= 40" if "Intel" in info.platform else ">= 10" if "Portable" in info.platform else None
    run.figure("kernel_GFLOPs", flops / seconds / 1e9, "GFLOP/s", label="GEMM kernel (device time)", target=target)
    if not host_like:
        run.note(f"{info.name}: memory is not host memory, so auto uses the kernel; no ratio target")
