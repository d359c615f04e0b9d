"""DArray: metadata, basic-indexing views, slice assignment, Python scalars, len/iter, repr/str."""
from __future__ import annotations

import operator
from typing import Any

import numpy as np
import pytest
from helpers import assert_same, shapes
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from test_convert import same_bits

import darray as da

VIEW_DTYPES = [np.dtype("float32"), np.dtype("int16"), np.dtype("complex128")]


# -- metadata -----------------------------------------------------------------------------


def test_metadata_matches_numpy(any_place):
    host = np.zeros((3, 4, 5), np.float64)
    x = da.asarray(host, device=any_place)
    assert x.strides == host.strides and x.itemsize == host.itemsize
    view = x[::2, 1:, ::-1]
    assert view.strides == host[::2, 1:, ::-1].strides
    assert x.T.shape == (5, 4, 3) and x.T.strides == host.T.strides
    assert x.mT.shape == (3, 5, 4) and x.mT.strides == np.swapaxes(host, -1, -2).strides
    with pytest.raises(ValueError, match="2 dimensions"):
        _ = da.asarray([1, 2], device=any_place).mT


def test_len_and_iter(any_place):
    host = np.arange(12, dtype=np.int32).reshape(3, 4)
    x = da.asarray(host, device=any_place)
    assert len(x) == 3
    rows = list(x)
    assert len(rows) == 3
    for got, want in zip(rows, host):
        assert_same(got, want)
    zero = da.asarray(5, device=any_place)
    with pytest.raises(TypeError):
        len(zero)
    with pytest.raises(TypeError):
        iter(zero)
    assert list(da.zeros((0, 2), device=any_place)) == []


# -- views --------------------------------------------------------------------------------


@given(dtype=st.sampled_from(VIEW_DTYPES), shape=shapes(0, 5, 0, 6), data=st.data())
def test_basic_index_views(any_place, dtype, shape, data):
    host = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    x = da.asarray(host, device=any_place)
    key = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True), label="key")
    view = x[key]
    want = host[key]
    assert view.shape == want.shape
    assert_same(view, want)
    if view.ndim:
        key2 = data.draw(hnp.basic_indices(view.shape, allow_newaxis=True), label="key2")
        assert_same(view[key2], want[key2])
        assert_same(view.T, want.T)
        if view.ndim >= 2:
            assert_same(view.mT, np.swapaxes(want, -1, -2))


def test_views_share_memory(any_place):
    x = da.zeros((4, 6), dtype=da.int32, device=any_place)
    v = x[1:3, ::-2]
    v[...] = 7
    want = np.zeros((4, 6), np.int32)
    want[1:3, ::-2] = 7
    assert_same(x, want)
    x.T[0] = -1
    want.T[0] = -1
    assert_same(v, want[1:3, ::-2])


@pytest.mark.parametrize("key", [0, -1, (1, 2), (-2, -3), (Ellipsis, 0), (None, 1), np.int64(2), np.array(1)],
                         ids=repr)
def test_integer_indexing(any_place, key):
    host = np.arange(20, dtype=np.float32).reshape(4, 5)
    assert_same(da.asarray(host, device=any_place)[key], host[key])


@pytest.mark.parametrize("key", [4, -5, (0, 5), (1, -6)], ids=repr)
def test_out_of_range_index(any_place, key):
    x = da.zeros((4, 5), device=any_place)
    with pytest.raises(IndexError, match="out of bounds"):
        x[key]
    with pytest.raises(IndexError, match="out of bounds"):
        x[key] = 1.0
    assert_same(x[3, 4], np.float64(0))


def test_sparse_view_download(cl_place):
    """A view much smaller than its span is gathered on the device before the read."""
    host = np.arange(4000, dtype=np.float32).reshape(40, 100)
    x = da.asarray(host, device=cl_place)
    for key in [(slice(None, None, 7), slice(None, None, 9)), (slice(None, None, -3), 5),
                (Ellipsis, slice(2, None, 50))]:
        assert_same(x[key], host[key])


# -- slice assignment ----------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@given(dtype=st.sampled_from(VIEW_DTYPES), shape=shapes(1, 4, 1, 6), data=st.data())
def test_setitem_broadcast_values(any_place, dtype, shape, data):
    host = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    x = da.asarray(host, device=any_place)
    key = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True), label="key")
    target = host[key].shape
    vshape = data.draw(hnp.broadcastable_shapes(target, max_dims=len(target), min_side=0), label="vshape")
    vdtype = data.draw(st.sampled_from(VIEW_DTYPES + [np.dtype("uint8")]), label="vdtype")
    value = (np.arange(int(np.prod(vshape))) % 100 + 1).astype(vdtype).reshape(vshape)
    kind = data.draw(st.sampled_from(["numpy", "darray", "list"]), label="kind")
    src: Any = {"numpy": value, "darray": da.asarray(value, device=any_place), "list": value.tolist()}[kind]
    try:
        host[key] = value.tolist() if kind == "list" else value
    except Exception as err:
        with pytest.raises(type(err)):
            x[key] = src
    else:
        x[key] = src
    assert_same(x, host)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "int64", "float32", "float64", "complex64"])
@pytest.mark.parametrize("value", [3, 2.75, True, np.float32(-1.5), np.array(4, np.int16), 0.0])
def test_setitem_scalars_cast(any_place, dtype, value):
    host = np.arange(24).astype(dtype).reshape(4, 6)
    x = da.asarray(host, device=any_place)
    with np.errstate(all="ignore"):
        host[1:, ::2] = value
        x[1:, ::2] = value
    assert_same(x, host)
    host[...] = 3.0
    x[...] = 3.0
    assert_same(x, host)


def test_setitem_special_float_values(any_place):
    host = np.zeros(5, np.float64)
    x = da.asarray(host, device=any_place)
    for i, v in enumerate([np.nan, np.inf, -np.inf, -0.0, 1e308]):
        host[i] = v
        x[i] = v
    same_bits(x.get(), host)


def test_setitem_complex_into_real(any_place):
    x = da.zeros(3, dtype=da.float32, device=any_place)
    with pytest.raises(TypeError):
        x[0] = 1 + 2j
    assert_same(x, np.zeros(3, np.float32))


def test_setitem_overflowing_python_int(any_place):
    x = da.zeros(3, dtype=da.int8, device=any_place)
    with pytest.raises(OverflowError):
        x[0] = 300
    x[0] = 100
    assert_same(x, np.array([100, 0, 0], np.int8))


@pytest.mark.parametrize("case", ["shift_right", "shift_left", "reverse", "cols", "transpose", "strided_into_self",
                                  "partial_2d", "recurrence"])
def test_overlapping_self_assignment(any_place, case):
    for xp in (np, da):
        arr = xp.asarray(np.arange(36, dtype=np.float32).reshape(6, 6), **({} if xp is np else {"device": any_place}))
        if case == "shift_right":
            arr[1:] = arr[:-1]
        elif case == "shift_left":
            arr[:-1] = arr[1:]
        elif case == "reverse":
            arr[...] = arr[::-1, ::-1]
        elif case == "cols":
            arr[:, ::2] = arr[:, 1::2]
        elif case == "transpose":
            arr[...] = arr.T
        elif case == "strided_into_self":
            arr[::2, 1:] = arr[1::2, :-1]
        elif case == "recurrence":  # interleaved views of one buffer that share no element
            for k in range(1, 6):
                arr[:, k] = arr[:, k - 1] * 0.5 + arr[:, k]
        else:
            arr[1:4, 2:5] = arr[:3, :3]
        if xp is np:
            want = arr
        else:
            got = arr
    assert_same(got, want)


def test_setitem_not_broadcastable(any_place):
    x = da.zeros((4, 6), device=any_place)
    with pytest.raises(ValueError, match="broadcast"):
        x[1:, ::2] = np.ones((2, 3))
    with pytest.raises(ValueError, match="broadcast"):
        x[...] = da.ones((5,), device=any_place)
    x[1:, ::2] = np.ones((3, 1))
    want = np.zeros((4, 6))
    want[1:, ::2] = 1
    assert_same(x, want)


def test_setitem_other_place(cl_place):
    x = da.zeros(3, device=cl_place)
    with pytest.raises(ValueError, match="cpu"):
        x[...] = da.ones(3, device="cpu")
    assert_same(x, np.zeros(3))


def test_setitem_float16_host_value(any_place):
    x = da.zeros(4, dtype=da.float32, device=any_place)
    x[1:] = np.array([1.5, 2.5, -0.0], np.float16)
    want = np.array([0, 1.5, 2.5, -0.0], np.float32)
    same_bits(x.get(), want)


def test_setitem_into_empty_view(any_place):
    x = da.ones((3, 4), device=any_place)
    x[2:1] = 5.0
    x[:, 4:] = np.zeros((3, 0))
    assert_same(x, np.ones((3, 4)))


# -- Python scalars -------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "int64", "float32", "float64", "complex128"])
def test_scalar_conversions(any_place, dtype):
    value = np.array(3, dtype) if dtype != "bool" else np.array(True)
    for shape in [(), (1,), (1, 1)]:
        x = da.asarray(value.reshape(shape), device=any_place)
        assert x.item() == value.item() and type(x.item()) is type(value.item())
        assert bool(x) is True
        if dtype != "complex128":
            assert int(x) == int(value) and float(x) == float(value)
        else:
            with pytest.raises(TypeError):
                float(x)
        assert complex(x) == complex(value)
    if dtype[0] in "iu":
        assert [10, 20, 30, 40][da.asarray(value, device=any_place)] == 40
        assert operator.index(da.asarray(value, device=any_place)) == 3
    else:
        with pytest.raises(TypeError):
            [1, 2][da.asarray(value, device=any_place)]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "float64", "complex64"])
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 0, 2), (1, 2, 1, 2)], ids=str)
def test_tolist(any_place, dtype, shape):
    """Nested lists of Python scalars as NumPy's ``tolist`` (a 0-d array: the scalar); strided views too."""
    host = (np.arange(int(np.prod(shape))) % 5).astype(dtype).reshape(shape)
    x = da.asarray(host, device=any_place)
    got, want = x.tolist(), host.tolist()
    assert got == want and repr(got) == repr(want)
    if host.ndim:
        assert x[..., ::-2].tolist() == host[..., ::-2].tolist()


def test_scalar_conversion_errors(any_place):
    x = da.zeros((2, 2), device=any_place)
    with pytest.raises(ValueError, match="size 1"):
        x.item()
    with pytest.raises(ValueError, match="ambiguous"):
        bool(x)
    for conv in (int, float, complex):
        with pytest.raises(TypeError, match="length-1"):
            conv(x)
    with pytest.raises(TypeError):
        x.__index__()
    with pytest.raises(TypeError):
        da.asarray([1], device=any_place).__index__()  # only 0-d arrays are indices
    with pytest.raises(ValueError, match="empty"):
        bool(da.zeros(0, device=any_place))
    assert_same(x, np.zeros((2, 2)))


def test_special_scalar_values(any_place):
    x = da.asarray(np.array([-0.0, np.nan, np.inf]), device=any_place)
    assert np.copysign(1.0, float(x[0])) == -1.0
    assert np.isnan(x[1].item())
    assert float(x[2]) == np.inf
    big = da.asarray(np.array(2 ** 64 - 1, np.uint64), device=any_place)
    assert big.item() == 2 ** 64 - 1 and int(big) == 2 ** 64 - 1
    small = da.asarray(np.array(-(2 ** 63), np.int64), device=any_place)
    assert int(small) == -(2 ** 63)


# -- x.shape = ... ------------------------------------------------------------------------------


@st.composite
def _new_shapes(draw: Any, size: int) -> tuple[int, ...]:
    """A shape of ``size`` elements (factors of it, ones, maybe one -1), or sometimes a wrong one."""
    if draw(st.integers(0, 9)) == 0:
        return tuple(draw(st.lists(st.integers(0, 7), max_size=3)))
    left, out = size, []
    for _ in range(draw(st.integers(0, 3))):
        d = draw(st.sampled_from([k for k in range(1, max(left, 1) + 1) if left % k == 0] if left else [0, 1, 2]))
        out.append(d)
        left = left // d if d else 0
    out.append(left if size else draw(st.integers(0, 3)))
    out = draw(st.permutations(out))
    if size and draw(st.booleans()):
        out[draw(st.integers(0, len(out) - 1))] = -1
    return tuple(out)


@given(data=st.data(), shape=shapes(min_dims=1, max_dims=3, max_side=4))
def test_shape_assignment_reshapes_in_place(any_place, data, shape):
    base = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    step = data.draw(st.sampled_from([1, 2, -1]))
    pick = data.draw(st.sampled_from(["whole", "transposed", "strided"]))
    views = {"whole": lambda b: b, "transposed": lambda b: b.T, "strided": lambda b: b[..., ::step]}
    a = views[pick](base.copy())
    x = views[pick](da.asarray(base, device=any_place))
    new = data.draw(_new_shapes(a.size))
    try:
        a.shape = new
    except (ValueError, AttributeError) as err:
        with pytest.raises(type(err)):
            x.shape = new
        assert x.shape == views[pick](base).shape
        return
    x.shape = new
    assert x.shape == a.shape and (x.strides == a.strides or not x.size)
    assert_same(x, a)
    if x.size:
        x[(0,) * x.ndim] = -1.0  # still a view of the same memory
        a[(0,) * a.ndim] = -1.0
        assert_same(x, a)


def test_shape_assignment_errors(any_place):
    x = da.arange(6.0, device=any_place).reshape(2, 3)
    with pytest.raises(AttributeError, match="Incompatible shape for in-place modification"):
        x.T.shape = (6,)
    with pytest.raises(ValueError):
        x.shape = (4,)
    with pytest.raises(ValueError):
        x.shape = (-1, -1)
    y = x + 1  # a pending result (lazy on OpenCL places) is computed first
    y.shape = (3, 2)
    assert_same(y, np.arange(1.0, 7.0).reshape(3, 2))


# -- text -------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", [np.arange(6, dtype=np.float32).reshape(2, 3), np.array(2.5),
                                  np.zeros((0, 3), np.int8), np.array([1 + 2j, -0.0]), np.array([True, False]),
                                  np.arange(3000, dtype=np.int64)], ids=lambda h: f"{h.dtype}{h.shape}")
def test_repr_and_str(any_place, host):
    x = da.asarray(host, device=any_place)
    body = np.array_repr(host)[len("array("):-1].replace("\n      ", "\n       ")  # one more indent
    assert repr(x) == f"darray({body}, place={any_place})"
    assert str(x) == str(host)
