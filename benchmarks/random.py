"""Random family (issue 14): darray.random's Philox kernels against NumPy's generator.

Figures, from one run: ``rng.random(16M, float32)`` as written-bytes bandwidth (device time)
against the device's copy bandwidth (target >= 0.5) and as speed vs
``numpy.random.default_rng().random(dtype=float32)`` (target >= 2); ``standard_normal`` of 16M
float32 vs NumPy's ``standard_normal(dtype=float32)`` (target >= 1.5). --quick: 1M.
"""
from __future__ import annotations

import numpy as np

import darray as da

from .harness import Run, case, compare, device_seconds
from .memory import device_copy_bandwidth


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
        run.ratio("bandwidth/copy", gbps / device_copy_bandwidth(run), label="written / copy bandwidth",
                  target=">= 0.5")
    run.ratio("darray/numpy", t["numpy"] / t["darray"], label="speed vs NumPy (wall, same run)", target=target)


@case("uniform_16M_float32")
def uniform(run: Run) -> None:
    """``rng.random(16M, dtype=float32)``: one Philox kernel."""
    _draw(run, "random", "random32", ">= 2")


@case("normal_16M_float32")
def normal(run: Run) -> None:
    """``rng.standard_normal(16M, dtype=float32)``: Philox and Box-Muller in one kernel."""
    _draw(run, "standard_normal", "normal32", ">= 1.5")
