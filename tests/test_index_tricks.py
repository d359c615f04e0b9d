"""Index tricks against NumPy: r_, c_, mgrid, ogrid, ix_, indices, (un)ravel_index, the *_indices
functions, fill_diagonal and the shape questions."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

PLACES = [None, "cpu"]


@pytest.mark.parametrize("key", [
    lambda m: m[1:4, 0, [7, 8]], lambda m: m[-1:1:5j], lambda m: m["0,2,1", [1, 2, 3], [4, 5, 6]],
    lambda m: m["1,2,0", [1, 2, 3], [4, 5, 6]], lambda m: m["0,2", [1, 2], [[3, 4]]], lambda m: m[2.5, 1:3]],
    ids=["mixed", "points", "axis-ndmin-trans", "trans0", "ndmin", "float"])
def test_r_(key) -> None:
    assert_same(key(da.r_), key(np.r_))


def test_c_and_grids() -> None:
    assert_same(da.c_[da.asarray([1, 2, 3]), [4, 5, 6]], np.c_[[1, 2, 3], [4, 5, 6]])
    assert_same(da.c_[da.ones((2, 2)), da.zeros((2, 1))], np.c_[np.ones((2, 2)), np.zeros((2, 1))])
    for g, w in zip(da.mgrid[0:2, 0:5:2], np.mgrid[0:2, 0:5:2], strict=True):
        assert_same(g, w)
    for g, w in zip(da.ogrid[0:2, -1:1:3j], np.ogrid[0:2, -1:1:3j], strict=True):
        assert_same(g, w)
    assert_same(da.mgrid[0:3], np.mgrid[0:3])
    assert da.s_[1:2, ::3] == np.s_[1:2, ::3] and da.index_exp[2] == np.index_exp[2]
    assert_same(da.indices((2, 3)), np.indices((2, 3)))
    for g, w in zip(da.indices((2, 3), sparse=True), np.indices((2, 3), sparse=True), strict=True):
        assert_same(g, w)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), shape=st.lists(st.integers(1, 5), min_size=1, max_size=3), order=st.sampled_from("CF"))
def test_unravel_and_ravel_round_trip(place, data, shape, order) -> None:
    size = int(np.prod(shape))
    flat = np.array(data.draw(st.lists(st.integers(0, size - 1), max_size=6)), dtype=np.int64)
    got = da.unravel_index(da.asarray(flat, device=place), shape, order)
    want = np.unravel_index(flat, shape, order)
    for g, w in zip(got, want, strict=True):
        assert_same(g, w)
    assert_same(da.ravel_multi_index(got, shape, order=order), np.ravel_multi_index(want, shape, order=order))
    big = [np.asarray(w) + n for w, n in zip(want, shape)]
    for mode in ("wrap", "clip"):
        assert_same(da.ravel_multi_index([da.asarray(b, device=place) for b in big], shape, mode=mode),
                    np.ravel_multi_index(big, shape, mode=mode))
    with pytest.raises(ValueError, match="out of bounds"):
        da.unravel_index(da.asarray([size], device=place), shape)
    if flat.size:
        with pytest.raises(ValueError, match="invalid entry"):
            da.ravel_multi_index([da.asarray(b, device=place) for b in big], shape)


def test_ix_and_index_functions() -> None:
    a = np.arange(20).reshape(4, 5)
    x = da.asarray(a)
    rows, cols = da.ix_([0, 3], da.asarray([True, False, True, False, True]))
    assert_same(x[rows, cols], a[np.ix_([0, 3], [True, False, True, False, True])])
    for f, args in [("tril_indices", (4, 1)), ("triu_indices", (3, -1, 5)), ("diag_indices", (3, 3))]:
        for g, w in zip(getattr(da, f)(*args), getattr(np, f)(*args), strict=True):
            assert_same(g, w)
    for f in ("tril_indices_from", "triu_indices_from"):
        for g, w in zip(getattr(da, f)(x, 1), getattr(np, f)(a, 1), strict=True):
            assert_same(g, w)
    for g, w in zip(da.diag_indices_from(da.zeros((3, 3, 3))), np.diag_indices_from(np.zeros((3, 3, 3))),
                    strict=True):
        assert_same(g, w)
    for g, w in zip(da.mask_indices(3, da.triu, 1), np.mask_indices(3, np.triu, 1), strict=True):
        assert_same(g, w)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), wrap=st.booleans())
def test_fill_diagonal(place, data, wrap) -> None:
    base, view = data.draw(viewed("float32", min_dims=2, max_dims=2, max_side=7))
    a, x = view(base), view(da.asarray(base, device=place))
    val = data.draw(st.sampled_from([3.5, [1.0, 2.0], [9.0]]))
    np.fill_diagonal(a, val, wrap=wrap)
    da.fill_diagonal(x, val, wrap=wrap)
    assert_same(x, a)


def test_shape_questions() -> None:
    x = da.zeros((2, 3))
    assert da.shape(x) == (2, 3) and da.ndim(x) == 2 and da.size(x) == 6 and da.size(x, 1) == 3
    assert da.shape([[1, 2]]) == (1, 2) and da.ndim(5) == 0 and da.size([1, 2, 3]) == 3
    assert da.isscalar(3.0) and not da.isscalar(x) and not da.isscalar(da.asarray(1.0))
    assert da.iterable(x) and not da.iterable(da.asarray(1.0)) and not da.iterable(3)
    assert da.broadcast_shapes((2, 1), 3, (1, 1, 1)) == (1, 2, 3)
    assert list(da.ndindex(2, 1)) == [(0, 0), (1, 0)]
    assert [(i, float(v)) for i, v in da.ndenumerate(da.asarray([[1.0, 2.0]]))] == [((0, 0), 1.0), ((0, 1), 2.0)]
