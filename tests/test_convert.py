"""Conversions: NumPy -> darray -> NumPy round trips, astype, copy, to(), asarray copy semantics."""
from __future__ import annotations

import re

import numpy as np
import pytest
from helpers import DEVICE_DTYPES, assert_same, shapes, viewed
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import darray as da


def same_bits(got: np.ndarray, want: np.ndarray) -> None:
    """Shape, dtype and every byte equal (NaN payloads and the sign of -0.0 included)."""
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    assert np.ascontiguousarray(got).reshape(-1).view(np.uint8).tobytes() == \
        np.ascontiguousarray(want).reshape(-1).view(np.uint8).tobytes(), (got, want)


def special_values(dtype: np.dtype) -> np.ndarray:
    """Edge values of ``dtype``: NaN, +-inf, -0.0, extremes, large integers."""
    if dtype.kind == "b":
        return np.array([True, False, True], dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.array([info.min, info.max, 0, 1, info.max - 1, info.min + 1, info.max // 3], dtype)
    real = np.dtype(f"f{dtype.itemsize // 2}") if dtype.kind == "c" else dtype
    fi = np.finfo(real)
    vals = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, fi.max, fi.min, fi.tiny, fi.smallest_subnormal, -1.5,
                     2.0 ** (fi.nmant + 1) + 2, -np.nan], real)
    if dtype.kind == "c":
        out = np.empty(len(vals), dtype)
        out.real, out.imag = vals, vals[::-1]
        return out
    return vals


def make_view(host: np.ndarray, kind: str) -> np.ndarray:
    """A strided, transposed or negative-step NumPy view of ``host``."""
    if kind == "strided":
        return host[tuple(slice(None, None, 2) for _ in range(host.ndim))]
    if kind == "transposed":
        return host.T
    if kind == "negative":
        return host[tuple(slice(None, None, -1) for _ in range(host.ndim))]
    return host


# -- round trips ------------------------------------------------------------------------


@given(dtype=st.sampled_from(DEVICE_DTYPES), shape=shapes(0, 9, 0, 3), data=st.data())
def test_round_trip_exact(any_place, dtype, shape, data):
    host = data.draw(hnp.arrays(dtype, shape))
    x = da.asarray(host, device=any_place)
    assert x.shape == host.shape and x.dtype == host.dtype and x.ndim == host.ndim
    assert x.size == host.size and x.nbytes == host.nbytes and x.place == any_place and x.device == any_place
    same_bits(x.get(), host)
    same_bits(np.asarray(x), host)


@pytest.mark.parametrize("dtype", DEVICE_DTYPES, ids=str)
def test_round_trip_special_values(any_place, dtype):
    host = special_values(dtype)
    same_bits(da.asarray(host, device=any_place).get(), host)
    if dtype.kind == "f":
        back = da.asarray(np.array([-0.0], dtype), device=any_place).get()
        assert np.signbit(back[0])


def test_round_trip_float16(any_place):
    host = special_values(np.dtype("float16"))
    if isinstance(any_place, da.CLPlace) and not da.place.runtime(any_place).info.fp16:
        name = da.place.runtime(any_place).info.name
        with pytest.raises(TypeError, match=rf"device .{re.escape(name)}. cannot do float16"):
            da.asarray(host, device=any_place)
        with pytest.raises(TypeError, match="float16"):
            da.asarray(host, device="cpu").to(any_place)
    else:
        same_bits(da.asarray(host, device=any_place).get(), host)
        same_bits(da.asarray(host[::-2], device=any_place).get(), host[::-2])


@given(dtype=st.sampled_from(DEVICE_DTYPES), shape=shapes(1, 9, 0, 4),
       kind=st.sampled_from(["strided", "transposed", "negative"]), data=st.data())
def test_round_trip_from_views(any_place, dtype, shape, kind, data):
    host = make_view(data.draw(hnp.arrays(dtype, shape)), kind)
    same_bits(da.asarray(host, device=any_place).get(), host)


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 4, 2), (1, 0, 1, 0), (0,) * 9, ()], ids=str)
def test_empty_and_scalar_shapes(any_place, shape):
    host = np.ones(shape, np.float32)
    x = da.asarray(host, device=any_place)
    assert x.shape == shape and x.size == host.size
    same_bits(x.get(), host)
    if host.size:
        assert x.strides == host.strides


def test_from_lists_and_scalars(any_place):
    for obj in ([[1, 2], [3, 4]], [1.5, -0.0], [True, False], [1j, 2], 7, 2.5, True, 1 + 2j, [], [[]]):
        assert_same(da.asarray(obj, device=any_place), np.asarray(obj))


def test_non_native_byte_order(any_place):
    host = np.arange(6, dtype=">i4").reshape(2, 3)
    assert_same(da.asarray(host, device=any_place), host.astype("=i4"))


# -- copies, casts, places ---------------------------------------------------------------


def cast_source(src: np.dtype, dst: np.dtype, n: int = 64) -> np.ndarray:
    """Values of ``src`` whose cast to ``dst`` is defined in C and NumPy alike."""
    rng = np.random.default_rng(src.num * 100 + dst.num)
    if src.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if src.kind in "iu":
        info = np.iinfo(src)
        vals = rng.integers(info.min, info.max, n, dtype=src, endpoint=True)
        vals[:4] = [info.min, info.max, 0, 1]
        return vals
    real = np.dtype(f"f{src.itemsize // 2}") if src.kind == "c" else src
    vals = np.concatenate([rng.standard_normal(n // 2) * 1e3, rng.standard_normal(n - n // 2)]).astype(real)
    vals[:4] = [0.0, -0.0, 0.5, -2.75]
    if dst.kind in "iu":  # float -> int: NaN, inf and out-of-range values are undefined in C
        bits = dst.itemsize * 8
        half = 2.0 ** (bits - 1) * 0.99
        lo, hi = (0.0, 2.0 ** bits * 0.99) if dst.kind == "u" else (-half, half)
        vals = np.where((vals >= lo) & (vals < hi), vals, real.type(1.25))
    elif dst.kind in "fc":
        vals[4:8] = [np.nan, np.inf, -np.inf, np.finfo(real).max]
    if src.kind == "c":
        out = np.empty(n, src)
        out.real, out.imag = vals, vals[::-1]
        return out
    return vals


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("src", DEVICE_DTYPES, ids=str)
def test_astype_all_pairs(any_place, src):
    for dst in DEVICE_DTYPES:
        host = cast_source(src, dst)
        x = da.asarray(host, device=any_place)
        with np.errstate(all="ignore"):
            want = host.astype(dst)
        with np.errstate(all="ignore"):
            got = x.astype(dst)
        assert got.place == any_place
        same_bits(got.get(), want) if dst.kind != "b" else assert_same(got, want)


@given(shape=shapes(1, 5, 0, 5), kind=st.sampled_from(["strided", "transposed", "negative"]),
       dst=st.sampled_from(["float64", "int32"]))
def test_astype_of_views(any_place, shape, kind, dst):
    host = np.arange(int(np.prod(shape)), dtype=np.int16).reshape(shape)
    view = make_view(host, kind)
    x = make_view(da.asarray(host, device=any_place), kind)
    assert_same(x.astype(dst), view.astype(dst))


def test_astype_copy_flag(any_place):
    x = da.ones(3, dtype=da.float32, device=any_place)
    assert x.astype(da.float32, copy=False) is x
    y = x.astype(da.float32)
    assert y is not x
    y[0] = 5
    assert_same(x, np.ones(3, np.float32))
    assert x.astype("float64", copy=False).dtype == np.float64


def test_copy_is_independent(any_place):
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = da.asarray(host, device=any_place)
    view = x[::-1, 1::2]
    c = view.copy()
    assert_same(c, host[::-1, 1::2])
    assert c.strides == np.ascontiguousarray(host[::-1, 1::2]).strides
    c[...] = 0
    x[...] = 1
    assert_same(c, np.zeros((3, 2), np.float32))


def test_to_between_places(cl_place):
    host = np.arange(24, dtype=np.complex64).reshape(2, 3, 4) * (1 - 2j)
    x = da.asarray(host, device=cl_place)
    c = x.to("cpu")
    assert c.place == da.CPUPlace()
    assert_same(c, host)
    back = c.to_device(cl_place)
    assert back.place == cl_place
    assert_same(back, host)
    assert x.to(cl_place) is x
    assert_same(x[:, ::-1, 1::2].to("cpu"), host[:, ::-1, 1::2])
    assert_same(c[:, ::-1, 1::2].to(cl_place), host[:, ::-1, 1::2])


def test_asarray_copy_semantics(any_place):
    host = np.arange(6, dtype=np.float32)
    x = da.asarray(host, device=any_place)
    host[0] = 100
    assert x.get()[0] == 0  # asarray copied the host data
    assert da.asarray(x) is x
    assert da.asarray(x, copy=False) is x
    assert da.asarray(x, dtype=da.float32, device=any_place, copy=None) is x
    y = da.asarray(x, copy=True)
    assert y is not x
    y[0] = 9
    assert x.get()[0] == 0
    z = da.asarray(x, dtype=da.int64)
    assert z.dtype == np.int64 and z is not x
    with pytest.raises(ValueError, match="copy=False"):
        da.asarray(x, dtype=da.int64, copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        da.asarray(host, copy=False, device=any_place)
    other = da.CPUPlace() if isinstance(any_place, da.CLPlace) else any_place
    if other != any_place:
        with pytest.raises(ValueError, match="copy=False"):
            da.asarray(x, device=other, copy=False)
        moved = da.asarray(x, device=other)
        assert moved.place == other
        assert_same(moved, x.get())


def test_numpy_protocol(any_place):
    host = np.arange(5, dtype=np.int32)
    x = da.asarray(host, device=any_place)
    assert_same(np.asarray(x, dtype=np.float64), host.astype(np.float64))
    out = np.asarray(x, copy=True)
    out[0] = 7
    assert x.get()[0] == 0
    if isinstance(any_place, da.CLPlace):
        with pytest.raises(ValueError, match="copy"):
            np.asarray(x, copy=False)
    else:  # host memory: a view, as NumPy's protocol asks for copy=False
        view = np.asarray(x[1:], copy=False)
        view[0] = 7
        assert x.get().tolist() == [0, 7, 2, 3, 4]
        with pytest.raises(ValueError, match="copy"):
            np.asarray(x, dtype=np.float64, copy=False)


# -- get(out=) and the host-read paths -----------------------------------------------------

from darray.transfer import copies  # noqa: E402


@pytest.fixture(params=["host", "read", "map"])
def read_path(request, cl_place, monkeypatch):
    """Each device-to-host path in turn: a host copy (host-backed devices), read commands, or
    map + host copy for every size."""
    if request.param == "host":
        if not da.place.runtime(cl_place).host_backed:
            pytest.skip("the device is not host-backed: no host copies")
        return request.param
    monkeypatch.setattr(copies, "HOST_COPIES", False)
    if request.param == "map":
        if not da.place.runtime(cl_place).info.host_unified_memory:
            pytest.skip("the device's memory is not host memory: no map path")
        monkeypatch.setattr(copies, "MAP_MIN", 0)
    else:
        monkeypatch.setattr(copies, "MAP_MIN", 1 << 62)
    return request.param


@pytest.mark.parametrize("dtype", DEVICE_DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(), (1,), (7,), (3, 5), (2, 3, 4), (1, 1, 9), (4097,), (0,), (3, 0)], ids=str)
def test_get_out_round_trip(any_place, dtype, shape):
    size = int(np.prod(shape))
    host = np.resize(special_values(dtype), size).reshape(shape)
    x = da.asarray(host, device=any_place)
    out = np.empty(shape, dtype)
    assert x.get(out=out) is out
    same_bits(out, host)
    assert x.get(out=None).shape == shape


@pytest.mark.parametrize("kind", ["strided", "transposed", "negative"])
def test_get_out_of_views(any_place, kind):
    host = np.arange(6 * 10 * 4, dtype=np.int32).reshape(6, 10, 4)
    want = make_view(host, kind)
    x = make_view(da.asarray(host, device=any_place), kind)
    out = np.full(want.shape, -1, np.int32)
    assert x.get(out=out) is out
    same_bits(out, want)
    sparse = da.asarray(np.arange(1000, dtype=np.float32), device=any_place)[3::97]
    out = np.empty(sparse.shape, np.float32)
    same_bits(sparse.get(out=out), np.arange(1000, dtype=np.float32)[3::97])


def test_get_out_of_pending_graph(any_place):
    x = da.asarray(np.arange(12, dtype=np.float32).reshape(3, 4), device=any_place)
    y = x * 2 + 1
    out = np.empty((3, 4), np.float32)
    same_bits(y.get(out=out), np.arange(12, dtype=np.float32).reshape(3, 4) * 2 + 1)


def test_get_out_errors(any_place):
    x = da.asarray(np.arange(12, dtype=np.float32).reshape(3, 4), device=any_place)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        x.get(out=[0.0] * 12)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        x.get(out=x)
    with pytest.raises(TypeError, match="dtype float64"):
        x.get(out=np.empty((3, 4), np.float64))
    with pytest.raises(ValueError, match=r"shape \(4, 3\)"):
        x.get(out=np.empty((4, 3), np.float32))
    with pytest.raises(ValueError, match=r"shape \(12,\)"):
        x.get(out=np.empty(12, np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        x.get(out=np.empty((4, 3), np.float32).T)
    with pytest.raises(ValueError, match="C-contiguous"):
        x.get(out=np.empty((3, 8), np.float32)[:, ::2])
    ro = np.empty((3, 4), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        x.get(out=ro)
    same_bits(x.get(), np.arange(12, dtype=np.float32).reshape(3, 4))  # nothing left broken


def test_read_paths_large_and_strided(read_path, cl_place):
    n = (1 << 20) + 37  # odd length: the thread split's last part is short
    host = np.random.default_rng(7).standard_normal(n).astype(np.float32)
    x = da.asarray(host, device=cl_place)
    same_bits(x.get(), host)
    out = np.empty(n, np.float32)
    same_bits(x.get(out=out), host)
    same_bits(np.asarray(x), host)
    same_bits(x[5:-3].get(), host[5:-3])  # offset into the buffer
    m = da.asarray(host[: 1000 * 1000].reshape(1000, 1000), device=cl_place)
    want = host[: 1000 * 1000].reshape(1000, 1000)
    for key in [np.s_[::2, 1::3], np.s_[::-1], np.s_[:, ::-7], np.s_[7:9, :], np.s_[::333, ::250], np.s_[:1, ::2]]:
        same_bits(m[key].get(), want[key])
        out = np.empty(want[key].shape, np.float32)
        same_bits(m[key].get(out=out), want[key])
    same_bits(m.T.get(), want.T)
    same_bits(m.astype(np.complex128)[::3, 1::2].get(), want.astype(np.complex128)[::3, 1::2])


def test_read_path_orders_with_writes(read_path, cl_place):
    """A write after a host read waits for it (the unmap of the map path), and a read waits for writes."""
    s = da.stream()
    x = da.zeros((1 << 16) + 3, dtype=np.int32, device=cl_place)
    for i in range(5):
        with s:
            x[:] = i
            x[::2] += 1
        want = np.full(x.shape, i, np.int32)
        want[::2] += 1
        same_bits(x.get(), want)
        same_bits(x[1::2].get(), want[1::2])
    s.synchronize()


def test_read_path_without_map(cl_place, monkeypatch):
    """Devices whose memory is not host memory: sparse views are gathered on the device first."""
    monkeypatch.setattr(copies, "_unified", lambda place: False)
    monkeypatch.setattr(copies, "HOST_COPIES", False)
    host = np.arange(5000, dtype=np.int64)
    x = da.asarray(host, device=cl_place)
    same_bits(x[::101].get(), host[::101])
    out = np.empty(len(host[::101]), np.int64)
    same_bits(x[::101].get(out=out), host[::101])
    same_bits(x[::2].get(), host[::2])


def test_new_array_is_page_aligned_with_the_source(cl_place, monkeypatch):
    if not da.place.runtime(cl_place).info.host_unified_memory:
        pytest.skip("no map path")
    monkeypatch.setattr(copies, "MAP_MIN", 0)
    x = da.asarray(np.arange(3000, dtype=np.float64), device=cl_place)
    seen = []
    real = copies.aligned_empty

    def spy(nbytes: int, like: int) -> np.ndarray:
        out = real(nbytes, like)
        seen.append((out.ctypes.data - like) % copies.PAGE)
        return out

    monkeypatch.setattr(copies, "aligned_empty", spy)
    got = x.get()
    same_bits(got, np.arange(3000, dtype=np.float64))
    assert seen == [0] and got.flags.c_contiguous and got.flags.writeable


@pytest.mark.parametrize("nbytes", [1, 8, 4095, 4096, 10_000])
def test_aligned_empty(nbytes):
    for like in (0, 16, 128, 4095, 123_456_789):
        a = copies.aligned_empty(nbytes, like)
        assert a.nbytes == nbytes and a.dtype == np.uint8 and (a.ctypes.data - like) % copies.PAGE == 0


@pytest.mark.parametrize("shape, key", [((5,), ...), (((1 << 16) + 5,), ...), ((300, 7), np.s_[:, ::2]),
                                        ((1, 1, 70_001), ...), ((2, 50_000), np.s_[::-1, 3:]), ((), ...),
                                        ((0, 3), ...)], ids=str)
def test_host_copy(shape, key):
    src = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)[key]
    dst = np.empty(src.shape, src.dtype)
    copies.host_copy(dst, src)
    same_bits(dst, src)


def test_get_from_threads(read_path, cl_place):
    """Host reads from several threads at once, through each read path."""
    import concurrent.futures

    host = np.arange(100_000, dtype=np.int32)
    x = da.asarray(host, device=cl_place)
    with concurrent.futures.ThreadPoolExecutor(4) as ex:
        for i, got in enumerate(ex.map(lambda i: x[i:].get(), range(16))):
            same_bits(got, host[i:])




_ORDER_CALLS = {  # name -> (xp, array, order) -> the new array, as a NumPy user writes each
    "asarray": lambda xp, x, o: xp.asarray(x, order=o),
    "asarray_copy": lambda xp, x, o: xp.asarray(x, order=o, copy=True),
    "array": lambda xp, x, o: xp.array(x, order=o or "K"),
    "array_no_copy": lambda xp, x, o: xp.array(x, order=o or "K", copy=None),
    "copy": lambda xp, x, o: xp.copy(x, order=o or "K"),
    "method_copy": lambda xp, x, o: x.copy(order=o or "C"),
    "astype": lambda xp, x, o: x.astype(np.float32, order=o or "K"),
    "astype_no_copy": lambda xp, x, o: x.astype(x.dtype, order=o or "K", copy=False),
}


@pytest.mark.parametrize("place", [None, "cpu"])
@given(data=st.data(), call=st.sampled_from(sorted(_ORDER_CALLS)), order=st.sampled_from([None, "C", "F", "A", "K"]))
def test_memory_order_as_numpy(place, data, call, order):
    """``order=`` of the conversions and copies over C, Fortran and strided views (transposed,
    reversed, sliced): the values, and ``flags.c_contiguous``/``f_contiguous`` as NumPy's ("K"
    keeps a strided view's axis order)."""
    base, view = data.draw(viewed(np.float64, min_dims=1))
    want = _ORDER_CALLS[call](np, view(base), order)
    got = _ORDER_CALLS[call](da, view(da.asarray(base, device=place)), order)
    np.testing.assert_array_equal(np.asarray(got), want)
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == (want.flags.c_contiguous, want.flags.f_contiguous)


def test_memory_order_errors_and_host_layouts():
    """An order NumPy lacks is NumPy's ValueError; a Fortran-contiguous NumPy array stays so on the
    device (order "K"), and ``copy=False`` with an order the array is not in raises."""
    x = da.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(ValueError):
        da.asarray(x, order="Q")
    f = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    got = da.asarray(f)
    assert got.flags.f_contiguous and not got.flags.c_contiguous
    np.testing.assert_array_equal(got.get(), f)
    with pytest.raises(ValueError, match="copy"):
        da.asarray(x, order="F", copy=False)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_memory_order_across_work_item_runs(order):
    """The copies of ``order=`` over views larger than a work-item's run of elements (256 in the
    chunked form) and than the host engine's at-once limit: transposed, reversed and sliced."""
    h = np.arange(300 * 517, dtype=np.float64).reshape(300, 517)
    x = da.asarray(h)
    for view in (lambda a: a.T, lambda a: a[::-1, ::2], lambda a: a[:, ::-3].T, lambda a: a[1:-1, 3:]):
        want = np.array(view(h), order=order)
        got = da.array(view(x), order=order)
        np.testing.assert_array_equal(got.get(), want)
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == (want.flags.c_contiguous, want.flags.f_contiguous)
