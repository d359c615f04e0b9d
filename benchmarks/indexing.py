"""Indexing family (issue 13): boolean-mask selection and integer-array gathers.

Figures, from one run: ``x[mask]`` of 16M float32 with half the mask set and ``x[idx]`` with
16M random int64 indices, each as speed vs NumPy (wall time, in turns; darray's includes the
count read back and the bounds flag). Targets: >= 1x NumPy for both. --quick: 1M.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

import darray as da

from .harness import Run, case, compare


def _select(run: Run, what: str, key: Callable[[np.random.Generator, int], np.ndarray]) -> None:
    """Time ``x[k]`` against NumPy for the key ``key(rng, n)`` over n float32."""
    n = run.pick(16 << 20, 1 << 20)
    rng = np.random.default_rng(0)
    hx = rng.standard_normal(n, dtype=np.float32)
    hk = key(rng, n)
    x, k = da.asarray(hx, device=run.place), da.asarray(hk, device=run.place)
    if not np.array_equal(x[k].get(), hx[hk]):
        raise AssertionError(f"darray {what} returned wrong values")
    t = compare({"darray": lambda: x[k], "numpy": lambda: hx[hk]}, repeat=run.pick(5, 3), sync=["darray"])
    run.figure("darray_ms", t["darray"] * 1e3, "ms", label=f"darray {what} (wall)")
    run.ratio("darray/numpy", t["numpy"] / t["darray"], label="speed vs NumPy (wall, same run)", target=">= 1")


@case("mask_select_16M")
def mask_select(run: Run) -> None:
    """``x[mask]``, float32, half the mask set."""
    _select(run, "x[mask]", lambda rng, n: rng.random(n) < 0.5)


@case("gather_16M")
def gather(run: Run) -> None:
    """``x[idx]``, float32, random int64 indices over the whole array."""
    _select(run, "x[idx]", lambda rng, n: rng.integers(0, n, n))
