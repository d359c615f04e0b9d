"""numpy.linalg's norm, cond, eig, eigvals, lstsq, multi_dot, tensorinv and tensorsolve against NumPy."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same, check_outcome, viewed
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import darray as da

TOL = {"rtol": 1e-9, "atol": 1e-9}


@pytest.mark.parametrize("place", [None, "cpu"])
@given(data=st.data(), dtype=st.sampled_from(["float64", "complex128", "int32"]))
def test_norm(place, data, dtype) -> None:
    base, view = data.draw(viewed(dtype, min_dims=1, elements=st.integers(-4, 4)))
    a, x = view(base), view(da.asarray(base, device=place))
    assert_same(da.linalg.norm(x), np.linalg.norm(a), **TOL)
    if a.ndim in (1, 2) and a.size:
        ords = [1, -1, 2, np.inf, -np.inf, 0, 3] if a.ndim == 1 else [1, -1, 2, -2, np.inf, -np.inf, "fro", "nuc"]
        ord_ = data.draw(st.sampled_from(ords))
        assert_same(da.linalg.norm(x, ord_), np.linalg.norm(a, ord_), **TOL)
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    keep = data.draw(st.booleans())
    assert_same(da.linalg.norm(x, None, axis, keep), np.linalg.norm(a, None, axis, keep), **TOL)
    if a.ndim >= 2 and all(a.shape):
        axes = tuple(data.draw(st.permutations(range(a.ndim)))[:2])
        ord_ = data.draw(st.sampled_from([None, "fro", 1, -np.inf, 2, "nuc"]))
        assert_same(da.linalg.norm(x, ord_, axes, keep), np.linalg.norm(a, ord_, axes, keep), **TOL)


def test_norm_errors() -> None:
    x = da.ones((2, 2, 2))
    with pytest.raises(ValueError, match="Improper"):
        da.linalg.norm(x, 2)
    with pytest.raises(ValueError, match="Duplicate"):
        da.linalg.norm(x, axis=(1, 1))
    with pytest.raises(ValueError, match="Invalid norm order"):
        da.linalg.norm(x, "fro", axis=0)
    assert_same(da.linalg.norm(x), np.linalg.norm(np.ones((2, 2, 2))))


@pytest.mark.parametrize("place", [None, "cpu"])
def test_host_lapack_functions(place) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4, 4))
    x = da.asarray(a, device=place)
    for p in (None, 2, -2, 1, -1, np.inf, "fro", "nuc"):
        assert_same(da.linalg.cond(x, p), np.linalg.cond(a, p), rtol=1e-8, atol=1e-8)
    w, v = da.linalg.eig(x)
    ww, _ = np.linalg.eig(a)
    assert_same(w, ww, **TOL)
    assert_same(x @ v, v * w[..., None, :], rtol=1e-8, atol=1e-8)
    assert_same(da.linalg.eigvals(x[0]), np.linalg.eigvals(a[0]), **TOL)
    b = rng.standard_normal((4, 2))
    got = da.linalg.lstsq(x[0, :, :3], da.asarray(b, device=place), rcond=None)
    want = np.linalg.lstsq(a[0, :, :3], b, rcond=None)
    for g, w_ in zip(got, want, strict=True):
        assert_same(g, w_, **TOL) if isinstance(g, da.DArray) else None
    assert got.rank == want[1].size or got.rank == int(want[2])
    with pytest.raises(np.linalg.LinAlgError, match="darray"):
        da.linalg.inv(da.zeros((2, 2), device=place))
    assert da.linalg.LinAlgError is np.linalg.LinAlgError


@pytest.mark.parametrize("place", [None, "cpu"])
@given(sizes=st.lists(st.integers(1, 5), min_size=3, max_size=6), first=st.booleans(), last=st.booleans())
def test_multi_dot(place, sizes, first, last) -> None:
    rng = np.random.default_rng(len(sizes))
    mats = [rng.standard_normal((m, n)) for m, n in zip(sizes, sizes[1:])]
    if first:
        mats[0] = mats[0][0]
    if last:
        mats[-1] = mats[-1][:, 0]
    if len(mats) < 2:
        return
    assert_same(da.linalg.multi_dot([da.asarray(m, device=place) for m in mats]), np.linalg.multi_dot(mats), **TOL)


def test_tensor_functions() -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 6, 8, 3))
    assert_same(da.linalg.tensorinv(da.asarray(a), 2), np.linalg.tensorinv(a, 2), rtol=1e-8, atol=1e-8)
    b = rng.standard_normal((2, 3, 6))
    t = rng.standard_normal((2, 3, 6, 2, 3, 6)).reshape(36, 36) + 6 * np.eye(36)
    t = t.reshape(2, 3, 6, 2, 3, 6)
    assert_same(da.linalg.tensorsolve(da.asarray(t), da.asarray(b)), np.linalg.tensorsolve(t, b), rtol=1e-8,
                atol=1e-8)
    with pytest.raises(ValueError, match="tensorinv"):
        da.linalg.tensorinv(da.ones((2, 3)), 1)


_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32", "float64",
           "complex64", "complex128"]
_RANKS = {
    "lstsq": lambda xp, a: xp.linalg.lstsq(a.reshape(2, 2), a[:2]),
    "lstsq_rcond": lambda xp, a: xp.linalg.lstsq(a.reshape(2, 2), a[:2], rcond=0.5),
    "matrix_rank": lambda xp, a: xp.linalg.matrix_rank(a.reshape(2, 2)),
    "matrix_rank_stack": lambda xp, a: xp.linalg.matrix_rank(xp.stack([a.reshape(2, 2)] * 3)),
    "matrix_rank_tol": lambda xp, a: xp.linalg.matrix_rank(a.reshape(2, 2), tol=0.5),
}


@given(name=st.sampled_from(sorted(_RANKS)), dtype=st.sampled_from(_DTYPES),
       values=st.lists(st.integers(0, 3), min_size=4, max_size=4))
def test_rank_dtypes_as_numpy(name, dtype, values) -> None:
    """lstsq's four results (its rank a NumPy int32) and matrix_rank of every input dtype: NumPy's
    types, dtypes and values."""
    check_outcome(_RANKS[name], np.array(values).astype(dtype), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("place", [None, "cpu"])
@given(data=st.data(), dtype=st.sampled_from(["int32", "float32", "float64", "complex64", "complex128"]))
def test_lstsq_rcond_as_numpy(place, data, dtype) -> None:
    """lstsq for each form of ``rcond`` (None, -1, a float, a NumPy scalar, bad ones) over views of
    ``a`` (1-d and empty too) and 1-d or 2-d ``b`` (a wrong length too): NumPy's four results, their
    dtypes, or its exception class."""
    base, view = data.draw(viewed(dtype, min_dims=1, max_dims=2, max_side=4, elements=st.integers(-3, 3)))
    rows = view(base).shape[0]
    b = data.draw(hnp.arrays(dtype, st.sampled_from([(rows,), (rows, 2), (rows + 1,)]), elements=st.integers(-3, 3)))
    rcond = data.draw(st.sampled_from([None, -1, 1e-10, 0.5, 0, 2, np.float32(0.1), "x", [0.1, 0.2]]), label="rcond")

    def body(xp, a):
        return tuple(xp.linalg.lstsq(a, b if xp is np else da.asarray(b, device=place), rcond=rcond))

    check_outcome(body, base, place=place, view=view, rtol=1e-5, atol=1e-5)
