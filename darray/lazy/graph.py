"""Lazy graph nodes: what an elementwise expression is before it runs.

``Input`` is a materialised array view (it keeps its Allocation alive), ``Scalar`` a
Python value that becomes a kernel argument, ``Node`` an op over other terms. Nodes are
compared by identity; ``fuse`` finds common subexpressions by structure.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, final

import numpy as np

from ..dim import Dim


@final  # never subclassed: the stages test ``type(t) is ...``
@dataclass(eq=False, slots=True)
class Input:
    """A materialised array view read by a graph (treated as immutable; not frozen, as one
    is made for every array an op reads and a frozen dataclass costs more to build)."""

    alloc: Any          # darray.alloc.Allocation
    dim: Dim
    dtype: np.dtype

    @property
    def shape(self) -> tuple[int, ...]:
        return self.dim.shape


@final
@dataclass(eq=False, slots=True)
class Scalar:
    """A Python scalar, passed to the kernel as an argument of ``dtype``."""

    value: Any
    dtype: np.dtype
    shape: tuple[int, ...] = ()


@final
@dataclass(eq=False, slots=True)
class Node:
    """``op(args)`` computed in ``dtype`` over the broadcast ``shape`` of the args.

    ``reads`` are the allocations the graph below reads (each once) and ``pinned`` their
    bytes; ``size`` counts nodes (a bound, DAG sharing counted twice). ``used`` is set once
    another node takes this one as an argument. ``value`` is set once the node has been
    materialised, so later graphs read the result instead of recomputing it. ``host``: NumPy
    computes this node and every pending node below it with the kernel's bits (``lazy.host``);
    ``exact``: NumPy computes this node's own op so (``host`` may turn true once the nodes
    below that are not have been materialised).
    """

    op: str
    args: tuple[Term, ...]
    dtype: np.dtype
    shape: tuple[int, ...]
    depth: int = 1
    size: int = 1
    reads: tuple[Any, ...] = ()
    pinned: int = 0
    used: bool = False
    value: Input | None = None
    host: bool = False
    exact: bool = False


Term = Input | Scalar | Node


def node(op: str, args: tuple[Term, ...], dtype: np.dtype, shape: tuple[int, ...], host: bool = False) -> Node:
    """A new node over ``args``, with depth, size and the allocations it reads; ``host``: whether
    NumPy computes ``op`` itself exactly (see ``Node``)."""
    exact, depth, size, pinned = host, 0, 1, 0
    reads: tuple[Any, ...] = ()
    for a in args:
        if type(a) is Node:
            if a.value is None:
                a.used = True
                host = host and a.host
                if a.depth > depth:
                    depth = a.depth
                size += a.size
                if not reads:
                    reads, pinned = a.reads, a.pinned
                else:
                    for r in a.reads:
                        if r not in reads:
                            reads += (r,)
                            pinned += r.nbytes
                continue
            a = a.value
        if type(a) is Input and a.alloc not in reads:
            reads += (a.alloc,)
            pinned += a.alloc.nbytes
    return Node(op, args, dtype, shape, depth + 1, size, reads, pinned, False, None, host, exact)


def leaf(t: Term) -> Term:
    """A materialised node's value, else ``t``."""
    return t.value if isinstance(t, Node) and t.value is not None else t


def walk(roots: list[Term]) -> list[Term]:
    """Every term reachable from ``roots`` (materialised nodes as their value), each once,
    arguments before their users."""
    seen: set[int] = set()
    order: list[Term] = []
    stack: list[tuple[Term, bool]] = [(leaf(r), False) for r in reversed(roots)]
    while stack:
        t, expanded = stack.pop()
        if id(t) in seen:
            continue
        if expanded or not isinstance(t, Node):
            seen.add(id(t))
            order.append(t)
            continue
        stack.append((t, True))
        stack.extend((leaf(a), False) for a in reversed(t.args) if id(leaf(a)) not in seen)
    return order


def touches(term: Term, view: Input, same: bool = True) -> bool:
    """Whether ``term`` reads an element of ``view`` (found exactly: ``Dim.shares``); ``same=False``
    leaves out reads through ``view`` itself (an elementwise write may read its own target)."""
    if type(term) is Scalar:
        return False
    size = view.dtype.itemsize
    for t in [term] if type(term) is Input else walk([term]):
        if type(t) is Input and t.alloc is view.alloc and (same or t.dim != view.dim):
            try:
                if t.dim.shares(view.dim, t.dtype.itemsize, size, _WORK):
                    return True
            except np.exceptions.TooHardError:
                return True
    return False


_WORK = 4096  # the exact overlap search's bound (NumPy's max_work): past it, views are taken to overlap


def known(value: np.generic) -> Node:
    """The node of a 0-d result whose value the host engine computed at once (``at_once.compute``): a cast
    of the NumPy scalar ``value`` to its own dtype, held without memory until something needs the
    array's memory (it is then materialised like any pending node; in a kernel it is an argument)."""
    dtype = value.dtype
    return Node("cast", (Scalar(value, dtype),), dtype, (), 1, 1, (), 0, False, None, True, True)


def known_value(t: Any) -> np.generic | None:
    """The NumPy scalar of a pending :func:`known` node, else None."""
    if type(t) is Node and t.op == "cast" and t.value is None and not t.shape:
        a = t.args[0]
        if type(a) is Scalar and type(a.value) is t.dtype.type:
            return a.value
    return None


def copied(t: Any) -> Input | None:
    """The view a pending copy ``t`` to the same dtype reads, else None: until it runs (before
    anything writes that view's memory: ``evaluate.before_write``) the view holds its values."""
    if type(t) is Node and t.op == "cast" and t.value is None:
        a = t.args[0]
        if type(a) is Input and a.dtype == t.dtype:
            return a
    return None
