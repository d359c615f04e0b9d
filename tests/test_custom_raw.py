"""da.RawKernel and da.RawModule: results against NumPy, ordering against pending lazy work and
across streams (reads and writes from the signature), the program cache, build errors, bad
input and the next call."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same

import darray as da
from darray.custom.raw import signatures

SOURCE = """
// y = a * x + y, then a slow loop that keeps the launch busy (ordering tests)
__kernel void axpy(__global const float* x, __global float* y, const float a, const int n, const int spin) {
    const int i = get_global_id(0);
    if (i >= n) return;
    float v = a * x[i] + y[i];
    for (int k = 0; k < spin; k++) v = v * 1.0000001f - 0.0000001f * v;
    y[i] = v;
}
__kernel void fill(__global int* out, long value) { out[get_global_id(0)] = (int)value; }
"""
AXPY = da.RawKernel(SOURCE, "axpy")


def test_signature():
    sig = signatures(SOURCE)
    assert [(a.name, a.kind, a.dtype) for a in sig["axpy"]] == [
        ("x", "read", None), ("y", "write", None), ("a", "value", np.dtype("float32")),
        ("n", "value", np.dtype("int32")), ("spin", "value", np.dtype("int32"))]
    assert [a.kind for a in sig["fill"]] == ["write", "value"]


def test_against_numpy_and_pending_inputs(cl_place):
    h = np.arange(1000, dtype=np.float32)
    x = da.asarray(h, device=cl_place)
    y = da.ones(1000, dtype="float32", device=cl_place) * 2  # pending: computed before the launch
    AXPY(1024, None, (x + 1, y, np.float32(3), 1000, 0))
    assert_same(y, 3 * (h + 1) + 2)
    y2 = y * 1  # pending read of y taken before the next launch writes y: sees the old values
    AXPY((1000,), (8,), (x, y, 1.0, np.int32(1000), 0))
    assert_same(y2, 3 * (h + 1) + 2)
    assert_same(y, 3 * (h + 1) + 2 + h)


def test_module_and_sub_buffers(cl_place):
    m = da.RawModule(SOURCE)
    fill = m.get_function("fill")
    base = da.zeros(64, dtype="int32", device=cl_place)
    fill(32, None, (base[32:], 7))  # 128 bytes into its buffer: a sub-buffer
    want = np.zeros(64, np.int32)
    want[32:] = 7
    assert_same(base, want)
    with pytest.raises(ValueError, match="no kernel 'nope'"):
        m.get_function("nope")


def test_ordering_across_streams(cl_place):
    n = 1 << 16
    x = da.ones(n, dtype="float32", device=cl_place)
    y = da.zeros(n, dtype="float32", device=cl_place)
    s1, s2 = da.stream(place=cl_place), da.stream(place=cl_place)
    with s1:
        AXPY(n, None, (x, y, 1.0, n, 2000))  # slow writer of y on s1
    with s2:
        z = (y + 1).eval()  # the reader on s2 waits for it
        AXPY(n, None, (y, x, 2.0, n, 0))  # x = 2 * y + x, after the slow write
    assert_same(z, np.full(n, 2, np.float32))
    assert_same(x, np.full(n, 3, np.float32))


def test_build_error_then_the_next_call_works(cl_place):
    bad = da.RawKernel("__kernel void broken(__global float* y) { y[0] = no_such_name; }", "broken")
    y = da.zeros(4, dtype="float32", device=cl_place)
    with pytest.raises(da.DeviceError, match="'broken': build failed: .*error.*no_such_name"):
        bad(1, None, (y,))
    AXPY(4, None, (da.ones(4, dtype="float32", device=cl_place), y, 1.0, 4, 0))
    assert_same(y, np.ones(4, np.float32))


def test_bad_input(cl_place):
    y = da.zeros(8, dtype="float32", device=cl_place)
    x = da.ones(8, dtype="float32", device=cl_place)
    with pytest.raises(ValueError, match="no '__kernel void missing"):
        da.RawKernel(SOURCE, "missing")
    with pytest.raises(TypeError, match="'axpy': takes 5 arguments"):
        AXPY(8, None, (x, y))
    with pytest.raises(TypeError, match="parameter 'x' is a __global pointer"):
        AXPY(8, None, (np.ones(8, np.float32), y, 1.0, 8, 0))
    with pytest.raises(ValueError, match="parameter 'x' must be C-contiguous"):
        AXPY(4, None, (x[::2], y, 1.0, 4, 0))
    with pytest.raises(TypeError, match="parameter 'n' is int32, got float64"):
        AXPY(8, None, (x, y, 1.0, np.float64(8), 0))
    with pytest.raises(ValueError, match="global_size"):
        AXPY(0, None, (x, y, 1.0, 8, 0))
    with pytest.raises(ValueError, match="OpenCL places only"):
        AXPY(8, None, (1, 2, 1.0, 8, 0), device="cpu")
    AXPY(8, None, (x, y, 1.0, 8, 0))
    assert_same(y, np.ones(8, np.float32))
