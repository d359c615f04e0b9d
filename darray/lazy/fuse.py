"""Fuse a DAG of elementwise terms into one :class:`KernelSpec` plus its arguments.

All outputs share one shape. Inputs are deduplicated by (allocation, view); nodes with
the same op, arguments and dtype are computed once. Dimensions that are contiguous for
every operand are collapsed, then each operand gets a pattern: 'c' (index = offset + g),
'0' (a single element) or 's' (strided).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dim import Dim, collapse
from .graph import Input, Node, Scalar, Term
from .spec import Instr, KernelSpec, Operand, Reduction, Ref

INT_LIMIT = 2**31 - 1


@dataclass(frozen=True, slots=True)
class Plan:
    """A spec plus what its launch needs: sizes, operand views and scalar values."""

    spec: KernelSpec
    n: int
    shape: tuple[int, ...]                        # collapsed
    # (allocation, element offset, collapsed strides), outputs first
    views: tuple[tuple[Any, int, tuple[int, ...]], ...]
    scalars: tuple[Any, ...]


def _offset(alloc: Any, dim: Dim, itemsize: int) -> int:
    return (alloc.offset // itemsize if alloc is not None else 0) + dim.offset


def _pattern(strides: tuple[int, ...], shape: tuple[int, ...]) -> str:
    if all(s == 0 for s in strides):
        return "0"
    expect, acc = [], 1
    for n in reversed(shape):
        expect.append(acc)
        acc *= n
    return "c" if tuple(reversed(expect)) == strides else "s"


def _operand(dtype: np.dtype, strides: tuple[int, ...], shape: tuple[int, ...], read: bool) -> Operand:
    """The operand of a view of ``strides`` over the collapsed ``shape``; ``read``: an elementwise
    kernel's input (which may be broadcast along its last axis: ``Operand.per_row``)."""
    pattern = _pattern(strides, shape)
    return Operand(dtype, pattern, read and pattern == "s" and len(shape) >= 2 and strides[-1] == 0)


@dataclass(slots=True)
class Trace:
    """One pass over a graph: its structural ``key`` (ops, dtypes, operand shapes and strides,
    which leaves are the same array: everything a plan depends on but offsets and values),
    the distinct input views and the scalars in first-use order, and each term by key index."""

    key: tuple
    inputs: list[Input]
    scalars: list[Scalar]
    terms: list[Term]


def trace(roots: Sequence[Term]) -> Trace:
    """The :class:`Trace` of ``roots`` (materialised nodes read as their value). Inputs are the
    same when they view the same allocation the same way; nodes are listed arguments first."""
    memo: dict[int, int] = {}
    key: list[tuple] = []
    terms: list[Term] = []
    inputs: list[Input] = []
    in_index: dict[tuple, int] = {}
    scalars: list[Scalar] = []

    def visit(t: Term) -> int:
        if type(t) is Node and t.value is not None:
            t = t.value
        r = memo.get(id(t))
        if r is not None:
            return r
        if type(t) is Node:
            entry: tuple = (t.op, t.dtype, *map(visit, t.args))  # noqa: F821 (deleted after the walk)
        elif type(t) is Input:
            d = t.dim
            same = (id(t.alloc), d.offset, d.shape, d.strides)
            k = in_index.get(same)
            if k is None:
                k = in_index[same] = len(inputs)
                inputs.append(t)
            entry = ("in", k, t.dtype, d.shape, d.strides)
        else:
            entry = ("sc", len(scalars), t.dtype)
            scalars.append(t)
        memo[id(t)] = r = len(key)
        key.append(entry)
        terms.append(t)
        return r

    try:
        outs = tuple([visit(r) for r in roots])
    finally:
        del visit  # the closure refers to itself: break the cycle, or it keeps the inputs alive until gc
    return Trace((tuple(key), outs), inputs, scalars, terms)


def _body(tr: Trace) -> tuple[list[Instr], list[Ref]]:
    """The SSA body of a trace (common subexpressions once) and the reference of every key entry."""
    body: list[Instr] = []
    refs: list[Ref] = []
    cse: dict[tuple, Ref] = {}
    for entry in tr.key[0]:
        if entry[0] == "in" or entry[0] == "sc":
            refs.append(entry[:2])
            continue
        sig = (entry[0], tuple(refs[a] for a in entry[2:]), entry[1])
        ref = cse.get(sig)
        if ref is None:
            ref = cse[sig] = ("t", len(body))
            body.append(Instr(*sig))
        refs.append(ref)
    return body, refs


def fuse(roots: Sequence[Term], targets: Sequence[Input], *, shape: tuple[int, ...] | None = None,
         perm: tuple[int, ...] | None = None, reduce: Reduction | None = None, traced: Trace | None = None) -> Plan:
    """One kernel computing ``roots[k]`` into ``targets[k]``.

    Elementwise: targets are views of one shape, indexed like the inputs. Reduction
    (``reduce`` set): the index space is ``shape`` with axes reordered by ``perm`` (kept
    axes first, reduced last) and the targets are contiguous partial-result arrays.
    ``traced``: the :func:`trace` of ``roots`` when the caller has it already.
    """
    tr = trace(roots) if traced is None else traced
    in_views, scalars = tr.inputs, tr.scalars
    body, refs = _body(tr)
    space = targets[0].dim.shape if shape is None else shape
    g_views = [] if reduce else [(v.alloc, v.dim, v.dtype) for v in targets]
    for v in in_views:
        dim = v.dim.broadcast_to(space)
        g_views.append((v.alloc, dim.transpose(perm) if perm else dim, v.dtype))
    if perm:
        space = tuple(space[a] for a in perm)
    cshape, cstrides = collapse(space, *(d.strides for _, d, _ in g_views))
    offsets = [_offset(a, d, dt.itemsize) for a, d, dt in g_views]
    n = 1
    for s in space:
        n *= s
    extent = max([n] + [o + sum(abs(s) * (k - 1) for s, k in zip(st, cshape)) + 1 for o, st in zip(offsets, cstrides)])
    operands = [_operand(dt, st, cshape, k >= len(targets) and not reduce) for k, ((_, _, dt), st)
                in enumerate(zip(g_views, cstrides))]
    views = [(a, o, st) for (a, _, _), o, st in zip(g_views, offsets, cstrides)]
    if reduce:
        views = [(t.alloc, _offset(t.alloc, t.dim, t.dtype.itemsize), ()) for t in targets] + views
        operands = [Operand(t.dtype, "c") for t in targets] + operands
    nout = len(targets)
    outputs = [(operands[k], refs[r]) for k, r in enumerate(tr.key[1])] + \
        [(operands[k], ("idx", 0)) for k in range(len(roots), nout)]
    spec = KernelSpec(
        rank=len(cshape), index="int" if extent <= INT_LIMIT else "long",
        inputs=tuple(operands[nout:]), scalars=tuple(s.dtype for s in scalars), body=tuple(body),
        outputs=tuple(outputs), reduce=reduce)
    return Plan(spec, n, cshape, tuple(views), tuple(s.value for s in scalars))
