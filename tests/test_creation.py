"""Creation functions against NumPy: empty, zeros, ones, full, *_like, arange, linspace, eye."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same, shapes
from hypothesis import given, settings
from hypothesis import strategies as st

import darray as da

DTYPES = [None, "bool", "int8", "uint16", "int32", "int64", "uint64", "float32", "float64", "complex64", "complex128"]


def np_dtype(dtype):
    return None if dtype is None else np.dtype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_zeros_ones_empty(any_place, dtype):
    for shape in [(), 5, (2, 3), (0, 4), (1,) * 9, [3, 2]]:
        for fn in ("zeros", "ones"):
            got = getattr(da, fn)(shape, dtype=dtype, device=any_place)
            assert got.place == any_place
            assert_same(got, getattr(np, fn)(shape, dtype=np_dtype(dtype)))
        e = da.empty(shape, dtype=dtype, device=any_place)
        want = np.empty(shape, dtype=np_dtype(dtype))
        assert e.shape == want.shape and e.dtype == want.dtype and e.place == any_place


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@given(shape=shapes(0, 4, 0, 5), fill=st.one_of(st.integers(-100, 100), st.floats(-1e3, 1e3), st.booleans(),
                                                  st.sampled_from([float("nan"), float("inf"), -0.0, 1 + 2j])),
       dtype=st.sampled_from([None, "float32", "int16", "complex128", "bool"]))
def test_full(any_place, shape, fill, dtype):
    with np.errstate(all="ignore"):
        want = np.full(shape, fill, dtype=np_dtype(dtype))
        got = da.full(shape, fill, dtype=dtype, device=any_place)
    assert_same(got, want)
    if want.dtype.kind == "f":
        assert np.array_equal(np.signbit(got.get()), np.signbit(want))


def test_full_casts_like_numpy(any_place):
    with pytest.raises(OverflowError):
        da.full(3, 300, dtype="int8", device=any_place)
    with pytest.raises(OverflowError):
        da.full(3, -1, dtype="uint8", device=any_place)
    assert_same(da.full(3, np.int64(300), dtype="int8", device=any_place), np.full(3, np.int64(300), dtype="int8"))
    assert_same(da.full(3, 2.9, dtype="int16", device=any_place), np.full(3, 2.9, dtype="int16"))
    with pytest.warns(np.exceptions.ComplexWarning):
        got = da.full(3, 1 + 2j, dtype="float32", device=any_place)
    assert_same(got, np.ones(3, np.float32))


def test_full_array_fill_value(any_place):
    fill = np.array([1.5, 2.5, 3.5], np.float32)
    assert_same(da.full((2, 3), fill, device=any_place), np.full((2, 3), fill))
    assert_same(da.full((2, 3), np.int8(7), device=any_place), np.full((2, 3), np.int8(7)))


@pytest.mark.parametrize("dtype", [None, "int8", "float32", "complex64"], ids=str)
def test_like_functions(any_place, dtype):
    host = np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::-2]
    x = da.asarray(host, device=any_place)
    for fn in ("zeros_like", "ones_like"):
        got = getattr(da, fn)(x, dtype=dtype)
        assert got.place == any_place
        assert_same(got, getattr(np, fn)(host, dtype=np_dtype(dtype)))
    assert_same(da.full_like(x, 7, dtype=dtype), np.full_like(host, 7, dtype=np_dtype(dtype)))
    e = da.empty_like(x, dtype=dtype)
    assert e.shape == host.shape and e.dtype == np.empty_like(host, dtype=np_dtype(dtype)).dtype
    assert e.place == any_place
    assert_same(da.full_like(x, 2.75), np.full_like(host, 2.75))  # cast to the array's dtype


def test_like_on_another_place(cl_place):
    x = da.ones((2, 2), device="cpu")
    for fn in (da.zeros_like, da.ones_like, da.empty_like):
        assert fn(x, device=cl_place).place == cl_place
    assert da.full_like(x, 3, device=cl_place).place == cl_place


@pytest.mark.parametrize("args", [(5,), (2, 10), (2, 11, 3), (10, 2, -2), (0, 1, 0.1), (1.5, 4.0), (-3, 3, 0.75),
                                  (5, 1), (0,), (3, 3)], ids=str)
@pytest.mark.parametrize("dtype", [None, "int32", "float32", "float64", "uint8"], ids=str)
def test_arange(any_place, args, dtype):
    if dtype == "uint8" and any(a < 0 for a in args):
        return
    want = np.arange(*args, dtype=np_dtype(dtype))
    got = da.arange(*args, dtype=dtype, device=any_place)
    assert got.place == any_place
    assert_same(got, want)


def test_arange_keyword_stop_and_zero_step(any_place):
    assert_same(da.arange(1, stop=7, step=2, device=any_place), np.arange(1, 7, 2))
    assert_same(da.arange(5, step=2, device=any_place), np.arange(5, step=2))
    with pytest.raises(ValueError, match="step"):
        da.arange(0, 5, 0, device=any_place)


@pytest.mark.parametrize("args", [(0, 1, 5), (-5, 5, 7), (2.5, -1.5, 10), (0, 1, 0), (0, 1, 1), (1, 10, 4)],
                         ids=str)
@pytest.mark.parametrize("dtype", [None, "float32", "float64", "int32", "complex64"], ids=str)
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace(any_place, args, dtype, endpoint):
    want = np.linspace(*args, endpoint=endpoint, dtype=np_dtype(dtype))
    got = da.linspace(*args, dtype=dtype, device=any_place, endpoint=endpoint)
    assert_same(got, want)


def test_linspace_complex_and_errors(any_place):
    """``num`` as NumPy takes it (``operator.index``): a negative one is a ValueError, a float a
    TypeError, a bool counts; the next call works."""
    assert_same(da.linspace(0, 1 + 2j, 5, device=any_place), np.linspace(0, 1 + 2j, 5))
    for num, err in ((-1, ValueError), (2.5, TypeError), ("3", TypeError), (None, TypeError)):
        with pytest.raises(err) as np_err:
            np.linspace(0, 1, num)
        with pytest.raises(np_err.type, match="linspace|integer"):
            da.linspace(0, 1, num, device=any_place)
    assert_same(da.linspace(0, 1, True, device=any_place), np.linspace(0, 1, True))
    assert_same(da.linspace(0, 1, 3, device=any_place), np.linspace(0, 1, 3))


def test_linspace_darray_endpoints_and_num(any_place):
    """0-d DArray endpoints (as SciPy passes them; they once recursed through
    ``__array_function__``), through NumPy's ``linspace`` too; a 0-d integer DArray ``num``."""
    start, stop = da.asarray(0.5, device=any_place), da.asarray(2.0, device=any_place)
    for got in (da.linspace(start, stop, 4), np.linspace(start, stop, 4), da.linspace(start, 2.0, da.asarray(4))):
        assert isinstance(got, da.DArray) and got.place == any_place
        assert_same(got, np.linspace(0.5, 2.0, 4))
    f32 = da.linspace(da.asarray(np.float32(0), device=any_place), da.asarray(np.float32(1), device=any_place), 3)
    assert_same(f32, np.linspace(np.float32(0), np.float32(1), 3))
    assert_same(da.linspace(da.asarray([0.0, 1.0], device=any_place), 2.0, 3), np.linspace([0.0, 1.0], 2.0, 3))
    with pytest.raises(TypeError):
        da.linspace(start, stop, da.asarray(4.0))
    assert_same(da.linspace(start, stop, 2), np.linspace(0.5, 2.0, 2))


@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 4, 1), (4, 3, -1), (3, 4, -2), (2, 5, 4), (4, 4, 5),
                                   (4, 4, -4), (0, None, 0), (1, 1, 0), (5, 2, -3)], ids=str)
@pytest.mark.parametrize("dtype", [None, "int8", "bool", "complex64"], ids=str)
def test_eye(any_place, n, m, k, dtype):
    assert_same(da.eye(n, m, k=k, dtype=dtype, device=any_place), np.eye(n, m, k=k, dtype=np_dtype(dtype)))


def test_eye_errors(any_place):
    for bad in (-1, 2.0, True):
        with pytest.raises(ValueError, match="eye"):
            da.eye(bad, device=any_place)
        with pytest.raises(ValueError, match="eye"):
            da.eye(2, bad, device=any_place)


def test_default_device_is_current_place(cl_place):
    with da.place.use("cpu"):
        assert da.zeros(3).place == da.CPUPlace()
        assert da.arange(3).place == da.CPUPlace()
        assert da.asarray([1, 2]).place == da.CPUPlace()
    with da.place.use(cl_place):
        assert da.eye(2).place == cl_place
        assert da.linspace(0, 1, 3).place == cl_place
        assert da.full((2,), 1).place == cl_place


def test_creation_bad_input(any_place):
    with pytest.raises(ValueError, match="negative"):
        da.zeros((2, -1), device=any_place)
    with pytest.raises(ValueError, match="9"):
        da.ones((1,) * 10, device=any_place)
    with pytest.raises(TypeError, match="unsupported dtype"):
        da.empty(3, dtype="U5", device=any_place)
    with pytest.raises(TypeError):
        da.full(3, 1.0, dtype=object, device=any_place)
    with pytest.raises(TypeError):
        da.zeros(2.5, device=any_place)
    assert_same(da.zeros((2, 1), device=any_place), np.zeros((2, 1)))


TOO_BIG = [2**62, (2**32, 2**32), (0, 2**62), (2**31, 0, 2**31, 4), 2**63, (0, 2**64)]


@pytest.mark.parametrize("shape", TOO_BIG, ids=str)
def test_impossible_size_is_value_error(any_place, shape):
    """A size no array can have (its nonzero sizes times the itemsize past 2**63 - 1 bytes, even
    with a zero-length axis) is NumPy's ValueError for every creation function, naming the op
    and the size, never a MemoryError; the next call works."""
    calls = {"empty": lambda xp, **kw: xp.empty(shape, **kw), "zeros": lambda xp, **kw: xp.zeros(shape, **kw),
             "ones": lambda xp, **kw: xp.ones(shape, **kw), "full": lambda xp, **kw: xp.full(shape, 2.0, **kw)}
    for name, call in calls.items():
        with pytest.raises(ValueError):
            call(np)
        with pytest.raises(ValueError, match=rf"darray {name}: array is too big.* bytes"):
            call(da, device=any_place)
    small = da.zeros((0, 2), dtype="int8", device=any_place)
    for name in ("empty_like", "zeros_like", "ones_like", "full_like"):
        args = (2.0,) if name == "full_like" else ()
        with pytest.raises(ValueError, match=rf"darray {name}: array is too big"):
            getattr(da, name)(da.reshape(small, (0, 2**62)), *args, dtype="float64")
    assert_same(da.ones((2, 3), device=any_place), np.ones((2, 3)))


def test_large_but_possible_sizes_match_numpy(any_place):
    """Below the bound NumPy makes the array: zero-size shapes whose other sizes fit, and a bool
    array of 2**62 bytes spanned (size 0)."""
    for shape, dtype in (((0, 2**62), "bool"), ((0, 2**59), "float64"), ((2**40, 0), "complex128")):
        assert_same(da.empty(shape, dtype=dtype, device=any_place), np.empty(shape, dtype))


# -- NumPy's creation routines and signatures -----------------------------------------------------
@pytest.mark.parametrize("place", [None, "cpu"])
def test_numpy_signatures_and_orders(place) -> None:
    assert da.zeros(3, int, device=place).dtype == np.int64
    f = da.ones((2, 3), np.float32, "F", device=place)
    assert f.flags.f_contiguous and not f.flags.c_contiguous and f.shape == (2, 3)
    assert_same(da.full((2, 2), 7, int, "F", device=place), np.full((2, 2), 7, int, "F"))
    assert da.empty((2, 3), order="F", device=place).flags.f_contiguous
    assert da.zeros_like(f).flags.f_contiguous and da.zeros_like(f, order="C").flags.c_contiguous
    assert da.empty_like(f, shape=(4,)).shape == (4,)
    assert_same(da.full_like(da.arange(3, device=place), 2.5, np.float32), np.full_like(np.arange(3), 2.5,
                                                                                     np.float32))
    assert_same(da.eye(3, 4, 1, int, "F", device=place), np.eye(3, 4, 1, int, "F"))
    assert_same(da.arange(0, 5, 2, np.int32, device=place), np.arange(0, 5, 2, np.int32))
    got, step = da.linspace(0, 1, 5, True, True, device=place)
    want, want_step = np.linspace(0, 1, 5, True, True)
    assert_same(got, want) and step == want_step
    assert_same(da.linspace([0, 1], [2, 3], 3, axis=1, device=place), np.linspace([0, 1], [2, 3], 3, axis=1))
    assert_same(da.asarray([1, 2], np.float32, device=place), np.asarray([1, 2], np.float32))


@pytest.mark.parametrize("place", [None, "cpu"])
def test_numpy_creation_routines(place) -> None:
    a = np.arange(6.0).reshape(2, 3)
    x = da.asarray(a, device=place)
    assert_same(da.array(x, ndmin=4), np.array(a, ndmin=4))
    assert da.array(x, copy=None) is x and da.array(x) is not x
    with pytest.raises(ValueError):
        da.array(x, np.int32, copy=False)
    assert da.array(x, order="F").flags.f_contiguous
    assert da.asanyarray(x) is x and da.ascontiguousarray(x.T).flags.c_contiguous
    assert da.asfortranarray(x).flags.f_contiguous and da.ascontiguousarray(5.0).shape == (1,)
    with pytest.raises(ValueError, match="infs or NaNs"):
        da.asarray_chkfinite([1.0, np.nan])
    assert_same(da.copy(x[:, ::-1]), np.copy(a[:, ::-1]))
    assert_same(da.identity(3, int), np.identity(3, int))
    assert_same(da.logspace(0, 2, 4, base=2.0), np.logspace(0, 2, 4, base=2.0))
    assert_same(da.geomspace(1, 1000, 4), np.geomspace(1, 1000, 4))
    assert_same(da.fromfunction(lambda i, j: i * 10 + j, (2, 3), dtype=int), np.fromfunction(lambda i, j: i * 10 + j,
                                                                                             (2, 3), dtype=int))
    assert_same(da.fromiter(range(5), np.int16), np.fromiter(range(5), np.int16))
    assert_same(da.frombuffer(b"\x01\x02\x03\x04", np.uint8, 2, 1), np.frombuffer(b"\x01\x02\x03\x04", np.uint8, 2, 1))
    assert_same(da.fromstring("1 2 3", int, sep=" "), np.fromstring("1 2 3", int, sep=" "))
    for k in (-2, 0, 1):
        assert_same(da.tri(3, 4, k), np.tri(3, 4, k))
        assert_same(da.diag(x, k), np.diag(a, k))
        assert_same(da.diag(da.asarray([1, 2, 3]), k), np.diag([1, 2, 3], k))
        assert_same(da.diagflat(x, k), np.diagflat(a, k))
    assert_same(da.diag(x.T[::-1], 1), np.diag(a.T[::-1], 1))
    for n, inc in [(None, False), (4, True), (2, False)]:
        assert_same(da.vander(da.asarray([1, 2, 3], device=place), n, inc), np.vander([1, 2, 3], n, inc))
        assert_same(da.vander(da.asarray([0.5, -2.0], device=place), n, inc), np.vander([0.5, -2.0], n, inc))


_ENDPOINT_DTYPES = ["bool", "int8", "uint8", "int32", "int64", "uint64", "float16", "float32", "float64", "complex64"]


@settings(max_examples=120)
@given(name=st.sampled_from(["linspace", "logspace", "geomspace", "vander"]),
       dtype=st.sampled_from(_ENDPOINT_DTYPES), form=st.sampled_from(["numpy scalar", "0-d", "1-d"]),
       data=st.data())
def test_spacings_and_vander_dtypes_as_numpy(name, dtype, form, data) -> None:
    """linspace/logspace/geomspace of integer, float16/32 and complex endpoints (NumPy scalars, 0-d
    and 1-d DArrays) and vander of every dtype: NumPy's result dtype and values."""
    start, stop = (np.array(v).astype(dtype) for v in data.draw(st.sampled_from([(1, 3), (2, 1), (1, 1)])))
    if name == "vander":
        x = np.array([1, 2, 0, 3]).astype(dtype)
        n = data.draw(st.sampled_from([None, 0, 3]))
        assert_same(da.vander(da.asarray(x), n), np.vander(x, n))
        return
    if form == "1-d":
        start, stop = np.stack([start, stop]), np.stack([stop, start])
    ends = (start[()], stop[()]) if form == "numpy scalar" else (da.asarray(start), da.asarray(stop))
    num = data.draw(st.sampled_from([0, 1, 5]))
    with np.errstate(all="ignore"):
        want = getattr(np, name)(start[()] if form == "numpy scalar" else start,
                                 stop[()] if form == "numpy scalar" else stop, num)
    got = getattr(da, name)(*ends, num)
    tol = 1e-2 if want.dtype in (np.float16, np.float32, np.complex64) else 1e-9
    assert_same(got, want, rtol=tol, atol=tol)
