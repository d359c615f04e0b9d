"""Lazy graph nodes: what an elementwise expression is before it runs.

``Input`` is a materialised array view (it keeps its Allocation alive), ``Scalar`` a
Python value that becomes a kernel argument, ``Node`` an op over other terms. Nodes are
compared by identity; ``fuse`` finds common subexpressions by structure.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from ..dim import Dim


@dataclass(frozen=True, eq=False, slots=True)
class Input:
    """A materialised array view read by a graph."""

    alloc: Any          # darray.alloc.Allocation
    dim: Dim
    dtype: np.dtype

    @property
    def shape(self) -> tuple[int, ...]:
        return self.dim.shape


@dataclass(frozen=True, eq=False, slots=True)
class Scalar:
    """A Python scalar, passed to the kernel as an argument of ``dtype``."""

    value: Any
    dtype: np.dtype
    shape: tuple[int, ...] = ()


@dataclass(frozen=True, eq=False, slots=True)
class Node:
    """``op(args)`` computed in ``dtype`` over the broadcast ``shape`` of the args."""

    op: str
    args: tuple["Term", ...]
    dtype: np.dtype
    shape: tuple[int, ...]
    depth: int = 1


Term = Union[Input, Scalar, Node]


def node(op: str, args: tuple[Term, ...], dtype: np.dtype, shape: tuple[int, ...]) -> Node:
    """A new node one deeper than its deepest argument."""
    depth = 1 + max((a.depth for a in args if isinstance(a, Node)), default=0)
    return Node(op, args, dtype, shape, depth)


def walk(roots: list[Term]) -> list[Term]:
    """Every term reachable from ``roots``, each once, arguments before their users."""
    seen: set[int] = set()
    order: list[Term] = []
    stack: list[tuple[Term, bool]] = [(r, False) for r in reversed(roots)]
    while stack:
        t, expanded = stack.pop()
        if id(t) in seen:
            continue
        if expanded or not isinstance(t, Node):
            seen.add(id(t))
            order.append(t)
            continue
        stack.append((t, True))
        stack.extend((a, False) for a in reversed(t.args) if id(a) not in seen)
    return order
