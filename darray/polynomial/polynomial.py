"""Power series (``numpy.polynomial.polynomial``): NumPy's functions of the basis, bound from the generic
algorithms (``_algebra``, ``_evaluate``) and the Polynomial row of ``_basis``, and the class :class:`Polynomial`.
"""
from __future__ import annotations

from ._basis import POWER
from ._bind import constants, functions
from ._classes import Polynomial
from ._evaluate import valfromroots as _valfromroots

_f, _k = functions(POWER), constants(POWER)
polyadd = _f["add"]
polysub = _f["sub"]
polymulx = _f["mulx"]
polymul = _f["mul"]
polydiv = _f["div"]
polypow = _f["pow"]
polyval = _f["val"]
polyval2d = _f["val2d"]
polyval3d = _f["val3d"]
polygrid2d = _f["grid2d"]
polygrid3d = _f["grid3d"]
polyder = _f["der"]
polyint = _f["int"]
polyfromroots = _f["fromroots"]
polyvander = _f["vander"]
polyvander2d = _f["vander2d"]
polyvander3d = _f["vander3d"]
polyfit = _f["fit"]
polytrim = _f["trim"]
polyroots = _f["roots"]
polycompanion = _f["companion"]
polyline = _f["line"]
polydomain, polyzero, polyone, polyx = _k["domain"], _k["zero"], _k["one"], _k["x"]


def polyvalfromroots(x: object, r: object, tensor: bool = True) -> object:
    """The product of (x - r[i]) over the roots ``r`` (axis 0; further axes: several polynomials), on the
    device. See also: numpy.polynomial.polynomial.polyvalfromroots."""
    return _valfromroots(x, r, tensor, "polyvalfromroots")


__all__ = [
    "polyzero", "polyone", "polyx", "polydomain", "polyline", "polyadd", "polysub", "polymulx", "polymul", "polydiv",
    "polypow", "polyval", "polyvalfromroots", "polyder", "polyint", "polyfromroots", "polyvander", "polyfit",
    "polytrim", "polyroots", "Polynomial", "polyval2d", "polyval3d", "polygrid2d", "polygrid3d", "polyvander2d",
    "polyvander3d", "polycompanion",
]
