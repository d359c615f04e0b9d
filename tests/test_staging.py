"""Pinned staging buffers (``darray.transfer.staging``): device -> host reads into new arrays, and
transfers both ways in chunks through two buffers (uploads, ``get(out=)``, large reads).

The CI machines have CPU devices only, whose memory is host memory; the staging path is
forced by declaring every device's memory not host memory (``transfer.copies._unified``), with the
host copies of host-backed devices off (as ``DARRAY_HOST_BACKED=0``)."""
from __future__ import annotations

import gc

import numpy as np
import pytest
from helpers import DEVICE_DTYPES, in_threads

import darray as da
from darray.transfer import copies, staging

MiB = 1 << 20


@pytest.fixture(params=[0, 1], ids=["cl:0", "cl:1"])
def staged(request, cl_place, monkeypatch):
    """Each OpenCL device in turn, with reads into new arrays through fresh staging pools."""
    if request.param >= da.place.device_count() or not da.place.probe(request.param).ok:
        pytest.skip(f"no usable OpenCL device cl:{request.param}")
    monkeypatch.setattr(copies, "_unified", lambda place: False)
    monkeypatch.setattr(copies, "HOST_COPIES", False)
    pools: dict = {}
    monkeypatch.setattr(staging, "_pools", pools)
    yield da.place.parse(f"cl:{request.param}")
    gc.collect()
    for p in pools.values():
        p.close()


def stats(place) -> dict[str, int]:
    gc.collect()
    return staging.stats(place)


@pytest.mark.parametrize("dtype", DEVICE_DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (7,), (3, 5), (MiB // 8 - 1,), (MiB // 8,),
                                   (5, MiB // 16 + 3)], ids=str)
def test_values_dtypes_shapes(staged, monkeypatch, dtype, shape):
    monkeypatch.setattr(staging, "STAGE_MIN", 1)  # every non-empty read is staged
    host = np.random.default_rng(3).integers(0, 100, shape).astype(dtype)
    x = da.asarray(host, device=staged)
    got = x.get()
    assert got.shape == shape and got.dtype == dtype and got.flags.c_contiguous and got.flags.writeable
    np.testing.assert_array_equal(got, host)
    if got.size:
        assert isinstance(got.base, staging._Lease)
        assert stats(staged)["leased_bytes"] >= got.nbytes
    else:
        assert stats(staged)["created"] == 0


@pytest.mark.parametrize("nbytes, staged_read", [(staging.STAGE_MIN - 8, False), (staging.STAGE_MIN, True),
                                                 (3 * staging.STAGE_MIN + 8, True)])
def test_stage_min(staged, nbytes, staged_read):
    host = np.arange(nbytes // 8, dtype=np.float64)
    got = da.asarray(host, device=staged).get()
    np.testing.assert_array_equal(got, host)
    assert isinstance(got.base, staging._Lease) == staged_read
    assert stats(staged)["created"] == int(staged_read)


def test_independent_of_the_device_array(staged):
    host = np.arange(MiB // 4, dtype=np.float32)
    x = da.asarray(host, device=staged)
    got = x.get()
    got[:] = -1
    np.testing.assert_array_equal(x.get(), host)
    np.testing.assert_array_equal(got, -1)
    x[:10] = 7  # and a write to x after the read does not show in it
    np.testing.assert_array_equal(got[:10], -1)


def test_buffer_returns_and_is_reused(staged):
    x = da.asarray(np.arange(MiB // 2, dtype=np.int32), device=staged)  # 2 MiB, uploaded through a staging buffer
    assert stats(staged) == {"free": 1, "free_bytes": 2 * MiB, "leased_bytes": 0, "created": 1, "reused": 0,
                             "freed": 0}
    got = x.get()
    address = got.ctypes.data
    assert stats(staged) == {"free": 0, "free_bytes": 0, "leased_bytes": 2 * MiB, "created": 1, "reused": 1,
                             "freed": 0}
    del got
    assert stats(staged) == {"free": 1, "free_bytes": 2 * MiB, "leased_bytes": 0, "created": 1, "reused": 1,
                             "freed": 0}
    again = x[MiB // 4:].get()  # 1 MiB fits in the 2 MiB buffer
    assert again.ctypes.data == address
    np.testing.assert_array_equal(again, np.arange(MiB // 4, MiB // 2, dtype=np.int32))
    s = stats(staged)
    assert (s["created"], s["reused"], s["free"]) == (1, 2, 0)
    del again
    da.alloc.empty_cache(staged)  # frees the kept staging buffers too
    s = stats(staged)
    assert (s["free"], s["freed"]) == (0, 1)
    np.testing.assert_array_equal(x.get(), np.arange(MiB // 2, dtype=np.int32))  # a new one is pinned


def test_views_keep_the_buffer(staged):
    host = np.arange(MiB // 4, dtype=np.float32).reshape(256, -1)
    got = da.asarray(host, device=staged).get()
    view = got[3:, ::2].T
    del got
    assert stats(staged)["free"] == 0
    np.testing.assert_array_equal(view, host[3:, ::2].T)
    del view
    assert stats(staged)["free"] == 1


def test_many_alive_at_once(staged):
    host = np.arange(MiB // 4, dtype=np.float32)
    x = da.asarray(host, device=staged)
    arrays = [x.get() for _ in range(staging.POOL_COUNT + 3)]
    for i, a in enumerate(arrays):
        a[0] = -i
    for i, a in enumerate(arrays):
        assert a[0] == -i
        np.testing.assert_array_equal(a[1:], host[1:])
    assert len({a.ctypes.data for a in arrays}) == len(arrays)
    assert stats(staged)["leased_bytes"] == len(arrays) * MiB
    del arrays, a
    s = stats(staged)
    assert (s["free"], s["leased_bytes"], s["freed"]) == (staging.POOL_COUNT, 0, 3)


def test_pool_bounds(staged, monkeypatch):
    """A place pins at most POOL_BYTES: reads past it go to pageable memory; room is made by
    freeing the oldest kept buffers."""
    monkeypatch.setattr(staging, "POOL_BYTES", 5 * MiB)
    x = da.asarray(np.zeros(2 * MiB, np.uint8), device=staged)
    a, b = x.get(), x.get()
    c = x.get()  # a third buffer would pass POOL_BYTES
    assert isinstance(a.base, staging._Lease) and isinstance(b.base, staging._Lease)
    assert not isinstance(c.base, staging._Lease)
    np.testing.assert_array_equal(c, 0)
    del a, b, c
    s = stats(staged)
    assert (s["free"], s["free_bytes"], s["created"], s["freed"]) == (2, 4 * MiB, 2, 0)
    big = da.asarray(np.ones(4 * MiB, np.uint8), device=staged).get()  # no fit: both kept ones go
    assert isinstance(big.base, staging._Lease)
    s = stats(staged)
    assert (s["free"], s["leased_bytes"], s["created"], s["freed"]) == (0, 4 * MiB, 3, 2)
    too_big = da.asarray(np.ones(6 * MiB, np.uint8), device=staged).get()
    assert not isinstance(too_big.base, staging._Lease)
    np.testing.assert_array_equal(too_big, 1)


def test_failing_read_returns_the_buffer(staged, monkeypatch):
    x = da.asarray(np.arange(MiB, dtype=np.uint8), device=staged)

    def fail(*args, **kwargs):
        raise RuntimeError("read failed")

    real = copies._read_into
    monkeypatch.setattr(copies, "_read_into", fail)
    with pytest.raises(RuntimeError, match="read failed"):
        x.get()
    s = stats(staged)
    assert (s["free"], s["leased_bytes"], s["created"], s["reused"]) == (1, 0, 1, 1)  # the upload's buffer
    monkeypatch.setattr(copies, "_read_into", real)
    np.testing.assert_array_equal(x.get(), np.arange(MiB, dtype=np.uint8))
    assert stats(staged)["reused"] == 2


def test_existing_out_and_strided_views(staged):
    host = np.arange(MiB, dtype=np.float32).reshape(1024, -1)
    x = da.asarray(host, device=staged)
    out = np.empty_like(host)
    assert x.get(out=out) is out  # in chunks through the staging buffer
    np.testing.assert_array_equal(out, host)
    np.testing.assert_array_equal(x[:, 1:].get(), host[:, 1:])  # read whole into a staging buffer, copied on the host
    s = stats(staged)
    assert (s["created"], s["free"], s["leased_bytes"]) == (1, 1, 0)
    sparse = x[::3].get()  # gathered on the device, then a contiguous read: staged
    np.testing.assert_array_equal(sparse, host[::3])
    assert isinstance(sparse.base, staging._Lease)


def test_unified_devices_are_not_staged(cl_place, monkeypatch):
    monkeypatch.setattr(copies, "_unified", lambda place: True)
    monkeypatch.setattr(copies, "HOST_COPIES", False)
    monkeypatch.setattr(staging, "_pools", {})
    got = da.asarray(np.arange(MiB, dtype=np.float32), device=cl_place).get()
    assert not isinstance(got.base, staging._Lease)
    assert staging.stats(cl_place)["created"] == 0


def test_threads(staged):
    host = np.arange(MiB // 2, dtype=np.int32)
    x = da.asarray(host, device=staged)

    def work(i: int) -> None:
        for _ in range(10):
            got = x[i:].get()
            np.testing.assert_array_equal(got, host[i:])
            del got

    in_threads(work)
    s = stats(staged)
    assert s["leased_bytes"] == 0 and s["free"] <= staging.POOL_COUNT and s["created"] <= 4 + s["freed"]


@pytest.fixture
def chunked(staged, monkeypatch):
    """``staged`` with every transfer of 1 byte or more staged, in chunks of 3 KiB + 8 bytes."""
    monkeypatch.setattr(staging, "STAGE_MIN", 1)
    monkeypatch.setattr(copies, "CHUNK", 3 * 1024 + 8)
    return staged


@pytest.mark.parametrize("dtype", [*DEVICE_DTYPES, np.dtype(np.float16)], ids=str)
@pytest.mark.parametrize("shape", [(), (1,), (0, 3), (3 * 1024 + 7,), (5, 1031)], ids=str)
def test_chunked_both_ways(chunked, dtype, shape):
    """Uploads and ``get(out=)`` of any size in chunks through two staging buffers: NumPy's values."""
    if dtype == np.float16 and not da.place.get_device_properties(chunked.index)["fp16"]:
        pytest.skip("no float16 on this device")
    host = np.random.default_rng(5).integers(0, 100, shape).astype(dtype)
    x = da.asarray(host[..., ::-1] if host.ndim else host, device=chunked)  # a host view: made contiguous first
    want = host[..., ::-1] if host.ndim else host
    out = np.full(shape, 7, dtype)
    assert x.get(out=out) is out
    np.testing.assert_array_equal(out, want)
    wide = np.zeros((2, *shape), dtype)  # ``out`` a C-contiguous part of a larger array
    x.get(out=wide[1, ...])
    np.testing.assert_array_equal(wide[1, ...], want)
    np.testing.assert_array_equal(wide[0], 0)
    s = stats(chunked)
    assert s["leased_bytes"] == 0 and s["created"] <= 2


def test_chunked_views(chunked):
    host = np.arange(40 * 1031, dtype=np.float64).reshape(40, 1031)
    x = da.asarray(host, device=chunked)
    for key in [np.s_[3:], np.s_[:, 2:], np.s_[::-1], np.s_[5:30, 7:]]:
        out = np.empty(host[key].shape, host.dtype)
        x[key].get(out=out)
        np.testing.assert_array_equal(out, host[key])
        np.testing.assert_array_equal(x[key].get(), host[key])
    out = np.empty((1031, 40))
    x.T.get(out=out)
    np.testing.assert_array_equal(out, host.T)
    y = da.zeros((40, 1031), device=chunked)
    y[...] = host  # a host value: uploaded in chunks
    np.testing.assert_array_equal(y.get(), host)


def test_chunked_with_other_streams(chunked):
    """Transfers wait for the commands of other streams they depend on, and those for them."""
    host = np.arange(4 * 4096, dtype=np.float32)
    x = da.asarray(host, device=chunked)
    s = da.stream(place=chunked)
    for k in range(3):
        with s:
            y = x * 2 + k
        out = np.empty_like(host)
        y.eval().get(out=out)
        np.testing.assert_array_equal(out, host * 2 + k)
        with s:
            z = da.asarray(host + k, device=chunked) - 1
        np.testing.assert_array_equal(z.get(), host + k - 1)


def test_chunked_next_call_works_after_bad_out(chunked):
    x = da.asarray(np.arange(5000, dtype=np.int32), device=chunked)
    with pytest.raises(TypeError):
        x.get(out=np.empty(5000, np.int64))
    with pytest.raises(ValueError):
        x.get(out=np.empty(10000, np.int32)[::2])
    out = np.empty(5000, np.int32)
    x.get(out=out)
    np.testing.assert_array_equal(out, np.arange(5000))
    assert stats(chunked)["leased_bytes"] == 0


def test_one_buffer_when_the_pool_has_no_second(chunked, monkeypatch):
    """Without room for two buffers, one takes every chunk in turn; without one, a plain command."""
    host = np.arange(3 * 4096, dtype=np.int64)  # 96 KiB: 1 MiB buffers
    monkeypatch.setattr(staging, "POOL_BYTES", MiB)
    x = da.asarray(host, device=chunked)
    out = np.empty_like(host)
    x.get(out=out)
    np.testing.assert_array_equal(out, host)
    assert stats(chunked)["created"] == 1
    monkeypatch.setattr(staging, "POOL_BYTES", 0)
    da.alloc.empty_cache(chunked)
    np.testing.assert_array_equal(da.asarray(host + 1, device=chunked).get(), host + 1)
