"""darray.sparse (coo.py, csr.py, _base.py, _ops.py) against scipy.sparse.

Matrices are drawn small (so shapes vary while each kernel builds once per dtype) with empty
rows and columns, duplicates, unsorted triplets, nnz 0, 1xN and Nx1 shapes and int32 or
int64 index arrays; values are small integers, so sums are exact in every order. Every test
runs on the OpenCL place and on the cpu place; ``INDEX32`` lowered makes the kernels' int64
index path run on small matrices.
"""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import darray as da
from darray.sparse import _base

DTYPES = [np.float32, np.float64, np.complex64]
EXAMPLES = settings(max_examples=12, deadline=None)


@st.composite
def triplets(draw, m=None, n=None, dtypes=DTYPES):
    """(shape, data, row, col): COO triplets in any order, duplicates likely."""
    m = draw(st.integers(0, 6)) if m is None else m
    n = draw(st.integers(0, 6)) if n is None else n
    nnz = draw(st.integers(0, 14)) if m and n else 0
    idx = draw(st.sampled_from([np.int32, np.int64]))
    row = np.array(draw(st.lists(st.integers(0, m - 1), min_size=nnz, max_size=nnz)) if nnz else [], idx)
    col = np.array(draw(st.lists(st.integers(0, n - 1), min_size=nnz, max_size=nnz)) if nnz else [], idx)
    dtype = np.dtype(draw(st.sampled_from(dtypes)))
    values = np.array(draw(st.lists(st.integers(-3, 3), min_size=nnz, max_size=nnz)), np.float64)
    data = (values * (1 + 1j) if dtype.kind == "c" else values).astype(dtype)
    return (m, n), data, row, col


def pair(t, place):
    """The darray COO matrix and the scipy one of triplets ``t``."""
    shape, data, row, col = t
    return (da.sparse.coo_matrix((data, (row, col)), shape=shape, device=place),
            sp.coo_matrix((data, (row, col)), shape=shape))


def dense(x):
    return x.todense().get() if da.sparse.issparse(x) else x.get()


def same(got, want, fmt=None):
    """``got`` (darray matrix or array) has ``want``'s values, shape and dtype (and format)."""
    want_np = want.toarray() if sp.issparse(want) else np.asarray(want)
    got_np = dense(got)
    assert got_np.shape == want_np.shape, (got_np.shape, want_np.shape)
    assert got_np.dtype == want_np.dtype, (got_np.dtype, want_np.dtype)
    np.testing.assert_allclose(got_np, want_np, rtol=1e-5, atol=1e-5)
    if sp.issparse(want):
        assert got.format == (fmt or want.format)


WIDE = pytest.mark.parametrize("wide", [False, True], ids=["index32", "index64"])


@contextmanager
def indices(wide):
    """With ``wide``, INDEX32 lowered so that matrices over 2 get int64 indices (the kernels' long path)."""
    old = _base.INDEX32
    _base.INDEX32 = 2 if wide else old
    try:
        yield
    finally:
        _base.INDEX32 = old


@WIDE
@EXAMPLES
@given(t=triplets())
def test_coo_conversions(any_place, wide, t):
    with indices(wide):
        A, S = pair(t, any_place)
        assert (A.shape, A.nnz, A.dtype, A.format, A.ndim) == (S.shape, S.nnz, S.dtype, "coo", 2)
        want_idx = np.int64 if wide and max(*A.shape, A.nnz) > 2 else np.int32
        assert A.row.dtype == A.col.dtype == want_idx
        same(A, S)
        C, Sc = A.tocsr(), S.tocsr()
        assert C.format == "csr" and C.has_canonical_format
        np.testing.assert_array_equal(C.indptr.get(), Sc.indptr)
        np.testing.assert_array_equal(C.indices.get(), Sc.indices)
        np.testing.assert_array_equal(C.data.get(), Sc.data)
        back = C.tocoo()
        same(back, Sc.tocoo())
        np.testing.assert_array_equal(back.row.get(), Sc.tocoo().row)
        A.sum_duplicates()
        S.sum_duplicates()
        np.testing.assert_array_equal(A.row.get(), S.row)
        np.testing.assert_array_equal(A.col.get(), S.col)
        np.testing.assert_array_equal(A.data.get(), S.data)
        same(da.sparse.from_scipy(A.to_scipy(), device=any_place), S)
        same(da.sparse.coo_matrix(S.toarray(), device=any_place), S)
        same(da.sparse.csr_matrix(da.asarray(S.toarray(), device=any_place)), Sc)


def _unsorted_csr(t):
    """CSR arrays of triplets ``t`` whose rows keep the triplets' order (unsorted, duplicates kept)."""
    (m, n), data, row, col = t
    order = np.argsort(row, kind="stable")
    indptr = np.searchsorted(row[order], np.arange(m + 1)).astype(row.dtype)
    return (data[order], col[order], indptr), (m, n)


@WIDE
@EXAMPLES
@given(t=triplets())
def test_csr_arrays(any_place, wide, t):
    with indices(wide):
        arrays, shape = _unsorted_csr(t)
        A = da.sparse.csr_matrix(arrays, shape=shape, device=any_place)
        S = sp.csr_matrix(arrays, shape=shape)
        np.testing.assert_array_equal(A.indptr.get(), S.indptr)
        same(A, S)
        same(A.tocoo(), S.tocoo())
        np.testing.assert_array_equal(A.toarray().get(), S.toarray())
        A.sort_indices()
        S.sort_indices()
        np.testing.assert_array_equal(A.indices.get(), S.indices)
        np.testing.assert_array_equal(A.data.get(), S.data)
        A.sum_duplicates()
        S.sum_duplicates()
        np.testing.assert_array_equal(A.indptr.get(), S.indptr)
        np.testing.assert_array_equal(A.indices.get(), S.indices)
        same(da.sparse.from_scipy(S, device=any_place), S)
        back = A.to_scipy()
        assert back.format == "csr"
        np.testing.assert_array_equal(back.toarray(), S.toarray())


@WIDE
@EXAMPLES
@given(t=triplets(), k=st.sampled_from([1, 2, 17]), other=st.data())
def test_products(any_place, wide, t, k, other):
    with indices(wide):
        A, S = pair(t, any_place)
        m, n = S.shape
        rng = np.random.default_rng(k)
        x = rng.integers(-3, 4, n).astype(np.float32)
        X = rng.integers(-3, 4, (n, k)).astype(np.float64)
        for M in (A, A.tocsr()):
            same(M @ da.asarray(x, device=any_place), S @ x)
            same(M @ da.asarray(X, device=any_place), S @ X)
            same(M @ da.asarray(X.T, device=any_place).T, S @ X)  # a strided operand
        t2 = other.draw(triplets(m=n, dtypes=[np.float32, np.complex64]), label="B")
        B, Sb = pair(t2, any_place)
        same(A @ B, S @ Sb)
        same(A.tocsr() @ B.tocsr(), S.tocsr() @ Sb.tocsr())


@EXAMPLES
@given(t=triplets(), other=st.data())
def test_arithmetic(any_place, t, other):
    A, S = pair(t, any_place)
    t2 = other.draw(triplets(*S.shape), label="B")
    B, Sb = pair(t2, any_place)
    for M, Sm in ((A, S), (A.tocsr(), S.tocsr())):
        same(M + B, Sm + Sb)
        same(M - B.tocsr(), Sm - Sb.tocsr())
        same(M * 2.5, Sm * 2.5)
        same(3 * M, 3 * Sm)
        same(M / 2, (Sm / 2).astype(M.dtype))  # scipy divides float32 in float64
        same(-M, -Sm)
        same(abs(M), abs(Sm))
        same(M.power(2), Sm.power(2))
        same(M.conj(), Sm.conj())
        same(M.astype(np.complex128), Sm.astype(np.complex128))
        same(M.multiply(B), Sm.multiply(Sb))
        same(M.multiply(2), Sm.multiply(2))
        full = np.arange(S.shape[0] * S.shape[1], dtype=np.float32).reshape(S.shape)
        same(M.multiply(da.asarray(full, device=any_place)), Sm.multiply(full), fmt="coo")  # scipy: csr for 1x1
        same(M.multiply(da.asarray(full[:1], device=any_place)), Sm.multiply(full[:1]), fmt="coo")
        same(M + da.asarray(full, device=any_place), Sm + full)
        same(M.T, Sm.T, fmt=M.format)
        for axis in (None, 0, 1, -1):
            same(M.sum(axis=axis), Sm.sum(axis=axis))
        for k in (0, 1, -2):
            same(M.diagonal(k), Sm.diagonal(k))


def test_long_rows(any_place):
    """Rows far longer than the others: the product's split (rows crossing work-items)."""
    rng = np.random.default_rng(0)
    S = sp.random(300, 5000, density=0.002, random_state=1, format="lil", dtype=np.float64)
    S[7, :] = rng.integers(1, 5, 5000)
    S[8, :4000] = rng.integers(1, 5, 4000)
    S = S.tocsr()
    A = da.sparse.csr_matrix(S, device=any_place)
    x = rng.integers(-3, 4, 5000).astype(np.float64)
    same(A @ da.asarray(x, device=any_place), S @ x)
    same(A.sum(axis=1), S.sum(axis=1))
    same(A @ da.asarray(np.stack([x, -x], 1), device=any_place), S @ np.stack([x, -x], 1))


def test_dtypes_and_empty(any_place):
    A = da.sparse.csr_matrix((3, 4), device=any_place)
    assert A.nnz == 0 and A.shape == (3, 4) and A.indptr.get().tolist() == [0, 0, 0, 0]
    same(A @ da.ones(4, device=any_place, dtype="float32"), np.zeros(3, A.dtype))
    ints = da.sparse.coo_matrix(np.eye(3, dtype=np.int64), device=any_place)
    assert ints.dtype == da.ops.creation.default_float(ints.place)
    with pytest.raises(TypeError, match="float16"):
        ints.astype(np.float16)
    with pytest.raises(TypeError, match="@"):
        ints * ints
    assert "coo_matrix" in repr(ints) and da.sparse.issparse(ints) and not da.sparse.issparse(ints.data)


@pytest.mark.parametrize("make, match", [
    (lambda p: da.sparse.coo_matrix(([1.0], ([3], [0])), shape=(3, 3), device=p), "row index 3 is out of range"),
    (lambda p: da.sparse.coo_matrix(([1.0], ([0], [-1])), shape=(3, 3), device=p), "column index -1"),
    (lambda p: da.sparse.coo_matrix(([1.0, 2.0], ([0], [0])), shape=(3, 3), device=p), "differ in length"),
    (lambda p: da.sparse.coo_matrix(([1.0], ([0], [0])), shape=(-1, 3), device=p), "non-negative"),
    (lambda p: da.sparse.coo_matrix(([1.0], ([0], [0])), shape=(3, 3, 1), device=p), "two non-negative"),
    (lambda p: da.sparse.coo_matrix(np.ones((2, 2)), shape=(3, 3), device=p), "does not match"),
    (lambda p: da.sparse.coo_matrix(np.ones(3), device=p), "2-D"),
    (lambda p: da.sparse.coo_matrix(([], ([], [])), device=p), "infer"),
    (lambda p: da.sparse.csr_matrix(([1.0, 2.0], [0, 1], [0, 2, 1, 2]), shape=(3, 2), device=p), "not monotone"),
    (lambda p: da.sparse.csr_matrix(([1.0, 2.0], [0, 1], [0, 2]), shape=(3, 2), device=p), "4 \\(rows"),
    (lambda p: da.sparse.csr_matrix(([1.0, 2.0], [0, 1], [0, 1, 1]), shape=(2, 2), device=p), "end at nnz=2"),
    (lambda p: da.sparse.csr_matrix(([1.0, 2.0], [0, 5], [0, 1, 2]), shape=(2, 2), device=p), "column index 5"),
    (lambda p: da.sparse.csr_matrix(([1.0], [0], [0, 1]), shape=(1, 1), device=p) @ da.ones(2, device=p),
     "dimension mismatch"),
    (lambda p: da.sparse.csr_matrix(np.ones((2, 3)), device=p) @ da.sparse.csr_matrix(np.ones((2, 3)), device=p),
     "dimension mismatch"),
    (lambda p: da.sparse.csr_matrix(np.ones((2, 3)), device=p) + da.sparse.csr_matrix(np.ones((3, 2)), device=p),
     "differ"),
])
def test_validation(any_place, make, match):
    with pytest.raises(ValueError, match=match):
        make(any_place)


def test_index_type_errors(any_place):
    with pytest.raises(TypeError, match="integers"):
        da.sparse.coo_matrix(([1.0], ([0.5], [0])), shape=(2, 2), device=any_place)
    with pytest.raises(NotImplementedError):
        da.sparse.csr_matrix(np.ones((2, 2)), device=any_place) + 1


@pytest.mark.parametrize("shape", [(7, 5), (1 << 20, 1 << 20), (1 << 40, 1 << 40)], ids=["int32", "int64", "two-pass"])
def test_sort_triplets(any_place, shape):
    """The triplet sort with a 32-bit key, a 64-bit key and no key (over 63 bits): stable, by (row, column)."""
    from darray.sparse.coo import sort_triplets

    rng = np.random.default_rng(1)
    row = rng.integers(0, min(shape[0], 4), 300) * (shape[0] // 4 or 1) % shape[0]
    col = rng.integers(0, shape[1], 300)
    data = np.arange(300, dtype=np.float64)
    got = sort_triplets(*(da.asarray(a, device=any_place) for a in (row, col, data)), shape)
    order = np.lexsort((col, row))
    for g, want in zip(got, (row[order], col[order], data[order])):
        np.testing.assert_array_equal(g.get(), want)


def test_value_ops_sum_duplicates_only_when_nonlinear(any_place):
    """Linear value ops (-A, 2*A, A/2, conj) keep duplicate entries as stored (the same matrix);
    abs, power and astype sum them first, as scipy does (|1 + -3| is 2, not 4)."""
    rows, cols, vals = [0, 0, 1], [1, 1, 0], np.array([1.0, -3.0, 2.0], np.float32)
    dense = np.array([[0, -2], [2, 0]], np.float32)
    for make in (lambda: da.sparse.coo_matrix((vals, (rows, cols)), shape=(2, 2), device=any_place),
                 lambda: da.sparse.coo_matrix((vals, (rows, cols)), shape=(2, 2), device=any_place).tocsr()):
        A = make()
        nnz = A.nnz
        for got, want in ((-A, -dense), (2 * A, 2 * dense), (A * 2, 2 * dense), (A / 2, dense / 2),
                          (A.conj(), dense)):
            np.testing.assert_array_equal(got.toarray().get(), want)
        assert A.nnz == nnz  # not summed in place by a linear op
        np.testing.assert_array_equal(abs(make()).toarray().get(), np.abs(dense))
        np.testing.assert_array_equal(make().power(2).toarray().get(), dense ** 2)
