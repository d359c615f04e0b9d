"""take, take_along_axis, put, put_along_axis and repeat (darray.ops.taking, and the users of its
conversions) against NumPy: drawn shapes, views, axes, indices in and out of range under each
mode, NumPy's conversion of indices and values, its errors, on both places."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import DEVICE_DTYPES, arrays, assert_same, shapes, viewed
from hypothesis import assume, given
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


def _outcome(call, xp):
    """``call(xp)``'s result, or the class of the exception it raises (and darray's names the op)."""
    try:
        return call(xp)
    except (IndexError, ValueError, TypeError, OverflowError) as err:
        return type(err), str(err)


def check_like_numpy(call, op: str) -> None:
    """``call(da)`` gives ``call(np)``'s result, or raises its exception class with a message naming ``op``."""
    want, got = _outcome(call, np), _outcome(call, da)
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and got[0] is want[0], (got, want)
        assert f"darray {op}" in got[1], got[1]
    else:
        assert not isinstance(got, tuple), got
        assert_same(got, want)


def _indices(data, n: int, label: str):
    """Indices in and out of range (``n`` the length they index), as NumPy's take and put accept
    them: an int, a list (of ints, or of floats, which NumPy truncates) or an int array."""
    wide = st.integers(-2 * n - 2, 2 * n + 2)
    form = data.draw(st.sampled_from(["int", "list", "floats", "array", "uint8"]), label=f"{label} form")
    if form == "int":
        return data.draw(wide, label=label)
    values = data.draw(st.lists(wide, max_size=6), label=label)
    if form == "floats":
        return [v + 0.5 for v in values]
    return values if form == "list" else np.array(np.abs(values) if form == "uint8" else values,
                                                  np.uint8 if form == "uint8" else np.int64)


@given(data=st.data())
def test_take_modes_match_numpy(any_place, data):
    """take of drawn views (0-d counts as 1-d), axes and indices under each mode: NumPy's values,
    or its exception class (IndexError out of range, naming take); ``out=`` of another dtype."""
    base, view = data.draw(viewed(np.float32, max_dims=3), label="a")
    a = view(base)
    axis = data.draw(st.none() | st.integers(-max(a.ndim, 1), max(a.ndim, 1) - 1), label="axis")
    n = a.size if axis is None or a.ndim == 0 else a.shape[axis]
    idx = _indices(data, n, "indices")
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]), label="mode")
    # NumPy 2.4's take never returns for 'wrap' over an axis of length 0 whose result is empty (its
    # wrapping loop steps by the axis length): no reference to compare with
    assume(not (mode == "wrap" and n == 0))
    d = view(da.asarray(base, device=any_place))
    check_like_numpy(lambda xp: xp.take(a if xp is np else d, idx, axis, None, mode), "take")
    check_like_numpy(lambda xp: (a if xp is np else d).take(idx, axis, mode=mode), "take")
    want = _outcome(lambda xp: np.take(a, idx, axis, mode=mode), np)
    if not isinstance(want, tuple):
        dtype = data.draw(st.sampled_from([np.float64, np.int16, np.bool_, np.complex64]), label="out dtype")
        check_like_numpy(lambda xp: (lambda out: (xp.take(a if xp is np else d, idx, axis, out, mode), out)[1])(
            xp.zeros(np.shape(want), dtype, **({} if xp is np else {"device": any_place}))), "take")


@given(data=st.data())
def test_put_modes_match_numpy(any_place, data):
    """put under each mode with drawn indices (distinct positions: which of repeated ones lands is
    unspecified) and values (fewer, more or none; lists or arrays of another dtype, cast unsafely)."""
    dtype = data.draw(st.sampled_from([np.float32, np.int32]), label="dtype")
    host = np.arange(data.draw(st.integers(0, 12), label="size"), dtype=dtype)
    host = host.reshape(data.draw(st.sampled_from([(-1,), (1, -1)]), label="shape")) if host.size else host
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]), label="mode")
    n = host.size

    def spot(i: int) -> int:
        return i % n if mode == "wrap" or -n <= i < n else (min(max(i, 0), n - 1) if mode == "clip" else i)
    idx = data.draw(st.lists(st.integers(-2 * n - 2, 2 * n + 2), max_size=5, unique_by=spot if n else None),
                    label="indices")
    vals = data.draw(st.lists(st.floats(-9, 9, width=32), max_size=7), label="values")
    form = data.draw(st.sampled_from(["list", "float64", "int8"]), label="values form")
    v = vals if form == "list" else np.array(vals, form)
    x = da.asarray(host, device=any_place)
    check_like_numpy(lambda xp: (xp.put(host.copy() if xp is np else x, idx, v, mode), None)[1], "put")
    want = host.copy()
    if not isinstance(_outcome(lambda xp: np.put(want, idx, v, mode), np), tuple):
        assert_same(x, want)
        y = da.asarray(host, device=any_place)
        y.put(idx, v, mode)
        assert_same(y, want)


@given(data=st.data())
def test_repeat_matches_numpy(any_place, data):
    """repeat and x.repeat with NumPy's positional (a, repeats, axis): counts as an int, a float
    (truncated), a list or an array (uint64 is a TypeError, by the 'safe' rule); 0-d counts as 1-d."""
    base, view = data.draw(viewed(np.int16, max_dims=3), label="a")
    a = view(base)
    axis = data.draw(st.none() | st.integers(-max(a.ndim, 1), max(a.ndim, 1) - 1), label="axis")
    n = a.size if axis is None or a.ndim == 0 else a.shape[axis]
    form = data.draw(st.sampled_from(["int", "float", "list", "int64", "uint64"]), label="form")
    counts = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n) if form != "int" else
                       st.integers(-1, 3), label="repeats")
    reps = counts if form in ("int", "list") else np.array(counts, form) if form != "float" else \
        (counts[0] if counts else 1) + 0.5
    d = view(da.asarray(base, device=any_place))
    check_like_numpy(lambda xp: xp.repeat(a if xp is np else d, reps, axis), "repeat")
    check_like_numpy(lambda xp: (a if xp is np else d).repeat(reps, axis), "repeat")


@given(data=st.data())
def test_along_axis_match_numpy(any_place, data):
    """take_along_axis and put_along_axis (axis=None included: 1-d indices into the flattened
    array), broadcast indices and values, values cast unsafely, NumPy's errors."""
    base, view = data.draw(viewed(np.float64, min_dims=1, max_dims=3), label="arr")
    arr = view(base)
    axis = data.draw(st.none() | st.integers(-arr.ndim, arr.ndim - 1), label="axis")
    n = arr.size if axis is None else arr.shape[axis]
    shape = (data.draw(st.integers(0, 4)),) if axis is None else \
        tuple(data.draw(st.sampled_from([1, s])) if d != axis % arr.ndim else data.draw(st.integers(0, 3))
              for d, s in enumerate(arr.shape))
    idx = data.draw(arrays(np.int64, st.just(shape), elements=st.integers(-n - 1, n)), label="indices")
    d = view(da.asarray(base, device=any_place))
    check_like_numpy(lambda xp: xp.take_along_axis(arr if xp is np else d, idx, axis), "take_along_axis")
    values = data.draw(st.sampled_from([2.5, np.array([-1.5 + 2j]), np.arange(idx.size, dtype=np.int8).reshape(
        idx.shape)]), label="values")  # values that fit: a misfit with a bad index raises another class first
    target = da.asarray(arr, device=any_place)
    want = arr.copy()
    if idx.size and not (idx.size == np.unique(np.where(idx < 0, idx + n, idx)).size or axis is not None):
        return  # repeated flat positions: which value lands is unspecified
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        check_like_numpy(lambda xp: (xp.put_along_axis(want if xp is np else target, idx, values, axis), None)[1],
                         "put_along_axis")
    assert_same(target, want)


def test_take_wrap_over_an_empty_axis():
    """'wrap' over an axis of length 0: an empty result where the other axes are empty (NumPy 2.4 never
    returns there), else NumPy's IndexError naming take."""
    got = da.take(da.zeros((0, 0, 2), dtype=da.float32), np.array([2, 0, 2]), 0, mode="wrap")
    assert got.shape == (3, 0, 2)
    with pytest.raises(IndexError, match="darray take"):
        da.take(da.zeros((0, 2), dtype=da.float32), [1], 0, mode="wrap")
    with pytest.raises(IndexError):
        np.take(np.zeros((0, 2), np.float32), [1], 0, mode="wrap")
