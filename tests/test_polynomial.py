"""Polynomials (darray/ops/polynomial.py) against NumPy's power-series functions and poly1d."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same

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
