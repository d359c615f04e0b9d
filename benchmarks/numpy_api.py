"""NumPy's namespace on the device (issue 26): statistics, counting, scans, einsum and unique
against NumPy on the same machine.

Figures to reach on the CPU device, from one run:
- ``median`` and ``percentile`` of 16M float32: >= 1x NumPy;
- ``histogram`` (100 bins) and ``bincount`` of 16M: >= 2x NumPy;
- ``cumsum`` of 16M float32: >= 2x NumPy;
- ``einsum("ij,jk->ik")`` of 1024^2 float32: >= 0.8x darray's ``matmul``;
- ``einsum("bij,bjk->bik")`` (64 x 128^2 float32): >= 1x NumPy's ``matmul``;
- ``unique`` of 4M int32: >= 1x NumPy.
"""
from __future__ import annotations

import numpy as np

import darray as da

from .harness import Run, case, compare, versus


def _floats(run: Run, n: int) -> tuple[np.ndarray, da.DArray]:
    host = np.random.default_rng(1).standard_normal(run.pick(n, n >> 4), dtype=np.float32)
    return host, da.asarray(host, device=run.place)


@case("median_16M", family="numpy")
def median(run: Run) -> None:
    """``da.median`` of 16M float32 against ``np.median``."""
    host, x = _floats(run, 16 << 20)
    versus(run, "median", lambda: da.median(x), lambda: np.median(host), ">= 1", "median of 16M float32")


@case("percentile_16M", family="numpy")
def percentile(run: Run) -> None:
    """``da.percentile`` (5, 50, 95) of 16M float32 against ``np.percentile``."""
    host, x = _floats(run, 16 << 20)
    versus(run, "percentile", lambda: da.percentile(x, [5, 50, 95]), lambda: np.percentile(host, [5, 50, 95]),
           ">= 1", "percentile of 16M float32")


@case("histogram_16M", family="numpy")
def histogram(run: Run) -> None:
    """``da.histogram`` with 100 bins of 16M float32 against ``np.histogram``."""
    host, x = _floats(run, 16 << 20)
    versus(run, "histogram", lambda: da.histogram(x, bins=100, range=(-4, 4))[0],
           lambda: np.histogram(host, bins=100, range=(-4, 4)), ">= 2", "histogram (100 bins) of 16M float32")


@case("bincount_16M", family="numpy")
def bincount(run: Run) -> None:
    """``da.bincount`` of 16M int32 in [0, 1000) against ``np.bincount``."""
    host = np.random.default_rng(2).integers(0, 1000, run.pick(16 << 20, 1 << 20)).astype(np.int32)
    x = da.asarray(host, device=run.place)
    versus(run, "bincount", lambda: da.bincount(x), lambda: np.bincount(host), ">= 2", "bincount of 16M int32")


@case("cumsum_16M", family="numpy")
def cumsum(run: Run) -> None:
    """``da.cumsum`` of 16M float32 against ``np.cumsum``."""
    host, x = _floats(run, 16 << 20)
    versus(run, "cumsum", lambda: da.cumsum(x), lambda: np.cumsum(host), ">= 2", "cumsum of 16M float32")


@case("einsum_matmul_1024", family="numpy")
def einsum_matmul(run: Run) -> None:
    """``da.einsum("ij,jk->ik")`` of 1024^2 float32 against darray's own ``matmul`` (same run)."""
    n = run.pick(1024, 256)
    a, b = (da.asarray(np.random.default_rng(k).standard_normal((n, n), dtype=np.float32), device=run.place)
            for k in (3, 4))
    t = compare({"einsum": lambda: da.einsum("ij,jk->ik", a, b).eval(), "matmul": lambda: (a @ b).eval()},
                repeat=run.pick(5, 3), sync=["einsum", "matmul"])
    run.ratio("einsum/matmul", t["matmul"] / t["einsum"], label=f"einsum ij,jk->ik vs matmul, {n}^2 float32",
              target=">= 0.8")


@case("einsum_batched", family="numpy")
def einsum_batched(run: Run) -> None:
    """``da.einsum("bij,bjk->bik")`` of 64 x 128^2 float32 against NumPy's ``matmul``."""
    shape = run.pick((64, 128, 128), (8, 64, 64))
    ha, hb = (np.random.default_rng(k).standard_normal(shape, dtype=np.float32) for k in (5, 6))
    a, b = da.asarray(ha, device=run.place), da.asarray(hb, device=run.place)
    versus(run, "einsum_batched", lambda: da.einsum("bij,bjk->bik", a, b), lambda: np.matmul(ha, hb), ">= 1",
           "einsum bij,bjk->bik (64 x 128^2 float32) vs NumPy's matmul")


@case("unique_4M", family="numpy")
def unique(run: Run) -> None:
    """``da.unique`` of 4M int32 drawn from 100000 values against ``np.unique``."""
    host = np.random.default_rng(7).integers(0, 100000, run.pick(4 << 20, 1 << 20)).astype(np.int32)
    x = da.asarray(host, device=run.place)
    versus(run, "unique", lambda: da.unique(x), lambda: np.unique(host), ">= 1", "unique of 4M int32")
