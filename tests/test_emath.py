"""``darray.emath`` against ``numpy.emath``: complex results for real inputs outside the domain."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

UNARY = ["sqrt", "log", "log10", "log2", "arccos", "arcsin", "arctanh"]


@pytest.mark.parametrize("place", [None, "cpu"])
@pytest.mark.parametrize("name", UNARY)
@given(data=st.data(), dtype=st.sampled_from(["float32", "float64", "int16", "int64", "complex64"]))
def test_unary_matches_numpy(place, name, data, dtype) -> None:
    base, view = data.draw(viewed(dtype, elements=st.integers(-3, 3)))
    with np.errstate(all="ignore"):
        want = getattr(np.emath, name)(view(base))
    got = getattr(da.emath, name)(view(da.asarray(base, device=place)))
    tol = 1e-5 if want.dtype in (np.complex64, np.float32) else 1e-12
    assert_same(got, np.asarray(want), rtol=tol, atol=tol)


@pytest.mark.parametrize("place", [None, "cpu"])
def test_power_and_logn(place) -> None:
    x = np.array([-4.0, -1.0, 0.5, 2.0])
    p = np.array([2, -1, 3, -2])
    dx, dp = da.asarray(x, device=place), da.asarray(p, device=place)
    assert_same(da.emath.power(dx, dp), np.emath.power(x, p), rtol=1e-12, atol=1e-12)
    assert_same(da.emath.power(da.asarray([2, 3], device=place), da.asarray([-1, 2], device=place)),
                np.emath.power(np.array([2, 3]), np.array([-1, 2])), rtol=1e-12, atol=1e-12)
    assert_same(da.emath.logn(2, dx), np.emath.logn(2, x), rtol=1e-12, atol=1e-12)
    assert np.emath.sqrt(da.asarray([-1.0], device=place)) is not None
