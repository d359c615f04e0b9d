"""Laguerre series (``numpy.polynomial.laguerre``): NumPy's functions of the basis, bound from the generic
algorithms (``_algebra``, ``_evaluate``) and the Laguerre row of ``_basis``, and the class :class:`Laguerre`.
"""
from __future__ import annotations

from ._basis import LAGUERRE
from ._bind import constants, functions
from ._classes import Laguerre

_f, _k = functions(LAGUERRE), constants(LAGUERRE)
lagadd = _f["add"]
lagsub = _f["sub"]
lagmulx = _f["mulx"]
lagmul = _f["mul"]
lagdiv = _f["div"]
lagpow = _f["pow"]
lagval = _f["val"]
lagval2d = _f["val2d"]
lagval3d = _f["val3d"]
laggrid2d = _f["grid2d"]
laggrid3d = _f["grid3d"]
lagder = _f["der"]
lagint = _f["int"]
lagfromroots = _f["fromroots"]
lagvander = _f["vander"]
lagvander2d = _f["vander2d"]
lagvander3d = _f["vander3d"]
lagfit = _f["fit"]
lagtrim = _f["trim"]
lagroots = _f["roots"]
lagcompanion = _f["companion"]
lagline = _f["line"]
lag2poly = _f["topoly"]
poly2lag = _f["frompoly"]
laggauss = _f["gauss"]
lagweight = _f["weight"]
lagdomain, lagzero, lagone, lagx = _k["domain"], _k["zero"], _k["one"], _k["x"]


__all__ = [
    "lagzero", "lagone", "lagx", "lagdomain", "lagline", "lagadd", "lagsub", "lagmulx", "lagmul", "lagdiv", "lagpow",
    "lagval", "lagder", "lagint", "lag2poly", "poly2lag", "lagfromroots", "lagvander", "lagfit", "lagtrim",
    "lagroots", "Laguerre", "lagval2d", "lagval3d", "laggrid2d", "laggrid3d", "lagvander2d", "lagvander3d",
    "lagcompanion", "laggauss", "lagweight",
]
