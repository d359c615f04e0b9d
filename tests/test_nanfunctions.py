"""The nan* functions against NumPy's: NaN treated as missing, over views, axes, dtypes and places."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import assert_exact, assert_same, complex_values, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

FUNCS = ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "nanargmax", "nanargmin",
         "nancumsum", "nancumprod"]
SPECIALS = st.sampled_from([np.nan, np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -2.0, 3.0])


def _numpy(name: str, a: np.ndarray, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return getattr(np, name)(a, *args, **kw)


@pytest.mark.parametrize("place", [None, "cpu"])
@pytest.mark.parametrize("name", FUNCS)
@given(data=st.data(), dtype=st.sampled_from(["float32", "float64", "int32", "complex128"]))
def test_matches_numpy(place, name, data, dtype) -> None:
    order = name in ("nanmax", "nanmin", "nanargmax", "nanargmin")
    elements = st.integers(-3, 3) if dtype == "int32" else complex_values() if dtype == "complex128" and order \
        else SPECIALS
    if dtype == "complex128" and "prod" in name:  # complex products of inf differ (darray multiplies by 1 first)
        elements = st.sampled_from([np.nan, 0.0, -1.5, 2.0])
    base, view = data.draw(viewed(dtype, elements=elements))
    a, x = view(base), view(da.asarray(base, device=place))
    axis = data.draw(st.sampled_from([None, *range(-a.ndim, a.ndim)]))
    tol = {"rtol": 1e-5, "atol": 1e-5}
    try:
        want = _numpy(name, a, axis)
    except ValueError:
        with pytest.raises(ValueError, match="darray"):
            getattr(da, name)(x, axis)
        return
    same = assert_exact if order and dtype == "complex128" else lambda got, want: assert_same(got, want, **tol)
    same(getattr(da, name)(x, axis), want)
    if name not in ("nancumsum", "nancumprod", "nanargmax", "nanargmin"):
        same(getattr(da, name)(x, axis=axis, keepdims=True), _numpy(name, a, axis=axis, keepdims=True))


@pytest.mark.parametrize("place", [None, "cpu"])
def test_keywords_out_and_all_nan(place) -> None:
    a = np.array([[np.nan, 1.0, 2.0], [np.nan, np.nan, np.nan]])
    x = da.asarray(a, device=place)
    out = da.empty(2, device=place)
    assert da.nanmax(x, 1, out) is out
    assert_same(out, _numpy("nanmax", a, 1))
    assert_same(da.nanmean(x, axis=1), _numpy("nanmean", a, axis=1))
    assert_same(da.nanvar(x, axis=1, ddof=1), _numpy("nanvar", a, axis=1, ddof=1))
    assert_same(da.nansum(x, axis=0, where=da.asarray([True, False, True], device=place)),
                np.nansum(a, axis=0, where=[True, False, True]))
    assert_same(da.nanmin(x, axis=1, initial=0.5), np.nanmin(a, axis=1, initial=0.5))
    with pytest.raises(ValueError, match="All-NaN"):
        da.nanargmax(x, axis=1)
    assert_same(da.nanargmax(x[:1], axis=1), np.nanargmax(a[:1], axis=1))  # the next call works
    assert isinstance(np.nansum(x), da.DArray)


@pytest.mark.parametrize("n", [7, 8, 9, 127, 128, 129, 2047, 2048, 2049, 4097])
def test_block_boundaries_through_strided_views(n) -> None:
    """Lengths around the reductions' lane and block sizes, NaN mixed in, read through reversed strided
    and transposed views."""
    rng = np.random.default_rng(n)
    base = rng.standard_normal((3, 2 * n + 1))
    base[rng.random(base.shape) < 0.1] = np.nan
    a, x = base[::-1, ::-2], da.asarray(base)[::-1, ::-2]
    for name in ("nansum", "nanmax", "nanmean", "nanvar", "nanargmin"):
        assert_same(getattr(da, name)(x, axis=1), _numpy(name, a, axis=1), rtol=1e-9, atol=1e-9)
        assert_same(getattr(da, name)(x.T, axis=0), _numpy(name, a.T, axis=0), rtol=1e-9, atol=1e-9)
    assert_same(da.nancumsum(x, axis=1), np.nancumsum(a, axis=1), rtol=1e-9, atol=1e-9)
    assert_same(da.nanmedian(x, axis=1), _numpy("nanmedian", a, axis=1))
    assert_same(da.percentile(x.T, [5, 95], axis=0), _numpy("percentile", a.T, [5, 95], axis=0))


@pytest.mark.parametrize("place", [None, "cpu"])
@pytest.mark.parametrize("name", ["nanmax", "nanmin"])
@given(dtype=st.sampled_from(["float16", "float32", "float64"]), data=st.data())
def test_signed_zero_ties_as_numpy(place, name, dtype, data) -> None:
    """Of -0.0 and 0.0 (equal), nanmax/nanmin give the first along the slice, as NumPy's fmax/fmin
    fold of a contiguous slice of up to 8 elements (beyond, or across outer axes, NumPy's SIMD loops
    choose, differently by width): over the last axis or all axes, with keepdims, bit for bit."""
    rows, cols = data.draw(st.integers(1, 3), label="rows"), data.draw(st.integers(1, 8), label="cols")
    a = np.array(data.draw(st.lists(st.sampled_from([0.0, -0.0, -0.0, np.nan, 1.0]), min_size=rows * cols,
                                    max_size=rows * cols), label="values"), dtype=dtype).reshape(rows, cols)
    axis = data.draw(st.sampled_from([-1, None] if a.size <= 8 else [-1]), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    assert_exact(getattr(da, name)(da.asarray(a, device=place), axis=axis, keepdims=keepdims),
                 _numpy(name, a, axis=axis, keepdims=keepdims))
