"""Polynomials (darray/ops/polynomial.py) against NumPy's power-series functions and poly1d."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import assert_same, check_outcome, tolerance, viewed
from hypothesis import assume, given
from hypothesis import strategies as st

import darray as da

P, Q = [3.0, -2.0, 0.5, 1.0], [1.0, 2.0]
TOL = {"rtol": 1e-10, "atol": 1e-10}


@pytest.mark.parametrize("place", [None, "cpu"])
def test_functions(place) -> None:
    p, q = da.asarray(P, device=place), da.asarray(Q, device=place)
    x = np.linspace(-2, 2, 7)
    assert_same(da.polyval(p, da.asarray(x, device=place)), np.polyval(P, x), **TOL)
    assert_same(da.polyval([1, 2], da.asarray([3], device=place)), np.polyval([1, 2], [3]))
    for m in (0, 1, 3, 5):
        assert_same(da.polyder(p, m), np.polyder(P, m), **TOL)
    assert_same(da.polyint(p), np.polyint(P), **TOL)
    assert_same(da.polyint(p, 2, [1.0, 2.0]), np.polyint(P, 2, [1.0, 2.0]), **TOL)
    for name in ("polyadd", "polysub", "polymul"):
        assert_same(getattr(da, name)(p, q), getattr(np, name)(P, Q), **TOL)
    for g, w in zip(da.polydiv(p, q), np.polydiv(P, Q), strict=True):
        assert_same(g, w, **TOL)
    y = np.sin(x)
    assert_same(da.polyfit(da.asarray(x, device=place), da.asarray(y, device=place), 3), np.polyfit(x, y, 3), **TOL)
    got = da.polyfit(da.asarray(x, device=place), y, 2, full=True)
    want = np.polyfit(x, y, 2, full=True)
    assert_same(got[0], want[0], **TOL) and got[2] == want[2]
    assert_same(np.sort_complex(da.roots(p).get()), np.sort_complex(np.roots(P)), **TOL)
    assert_same(da.poly([1.0, 2.0]), np.poly([1.0, 2.0]), **TOL)
    with pytest.raises(ValueError, match="polyder"):
        da.polyder(p, -1)


def test_poly1d() -> None:
    p, n = da.poly1d(P), np.poly1d(P)
    assert p.order == n.order == 3 and len(p) == 3 and str(p) == str(n)
    assert_same((p * p + 1).coeffs, (n * n + 1).coeffs, **TOL)
    assert_same((p - [1.0, 1.0]).coeffs, (n - [1.0, 1.0]).coeffs, **TOL)
    assert_same((2 * p / 4).coeffs, (2 * n / 4).coeffs, **TOL)
    assert_same((p ** 2).coeffs, (n ** 2).coeffs, **TOL)
    assert_same(p(da.asarray([1.0, 2.0])), n([1.0, 2.0]), **TOL)
    assert_same(p.deriv(2).coeffs, n.deriv(2).coeffs, **TOL)
    assert_same(p.integ(1, 3.0).coeffs, n.integ(1, 3.0).coeffs, **TOL)
    assert_same(np.sort_complex(p.roots.get()), np.sort_complex(n.roots), **TOL)
    assert p == da.poly1d(P) and p != da.poly1d(Q) and float(p[1]) == n[1]
    assert da.poly1d([0.0, 0.0, 1.0, 2.0]).order == 1
    assert_same(da.poly1d([1.0, 2.0], r=True).coeffs, np.poly1d([1.0, 2.0], r=True).coeffs, **TOL)


# Hypothesis: coefficients (views of 1-d arrays, lengths 0..6) and points (any shape, views) of int and
# float dtypes with NaN, inf, -0.0 and large integers, against NumPy on both places.
DTYPES = ["int8", "int32", "int64", "uint8", "float32", "float64", "complex128"]
PLACES = pytest.mark.parametrize("place", [None, "cpu"])


def _coeffs(bounded: bool = False) -> st.SearchStrategy:
    """(base, view) of 1-d coefficients; ``bounded``: values as ``_points``'."""
    return st.sampled_from(DTYPES).flatmap(lambda d: _points(d, bounded, min_dims=1, max_dims=1, max_side=7))


def _tol(*arrays: np.ndarray) -> dict[str, float]:
    """The looser dtype's tolerance: float32 coefficients look coarser than float64 ones."""
    return max((tolerance(a.dtype) for a in arrays), key=lambda t: t["rtol"])


def _points(dtype: str, bounded: bool = True, **kw: int) -> st.SearchStrategy:
    """(base, view) of ``dtype``; ``bounded``: floats within 1e3 plus NaN, inf and -0.0 (past that a sum
    of terms near overflow cancels, and no tolerance holds), complex ones finite (darray's complex multiply
    differs from NumPy's with infinite parts: nan+infj where NumPy gives -inf+infj); integers over their
    whole range."""
    if not bounded:
        return viewed(dtype, **kw)
    kind = np.dtype(dtype).kind
    width = 32 if dtype == "float32" else 64
    elements = {"f": st.one_of(st.floats(-1e3, 1e3, width=width), st.sampled_from([np.nan, np.inf, -np.inf, -0.0])),
                "c": st.complex_numbers(max_magnitude=1e3)}.get(kind)
    return viewed(dtype, elements=elements, **kw)


@PLACES
@given(p=_coeffs(bounded=True), x=st.sampled_from(DTYPES).flatmap(_points), keyword=st.booleans())
def test_polyval_property(place, p, x, keyword) -> None:
    pn, xn = p[1](p[0]), x[1](x[0])
    pd, xd = p[1](da.asarray(p[0], device=place)), x[1](da.asarray(x[0], device=place))
    with np.errstate(all="ignore"):
        want = np.polyval(pn, xn)
    got = da.polyval(p=pd, x=xd) if keyword else da.polyval(pd, xd)
    # Horner's rule step by step as NumPy: the only difference is float32's rounding on the device
    bound = np.polyval(np.abs(pn).astype(np.float64), np.abs(xn).astype(np.float64))
    tol = tolerance(want.dtype)
    scale = float(np.nan_to_num(bound, nan=1.0, posinf=1.0).max(initial=1.0))
    assert_same(got, want, rtol=tol["rtol"], atol=tol["atol"] * scale)


@PLACES
@given(p=_coeffs(), m=st.integers(0, 4), k=st.one_of(st.none(), st.floats(-5, 5), st.lists(st.floats(-5, 5),
                                                                                              min_size=4, max_size=5)))
def test_polyder_polyint_property(place, p, m, k) -> None:
    pn, pd = p[1](p[0]), p[1](da.asarray(p[0], device=place))
    with np.errstate(all="ignore"):
        assert_same(da.polyder(pd, m), np.polyder(pn, m), **_tol(pn))
        assert_same(da.polyder(pd, m=m), np.polyder(pn, m=m), **_tol(pn))
        want = np.polyint(pn, m) if k is None else np.polyint(pn, m, k)
    assert_same(da.polyint(pd, m) if k is None else da.polyint(pd, m=m, k=k), want, **_tol(pn))


@PLACES
@given(a=_coeffs(), b=_coeffs(), name=st.sampled_from(["polyadd", "polysub", "polymul"]), wrap=st.booleans())
def test_arithmetic_property(place, a, b, name, wrap) -> None:
    an, bn = a[1](a[0]), b[1](b[0])
    if name == "polymul" and (np.iscomplexobj(an) or np.iscomplexobj(bn)) and an.size and bn.size:
        # complex products that overflow: darray's complex multiply gives other inf/NaN parts than NumPy's
        with np.errstate(all="ignore"):
            assume(np.isfinite(np.abs(an).max() * np.abs(bn).max() * 4))
    ad, bd = a[1](da.asarray(a[0], device=place)), b[1](da.asarray(b[0], device=place))
    with np.errstate(all="ignore"):
        want = getattr(np, name)(an, bn)
    got = getattr(da, name)(ad, bd)
    assert_same(got, want, **_tol(an, bn))
    if wrap and an.size and bn.size and an.dtype.kind == bn.dtype.kind == "f":  # poly1d drops leading zeros
        with np.errstate(all="ignore"):
            want1 = getattr(np, name)(np.poly1d(an), np.poly1d(bn))
        assume(np.isfinite(an).all() and np.isfinite(bn).all())
        got1 = getattr(da, name)(da.poly1d(ad), da.poly1d(bd))
        assert isinstance(got1, da.poly1d) and got1.order == want1.order
        assert_same(got1.coeffs, want1.coeffs, **_tol(an, bn))


FINITE = st.floats(-8, 8, width=32)


@PLACES
@given(u=st.lists(FINITE, min_size=1, max_size=6), v=st.lists(FINITE, min_size=1, max_size=4),
       zeros=st.lists(FINITE, max_size=5))
def test_host_functions_property(place, u, v, zeros) -> None:
    """polydiv, poly, roots (NumPy's on a host copy: the same values) and the place of their results."""
    assume(v[0] != 0)
    for got, want in zip(da.polydiv(da.asarray(u, device=place), da.asarray(v, device=place)), np.polydiv(u, v)):
        assert_same(got, want)
        assert got.place == da.place.parse(place)
    got = da.poly(da.asarray(zeros, device=place))
    assert_same(got, np.poly(zeros))
    assert got.place == da.place.parse(place)
    if u[0] != 0:
        assert_same(da.roots(da.asarray(u, device=place)), np.roots(u))


@PLACES
@given(x=st.lists(st.integers(-16, 16), min_size=2, max_size=12, unique=True).map(lambda v: [i / 4 for i in v]),
       deg=st.integers(0, 3), full=st.booleans(), data=st.data())  # spaced points: NumPy's SVD fails for 1e-224
def test_polyfit_property(place, x, deg, full, data) -> None:
    y = data.draw(st.lists(st.floats(-10, 10), min_size=len(x), max_size=len(x)))
    with warnings.catch_warnings():  # NumPy's RankWarning when deg >= len(x): on both sides alike
        warnings.simplefilter("ignore")
        want = np.polyfit(x, y, deg, full=full)
        got = da.polyfit(da.asarray(x, device=place), da.asarray(y, device=place), deg, full=full)
    for g, w in zip(got, want) if full else [(got, want)]:
        assert_same(g, w)


@PLACES
@given(a=st.lists(FINITE, min_size=1, max_size=5), b=st.lists(FINITE, min_size=1, max_size=5),
       x=st.lists(FINITE, max_size=4), n=st.integers(0, 3), m=st.integers(0, 3))
def test_poly1d_property(place, a, b, x, n, m) -> None:
    p, q = da.poly1d(da.asarray(a, device=place)), da.poly1d(da.asarray(b, device=place))
    pn, qn = np.poly1d(a), np.poly1d(b)
    assert p.order == pn.order and str(p) == str(pn) and (p == q) == (pn == qn)
    for got, want in [(p + q, pn + qn), (p - q, pn - qn), (p * q, pn * qn), (p ** n, pn ** n), (-p, -pn),
                      (p.deriv(m), pn.deriv(m)), (p.integ(m, 1.5), pn.integ(m, 1.5)), (2.0 * p - 1, 2.0 * pn - 1)]:
        assert got.order == want.order
        assert_same(got.coeffs, want.coeffs, rtol=1e-9, atol=1e-9)
    assert_same(p(da.asarray(x, device=place)), pn(np.asarray(x, dtype=np.float64)), rtol=1e-12, atol=1e-9)


_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32", "float64",
           "complex64", "complex128"]
_FITS = {
    "polyfit": lambda xp, y: xp.polyfit(xp.asarray([0.0, 1, 2, 3]), y, 1),
    "polyfit_x": lambda xp, y: xp.polyfit(y, xp.asarray([0.0, 1, 2, 3]), 1),
    "polyval": lambda xp, y: xp.polyval(y, y), "polyval_int": lambda xp, y: xp.polyval(y, 2),
    "polyval_float": lambda xp, y: xp.polyval(y, 2.5),
}


@given(name=st.sampled_from(sorted(_FITS)), dtype=st.sampled_from(_DTYPES), values=st.permutations([0, 1, 2, 3]))
def test_fit_dtypes_as_numpy(name, dtype, values) -> None:
    """polyfit and polyval of every dtype: NumPy's result dtype and values."""
    check_outcome(_FITS[name], np.array(values).astype(dtype), rtol=1e-6, atol=1e-6)
