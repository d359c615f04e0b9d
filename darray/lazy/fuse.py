"""Fuse a DAG of elementwise terms into one :class:`KernelSpec` plus its arguments.

All outputs share one shape. Inputs are deduplicated by (allocation, view); nodes with
the same op, arguments and dtype are computed once. Dimensions that are contiguous for
every operand are collapsed, then each operand gets a pattern: 'c' (index = offset + g),
'0' (a single element) or 's' (strided).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..dim import Dim, collapse
from .graph import Input, Scalar, Term, leaf, walk
from .spec import Instr, KernelSpec, Operand, Reduction, Ref

INT_LIMIT = 2**31 - 1


@dataclass(frozen=True, slots=True)
class Plan:
    """A spec plus what its launch needs: sizes, operand views and scalar values."""

    spec: KernelSpec
    n: int
    shape: tuple[int, ...]                        # collapsed
    views: tuple[tuple[Any, int, tuple[int, ...]], ...]  # (allocation, element offset, collapsed strides), outputs first
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


def _trace(roots: Sequence[Term]) -> tuple[list[Input], list[Scalar], list[Instr], dict[int, Ref]]:
    """Inputs (deduplicated by allocation and view), scalars and the SSA body of ``roots``."""
    in_index: dict[tuple[int, Dim], int] = {}
    in_views: list[Input] = []
    scalars: list[Scalar] = []
    body: list[Instr] = []
    refs: dict[int, Ref] = {}
    cse: dict[tuple, Ref] = {}
    for t in walk(list(roots)):
        if isinstance(t, Input):
            key = (id(t.alloc), t.dim)
            if key not in in_index:
                in_index[key] = len(in_views)
                in_views.append(t)
            refs[id(t)] = ("in", in_index[key])
        elif isinstance(t, Scalar):
            refs[id(t)] = ("sc", len(scalars))
            scalars.append(t)
        else:
            sig = (t.op, tuple(refs[id(leaf(a))] for a in t.args), t.dtype)
            ref = cse.get(sig)
            if ref is None:
                ref = cse[sig] = ("t", len(body))
                body.append(Instr(*sig))
            refs[id(t)] = ref
    return in_views, scalars, body, refs


def fuse(roots: Sequence[Term], targets: Sequence[Input], *, shape: tuple[int, ...] | None = None,
         perm: tuple[int, ...] | None = None, reduce: Reduction | None = None) -> Plan:
    """One kernel computing ``roots[k]`` into ``targets[k]``.

    Elementwise: targets are views of one shape, indexed like the inputs. Reduction
    (``reduce`` set): the index space is ``shape`` with axes reordered by ``perm`` (kept
    axes first, reduced last) and the targets are contiguous partial-result arrays.
    """
    in_views, scalars, body, refs = _trace(roots)
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
    operands = [Operand(dt, _pattern(st, cshape)) for (_, _, dt), st in zip(g_views, cstrides)]
    views = [(a, o, st) for (a, _, _), o, st in zip(g_views, offsets, cstrides)]
    if reduce:
        views = [(t.alloc, _offset(t.alloc, t.dim, t.dtype.itemsize), ()) for t in targets] + views
        operands = [Operand(t.dtype, "c") for t in targets] + operands
    nout = len(targets)
    outputs = [(operands[k], refs[id(leaf(r))]) for k, r in enumerate(roots)] + \
        [(operands[k], ("idx", 0)) for k in range(len(roots), nout)]
    spec = KernelSpec(
        rank=len(cshape), index="int" if extent <= INT_LIMIT else "long",
        inputs=tuple(operands[nout:]), scalars=tuple(s.dtype for s in scalars), body=tuple(body),
        outputs=tuple(outputs), reduce=reduce)
    return Plan(spec, n, cshape, tuple(views), tuple(s.value for s in scalars))
