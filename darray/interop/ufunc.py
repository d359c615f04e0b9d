"""``DArray.__array_ufunc__``: NumPy ufuncs on DArrays run darray's ufunc objects on the arrays' place.

``np.sin(x)``, ``np.add(x, y, out=z)`` (one fused kernel writing z), ``np.add.reduce(x, axis=1)``,
``np.maximum.accumulate(x)``, ``np.add.at(x, idx, 1)``, ``np.multiply.outer(x, y)``,
``np.add.reduceat(x, idx)`` and ``np.matmul(a, b)`` return DArrays (or write into them); NumPy
arrays and scalars among the inputs are copied to that place. Every NumPy ufunc darray has
(``darray.ops.ufunc.BY_NUMPY``) takes NumPy's keywords (``out``, ``where``, ``dtype``,
``casting``, ``axis``, ``keepdims``, ``initial``); any other ufunc (``isnat``) is a TypeError naming it.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..ops import linalg, mathfuncs
from ..ops._out import store
from ..ops.ufunc import BY_NUMPY

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
    mine = BY_NUMPY.get(ufunc)
    if mine is None:
        raise TypeError(f"darray: numpy.{name} is not supported on DArrays (no host round trip is made; convert with "
                        "numpy.asarray(x) to compute it with NumPy)")
    out = kwargs.pop("out", None)
    if out is not None:
        kwargs["out"] = out[0] if isinstance(out, tuple) and len(out) == 1 and method != "__call__" else out
    if "signature" in kwargs and kwargs["signature"] is None:
        del kwargs["signature"]
    return getattr(mine, method)(*inputs, **kwargs)


def ufuncs() -> dict[np.ufunc, str]:
    """NumPy ufunc -> the name of darray's ufunc running it."""
    return {k: v.__name__ for k, v in BY_NUMPY.items()}
