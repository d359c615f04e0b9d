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


ADDI = da.ElementwiseKernel("T x", "T y", "y = x * 2 + i", "addi")
REV = da.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - 1 - i]", "rev")
GATHER = da.ElementwiseKernel("raw T t, int64 j", "T y", "y = t[j]", "gather")
ACC = da.ElementwiseKernel("T x", "T z", "z += x", "acc")


@given(viewed(np.float32, min_dims=0, max_dims=3, elements=st.floats(-4, 4, width=32)))
def test_index_over_views(case):
    base, view = case
    x = view(base)
    want = x * 2 + np.arange(x.size, dtype=np.float32).reshape(x.shape)
    assert_same(ADDI(view(da.asarray(base))), want)
    if x.size:
        assert_same(REV(view(da.asarray(base)), size=x.size), x.ravel()[::-1])  # a view: C order of its shape
        j = np.arange(x.size)[::-1] % x.size
        assert_same(GATHER(view(da.asarray(base)), da.asarray(j)), x.ravel()[j])


def test_ordered_bodies_run_alone(cl_place):
    h = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = da.asarray(h, device=cl_place)
    (ADDI(x + 1) * 3).get()
    with da.profile() as p:
        y = ADDI(x + 1)  # the chain on its input fuses into it; it runs at the call
        assert y._node is None and launches(p) == 1
        z = y * 3  # a consumer is a later kernel: it sees i as the index in y, not in z
        z.eval()
    assert launches(p) == 2
    assert_same(z, ((h + 1) * 2 + np.arange(24, dtype=np.float32).reshape(4, 6)) * 3)
    wide = ADDI(x[0]) + da.zeros((3, 6), device=cl_place, dtype="float32")  # broadcast after: i stays in (6,)
    assert_same(wide, np.broadcast_to(h[0] * 2 + np.arange(6, dtype=np.float32), (3, 6)))
    pending = x * 2  # a pending raw input is computed first
    assert_same(REV(pending, size=24), (h * 2).ravel()[::-1])
    out = da.empty((2, 12), device=cl_place, dtype="float32")
    REV(x, out=out[::-1])  # i is the index in the output view
    assert_same(out, h.ravel()[::-1].reshape(2, 12)[::-1])


@given(viewed(np.float32, min_dims=0, max_dims=3, elements=st.floats(-4, 4, width=32)))
def test_outputs_are_read(case):
    base, view = case
    o = da.asarray(base)
    x = view(base)
    ACC(da.asarray(x.copy()), out=view(o))
    want = base.copy()
    view(want)[...] += x
    assert_same(o, want)


def test_outputs_are_read_together(cl_place):
    k = da.ElementwiseKernel("T x", "T s, T d", "s = s + d + x; d = s - x", "sd")
    h = np.arange(6, dtype=np.float64).reshape(2, 3)
    s, d = da.full((2, 3), 1.0, device=cl_place), da.full((2, 3), 2.0, device=cl_place)
    assert k(da.asarray(h, device=cl_place), out=(s, d)) == (s, d)
    assert_same(s, 3 + h)
    assert_same(d, np.full((2, 3), 3.0))
    z = k(da.asarray(h, device=cl_place))  # no out=: outputs start at zero
    assert_same(z[0], h)


def test_complex(cl_place):
    h = (np.arange(6) - 1j * np.arange(6)[::-1]).astype(np.complex64)
    x = da.asarray(h, device=cl_place)
    copy = da.ElementwiseKernel("T x", "T y", "y = x", "ccopy")
    assert_same(copy(x[::2]), h[::2])
    cm = da.ElementwiseKernel("complex64 a, complex64 b", "complex64 z", "z = cmul_float(a, b) + a", "cmul")
    assert_same(cm(x, 1j), h * 1j + h)
    h2 = h.astype(np.complex128)
    cd = da.ElementwiseKernel("T a, T b", "T z", "z = cdiv_double(a, b) - b", "cdiv")
    assert_same(cd(da.asarray(h2, device=cl_place), 2 + 1j), h2 / (2 + 1j) - (2 + 1j))
    with da.place.use("cpu"), pytest.raises(ValueError, match="'ccopy'.*OpenCL places only"):
        copy(da.asarray(h))


def test_vector_overloads_or_scalar_code(cl_place):
    from darray.lazy import user
    h = np.linspace(-3, 3, 4099, dtype=np.float32)
    x = da.asarray(h, device=cl_place)
    fast = da.ElementwiseKernel("T x", "T y", "y = x > 0 ? x * x : -x", "vfast")
    slow = da.ElementwiseKernel("T x", "T y", "y = sq(x)", "vslow",
                                preamble="static inline float sq(float v) { return v > 0 ? v * v : -v; }")
    a, b = fast(x + 1) * 2, slow(x + 1) * 2
    assert_same(a, np.where(h + 1 > 0, (h + 1) ** 2, -(h + 1)) * 2)
    assert_same(a, b)
    names = {n.split("_o0_")[0]: v for n, v in user._vector.items() if n.startswith(("vfast", "vslow"))}
    assert names == {"vfast": True, "vslow": False}  # float8 overloads compiled for one only


def test_cpu_place_index_raw_and_read():
    with da.place.use("cpu"):
        h = np.arange(6, dtype=np.float32).reshape(2, 3)
        assert_same(ADDI(da.asarray(h)), h * 2 + np.arange(6, dtype=np.float32).reshape(2, 3))
        assert_same(REV(da.asarray(h), size=6), h.ravel()[::-1])
        o = da.asarray(h)
        ACC(da.asarray(h), out=o)
        assert_same(o, 2 * h)
