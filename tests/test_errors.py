"""Bad input: each a clear exception of NumPy's class, and the next call still works."""
from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest
from helpers import assert_same

import darray as da
from darray.place import runtime


def still_works(place) -> None:
    """A round trip, a fill kernel, a strided copy and a slice assignment after a failed call."""
    host = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = da.asarray(host, device=place)
    x[1:, ::2] = 0.5
    host[1:, ::2] = 0.5
    assert_same(x[::-1, 1::2].copy(), host[::-1, 1::2])
    assert_same(da.full((3,), 2, dtype=da.int8, device=place), np.full(3, 2, np.int8))
    if isinstance(place, da.CLPlace):
        s = da.alloc.stats(place)
        assert s["in_use_bytes"] >= 0 and s["cached_bytes"] >= 0


def test_rank_10(any_place):
    for call in (lambda: da.zeros((1,) * 10, device=any_place),
                 lambda: da.empty((2,) * 10, device=any_place),
                 lambda: da.asarray(np.zeros((1,) * 10), device=any_place),
                 lambda: da.zeros((1,) * 9, device=any_place)[None],
                 lambda: da.zeros((1,) * 8, device=any_place)[None, ..., None]):
        with pytest.raises(ValueError, match=r"at most 9 dimensions.*rank 10"):
            call()
        still_works(any_place)
    assert da.zeros((1,) * 9, device=any_place).ndim == 9 == da.MAX_RANK


@pytest.mark.parametrize("shape", [-1, (2, -1), (0, -3), (-2, 2, 2)], ids=str)
def test_negative_sizes(any_place, shape):
    for fn in (da.zeros, da.ones, da.empty):
        with pytest.raises(ValueError, match="negative dimensions"):
            fn(shape, device=any_place)
    with pytest.raises(ValueError, match="negative dimensions"):
        da.full(shape, 1.0, device=any_place)
    still_works(any_place)


@pytest.mark.parametrize("dtype", ["U5", object, "float128", "S3", "datetime64[s]", ">f4", "not a dtype", 5],
                         ids=str)
def test_unknown_dtype(any_place, dtype):
    with pytest.raises(TypeError, match="unsupported dtype"):
        da.zeros(3, dtype=dtype, device=any_place)
    with pytest.raises(TypeError, match="unsupported dtype"):
        da.ones((2, 2), device=any_place).astype(dtype)
    still_works(any_place)


@pytest.mark.parametrize("obj", [["a", "b"], np.array([1, None], dtype=object), [2 ** 64], np.array(["x"])],
                         ids=str)
def test_unknown_dtype_from_data(any_place, obj):
    with pytest.raises(TypeError, match="unsupported dtype"):
        da.asarray(obj, device=any_place)
    still_works(any_place)


def test_python_int_out_of_range(any_place):
    with pytest.raises(OverflowError):
        da.asarray(2 ** 70, device=any_place)
    with pytest.raises(OverflowError):
        da.asarray([1, 2], dtype=da.int8, device=any_place)[0:1].__setitem__(0, 1000)
    still_works(any_place)


@pytest.mark.parametrize("place", ["tpu", "cl:x", "gpu:", 5, "cuda:0", ""], ids=str)
def test_unknown_place(place):
    with pytest.raises(ValueError, match="cannot parse"):
        da.zeros(3, device=place)
    with pytest.raises(ValueError, match="cannot parse"):
        da.asarray([1, 2], device=place)
    with pytest.raises(ValueError, match="cannot parse"):
        da.zeros(3, device="cpu").to(place)
    with pytest.raises(ValueError, match="cannot parse"):
        da.alloc.stats(place)
    still_works("cpu")


def test_float16_without_fp16(cl_place, monkeypatch):
    """A device without cl_khr_fp16 (PoCL's CPU device; simulated on others)."""
    rt = runtime(cl_place)
    monkeypatch.setattr(rt, "info", dataclasses.replace(rt.info, fp16=False))
    info = rt.info
    calls = [lambda: da.zeros(3, dtype=da.float16, device=cl_place),
             lambda: da.asarray(np.ones(4, np.float16), device=cl_place),
             lambda: da.ones(2, device=cl_place).astype("float16"),
             lambda: da.full((2,), 1.5, dtype="f2", device=cl_place),
             lambda: da.arange(3, dtype=da.float16, device=cl_place),
             lambda: da.asarray(np.ones(3, np.float16), device="cpu").to(cl_place),
             lambda: da.zeros_like(da.zeros(2, device=cl_place), dtype=da.float16)]
    for call in calls:
        with pytest.raises(TypeError) as err:
            call()
        assert info.name in str(err.value) and "float16" in str(err.value) and "cl_khr_fp16" in str(err.value)
        still_works(cl_place)
    assert_same(da.asarray(np.ones(3, np.float16), device="cpu"), np.ones(3, np.float16))  # fine on the CPU


def test_float64_without_fp64(cl_place, monkeypatch):
    rt = runtime(cl_place)
    monkeypatch.setattr(rt, "info", dataclasses.replace(rt.info, fp64=False))
    for call in (lambda: da.zeros(3, dtype=da.float64, device=cl_place),
                 lambda: da.asarray(np.ones(2), device=cl_place),
                 lambda: da.asarray([1.5, 2.5], device=cl_place),
                 lambda: da.ones(2, dtype=da.float32, device=cl_place).astype(da.complex128)):
        with pytest.raises(TypeError, match=rf"{re.escape(rt.info.name)}.*float64|complex128.*cl_khr_fp64"):
            call()
    assert da.zeros(3, device=cl_place).dtype == np.float32  # the default float follows the device
    assert da.arange(0, 1, 0.25, device=cl_place).dtype == np.float32
    assert da.linspace(0, 1, 5, device=cl_place).dtype == np.float32
    assert da.full((2,), 1.5, device=cl_place).dtype == np.float32
    assert_same(da.eye(2, device=cl_place), np.eye(2, dtype=np.float32))
    monkeypatch.undo()
    still_works(cl_place)


@pytest.mark.parametrize("key", [3, -4, (0, 6), (slice(None), -7), (Ellipsis, 6), (1, 2, 3)], ids=str)
def test_index_out_of_range(any_place, key):
    x = da.zeros((3, 6), device=any_place)
    with pytest.raises(IndexError):
        x[key]
    with pytest.raises(IndexError):
        x[key] = 1.0
    assert_same(x, np.zeros((3, 6)))
    still_works(any_place)


@pytest.mark.parametrize("key", [1.5, (0, 2.0), (Ellipsis, Ellipsis)], ids=str)
def test_bad_index_types(any_place, key):
    x = da.zeros((3, 6), device=any_place)
    with pytest.raises(IndexError):
        x[key]
    still_works(any_place)


@pytest.mark.parametrize("value_shape", [(2,), (3, 2), (4, 3), (1, 1, 4)], ids=str)
def test_setitem_not_broadcastable(any_place, value_shape):
    x = da.zeros((3, 6), device=any_place)
    for value in (np.ones(value_shape), da.ones(value_shape, device=any_place)):
        with pytest.raises(ValueError, match="broadcast"):
            x[:, ::2] = value
    with pytest.raises(ValueError):
        x[:, ::2] = np.ones(value_shape).tolist()
    assert_same(x, np.zeros((3, 6)))
    still_works(any_place)


def test_setitem_bad_values(any_place):
    x = da.zeros(3, device=any_place)
    with pytest.raises(ValueError):
        x[...] = np.array(["not a number"] * 3)
    with pytest.raises(ValueError):
        x[...] = [[1, 2], [3]]
    with pytest.raises(TypeError):
        x[0] = 1 + 1j
    assert_same(x, np.zeros(3))
    still_works(any_place)


def test_mismatched_places(cl_place):
    x = da.zeros(3, device=cl_place)
    with pytest.raises(ValueError, match=r"cpu.*cl:|cl:.*cpu"):
        x[...] = da.ones(3, device="cpu")
    y = da.zeros(3, device="cpu")
    with pytest.raises(ValueError, match=r"cpu.*cl:|cl:.*cpu"):
        y[...] = da.ones(3, device=cl_place)
    still_works(cl_place)
    still_works("cpu")


def test_scalar_conversions_of_large_arrays(any_place):
    x = da.ones((2, 3), device=any_place)
    for conv, err in ((int, TypeError), (float, TypeError), (complex, TypeError), (bool, ValueError)):
        with pytest.raises(err):
            conv(x)
    with pytest.raises(ValueError, match="size 1"):
        x.item()
    with pytest.raises(TypeError):
        [0, 1][x]
    still_works(any_place)


def test_build_failure_carries_the_log(cl_place):
    programs = runtime(cl_place).programs
    with pytest.raises(da.DeviceError) as err:
        programs.kernel("bad source", "k")
    exc = err.value
    assert isinstance(exc, RuntimeError)
    assert exc.status == "CL_BUILD_PROGRAM_FAILURE"
    assert "bad" in exc.log and exc.log in str(exc)
    assert "build failed" in str(exc)
    with pytest.raises(da.DeviceError) as err:
        programs.kernel("__kernel void k(__global int *x) { x[0] = undefined_name; }", "k")
    assert "undefined_name" in err.value.log
    still_works(cl_place)


def test_opencl_errors_carry_the_status(cl_place):
    programs = runtime(cl_place).programs
    with pytest.raises(da.DeviceError) as err:
        programs.kernel("__kernel void real_name(__global int *x) { x[0] = 1; }", "other_name")
    assert err.value.status == "CL_INVALID_KERNEL_NAME"
    assert "CL_INVALID_KERNEL_NAME" in str(err.value)
    assert programs.kernel("__kernel void real_name(__global int *x) { x[0] = 1; }", "real_name") is not None
    still_works(cl_place)


def test_dtype_errors_name_op_and_dtype(any_place):
    with pytest.raises(TypeError, match=r"darray empty.*'U5'"):
        da.empty(2, dtype="U5", device=any_place)
    with pytest.raises(TypeError, match=r"darray astype.*'object'"):
        da.zeros(2, device=any_place).astype(object)
    with pytest.raises(TypeError, match=r"darray asarray.*'U1'"):
        da.asarray(["a"], device=any_place)
