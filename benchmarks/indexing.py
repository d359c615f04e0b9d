"""Indexing family (issue 13): boolean-mask selection and integer-array gathers.

Figures, from one run: ``x[mask]`` of 16M float32 with half the mask set and ``x[idx]`` with
16M random int64 indices, each as speed vs NumPy (wall time, in turns; darray's includes the
count read back and the bounds flag). Targets: >= 1x NumPy for both. --quick: 1M.
"""
from __future__ import annotations

import numpy as np

import darray as da

from .harness import Run, case, compare


@case("mask_select_16M")
def mask_select(run: Run) -> None:
    """``x[mask]``, float32, half the mask set."""
    n = run.pick(16 << 20, 1 << 20)
    rng = np.random.default_rng(0)
    hx, hm = rng.standard_normal(n, dtype=np.float32), rng.random(n) < 0.5
    x, m = da.asarray(hx, device=run.place), da.asarray(hm, device=run.place)
    if not np.array_equal(x[m].get(), hx[hm]):
        raise AssertionError("darray x[mask] returned wrong values")
    t = compare({"darray": lambda: x[m], "numpy": lambda: hx[hm]}, repeat=run.pick(5, 3), sync=["darray"])
    run.figure("darray_ms", t["darray"] * 1e3, "ms", label="darray x[mask] (wall)")
    run.ratio("darray/numpy", t["numpy"] / t["darray"], label="speed vs NumPy (wall, same run)", target=">= 1")


@case("gather_16M")
def gather(run: Run) -> None:
    """``x[idx]``, float32, random int64 indices over the whole array."""
    n = run.pick(16 << 20, 1 << 20)
    rng = np.random.default_rng(0)
    hx, hi = rng.standard_normal(n, dtype=np.float32), rng.integers(0, n, n)
    x, i = da.asarray(hx, device=run.place), da.asarray(hi, device=run.place)
    if not np.array_equal(x[i].get(), hx[hi]):
        raise AssertionError("darray x[idx] returned wrong values")
    t = compare({"darray": lambda: x[i], "numpy": lambda: hx[hi]}, repeat=run.pick(5, 3), sync=["darray"])
    run.figure("darray_ms", t["darray"] * 1e3, "ms", label="darray x[idx] (wall)")
    run.ratio("darray/numpy", t["numpy"] / t["darray"], label="speed vs NumPy (wall, same run)", target=">= 1")
