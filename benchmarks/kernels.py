"""User kernels (issue 30): ``da.ElementwiseKernel`` fused into a chain, ``da.ReductionKernel``.

Figures to reach (16M float32):
- ``elementwise_chain_16M``: ``k(a + b, c) * 2`` with ``k`` a user kernel ``z = x * y + 1``: one
  launch, >= 0.9x the copy bandwidth (3 arrays read, 1 written);
- ``reduction_sumsq_16M``: a user ``ReductionKernel`` sum of squares: >= 0.8x the copy bandwidth
  (one array read), one launch.
"""
from __future__ import annotations

import numpy as np

import darray as da

from .harness import Run, case, device_seconds
from .memory import device_copy_bandwidth

_FMA1 = da.ElementwiseKernel("T x, T y", "T z", "z = x * y + 1", "bench_fma1")
_SUMSQ = da.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "bench_sumsq")


def _inputs(run: Run, count: int, n: int) -> tuple[list[np.ndarray], list[da.DArray]]:
    rng = np.random.default_rng(0)
    hosts = [rng.standard_normal(n, dtype=np.float32) for _ in range(count)]
    return hosts, [da.asarray(h, device=run.place) for h in hosts]


def _launches(p: da.sched.Profiler) -> int:
    return len([r for r in p.launches if r.name not in ("device_to_host", "reduce_scratch")])


@case("elementwise_chain_16M", family="kernels")
def elementwise_chain(run: Run) -> None:
    """``k(a + b, c) * 2`` on 16M float32 (``k``: ``z = x * y + 1``): one fused launch."""
    n = run.pick(16 << 20, 2 << 20)
    (ha, hb, hc), (a, b, c) = _inputs(run, 3, n)
    got = (_FMA1(a + b, c) * 2).get()
    if not np.allclose(got, ((ha + hb) * hc + 1) * 2, rtol=1e-5, atol=1e-5):
        raise AssertionError("user kernel chain: darray's result differs from NumPy's")
    with da.profile() as p:
        (_FMA1(a + b, c) * 2).eval()
        da.synchronize()
    run.figure("launches", _launches(p), "", label="launches for the chain with a user kernel", target="<= 1")
    dev = device_seconds(lambda: (_FMA1(a + b, c) * 2).eval(), repeat=run.pick(5, 3))
    run.ratio("bandwidth/copy", 4 * n * 4 / dev / 1e9 / device_copy_bandwidth(run),
              label="user kernel in a 3-op chain: bandwidth / copy", target=">= 0.9")


@case("reduction_sumsq_16M", family="kernels")
def reduction_sumsq(run: Run) -> None:
    """A user ReductionKernel sum of squares of 16M float32: one launch."""
    n = run.pick(16 << 20, 2 << 20)
    (hx,), (x,) = _inputs(run, 1, n)
    want = float((hx.astype(np.float64) ** 2).sum())
    if abs(float(_SUMSQ(x)) - want) > 1e-4 * want:
        raise AssertionError("user sum of squares: darray's result differs from NumPy's")
    with da.profile() as p:
        _SUMSQ(x).eval()
        da.synchronize()
    run.figure("launches", _launches(p), "", label="launches for the user reduction", target="<= 1")
    dev = device_seconds(lambda: _SUMSQ(x).eval(), repeat=run.pick(5, 3))
    run.ratio("bandwidth/copy", n * 4 / dev / 1e9 / device_copy_bandwidth(run),
              label="user sum of squares: bandwidth / copy", target=">= 0.8")
