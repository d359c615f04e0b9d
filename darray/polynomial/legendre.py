"""Legendre series (``numpy.polynomial.legendre``): NumPy's functions of the basis, bound from the generic
algorithms (``_algebra``, ``_evaluate``) and the Legendre row of ``_basis``, and the class :class:`Legendre`.
"""
from __future__ import annotations

from ._basis import LEGENDRE
from ._bind import constants, functions
from ._classes import Legendre

_f, _k = functions(LEGENDRE), constants(LEGENDRE)
legadd = _f["add"]
legsub = _f["sub"]
legmulx = _f["mulx"]
legmul = _f["mul"]
legdiv = _f["div"]
legpow = _f["pow"]
legval = _f["val"]
legval2d = _f["val2d"]
legval3d = _f["val3d"]
leggrid2d = _f["grid2d"]
leggrid3d = _f["grid3d"]
legder = _f["der"]
legint = _f["int"]
legfromroots = _f["fromroots"]
legvander = _f["vander"]
legvander2d = _f["vander2d"]
legvander3d = _f["vander3d"]
legfit = _f["fit"]
legtrim = _f["trim"]
legroots = _f["roots"]
legcompanion = _f["companion"]
legline = _f["line"]
leg2poly = _f["topoly"]
poly2leg = _f["frompoly"]
leggauss = _f["gauss"]
legweight = _f["weight"]
legdomain, legzero, legone, legx = _k["domain"], _k["zero"], _k["one"], _k["x"]


__all__ = [
    "legzero", "legone", "legx", "legdomain", "legline", "legadd", "legsub", "legmulx", "legmul", "legdiv", "legpow",
    "legval", "legder", "legint", "leg2poly", "poly2leg", "legfromroots", "legvander", "legfit", "legtrim",
    "legroots", "Legendre", "legval2d", "legval3d", "leggrid2d", "leggrid3d", "legvander2d", "legvander3d",
    "legcompanion", "leggauss", "legweight",
]
