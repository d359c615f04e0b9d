"""Window functions against NumPy's."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same
from hypothesis import given
from hypothesis import strategies as st

import darray as da


@pytest.mark.parametrize("name", ["hanning", "hamming", "blackman", "bartlett"])
@pytest.mark.parametrize("m", [-1, 0, 1, 2, 7, 64])
def test_windows(name, m) -> None:
    assert_same(getattr(da, name)(m), getattr(np, name)(m), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("m,beta", [(0, 1.0), (1, 5.0), (12, 14.0), (31, 0.0), (50, 40.0)])
def test_kaiser(m, beta) -> None:
    assert_same(da.kaiser(m, beta), np.kaiser(m, beta), rtol=1e-11, atol=1e-12)
    assert da.kaiser(m, beta, device="cpu").place == da.place.parse("cpu")


WINDOWS = ["hanning", "hamming", "blackman", "bartlett"]
SIZES = st.one_of(st.integers(-3, 3), st.integers(4, 300), st.sampled_from([np.int32(5), np.int64(0), np.int64(17)]))


@pytest.mark.parametrize("place", [None, "cpu"])
@given(name=st.sampled_from(WINDOWS), m=SIZES, keyword=st.booleans())
def test_windows_property(place, name, m, keyword) -> None:
    got = getattr(da, name)(M=m, device=place) if keyword else getattr(da, name)(m, device=place)
    assert_same(got, getattr(np, name)(m), rtol=1e-12, atol=1e-12)
    assert got.place == da.place.parse(place)


@pytest.mark.parametrize("place", [None, "cpu"])
@given(m=SIZES, beta=st.one_of(st.floats(-60.0, 60.0), st.integers(0, 30), st.sampled_from([-0.0, np.nan, np.inf])),
       keyword=st.booleans())
def test_kaiser_property(place, m, beta, keyword) -> None:
    got = da.kaiser(M=m, beta=beta, device=place) if keyword else da.kaiser(m, beta, device=place)
    with np.errstate(invalid="ignore"):  # NumPy warns for NaN and infinite beta (0 * inf); darray does not
        want = np.kaiser(m, beta)
    assert_same(got, want, rtol=1e-10, atol=1e-12)
    assert got.place == da.place.parse(place)
