"""The one registry of op facts the lazy engine renders and computes ops with: a row per op name,
registered by ``darray.ops._table`` when it loads (the table's ops) and by ``lazy.user`` (user
ops); lazy sits below ops and never imports it (the one import direction).

Renderers ask by op name: :func:`c` gives one SSA instruction's C expression, :func:`vector`
whether it may run on float4/float8 operands, :func:`widen` whether vector code passes it scalar
arguments as vectors; the host engine computes op ``op`` with NumPy's :func:`ref`.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .spec import Instr

CFn = Callable[[Instr, tuple[np.dtype, ...], tuple[str, ...]], str]


@dataclass(frozen=True, slots=True)
class OpFacts:
    """One op's facts. ``c(instr, arg_dtypes, arg_names)``: the C expression of an instruction;
    ``vector``: ``c`` is also valid OpenCL C on float4/float8 operands; ``widen``: vector code
    passes scalar arguments widened to vectors (a user helper's overloads take vectors only,
    the table's templates broadcast scalars); ``ref``: the NumPy function giving the kernel's
    results, for the host engine (None: the op never runs there)."""

    c: CFn
    vector: bool = False
    widen: bool = False
    ref: Callable[..., Any] | None = None


_rows: dict[str, OpFacts] = {}


def register(name: str, facts: OpFacts) -> None:
    """Make op ``name``'s facts known (a later registration of the same name replaces them)."""
    _rows[name] = facts


def facts(name: str) -> OpFacts:
    """The facts of op ``name``."""
    found = _rows.get(name)
    if found is None:
        raise KeyError(f"darray.lazy: no op {name!r} is registered (import darray)")
    return found


def c(instr: Instr, arg_dtypes: tuple[np.dtype, ...], arg_names: tuple[str, ...]) -> str:
    """The C expression of ``instr`` over arguments of ``arg_dtypes`` named ``arg_names``."""
    return facts(instr.op).c(instr, arg_dtypes, arg_names)


def vector(op: str) -> bool:
    """Whether op ``op`` has C code valid on float4/float8 operands (False for unknown ops, ``cast``)."""
    found = _rows.get(op)
    return found is not None and found.vector


def widen(op: str) -> bool:
    """Whether vector code passes op ``op`` its scalar arguments as vectors (see :class:`OpFacts`)."""
    return facts(op).widen


def ref(op: str) -> Callable[..., Any]:
    """The NumPy function the host engine computes elementwise op ``op`` with."""
    found = facts(op).ref
    if found is None:
        raise KeyError(f"darray.lazy: op {op!r} has no NumPy reference")
    return found
