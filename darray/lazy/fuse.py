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
from .spec import Instr, KernelSpec, Operand, Ref

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


def fuse(roots: Sequence[Term], targets: Sequence[Input]) -> Plan:
    """One kernel computing ``roots[k]`` into ``targets[k]`` (views of one shape)."""
    shape = targets[0].dim.shape
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
    views = [(v.alloc, v.dim, v.dtype) for v in targets] + [
        (v.alloc, v.dim.broadcast_to(shape), v.dtype) for v in in_views]
    cshape, cstrides = collapse(shape, *(d.strides for _, d, _ in views))
    offsets = [_offset(a, d, dt.itemsize) for a, d, dt in views]
    n = 1
    for s in shape:
        n *= s
    extent = max([n] + [o + sum(abs(s) * (k - 1) for s, k in zip(st, cshape)) + 1 for o, st in zip(offsets, cstrides)])
    operands = [Operand(dt, _pattern(st, cshape)) for (_, _, dt), st in zip(views, cstrides)]
    nout = len(targets)
    spec = KernelSpec(
        rank=len(cshape), index="int" if extent <= INT_LIMIT else "long",
        inputs=tuple(operands[nout:]), scalars=tuple(s.dtype for s in scalars), body=tuple(body),
        outputs=tuple((operands[k], refs[id(leaf(r))]) for k, r in enumerate(roots)))
    return Plan(spec, n, cshape, tuple((a, o, st) for (a, _, _), o, st in zip(views, offsets, cstrides)),
                tuple(s.value for s in scalars))
