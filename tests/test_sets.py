"""unique_* and isin (darray/ops/sets.py) against NumPy 2.

darray's values are sorted (NumPy >= 2.3's ``unique_values`` may not be: compared with
``np.unique(..., equal_nan=False)``). NumPy's inverse indices for NaNs follow its unstable
sort, so inverses and first indices are checked by what they must satisfy: values[inverse]
rebuilds x, and indices are the first occurrences (darray's sort is stable). Complex input is
checked against ``np.unique`` with all its outputs (a stable sort there: exact), and the set
functions and ``isin`` of complex bit for bit.
"""
from __future__ import annotations

import numpy as np
import pytest
from helpers import PARTS, assert_exact, complex_values, shapes
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from test_sorting import REAL, elements, view

import darray as da


def check_unique(xd: da.DArray, xn: np.ndarray) -> None:
    values = np.unique(xn, equal_nan=False)
    got = da.unique_values(xd)
    np.testing.assert_array_equal(got.get(), values)
    assert got.get().dtype == values.dtype
    counts = da.unique_counts(xd)
    want = np.unique_counts(xn)
    assert counts._fields == ("values", "counts")
    np.testing.assert_array_equal(counts.values.get(), want.values)
    np.testing.assert_array_equal(counts.counts.get(), want.counts)
    assert counts.counts.dtype == np.int64
    inv = da.unique_inverse(xd)
    assert inv._fields == ("values", "inverse_indices")
    np.testing.assert_array_equal(inv.values.get(), values)
    assert inv.inverse_indices.shape == xn.shape and inv.inverse_indices.dtype == np.int64
    np.testing.assert_array_equal(values[inv.inverse_indices.get()], xn)
    res = da.unique_all(xd)
    assert res._fields == ("values", "indices", "inverse_indices", "counts")
    np.testing.assert_array_equal(res.values.get(), values)
    np.testing.assert_array_equal(res.counts.get(), want.counts)
    flat, idx = xn.reshape(-1), res.indices.get()
    assert idx.dtype == np.int64
    np.testing.assert_array_equal(flat[idx], values)
    np.testing.assert_array_equal(values[res.inverse_indices.get()], xn)
    if xn.size:  # each index is the first occurrence of its value (NaNs: each its own value)
        first = np.array([np.flatnonzero(flat == v)[0] if v == v else -1 for v in values])
        np.testing.assert_array_equal(np.where(first < 0, idx, first), idx)


@given(data=st.data())
def test_unique_matches_numpy(any_place, data):
    dtype = data.draw(st.sampled_from(REAL), label="dtype")
    x = data.draw(hnp.arrays(dtype, shapes(0, 4, 0, 5), elements=elements(dtype)), label="x")
    kind = data.draw(st.sampled_from(["", "T", "flip", "step"]), label="view")
    check_unique(view(da.asarray(x, device=any_place), kind), view(x, kind))


@pytest.mark.parametrize("dtype", REAL, ids=str)
def test_unique_long(any_place, dtype):
    """Long input (radix path), few distinct values, NaNs and both zeros."""
    rng = np.random.default_rng(dtype.num)
    x = rng.integers(0, 2 if dtype.kind == "b" else 50, 3000).astype(dtype)
    if dtype.kind == "f":
        x[::97], x[5::89], x[7::13] = np.nan, -0.0, np.inf
    check_unique(da.asarray(x, device=any_place).reshape(30, 100), x.reshape(30, 100))


@given(data=st.data())
def test_isin_matches_numpy(any_place, data):
    dtype = data.draw(st.sampled_from(REAL), label="dtype")
    other = data.draw(st.sampled_from([dtype, np.dtype("int16"), np.dtype("float32")]), label="test dtype")
    x = data.draw(hnp.arrays(dtype, shapes(0, 3, 0, 5), elements=elements(dtype)), label="x")
    t = data.draw(hnp.arrays(other, shapes(0, 2, 0, 80), elements=elements(other)), label="test")
    invert = data.draw(st.booleans(), label="invert")
    kind = data.draw(st.sampled_from(["", "T", "flip"]), label="view")
    got = da.isin(view(da.asarray(x, device=any_place), kind), da.asarray(t, device=any_place), invert=invert)
    want = np.isin(view(x, kind), t, invert=invert)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.get(), want)


def test_isin_specials_and_scalars(any_place):
    x = da.asarray(np.array([1.0, np.nan, -0.0, np.inf, 2.5]), device=any_place)
    assert da.isin(x, da.asarray([0.0, np.nan, np.inf], device=any_place)).get().tolist() == \
        [False, False, True, True, False]
    assert da.isin(da.asarray(np.arange(5, dtype=np.int8), device=any_place), 3).get().tolist() == \
        [False, False, False, True, False]
    big = np.arange(0, 20_000, 3, dtype=np.int64)
    y = np.arange(1000, dtype=np.int64)
    np.testing.assert_array_equal(da.isin(da.asarray(y, device=any_place), big, invert=True).get(),
                                  np.isin(y, big, invert=True))


COMPLEX = [np.dtype("complex64"), np.dtype("complex128")]


def check_unique_complex(xd: da.DArray, xn: np.ndarray) -> None:
    """Every unique_* against ``np.unique`` with all outputs (its stable sort: exact indices and
    inverse): NumPy's lexicographic complex order, NaNs as NumPy 2 sorts them, each value
    containing a NaN distinct, -0.0 equal to 0.0 (the value kept is the first occurrence's)."""
    values, index, inverse, counts = np.unique(xn, return_index=True, return_inverse=True, return_counts=True,
                                               equal_nan=False)
    inverse = inverse.reshape(xn.shape)
    res = da.unique_all(xd)
    for got, want in zip(res, (values, index, inverse, counts)):
        g = got.get()
        assert g.dtype == (want.dtype if want.dtype.kind == "c" else np.int64) and g.shape == want.shape
        np.testing.assert_array_equal(g, want)
    got_values = res.values.get()
    for part in ("real", "imag"):
        np.testing.assert_array_equal(np.signbit(getattr(got_values, part)), np.signbit(getattr(values, part)))
    np.testing.assert_array_equal(da.unique_values(xd).get(), values)
    uc, ui = da.unique_counts(xd), da.unique_inverse(xd)
    np.testing.assert_array_equal(uc.values.get(), values)
    np.testing.assert_array_equal(uc.counts.get(), counts)
    np.testing.assert_array_equal(ui.values.get(), values)
    np.testing.assert_array_equal(ui.inverse_indices.get(), inverse)


@given(data=st.data())
def test_unique_complex_matches_numpy(any_place, data):
    dtype = data.draw(st.sampled_from(COMPLEX), label="dtype")
    x = data.draw(hnp.arrays(dtype, shapes(0, 3, 0, 6), elements=complex_values()), label="x")
    kind = data.draw(st.sampled_from(["", "T", "flip", "step"]), label="view")
    check_unique_complex(view(da.asarray(x, device=any_place), kind), view(x, kind))


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_unique_complex_long(any_place, dtype):
    """Long input (the radix sorts), few distinct values, NaN parts and signed zeros; contiguous,
    reversed-strided and transposed views."""
    rng = np.random.default_rng(dtype.num)
    x = (rng.integers(-3, 4, 3000) + 1j * rng.integers(-2, 3, 3000)).astype(dtype)
    x[::97], x[5::89], x[7::131], x[9::53] = complex(np.nan, 1), complex(-0.0, 0), complex(2, np.nan), np.nan
    d = da.asarray(x, device=any_place)
    check_unique_complex(d.reshape(30, 100), x.reshape(30, 100))
    check_unique_complex(d[::-3], x[::-3])  # reversed and strided
    check_unique_complex(d.reshape(30, 100).T[::2], x.reshape(30, 100).T[::2])  # transposed


@given(data=st.data())
def test_isin_complex_matches_numpy(any_place, data):
    """isin with complex on either side (the other complex or real): equal values match, -0.0 equals
    0.0, a value with a NaN part matches nothing; views, 0-d and empty arrays, ``invert``."""
    dtype = data.draw(st.sampled_from(COMPLEX), label="dtype")
    x = data.draw(hnp.arrays(dtype, shapes(0, 3, 0, 6), elements=complex_values()), label="x")
    real = data.draw(st.booleans(), label="real tests")
    t = data.draw(hnp.arrays(np.float64 if real else dtype, shapes(0, 2, 0, 6),
                             elements=st.sampled_from(PARTS) if real else complex_values()), label="t")
    kind = data.draw(st.sampled_from(["", "T", "flip", "step"]), label="view")
    invert = data.draw(st.booleans(), label="invert")
    xd, td = view(da.asarray(x, device=any_place), kind), da.asarray(t, device=any_place)
    assert_exact(da.isin(xd, td, invert=invert), np.isin(view(x, kind), t, invert=invert))
    assert_exact(da.isin(td, xd, invert=invert), np.isin(t, view(x, kind), invert=invert))


@given(data=st.data())
def test_set_operations_complex(any_place, data):
    """union1d, intersect1d, setdiff1d, setxor1d and ``unique`` of complex against NumPy bit for bit
    (the value kept of equal ones, the NaN kept with ``equal_nan``), but the sign of zeros where
    NumPy's sort is unstable (intersect1d's values, ``unique`` with counts or without ``equal_nan``)."""
    dtype = data.draw(st.sampled_from(COMPLEX), label="dtype")
    a = data.draw(hnp.arrays(dtype, shapes(0, 2, 0, 7), elements=complex_values()), label="a")
    b = data.draw(hnp.arrays(dtype, shapes(0, 1, 0, 7), elements=complex_values()), label="b")
    ad, bd = da.asarray(a, device=any_place), da.asarray(b, device=any_place)
    for name in ("union1d", "setdiff1d", "setxor1d"):
        assert_exact(getattr(da, name)(ad, bd), getattr(np, name)(a, b))
    assert_exact(da.intersect1d(ad, bd).get() + 0, np.intersect1d(a, b) + 0)  # + 0: zeros' signs off
    for got, want in zip(da.intersect1d(ad, bd, return_indices=True), np.intersect1d(a, b, return_indices=True)):
        assert_exact(got, want)
    assert_exact(da.unique(ad), np.unique(a))
    assert_exact(da.unique(ad, equal_nan=False).get() + 0, np.unique(a, equal_nan=False) + 0)  # NumPy: unstable
    for equal_nan in (True, False):
        for got, want in zip(da.unique(ad, True, True, True, equal_nan=equal_nan),
                             np.unique(a, True, True, True, equal_nan=equal_nan)):
            assert_exact(got, want)
        got, want = da.unique(ad, return_counts=True, equal_nan=equal_nan), \
            np.unique(a, return_counts=True, equal_nan=equal_nan)
        assert_exact(got[0].get() + 0, want[0] + 0)
        assert_exact(got[1], want[1])


def test_bad_input(any_place):
    with pytest.raises(ValueError, match="darray isin"):
        da.isin(da.asarray(np.ones(3, np.complex64), device=any_place), 1j, kind="table")
    x = np.array([3, 1, 3], np.int32)
    check_unique(da.asarray(x, device=any_place), x)  # the next call works


UNIQUE_DTYPES = [np.dtype(t) for t in ("bool", "int8", "uint16", "int64", "float32", "float64")]


@given(data=st.data())
def test_numpy_unique(any_place, data):
    """NumPy's ``unique`` with every return, equal_nan both ways (NaNs: one value or each its own)."""
    dtype = data.draw(st.sampled_from(UNIQUE_DTYPES), label="dtype")
    x = data.draw(hnp.arrays(dtype, shapes(0, 3, 0, 5), elements=elements(dtype)), label="x")
    kind = data.draw(st.sampled_from(["", "T", "flip", "step"]), label="view")
    xn, xd = view(x, kind), view(da.asarray(x, device=any_place), kind)
    want = np.unique(xn, return_index=True, return_inverse=True, return_counts=True)
    got = da.unique(xd, True, True, True)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
    np.testing.assert_array_equal(got[0].get(), want[0])
    np.testing.assert_array_equal(got[3].get(), want[3])
    np.testing.assert_array_equal(got[1].get(), want[1])  # first occurrences (NumPy: a stable sort)
    np.testing.assert_array_equal(want[0][got[2].get()], xn)
    np.testing.assert_array_equal(da.unique(xd, equal_nan=False).get(), np.unique(xn, equal_nan=False))
    np.testing.assert_array_equal(da.unique(xd, return_counts=True)[1].get(), want[3])


@given(data=st.data())
def test_set_operations(any_place, data):
    dtype = data.draw(st.sampled_from(UNIQUE_DTYPES), label="dtype")
    a = data.draw(hnp.arrays(dtype, shapes(0, 2, 0, 6), elements=elements(dtype)), label="a")
    b = data.draw(hnp.arrays(dtype, shapes(0, 1, 0, 8), elements=elements(dtype)), label="b")
    ad, bd = da.asarray(a, device=any_place), da.asarray(b, device=any_place)
    for name in ("union1d", "intersect1d", "setdiff1d", "setxor1d"):
        got, want = getattr(da, name)(ad, bd), getattr(np, name)(a, b)
        assert got.dtype == want.dtype, name
        np.testing.assert_array_equal(got.get(), want, err_msg=name)
    got, want = da.intersect1d(ad, bd, return_indices=True), np.intersect1d(a, b, return_indices=True)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.get(), w)
    ua, ub = np.unique(a), np.unique(b)
    np.testing.assert_array_equal(da.setxor1d(da.asarray(ua, device=any_place), da.asarray(ub, device=any_place),
                                              True).get(), np.setxor1d(ua, ub, True))


def test_isin_numpy_signature(any_place):
    x, t = np.array([[1, 5], [3, 2]]), np.array([2, 3])
    xd = da.asarray(x, device=any_place)
    np.testing.assert_array_equal(da.isin(xd, t, False, True).get(), np.isin(x, t, False, True))
    for kind in (None, "sort", "table"):
        np.testing.assert_array_equal(da.isin(xd, t, kind=kind).get(), np.isin(x, t, kind=kind))
    with pytest.raises(ValueError, match="darray isin"):
        da.isin(xd, t, kind="hash")
    with pytest.raises(ValueError, match="darray isin: the 'table'"):
        da.isin(da.asarray([1.0], device=any_place), [1.0], kind="table")
    with pytest.raises(np.exceptions.AxisError, match="darray unique"):
        da.unique(xd, axis=2)
    assert isinstance(np.unique(xd), da.DArray) and isinstance(np.union1d(xd, xd), da.DArray)
    np.testing.assert_array_equal(da.unique(xd).get(), np.unique(x))  # the next call works


def test_unique_values_host_sort(cl_place):
    """Long input without indices: ``sort`` may run NumPy on the mapped buffers (NaNs, both zeros)."""
    x = np.random.default_rng(1).integers(-50, 50, 100_000).astype(np.float32)
    x[::7], x[::11] = np.nan, -0.0
    xd = da.asarray(x, device=cl_place)
    np.testing.assert_array_equal(da.unique_values(xd).get(), np.unique(x, equal_nan=False))
    np.testing.assert_array_equal(da.unique(xd, return_counts=True)[1].get(), np.unique(x, return_counts=True)[1])


@given(data=st.data())
def test_unique_axis(any_place, data):
    """Distinct slices along an axis (few values, so rows repeat; -0.0 equals 0.0), every return."""
    dtype = data.draw(st.sampled_from([np.dtype("int8"), np.dtype("uint16"), np.dtype("float32"),
                                       np.dtype("complex64")]), label="dtype")
    x = data.draw(hnp.arrays(dtype, shapes(1, 3, 0, 4), elements=st.sampled_from([0, 1, 2])), label="x")
    if dtype.kind == "f":
        x[x == 0] = -0.0
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    got = da.unique(da.asarray(x, device=any_place), True, True, True, axis)
    want = np.unique(x, True, True, True, axis)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_array_equal(g.get(), w)
