"""Random family (issues 14, 27): darray.random's Philox kernels against NumPy's generator.

Figures, from one run: ``rng.random(16M, float32)`` as written-bytes bandwidth (device time)
against the device's copy bandwidth (target >= 0.5) and as speed vs
``numpy.random.default_rng().random(dtype=float32)`` (target >= 2); ``standard_normal`` of 16M
float32 vs NumPy's ``standard_normal(dtype=float32)`` (target >= 3); the samplers
``standard_gamma(2.0)``, ``poisson(10)`` and ``binomial(20, 0.3)`` of 16M vs NumPy's (target >= 2). --quick: 1M.
Beside the bandwidth ratio, the generator's compute limit on the device: the same Philox blocks
with the words XORed into one per work-item instead of stored (no memory traffic).
"""
from __future__ import annotations

import numpy as np

import darray as da
from darray.lazy import execute
from darray.ops._kernel import run as run_kernel
from darray.ops._kernel import source
from darray.place import runtime
from darray.random._philox import PER_GROUP, options

from .harness import Run, case, compare, device_seconds
from .memory import device_copy_bandwidth

# Philox4x32-10 with nothing stored: uses the macros of kernels/philox.cl (LOOP, GROUP).
RATE_SOURCE = """
__kernel void bench_philox_rate(__global uint *out, long size, uint k0, uint k1, ulong base, long n, long ch) {
    uint8 acc = (uint8)(0);
    LOOP { GROUP(g) acc ^= w0 ^ w1 ^ w2 ^ w3; }
    out[get_global_id(0)] = acc.s0 ^ acc.s1 ^ acc.s2 ^ acc.s3 ^ acc.s4 ^ acc.s5 ^ acc.s6 ^ acc.s7;
}
"""


def philox_rate(run: Run, n: int) -> float:
    """Bytes/s of float32 output Philox computes on the device with nothing stored (its compute
    limit), in the work split of ``random32`` (device time, median)."""
    groups = n // PER_GROUP["random32"]
    kernel = runtime(run.place).programs.kernel(source("philox.cl") + RATE_SOURCE, "bench_philox_rate",
                                                options(run.place))
    ch = execute.CHUNK.get(execute.form(run.place), 1)
    items = -(-groups // ch)
    acc = da.empty(items, dtype=da.uint32, device=run.place)
    args = [acc._data().buffer, np.int64(n), np.uint32(1), np.uint32(2), np.uint64(0), np.int64(groups), np.int64(ch)]
    seconds = device_seconds(lambda: run_kernel("bench_philox_rate", kernel, args, items, run.place, reads=[],
                                                writes=[acc._data()]), repeat=run.pick(5, 3),
                             name="bench_philox_rate")
    return 4 * n / seconds


def _draw(run: Run, method: str, kernel: str, target: str) -> None:
    """Time ``method(n, dtype=float32)`` of darray's generator (its ``kernel``) against NumPy's."""
    n = run.pick(16 << 20, 1 << 20)
    rng, ref = da.random.default_rng(0), np.random.default_rng(0)
    fns = {"darray": lambda: getattr(rng, method)(n, dtype=np.float32, device=run.place),
           "numpy": lambda: getattr(ref, method)(n, dtype=np.float32)}
    dev = device_seconds(fns["darray"], repeat=run.pick(5, 3), name=kernel)
    t = compare(fns, repeat=run.pick(5, 3), sync=["darray"])
    gbps = 4 * n / dev / 1e9
    run.figure("written_GBps", gbps, "GB/s", label=f"{method} written bytes / device time")
    if method == "random":
        copy = device_copy_bandwidth(run)
        run.ratio("bandwidth/copy", gbps / copy, label="written / copy bandwidth", target=">= 0.5")
        run.ratio("limit/copy", philox_rate(run, n) / 1e9 / copy,
                  label="Philox compute limit (no stores) / copy bandwidth")
    run.ratio("darray/numpy", t["numpy"] / t["darray"], label="speed vs NumPy (wall, same run)", target=target)


@case("uniform_16M_float32")
def uniform(run: Run) -> None:
    """``rng.random(16M, dtype=float32)``: one Philox kernel."""
    _draw(run, "random", "random32", ">= 2")


@case("normal_16M_float32")
def normal(run: Run) -> None:
    """``rng.standard_normal(16M, dtype=float32)``: Philox and Box-Muller in one kernel."""
    _draw(run, "standard_normal", "normal32", ">= 3")


def _sampler(run: Run, method: str, params: tuple) -> None:
    """Time ``method(*params, 16M)`` of darray's generator (one launch of ``kernels/samplers.cl``) against NumPy's."""
    n = run.pick(16 << 20, 1 << 20)
    rng, ref = da.random.default_rng(0), np.random.default_rng(0)
    draw = getattr(rng, method)

    def ours() -> da.DArray:
        return draw(*params, n, device=run.place)

    fns = {"darray": ours, "numpy": lambda: getattr(ref, method)(*params, n)}
    dev = device_seconds(fns["darray"], repeat=run.pick(5, 3), name=method)
    t = compare(fns, repeat=run.pick(5, 3), sync=["darray"])
    run.figure("Msamples_per_s", n / dev / 1e6, "M/s", label=f"{method} samples / device time")
    run.ratio("darray/numpy", t["numpy"] / t["darray"], label="speed vs NumPy (wall, same run)", target=">= 2")


@case("standard_gamma_16M")
def standard_gamma(run: Run) -> None:
    """``rng.standard_gamma(2.0, 16M)`` (float64): Marsaglia-Tsang, one kernel."""
    _sampler(run, "standard_gamma", (2.0,))


@case("poisson_16M")
def poisson(run: Run) -> None:
    """``rng.poisson(10, 16M)``: PTRS, one kernel."""
    _sampler(run, "poisson", (10.0,))


@case("binomial_16M")
def binomial(run: Run) -> None:
    """``rng.binomial(20, 0.3, 16M)``: inversion, one kernel."""
    _sampler(run, "binomial", (20, 0.3))
