"""NumPy's mathematical functions beyond the ufuncs (darray/ops/mathfuncs.py) against NumPy."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import assert_same, check_outcome, viewed
from hypothesis import given
from hypothesis import strategies as st

import darray as da

PLACES = [None, "cpu"]
TOL = {"rtol": 1e-10, "atol": 1e-10}


def _numpy(fn, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), mode=st.sampled_from(["full", "same", "valid"]), dtype=st.sampled_from(["float64",
                                                                                                 "complex128",
                                                                                                 "int32"]))
def test_convolve_and_correlate(place, data, mode, dtype) -> None:
    """Against NumPy, inf and NaN included (only the overlaps count: nothing times the padding)."""
    values = st.integers(-4, 4) if dtype == "int32" else st.integers(-4, 4) | st.sampled_from([np.inf, -np.inf, np.nan])
    a = data.draw(viewed(dtype, min_dims=1, max_dims=1, max_side=9, elements=values))
    v = data.draw(viewed(dtype, min_dims=1, max_dims=1, max_side=5, elements=values))
    x, y = a[1](a[0]), v[1](v[0])
    if not x.size or not y.size:
        with pytest.raises(ValueError, match="empty"):
            da.convolve(da.asarray(x, device=place), da.asarray(y, device=place))
        return
    for name in ("convolve", "correlate"):
        got = getattr(da, name)(a[1](da.asarray(a[0], device=place)), v[1](da.asarray(v[0], device=place)), mode)
        assert_same(got, _numpy(getattr(np, name), x, y, mode), **TOL)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data())
def test_interp(place, data) -> None:
    xp = np.unique(np.array(data.draw(st.lists(st.integers(-20, 20), min_size=1, max_size=8)))) / 4
    fp = np.array(data.draw(st.lists(st.floats(-5, 5, width=32), min_size=xp.size, max_size=xp.size)))
    x = np.array(data.draw(st.lists(st.sampled_from([-6.0, -1.5, 0.0, 2.25, 6.0, np.nan, *xp.tolist()]),
                                    max_size=10)))
    d = {k: da.asarray(v, device=place) for k, v in {"x": x, "xp": xp, "fp": fp}.items()}
    assert_same(da.interp(d["x"], d["xp"], d["fp"]), np.interp(x, xp, fp), **TOL)
    assert_same(da.interp(d["x"], d["xp"], d["fp"], -9.0, 9.0), np.interp(x, xp, fp, -9.0, 9.0), **TOL)
    assert_same(da.interp(d["x"], d["xp"], d["fp"] + 1j), np.interp(x, xp, fp + 1j), **TOL)
    if xp.size > 1:
        assert_same(da.interp(d["x"], d["xp"], d["fp"], period=30.0), np.interp(x, xp, fp, period=30.0), **TOL)


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data(), order=st.sampled_from([1, 2]))
def test_gradient_trapezoid_unwrap(place, data, order) -> None:
    base, view = data.draw(viewed("float64", min_dims=1, max_side=6, elements=st.floats(-9, 9)))
    a, x = view(base), view(da.asarray(base, device=place))
    if min(a.shape) < order + 1:
        with pytest.raises(ValueError, match="too small"):
            da.gradient(x, edge_order=order)
        return
    got, want = da.gradient(x, edge_order=order), np.gradient(a, edge_order=order)
    for g, w in zip(got, want, strict=True) if a.ndim > 1 else [(got, want)]:
        assert_same(g, w, rtol=1e-9, atol=1e-9)
    coords = np.cumsum(np.arange(1, a.shape[-1] + 1) * 0.5)
    assert_same(da.gradient(x, coords, axis=-1, edge_order=order), np.gradient(a, coords, axis=-1,
                                                                               edge_order=order), rtol=1e-9,
                atol=1e-9)
    assert_same(da.trapezoid(x, coords), np.trapezoid(a, coords), rtol=1e-9, atol=1e-9)
    assert_same(da.trapezoid(x, dx=0.5, axis=0), np.trapezoid(a, dx=0.5, axis=0), rtol=1e-9, atol=1e-9)
    assert_same(da.unwrap(x), np.unwrap(a), rtol=1e-9, atol=1e-9)
    assert_same(da.unwrap(x, period=4.0, axis=0), np.unwrap(a, period=4.0, axis=0), rtol=1e-9, atol=1e-9)
    assert_same(da.ediff1d(x, to_begin=[1.0], to_end=2.0), np.ediff1d(a, to_begin=[1.0], to_end=2.0))


@pytest.mark.parametrize("place", PLACES)
@given(data=st.data())
def test_elementwise_helpers(place, data) -> None:
    base, view = data.draw(viewed("float64", elements=st.sampled_from([np.nan, np.inf, -np.inf, -0.0, 0.0, 0.5,
                                                                       -2.5, 3.0, 1e-9, 40.0, -700.0])))
    a, x = view(base), view(da.asarray(base, device=place))
    assert_same(da.around(x, 1), np.around(a, 1))
    assert_same(da.fix(x), np.fix(a))
    assert_same(da.nan_to_num(x), np.nan_to_num(a))
    assert_same(da.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-2.0), np.nan_to_num(a, nan=1.0, posinf=2.0,
                                                                                   neginf=-2.0))
    assert_same(da.nan_to_num(x + 1j * x), np.nan_to_num(a + 1j * a))
    assert_same(da.sinc(x), _numpy(np.sinc, a), **TOL)
    assert_same(da.angle(x + 2j), np.angle(a + 2j), **TOL)
    assert_same(da.angle(x, deg=True), np.angle(a, deg=True), **TOL)
    assert_same(da.real_if_close(x + 1e-20j), np.real_if_close(a + 1e-20j))
    y = x.copy()
    assert da.nan_to_num(y, copy=False) is y


@pytest.mark.parametrize("place", PLACES)
def test_i0(place) -> None:
    a = np.array([[0.0, 1e-9, -0.5, 3.0], [29.5, 30.5, -120.0, 700.0]])
    assert_same(da.i0(da.asarray(a, device=place)[:, ::-1]), np.i0(a[:, ::-1]), rtol=1e-12, atol=0)


@pytest.mark.parametrize("place", PLACES)
def test_products_and_diagonals(place) -> None:
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    x, y = da.asarray(a, device=place), da.asarray(b, device=place)
    assert_same(da.kron(x, y), np.kron(a, b), **TOL)
    assert_same(da.kron(x[0], y), np.kron(a[0], b), **TOL)
    assert_same(da.inner(x, y.T), np.inner(a, b.T), **TOL)
    assert_same(da.inner(x, 2.0), np.inner(a, 2.0), **TOL)
    assert_same(da.vdot(x + 1j, x), np.vdot(a + 1j, a), **TOL)
    assert_same(da.dot(x, y), np.dot(a, b), **TOL)
    out = da.empty((3, 2), device=place)
    assert da.dot(x, y, out) is out
    assert_same(da.outer(x, y), np.outer(a, b), **TOL)
    t = rng.standard_normal((3, 4, 5))
    z = da.asarray(t, device=place)
    for offset, ax1, ax2 in [(0, 0, 1), (1, 0, 2), (-1, 2, 1), (2, -1, -3)]:
        assert_same(da.diagonal(z, offset, ax1, ax2), np.diagonal(t, offset, ax1, ax2))
        assert_same(da.trace(z, offset, ax1, ax2), np.trace(t, offset, ax1, ax2), **TOL)
    assert_same(da.linalg.trace(z), np.trace(t, axis1=-2, axis2=-1), **TOL)
    for u, v in [([1.0, 2, 3], [4.0, 5, 6]), ([[1.0, 2, 3]], [[4.0, 5, 6], [7, 8, 9]]), ([1.0, 2], [4.0, 5, 6])]:
        assert_same(da.cross(da.asarray(u, device=place), da.asarray(v, device=place)), _numpy(np.cross, u, v),
                    **TOL)
    with pytest.raises(ValueError, match="dimension must be 2 or 3"):
        da.cross(da.asarray([1.0]), da.asarray([2.0]))


_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32", "float64",
           "complex64", "complex128"]
_INTEGRALS = {
    "trapezoid": lambda xp, y: xp.trapezoid(y), "trapezoid_dx": lambda xp, y: xp.trapezoid(y, dx=2),
    "trapezoid_x": lambda xp, y: xp.trapezoid(y, x=y), "trapezoid_2d": lambda xp, y: xp.trapezoid(y.reshape(2, 2),
                                                                                                 axis=0),
    "interp": lambda xp, y: xp.interp(y, xp.asarray([0, 1, 2, 3]), y),
    "interp_xp": lambda xp, y: xp.interp(xp.asarray([0.5, 2.0]), y, xp.asarray([0.0, 1, 2, 3], dtype=np.float32)),
}


@given(name=st.sampled_from(sorted(_INTEGRALS)), dtype=st.sampled_from(_DTYPES),
       values=st.permutations([0, 1, 2, 3]))
def test_integral_dtypes_as_numpy(name, dtype, values) -> None:
    """trapezoid (NumPy's order: d * (y0 + y1) / 2, so unsigned differences wrap alike) and interp
    (complex x or xp a TypeError) of every dtype: NumPy's dtype and values."""
    y = np.array(values).astype(dtype)
    if name == "interp_xp":
        y = np.sort(y)
    check_outcome(_INTEGRALS[name], y, rtol=1e-6, atol=1e-6)
