"""darray.sparse.linalg.cg against scipy.sparse.linalg.cg on 2-D Poisson matrices."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spl

import darray as da


def poisson(k: int, dtype=np.float64) -> sp.csr_matrix:
    """The 5-point Laplacian of a k x k grid (symmetric positive definite)."""
    t = sp.diags_array([-np.ones(k - 1), 2 * np.ones(k), -np.ones(k - 1)], offsets=[-1, 0, 1])
    eye = sp.eye_array(k)
    return sp.csr_matrix(sp.kron(eye, t) + sp.kron(t, eye), dtype=dtype)


@pytest.mark.parametrize("M", [None, "jacobi", "vector", "matrix", "callable"])
def test_cg_matches_scipy(any_place, M):
    S = poisson(12)
    S = S + sp.diags_array(np.linspace(0, 3, S.shape[0]))  # a diagonal that Jacobi improves on
    b = np.random.default_rng(0).standard_normal(S.shape[0])
    A = da.sparse.csr_matrix(S, device=any_place)
    inv = 1 / S.diagonal()
    pre = {"vector": da.asarray(inv, device=any_place),
           "matrix": da.sparse.csr_matrix(sp.diags_array(inv).tocsr(), device=any_place),
           "callable": lambda r: r * da.asarray(inv, device=any_place)}.get(M, M)
    x, info = da.sparse.linalg.cg(A, da.asarray(b, device=any_place), tol=1e-8, M=pre)
    want, winfo = spl.cg(S, b, rtol=1e-8, M=None if M is None else sp.diags_array(inv))
    assert info == winfo == 0
    np.testing.assert_allclose(x.get(), want, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(S @ x.get(), b, atol=1e-6)


def test_cg_float32_x0_maxiter(any_place):
    S = poisson(10, np.float32)
    b = np.ones(S.shape[0], np.float32)
    A = da.sparse.coo_matrix(S, device=any_place)
    x, info = da.sparse.linalg.cg(A, b, x0=np.zeros_like(b), tol=1e-5, M="jacobi")
    assert info == 0 and x.dtype == np.float32
    np.testing.assert_allclose(S @ x.get(), b, atol=1e-3)
    xr, _ = da.sparse.linalg.cg(A, b, x0=np.zeros_like(b), rtol=1e-5, M="jacobi")  # scipy's name for tol
    np.testing.assert_array_equal(xr.get(), x.get())
    x3, info3 = da.sparse.linalg.cg(A, b, maxiter=3)
    want, winfo = spl.cg(S.astype(np.float64), b.astype(np.float64), maxiter=3)
    assert info3 == winfo == 3
    np.testing.assert_allclose(x3.get(), want, rtol=1e-4, atol=1e-5)


def test_cg_errors(any_place):
    A = da.sparse.csr_matrix(poisson(3), device=any_place)
    with pytest.raises(ValueError, match="square"):
        da.sparse.linalg.cg(da.sparse.csr_matrix(np.ones((2, 3)), device=any_place), np.ones(2))
    with pytest.raises(ValueError, match="b has shape"):
        da.sparse.linalg.cg(A, np.ones(4))
    with pytest.raises(ValueError, match="jacobi"):
        da.sparse.linalg.cg(A, np.ones(9), M="ilu")
    with pytest.raises(ValueError, match="tol or rtol"):
        da.sparse.linalg.cg(A, np.ones(9), tol=1e-3, rtol=1e-6)
    with pytest.raises(ValueError, match="without zeros"):
        da.sparse.linalg.cg(da.sparse.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0]]), device=any_place), np.ones(2),
                            M="jacobi")
