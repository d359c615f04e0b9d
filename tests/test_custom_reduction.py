"""da.ReductionKernel against NumPy: axes, keepdims, viewed and 0-d inputs, dtypes, fusion of
an input chain (one launch), the cpu place, bad input and the next call."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

SUMSQ = da.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq")
MAXABS = da.ReductionKernel("T x, T w", "T y", "fabs(x) * w", "max(a, b)", "y = a * 2", "-INFINITY", "maxabs")


def launches(p: da.sched.Profiler) -> int:
    return len([r for r in p.launches if r.name not in ("device_to_host", "host_to_device", "reduce_scratch")])


@given(viewed(np.float32, min_dims=0, max_dims=3, elements=st.floats(-4, 4, width=32)), st.data())
def test_views_and_axes(case, data):
    base, view = case
    x = view(base)
    axis = data.draw(st.none() | st.integers(-max(x.ndim, 1), max(x.ndim - 1, 0)) if x.ndim else st.none())
    keep = data.draw(st.booleans())
    want = np.sum(x.astype(np.float64) ** 2, axis=axis, keepdims=keep)
    got = SUMSQ(view(da.asarray(base)), axis=axis, keepdims=keep)
    assert got.shape == want.shape and got.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)
    if x.size:
        want = np.max(np.abs(x) * 3, axis=axis, keepdims=keep) * 2
        assert_same(MAXABS(view(da.asarray(base)), np.float32(3), axis=axis, keepdims=keep), want)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint16", "uint64", "float32", "float64"])
def test_dtypes_and_reduce_type(dtype, cl_place):
    h = (np.arange(60) % 11).astype(dtype).reshape(3, 20)
    x = da.asarray(h, device=cl_place)
    assert_same(SUMSQ(x, axis=1), np.sum(h * h, axis=1, dtype=dtype))
    wide = da.ReductionKernel("T x", "int64 y", "x", "a + b", "y = a", "0", "widesum")
    assert_same(wide(x, axis=0), h.sum(axis=0, dtype=np.int64))
    mean = da.ReductionKernel("T x", "float32 y", "x", "a + b", "y = a / 20", "0", "mean20", reduce_type="float64")
    assert_same(mean(x, axis=1), (h.sum(axis=1, dtype=np.float64) / 20).astype(np.float32))


def test_chain_fuses_into_one_launch(cl_place):
    h = np.linspace(-1, 1, 4096, dtype=np.float32).reshape(64, 64)
    x = da.asarray(h, device=cl_place)
    for axis in (None, 0, 1):
        SUMSQ(x * 2 + 1, axis=axis).get()
        with da.profile() as p:
            got = SUMSQ(x * 2 + 1, axis=axis)
            got.eval()
        assert launches(p) == 1, p.table()
        np.testing.assert_allclose(np.asarray(got), ((h * 2 + 1).astype(np.float64) ** 2).sum(axis), rtol=1e-5)


def test_empty(cl_place):
    x = da.zeros((3, 0), dtype="float32", device=cl_place)
    assert_same(MAXABS(x, np.float32(1), axis=1), np.full(3, -np.inf, np.float32))
    assert SUMSQ(x, axis=0).shape == (0,)


def test_cpu_place():
    with da.place.use("cpu"):
        h = np.arange(12, dtype=np.float32).reshape(3, 4)
        assert_same(SUMSQ(da.asarray(h), axis=0), (h * h).sum(0))
        assert_same(MAXABS(da.asarray(h), np.float32(2), axis=1, keepdims=True),
                    np.abs(h * 2).max(1, keepdims=True) * 2)
        odd = da.ReductionKernel("T x", "T y", "x", "a - b", "y = a", "0", "odd")
        with pytest.raises(ValueError, match="'odd'.*cannot run on the cpu place"):
            odd(da.asarray(h))
        assert_same(SUMSQ(da.asarray(h)), np.float32((h * h).sum()))


def test_bad_input_then_the_next_call_works(cl_place):
    x = da.asarray(np.ones((2, 3), np.float32), device=cl_place)
    with pytest.raises(ValueError, match="exactly one output"):
        da.ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", "0", "two")
    with pytest.raises(ValueError, match="'a' and 'b'"):
        da.ReductionKernel("T a", "T y", "a", "a + b", "y = a", "0", "names")
    with pytest.raises(TypeError, match="'sumsq'.*takes 1"):
        SUMSQ(x, x)
    with pytest.raises(np.exceptions.AxisError):
        SUMSQ(x, axis=2)
    with pytest.raises(TypeError, match="'maxabs'.*parameter 'w' binds T"):
        MAXABS(x, da.arange(3, device=cl_place))
    assert_same(SUMSQ(x, axis=1), np.full(2, 3, np.float32))


SQ = da.ReductionKernel("T x", "T y", "sq(x)", "a + b", "y = a", "0", "sumsq_scalar",
                        preamble="static inline float sq(float v) { return v * v; }")  # no float8 overload


@st.composite
def big_views(draw: st.DrawFn) -> np.ndarray:
    """A strided or transposed float32 view of up to ~100k elements (past the host path's 4096)."""
    shape = tuple(draw(st.lists(st.integers(1, 200), min_size=1, max_size=3)))
    base = np.random.default_rng(draw(st.integers(0, 2**16))).standard_normal(shape).astype(np.float32)
    keys = tuple(slice(None, None, draw(st.sampled_from([1, 1, 2, -1]))) for _ in shape)
    return base[keys].transpose(draw(st.permutations(range(len(shape)))))


@given(big_views(), st.data())
def test_vector_path_same_bits_as_scalar_and_sum(h, data):
    x = da.asarray(h)
    axis = data.draw(st.none() | st.integers(0, h.ndim - 1))
    fast = np.asarray(SUMSQ(x, axis=axis))
    assert_same(fast, SQ(x, axis=axis))  # the float8 path and the scalar path: the same bits
    if h.size > 4096:
        assert_same(fast, (x * x).sum(axis=axis))  # and the built-in sum's (computed on the device)
    np.testing.assert_allclose(fast, (h.astype(np.float64) ** 2).sum(axis=axis), rtol=1e-4, atol=1e-4)


def test_complex_sum(cl_place):
    h = (np.arange(100) + 1j * np.arange(100)[::-1]).astype(np.complex128).reshape(10, 10)
    csum = da.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "csum")
    np.testing.assert_allclose(np.asarray(csum(da.asarray(h, device=cl_place), axis=1)), h.sum(1))
