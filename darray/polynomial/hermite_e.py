"""HermiteE (probabilists' Hermite) series (``numpy.polynomial.hermite_e``): NumPy's functions of the basis,
bound from the generic algorithms (``_algebra``, ``_evaluate``) and the HermiteE row of ``_basis``, and the
class :class:`HermiteE`.
"""
from __future__ import annotations

from ._basis import HERMITE_E
from ._bind import constants, functions
from ._classes import HermiteE

_f, _k = functions(HERMITE_E), constants(HERMITE_E)
hermeadd = _f["add"]
hermesub = _f["sub"]
hermemulx = _f["mulx"]
hermemul = _f["mul"]
hermediv = _f["div"]
hermepow = _f["pow"]
hermeval = _f["val"]
hermeval2d = _f["val2d"]
hermeval3d = _f["val3d"]
hermegrid2d = _f["grid2d"]
hermegrid3d = _f["grid3d"]
hermeder = _f["der"]
hermeint = _f["int"]
hermefromroots = _f["fromroots"]
hermevander = _f["vander"]
hermevander2d = _f["vander2d"]
hermevander3d = _f["vander3d"]
hermefit = _f["fit"]
hermetrim = _f["trim"]
hermeroots = _f["roots"]
hermecompanion = _f["companion"]
hermeline = _f["line"]
herme2poly = _f["topoly"]
poly2herme = _f["frompoly"]
hermegauss = _f["gauss"]
hermeweight = _f["weight"]
hermedomain, hermezero, hermeone, hermex = _k["domain"], _k["zero"], _k["one"], _k["x"]


__all__ = [
    "hermezero", "hermeone", "hermex", "hermedomain", "hermeline", "hermeadd", "hermesub", "hermemulx", "hermemul",
    "hermediv", "hermepow", "hermeval", "hermeder", "hermeint", "herme2poly", "poly2herme", "hermefromroots",
    "hermevander", "hermefit", "hermetrim", "hermeroots", "HermiteE", "hermeval2d", "hermeval3d", "hermegrid2d",
    "hermegrid3d", "hermevander2d", "hermevander3d", "hermecompanion", "hermegauss", "hermeweight",
]
