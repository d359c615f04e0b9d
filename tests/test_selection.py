"""Selection and partitioning (darray/ops/selection.py) against NumPy, on both places: partition
properties, lexsort, sort_complex, argwhere/flatnonzero/extract, select/choose/compress,
piecewise, and the in-place writers place/putmask/put_along_axis/copyto."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import arrays, assert_exact, assert_same, check, check_view, complex_values, shapes, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

DTYPES = [np.dtype(t) for t in ("bool", "int8", "uint16", "int64", "float32", "float64", "complex64")]
SPECIAL = st.sampled_from([0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan])


def _elements(dtype: np.dtype):
    return SPECIAL if dtype.kind in "fc" else None


@given(data=st.data())
def test_partition_property(any_place, data):
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    base, view = data.draw(viewed(dtype, min_dims=1, elements=_elements(dtype)), label="x")
    x = view(base)
    if x.size == 0:
        return
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    kth = data.draw(st.integers(-x.shape[axis], x.shape[axis] - 1), label="kth")
    want = np.sort(x, axis, kind="stable")
    got = da.partition(view(da.asarray(base, device=any_place)), kth, axis)
    assert_same(np.take(got.get(), kth, axis), np.take(want, kth, axis))
    idx = da.argpartition(view(da.asarray(base, device=any_place)), [kth], axis=axis)
    assert idx.dtype == np.int64
    assert_same(np.take(np.take_along_axis(x, idx.get(), axis), kth, axis), np.take(want, kth, axis))


@given(data=st.data())
def test_complex_order(any_place, data):
    """partition, argpartition, lexsort and sort_complex of complex with NaN, inf and -0.0 in either
    part, in NumPy's order (the kth value compared without the sign of its zeros: NumPy's
    introselect leaves equal values in any order)."""
    dtype = data.draw(st.sampled_from([np.complex64, np.complex128]), label="dtype")
    base, view = data.draw(viewed(dtype, min_dims=1, elements=complex_values()), label="x")
    x, xd = view(base), view(da.asarray(base, device=any_place))
    assert_exact(da.sort_complex(xd).get() + 0, np.sort_complex(x) + 0)
    if x.size:
        axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
        kth = data.draw(st.integers(-x.shape[axis], x.shape[axis] - 1), label="kth")
        want = np.take(np.partition(x, kth, axis), kth, axis) + 0
        assert_exact(np.take(da.partition(xd, kth, axis).get(), kth, axis) + 0, want)
        picked = np.take_along_axis(x, da.argpartition(xd, kth, axis).get(), axis)
        assert_exact(np.take(picked, kth, axis) + 0, want)
    keys = [x, data.draw(arrays(dtype, x.shape, elements=complex_values()), label="key")]
    assert_exact(da.lexsort([da.asarray(k, device=any_place) for k in keys]), np.lexsort(keys))


def test_partition_errors(any_place):
    x = da.asarray([3, 1, 2], device=any_place)
    with pytest.raises(ValueError, match="darray partition: kth"):
        da.partition(x, 3)
    with pytest.raises(ValueError, match="darray argpartition: select kind"):
        da.argpartition(x, 1, kind="quick")
    with pytest.raises(TypeError, match="darray partition"):
        da.partition(x, 1.0)
    assert_same(da.partition(x, -1, axis=None), np.array([1, 2, 3]))
    assert isinstance(np.partition(x, 1), da.DArray)


@given(data=st.data())
def test_lexsort(any_place, data):
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    shape = data.draw(shapes(1, 2, 0, 6), label="shape")
    keys = [data.draw(arrays(dtype, shape, elements=_elements(dtype) if dtype.kind == "f" else None))
            for _ in range(data.draw(st.integers(1, 3)))]
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    got = da.lexsort([da.asarray(k, device=any_place) for k in keys], axis)
    assert_same(got, np.lexsort(keys, axis))
    assert_same(da.lexsort(da.asarray(np.stack(keys), device=any_place), axis=axis), np.lexsort(np.stack(keys), axis))


def test_lexsort_errors(any_place):
    with pytest.raises(TypeError, match="darray lexsort"):
        da.lexsort([])
    with pytest.raises(ValueError, match="darray lexsort: all keys"):
        da.lexsort([da.asarray([1, 2], device=any_place), da.asarray([1], device=any_place)])
    assert isinstance(np.lexsort(da.asarray([[1, 0]], device=any_place)), da.DArray)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "float32", "float64", "complex64"])
def test_sort_complex(any_place, dtype):
    x = np.array([[3, 1, -2], [0, 2, 1]]).astype(dtype)
    check(lambda xp, v: xp.sort_complex(v), x, place=any_place)
    check(lambda xp, v: xp.sort_complex(v.T), x, place=any_place)


@given(data=st.data())
def test_nonzero_family(any_place, data):
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    base, view = data.draw(viewed(dtype, elements=_elements(dtype)), label="x")
    check_view(lambda xp, v: xp.argwhere(v), base, view, place=any_place)
    check_view(lambda xp, v: xp.flatnonzero(v), base, view, place=any_place)
    check_view(lambda xp, v: xp.extract(v, v), base, view, place=any_place)
    if view(base).ndim == 1:
        check_view(lambda xp, v: xp.compress(v, v), base, view, place=any_place)


@pytest.mark.parametrize("shape", [(5,), (2, 3)])
def test_compress_axes(any_place, shape):
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) - 1
    check(lambda xp, v: xp.compress([True, False, True], v), x, place=any_place)
    if x.ndim == 2:
        check(lambda xp, v: xp.compress(np.array([False, True]), v, axis=0), x, place=any_place)
        check(lambda xp, v: xp.compress([1, 0, 1], v, 1), x, place=any_place)
        out = da.zeros((1, 3), dtype=da.float32, device=any_place)
        assert da.compress([False, True], da.asarray(x, device=any_place), 0, out) is out
        assert_same(out, x[1:])
    with pytest.raises(ValueError, match="darray compress: condition"):
        da.compress([[True]], da.asarray(x, device=any_place))


@given(data=st.data())
def test_select(any_place, data):
    dtype = data.draw(st.sampled_from([d for d in DTYPES if d.kind != "u"]), label="dtype")
    x = data.draw(arrays(dtype, shapes(0, 2, 0, 4), elements=_elements(dtype)), label="x")
    default = data.draw(st.sampled_from([0, -1.5, True]), label="default")
    check(lambda xp, v: xp.select([v > 0, v == 0], [v, 3], default), x, place=any_place)
    check(lambda xp, v: xp.select([v < 1], [v], default=default), x, place=any_place)


def test_select_errors(any_place):
    x = da.asarray([1, 2], device=any_place)
    with pytest.raises(ValueError, match="darray select: list of cases"):
        da.select([x > 1], [x, x])
    with pytest.raises(ValueError, match="darray select: select with an empty"):
        da.select([], [])
    with pytest.raises(TypeError, match="darray select: invalid entry 0"):
        da.select([x], [x])
    assert isinstance(np.select([x > 1], [x]), da.DArray)
    assert_same(da.select([x > 1], [x]), np.array([0, 2]))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_choose(any_place, mode):
    pick = np.array([[0, 2, 1], [1, 0, 2]], np.int8) if mode == "raise" else np.array([[-4, 2, 7], [1, 0, 3]])
    choices = [np.arange(3, dtype=np.float32), np.float32(-1), np.array([[10], [20]], np.int16)]
    want = np.choose(pick, choices, mode=mode)
    got = da.choose(da.asarray(pick, device=any_place), [da.asarray(c, device=any_place) for c in choices],
                    mode=mode)
    assert_same(got, want)
    out = da.zeros(want.shape, dtype=da.float64, device=any_place)
    assert da.choose(da.asarray(pick, device=any_place), [da.asarray(c, device=any_place) for c in choices],
                     out, mode) is out
    assert_same(out, want.astype(np.float64))


def test_choose_errors(any_place):
    p = da.asarray([0, 3], device=any_place)
    with pytest.raises(ValueError, match="darray choose: invalid entry"):
        da.choose(p, [1, 2])
    with pytest.raises(TypeError, match="darray choose: cannot cast"):
        da.choose(da.asarray([0.0], device=any_place), [1, 2])
    with pytest.raises(ValueError, match="darray choose"):
        da.choose(p, [1, 2], mode="bogus")
    assert isinstance(np.choose(p, [1, 2, 3, 4]), da.DArray)
    assert_same(da.choose(p, [1, 2, 3, 4]), np.array([1, 4]))  # the next call works


def test_piecewise(any_place):
    x = np.linspace(-2.5, 2.5, 6).reshape(2, 3)
    check(lambda xp, v: xp.piecewise(v, [v < 0, v >= 0], [lambda t: -t, lambda t: t * 2]), x, place=any_place)
    check(lambda xp, v: xp.piecewise(v, [v < -1], [lambda t, k: t * k, 7.0], 3), x, place=any_place)
    check(lambda xp, v: xp.piecewise(v.reshape(-1), v.reshape(-1) > 0, [1, 0]), x, place=any_place)
    with pytest.raises(ValueError, match="darray piecewise: with 1 condition"):
        da.piecewise(da.asarray(x, device=any_place), [da.asarray(x > 0, device=any_place)], [1, 2, 3])


@given(data=st.data())
def test_in_place_writers(any_place, data):
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    x = data.draw(arrays(dtype, shapes(1, 2, 1, 5), elements=_elements(dtype)), label="x")
    mask = data.draw(arrays(np.bool_, x.shape), label="mask")
    vals = data.draw(arrays(dtype, st.integers(1, 4), elements=_elements(dtype)), label="vals")
    for fn, npfn in ((da.place, np.place), (da.putmask, np.putmask)):
        want, got = x.copy(), da.asarray(x, device=any_place)
        npfn(want, mask, vals)
        assert fn(got, da.asarray(mask, device=any_place), da.asarray(vals, device=any_place)) is None
        assert_same(got, want)
    want, got = x.copy(), da.asarray(x, device=any_place)
    np.copyto(want, vals[:1], where=mask)
    da.copyto(got, da.asarray(vals[:1], device=any_place), where=da.asarray(mask, device=any_place))
    assert_same(got, want)
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    idx = np.argsort(x, axis=axis, kind="stable")[(slice(None),) * (axis % x.ndim) + (slice(0, 1),)]
    want, got = x.copy(), da.asarray(x, device=any_place)
    np.put_along_axis(want, idx, vals[0], axis)
    da.put_along_axis(got, da.asarray(idx, device=any_place), vals[0], axis)
    assert_same(got, want)


def _outcome(call, xp):
    """``call(xp)``'s result, or the class of the exception it raises and its message."""
    try:
        return call(xp)
    except (IndexError, ValueError, TypeError, OverflowError) as err:
        return type(err), str(err)


def _like_numpy(call, op: str) -> None:
    """``call(da)`` gives ``call(np)``'s result, or its exception class with a message naming ``op``."""
    want, got = _outcome(call, np), _outcome(call, da)
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and got[0] is want[0] and f"darray {op}" in got[1], (got, want)
    else:
        assert not isinstance(got, tuple), got
        assert_same(got, want)


CASTS = [1.5, 300, -2, 1.5 + 1j, [2.5, -1.0], np.array([2.5]), np.array([7], np.int8), np.array([300]),
         np.array([1], np.uint64), np.array([True]), [], np.array([1 + 2j])]


@given(data=st.data())
def test_writers_convert_values_as_numpy(any_place, data):
    """place and putmask take an array of values by the 'safe' rule and Python values as
    ``numpy.asarray(values, dtype)`` makes them (floats truncate into ints, an int out of range is
    an OverflowError, complex into real a TypeError); a mask of any dtype; NumPy's errors."""
    dtype = data.draw(st.sampled_from([np.int8, np.int64, np.float32, np.float64]), label="dtype")
    x = np.arange(6, dtype=dtype).reshape(2, 3)
    mask = data.draw(arrays(data.draw(st.sampled_from([np.bool_, np.float32]), label="mask dtype"), (2, 3),
                            elements=st.sampled_from([0, 1])), label="mask")
    vals = data.draw(st.sampled_from(CASTS), label="values")
    for name in ("place", "putmask"):
        d = da.asarray(x, device=any_place)
        want = x.copy()
        _like_numpy(lambda xp, f=name, w=want, d=d: (getattr(xp, f)(w if xp is np else d, mask, vals), None)[1],
                    name)
        assert_same(d, want)


@given(data=st.data())
def test_choose_and_compress_like_numpy(any_place, data):
    """choose under each mode with picks in and out of range, compress of drawn conditions (longer
    than the axis too) and axes (a 0-d array counts as 1-d); ``out=`` of another dtype, taken when
    it casts safely to the result's dtype (NumPy's rule), the values cast unsafely."""
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]), label="mode")
    pick = data.draw(arrays(np.int64, st.sampled_from([(), (1,), (4,), (2, 4), (3, 1)]), elements=st.integers(-4, 5)),
                     label="pick")
    choices = [np.arange(4.0) * 10 ** k for k in range(3)]
    dtype = data.draw(st.sampled_from([np.float64, np.float32, np.int32, np.complex64]), label="out dtype")

    def choose(xp):
        out = xp.zeros(np.broadcast_shapes(pick.shape, (4,)), dtype, **({} if xp is np else {"device": any_place}))
        args = [x if xp is np else da.asarray(x, device=any_place) for x in (pick, *choices)]
        return xp.choose(args[0], args[1:], out, mode), out
    _like_numpy(lambda xp: choose(xp)[1], "choose")
    a = data.draw(arrays(np.int16, shapes(0, 3, 0, 4)), label="a")
    cond = data.draw(arrays(np.float32, shapes(1, 1, 0, 6), elements=st.sampled_from([0.0, 1.0, 0.5])), label="c")
    axis = data.draw(st.none() | st.integers(-max(a.ndim, 1), max(a.ndim, 1) - 1), label="axis")
    ad = da.asarray(a, device=any_place)
    _like_numpy(lambda xp: xp.compress(cond, a if xp is np else ad, axis), "compress")
    _like_numpy(lambda xp: (a if xp is np else ad).compress(cond, axis), "compress")
    want = _outcome(lambda xp: np.compress(cond, a, axis), np)
    if not isinstance(want, tuple):
        _like_numpy(lambda xp: (lambda out: (xp.compress(cond, a if xp is np else ad, axis, out), out)[1])(
            xp.zeros(want.shape, dtype, **({} if xp is np else {"device": any_place}))), "compress")


def test_in_place_errors(any_place):
    x = da.asarray(np.arange(4), device=any_place)
    with pytest.raises(ValueError, match="darray place: mask and data"):
        da.place(x, [True], [1])
    with pytest.raises(ValueError, match="darray place: cannot insert"):
        da.place(x, [True] * 4, [])
    with pytest.raises(TypeError, match="darray putmask: cannot cast.*'safe'"):
        da.putmask(x, [True] * 4, da.asarray([1.5], device=any_place))
    with pytest.raises(TypeError, match="darray copyto"):
        da.copyto(x, 1.5)
    with pytest.raises(OverflowError, match="darray copyto"):
        da.copyto(da.asarray(np.zeros(2, np.uint8), device=any_place), -1)
    with pytest.raises(ValueError, match="darray copyto: could not broadcast"):
        da.copyto(x, da.asarray([1, 2], device=any_place))
    with pytest.raises(IndexError, match="darray put_along_axis"):
        da.put_along_axis(x, da.asarray([0.0], device=any_place), 1, 0)
    with pytest.raises(TypeError, match="darray copyto"):
        da.copyto(np.zeros(3), x[:3])
    np.copyto(x, 7, where=da.asarray([True, False, True, False], device=any_place))  # the NumPy route
    da.putmask(x, [False, True, False, False], 9)
    assert_same(x, np.array([7, 9, 7, 3]))


@pytest.mark.parametrize("place", [None, "cpu"])
def test_where_one_and_three_arguments(place) -> None:
    a = np.array([[0, 2], [3, 0]])
    x = da.asarray(a, device=place)
    for g, w in zip(da.where(x), np.where(a), strict=True):
        assert_same(g, w)
    assert_same(da.where(x > 1, x, -1), np.where(a > 1, a, -1))
    with pytest.raises(ValueError, match="both or neither"):
        da.where(x, 1)
    assert_same(da.where(x)[0], np.where(a)[0])  # the next call works
