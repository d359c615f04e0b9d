"""``darray.emath``: NumPy's ``emath`` (``numpy.lib.scimath``), functions whose real inputs outside
the real domain give complex results (``emath.sqrt(-1) == 1j``).

As NumPy's, the result dtype depends on the values: a real input with an element outside the
domain is cast to complex first (complex64 for float32 and the small integer types, complex128
otherwise), which reads one bool from the device.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as _dt
from ._array import DArray
from .ops import elementwise as E
from .ops import reduction as R
from .transfer.convert import asarray

_SMALL = {np.dtype(t) for t in ("float16", "float32", "int8", "int16", "uint8", "uint16")}


def _complex_if(x: Any, outside: Callable[[DArray], DArray]) -> DArray:
    """``x`` as a DArray, cast to complex when it is real and ``outside`` is true anywhere."""
    x = asarray(x)
    if x.dtype.kind in "biuf" and x.size and bool(R.any(outside(x))):
        return x.astype(_dt.complex64 if x.dtype in _SMALL else _dt.complex128)
    return x


def _negative(x: DArray) -> DArray:
    return E.apply("less", x, 0)


def _beyond_one(x: DArray) -> DArray:
    return E.apply("greater", E.apply("abs", x), 1)


def _make(name: str, op: str, outside: Callable[[DArray], DArray], what: str) -> Callable[[Any], DArray]:
    """The emath function ``name``: darray's ``op`` of ``x``, complex where ``outside`` holds."""
    def fn(x: Any) -> DArray:
        return E.apply(op, _complex_if(x, outside))

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{what}. See also: numpy.emath.{name}."
    return fn


sqrt = _make("sqrt", "sqrt", _negative, "Square root, complex for negative reals")
log = _make("log", "log", _negative, "Natural logarithm, complex for negative reals")
log10 = _make("log10", "log10", _negative, "Base-10 logarithm, complex for negative reals")
log2 = _make("log2", "log2", _negative, "Base-2 logarithm, complex for negative reals")
arccos = _make("arccos", "acos", _beyond_one, "Inverse cosine, complex for real |x| > 1")
arcsin = _make("arcsin", "asin", _beyond_one, "Inverse sine, complex for real |x| > 1")
arctanh = _make("arctanh", "atanh", _beyond_one, "Inverse hyperbolic tangent, complex for real |x| > 1")


def logn(n: Any, x: Any) -> DArray:
    """Logarithm of ``x`` to base ``n``, complex for negative reals. See also: numpy.emath.logn."""
    x = log(x)
    return E.apply("divide", x, log(n if isinstance(n, DArray) else asarray(n, device=x.place)))


def power(x: Any, p: Any) -> DArray:
    """``x ** p``, complex for negative real ``x``; negative integer powers of integers give floats.
    See also: numpy.emath.power."""
    p = asarray(p)
    if p.dtype.kind in "iu" and p.size and bool(R.any(_negative(p))):
        p = p.astype(_dt.float64)
    return E.apply("pow", _complex_if(x, _negative), p)


__all__ = ["sqrt", "log", "log10", "log2", "logn", "power", "arccos", "arcsin", "arctanh"]
