"""Window functions against NumPy's."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same

import darray as da


@pytest.mark.parametrize("name", ["hanning", "hamming", "blackman", "bartlett"])
@pytest.mark.parametrize("m", [-1, 0, 1, 2, 7, 64])
def test_windows(name, m) -> None:
    assert_same(getattr(da, name)(m), getattr(np, name)(m), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("m,beta", [(0, 1.0), (1, 5.0), (12, 14.0), (31, 0.0), (50, 40.0)])
def test_kaiser(m, beta) -> None:
    assert_same(da.kaiser(m, beta), np.kaiser(m, beta), rtol=1e-11, atol=1e-12)
    assert da.kaiser(m, beta, device="cpu").place == da.place.parse("cpu")
