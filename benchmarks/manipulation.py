"""Manipulation family (issue 13): joins and transposes as strided copies.

Figures, from one run: ``concat`` of two 4096 x 2048 float32 along axis 1 (two strided copies
into halves of the rows) and a transposed copy of 4096 x 4096 float32 (a strided read), each
as effective bandwidth (bytes read + written, device time) over the copy bandwidth, and as
speed vs NumPy (wall time, in turns). Target: >= 0.7x the copy bandwidth. --quick quarters
both sides.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

import darray as da

from .harness import Run, case, compare, device_seconds
from .memory import device_copy_bandwidth


def _report(run: Run, key: str, fns: dict[str, Callable[[], Any]], nbytes: int) -> None:
    dev = device_seconds(fns["darray"], repeat=run.pick(5, 3))
    t = compare(fns, repeat=run.pick(5, 3), sync=["darray"])
    gbps = nbytes / dev / 1e9
    run.figure(f"{key}_GBps", gbps, "GB/s", label=f"{key} effective bandwidth (device time)")
    run.ratio("bandwidth/copy", gbps / device_copy_bandwidth(run), label="effective / copy bandwidth",
              target=">= 0.7")
    run.ratio("darray/numpy", t["numpy"] / t["darray"], label="speed vs NumPy (wall, same run)")


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
