"""darray.interop: pyopencl arrays sharing darray's buffers (events both ways) and pickling."""
from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pytest
from helpers import DEVICE_DTYPES

import darray as da
from darray.place import runtime


def _value(dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    return (np.arange(int(np.prod(shape))) % 7).astype(dtype).reshape(shape)


@pytest.mark.parametrize("dtype", DEVICE_DTYPES, ids=str)
def test_pickle_every_dtype(any_place, dtype):
    if dtype in (np.float64, np.complex128) and any_place.kind != "cpu" \
            and not da.place.get_device_properties(any_place.index)["fp64"]:
        pytest.skip("no float64 on this device")
    h = _value(dtype, (3, 4))
    x = da.asarray(h, device=any_place)
    y = pickle.loads(pickle.dumps(x))
    assert y.place == x.place and y.dtype == x.dtype
    np.testing.assert_array_equal(y.get(), h)


def test_pickle_views_and_pending(any_place):
    h = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    x = da.asarray(h, device=any_place)
    for v, want in ((x.T[1:, ::2], h.T[1:, ::2]), (x[:, -1], h[:, -1]), (x * 2 + 1, h * 2 + 1),
                    (x[0, 0, 0], h[0, 0, 0]), (x[:0], h[:0])):
        y = pickle.loads(pickle.dumps(v))
        assert y.shape == want.shape and y.place == x.place
        np.testing.assert_array_equal(y.get(), want)


def test_pickle_in_another_process(cl_place):
    """A pickle made here loads in a fresh process onto the same kind of device."""
    blob = pickle.dumps(da.arange(5, dtype=da.int32, device=cl_place) * 3)
    code = textwrap.dedent("""
        import pickle, sys
        x = pickle.loads(sys.stdin.buffer.read())
        print(x.place.kind, x.get().tolist())
    """)
    out = subprocess.run([sys.executable, "-c", code], input=blob, capture_output=True, check=True, timeout=120)
    assert out.stdout.decode().split("\n")[0] == f"cl {[0, 3, 6, 9, 12]}"


def test_to_pyopencl_shares_and_orders(cl_place):
    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = da.asarray(h, device=cl_place)
    y = x * 2                                   # pending in darray
    a = y.to_pyopencl()
    assert isinstance(a, cla.Array) and a.shape == (3, 4)
    np.testing.assert_array_equal(a.get(), h * 2)   # pyopencl waits for darray's kernel
    a += 1                                      # pyopencl writes darray's memory
    back = da.from_pyopencl(a)
    np.testing.assert_array_equal((back - 1).get(), h * 2)
    np.testing.assert_array_equal(y.get(), h * 2 + 1)  # the same memory
    with da.stream(place=cl_place):            # another stream, after the hand back
        np.testing.assert_array_equal((y + 0).get(), h * 2 + 1)


def test_asarray_copy_true_copies(cl_place):
    x = da.arange(4, dtype=da.float32, device=cl_place)
    y = da.asarray(x.to_pyopencl(), copy=True)
    y[0] = 9
    np.testing.assert_array_equal(x.get(), [0, 1, 2, 3])
    assert da.asarray(x.to_pyopencl(), copy=False).get()[0] == 0


def test_to_pyopencl_views(cl_place):
    h = np.arange(30, dtype=np.int32).reshape(5, 6)
    x = da.asarray(h, device=cl_place)
    for v, want in ((x[1:, ::2], h[1:, ::2]), (x.T, h.T), (x[2], h[2]), (x[:0], h[:0])):
        a = v.to_pyopencl()
        assert a.shape == want.shape and a.strides == want.strides
        np.testing.assert_array_equal(da.from_pyopencl(a).get(), want)
    np.testing.assert_array_equal(x[2].to_pyopencl().get(), h[2])


def test_from_pyopencl_waits_for_pyopencl(cl_place):
    """Work pyopencl still has queued on its own queue runs before darray's first read."""
    rt = runtime(cl_place)
    q = cl.CommandQueue(rt.context, rt.device)
    n = 1 << 20
    a = cla.zeros(q, n, np.float32)
    for _ in range(5):
        a += 1.0
    x = da.from_pyopencl(a)
    assert float(da.sum(x).get()) == 5.0 * n
    np.testing.assert_array_equal(da.asarray(a[10:20]).get(), np.full(10, 5, np.float32))


def test_foreign_context(cl_place):
    rt = runtime(cl_place)
    ctx = cl.Context([rt.device])  # kept referenced: Intel's runtime drops a context only its queue holds
    a = cla.to_device(cl.CommandQueue(ctx), np.arange(6, dtype=np.int16))
    with pytest.raises(ValueError, match="context is not darray's"):
        da.from_pyopencl(a)
    with pytest.raises(ValueError, match="copy=False"):
        da.asarray(a, copy=False)
    x = da.asarray(a, device=cl_place)      # a host copy
    np.testing.assert_array_equal(x.get(), np.arange(6, dtype=np.int16))
    assert da.asarray(a, device="cpu").place.kind == "cpu"


def test_to_pyopencl_needs_an_opencl_place():
    with pytest.raises(ValueError, match="not on an OpenCL device"):
        da.ones(3, device="cpu").to_pyopencl()
