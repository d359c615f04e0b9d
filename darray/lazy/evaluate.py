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
from collections.abc import Callable, Sequence
from typing import Any, cast

from .._array import DArray, set_materialize
from ..alloc import allocate
from ..dim import Dim
from ..errors import DeviceError
from . import execute, host
from .graph import Input, Node, Term, node, touches, walk

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
        out.update((id(a), a) for a in _live(refs))
    return list(out.values())


def _prune(refs: dict[int, weakref.ref[DArray]]) -> None:
    """Drop the registrations of arrays that died or ran (a long-lived array is read by many)."""
    for k, r in list(refs.items()):  # a copy: other threads may register meanwhile
        a = r()
        if a is None or a._node is None:
            refs.pop(k, None)


def before_write(alloc: Any, view: Input | None = None, value: Any = None) -> list[DArray]:
    """Run every pending graph that reads ``alloc`` (it is about to be overwritten): those
    registered as its readers, and those containing a node since materialised into ``alloc``.
    They run as one kernel whose outputs are in registration (creation) order, so identical
    calls fuse the same kernel. With the written ``view``, a registered reader runs only if it reads
    an element of that view (``cp[..., k] = ...`` leaves pending a reader of ``cp[..., k - 1]``).
    The arrays whose node is ``value`` (the term the write computes in its own kernel) are not run
    but returned: :func:`hand_over` then points them at the written view."""
    key = id(alloc)
    refs = _readers.get(key)
    if not refs and key not in _sources:  # the common case, without the comprehensions below
        return []
    direct = _live(refs) if refs else []
    found = _sources.pop(key, None)  # after this write no pending graph contains that node
    sources = found[1] if found is not None and found[0]() is alloc else None
    cands: list[DArray] = []
    if sources:  # pending graphs containing the node are registered under each of its reads
        dicts = [_readers.get(id(r)) or {} for r in (w() for w in sources) if r is not None]
        if dicts:
            cands = _live(min(dicts, key=len))
    held = [a for a in direct if value is not None and a._node is value]
    run = {id(a): a for a in cands if _reads(a._node, alloc)}
    for a in direct:
        if a._node is not value and (view is None or touches(a._node, view)):
            run[id(a)] = a
    if run:
        evaluate(*run.values())
    if refs is not None:
        _prune(refs)
        if not refs:
            _readers.pop(key, None)
    return held


def _live(refs: dict[int, weakref.ref[DArray]]) -> list[DArray]:
    """The registered arrays still alive and pending, in registration order."""
    return [a for a in (r() for r in list(refs.values())) if a is not None and a._node is not None]


def hand_over(arrays: list[DArray], view: Input) -> None:
    """``arrays`` (pending, their node just computed into ``view`` by a write) hold a pending copy of
    ``view`` instead: nothing runs unless they are used, or ``view``'s memory is written again first."""
    for a in arrays:
        if a._node is not None:
            a._node = node("cast", (view,), view.dtype, view.dim.shape, True)


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


def shared(roots: list[Node], place: Any, shape: tuple[int, ...]) -> list[DArray]:
    """The live pending arrays the kernel computing ``roots`` (of ``shape``, on ``place``) stores too,
    so that later graphs read their value instead of computing it again: see :func:`decisions`."""
    return [a for a, store, _ in decisions(roots, place, shape) if store]


def decisions(roots: list[Node], place: Any, shape: tuple[int, ...], every: bool = False) -> list[
        tuple[DArray, bool, str]]:
    """The cost rule, for the live pending arrays whose node lies below ``roots`` in their graphs:
    (array, stored, why). One of ``shape`` on ``place`` whose node is more than one op
    (``Node.size`` > 1) is stored beside the kernel's outputs (a value two evaluations use is
    computed once); a node of one op is recomputed where it is used (reading its inputs again costs
    about what writing it and reading it back does), as is one of another shape (broadcast into the
    kernel: its store would be a pass of its own). A reduction stores nothing (``reduce.reduce``).
    ``every``: the recomputed ones too (``explain``)."""
    if len(roots) == 1 and roots[0].size == 1:  # one op over settled terms: no pending node below it
        return []
    found: dict[int, DArray] = {}
    for r in roots:
        for alloc in r.reads:
            for ref in list((_readers.get(id(alloc)) or {}).values()):
                a = ref()
                if a is not None and a._node is not None and (every or (
                        a._node.size > 1 and a._dim.shape == shape and a._place == place)):
                    found[id(a._node)] = a
    if found:
        for r in roots:
            found.pop(id(r), None)
    if not found:
        return []
    inner = {id(t) for t in walk(list(roots)) if type(t) is Node}
    out = []
    for k, a in found.items():
        if k in inner:
            if a._node.size <= 1:
                out.append((a, False, "one op: reading its inputs again costs what storing it does"))
            elif a._dim.shape != shape or a._place != place:
                out.append((a, False, f"shape {list(a.shape)}, not the kernel's"))
            else:
                out.append((a, True, "held by a live array: computed once"))
    return out


def compute_into(root: Node, target: Input, place: Any, name: str) -> bool:
    """Compute the pending ``root`` into ``target`` (the host engine, else one kernel), with the
    :func:`shared` arrays below it stored as the same launch's further outputs; False (nothing
    done) when its kernel's arguments exceed the device's budget."""
    with _lock:
        extra = shared([root], place, target.dim.shape)
        targets = [target, *[Input(allocate(place, a._dim.size * a._dtype.itemsize), a._dim, a._dtype)
                             for a in extra]]
        nodes = [root, *[a._node for a in extra]]
        if launch(nodes, targets, place, name):
            _settle(extra, targets[1:])
            return True
        return bool(extra) and launch([root], [target], place, name)


def launch(roots: Sequence[Term], targets: Sequence[Input], place: Any, name: str) -> bool:
    """``roots`` (pending nodes, or one view or scalar to copy) computed into ``targets`` by the host
    engine where it takes them, else by one kernel (by the host engine at any size while that
    kernel's program builds on the build thread: a first call does not wait for compiles); False,
    nothing done, over the kernel-argument budget."""

    def on_host(building: bool) -> bool:
        if all([type(r) is Node and r.value is None for r in roots]):
            return host.run(cast(Sequence[Node], roots), targets, place, name, building)
        r = roots[0]
        return len(roots) == 1 and type(r) is not Node and host.copy(r, targets[0], place, name, building)

    return on_host(False) or execute.run(roots, targets, place, name, meanwhile=lambda: on_host(True))


def _run(place: Any, members: list[DArray]) -> None:
    """One kernel computing ``members`` (pending, one shape) and the :func:`shared` arrays below
    them. Over the device's kernel-argument budget, split: several outputs into halves; one output
    by running its pending arguments first."""
    if members:
        members = members + shared([a._node for a in members], place, members[0]._dim.shape)
        try:
            _launch(place, members)
        except DeviceError as err:
            if err.status != "CL_BUILD_PROGRAM_FAILURE":
                raise
            if len(members) == 1:
                _unregister(members[0])
                raise
            failed = _alone(place, members)
            if failed is not None:
                raise failed from None


def _alone(place: Any, members: list[DArray]) -> DeviceError | None:
    """After ``members``' kernel failed to build: each member run in a kernel of its own; one whose
    kernel does not build either stays pending (reading it raises again) but leaves the readers'
    registry, so that nothing else runs it (``pending``, writes). The first such error."""
    first = None
    for a in members:
        if a._node is None:
            continue
        try:
            _launch(place, [a])
        except DeviceError as err:
            if err.status != "CL_BUILD_PROGRAM_FAILURE":
                raise
            _unregister(a)
            first = first or err
    return first


def _unregister(a: DArray) -> None:
    """Take the pending ``a`` out of the readers' registry."""
    for alloc in a._node.reads if a._node is not None else ():
        refs = _readers.get(id(alloc))
        if refs is not None:
            refs.pop(id(a), None)


def _launch(place: Any, members: list[DArray]) -> None:
    """:func:`_run`'s kernel for exactly ``members``, split as it says."""
    targets = [Input(allocate(place, a._dim.size * a._dtype.itemsize), a._dim, a._dtype) for a in members]
    nodes = [a._node for a in members]
    name = nodes[0].op if len(nodes) == 1 else "+".join([n.op for n in nodes])
    if not launch(nodes, targets, place, name):
        parts = [c for c in members[0]._node.args if type(c) is Node and c.value is None]
        if len(members) == 1 and not parts:
            raise ValueError(f"darray {name}: the kernel's arguments exceed the parameter budget of {place}")
        del targets
        if len(members) > 1:
            half = len(members) // 2
            _launch(place, members[:half])
            rest = [a for a in members[half:] if a._node is not None]
            if rest:
                _launch(place, rest)
        else:
            evaluate(*[DArray(None, Dim.trusted(c.shape), c.dtype, place, c) for c in parts])
            _launch(place, members)
        return
    _settle(members, targets)


def _settle(members: list[DArray], targets: list[Input]) -> None:
    """``members``' values are now in ``targets``: later graphs read them there."""
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
