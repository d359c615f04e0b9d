"""The one dispatch path: places, dtypes, broadcasting, then the implementation registered
for (op, place kind) in the one registry (``darray._registry``, re-exported here: ``register``,
``implementation``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from .._registry import implementation, register
from ..dim import broadcast_dims
from ..place import CLPlace, Place, current, runtime
from ..transfer.convert import from_numpy

PY_SCALARS = (bool, int, float, complex)


def operands(name: str, args: tuple[Any, ...]) -> tuple[tuple[Any, ...], Place]:
    """The arguments as DArrays, Python scalars or numeric NumPy scalars (NumPy arrays, other NumPy
    scalars and lists become DArrays) and their place: that of the DArray arguments, else the current one. ValueError
    naming both places when the DArrays are on different places."""
    place = None
    plain = True
    for a in args:
        if isinstance(a, DArray):
            if place is None:
                place = a._place
            elif a._place is not place and a._place != place:
                raise ValueError(f"darray {name}: arguments are on different places, {place} and {a._place}; "
                                 "move one with .to()")
        elif type(a) not in PY_SCALARS:
            plain = False
    if place is None:
        place = current()
    return (args if plain else tuple([_operand(name, a, place) for a in args])), place


def _operand(name: str, a: Any, place: Place) -> Any:
    if isinstance(a, DArray) or type(a) in PY_SCALARS or (isinstance(a, np.generic) and a.dtype.kind in "biufc"):
        return a  # a NumPy scalar stays one: typed like a 0-d array, passed by value, not uploaded
    if a is None:
        raise TypeError(f"darray {name}: None is not an array")
    host = np.asarray(a)
    if host.dtype == object or host.dtype.kind in "USVMmO":
        raise TypeError(f"darray {name}: unsupported operand of type {type(a).__name__}")
    return from_numpy(host, place)


def shape_of(name: str, args: tuple[Any, ...]) -> tuple[int, ...]:
    """The broadcast shape of the DArray arguments (ValueError naming the op when there is none)."""
    shapes = []  # a loop, not a comprehension (a call in Python 3.11): once per op
    for a in args:
        if isinstance(a, DArray):
            shapes.append(a._dim.shape)
    if shapes:
        first = shapes[0]
        for s in shapes:
            if s != first:
                break
        else:  # one shape: the common case, without broadcasting
            return first
    try:
        return broadcast_dims(tuple(shapes)) if shapes else ()
    except ValueError as err:
        raise ValueError(f"darray {name}: {err}") from None


def device_dtype(dtype: np.dtype, place: Place) -> np.dtype:
    """float16 computes as float32 on devices without cl_khr_fp16 (darray differs from NumPy there)."""
    if dtype == _dt.float16 and isinstance(place, CLPlace) and not runtime(place).info.fp16:
        return _dt.float32
    return dtype


def scalar_value(name: str, value: Any, dtype: np.dtype) -> Any:
    """A Python scalar converted to ``dtype`` as NumPy would (OverflowError when it does not fit)."""
    try:
        return dtype.type(value)
    except OverflowError as err:
        raise OverflowError(f"darray {name}: {err}") from None


__all__ = ["register", "implementation", "operands", "shape_of", "device_dtype",
           "scalar_value"]
