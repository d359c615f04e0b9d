"""When pending graphs run: host reads, non-elementwise consumers, ``da.eval``, writes into
what a graph reads, and budgets (depth, size, inputs, bytes kept alive). ``DARRAY_LAZY=0``
runs every op now (read at import, kept in ``ENABLED``).
A graph whose kernel arguments exceed the device's parameter bytes runs in parts. Evaluation
holds one lock: threads sharing pending arrays (Dask's threaded scheduler, say) run each graph once.
"""
from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable
from typing import Any

from .._array import DArray, set_materialize
from ..alloc import allocate
from ..dim import Dim
from . import execute, host
from .graph import Input, Node, walk

MAX_DEPTH = 48
MAX_SIZE = 192
MAX_READS = 24
MAX_PINNED = 256 << 20  # bytes a pending graph may keep alive through the arrays it reads
PRUNE_AT = 64  # an allocation's reader registrations are pruned when their count reaches a power of two this large

_readers: dict[int, dict[int, weakref.ref[DArray]]] = {}  # id(allocation) -> pending arrays reading it


ENABLED = os.environ.get("DARRAY_LAZY") != "0"


class eager:
    """``with da.lazy.eager():`` runs every op at once inside the block (as ``DARRAY_LAZY=0``
    does; process-wide, not per thread). A class, not a generator: it is cheap enough to
    wrap a single op."""

    __slots__ = ("old",)

    def __enter__(self) -> None:
        global ENABLED
        self.old, ENABLED = ENABLED, False

    def __exit__(self, *exc: object) -> None:
        global ENABLED
        ENABLED = self.old


def record(n: Node, place: Any) -> DArray:
    """A pending DArray computing node ``n``; runs now when eager or over a budget."""
    out = DArray(None, Dim.trusted(n.shape), n.dtype, place, n)
    reads = n.reads
    if not ENABLED or n.depth > MAX_DEPTH or n.size > MAX_SIZE or len(reads) > MAX_READS or n.pinned > MAX_PINNED:
        _run(place, [out])
        return out
    ref = weakref.ref(out)
    key = id(out)
    for alloc in reads:  # dict operations are atomic under the GIL: no lock needed
        refs = _readers.get(id(alloc))
        if refs is None:
            _readers[id(alloc)] = {key: ref}
        else:
            refs.pop(key, None)  # a dead reader's id reused: to the end, else the order would vary (see before_write)
            refs[key] = ref
            size = len(refs)
            if size >= PRUNE_AT and not size & (size - 1):  # at powers of two: amortised O(1)
                _prune(refs)
    return out


def pending() -> list[DArray]:
    """The live pending arrays that read some allocation (``da.jit`` runs them before a trace)."""
    out: dict[int, DArray] = {}
    for refs in list(_readers.values()):
        for r in list(refs.values()):
            a = r()
            if a is not None and a._node is not None:
                out[id(a)] = a
    return list(out.values())


def _prune(refs: dict[int, weakref.ref[DArray]]) -> None:
    """Drop the registrations of arrays that died or ran (a long-lived array is read by many)."""
    for k, r in list(refs.items()):  # a copy: other threads may register meanwhile
        a = r()
        if a is None or a._node is None:
            refs.pop(k, None)


def before_write(alloc: Any) -> None:
    """Run every pending graph that reads ``alloc`` (it is about to be overwritten): those
    registered as its readers, and those containing a node since materialised into ``alloc``.
    They run as one kernel whose outputs are in registration (creation) order, so identical
    calls fuse the same kernel."""
    refs = _readers.pop(id(alloc), None)
    cands = list(refs.values()) if refs else []
    found = _sources.pop(id(alloc), None) if _sources else None  # after this write no pending graph contains that node
    sources = found[1] if found is not None and found[0]() is alloc else None
    if sources:  # pending graphs containing the node are registered under each of its reads
        dicts = [_readers.get(id(r)) or {} for r in (w() for w in sources) if r is not None]
        if dicts:
            cands += list(min(dicts, key=len).values())
    if cands:
        live = {id(a): a for a in (r() for r in cands) if a is not None and a._node is not None}
        evaluate(*[a for a in live.values() if _reads(a._node, alloc)])


def _reads(n: Node, alloc: Any) -> bool:
    """Whether the pending graph ``n`` reads ``alloc`` (also through nodes materialised since it was built)."""
    return any(r is alloc for r in n.reads) or any(type(t) is Input and t.alloc is alloc for t in walk([n]))


# id(materialised allocation) -> (a weak reference to it, weak references to what its node read):
# pending graphs that contain the node read the allocation now, and are found through their
# registration there. The entry goes when the allocation does (a plain dict: one lookup per write).
_sources: dict[int, tuple[weakref.ref, tuple]] = {}


def _forget(key: int) -> Callable[[weakref.ref], object]:
    """The callback dropping the entry of the allocation of id ``key`` when it goes."""
    return lambda _: _sources.pop(key, None)


def _hand_over(n: Node, alloc: Any) -> None:
    """``n`` now has its value in ``alloc``: remember what it read (so a write into ``alloc``
    finds the pending graphs containing ``n``; none can when no node took ``n`` as an
    argument), then drop its arguments and reads."""
    if n.reads and n.used:
        _sources[id(alloc)] = (weakref.ref(alloc, _forget(id(alloc))), tuple(weakref.ref(r) for r in n.reads))
    n.args, n.reads = (), ()


_lock = threading.RLock()  # one evaluation at a time: another thread's array may share a pending node


def evaluate(*arrays: DArray) -> None:
    """Materialise the pending arrays; those of one place and shape run as one kernel."""
    with _lock:
        if len(arrays) == 1:
            a = arrays[0]
            if a._node is not None:
                _run(a._place, [a])
            return
        groups: dict[tuple, list[DArray]] = {}
        for a in arrays:
            if a._node is not None and all(a is not b for b in groups.get((a._place, a.shape), ())):
                groups.setdefault((a._place, a.shape), []).append(a)
        for (place, _), members in groups.items():
            _run(place, [a for a in members if a._node is not None])


def _run(place: Any, members: list[DArray]) -> None:
    """One kernel computing ``members`` (pending, one shape). Over the device's kernel-argument
    budget, split: several outputs into halves; one output by running its pending arguments first."""
    if not members:
        return
    targets = [Input(allocate(place, a._dim.size * a._dtype.itemsize), a._dim, a._dtype) for a in members]
    nodes = [a._node for a in members]
    name = nodes[0].op if len(nodes) == 1 else "+".join([n.op for n in nodes])
    if not host.run(nodes, targets, place, name) and not execute.run(nodes, targets, place, name):
        parts = [c for c in members[0]._node.args if type(c) is Node and c.value is None]
        if len(members) == 1 and not parts:
            raise ValueError(f"darray {name}: the kernel's arguments exceed the parameter budget of {place}")
        del targets
        if len(members) > 1:
            half = len(members) // 2
            _run(place, members[:half])
            _run(place, [a for a in members[half:] if a._node is not None])
        else:
            evaluate(*[DArray(None, Dim.trusted(c.shape), c.dtype, place, c) for c in parts])
            _run(place, members)
        return
    for a, t in zip(members, targets):
        n: Node = a._node
        n.value = t
        a._settle(t.alloc)
        _hand_over(n, t.alloc)
    if len(_readers) >= _sweep_at:
        _sweep()


_sweep_at = 1024  # the number of registered allocations at which the next sweep runs


def _sweep() -> None:
    """Drop the registrations of dead or finished arrays, and allocations left with none; the
    next sweep waits until the registry has doubled (amortised O(1) per op)."""
    global _sweep_at
    for k, refs in list(_readers.items()):
        _prune(refs)
        if not refs:
            _readers.pop(k, None)
    _sweep_at = max(1024, 2 * len(_readers))


set_materialize(evaluate)  # the record's ``_data`` runs pending graphs through this module
