"""take, take_along_axis and put (darray.ops.taking) against NumPy: random shapes, axes and
indices, NumPy's casting of the indices, bounds, on both places."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import DEVICE_DTYPES, arrays, assert_same, shapes
from hypothesis import given
from hypothesis import strategies as st

import darray as da


@given(shape=shapes(1, 4, min_side=1), dtype=st.sampled_from(DEVICE_DTYPES), data=st.data())
def test_take_and_take_along_axis(any_place, shape, dtype, data):
    if dtype in (np.float64, np.complex128) and any_place.kind == "cl" and \
            not da.place.get_device_properties(any_place.index)["fp64"]:
        return
    host = data.draw(arrays(dtype, st.just(shape)))
    x = da.asarray(host, device=any_place)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    idx = data.draw(arrays(np.int64, st.just((data.draw(st.integers(0, 5)),)), elements=st.integers(-n, n - 1)))
    assert_same(da.take(x, idx, axis=axis), np.take(host, idx, axis=axis))
    flat = data.draw(arrays(np.int64, st.just((3,)), elements=st.integers(-host.size, host.size - 1)))
    assert_same(da.take(x, flat), np.take(host, flat))
    along_shape = list(shape)
    along_shape[axis] = data.draw(st.integers(0, 4))
    along = data.draw(arrays(np.int64, st.just(tuple(along_shape)), elements=st.integers(-n, n - 1)))
    assert_same(da.take_along_axis(x, da.asarray(along, device=any_place), axis=axis),
                np.take_along_axis(host, along, axis=axis))


def test_take_along_axis_with_argsort_like_indices(any_place):
    host = np.random.default_rng(3).standard_normal((4, 6)).astype(np.float32)
    order = np.argsort(host, axis=1)
    assert_same(da.take_along_axis(da.asarray(host, device=any_place), order, axis=1),
                np.take_along_axis(host, order, axis=1))
    with pytest.raises(ValueError, match="take_along_axis"):
        da.take_along_axis(da.asarray(host, device=any_place), order[0], axis=1)


@pytest.mark.parametrize("indices", [np.array([1.0, 2.0]), np.array([1 + 0j]), np.array(2.0)], ids=str)
def test_take_and_put_float_indices_are_type_errors(any_place, indices):
    """NumPy casts take's and put's indices to intp ('same_kind', 'safe'): a float or complex
    array of them is a TypeError, in darray too (as a DArray or a NumPy array); the next call works."""
    host = np.arange(6.0)
    x = da.asarray(host, device=any_place)
    for idx in (indices, da.asarray(indices, device=any_place)):
        with pytest.raises(TypeError):
            np.take(host, indices)
        with pytest.raises(TypeError, match="darray take: .*int64"):
            da.take(x, idx)
        with pytest.raises(TypeError):
            np.put(host.copy(), indices, 0.0)
        with pytest.raises(TypeError, match="darray put: .*int64"):
            da.put(x, idx, 0.0)
    assert_same(x, host)
    assert_same(da.take(x, np.array([4, -1])), np.take(host, [4, -1]))


def test_take_and_put_bool_indices_count_as_integers(any_place):
    """NumPy casts bool indices of take and put to 0 and 1 (not a mask)."""
    host = np.arange(12.0).reshape(3, 4)
    flags = np.array([True, False, True])
    x = da.asarray(host, device=any_place)
    for idx in (flags, da.asarray(flags, device=any_place)):
        assert_same(da.take(x, idx, axis=0), np.take(host, flags, axis=0))
        assert_same(da.take(x, idx), np.take(host, flags))
    want = host.copy()
    np.put(want, flags[1:], [7.0, 8.0])  # distinct positions 0 and 1 (repeated ones land unspecified)
    da.put(x, da.asarray(flags[1:], device=any_place), da.asarray([7.0, 8.0], device=any_place))
    assert_same(x, want)


@given(shape=shapes(0, 3), data=st.data())
def test_put(any_place, shape, data):
    host = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    if not host.size:
        return
    # distinct elements (repeated ones: which value lands is unspecified, see the module docstring)
    idx = data.draw(st.lists(st.integers(-host.size, host.size - 1), min_size=1, max_size=5,
                             unique_by=lambda i: i % host.size))
    vals = data.draw(st.lists(st.floats(-9, 9), min_size=1, max_size=7))
    want = host.copy()
    np.put(want, idx, vals)
    x = da.asarray(host, device=any_place)
    da.put(x, idx, vals)
    assert_same(x, want)
    with pytest.raises(IndexError):
        da.put(x, [host.size], [1.0])
    assert_same(x, want)
