"""User-defined ops (``da.ElementwiseKernel``, ``da.ReductionKernel``), registered by
``darray.custom`` when a kernel is first called with some argument dtypes: lazy sits below the
families and never imports them (the one import direction).

A user op is a C helper function (the user's preamble first) that the renderer places before
the generated kernel and calls by name, so the user's names never meet the kernel's. Graph
nodes name it as their op: an elementwise body fuses like any table op (never on the host
path: ``graph.node`` marks it not exact). A reduction op also carries the C expression of its
identity and, optionally, a post-map helper applied to each folded result.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .spec import KernelSpec


@dataclass(frozen=True, slots=True)
class UserOp:
    """``source``: C text defining ``function`` after the user's ``preamble`` (each preamble
    appears once in a kernel, however many ops share it); a reduction op's
    ``function(a, b)`` folds two values, starting from the C expression ``identity``, and its
    results go through ``post`` (a function name of ``source``) when set."""

    function: str
    source: str
    preamble: str = ""
    identity: str = ""
    post: str = ""


_ops: dict[str, UserOp] = {}


def register(name: str, op: UserOp) -> None:
    """Make op ``name`` known to the renderer (the same name always carries the same source)."""
    _ops[name] = op


def get(name: str) -> UserOp | None:
    """The user op ``name``, None for a table op."""
    return _ops.get(name)


def call(name: str, args: Iterable[str]) -> str | None:
    """The C call of user op ``name`` on ``args``; None for a table op."""
    op = _ops.get(name)
    return None if op is None else f"{op.function}({', '.join(args)})"


def sources(spec: KernelSpec) -> list[str]:
    """The C text of the user ops in ``spec`` (its body and its reduction): preambles, then
    helpers, each once."""
    names = [i.op for i in spec.body] + ([spec.reduce.op] if spec.reduce is not None else [])
    ops = [op for op in map(_ops.get, names) if op is not None]
    return list(dict.fromkeys([op.preamble for op in ops if op.preamble] + [op.source for op in ops]))
