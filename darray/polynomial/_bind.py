"""NumPy's functions of one basis (``chebadd``, ``legval``...), made from a :class:`~._basis.Basis` row and the
generic algorithms: :func:`functions` returns them by their generic names, each named, documented and
signed as NumPy's. Coefficient algebra runs on the host (``_algebra``) and comes back as DArrays on the place of
the first DArray argument; evaluation runs on DArrays (``_evaluate``).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from .._array import DArray
from ..transfer.convert import from_numpy, to_numpy
from . import _algebra as A
from . import _evaluate as V
from ._basis import Basis
from .polyutils import trimcoef


def host(a: Any) -> Any:
    """A DArray's values as a NumPy array; anything else as it is."""
    return to_numpy(a) if isinstance(a, DArray) else a


def _back(result: Any, place: Any) -> Any:
    if isinstance(result, tuple):
        return tuple(_back(r, place) for r in result)
    return from_numpy(np.asarray(result), place)


def _host_op(algorithm: Callable[..., Any], *arrays: Any, **options: Any) -> Any:
    """``algorithm`` on the host values of ``arrays``, its arrays back on their place as DArrays."""
    return _back(algorithm(*[host(a) for a in arrays], **options), V.place_of(*arrays))


_DOCS = {
    "add": "The sum of two {name} series (coefficients lowest degree first), trailing zeros trimmed.",
    "sub": "The difference of two {name} series, trailing zeros trimmed.",
    "mulx": "The {name} series times x.",
    "mul": "The product of two {name} series.",
    "div": "(quotient, remainder) of the division of two {name} series.",
    "pow": "The {name} series to the power ``pow`` (at most ``maxpower``).",
    "val": "The {name} series ``c`` at ``x`` (Clenshaw's recurrence on the device; ``tensor``: every series "
           "of c's further axes at every x).",
    "val2d": "The 2-D {name} series ``c`` at the points (x, y).",
    "val3d": "The 3-D {name} series ``c`` at the points (x, y, z).",
    "grid2d": "The 2-D {name} series ``c`` on the grid x times y.",
    "grid3d": "The 3-D {name} series ``c`` on the grid x times y times z.",
    "der": "The ``m``-th derivative of the {name} series along ``axis``, each multiplied by ``scl``.",
    "int": "The ``m``-th integral of the {name} series along ``axis``: constants ``k`` at ``lbnd``, each "
           "multiplied by ``scl``.",
    "fromroots": "The {name} series whose roots are ``roots``.",
    "vander": "The {name} Vandermonde matrix of ``x``: V[..., k] = P[k](x) (on the device).",
    "vander2d": "The 2-D {name} pseudo-Vandermonde matrix of (x, y) to degrees ``deg``.",
    "vander3d": "The 3-D {name} pseudo-Vandermonde matrix of (x, y, z) to degrees ``deg``.",
    "fit": "Least-squares {name} series of degree ``deg`` through (x, y).",
    "trim": "The {name} series without trailing coefficients of magnitude at most ``tol``.",
    "roots": "The roots of the {name} series (companion-matrix eigenvalues), sorted.",
    "companion": "The scaled companion matrix of the {name} series.",
    "line": "The {name} series of the line off + scl x.",
    "topoly": "The {name} series as a power series.",
    "frompoly": "The power series as a {name} series.",
    "gauss": "Gauss-{cls} quadrature: nodes and weights for the {name} weight function.",
    "weight": "The {name} weight function at ``x`` (on the device).",
}
_HOST = ("Differs from NumPy: computed on the host in double precision (NumPy's result dtype), the result "
         "copied to the place of the first DArray argument.")


@cache
def functions(b: Basis) -> dict[str, Callable[..., Any]]:  # noqa: C901  (one closure per NumPy function)
    """NumPy's functions of basis ``b`` by generic name (``"add"``, ``"val"``, ``"topoly"``...)."""
    p = b.prefix

    def add(c1: Any, c2: Any) -> DArray:
        return _host_op(A.add, c1, c2, name=f"{p}add")

    def sub(c1: Any, c2: Any) -> DArray:
        return _host_op(A.add, c1, c2, name=f"{p}sub", sign=-1)

    def mulx(c: Any) -> DArray:
        return _host_op(lambda c: A.mulx(b, c, f"{p}mulx"), c)

    def mul(c1: Any, c2: Any) -> DArray:
        return _host_op(lambda c1, c2: A.mul(b, c1, c2, f"{p}mul"), c1, c2)

    def div(c1: Any, c2: Any) -> tuple[DArray, DArray]:
        return _host_op(lambda c1, c2: A.div(b, c1, c2, f"{p}div"), c1, c2)

    def pow(c: Any, pow: Any, maxpower: Any = b.maxpower) -> DArray:  # noqa: A001
        return _host_op(lambda c: A.power(b, c, pow, maxpower, f"{p}pow"), c)

    def val(x: Any, c: Any, tensor: bool = True) -> Any:
        return V.val(b, x, c, tensor, f"{p}val")

    def val2d(x: Any, y: Any, c: Any) -> DArray:
        return V.valnd(b, c, (x, y), f"{p}val2d")

    def val3d(x: Any, y: Any, z: Any, c: Any) -> DArray:
        return V.valnd(b, c, (x, y, z), f"{p}val3d")

    def grid2d(x: Any, y: Any, c: Any) -> DArray:
        return V.gridnd(b, c, (x, y), f"{p}grid2d")

    def grid3d(x: Any, y: Any, z: Any, c: Any) -> DArray:
        return V.gridnd(b, c, (x, y, z), f"{p}grid3d")

    def der(c: Any, m: Any = 1, scl: Any = 1, axis: Any = 0) -> DArray:
        return _host_op(lambda c: A.der(b, c, m, scl, axis, f"{p}der"), c)

    def int(c: Any, m: Any = 1, k: Any = [], lbnd: Any = 0, scl: Any = 1, axis: Any = 0) -> DArray:  # noqa: A001, B006
        return _host_op(lambda c: A.integ(b, c, m, host(k), host(lbnd), host(scl), axis, f"{p}int"), c)

    def fromroots(roots: Any) -> DArray:
        return _host_op(lambda r: A.fromroots(b, r, f"{p}fromroots"), roots)

    def vander(x: Any, deg: Any) -> DArray:
        return V.vander(b, x, deg, f"{p}vander")

    def vander2d(x: Any, y: Any, deg: Any) -> DArray:
        return V.vander_nd(b, (x, y), deg, f"{p}vander2d")

    def vander3d(x: Any, y: Any, z: Any, deg: Any) -> DArray:
        return V.vander_nd(b, (x, y, z), deg, f"{p}vander3d")

    def fit(x: Any, y: Any, deg: Any, rcond: Any = None, full: bool = False, w: Any = None) -> Any:
        return V.fit(b, x, y, deg, rcond, full, w, f"{p}fit")

    def roots(c: Any) -> DArray:
        return _host_op(lambda c: A.roots(b, c, f"{p}roots"), c)

    def companion(c: Any) -> DArray:
        return _host_op(lambda c: A.companion(b, c, f"{p}companion"), c)

    def line(off: Any, scl: Any) -> DArray:
        return _host_op(lambda off, scl: A.line(b, off, scl), off, scl)

    found: dict[str, Callable[..., Any]] = {
        "add": add, "sub": sub, "mulx": mulx, "mul": mul, "div": div, "pow": pow, "val": val, "val2d": val2d,
        "val3d": val3d, "grid2d": grid2d, "grid3d": grid3d, "der": der, "int": int, "fromroots": fromroots,
        "vander": vander, "vander2d": vander2d, "vander3d": vander3d, "fit": fit, "roots": roots,
        "companion": companion, "line": line, "trim": trimcoef}
    if b.weight is not None:
        def topoly(c: Any) -> DArray:
            return _host_op(lambda c: A.to_power(b, c, f"{p}2poly"), c)

        def frompoly(pol: Any) -> DArray:
            return _host_op(lambda pol: A.from_power(b, pol, f"poly2{p}"), pol)

        def gauss(deg: Any) -> tuple[DArray, DArray]:
            return V.gauss(b, deg, f"{p}gauss")

        def weight(x: Any) -> DArray:
            return V.weight(b, x)
        found |= {"topoly": topoly, "frompoly": frompoly, "gauss": gauss, "weight": weight}
    return {key: _named(b, key, f) for key, f in found.items()}


def numpy_name(b: Basis, key: str) -> str:
    """NumPy's name of the generic function ``key`` in basis ``b`` (``"add"`` -> ``"chebadd"``)."""
    return {"topoly": f"{b.prefix}2poly", "frompoly": f"poly2{b.prefix}"}.get(key, f"{b.prefix}{key}")


def _named(b: Basis, key: str, f: Callable[..., Any]) -> Callable[..., Any]:
    name = numpy_name(b, key)
    if key == "trim":
        return f
    f.__name__ = f.__qualname__ = name
    f.__module__ = f"darray.polynomial.{b.module}"
    host_note = "" if key in ("val", "val2d", "val3d", "grid2d", "grid3d", "vander", "vander2d", "vander3d", "fit",
                              "weight") else f"\n\n{_HOST}"
    f.__doc__ = (_DOCS[key].format(name=b.cls, cls=b.cls) + f" See also: numpy.polynomial.{b.module}.{name}."
                 + host_note)
    return f


def constants(b: Basis) -> dict[str, np.ndarray]:
    """``<prefix>domain``, ``zero``, ``one`` and ``x`` as NumPy arrays (as NumPy's: host constants)."""
    return {"domain": np.array(b.domain), "zero": np.array([0]), "one": np.array([1]),
            "x": A.line(b, 0, 1)}
