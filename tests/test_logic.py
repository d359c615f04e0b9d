"""Logic functions (darray/ops/logic.py) against NumPy: isclose/allclose, array_equal/array_equiv,
iscomplex/isreal(obj), isposinf/isneginf; every dtype kind, NaN/inf/-0.0, views, both places."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import arrays, assert_same, check, check_view, shapes, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

KINDS = [np.dtype(t) for t in ("bool", "int8", "uint8", "int32", "int64", "float32", "float64", "complex64",
                               "complex128")]
SPECIAL = [0.0, -0.0, 1.0, 1.0 + 1e-6, -2.5, np.inf, -np.inf, np.nan, 1e-9]


def _elements(dtype: np.dtype) -> st.SearchStrategy | None:
    if dtype.kind == "f":
        return st.sampled_from(SPECIAL)
    if dtype.kind == "c":
        return st.builds(complex, st.sampled_from(SPECIAL), st.sampled_from([0.0, 1.0, np.nan]))
    return None


@given(data=st.data())
def test_isclose_matches_numpy(any_place, data):
    da_ = data.draw(st.sampled_from(KINDS), label="dtype a")
    db = data.draw(st.sampled_from(KINDS), label="dtype b")
    shape = data.draw(shapes(0, 3, 0, 4), label="shape")
    a = data.draw(arrays(da_, shape, elements=_elements(da_)), label="a")
    b = data.draw(arrays(db, shape[1:], elements=_elements(db)), label="b")  # broadcast
    equal_nan = data.draw(st.booleans(), label="equal_nan")
    check(lambda xp, x, y: xp.isclose(x, y, equal_nan=equal_nan), a, b, place=any_place)
    check(lambda xp, x, y: xp.isclose(x, y, 1e-3, 0.5), a, b, place=any_place)
    got = da.allclose(da.asarray(a, device=any_place), da.asarray(b, device=any_place), equal_nan=equal_nan)
    assert type(got) is bool and got == np.allclose(a, b, equal_nan=equal_nan)


@given(data=st.data())
def test_isclose_views(any_place, data):
    base, view = data.draw(viewed(np.float32, elements=st.sampled_from(SPECIAL)), label="x")
    check_view(lambda xp, x: xp.isclose(x, 1.0), base, view, place=any_place)
    check_view(lambda xp, x: xp.isposinf(x), base, view, place=any_place)
    check_view(lambda xp, x: xp.isneginf(x), base, view, place=any_place)


@given(data=st.data())
def test_array_equal_and_equiv(any_place, data):
    dtype = data.draw(st.sampled_from(KINDS), label="dtype")
    a = data.draw(arrays(dtype, shapes(1, 2, 0, 3), elements=_elements(dtype)), label="a")
    b = data.draw(st.sampled_from([a, a.copy()[..., ::-1], a[..., :1], a.reshape(-1), a + a]), label="b")
    ad, bd = da.asarray(a, device=any_place), da.asarray(b, device=any_place)
    for equal_nan in (False, True):
        got = da.array_equal(ad, bd, equal_nan)
        assert type(got) is bool and got == np.array_equal(a, b, equal_nan)
    got = da.array_equiv(ad, bd)
    assert type(got) is bool and got == np.array_equiv(a, b)


@pytest.mark.parametrize("dtype", KINDS, ids=str)
def test_complex_real_tests(any_place, dtype):
    x = np.array([[1 + 0j, 2 - 1j, np.nan + 0j], [-0.0 + 0j, 0 + 1e-30j, 3]]).astype(dtype)
    for name in ("iscomplex", "isreal"):
        check(lambda xp, v, name=name: getattr(xp, name)(v), x, place=any_place)
        check(lambda xp, v, name=name: getattr(xp, name)(v[0, ::-1]), x, place=any_place)
    check(lambda xp, v: xp.iscomplex(v[0, 0]), x, place=any_place)  # 0-d: a 0-d array
    xd = da.asarray(x, device=any_place)
    assert da.iscomplexobj(xd) is np.iscomplexobj(x) and da.isrealobj(xd) is np.isrealobj(x)
    assert da.iscomplexobj([1j]) and da.isrealobj(3.0) and not da.iscomplexobj(np.float32(1))


@pytest.mark.parametrize("dtype", [d for d in KINDS if d.kind != "c"], ids=str)
def test_signed_inf(any_place, dtype):
    x = np.array([np.inf, -np.inf, np.nan, -0.0, 2] if dtype.kind == "f" else [0, 1, 1]).astype(dtype)
    for name in ("isposinf", "isneginf"):
        check(lambda xp, v, name=name: getattr(xp, name)(v), x, place=any_place)
        check(lambda xp, v, name=name: getattr(xp, name)(v[1]), x, place=any_place)
        out = da.zeros(x.shape, dtype=da.bool_, device=any_place)
        assert getattr(da, name)(da.asarray(x, device=any_place), out) is out
        assert_same(out, getattr(np, name)(x))
        assert getattr(da, name)(da.asarray(x, device=any_place), out=out) is out


def test_numpy_route_and_errors(any_place):
    x = da.asarray(np.array([1.0, np.inf]), device=any_place)
    assert isinstance(np.isclose(x, 1.0), da.DArray) and isinstance(np.isposinf(x), da.DArray)
    assert np.allclose(x, x) is True and np.array_equal(x, x) is True
    with pytest.raises(TypeError, match="darray isposinf: .*complex"):
        da.isposinf(da.asarray([1j], device=any_place))
    with pytest.raises(ValueError, match="darray isneginf"):
        da.isneginf(x, out=da.zeros(3, dtype=da.bool_, device=any_place))
    assert_same(da.isneginf(x), np.isneginf([1.0, np.inf]))  # the next call works
