"""sliding_window_view and as_strided against NumPy, and darray's kernels reading such views."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same, viewed
from hypothesis import given
from hypothesis import strategies as st
from numpy.lib.stride_tricks import as_strided, sliding_window_view

import darray as da

ST = da.lib.stride_tricks


@pytest.mark.parametrize("place", [None, "cpu"])
@given(data=st.data())
def test_sliding_window_view(place, data) -> None:
    base, view = data.draw(viewed("float32", min_dims=1, max_side=7))
    a, x = view(base), view(da.asarray(base, device=place))
    axes = data.draw(st.lists(st.integers(0, a.ndim - 1), min_size=1, max_size=2, unique=True))
    window = [data.draw(st.integers(0, a.shape[ax])) for ax in axes]
    want = sliding_window_view(a, window, axes)
    got = ST.sliding_window_view(x, window, axes)
    assert_same(got, want)
    assert not got.flags.writeable and ST.sliding_window_view(x, window, axes, writeable=True).flags.writeable
    if want.size:  # kernels read the overlapping views right
        assert_same(got * 2 + 1, want * 2 + 1)
        assert_same(da.sum(got, axis=-1), np.sum(want, axis=-1), rtol=1e-5, atol=1e-5)
    assert_same(ST.sliding_window_view(x, a.shape), sliding_window_view(a, a.shape))


def test_as_strided_and_errors() -> None:
    a = np.arange(12, dtype=np.int32)
    x = da.asarray(a)
    assert_same(ST.as_strided(x, (3, 4), (16, 4)), as_strided(a, (3, 4), (16, 4)))
    assert_same(ST.as_strided(x, (5, 3), (8, 4)).sum(axis=1), as_strided(a, (5, 3), (8, 4)).sum(axis=1))
    assert_same(ST.as_strided(x[2:], (2, 2), (0, 4)), as_strided(a[2:], (2, 2), (0, 4)))
    with pytest.raises(ValueError, match="itemsize"):
        ST.as_strided(x, (2,), (2,))
    with pytest.raises(ValueError, match="outside"):
        ST.as_strided(x[6:], (4, 4), (4, 4))
    with pytest.raises(ValueError, match="larger"):
        ST.sliding_window_view(x, 13)
    with pytest.raises(ValueError, match="window_shape"):
        ST.sliding_window_view(x.reshape(3, 4), 2)
    assert isinstance(np.lib.stride_tricks.sliding_window_view(x, 3), da.DArray)
    assert ST.broadcast_to is da.broadcast_to
    for ours, theirs in ((ST.as_strided(x, (3,), (8,)), as_strided(a, (3,), (8,))),
                         (ST.as_strided(x, (3,), (8,), writeable=False), as_strided(a, (3,), (8,), writeable=False))):
        assert ours.flags.writeable == theirs.flags.writeable
