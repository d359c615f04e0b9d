"""The one registry of op facts the lazy engine renders and computes ops with: a row per op name,
registered by ``darray.ops._table`` when it loads (the table's ops) and by ``lazy.user`` (user
ops); lazy sits below ops and never imports it (the one import direction).

Renderers ask by op name: :func:`c` gives one SSA instruction's C expression, :func:`vector`
whether it may run on float4/float8 operands, :func:`widen` whether vector code passes it scalar
arguments as vectors; the host engine computes op ``op`` with NumPy's :func:`ref`. The built-in
reductions' facts are the rows of :data:`FOLDS`.
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


@dataclass(frozen=True, slots=True)
class FoldFacts:
    """One built-in reduction's facts, read by ``ops.reduction`` (NumPy's rules), the renderers (C
    folds) and the host engine. ``combine``: the elementwise op joining two partials (None: an arg
    reduction, which compares); ``identity``: the neutral start, or None where the start is the
    dtype's lowest (``low``) or highest value; ``numpy``: NumPy's function, ``dtype=`` taken where
    ``accumulates``; ``empty``: an empty reduction's result (None: NumPy raises, naming ``ufunc``);
    ``initial``: NumPy takes ``initial=`` (joined by ``combine``)."""

    combine: str | None
    identity: bool | int | None
    numpy: Callable[..., Any]
    empty: bool | float | None
    low: bool = False
    accumulates: bool = False
    initial: bool = False
    ufunc: str = ""


FOLDS: dict[str, FoldFacts] = {
    "sum": FoldFacts("add", 0, np.sum, 0, accumulates=True, initial=True, ufunc="add"),
    "prod": FoldFacts("multiply", 1, np.prod, 1, accumulates=True, initial=True, ufunc="multiply"),
    "mean": FoldFacts("add", None, np.mean, np.nan, accumulates=True),  # (folded as a sum: no start of its own)
    "max": FoldFacts("maximum", None, np.max, None, low=True, initial=True, ufunc="maximum"),
    "min": FoldFacts("minimum", None, np.min, None, initial=True, ufunc="minimum"),
    "any": FoldFacts("logical_or", False, np.any, False, ufunc="logical_or"),
    "all": FoldFacts("logical_and", True, np.all, True, ufunc="logical_and"),
    "argmax": FoldFacts(None, None, np.argmax, None, low=True),
    "argmin": FoldFacts(None, None, np.argmin, None),
}
