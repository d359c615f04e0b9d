"""Chebyshev series (``numpy.polynomial.chebyshev``): NumPy's functions of the basis, bound from the generic
algorithms (``_algebra``, ``_evaluate``) and the Chebyshev row of ``_basis``, and the class :class:`Chebyshev`.
"""
from __future__ import annotations

from typing import Any

from .._array import DArray
from ._basis import CHEBYSHEV
from ._bind import constants, functions
from ._classes import Chebyshev
from ._evaluate import chebinterpolate as _interpolate
from ._evaluate import chebpts as _pts

_f, _k = functions(CHEBYSHEV), constants(CHEBYSHEV)
chebadd = _f["add"]
chebsub = _f["sub"]
chebmulx = _f["mulx"]
chebmul = _f["mul"]
chebdiv = _f["div"]
chebpow = _f["pow"]
chebval = _f["val"]
chebval2d = _f["val2d"]
chebval3d = _f["val3d"]
chebgrid2d = _f["grid2d"]
chebgrid3d = _f["grid3d"]
chebder = _f["der"]
chebint = _f["int"]
chebfromroots = _f["fromroots"]
chebvander = _f["vander"]
chebvander2d = _f["vander2d"]
chebvander3d = _f["vander3d"]
chebfit = _f["fit"]
chebtrim = _f["trim"]
chebroots = _f["roots"]
chebcompanion = _f["companion"]
chebline = _f["line"]
cheb2poly = _f["topoly"]
poly2cheb = _f["frompoly"]
chebgauss = _f["gauss"]
chebweight = _f["weight"]
chebdomain, chebzero, chebone, chebx = _k["domain"], _k["zero"], _k["one"], _k["x"]


def chebpts1(npts: Any) -> DArray:
    """The Chebyshev points of the first kind: sin(pi k / (2 npts)) for k = -npts+1, -npts+3, ..., npts-1.
    See also: numpy.polynomial.chebyshev.chebpts1."""
    return _pts(npts, 1, "chebpts1")


def chebpts2(npts: Any) -> DArray:
    """The Chebyshev points of the second kind: cos(pi k / (npts - 1)) from -1 to 1. See also:
    numpy.polynomial.chebyshev.chebpts2."""
    return _pts(npts, 2, "chebpts2")


def chebinterpolate(func: Any, deg: Any, args: tuple[Any, ...] = ()) -> DArray:
    """The Chebyshev series of degree ``deg`` interpolating ``func(x, *args)`` at the Chebyshev points of the
    first kind (on the device). See also: numpy.polynomial.chebyshev.chebinterpolate."""
    return _interpolate(func, deg, args, chebvander, "chebinterpolate")


__all__ = [
    "chebzero", "chebone", "chebx", "chebdomain", "chebline", "chebadd", "chebsub", "chebmulx", "chebmul", "chebdiv",
    "chebpow", "chebval", "chebder", "chebint", "cheb2poly", "poly2cheb", "chebfromroots", "chebvander", "chebfit",
    "chebtrim", "chebroots", "chebpts1", "chebpts2", "Chebyshev", "chebval2d", "chebval3d", "chebgrid2d",
    "chebgrid3d", "chebvander2d", "chebvander3d", "chebcompanion", "chebgauss", "chebweight", "chebinterpolate",
]
