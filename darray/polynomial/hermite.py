"""Hermite (physicists') series (``numpy.polynomial.hermite``): NumPy's functions of the basis, bound from the generic
algorithms (``_algebra``, ``_evaluate``) and the Hermite row of ``_basis``, and the class :class:`Hermite`.
"""
from __future__ import annotations

from ._basis import HERMITE
from ._bind import constants, functions
from ._classes import Hermite

_f, _k = functions(HERMITE), constants(HERMITE)
hermadd = _f["add"]
hermsub = _f["sub"]
hermmulx = _f["mulx"]
hermmul = _f["mul"]
hermdiv = _f["div"]
hermpow = _f["pow"]
hermval = _f["val"]
hermval2d = _f["val2d"]
hermval3d = _f["val3d"]
hermgrid2d = _f["grid2d"]
hermgrid3d = _f["grid3d"]
hermder = _f["der"]
hermint = _f["int"]
hermfromroots = _f["fromroots"]
hermvander = _f["vander"]
hermvander2d = _f["vander2d"]
hermvander3d = _f["vander3d"]
hermfit = _f["fit"]
hermtrim = _f["trim"]
hermroots = _f["roots"]
hermcompanion = _f["companion"]
hermline = _f["line"]
herm2poly = _f["topoly"]
poly2herm = _f["frompoly"]
hermgauss = _f["gauss"]
hermweight = _f["weight"]
hermdomain, hermzero, hermone, hermx = _k["domain"], _k["zero"], _k["one"], _k["x"]


__all__ = [
    "hermzero", "hermone", "hermx", "hermdomain", "hermline", "hermadd", "hermsub", "hermmulx", "hermmul", "hermdiv",
    "hermpow", "hermval", "hermder", "hermint", "herm2poly", "poly2herm", "hermfromroots", "hermvander", "hermfit",
    "hermtrim", "hermroots", "Hermite", "hermval2d", "hermval3d", "hermgrid2d", "hermgrid3d", "hermvander2d",
    "hermvander3d", "hermcompanion", "hermgauss", "hermweight",
]
