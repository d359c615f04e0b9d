"""DArray operators: each dunder is one line into the op registry."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._array import DArray
from . import elementwise as E
from . import indexing

_BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide", "floordiv": "floor_divide",
           "mod": "remainder", "pow": "pow", "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
           "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift"}
_COMPARE = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
            "ge": "greater_equal"}
_UNARY = {"neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert"}


def inplace(name: str, x: DArray, other: Any) -> DArray:
    """``x <op>= other``: computed into x's own memory (one fused kernel on OpenCL places)."""
    return E.into(x, name, x, other)


def _binary(name: str) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    return ((lambda self, other, /: E.apply(name, self, other)),
            (lambda self, other, /: E.apply(name, other, self)),
            (lambda self, other, /: inplace(name, self, other)))


def install() -> None:
    for dunder, name in _BINARY.items():
        fwd, rev, inp = _binary(name)
        setattr(DArray, f"__{dunder}__", fwd)
        setattr(DArray, f"__r{dunder}__", rev)
        setattr(DArray, f"__i{dunder}__", inp)
    for dunder, name in _COMPARE.items():
        setattr(DArray, f"__{dunder}__", (lambda n: lambda self, other, /: E.apply(n, self, other))(name))
    for dunder, name in _UNARY.items():
        setattr(DArray, f"__{dunder}__", (lambda n: lambda self: E.apply(n, self))(name))
    for name in ("sum", "prod", "max", "min", "mean", "any", "all", "argmax", "argmin"):
        setattr(DArray, name, _method(name))
    for name in ("var", "std"):
        setattr(DArray, name, _moment(name))
    DArray.argsort, DArray.sort = _argsort, _sort
    DArray.__getitem__, DArray.__setitem__ = indexing.getitem, indexing.setitem  # views for basic keys
    DArray.__matmul__ = lambda self, other, /: _linalg().matmul(self, other)
    DArray.__rmatmul__ = lambda self, other, /: _linalg().matmul(other, self)
    DArray.__imatmul__ = _imatmul
    DArray.__hash__ = None  # type: ignore[assignment]  # arrays are unhashable, like NumPy's


def _imatmul(self: DArray, other: Any, /) -> DArray:
    """``x @= other``: the product written into x (its shape must not change, as NumPy's rule)."""
    from .._convert import assign

    value = _linalg().matmul(self, other)
    E.check_out("matmul", self, value.dtype, value.shape, value.place)
    assign(self, self._dim, value)
    return self


def _method(name: str) -> Callable[..., Any]:
    def method(self: DArray, axis: Any = None, **kw: Any) -> Any:
        from . import reduction

        return getattr(reduction, name)(self, axis=axis, **kw)

    method.__name__ = name
    method.__doc__ = f"``darray.{name}(self, axis=axis, ...)``; NumPy-style method."
    return method


def _moment(name: str) -> Callable[..., Any]:
    def method(self: DArray, axis: Any = None, *, ddof: float = 0, correction: float | None = None,
               keepdims: bool = False) -> Any:
        from . import reduction

        return getattr(reduction, name)(self, axis=axis, correction=ddof if correction is None else correction,
                                        keepdims=keepdims)

    method.__name__ = name
    method.__doc__ = f"``darray.{name}``; accepts NumPy's ``ddof`` or the Array API's ``correction``."
    return method


def _argsort(self: DArray, axis: int = -1, kind: str | None = None, *, stable: bool | None = None) -> DArray:
    """``darray.argsort(self, axis=axis)``: stable whatever ``kind``; NumPy-style method."""
    from .sorting import argsort

    return argsort(self, axis=axis)


def _sort(self: DArray, axis: int = -1, kind: str | None = None, *, stable: bool | None = None) -> None:
    """Sort in place along ``axis`` (stable whatever ``kind``), as NumPy's ``ndarray.sort``."""
    from .sorting import sort

    self[...] = sort(self, axis=axis)


def _linalg() -> Any:
    from . import linalg

    return linalg


install()
