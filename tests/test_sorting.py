"""sort / argsort (darray/ops/sorting.py, kernels/sort.cl) against NumPy's stable sort.

The reference for ``descending=True`` is array_api_strict's: a stable argsort of the
flipped input, flipped back (largest first, NaNs first, ties in input order). darray's sort
is stable, so sorted values are compared bit for bit (the sign of each zero too).
Hypothesis draws short rows (the insertion-sort kernel); the radix path gets long rows.
Every test runs with each engine forced (``DARRAY_SORT``): the kernels in both radix plans (the
chunked plan of the CPU forms and the gpu plan's work-groups, on any device), and NumPy on the
mapped buffers of a host-memory device. tests/test_radix_gpu.py draws long rows for the gpu plan.
"""
from __future__ import annotations

import os

import numpy as np
import pytest
from helpers import assert_exact, complex_values, shapes
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.exceptions import AxisError

import darray as da

REAL = [np.dtype(t) for t in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                              "float32", "float64")]
@pytest.fixture(autouse=True, scope="module", params=["chunked", "gpu", "host"])
def sort_engine(request):
    """DARRAY_SORT for the module's tests (module-scoped: hypothesis tests may use it)."""
    old = os.environ.get("DARRAY_SORT")
    os.environ["DARRAY_SORT"] = request.param
    yield request.param
    if old is None:
        del os.environ["DARRAY_SORT"]
    else:
        os.environ["DARRAY_SORT"] = old


SPECIAL_F = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, np.inf, -np.inf, np.nan, -np.nan, 1e-30, -3.5]


def ref_argsort(x: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    return x.shape[axis] - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)


def elements(dtype: np.dtype) -> st.SearchStrategy:
    """Values with many ties, plus the dtype's specials (NaN, inf, -0.0, extremes)."""
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind == "f":
        return st.sampled_from(SPECIAL_F) | st.floats(width=8 * dtype.itemsize, allow_nan=True)
    info = np.iinfo(dtype)
    return st.sampled_from([info.min, info.max, 0, 1, info.max // 2]) | st.integers(info.min, info.max)


def check(xd: da.DArray, xn: np.ndarray, axis: int = -1, descending: bool = False) -> None:
    """sort and argsort of ``xd`` equal the reference (shape, dtype, values, zero signs, indices)."""
    order = ref_argsort(xn, axis, descending)
    idx = da.argsort(xd, axis=axis, descending=descending)
    got = da.sort(xd, axis=axis, descending=descending).get()
    want = np.take_along_axis(xn, order, axis)
    assert idx.dtype == np.int64 and got.dtype == xn.dtype and got.shape == xn.shape
    np.testing.assert_array_equal(idx.get(), order)
    np.testing.assert_array_equal(got, want)
    if xn.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    np.testing.assert_array_equal(xd.get(), xn)  # the input is left alone


def view(x, kind: str):
    if kind == "T":
        return x.T
    if kind == "flip":
        return x[(slice(None, None, -1),) * x.ndim]
    if kind == "step" and x.ndim:
        return x[..., ::2]
    return x


@given(data=st.data())
def test_matches_numpy(any_place, data):
    """Every real dtype, ranks 1-4 (empty too), views, axes (negative too), both orders."""
    dtype = data.draw(st.sampled_from(REAL), label="dtype")
    x = data.draw(hnp.arrays(dtype, shapes(1, 4, 0, 6), elements=elements(dtype)), label="x")
    kind = data.draw(st.sampled_from(["", "T", "flip", "step"]), label="view")
    xn, xd = view(x, kind), view(da.asarray(x, device=any_place), kind)
    axis = data.draw(st.integers(-xn.ndim, xn.ndim - 1), label="axis")
    check(xd, xn, axis, data.draw(st.booleans(), label="descending"))


@pytest.mark.parametrize("dtype", REAL, ids=str)
@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
def test_radix_rows(any_place, dtype, descending):
    """Rows long enough for the radix kernels: one long row (several chunks), several rows
    along each axis, many ties, the specials and the integer extremes."""
    rng = np.random.default_rng(dtype.num)
    if dtype.kind == "f":
        pool = np.array(SPECIAL_F + list(rng.standard_normal(20) * 1e3), dtype)
    elif dtype.kind == "b":
        pool = np.array([False, True])
    else:
        info = np.iinfo(dtype)
        pool = np.array([info.min, info.max, 0, 1, info.max // 3] + list(rng.integers(info.min, info.max, 20,
                                                                                      dtype, endpoint=True)), dtype)
    long = rng.choice(pool, 70_000)
    check(da.asarray(long, device=any_place), long, descending=descending)
    block = rng.choice(pool, (3, 150, 70))
    for axis in (0, 1, -1):
        check(da.asarray(block, device=any_place), block, axis, descending)


def test_skipped_passes(any_place):
    """Keys whose high or low digits never vary (small ints, a constant row, floats of one sign,
    multiples of 256, small integral floats)."""
    rng = np.random.default_rng(1)
    for x in (rng.integers(0, 1000, 50_000).astype(np.int32), np.full(300, 7, np.int64),
              rng.integers(-3, 3, (4, 500)).astype(np.int64), rng.random(1000).astype(np.float32) + 1,
              (rng.integers(0, 50, 2000) * 256).astype(np.int32), rng.integers(-20, 20, 3000).astype(np.float32)):
        check(da.asarray(x, device=any_place), x)
        check(da.asarray(x, device=any_place), x, descending=True)


def test_argsort_stable_many_ties(any_place):
    rng = np.random.default_rng(2)
    for n in (40, 5000):
        x = rng.integers(0, 3, n).astype(np.float32)
        x[rng.random(n) < 0.2] = -0.0
        x[rng.random(n) < 0.1] = np.nan
        check(da.asarray(x, device=any_place), x)
        check(da.asarray(x, device=any_place), x, descending=True)


def test_rank9_and_lazy_input(any_place):
    x = np.random.default_rng(3).integers(-9, 9, (2, 1, 3, 1, 2, 2, 1, 3, 2)).astype(np.int16)
    for axis in (0, 4, -1):
        check(da.asarray(x, device=any_place), x, axis)
    y = da.asarray(x, device=any_place) * 3 - 1  # a pending lazy chain is the input
    np.testing.assert_array_equal(da.sort(y, axis=2).get(), np.sort(x * 3 - 1, axis=2))


def test_float16(any_place):
    if any_place.kind == "cl" and not da.place.runtime(any_place).info.fp16:
        pytest.skip("device has no cl_khr_fp16")
    x = np.array(SPECIAL_F * 20, np.float16)
    np.random.default_rng(4).shuffle(x)
    check(da.asarray(x, device=any_place), x)
    check(da.asarray(x, device=any_place), x, descending=True)


def test_empty_and_stable_flag(any_place):
    x = np.zeros((3, 0, 2), np.float32)
    for axis in (0, 1, 2):
        check(da.asarray(x, device=any_place), x, axis)
    v = np.array([3, 1, 2], np.uint8)
    assert da.sort(da.asarray(v, device=any_place), stable=False).get().tolist() == [1, 2, 3]


def test_bad_input(any_place):
    x = da.asarray(np.arange(6.0).reshape(2, 3), device=any_place)
    for fn in (da.sort, da.argsort):
        with pytest.raises(AxisError, match=f"darray {fn.__name__}"):
            fn(x, axis=2)
        with pytest.raises(AxisError):
            fn(da.asarray(np.float64(1), device=any_place))  # 0-d: NumPy raises too
        with pytest.raises(ValueError, match=f"darray {fn.__name__}: sort kind"):
            fn(x, -1, "bogus")
        with pytest.raises(ValueError, match=f"darray {fn.__name__}: cannot specify order"):
            fn(x, order="f0")
    check(x, np.arange(6.0).reshape(2, 3), 0)  # the next call works


@given(data=st.data())
def test_complex_matches_numpy(any_place, data):
    """Complex sorts as NumPy 2 (real, then imaginary part; NaN classes last), stably: bit for bit
    against NumPy's stable sort, whatever ``kind`` (NumPy's other kinds order equal values, such as
    0j and -0j, as they happen to fall: compared without the zeros' signs); views, axis=None."""
    dtype = data.draw(st.sampled_from([np.complex64, np.complex128]), label="dtype")
    x = data.draw(hnp.arrays(dtype, shapes(1, 3, 0, 6), elements=complex_values()), label="x")
    kind = data.draw(st.sampled_from(["", "T", "flip", "step"]), label="view")
    axis = data.draw(st.none() | st.integers(-x.ndim, x.ndim - 1), label="axis")
    xn, xd = view(x, kind), view(da.asarray(x, device=any_place), kind)
    for sort_kind in ("stable", "quicksort", None):
        assert_exact(da.argsort(xd, axis, sort_kind), np.argsort(xn, axis, kind="stable"))
        assert_exact(da.sort(xd, axis, sort_kind), np.sort(xn, axis, kind="stable"))
    assert_exact(da.sort(xd, axis).get() + 0, np.sort(xn, axis) + 0)
    assert_exact(np.take_along_axis(xn.reshape(-1) if axis is None else xn, da.argsort(xd, axis).get(),
                                    -1 if axis is None else axis) + 0, np.sort(xn, axis) + 0)


def test_numpy_signature(any_place):
    """NumPy's positional ``axis`` and ``kind``; ``np.sort`` on a DArray runs darray's sort."""
    x = np.array([[3, 1, 2], [0, 5, 4]], np.int16)
    xd = da.asarray(x, device=any_place)
    np.testing.assert_array_equal(da.sort(xd, 0, "stable").get(), np.sort(x, 0))
    np.testing.assert_array_equal(da.argsort(xd, None, None, None).get(), np.argsort(x, None, kind="stable"))
    assert isinstance(np.sort(xd, axis=0), da.DArray) and isinstance(np.argsort(xd), da.DArray)


def test_axis_none_flattens(any_place):
    x = np.array([[3.0, np.nan, 1.0], [-0.0, 2.0, 0.0]])
    xd = da.asarray(x, device=any_place).T
    np.testing.assert_array_equal(da.sort(xd, axis=None).get(), np.sort(x.T, axis=None, kind="stable"))
    np.testing.assert_array_equal(da.argsort(xd, axis=None).get(), np.argsort(x.T, axis=None, kind="stable"))
    s = da.sort(da.asarray(np.float32(2.5), device=any_place), axis=None)  # 0-d: a 1-element array
    assert s.shape == (1,) and s.dtype == np.float32 and s.get()[0] == 2.5


def test_methods(any_place):
    """``x.argsort()`` and the in-place ``x.sort()`` (a view sorts into its base, as in NumPy)."""
    base = np.array([[3, 1, 2], [9, 7, 8]], np.int32)
    x = da.asarray(base, device=any_place)
    np.testing.assert_array_equal(x.argsort(axis=0).get(), base.argsort(axis=0, kind="stable"))
    assert x.sort() is None
    want = base.copy()
    want.sort()
    np.testing.assert_array_equal(x.get(), want)
    y = da.asarray(base, device=any_place)
    y[:, ::-1].sort(axis=1)
    want = base.copy()
    want[:, ::-1].sort(axis=1)
    np.testing.assert_array_equal(y.get(), want)


def test_engine_choice(cl_place, monkeypatch):
    """auto: NumPy on the mapped buffers for large sorts on host-memory devices, else the kernels in
    the plan of the device's kernel form; chunked and gpu force a plan; a bad DARRAY_SORT is a
    ValueError naming it."""
    from darray.lazy import execute, host
    from darray.ops import sorting

    form = "gpu" if execute.form(cl_place) == "gpu" else "chunked"
    monkeypatch.setenv("DARRAY_SORT", "auto")
    big = sorting.engine(cl_place, sorting.HOST_MIN, False)
    assert big == ("host" if host.on(cl_place) else form)
    assert sorting.engine(cl_place, sorting.HOST_MIN - 1, False) == form
    assert sorting.engine(cl_place, sorting.HOST_MIN, True) == form  # stable argsort: the kernels
    for mode, want in (("kernel", form), ("chunked", "chunked"), ("gpu", "gpu"), ("host", "host")):
        monkeypatch.setenv("DARRAY_SORT", mode)
        assert sorting.engine(cl_place, sorting.HOST_MIN, False) == want
    monkeypatch.setenv("DARRAY_SORT", "fast")
    with pytest.raises(ValueError, match="DARRAY_SORT"):
        da.sort(da.ones(3, device=cl_place))
    monkeypatch.setenv("DARRAY_SORT", "gpu")
    check(da.ones(3, device=cl_place), np.ones(3))  # the next call works


@pytest.mark.parametrize("shape,axis", [((300_001,), 0), ((5, 40_000), 1), ((40_000, 5), 0)])
@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
def test_large_threaded(any_place, shape, axis, descending):
    """Sorts large enough for NumPy's sort to run on several threads (a long row partitioned at
    its middle, or rows split between threads); zeros of both signs and NaNs keep their input
    order, as a stable sort leaves them."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal(shape).astype(np.float32)
    flat = x.reshape(-1)
    flat[rng.integers(0, flat.size, 500)] = 0.0
    flat[rng.integers(0, flat.size, 500)] = -0.0
    flat[rng.integers(0, flat.size, 300)] = np.nan
    check(da.asarray(x, device=any_place), x, axis=axis, descending=descending)
