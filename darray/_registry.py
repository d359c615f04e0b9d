"""The one dispatch registry: the implementation of each op per place kind (``"cpu"``: NumPy on
host memory, ``"cl"``: OpenCL).

Every op family (the ops, ``transfer.convert``, and sparse, random, fft and interop above them)
registers one implementation per kind with :func:`register` and looks it up with
:func:`implementation` instead of branching on the kind of a place; the public function checks
its arguments first, so an implementation only computes. ``ops._dispatch`` (the rest of the
dispatch path: places, dtypes, broadcasting) re-exports these. It sits beside the record, below
``transfer.convert`` and the ops, so every layer that registers can import it without going up.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .place import Place

_impls: dict[tuple[str, str], Callable[..., Any]] = {}


def register(name: str, kind: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: the implementation of op ``name`` on places of ``kind`` ('cl' or 'cpu')."""
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        _impls[(name, kind)] = fn
        return fn
    return deco


def implementation(name: str, place: Place) -> Callable[..., Any]:
    """The implementation of op ``name`` registered for ``place``'s kind (NotImplementedError naming
    both when there is none)."""
    fn = _impls.get((name, place.kind))
    if fn is None:
        raise NotImplementedError(f"darray {name}: no implementation for place {place}")
    return fn


__all__ = ["register", "implementation"]
