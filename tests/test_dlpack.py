"""DLPack (``darray/interop/dlpack.py``): host-addressable memory is shared both ways, other
device memory exports only as a requested copy, else BufferError."""
from __future__ import annotations

import numpy as np
import pytest

import darray as da
from darray.interop import dlpack


def test_cpu_place_shares_memory_both_ways() -> None:
    x = da.asarray(np.arange(6.0).reshape(2, 3), device="cpu")
    assert x.__dlpack_device__() == (dlpack.CPU, 0)
    view = np.from_dlpack(x)
    view[0, 0] = 42.0
    assert x.get()[0, 0] == 42.0
    host = np.arange(4, dtype=np.int32)
    y = da.from_dlpack(host, device="cpu")
    host[1] = -7
    assert y.get().tolist() == [0, -7, 2, 3] and y.dtype == da.int32
    z = da.from_dlpack(host, device="cpu", copy=True)
    host[2] = 99
    assert z.get().tolist() == [0, -7, 2, 3]


def test_views_export_their_strides(any_place) -> None:
    x = da.asarray(np.arange(12.0).reshape(3, 4), device=any_place)
    for v in (x[:, ::2], x.T, x[1]):  # device memory (a GPU's) is exported as a host copy
        copy = None if any_place.kind == "cpu" or dlpack._host_backed(v) else True
        assert np.array_equal(np.from_dlpack(v, copy=copy), v.get())


def test_opencl_host_backed_memory_is_shared(cl_place) -> None:
    x = da.asarray(np.arange(5.0), device=cl_place)
    y = x * 2  # pending until exported
    if not dlpack._host_backed(y):
        pytest.skip(f"{cl_place}'s buffers are not host memory")
    view = np.from_dlpack(y)
    assert view.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]
    view[0] = -1.0
    assert y.get()[0] == -1.0
    del y  # the exported view keeps the allocation alive
    assert da.zeros(5, device=cl_place).get().tolist() == [0.0] * 5 and view[0] == -1.0


def test_device_memory_needs_a_requested_copy(cl_place, monkeypatch) -> None:
    monkeypatch.setattr(dlpack, "_host_backed", lambda x: False)
    x = da.asarray(np.arange(3.0), device=cl_place)
    assert x.__dlpack_device__() == (dlpack.OPENCL, cl_place.index)
    with pytest.raises(BufferError, match="not host-addressable"):
        x.__dlpack__()
    assert np.from_dlpack(x, copy=True).tolist() == [0.0, 1.0, 2.0]
    assert np.from_dlpack(x, device="cpu").tolist() == [0.0, 1.0, 2.0]  # dl_device=(kDLCPU, 0)


def test_from_dlpack_onto_a_device_copies(cl_place) -> None:
    host = np.arange(3.0)
    x = da.from_dlpack(host, device=cl_place)
    host[0] = 5.0
    assert x.device == cl_place and x.get().tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(BufferError, match="copy=False"):
        da.from_dlpack(host, device=cl_place, copy=False)
    assert da.from_dlpack(da.asarray(host, device="cpu")).get().tolist() == [5.0, 1.0, 2.0]
