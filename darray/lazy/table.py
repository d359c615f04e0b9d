"""The op facts the lazy engine takes from ``darray.ops``, registered by ``ops._table`` when it
loads: lazy sits below ops and never imports it (the one import direction).

``expr()`` renders one SSA instruction as C (``render`` and ``execute`` take it as an argument);
``ref(op)`` is the NumPy function the host path computes op ``op`` with.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .render import ExprFn

_expr: list[ExprFn] = []
_refs: dict[str, Callable[..., Any]] = {}


def register(expr: ExprFn, refs: Mapping[str, Callable[..., Any]]) -> None:
    """Called once by ``darray.ops._table``: the C expression function and each op's NumPy function."""
    _expr[:] = [expr]
    _refs.update(refs)


def expr() -> ExprFn:
    """The registered C expression function."""
    if not _expr:
        raise RuntimeError("darray.lazy: no op table is registered (import darray)")
    return _expr[0]


def ref(op: str) -> Callable[..., Any]:
    """NumPy's function of elementwise op ``op``."""
    return _refs[op]
