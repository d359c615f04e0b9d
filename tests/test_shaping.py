"""atleast_*, rot90, fliplr/flipud, rollaxis, resize, trim_zeros, require, apply_along/over_axes and
the memory-sharing questions against NumPy."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

PLACES = [None, "cpu"]


def _pair(data, place, min_dims=0):
    base, view = data.draw(viewed("int16", min_dims=min_dims, elements=st.integers(-3, 3)))
    return view(base), view(da.asarray(base, device=place))


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data())
def test_views_match_numpy(place, data) -> None:
    a, x = _pair(data, place)
    for name in ("atleast_1d", "atleast_2d", "atleast_3d"):
        assert_same(getattr(da, name)(x), getattr(np, name)(a))
        for g, w in zip(getattr(da, name)(x, x), getattr(np, name)(a, a), strict=True):
            assert_same(g, w)
    if a.ndim >= 2:
        k = data.draw(st.integers(-5, 5))
        axes = tuple(data.draw(st.permutations(range(a.ndim)))[:2])
        assert_same(da.rot90(x, k, axes), np.rot90(a, k, axes))
        assert_same(da.fliplr(x), np.fliplr(a))
    if a.ndim:
        assert_same(da.flipud(x), np.flipud(a))
        axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
        start = data.draw(st.integers(-a.ndim, a.ndim))
        assert_same(da.rollaxis(x, axis, start), np.rollaxis(a, axis, start))
    else:
        with pytest.raises(ValueError, match="flipud"):
            da.flipud(x)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), shape=st.lists(st.integers(0, 4), max_size=3))
def test_resize_and_trim_zeros(place, data, shape) -> None:
    a, x = _pair(data, place)
    assert_same(da.resize(x, shape), np.resize(a, shape))
    if a.ndim:
        trim = data.draw(st.sampled_from(["f", "b", "fb", "FB"]))
        axis = data.draw(st.sampled_from([None, *range(a.ndim)]))
        assert_same(da.trim_zeros(x, trim, axis=axis), np.trim_zeros(a, trim, axis=axis))


@pytest.mark.parametrize("place", PLACES)
def test_require_apply_and_sharing(place) -> None:
    a = np.arange(12.0).reshape(3, 4)
    x = da.asarray(a, device=place)
    assert da.require(x[:, ::2], requirements="C").flags.c_contiguous
    assert da.require(x, np.float32).dtype == np.float32 and da.require(x, requirements=["O"]) is x
    assert da.require(x[1:], requirements="O").flags.owndata
    with pytest.raises(KeyError):
        da.require(x, requirements="Q")
    assert_same(da.apply_along_axis(lambda r: r * 2 + r.sum(), 1, x), np.apply_along_axis(lambda r: r * 2 + r.sum(),
                                                                                           1, a))
    assert_same(da.apply_along_axis(lambda r: da.stack([r.min(), r.max()]) if isinstance(r, da.DArray)
                                    else np.stack([r.min(), r.max()]), 0, x),
                np.apply_along_axis(lambda r: np.stack([r.min(), r.max()]), 0, a))
    assert_same(da.apply_over_axes(da.sum, x, [0, 1]), np.apply_over_axes(np.sum, a, [0, 1]))
    assert da.shares_memory(x, x[1:]) and da.may_share_memory(x[:1], x[:2])
    assert not da.shares_memory(x[:1], x[1:]) and not da.shares_memory(x, da.asarray(a, device=place))
    views = [lambda m: m[:, ::2], lambda m: m[:, 1::2], lambda m: m[:, 0], lambda m: m.T[::-1], lambda m: m[1::2]]
    for f in views:  # exactly NumPy's answers: interleaved views share no element
        for g in views:
            assert da.shares_memory(f(x), g(x)) == np.shares_memory(f(a), g(a))
            assert da.may_share_memory(f(x), g(x)) == np.may_share_memory(f(a), g(a))
    assert not da.isfortran(x) and da.isfortran(x.T)
