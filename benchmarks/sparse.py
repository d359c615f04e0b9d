"""Sparse family (issue 16): darray.sparse against scipy.sparse, same run.

Figures, on a random 1M x 1M float32 matrix with 10M nonzeros (--quick: 100K rows, 1M):
- CSR SpMV: speed vs ``scipy.sparse`` (it runs on one core), target >= 1.5;
- SpMM with 16 dense columns: reported vs scipy;
- COO -> CSR (unsorted triplets with duplicates, summed): vs scipy's ``tocsr()``, target >= 1;
- CG on the 2-D Poisson matrix of a 1000 x 1000 grid (--quick: 200 x 200), 100 iterations:
  reported vs ``scipy.sparse.linalg.cg``.
Speeds are wall-clock ratios with darray's results on the device (synchronized).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

import darray as da

from .harness import Run, case, compare, device_seconds


def _scipy(run: Run) -> Any:
    """scipy.sparse (with its linalg), or the case is skipped."""
    try:
        import scipy.sparse
        import scipy.sparse.linalg  # noqa: F401
    except ImportError:
        run.skip("needs scipy (pip install scipy)")
    return scipy.sparse


@lru_cache(maxsize=2)
def _triplets(rows: int, nnz: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return (rng.integers(0, rows, nnz).astype(np.int32), rng.integers(0, rows, nnz).astype(np.int32),
            rng.random(nnz, dtype=np.float32))


def _matrix(run: Run) -> tuple[Any, da.sparse.csr_matrix]:
    sp = _scipy(run)
    rows = run.pick(1_000_000, 100_000)
    row, col, val = _triplets(rows, 10 * rows)
    host = sp.csr_matrix((val, (row, col)), shape=(rows, rows))
    return host, da.sparse.csr_matrix(host, device=run.place)


def _versus(run: Run, what: str, mine, theirs, target: str | None, name: str | None = None) -> None:
    dev = device_seconds(mine, repeat=run.pick(5, 3), name=name)
    run.figure("device_ms", dev * 1e3, "ms", label=f"{what} (device time)")
    t = compare({"darray": mine, "scipy": theirs}, repeat=run.pick(5, 3), sync=["darray"])
    run.ratio("darray/scipy", t["scipy"] / t["darray"], label=f"{what}: speed vs scipy (wall, same run)",
              target=target)


@case("spmv_1M_10M_float32")
def spmv(run: Run) -> None:
    """CSR ``A @ x``, 1M rows, 10M nonzeros, float32, against scipy."""
    host, a = _matrix(run)
    x = np.random.default_rng(1).random(host.shape[1], dtype=np.float32)
    xd = da.asarray(x, device=run.place)
    _versus(run, "SpMV", lambda: a @ xd, lambda: host @ x, ">= 1.5", name="spmv")
    gflops = 2 * host.nnz / device_seconds(lambda: a @ xd, repeat=run.pick(5, 3), name="spmv") / 1e9
    run.figure("gflops", gflops, "GFLOP/s", label="SpMV flops / device time")


@case("spmm_16_columns")
def spmm(run: Run) -> None:
    """CSR ``A @ X`` with X of 16 columns (float32), against scipy."""
    host, a = _matrix(run)
    x = np.random.default_rng(2).random((host.shape[1], 16), dtype=np.float32)
    xd = da.asarray(x, device=run.place)
    _versus(run, "SpMM, 16 columns", lambda: a @ xd, lambda: host @ x, None, name="spmv")


@case("coo_to_csr")
def coo_to_csr(run: Run) -> None:
    """COO -> CSR of unsorted triplets (duplicates summed) against scipy's ``tocsr()``."""
    sp = _scipy(run)
    rows = run.pick(1_000_000, 100_000)
    row, col, val = _triplets(rows, 10 * rows)
    host = sp.coo_matrix((val, (row, col)), shape=(rows, rows))
    a = da.sparse.coo_matrix((da.asarray(val, device=run.place), (da.asarray(row, device=run.place),
                              da.asarray(col, device=run.place))), shape=(rows, rows))
    _versus(run, "COO -> CSR", lambda: a.tocsr().indptr, lambda: host.tocsr(), ">= 1")


def _poisson(sp: Any, k: int) -> Any:
    t = sp.diags_array([-np.ones(k - 1), 2 * np.ones(k), -np.ones(k - 1)], offsets=[-1, 0, 1], dtype=np.float32)
    eye = sp.eye_array(k, dtype=np.float32)
    return sp.csr_matrix(sp.kron(eye, t) + sp.kron(t, eye))


@case("cg_poisson_100_iterations")
def cg(run: Run) -> None:
    """100 CG iterations on the 2-D Poisson matrix of a 1000 x 1000 grid (float32) against scipy's cg."""
    sp = _scipy(run)
    host = _poisson(sp, run.pick(1000, 200))
    b = np.ones(host.shape[0], np.float32)
    a, bd = da.sparse.csr_matrix(host, device=run.place), da.asarray(b, device=run.place)
    t = compare({"darray": lambda: da.sparse.linalg.cg(a, bd, tol=1e-30, maxiter=100)[0],
                 "scipy": lambda: sp.linalg.cg(host, b, rtol=1e-30, maxiter=100)},
                repeat=run.pick(3, 2), sync=["darray"])
    run.figure("darray_ms", t["darray"] * 1e3, "ms", label="100 CG iterations, darray (wall)")
    run.ratio("darray/scipy", t["scipy"] / t["darray"], label="CG: speed vs scipy (wall, same run)")
