"""median, percentile, quantile (every method), their nan* forms, average, cov and corrcoef against NumPy."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import assert_same, check_outcome, viewed
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import darray as da
from darray.ops.statistics import _METHODS

PLACES = [None, "cpu"]
VALUES = st.sampled_from([np.nan, -2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, 7.25, np.inf])


def _numpy(fn, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), dtype=st.sampled_from(["float64", "float32", "int32"]), method=st.sampled_from(_METHODS))
def test_quantile_methods(place, data, dtype, method) -> None:
    elements = st.integers(-5, 5) if dtype == "int32" else VALUES
    base, view = data.draw(viewed(dtype, min_dims=1, elements=elements))
    a, x = view(base), view(da.asarray(base, device=place))
    axis = data.draw(st.sampled_from([None, 0, -1, tuple(range(a.ndim))]))
    q = data.draw(st.sampled_from([0.5, 0.0, 1.0, [0.1, 0.9], np.array([[0.25], [0.75]])]))
    tol = {"rtol": 1e-5, "atol": 1e-5} if dtype == "float32" else {"rtol": 1e-12, "atol": 1e-12}
    if not a.size or any(a.shape[k] == 0 for k in np.atleast_1d(axis if axis is not None else range(a.ndim))):
        return
    # a Python float q: NumPy's result dtype for a NumPy float64 scalar q differs between its own paths
    pct = q * 100 if isinstance(q, float) else np.multiply(q, 100)
    for name, qq in (("quantile", q), ("percentile", pct), ("nanquantile", q), ("nanpercentile", pct)):
        want = np.asarray(_numpy(getattr(np, name), a, qq, axis=axis, method=method))
        got = getattr(da, name)(x, qq, axis, method=method)
        if np.isnan(want).all():  # NumPy's dtype of an all-NaN result follows its NaN, not the method's rule
            got = got.astype(want.dtype)
        assert_same(got, want, **tol)
    keep = _numpy(np.quantile, a, q, axis=axis, method=method, keepdims=True)
    assert_same(da.quantile(x, q, axis=axis, method=method, keepdims=True), keep, **tol)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data())
def test_median(place, data) -> None:
    base, view = data.draw(viewed("float64", min_dims=1, elements=VALUES))
    a, x = view(base), view(da.asarray(base, device=place))
    if not a.size:
        return
    axis = data.draw(st.sampled_from([None, 0, -1]))
    if axis is not None and not a.shape[axis]:
        return
    assert_same(da.median(x, axis), _numpy(np.median, a, axis))
    assert_same(da.nanmedian(x, axis, keepdims=True), _numpy(np.nanmedian, a, axis, keepdims=True))
    assert isinstance(np.median(x), da.DArray)


def test_quantile_errors() -> None:
    x = da.asarray([1.0, 2.0])
    with pytest.raises(ValueError, match="range"):
        da.quantile(x, 1.5)
    with pytest.raises(ValueError, match="method"):
        da.quantile(x, 0.5, method="cubic")
    with pytest.raises(ValueError, match="Only method 'inverted_cdf' supports weights"):
        da.quantile(x, 0.5, weights=x)
    out = da.empty(())
    assert da.median(x, out=out) is out
    assert_same(out, np.float64(1.5))


@pytest.mark.parametrize("place", PLACES)
def test_average_cov_corrcoef(place) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 6))
    x = da.asarray(a, device=place)
    w = rng.random(6)
    for axis in (None, 1):
        assert_same(da.average(x, axis), np.average(a, axis))
    assert_same(da.average(x, 1, weights=da.asarray(w, device=place)), np.average(a, 1, weights=w))
    got, total = da.average(x, 1, weights=w, returned=True)
    want, want_total = np.average(a, 1, weights=w, returned=True)
    assert_same(got, want) and assert_same(total, want_total)
    with pytest.raises(ZeroDivisionError):
        da.average(x, 1, weights=np.zeros(6))
    for kw in ({}, {"rowvar": False}, {"bias": True}, {"ddof": 2}, {"fweights": np.arange(1, 7)},
               {"aweights": w}, {"fweights": np.arange(1, 7), "aweights": w}):
        assert_same(da.cov(x, **kw), np.cov(a, **kw), rtol=1e-10, atol=1e-10)
    assert_same(da.cov(x[0], x[1]), np.cov(a[0], a[1]), rtol=1e-10, atol=1e-10)
    assert_same(da.cov(x[0]), np.cov(a[0]), rtol=1e-10, atol=1e-10)
    assert_same(da.corrcoef(x), np.corrcoef(a), rtol=1e-10, atol=1e-10)
    assert_same(da.corrcoef(x.T, rowvar=False), np.corrcoef(a.T, rowvar=False), rtol=1e-10, atol=1e-10)
    assert_same(da.corrcoef(x[0], x[2]), np.corrcoef(a[0], a[2]), rtol=1e-10, atol=1e-10)


def _selection_cases() -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(11)
    n = (1 << 16) + 3
    normal = rng.standard_normal(n)
    spread = np.exp(rng.standard_normal(n) * 30)  # narrowed again: most values sit in the first bins
    spread[[0, 5]] = [-1e300, 1e300]
    with_nan, with_inf = normal.copy(), normal.copy()
    with_nan[77], with_inf[88] = np.nan, -np.inf
    return [("float32", normal.astype(np.float32)), ("spread", spread), ("ties", np.repeat(normal[:7], n // 7 + 1)),
            ("int64", rng.integers(-9, 9, n)), ("uint8", rng.integers(0, 255, n).astype(np.uint8)),
            ("nan", with_nan), ("inf", with_inf), ("equal", np.full(n, 2.5))]


@pytest.mark.parametrize("name,values", _selection_cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_quantiles_by_selection_of_long_slices(name, values) -> None:
    """Slices of 2^16 or more values on a device take the selection path (a count in bins, then a sort of
    the bins holding the ranks): exact against NumPy's sort-based quantiles, through a reversed strided view."""
    base = np.concatenate([values, values[:100]])
    a, x = base[::-1][::1], da.asarray(base)[::-1][::1]
    a, x = a[: values.size], x[: values.size]
    assert_same(da.median(x), np.median(a))
    for q in ([5, 50, 95], 0, 100, list(np.linspace(0, 100, 21))):
        for method in ("linear", "nearest", "midpoint", "inverted_cdf"):
            assert_same(da.percentile(x, q, method=method), np.percentile(a, q, method=method))
    assert_same(da.quantile(x[::-2], 0.3), np.quantile(a[::-2], 0.3))


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), dtype=st.sampled_from(["float64", "float32", "int32"]))
def test_weighted_quantiles(place, data, dtype) -> None:
    """``weights=`` with ``method="inverted_cdf"`` (NumPy's only weighted method): weights of a's shape or
    1-D along an int axis, zero weights (leading ones too), NaN in a, all four functions."""
    elements = st.integers(-5, 5) if dtype == "int32" else VALUES
    base, view = data.draw(viewed(dtype, min_dims=1, elements=elements))
    a, x = view(base), view(da.asarray(base, device=place))
    axis = data.draw(st.sampled_from([None, 0, -1, tuple(range(a.ndim))]))
    one_d = isinstance(axis, int) and data.draw(st.booleans())
    wshape = (a.shape[axis],) if one_d else a.shape
    w = data.draw(hnp.arrays(np.float64, wshape, elements=st.integers(0, 3).map(float)))
    if not a.size:  # NumPy's weighted path drops q's axis from empty results
        return
    q = data.draw(st.sampled_from([0.5, 0.0, 1.0, [0.1, 0.9]]))
    pct = q * 100 if isinstance(q, float) else np.multiply(q, 100)
    for name, qq in (("quantile", q), ("percentile", pct), ("nanquantile", q), ("nanpercentile", pct)):
        try:
            want = np.asarray(_numpy(getattr(np, name), a, qq, axis=axis, method="inverted_cdf", weights=w))
        except IndexError:  # NumPy's nan* forms with 1-D weights fail on an all-NaN slice
            continue
        except ValueError:  # a slice whose weights are all zero
            with pytest.raises(ValueError, match="Weights included NaN, inf or were all zero"):
                getattr(da, name)(x, qq, axis, method="inverted_cdf", weights=da.asarray(w, device=place))
            continue
        got = getattr(da, name)(x, qq, axis, method="inverted_cdf", weights=da.asarray(w, device=place))
        if np.isnan(want).all():
            got = got.astype(want.dtype)
        assert_same(got, want)


def test_weighted_quantile_errors() -> None:
    x = da.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(ValueError, match="Only method 'inverted_cdf' supports weights"):
        da.quantile(x, 0.5, weights=np.ones((2, 3)))
    with pytest.raises(ValueError, match="Weights must be non-negative"):
        da.quantile(x, 0.5, method="inverted_cdf", weights=-np.ones((2, 3)))
    with pytest.raises(ValueError, match="Shape of weights"):
        da.quantile(x, 0.5, axis=1, method="inverted_cdf", weights=np.ones(2))
    assert_same(da.quantile(x, 0.5, axis=1, method="inverted_cdf", weights=np.ones(3)), np.array([1.0, 4.0]))


ALL_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32", "float64",
              "complex64", "complex128"]
_REDUCERS = {
    "mean": lambda xp, a, ax: xp.mean(a, axis=ax), "var": lambda xp, a, ax: xp.var(a, axis=ax),
    "std": lambda xp, a, ax: xp.std(a, axis=ax), "average": lambda xp, a, ax: xp.average(a, axis=ax),
    "average_weights": lambda xp, a, ax: xp.average(a, axis=ax, weights=a if ax is None else None),
    "median": lambda xp, a, ax: xp.median(a, axis=ax), "nanmedian": lambda xp, a, ax: xp.nanmedian(a, axis=ax),
    "percentile": lambda xp, a, ax: xp.percentile(a, 30, axis=ax),
    "percentile_float": lambda xp, a, ax: xp.percentile(a, 30.0, axis=ax),
    "quantile": lambda xp, a, ax: xp.quantile(a, 0.25, axis=ax),
    "quantile_nearest": lambda xp, a, ax: xp.quantile(a, 0.25, axis=ax, method="nearest"),
    "cov": lambda xp, a, ax: xp.cov(a.reshape(2, -1)),
    "cov_aweights": lambda xp, a, ax: xp.cov(a.reshape(2, -1), aweights=xp.arange(1, a.size // 2 + 1)),
    "corrcoef": lambda xp, a, ax: xp.corrcoef(a.reshape(2, -1)),
}


@settings(max_examples=150)
@given(name=st.sampled_from(sorted(_REDUCERS)), dtype=st.sampled_from(ALL_DTYPES), axis=st.sampled_from([None, 0]),
       data=st.data())
def test_result_dtypes_of_every_input_dtype(name, dtype, axis, data) -> None:
    """mean/average/median/percentile/quantile/var/std/cov/corrcoef of bool, every int, float16,
    float32 and complex: NumPy's result dtype, values and exception class (median of bools: float64)."""
    a = data.draw(hnp.arrays(np.int8, st.sampled_from([(4,), (2, 3)]), elements=st.integers(0, 4))).astype(dtype)
    check_outcome(lambda xp, x: _REDUCERS[name](xp, x, axis), a)


def test_cov_weights_checked_as_numpy() -> None:
    """NumPy's float64 weights and its checks: fractional fweights TypeError, negative ValueError,
    2-D or mismatched RuntimeError; complex data with float weights."""
    a = np.array([[1.0, 2, 4], [3, 1, 0]])
    for kw, err in [({"fweights": [1.5, 2, 1]}, TypeError), ({"fweights": [-1, 2, 1]}, ValueError),
                    ({"aweights": [-1.0, 2, 1]}, ValueError), ({"fweights": [[1, 2, 1]]}, RuntimeError),
                    ({"aweights": [1, 2]}, RuntimeError)]:
        with pytest.raises(err):
            np.cov(a, **kw)
        with pytest.raises(err, match="cov"):
            da.cov(da.asarray(a), **kw)
    c = a.astype(np.complex64) * (1 + 1j)
    assert_same(da.cov(da.asarray(c), fweights=[1, 2, 1], aweights=[0.5, 1, 2]),
                np.cov(c, fweights=[1, 2, 1], aweights=[0.5, 1, 2]), rtol=1e-9, atol=1e-9)
