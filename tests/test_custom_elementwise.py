"""da.ElementwiseKernel against NumPy: dtypes, broadcast and viewed inputs, fusion (launch
counts), outputs, the cpu place, bad input and the next call."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same, shapes, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da
from darray.custom._params import NUMERIC

AXPB = da.ElementwiseKernel("T x, T y, T b", "T z", "z = x * y + b", "axpb")
REAL = [d for d in NUMERIC if d not in ("bool", "float16")]


def launches(p: da.sched.Profiler) -> int:
    return len([r for r in p.launches if r.name not in ("device_to_host", "host_to_device", "reduce_scratch")])


@pytest.mark.parametrize("dtype", REAL)
def test_every_dtype(dtype, cl_place):
    h = (np.arange(12) % 7).astype(dtype).reshape(3, 4)
    got = AXPB(da.asarray(h, device=cl_place), da.asarray(h[::-1], device=cl_place), 2)
    assert got.dtype == np.dtype(dtype)
    assert_same(got, (h * h[::-1] + np.asarray(2, dtype)).astype(dtype))


@given(viewed(np.float32, elements=st.floats(-4, 4, width=32)), shapes(0, 2, 1, 3))
def test_views_and_broadcast(case, other):
    base, view = case
    x = view(base)
    y = np.full(other, 1.5, np.float32)
    try:
        want = x * y + np.float32(0.25)
    except ValueError:
        return
    got = AXPB(view(da.asarray(base)), da.asarray(y), 0.25)
    assert_same(got, want)


def test_bool_and_c_names(cl_place):
    k = da.ElementwiseKernel("bool m, int a, double b", "double r", "r = m ? a + b : -b", "pick")
    m = np.array([True, False, True])
    got = k(da.asarray(m, device=cl_place), 3, da.asarray(np.array([0.5, 1.5, 2.5]), device=cl_place))
    assert_same(got, np.where(m, 3 + np.array([0.5, 1.5, 2.5]), -np.array([0.5, 1.5, 2.5])))


def test_fuses_between_builtins_and_into_sum(cl_place):
    h = np.linspace(-1, 1, 1000, dtype=np.float32)
    x = da.asarray(h, device=cl_place)
    (AXPB(x + 1, x, 1.0) * 2).sum().get()  # compile and allocate the scratch first
    with da.profile() as p:
        y = AXPB(x + 1, x, 1.0) * 2
        y.eval()
    assert launches(p) == 1
    with da.profile() as p:
        s = float((AXPB(x + 1, x, 1.0) * 2).sum())
    assert launches(p) == 1
    assert_same(y, ((h + 1) * h + 1) * 2)
    assert abs(s - float((((h + 1) * h + 1) * 2).astype(np.float64).sum())) < 1e-2


def test_several_outputs_and_out(cl_place):
    k = da.ElementwiseKernel("T x, T y", "T s, T d", "s = x + y; d = x - y", "sumdiff")
    h = np.arange(6.0).reshape(2, 3)
    x = da.asarray(h, device=cl_place)
    s, d = k(x, 1.0)
    assert_same(s, h + 1)
    assert_same(d, h - 1)
    o1, o2 = da.empty((2, 3), device=cl_place), da.empty((2, 3), device=cl_place)
    assert k(x, x, o1, o2) == (o1, o2)
    assert_same(o1, 2 * h)
    k(x, 2.0, out=(o1, o2))
    assert_same(o2, h - 2)
    one = AXPB(x, x, 0.0, out=o1)
    assert one is o1
    assert_same(o1, h * h)


def test_preamble_and_0d(cl_place):
    k = da.ElementwiseKernel("float32 x", "float32 y", "y = sq(x) + 1", "withpre",
                             preamble="static inline float sq(float v) { return v * v; }")
    k2 = da.ElementwiseKernel("float32 x", "float32 y", "y = sq(x) - 1", "withpre2",
                              preamble="static inline float sq(float v) { return v * v; }")
    x = da.asarray(np.float32(3), device=cl_place)
    assert k(x).shape == ()
    assert_same(k(x) + k2(x), np.float32(18))  # one kernel, the shared preamble once


def test_cpu_place():
    with da.place.use("cpu"):
        h = np.arange(5, dtype=np.float32)
        assert_same(AXPB(da.asarray(h), np.float32(2), 1.0), h * 2 + 1)
        k = da.ElementwiseKernel("T x", "T y", "y = x > 0 ? x : 0", "relu_c")
        with pytest.raises(ValueError, match="relu_c.*cannot run on the cpu place"):
            k(da.asarray(h))
        assert_same(AXPB(da.asarray(h), h, 0.0), h * h)  # the next call works


@pytest.mark.parametrize("args, error, match", [
    (("float32", "float32 y", "y = 1"), ValueError, "'float32' must be 'type name'"),
    (("flaot32 x", "float32 y", "y = x"), TypeError, "parameter 'x' has unknown type 'flaot32'"),
    (("complex32 x", "float32 y", "y = x"), TypeError, "unknown type 'complex32'"),
    (("float32 x", "raw float32 y", "y = x"), ValueError, "outputs cannot be raw"),
    (("float32 i", "float32 y", "y = i"), ValueError, "'i' and '_ind_size'"),
    (("float32 x, float32 x", "float32 y", "y = x"), ValueError, "'x' appears twice"),
    (("float32 x", "", "y = x"), ValueError, "at least one output"),
    (("float32 x", "float32 x", "x = x"), ValueError, "both an input and an output"),
])
def test_bad_definitions(args, error, match):
    with pytest.raises(error, match=match):
        da.ElementwiseKernel(*args, name="bad")


def test_bad_calls_then_the_next_call_works(cl_place):
    k = da.ElementwiseKernel("float32 x, T y", "T z", "z = x + y", "typed")
    x = da.asarray(np.ones(3, np.float32), device=cl_place)
    with pytest.raises(TypeError, match="'typed'.*takes 2"):
        k(x)
    with pytest.raises(TypeError, match="'typed'.*parameter 'x' is float32, got an array of int64"):
        k(da.arange(3, device=cl_place), 1.0)
    with pytest.raises(TypeError, match="parameter 'b' binds T"):
        da.ElementwiseKernel("T a, T b", "T c", "c = a", "bind")(x, da.arange(3, device=cl_place))
    with pytest.raises(ValueError, match="'typed'.*broadcast"):
        k(x, da.ones(4, device=cl_place))
    with pytest.raises(TypeError, match="cannot tell the type U"):
        da.ElementwiseKernel("float32 a", "U c", "c = a", "unbound")(x)
    bad = da.ElementwiseKernel("float32 x", "float32 y", "y = undefined_name(x)", "broken")
    with pytest.raises(da.DeviceError):
        bad(x).get()
    assert_same(k(x, np.float32(2)), np.full(3, 3, np.float32))
