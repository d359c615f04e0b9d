"""concatenate, the stack and split families, block, append, insert and delete against NumPy."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import assert_same, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

PLACES = [None, "cpu"]


def _pair(data, place, dtype="int32", min_dims=0):
    base, view = data.draw(viewed(dtype, min_dims=min_dims, elements=st.integers(-50, 50)))
    return view(base), view(da.asarray(base, device=place))


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("name", ["hstack", "vstack", "dstack", "column_stack", "concatenate", "stack"])
@given(data=st.data())
def test_stack_families(place, name, data) -> None:
    a, x = _pair(data, place, min_dims=0 if name != "concatenate" else 1)
    b = a.astype(np.float32) * 2
    y = da.asarray(b, device=place)
    if name == "column_stack" and a.ndim > 2:
        return
    try:
        want = getattr(np, name)([a, b, a])
    except ValueError:
        with pytest.raises(ValueError):
            getattr(da, name)([x, y, x])
        return
    assert_same(getattr(da, name)([x, y, x]), want)
    assert_same(getattr(da, name)((x, x)), getattr(np, name)((a, a)))


@pytest.mark.parametrize("place", PLACES)
def test_concatenate_and_stack_keywords(place) -> None:
    a = np.arange(6).reshape(2, 3)
    x = da.asarray(a, device=place)
    assert_same(da.concatenate([x, x], 1), np.concatenate([a, a], 1))
    assert_same(da.concatenate([x, x], axis=None, dtype=np.float32), np.concatenate([a, a], axis=None,
                                                                                  dtype=np.float32))
    out = da.empty((4, 3), dtype=da.float64, device=place)
    assert da.concatenate((x, x), out=out) is out
    assert_same(out, np.concatenate((a, a)).astype(float))
    with pytest.raises(TypeError, match="Cannot cast"):
        da.concatenate([x, x], dtype=np.int8, casting="safe")
    assert_same(da.stack([x, x], 1), np.stack([a, a], 1))
    assert_same(da.stack([x, x], -1, dtype=np.float32), np.stack([a, a], -1, dtype=np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert_same(da.row_stack([x, x]), np.vstack([a, a]))
    with pytest.raises(TypeError, match="sequence"):
        da.hstack(x)


@pytest.mark.parametrize("place", PLACES)
def test_block(place) -> None:
    a, b = np.ones((2, 2)), np.zeros((2, 3))
    x, y = da.asarray(a, device=place), da.asarray(b, device=place)
    assert_same(da.block([[x, y], [y, np.ones((2, 2))]]),
                np.block([[a, b], [b, np.ones((2, 2))]]))
    assert_same(da.block([x, x]), np.block([a, a]))
    assert_same(da.block([[1, 2], [3, 4]]), np.block([[1, 2], [3, 4]]))
    assert_same(da.block([[[x]], [[x]]]), np.block([[[a]], [[a]]]))
    with pytest.raises(ValueError, match="depths"):
        da.block([[x], x])
    with pytest.raises(TypeError, match="tuple"):
        da.block((x, x))
    with pytest.raises(ValueError, match="empty"):
        da.block([])


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data())
def test_split_families(place, data) -> None:
    a, x = _pair(data, place, min_dims=1)
    for name, least, axis in [("hsplit", 1, 1 if a.ndim > 1 else 0), ("vsplit", 2, 0), ("dsplit", 3, 2)]:
        if a.ndim < least:
            with pytest.raises(ValueError):
                getattr(da, name)(x, 1)
            continue
        n = a.shape[axis]
        spec = data.draw(st.sampled_from([1, [1], [0, 2], [n]]))
        for g, w in zip(getattr(da, name)(x, spec), getattr(np, name)(a, spec), strict=True):
            assert_same(g, w)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data())
def test_append_insert_delete(place, data) -> None:
    a, x = _pair(data, place, min_dims=1)
    axis = data.draw(st.sampled_from([None, *range(-a.ndim, a.ndim)]))
    n = a.size if axis is None else a.shape[axis]
    assert_same(da.append(x, x, axis=axis), np.append(a, a, axis=axis))
    obj = data.draw(st.one_of(st.integers(-n, n), st.lists(st.integers(-n, n), max_size=4),
                              st.builds(slice, st.integers(-3, 3) | st.none(), st.integers(-3, 3) | st.none())))
    values = data.draw(st.sampled_from([7, [1, 2], -3.9]))
    try:
        want = np.insert(a, obj, values, axis=axis)
    except (ValueError, IndexError) as err:
        with pytest.raises(type(err)):
            da.insert(x, obj, values, axis=axis)
    else:
        assert_same(da.insert(x, obj, values, axis=axis), want)
    dobj = obj if isinstance(obj, slice) else (np.clip(np.asarray(obj, dtype=np.int64), -n, n - 1) if n else [])
    try:
        want = np.delete(a, dobj, axis=axis)
    except IndexError:
        with pytest.raises(IndexError):
            da.delete(x, dobj, axis=axis)
    else:
        assert_same(da.delete(x, dobj, axis=axis), want)
    if n:
        mask = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
        assert_same(da.delete(x, np.array(mask), axis=axis), np.delete(a, np.array(mask), axis=axis))
        assert isinstance(np.delete(x, 0, axis=axis), da.DArray)
