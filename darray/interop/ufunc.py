"""``DArray.__array_ufunc__``: NumPy ufuncs on DArrays run darray's ops on the arrays' place.

``np.sin(x)``, ``np.add(x, y, out=z)`` (one fused kernel writing z), ``np.add.reduce(x,
axis=1)``, ``np.multiply.accumulate(x)`` and ``np.matmul(a, b)`` return DArrays; NumPy arrays
and scalars among the inputs are copied to that place. The ufuncs are the op table's rows
whose NumPy reference is a ufunc (``ops._table``), plus matmul and vecdot. Methods: ``__call__``,
``reduce`` (add, multiply, maximum, minimum, logical_and, logical_or) and ``accumulate`` (add,
multiply). Any other ufunc or method, or a keyword with a value other than NumPy's default
(``where=``, ``initial=``...), is a TypeError naming it. ``dtype=`` on a call casts the array
inputs to it first (the loop's dtype).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from .._array import DArray
from ..ops import elementwise as E
from ..ops import linalg, reduction, scan
from ..ops._out import store
from ..ops._table import OPS

_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min", "logical_and": "all",
           "logical_or": "any"}
_ACCUMULATE = {"add": "cumulative_sum", "multiply": "cumulative_prod"}
_DEFAULTS = {"casting": "same_kind", "order": "K", "dtype": None, "subok": True, "signature": None, "where": True,
             "axis": None, "keepdims": False}  # keywords darray accepts at NumPy's default only


@lru_cache(maxsize=1)
def ufuncs() -> dict[np.ufunc, str]:
    """NumPy ufunc -> darray op (the table rows whose reference is a ufunc)."""
    return {op.ref: op.name for op in OPS if isinstance(op.ref, np.ufunc)}


def _check(ufunc: np.ufunc, method: str, kwargs: dict[str, Any], allowed: tuple[str, ...]) -> None:
    for key, value in kwargs.items():
        if key in allowed:
            continue
        default = _DEFAULTS.get(key, np._NoValue)
        if value is not default and not (type(value) is type(default) and value == default):
            shown = f"<{type(value).__name__}>" if isinstance(value, (np.ndarray, DArray)) else repr(value)
            raise TypeError(f"darray: numpy.{ufunc.__name__}.{method} with {key}={shown} is not supported on "
                            "DArrays")


def call(ufunc: np.ufunc, method: str, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``getattr(ufunc, method)(*inputs, **kwargs)`` through darray."""
    name = ufunc.__name__
    out = kwargs.pop("out", None)
    out = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    if method == "__call__":
        if ufunc in (np.matmul, np.vecdot):
            _check(ufunc, method, kwargs, ())
            result = getattr(linalg, name)(*inputs)
            return result if out is None else store(name, out, result)
        op = ufuncs().get(ufunc)
        if op is not None:
            dtype = kwargs.pop("dtype", None)
            _check(ufunc, method, kwargs, ())
            if dtype is not None:  # the loop's dtype: array inputs cast to it first, as NumPy does
                inputs = tuple(x.astype(dtype, copy=False) if isinstance(x, (DArray, np.ndarray)) else x
                               for x in inputs)
            return E.apply(op, *inputs) if out is None else E.into(out, op, *inputs)
    elif method in ("reduce", "accumulate") and name in (_REDUCE if method == "reduce" else _ACCUMULATE):
        (x,) = inputs
        axis, dtype = kwargs.pop("axis", 0), kwargs.pop("dtype", None)
        keepdims = kwargs.pop("keepdims", False) if method == "reduce" else False
        _check(ufunc, method, kwargs, ())
        if method == "reduce":
            if dtype is not None and name not in ("add", "multiply"):
                raise TypeError(f"darray: numpy.{name}.reduce with dtype={dtype!r} is not supported on DArrays")
            extra = {} if dtype is None else {"dtype": dtype}
            result = getattr(reduction, _REDUCE[name])(x, axis=axis, keepdims=keepdims, **extra)
        else:  # NumPy's add/multiply.accumulate widen small integers as cumulative_sum/prod do
            result = getattr(scan, _ACCUMULATE[name])(x, axis=axis, dtype=dtype)
        return result if out is None else store(f"{name}.{method}", out, result)
    raise TypeError(f"darray: numpy.{name}{'' if method == '__call__' else '.' + method} is not supported on "
                    "DArrays (no host round trip is made; convert with numpy.asarray(x) to compute it with NumPy)")
