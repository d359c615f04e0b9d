"""``DArray.__array_ufunc__``: NumPy ufuncs on DArrays run darray's ufunc objects on the arrays' place.

``np.sin(x)``, ``np.add(x, y, out=z)`` (one fused kernel writing z), ``np.add.reduce(x, axis=1)``,
``np.maximum.accumulate(x)``, ``np.add.at(x, idx, 1)``, ``np.multiply.outer(x, y)``,
``np.add.reduceat(x, idx)`` and ``np.matmul(a, b)`` return DArrays (or write into them); NumPy
arrays and scalars among the inputs are copied to that place. Every NumPy ufunc darray has
(``darray.ops.ufunc.BY_NUMPY``) takes NumPy's keywords (``out``, ``where``, ``dtype``,
``casting``, ``axis``, ``keepdims``, ``initial``); any other ufunc (``isnat``) is a TypeError naming it.

A foreign ufunc (not one of NumPy's: ``scipy.special.expm1``) runs darray's ufunc of the same
``__name__``, ``nin`` and ``nout`` where darray has one, as CuPy matches them; else it is a
TypeError naming the ufunc by its module (``scipy.special.erf``).
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..ops import linalg, mathfuncs
from ..ops._out import store
from ..ops.ufunc import BY_NUMPY, UFUNCS
from ..ops.ufunc import ufunc as DUfunc

_GUFUNCS = {np.matmul: linalg.matmul, np.vecdot: linalg.vecdot, np.matvec: mathfuncs.matvec,
            np.vecmat: mathfuncs.vecmat}


def call(ufunc: np.ufunc, method: str, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``getattr(ufunc, method)(*inputs, **kwargs)`` through darray."""
    name = ufunc.__name__
    if method == "__call__" and ufunc in _GUFUNCS:
        out = kwargs.pop("out", None)
        extra = {k: v for k, v in kwargs.items() if v is not None and k not in ("casting", "order", "subok")}
        if extra:
            raise TypeError(f"darray: numpy.{name} with {', '.join(extra)} is not supported on DArrays")
        result = _GUFUNCS[ufunc](*inputs)
        return result if out is None else store(name, out, result)
    mine = BY_NUMPY.get(ufunc) or _foreign(ufunc)
    if mine is None:
        raise TypeError(f"darray: {_qualified(ufunc)} is not supported on DArrays (no host round trip is made; "
                        "convert with numpy.asarray(x) to compute it with NumPy)")
    out = kwargs.pop("out", None)
    if out is not None:
        kwargs["out"] = out[0] if isinstance(out, tuple) and len(out) == 1 and method != "__call__" else out
    if "signature" in kwargs and kwargs["signature"] is None:
        del kwargs["signature"]
    return getattr(mine, method)(*inputs, **kwargs)


def _foreign(ufunc: np.ufunc) -> DUfunc | None:
    """darray's ufunc for a ufunc that is not NumPy's, matched by name and arity (None: no match)."""
    name = ufunc.__name__
    if getattr(np, name, None) is ufunc:
        return None
    mine = UFUNCS.get(name)
    return mine if mine is not None and (mine.nin, mine.nout) == (ufunc.nin, ufunc.nout) else None


def _qualified(ufunc: np.ufunc) -> str:
    """``module.name`` of a ufunc (ufuncs carry no ``__module__``): NumPy's, else the shortest public
    module that has it (``scipy.special``, not ``scipy.special._ufuncs``)."""
    name = ufunc.__name__
    if getattr(np, name, None) is ufunc:
        return f"numpy.{name}"
    homes = [m for m, mod in list(sys.modules.items()) if getattr(mod, name, None) is ufunc]
    public = [m for m in homes if not any(part.startswith("_") for part in m.split("."))] or homes
    return f"{min(public, key=lambda m: (m.count('.'), len(m)))}.{name}" if public else f"ufunc {name!r}"


def ufuncs() -> dict[np.ufunc, str]:
    """NumPy ufunc -> the name of darray's ufunc running it."""
    return {k: v.__name__ for k, v in BY_NUMPY.items()}
