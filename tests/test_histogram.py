"""bincount, digitize, histogram and its 2-D/N-D forms and bin edges against NumPy."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same, check_outcome, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

PLACES = [None, "cpu"]


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data())
def test_bincount_and_digitize(place, data) -> None:
    base, view = data.draw(viewed("int32", min_dims=1, max_dims=1, max_side=30, elements=st.integers(0, 9)))
    a, x = view(base), view(da.asarray(base, device=place))
    minlength = data.draw(st.integers(0, 12))
    assert_same(da.bincount(x, minlength=minlength), np.bincount(a, minlength=minlength))
    w = np.linspace(-1, 2, a.size)
    assert_same(da.bincount(x, da.asarray(w, device=place), minlength), np.bincount(a, w, minlength),
                rtol=1e-12, atol=1e-12)
    bins = sorted(data.draw(st.lists(st.integers(-1, 10), min_size=1, max_size=5)))
    right = data.draw(st.booleans())
    assert_same(da.digitize(x, bins, right), np.digitize(a, bins, right))
    assert_same(da.digitize(x, bins[::-1], right), np.digitize(a, bins[::-1], right))


def test_bincount_errors() -> None:
    with pytest.raises(ValueError, match="negative"):
        da.bincount(da.asarray([1, -1]))
    with pytest.raises(TypeError):
        da.bincount(da.asarray([1.5]))
    with pytest.raises(ValueError, match="monotonically"):
        da.digitize(da.asarray([1]), [1, 3, 2])
    assert_same(da.bincount(da.asarray([1, 1])), np.array([0, 2]))


def _estimator_bins(a: np.ndarray, rng: tuple[float, float] | None) -> float:
    """About how many bins the width estimators ('fd', 'auto') ask for: the range over
    Freedman-Diaconis's width, 2 IQR n^(-1/3); 0 for a zero IQR (they fall back to Sturges there)."""
    lo, hi = (float(a.min()), float(a.max())) if rng is None else rng
    q75, q25 = np.percentile(a, [75, 25])
    width = 2 * float(q75 - q25) * a.size ** (-1 / 3)
    return (hi - lo) / width if width > 0 else 0.0


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), bins=st.sampled_from([1, 3, 10, [-2.0, -0.5, 0.0, 0.5, 4.0], "auto", "sturges", "fd"]),
       density=st.booleans(), weighted=st.booleans())
def test_histogram(place, data, bins, density, weighted) -> None:
    base, view = data.draw(viewed("float64", min_dims=1, elements=st.floats(-3, 3, width=32)))
    a, x = view(base), view(da.asarray(base, device=place))
    rng = data.draw(st.sampled_from([None, (-1.0, 1.0), (0.0, 0.0)]))
    w = np.linspace(0, 1, a.size).reshape(a.shape) if weighted else None
    if isinstance(bins, str) and (w is not None or not a.size or _estimator_bins(a, rng) > 100_000):
        return  # (an estimator's width over a spread-out outlier can ask for 10^8 bins: GBs in NumPy too)
    try:
        want = np.histogram(a, bins, rng, density, w)
    except ValueError:
        with pytest.raises(ValueError):
            da.histogram(x, bins, rng, density, w)
        return
    got = da.histogram(x, bins, rng, density, None if w is None else da.asarray(w, device=place))
    assert_same(got[0], want[0], rtol=1e-9, atol=1e-9)
    assert_same(got[1], want[1], rtol=1e-12, atol=1e-12)
    assert_same(da.histogram_bin_edges(x, bins, rng), np.histogram_bin_edges(a, bins, rng), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("place", PLACES)
def test_histogram_2d_and_nd(place) -> None:
    rng = np.random.default_rng(2)
    s = rng.standard_normal((300, 3))
    x = da.asarray(s, device=place)
    for bins in (4, (2, 3, 4), [np.linspace(-3, 3, 5)] * 3):
        got, edges = da.histogramdd(x, bins)
        want, want_edges = np.histogramdd(s, bins)
        assert_same(got, want)
        for g, w in zip(edges, want_edges, strict=True):
            assert_same(g, w, rtol=1e-12, atol=1e-12)
    got = da.histogram2d(x[:, 0], x[:, 1], [3, 5], density=True)
    want = np.histogram2d(s[:, 0], s[:, 1], [3, 5], density=True)
    for g, w in zip(got, want, strict=True):
        assert_same(g, w, rtol=1e-10, atol=1e-10)
    assert_same(da.histogram2d(x[:, 0], x[:, 1], np.linspace(-2, 2, 6))[0],
                np.histogram2d(s[:, 0], s[:, 1], np.linspace(-2, 2, 6))[0])
    assert isinstance(np.histogram(x[:, 0], 5)[0], da.DArray)


@pytest.mark.parametrize("place", PLACES)
def test_bincount_non_finite_weights_stay_in_their_bins(place) -> None:
    i = np.array([0, 1, 1, 2, 3, 3, 4, 5])
    w = np.array([1.0, np.inf, 2.0, np.nan, -np.inf, np.inf, -np.inf, 0.5])
    assert_same(da.bincount(da.asarray(i, device=place), da.asarray(w, device=place), minlength=7),
                np.bincount(i, w, minlength=7))


COUNT_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint32", "uint64"]


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("dtype", COUNT_DTYPES)
def test_bincount_runs_of_many_work_items(place, dtype) -> None:
    """Enough values for several rows of the counting kernel, through a reversed strided view."""
    rng = np.random.default_rng(5)
    top = 2 if dtype == "bool" else 100
    base = rng.integers(0, top, 3 * 40_000 + 7).astype(dtype)
    a, x = base[::-3], da.asarray(base, device=place)[::-3]
    assert_same(da.bincount(x), np.bincount(a))
    w = rng.standard_normal(a.size)
    w[[3, 500, 9000]] = [np.inf, np.nan, -np.inf]
    assert_same(da.bincount(x, da.asarray(w, device=place), minlength=top + 3), np.bincount(a, w, top + 3),
                rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "int64", "uint8"])
def test_histogram_equal_bins_on_edges_and_outside(place, dtype) -> None:
    """One pass of the equal-bins kernel: values on every edge, outside the range, NaN and inf;
    weights keep their dtype; several work-items' rows."""
    rng = np.random.default_rng(6)
    if np.dtype(dtype).kind == "f":
        edges = np.linspace(-2, 3, 101).astype(dtype)
        base = np.concatenate([rng.uniform(-3, 4, 60_000), edges, np.nextafter(edges, np.inf),
                               [np.nan, np.inf, -np.inf, -0.0]]).astype(dtype)
    else:
        info = np.iinfo(dtype)
        base = rng.integers(info.min, info.max, 60_000, endpoint=True).astype(dtype)
    rng.shuffle(base)
    a, x = base[::-2], da.asarray(base, device=place)[::-2]
    ranges = [(-2, 3), None] if np.dtype(dtype).kind == "f" else [None, (-5, 50)]
    for bins in (1, 7, 100):
        for r in ranges:
            if r is None and np.dtype(dtype).kind == "f":
                a, x = a[np.isfinite(a)], da.asarray(a[np.isfinite(a)], device=place)
            assert_same(da.histogram(x, bins, r)[0], np.histogram(a, bins, r)[0])
            w = np.linspace(-1, 1, a.size).astype(np.float32)
            assert_same(da.histogram(x, bins, r, weights=da.asarray(w, device=place))[0],
                        np.histogram(a, bins, r, weights=w)[0], rtol=1e-5, atol=1e-4)


def test_histogram_complex_weights_are_refused() -> None:
    with pytest.raises(TypeError, match="complex weights"):
        da.histogram(da.asarray([1.0, 2.0]), 2, weights=da.asarray([1j, 2]))
    assert_same(da.histogram(da.asarray([1.0, 2.0]), 2)[0], np.array([1, 1]))


_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32", "float64",
           "complex64", "complex128"]
_COUNTS = {
    "histogram": lambda xp, a: xp.histogram(a, bins=3), "density": lambda xp, a: xp.histogram(a, 3, density=True),
    "weights": lambda xp, a: xp.histogram(a, 3, weights=a),
    "bincount": lambda xp, a: xp.bincount(a), "bincount_weights": lambda xp, a: xp.bincount(a.astype(np.int64)
                                                                                             if xp is np else
                                                                                             a.astype(np.int64),
                                                                                             weights=a),
}


@given(name=st.sampled_from(sorted(_COUNTS)), dtype=st.sampled_from([d for d in _DTYPES if d[0] != "c"]),
       values=st.lists(st.integers(0, 4), min_size=1, max_size=6))
def test_count_dtypes_as_numpy(name, dtype, values) -> None:
    """histogram counts (int64; weights and density their NumPy dtypes), edges and bincount of every
    real dtype: NumPy's dtypes, values and exception class."""
    check_outcome(_COUNTS[name], np.array(values).astype(dtype))
