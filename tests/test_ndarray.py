"""NumPy's ndarray methods and attributes on DArray (``darray/_ndarray.py``), against NumPy."""
from __future__ import annotations

import io
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from helpers import View, assert_same, shapes, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

PLACES = [None, "cpu"]
DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float32", "float64", "complex64", "complex128"]


def _both(base: np.ndarray, view: View, place: object) -> tuple[np.ndarray, da.DArray]:
    return view(base.copy()), view(da.asarray(base, device=place))


def _read_only(data: Any, dtype: Any, place: object) -> tuple[np.ndarray, da.DArray]:
    """A drawn view of at least one dimension, made read-only, in NumPy and in darray."""
    a, x = _both(*data.draw(viewed(dtype, min_dims=1)), place)
    a.flags.writeable = x.flags.writeable = False
    return a, x


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), dtype=st.sampled_from(DTYPES))
def test_flags_base_and_views(place, data, dtype) -> None:
    base, view = data.draw(viewed(dtype))
    a, x = _both(base, view, place)
    for key in ("C_CONTIGUOUS", "F_CONTIGUOUS", "C", "F", "FORC"):
        assert x.flags[key] == a.flags[key], key
    assert x.flags.writeable and x.flags.aligned
    whole = da.asarray(base, device=place)
    assert whole.flags.owndata and whole.base is None
    assert whole[...].base is whole and whole[...][...].base is whole and not whole[...].flags.owndata


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), dtype=st.sampled_from(["int8", "uint16", "int32", "float32", "float64", "complex64"]),
       new=st.sampled_from(["uint8", "int16", "float32", "int64", "complex128"]))
def test_view_reinterprets_bytes(place, data, dtype, new) -> None:
    base, _ = data.draw(viewed(dtype, min_dims=1))
    a, x = base, da.asarray(base, device=place)
    try:
        want = a.view(new)
    except ValueError:
        with pytest.raises(ValueError, match="darray view"):
            x.view(new)
        return
    got = x.view(new)
    np.testing.assert_array_equal(got.get().view(np.uint8), want.view(np.uint8))
    assert got.shape == want.shape and got.dtype == want.dtype


@pytest.mark.parametrize("place", PLACES)
def test_view_of_a_view_writes_through(place) -> None:
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    x = da.asarray(a, device=place)
    x[1:].view(np.float32)[...] = 1.5
    a[1:].view(np.float32)[...] = 1.5
    assert_same(x, a)
    with pytest.raises(ValueError, match="darray view"):
        x[:, ::2].view(np.int16)
    assert_same(x.view(), a)  # the next call works


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), dtype=st.sampled_from(["complex64", "complex128", "float32", "int16"]))
def test_real_and_imag(place, data, dtype) -> None:
    base, view = data.draw(viewed(dtype))
    a, x = _both(base, view, place)
    assert_same(x.real, a.real)
    assert_same(x.imag, a.imag)
    if a.dtype.kind == "c":
        x.real = 2.5
        a.real = 2.5
        x.imag = -0.0
        a.imag = -0.0
        assert_same(x, a)
        assert_same(view(da.asarray(base, device=place)).real.base is not None, True)
    else:
        with pytest.raises(TypeError, match="darray imag"):
            x.imag = 1


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), dtype=st.sampled_from(DTYPES))
def test_item_fill_flat_and_tolist(place, data, dtype) -> None:
    base, view = data.draw(viewed(dtype))
    a, x = _both(base, view, place)
    assert x.tolist() == a.tolist() or np.isnan(a.astype(complex)).any()
    if a.size:
        i = data.draw(st.integers(-a.size, a.size - 1))
        assert_same(np.asarray(x.item(i)), np.asarray(a.item(i)))
        idx = tuple(data.draw(st.integers(0, n - 1)) for n in a.shape)
        assert_same(np.asarray(x.item(*idx)), np.asarray(a.item(*idx)))
        assert_same(x.flat[i], a.flat[i])
        assert len(list(x.flat)) == a.size
    with pytest.raises((ValueError, IndexError)):
        x.item(a.size + 3) if a.ndim else x.item(5)
    x.fill(1)
    a.fill(1)
    assert_same(x, a)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data())
def test_flat_assignment_repeats_values(place, data) -> None:
    base, view = data.draw(viewed("float32", min_dims=1))
    a, x = _both(base, view, place)
    if not a.size:
        return
    idx = data.draw(st.lists(st.integers(0, a.size - 1), min_size=1, max_size=6))
    vals = data.draw(st.lists(st.floats(-5, 5, width=32), min_size=1, max_size=4))
    a.flat[idx] = vals
    x.flat[idx] = vals
    assert_same(x, a)
    a.flat[::2] = 7
    x.flat[::2] = 7
    assert_same(x, a)
    x.flat = 3
    a.flat = 3
    assert_same(x, a)


@pytest.mark.parametrize("place", PLACES)
def test_resize_in_place(place) -> None:
    for shape in [(2, 4), (3,), (0,), (2, 2, 2)]:
        a = np.arange(5, dtype=np.int16)
        x = da.asarray(a, device=place)
        a.resize(shape, refcheck=False)
        x.resize(shape)
        assert_same(x, a)
    x = da.arange(6)
    with pytest.raises(ValueError, match="darray resize"):
        x[1:].resize(2)
    x.resize(2, 3)
    assert x.shape == (2, 3)


@pytest.mark.parametrize("place", PLACES)
def test_host_copy_methods(place, tmp_path) -> None:
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    x = da.asarray(a, device=place)
    assert x.tobytes() == a.tobytes() and x[:, ::2].tobytes() == a[:, ::2].tobytes()
    assert_same(x.byteswap(), a.byteswap())
    x.byteswap(inplace=True)
    assert_same(x, a.byteswap())
    x.byteswap(inplace=True)
    assert_same(x.getfield(np.int16), a.getfield(np.int16))
    x.setfield(7, np.int16, 2)
    b = a.copy()
    b.setfield(7, np.int16, 2)
    assert_same(x, b)
    x.tofile(tmp_path / "x.bin")
    assert (tmp_path / "x.bin").read_bytes() == b.tobytes()
    assert_same(pickle.loads(x.dumps()), b)
    f = io.BytesIO()
    x.dump(f)
    assert_same(pickle.loads(f.getvalue()), b)
    x.setflags(write=False)
    assert not x.flags.writeable
    x.setflags(write=True)
    assert x.flags.writeable
    with pytest.raises(ValueError, match="darray setflags"):
        x.setflags(align=False)


# -- read-only arrays ---------------------------------------------------------------------

RO_DTYPES = ["int16", "int64", "float32", "float64", "complex64"]


def _writes(x: Any, sized: bool) -> dict[str, Callable[[Any], Any]]:
    """Every way to write into ``x`` (``xp``: numpy or darray; NumPy's functions on a DArray go through
    ``__array_function__`` / ``__array_ufunc__``)."""
    def iadd(xp: Any) -> None:
        y = x
        y += 1

    def set_flat(xp: Any) -> None:
        x.flat = 1

    def set_real(xp: Any) -> None:
        x.real[...] = 1

    out: dict[str, Callable[[Any], Any]] = {
        "setitem": lambda xp: x.__setitem__(..., 1), "mask": lambda xp: x.__setitem__(x == x, 1),
        "iadd": iadd, "out=": lambda xp: xp.add(x, x, out=x), "np out=": lambda xp: np.multiply(x, 2, out=x),
        "copyto": lambda xp: xp.copyto(x, 1), "np.copyto": lambda xp: np.copyto(x, 1), "fill": lambda xp: x.fill(1),
        "put": lambda xp: xp.put(x, [], []), "sort": lambda xp: x.sort(axis=-1), "flat=": set_flat, "real": set_real,
        "putmask": lambda xp: xp.putmask(x, x == x, 1),
    }
    if np.iscomplexobj(x):
        out["imag"] = lambda xp: setattr(x, "imag", 1)
    if sized:
        out |= {"scalar key": lambda xp: x.__setitem__((0,) * x.ndim, 1), "list key": lambda xp: x.__setitem__([0], 1),
                "x.put": lambda xp: x.put(0, 1), "flat[0]": lambda xp: x.flat.__setitem__(0, 1),
                "partition": lambda xp: x.partition(0, axis=-1),
                "sum out=": lambda xp: xp.sum(x, axis=-1, out=x[..., 0])}
    return out


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), dtype=st.sampled_from(RO_DTYPES))
def test_read_only_rejects_every_write(place, data, dtype) -> None:
    a, x = _read_only(data, dtype, place)
    before = x.get()
    want, got = _writes(a, a.size > 0), _writes(x, a.size > 0)
    for name, write in want.items():
        with pytest.raises(ValueError, match="read-only"):
            write(np)
        with pytest.raises(ValueError, match="darray .*read-only"):
            got[name](da)
    assert_same(x, before)
    assert not x.flags.writeable and not x.flags["WRITEABLE"] and not x.flags.behaved


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), dtype=st.sampled_from(RO_DTYPES))
def test_read_only_views_and_writeable_copies(place, data, dtype) -> None:
    a, x = _read_only(data, dtype, place)
    derived: list[Callable[[Any, Any], Any]] = [
        lambda xp, v: v.T, lambda xp, v: v[..., ::-1], lambda xp, v: v[...], lambda xp, v: v.reshape(-1),
        lambda xp, v: v.view(v.dtype), lambda xp, v: v.real, lambda xp, v: xp.expand_dims(v, 0),
        lambda xp, v: v.copy(), lambda xp, v: xp.array(v), lambda xp, v: v.astype("complex128"), lambda xp, v: v + 1,
        lambda xp, v: xp.broadcast_to(v, (2, *v.shape)), lambda xp, v: xp.asarray(v)]
    if np.iscomplexobj(a):
        derived.append(lambda xp, v: v.imag)
    for make in derived:
        want, got = make(np, a), make(da, x)
        assert got.flags.writeable == want.flags.writeable
        if got.flags.writeable:  # a copy: writing it leaves x alone
            got[...] = 0
    assert_same(x, a)  # (a: NumPy's read-only copy of the drawn values)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.filterwarnings("ignore:future versions will not create a writeable array:FutureWarning")
def test_writeable_flag_rules(place) -> None:
    def both(make: Callable[[Any], Any]) -> tuple[Any, Any]:
        return make(np), make(da)

    a, x = both(lambda xp: xp.asarray(np.arange(12.0).reshape(3, 4).copy(), **({} if xp is np else {"device": place})))
    a.setflags(write=False)
    x.setflags(write=False)
    va, vx = a[1:], x[1:]
    for v in (va, vx):
        with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True of this array"):
            v.flags.writeable = True
        with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True of this array"):
            v.setflags(write=True)
    x.flags["WRITEABLE"] = True  # the owner can be made writeable again; views taken before stay read-only
    a.flags["WRITEABLE"] = True
    assert not vx.flags.writeable and x[1:].flags.writeable
    vx.flags.writeable = True
    vx[0, 0] = 7.0
    assert x[1, 0].item() == 7.0
    with pytest.raises(AttributeError):
        x.flags.c_contiguous = False  # type: ignore[misc]
    with pytest.raises(KeyError):
        x.flags["C"] = True
    for make in (lambda xp: xp.broadcast_to(xp.arange(3.0), (2, 3)),
                 lambda xp: xp.lib.stride_tricks.sliding_window_view(xp.arange(6.0), 2),
                 lambda xp: xp.lib.stride_tricks.sliding_window_view(xp.arange(6.0), 2, writeable=True),
                 lambda xp: xp.lib.stride_tricks.as_strided(xp.arange(6.0), (3,), (16,), writeable=False),
                 lambda xp: xp.diagonal(xp.arange(9.0).reshape(3, 3)),
                 lambda xp: xp.diag(xp.arange(9.0).reshape(3, 3)),
                 lambda xp: xp.meshgrid(xp.arange(3.0), xp.arange(2.0), copy=False)[0],
                 lambda xp: xp.arange(3.0).imag):
        want, got = both(make)
        assert got.flags.writeable == want.flags.writeable
        if not got.flags.writeable:
            with pytest.raises(ValueError, match="read-only"):
                got[...] = 0
            try:
                want.flags.writeable = True
            except ValueError:
                with pytest.raises(ValueError, match="cannot set WRITEABLE"):
                    got.flags.writeable = True
            else:
                got.flags.writeable = True


@pytest.mark.parametrize("place", PLACES)
def test_read_only_other_writers(place) -> None:
    x = da.arange(6.0, device=place).reshape(2, 3)
    x.flags.writeable = False
    writes = [lambda: da.random.default_rng(0).random(out=x), lambda: x.byteswap(inplace=True),
              lambda: x.setfield(1.0, np.float64), lambda: da.fill_diagonal(x, 0),
              lambda: da.place(x, x > 1, [0.0]),
              lambda: da.put_along_axis(x, da.zeros((2, 1), dtype=int, device=place), 0, 1),
              lambda: da.clip(x, 0, 1, out=x), lambda: da.cumsum(da.ones(3, device=place), out=x[0]),
              lambda: np.matmul(da.ones((2, 2), device=place), x, out=x),
              lambda: x.T.__imatmul__(da.eye(2, device=place)),
              lambda: da.ElementwiseKernel("float64 a", "float64 z", "z = a")(da.ones((2, 3), device=place), x),
              lambda: da.add.at(x, [0], 1), lambda: np.add.at(x, [0], 1)]  # (NumPy's 1-d ufunc.at does write)
    for write in writes:
        with pytest.raises(ValueError, match="darray .*read-only"):
            write()
    assert_same(x, np.arange(6.0).reshape(2, 3))


# -- darray.ndarray(...) ----------------------------------------------------------------------


def test_ndarray_is_darray() -> None:
    x = da.arange(3)
    assert isinstance(x, da.ndarray) and issubclass(da.DArray, da.ndarray) and not isinstance(np.arange(3), da.ndarray)
    assert da.ndarray.sum is da.DArray.sum and type(da.ndarray((2,))) is da.DArray


def _ndarray(xp: Any, place: Any, args: tuple[Any, ...], kw: dict[str, Any]) -> Any:
    """``xp.ndarray(*args, **kw)``, or its exception class."""
    try:
        return xp.ndarray(*args, **kw) if xp is np else xp.ndarray(*args, **kw, device=place)
    except (ValueError, TypeError) as err:
        return type(err)


@pytest.mark.parametrize("place", PLACES)
@given(shape=shapes(max_dims=3), dtype=st.sampled_from(["int8", "int32", "float32", "float64", "complex64", None]),
       order=st.sampled_from([None, "C", "F", "A", "K", "X"]), data=st.data())
def test_ndarray_without_buffer(place, shape, dtype, order, data) -> None:
    strides = data.draw(st.none() | st.lists(st.integers(-2, 4), min_size=len(shape), max_size=len(shape) + 1))
    item = np.dtype(dtype).itemsize
    kw = {"order": order, "strides": None if strides is None else tuple(s * item for s in strides)}
    want, got = _ndarray(np, place, (shape, dtype), kw), _ndarray(da, place, (shape, dtype), kw)
    if isinstance(want, type):
        assert got is want
        return
    assert isinstance(got, da.DArray) and got.flags.owndata and got.flags.writeable
    assert (got.shape, got.dtype, got.strides) == (want.shape, want.dtype, want.strides)
    got[...] = 1  # it is memory of its own
    assert_same(got, np.ones_like(want))


@pytest.mark.parametrize("place", PLACES)
@given(size=st.integers(1, 48), shape=shapes(max_dims=3),
       dtype=st.sampled_from(["int8", "int16", "float32", "float64"]),
       kind=st.sampled_from(["darray", "bytes", "bytearray", "memoryview", "numpy"]), data=st.data())
def test_ndarray_over_a_buffer(place, size, shape, dtype, kind, data) -> None:
    raw = np.arange(size, dtype=np.uint8)
    item = np.dtype(dtype).itemsize
    offset = data.draw(st.integers(0, size + 8))
    offset = offset // item * item if kind == "darray" else offset
    strides = data.draw(st.none() | st.lists(st.integers(-8, 8), min_size=len(shape), max_size=len(shape)))
    if strides is not None:
        strides = tuple(s * item for s in strides) if kind == "darray" else tuple(strides)
    order = data.draw(st.sampled_from([None, "C", "F"]))
    kw = {"buffer": raw, "offset": offset, "strides": strides, "order": order}
    want = _ndarray(np, place, (shape, dtype), kw)
    buffer = {"darray": lambda: da.asarray(raw, device=place), "bytes": raw.tobytes, "numpy": lambda: raw,
              "bytearray": lambda: bytearray(raw.tobytes()), "memoryview": lambda: memoryview(raw.tobytes())}[kind]()
    got = _ndarray(da, place, (shape, dtype), {**kw, "buffer": buffer})
    if isinstance(want, type):
        assert got is want
        return
    assert isinstance(got, da.DArray)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert got.flags.writeable == (kind == "darray" or not memoryview(buffer).readonly)
    assert_same(got, want)
    if kind == "darray":  # a view sharing the buffer's memory
        assert got.strides == want.strides and got.base is buffer
        if got.size:
            got[(0,) * got.ndim] = 3
            want[(0,) * want.ndim] = 3
            assert_same(buffer, raw)


def test_ndarray_buffer_errors() -> None:
    x = da.arange(8, dtype="int32")
    with pytest.raises(ValueError, match="not contiguous"):
        da.ndarray((2,), "int32", buffer=x[::2])
    with pytest.raises(ValueError, match="multiples of the itemsize"):
        da.ndarray((2,), "int32", buffer=x, offset=2)
    with pytest.raises(TypeError, match="bytes-like"):
        da.ndarray((2,), buffer=[1.0, 2.0])
    with pytest.raises(ValueError, match="offset must be non-negative"):
        da.ndarray((2,), "int32", buffer=x, offset=-4)
    ro = da.arange(8, dtype="int32")
    ro.flags.writeable = False
    assert not da.ndarray((4,), "int32", buffer=ro).flags.writeable
    host = ro.to("cpu")  # (a copy: writeable)
    host.flags.writeable = False
    assert not np.asarray(host, copy=False).flags.writeable  # NumPy's view of cpu memory: read-only too
    empty = da.zeros(0, dtype="int8")  # (NumPy's checks are not consistent over an empty buffer: darray's are)
    assert da.ndarray((0, 3), "int8", buffer=empty).shape == (0, 3)
    with pytest.raises(TypeError, match="buffer is too small"):
        da.ndarray((), "int8", buffer=empty)
    with pytest.raises(ValueError, match="strides is incompatible"):
        da.ndarray((1,), "int8", buffer=empty, strides=(0,))
