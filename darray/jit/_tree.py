"""Arguments and results of a jitted function as leaves (DArrays) plus a hashable structure.

Tuples, lists and dicts are walked; a type registered with :func:`register` (``darray.sparse``
registers its matrices) is taken apart into child objects and put back together; any other
object is static: part of the structure, compared by value (it must be hashable).
"""
from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import numpy as np

from .._array import DArray

Flatten = Callable[[Any], tuple[tuple[Any, ...], Any]]   # obj -> (children, hashable aux data)
Unflatten = Callable[[Any, tuple[Any, ...]], Any]         # (aux data, children) -> obj

_TYPES: dict[type, tuple[Flatten, Unflatten]] = {}


def register(cls: type, flatten: Flatten, unflatten: Unflatten) -> None:
    """Let ``da.jit`` take and return objects of ``cls``: ``flatten(obj)`` gives (children, aux)
    with aux hashable, ``unflatten(aux, children)`` rebuilds the object."""
    _TYPES[cls] = (flatten, unflatten)


def flatten(obj: Any, leaves: list[DArray]) -> Any:
    """The structure of ``obj`` (hashable); its DArrays are appended to ``leaves``. TypeError
    naming the object when a static part is not hashable."""
    t = type(obj)
    if t is DArray:
        leaves.append(obj)
        return 0
    if t is tuple or t is list:
        return (t, tuple([flatten(o, leaves) for o in obj]))
    if t is dict:
        return (dict, tuple(obj), tuple([flatten(o, leaves) for o in obj.values()]))
    reg = _TYPES.get(t)
    if reg is not None:
        children, aux = reg[0](obj)
        return (t, aux, tuple([flatten(o, leaves) for o in children]))
    try:
        hash(obj)
    except TypeError:
        raise TypeError(f"darray.jit: an argument of type {t.__name__} is neither an array nor hashable; pass "
                        "arrays, sparse matrices, scalars or hashable static values") from None
    return ("static", Static(obj))


class Static:
    """A static value as part of a key: equal to another only when a trace could not tell them apart,
    that is of the same type and the same bits where values compare equal but behave differently
    (``1``, ``1.0``, ``True``, ``np.float64(1.0)``; ``0.0`` and ``-0.0``; NaNs, which equal each other)."""

    __slots__ = ("value", "key")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.key = canonical(value)

    def __eq__(self, other: object) -> bool:
        return type(other) is Static and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Static({self.value!r})"


def canonical(v: Any) -> Any:
    """A hashable stand-in for ``v`` that tells apart what ``==`` does not: its type, the sign of a
    zero, a NaN (as bits), recursively through tuples and frozensets."""
    t = type(v)
    if t is float or t is complex:
        return t, struct.pack("<2d", v.real, v.imag)
    if isinstance(v, np.generic):
        return t, v.dtype.str, v.tobytes()
    if t is tuple:
        return t, tuple([canonical(o) for o in v])
    if t is frozenset:
        return t, frozenset([canonical(o) for o in v])
    return t, v


def unflatten(spec: Any, leaves: list[Any], start: int = 0) -> tuple[Any, int]:
    """The object of structure ``spec`` over ``leaves[start:]``, and the index after its leaves."""
    if spec == 0 and type(spec) is int:
        return leaves[start], start + 1
    kind = spec[0]
    if kind == "static":
        return spec[1].value, start
    if kind is tuple or kind is list:
        out = []
        for s in spec[1]:
            o, start = unflatten(s, leaves, start)
            out.append(o)
        return kind(out), start
    children = []
    for s in spec[-1]:
        o, start = unflatten(s, leaves, start)
        children.append(o)
    if kind is dict:
        return dict(zip(spec[1], children)), start
    return _TYPES[kind][1](spec[1], tuple(children)), start
