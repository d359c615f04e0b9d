"""NumPy's ndarray methods and attributes on DArray (``darray/_ndarray.py``), against NumPy."""
from __future__ import annotations

import io
import pickle

import numpy as np
import pytest
from helpers import View, assert_same, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

PLACES = [None, "cpu"]
DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float32", "float64", "complex64", "complex128"]


def _both(base: np.ndarray, view: View, place: object) -> tuple[np.ndarray, da.DArray]:
    return view(base.copy()), view(da.asarray(base, device=place))


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
    x.setflags(write=True)
    with pytest.raises(ValueError, match="darray setflags"):
        x.setflags(write=False)
