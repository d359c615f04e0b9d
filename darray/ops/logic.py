"""Logic functions: allclose, isclose, array_equal, array_equiv, iscomplex, isreal, isposinf, isneginf.

Comparisons are elementwise ops (one fused kernel on OpenCL places); the functions that return
a Python bool reduce on the array's place and read one value back.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..dim import broadcast_shapes
from ..transfer.convert import asarray
from . import _dispatch as D
from . import elementwise as E
from ._out import finish
from .creation import full
from .reduction import all as _all

__all__ = ["allclose", "isclose", "array_equal", "array_equiv", "iscomplex", "isreal", "iscomplexobj",
           "isrealobj", "isposinf", "isneginf"]


def _array(x: Any, place: Any = None) -> DArray:
    return x if isinstance(x, DArray) else asarray(x, device=place)


def isclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> DArray:
    """Boolean array: ``|a - b| <= atol + rtol * |b|`` elementwise (infinities equal when both are
    the same infinity; NaNs equal only with ``equal_nan``). ``b`` counts in at least float (an
    integer ``b`` as float64), as in NumPy. See also: numpy.isclose.

    Differs from NumPy: a 0-d result is a 0-d DArray (NumPy returns a NumPy bool)."""
    (x, y, rtol, atol), place = D.operands("isclose", (a, b, rtol, atol))
    y = _array(y, place)
    y = asarray(y, dtype=np.result_type(y.dtype, 1.0), device=place)
    close = E.apply("less_equal", E.apply("abs", E.apply("subtract", x, y)),
                    E.apply("add", atol, E.apply("multiply", rtol, E.apply("abs", y))))
    result = E.apply("logical_or", E.apply("logical_and", close, E.apply("isfinite", y)), E.apply("equal", x, y))
    if equal_nan:
        result = E.apply("logical_or", result, E.apply("logical_and", E.apply("isnan", x), E.apply("isnan", y)))
    return result


def allclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> bool:
    """Whether every element of ``a`` is close to ``b`` (:func:`isclose`), as a Python bool: one
    reduction on the arrays' place, then one value read. See also: numpy.allclose."""
    return bool(_all(isclose(a, b, rtol, atol, equal_nan)))


def _equal_all(a: DArray, b: Any, equal_nan: bool) -> bool:
    same = E.apply("equal", a, b)
    if equal_nan and (a.dtype.kind in "fc" or (isinstance(b, DArray) and b.dtype.kind in "fc")):
        same = E.apply("logical_or", same, E.apply("logical_and", E.apply("isnan", a), E.apply("isnan", b)))
    return bool(_all(same))


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> bool:
    """Whether ``a1`` and ``a2`` have the same shape and elements (NaNs equal with ``equal_nan``),
    as a Python bool. See also: numpy.array_equal."""
    (x, y), place = D.operands("array_equal", (a1, a2))
    x, y = _array(x, place), _array(y, place)
    return x.shape == y.shape and _equal_all(x, y, equal_nan)


def array_equiv(a1: Any, a2: Any) -> bool:
    """Whether ``a1`` and ``a2`` broadcast to one shape and are equal there, as a Python bool.
    See also: numpy.array_equiv."""
    (x, y), place = D.operands("array_equiv", (a1, a2))
    x, y = _array(x, place), _array(y, place)
    try:
        broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return False
    return _equal_all(x, y, False)


def iscomplex(x: Any) -> DArray:
    """Boolean array: whether each element has a non-zero imaginary part (all False for real
    dtypes). See also: numpy.iscomplex. Differs from NumPy: a 0-d result is a 0-d DArray."""
    x = _array(x)
    if x.dtype.kind == "c":
        return E.apply("not_equal", E.apply("imag", x), 0)
    return full(x.shape, False, dtype=_dt.bool_, device=x.place)


def isreal(x: Any) -> DArray:
    """Boolean array: whether each element has a zero imaginary part (all True for real dtypes).
    See also: numpy.isreal. Differs from NumPy: a 0-d result is a 0-d DArray."""
    x = _array(x)
    if x.dtype.kind == "c":
        return E.apply("equal", E.apply("imag", x), 0)
    return full(x.shape, True, dtype=_dt.bool_, device=x.place)


def iscomplexobj(x: Any) -> bool:
    """Whether ``x`` has a complex dtype (its dtype is read, no element is). See also: numpy.iscomplexobj."""
    dtype = getattr(x, "dtype", None)
    return np.dtype(dtype if dtype is not None else np.asarray(x).dtype).kind == "c"


def isrealobj(x: Any) -> bool:
    """Whether ``x`` has no complex dtype. See also: numpy.isrealobj."""
    return not iscomplexobj(x)


def _signed_inf(name: str, x: Any, value: float, out: Any) -> DArray:
    x = _array(x)
    if x.dtype.kind == "c":
        raise TypeError(f"darray {name}: this operation is not supported for {x.dtype} values because it would "
                        "be ambiguous")
    if x.dtype.kind != "f":
        return finish(name, full(x.shape, False, dtype=_dt.bool_, device=x.place), out)
    return finish(name, E.apply("equal", x, value), out)


def isposinf(x: Any, out: Any = None) -> DArray:
    """Boolean array: whether each element is +inf (``out=`` as NumPy). See also: numpy.isposinf."""
    return _signed_inf("isposinf", x, np.inf, out)


def isneginf(x: Any, out: Any = None) -> DArray:
    """Boolean array: whether each element is -inf (``out=`` as NumPy). See also: numpy.isneginf."""
    return _signed_inf("isneginf", x, -np.inf, out)
