"""Sparse CG on darray: a 2-D Poisson problem assembled from (row, col, value) arrays on the device,
solved with darray.sparse.linalg.cg and checked against scipy.sparse.linalg.cg; then PageRank
by power iteration on a random graph, checked against the same iteration in scipy.

    python examples/sparse_cg.py [--small] [--device PLACE]
"""
from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from _cli import run  # examples/_cli.py

import darray as da


def poisson(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, cols, values) of the five-point Laplacian on an n x n grid (Dirichlet edges)."""
    idx = np.arange(n * n).reshape(n, n)
    rows, cols, vals = [idx.ravel()], [idx.ravel()], [np.full(n * n, 4.0)]
    for a, b in ((idx[1:], idx[:-1]), (idx[:-1], idx[1:]), (idx[:, 1:], idx[:, :-1]), (idx[:, :-1], idx[:, 1:])):
        rows.append(a.ravel()), cols.append(b.ravel()), vals.append(np.full(a.size, -1.0))
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals).astype(np.float32)


def main(small: bool = False, device: str | None = None) -> float:
    n = 32 if small else 300
    rows, cols, vals = poisson(n)
    b = np.ones(n * n, np.float32)
    A = da.sparse.coo_matrix((da.asarray(vals, device=device), (da.asarray(rows, device=device),
                              da.asarray(cols, device=device))), shape=(n * n, n * n)).tocsr()
    t0 = time.perf_counter()
    x, info = da.sparse.linalg.cg(A, da.asarray(b, device=device), rtol=1e-5, maxiter=2000)
    got = x.get()
    seconds = time.perf_counter() - t0
    ref = sp.coo_matrix((vals, (rows, cols)), shape=(n * n, n * n)).tocsr()
    t0 = time.perf_counter()
    want, ref_info = spla.cg(ref, b, rtol=1e-5, maxiter=2000)
    scipy_seconds = time.perf_counter() - t0
    exact = ref.astype(np.float64)
    residual, ref_residual = (float(np.linalg.norm(exact @ v - b) / np.linalg.norm(b)) for v in (got, want))
    err = float(np.abs(got - want).max() / np.abs(want).max())
    # float32 CG stops on its recurrence's residual; the true one is scipy's within rounding
    assert info == 0 and ref_info == 0 and residual <= 2 * ref_residual + 1e-6 and err < 1e-3, (info, residual, err)
    # PageRank on a random graph: power iteration with the transposed link matrix
    m = 200 if small else 100_000
    rng = np.random.default_rng(0)
    src, dst = rng.integers(0, m, 8 * m), rng.integers(0, m, 8 * m)
    out_degree = np.bincount(src, minlength=m).astype(np.float32)
    weights = (1 / out_degree[src]).astype(np.float32)
    links = sp.csr_matrix((weights, (dst, src)), shape=(m, m))
    L = da.sparse.csr_matrix(links, device=device)
    r, r_ref = da.full(m, 1 / m, dtype=da.float32, device=device), np.full(m, 1 / m, np.float32)
    for _ in range(30):
        r = 0.85 * (L @ r) + 0.15 / m
        r_ref = 0.85 * (links @ r_ref) + np.float32(0.15 / m)
    rank_err = float(np.abs(r.get() - r_ref).max() / r_ref.max())
    assert rank_err < 1e-4, rank_err
    print(f"sparse_cg: CG on the {n}x{n} Poisson grid ({A.nnz} nonzeros) on {x.place}: {seconds * 1e3:.0f} ms "
          f"(scipy {scipy_seconds * 1e3:.0f} ms), relative residual {residual:.1e} (scipy {ref_residual:.1e}); "
          f"PageRank of {m} pages "
          f"agrees with scipy to {rank_err:.1e}")
    return err


if __name__ == "__main__":
    run(main, __doc__)
