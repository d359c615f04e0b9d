"""User-defined ops (``da.ElementwiseKernel``, ``da.ReductionKernel``), registered by
``darray.custom`` when a kernel is first called with some argument dtypes: lazy sits below the
families and never imports them (the one import direction).

A user op is a C helper function (the user's preamble first) that the renderer places before
the generated kernel and calls by name, so the user's names never meet the kernel's; its
registration makes its facts known to ``lazy.table`` (its C call, its vector safety) like a
table op's, so the renderer looks every op up the same way. Graph nodes name it as their op:
an elementwise body fuses like any table op (never on the host path: ``graph.node`` marks it
not exact). A reduction op also carries the C expression of its identity and, optionally, a
post-map helper applied to each folded result.

Vector path: an op whose ``vector`` text is set (all-float32 signatures) has overloads of its
helper on float4 and float8 as well; the first kernel that could use them builds that text
once alone (:func:`decide`), and only when it compiles is the op vector-safe (its table row
says so): kernels then fold it in float8 blocks like the table's vector-safe ops (else the
scalar code, never an error of the user's call). The decision is cached per op for the process.

Ordered ops (``index``: the body reads its element index ``i`` and the output size; ``raw``:
argument positions passed as whole arrays, ``__global const T*`` to their first element) are
called with ``g`` and ``n`` and pointers; they are never hoisted nor vectorised, and
``darray.custom`` runs them as kernels of their own (``g`` is then the element's index in the
output, C order).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import table
from .spec import Instr, KernelSpec


@dataclass(frozen=True, slots=True)
class UserOp:
    """``source``: C text defining ``function`` after the user's ``preamble`` (each preamble
    appears once in a kernel, however many ops share it); a reduction op's
    ``function(a, b)`` folds two values, starting from the C expression ``identity``, and its
    results go through ``post`` (a function name of ``source``) when set. ``vector``: ``source``
    with float4 and float8 overloads (empty: scalar only); ``raw``, ``index``: see the module
    docstring."""

    function: str
    source: str
    preamble: str = ""
    identity: str = ""
    post: str = ""
    vector: str = ""
    raw: tuple[int, ...] = ()
    index: bool = False

    @property
    def ordered(self) -> bool:
        """Whether the op sees more than its own element (its index or a whole array)."""
        return self.index or bool(self.raw)


_ops: dict[str, UserOp] = {}
_vector: dict[str, bool] = {}  # op name -> whether its vector overloads compiled


def register(name: str, op: UserOp) -> None:
    """Make op ``name`` known to the renderer (the same name always carries the same source):
    its facts in ``lazy.table``, vector-safe once :func:`decide` found its overloads compile."""
    _ops[name] = op
    _facts(name)


def _facts(name: str) -> None:
    """Register user op ``name``'s facts in ``lazy.table`` (with its vector decision so far)."""
    op = _ops[name]

    def c(instr: Instr, arg_dtypes: tuple[np.dtype, ...], args: tuple[str, ...]) -> str:
        return _call(op, args)

    table.register(name, table.OpFacts(c, vector=_vector.get(name, False), widen=True))


def get(name: str) -> UserOp | None:
    """The user op ``name``, None for a table op."""
    return _ops.get(name)


def ordered(name: str) -> bool:
    """Whether ``name`` is an ordered user op (never hoisted out of an element loop)."""
    op = _ops.get(name)
    return op is not None and op.ordered


def decide(spec: KernelSpec, build: Callable[[str], object]) -> None:
    """Decide once per op whether the vector overloads of the user ops in ``spec`` compile:
    ``build(source)`` builds a program (raising on a build failure)."""
    names = [i.op for i in spec.body] + ([spec.reduce.op] if spec.reduce is not None else [])
    for name in names:
        op = _ops.get(name)
        if op is None or not op.vector or name in _vector:
            continue
        source = "\n".join([op.preamble, op.vector, "__kernel void darray_probe(__global float* p) { }"])
        try:
            build(source)
            _vector[name] = True
        except Exception:  # noqa: BLE001 (any build failure: the scalar path, the user's call never fails here)
            _vector[name] = False
        _facts(name)


def _call(op: UserOp, args: tuple[str, ...]) -> str:
    """The C call of ``op`` on ``args`` (value names ``v<k>`` of raw positions become pointers
    ``in<k> + in<k>_o``; an ordered op also gets ``g`` and ``n``)."""
    names = [f"in{a[1:]} + in{a[1:]}_o" if k in op.raw else a for k, a in enumerate(args)]
    if op.index:
        names += ["(long)g", "(long)n"]
    return f"{op.function}({', '.join(names)})"


def sources(spec: KernelSpec) -> list[str]:
    """The C text of the user ops in ``spec`` (its body and its reduction): preambles, then
    helpers (with their vector overloads where they compiled), each once."""
    names = [i.op for i in spec.body] + ([spec.reduce.op] if spec.reduce is not None else [])
    ops = [(name, op) for name, op in ((n, _ops.get(n)) for n in names) if op is not None]
    texts = [op.vector if table.vector(name) else op.source for name, op in ops]
    return list(dict.fromkeys([op.preamble for _, op in ops if op.preamble] + texts))
