"""When pending graphs run: host reads, non-elementwise consumers, ``da.eval``, writes into
what a graph reads, and budgets (depth, size, inputs). ``DARRAY_LAZY=0`` runs every op now.
"""
from __future__ import annotations

import os
import weakref
from typing import TYPE_CHECKING, Any

from ..alloc import allocate
from ..dim import Dim
from . import execute, fuse
from .graph import Input, Node, walk

if TYPE_CHECKING:
    from .._array import DArray

MAX_DEPTH = 48
MAX_SIZE = 192
MAX_READS = 24

_readers: dict[int, dict[int, "weakref.ref[DArray]"]] = {}  # id(allocation) -> pending arrays reading it


ENABLED = os.environ.get("DARRAY_LAZY") != "0"


def lazy_enabled() -> bool:
    """False under ``DARRAY_LAZY=0`` (read at import; tests may set ``ENABLED``)."""
    return ENABLED


def record(n: Node, place: Any) -> "DArray":
    """A pending DArray computing node ``n``; runs now when eager or over a budget."""
    from .._array import DArray

    out = DArray(None, Dim.trusted(n.shape), n.dtype, place, n)
    if n.depth > MAX_DEPTH or n.size > MAX_SIZE or len(n.reads) > MAX_READS or not ENABLED:
        evaluate(out)
        return out
    ref = weakref.ref(out)
    key = id(out)
    for alloc in n.reads:  # dict operations are atomic under the GIL: no lock needed
        _readers.setdefault(id(alloc), {})[key] = ref
    return out


def before_write(alloc: Any) -> None:
    """Run every pending graph that reads ``alloc`` (it is about to be overwritten)."""
    refs = _readers.pop(id(alloc), None)
    if refs:
        live = [r() for r in list(refs.values())]
        evaluate(*[a for a in live if a is not None and a._node is not None and _reads(a._node, alloc)])


def _reads(n: Node, alloc: Any) -> bool:
    """Whether the pending graph ``n`` reads ``alloc`` (also through nodes materialised since it was built)."""
    return any(r is alloc for r in n.reads) or any(type(t) is Input and t.alloc is alloc for t in walk([n]))


def _hand_over(n: Node, alloc: Any) -> None:
    """``n`` now has its value in ``alloc``: pending graphs containing ``n`` read ``alloc`` from now
    on, so register them as its readers (a write into it runs them first); then drop ``n``'s
    arguments, so the inputs only it held go back to the pool."""
    deps = {}
    for r in n.reads:  # every pending graph containing n reads (and is registered under) n.reads
        refs = _readers.get(id(r))
        if refs:
            for key, ref in list(refs.items()):
                b = ref()
                if b is not None and b._node is not None and b._node is not n:
                    deps[key] = ref
    if deps:
        _readers.setdefault(id(alloc), {}).update(deps)
    n.args, n.reads = (), ()


def evaluate(*arrays: "DArray") -> None:
    """Materialise the pending arrays; those of one place and shape run as one kernel."""
    from ..ops import _table

    groups: dict[tuple, list[DArray]] = {}
    for a in arrays:
        if a._node is not None and all(a is not b for b in groups.get((a._place, a.shape), ())):
            groups.setdefault((a._place, a.shape), []).append(a)
    for (place, _), members in groups.items():
        targets = [Input(allocate(place, a.size * a.dtype.itemsize), a._dim, a.dtype) for a in members]
        execute.launch(fuse.fuse([a._node for a in members], targets), place, _table.expr,
                       "+".join(a._node.op for a in members))
        for a, t in zip(members, targets):
            n: Node = a._node
            n.value = t
            a._alloc, a._node = t.alloc, None
            _hand_over(n, t.alloc)
    if len(_readers) > 1024:
        for k, refs in list(_readers.items()):
            if all(r() is None or r()._node is None for r in list(refs.values())):
                _readers.pop(k, None)
