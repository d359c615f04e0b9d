"""Trace a function into a :class:`Program` once, then replay it with new inputs.

The trace calls the function on stand-in arrays whose memory is a ``sched.Slot`` (one per
distinct input allocation) while a ``sched.Recorder`` is active: ops run their dispatch, the
lazy layer fuses every elementwise chain (into the reductions that consume them, several
outputs per kernel where results share a shape) and each kernel launch is recorded with its
arguments instead of being enqueued. The program then knows every slot's role:

- an **input** slot is bound at each call to the buffer of the caller's array (a write to it
  is an in-place update of that array, as unjitted);
- an **output** slot (memory of a returned array) gets a new pooled allocation per call;
- every other slot is an **intermediate**, placed in one arena allocation by a liveness plan:
  slots whose lives (first to last step using them) do not overlap share bytes.

A replay is one ``sched.launch`` whose reads and writes are the inputs, outputs, arena and any
array the body reads from outside (a global): it waits only for what those depend on, and its
enqueue runs the steps back to back on the stream, only the bound buffers changing.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pyopencl as cl

from .. import lazy, sched
from .._array import DArray
from ..alloc import _guard, allocate, region
from ..dim import Dim
from ..errors import DeviceError
from ..place import CLPlace, runtime
from ..sched import Dynamic, Recorder, Slot, Step
from . import _cmdbuf, _tree
from ._cmdbuf import CommandBuffer

ALIGN = 512  # bytes: arena slots start at multiples of this (at least the devices' base address alignment)


@dataclass(eq=False)
class _Run:
    """A step as replayed. A kernel step has a kernel object of its own (``kernel``) whose
    arguments are set in advance, but ``binds``, (argument index, slot index) pairs set per call
    (inputs and outputs), and ``dynamic`` ones; ``fixed`` binds (arena slots) are set once."""

    name: str
    kernel: Any
    args: list[Any]                  # as recorded (keeps what the kernel's arguments refer to alive)
    gsize: tuple[int, ...]
    lsize: tuple[int, ...] | None
    binds: list[tuple[int, int]]
    data: np.ndarray | None = None   # a constant copied into slot ``binds[0][1]``
    call: Callable[[Any, list[Any]], None] | None = None  # a library call over ``args`` (buffers)
    dynamic: list[tuple[int, Dynamic]] | None = None  # arguments computed at each replay
    fixed: list[tuple[int, int]] | None = None


@dataclass(eq=False)
class Program:
    """One traced function for one key: its steps, slot roles, arena plan and results."""

    name: str
    place: CLPlace
    runs: list[_Run]
    nslots: int
    inputs: list[int]                  # slot of input group g
    written: list[int]                 # input groups the steps write
    outputs: list[tuple[int, int]]     # (slot, bytes) of each output slot
    arena_slots: list[tuple[int, int, int]]  # (slot, byte offset, bytes)
    arena_bytes: int
    results: list[tuple[str, Any, Dim, np.dtype]]  # per result leaf: (kind, slot / output k / array, dim, dtype)
    result_spec: Any
    rebinds: list[tuple[int, int, Dim]]  # (input leaf, result-like slot kind index, dim): inputs rebound
    extern_reads: list[Any]            # allocations from outside the trace the steps read / write
    extern_writes: list[Any]
    arena: list[Any] | None = None    # its allocation (one per slot under DARRAY_CHECK_BOUNDS)
    fixed: list[Any] | None = None     # the bound buffer of each slot that is the same every call
    used: int = 0                      # when it last ran (the jitted function's cache drops the oldest)
    by_extent: bool = False            # the trace read how far an input's memory reaches: keyed by its size too
    recorded: bool = False             # replays through command buffers (``_cmdbuf``), one per queue
    buffers: dict[int, CommandBuffer] | None = None

    def explain(self) -> str:
        """The program as text: kernels in launch order, slots and the arena's bytes."""
        lines = [f"da.jit program {self.name} on {self.place}: {len(self.runs)} launches, "
                 f"{len(self.inputs)} inputs ({len(self.written)} updated in place), {len(self.outputs)} outputs, "
                 f"arena {self.arena_bytes} bytes for {len(self.arena_slots)} intermediates"]
        for k, r in enumerate(self.runs):
            what = f" over {r.gsize}" if r.kernel is not None else " (library call)" if r.call is not None \
                else f" ({r.data.nbytes if r.data is not None else 0} constant bytes)"
            lines.append(f"  {k}: {r.name}{what}")
        for s, off, n in self.arena_slots:
            lines.append(f"  slot {s}: {n} bytes at arena offset {off}")
        return "\n".join(lines)


# -- trace ----------------------------------------------------------------------------------------
def trace(fn: Callable[..., Any], name: str, spec: Any, leaves: list[DArray], groups: list[int],
          place: CLPlace) -> Program:
    """Trace ``fn`` over stand-ins of ``leaves`` (``groups[i]``: the input group of leaf i, leaves
    sharing an allocation share one) and plan the program. Nothing runs on the device."""
    lazy.evaluate(*lazy.pending())  # a graph built before the trace is not the trace's to capture
    rec = Recorder()
    ngroups = max(groups, default=-1) + 1
    slots = [rec.slot(0) for _ in range(ngroups)]
    for g, x in zip(groups, leaves):
        slots[g].nbytes = max(slots[g].nbytes, x._data().nbytes)
        slots[g].buffer = slots[g] if slots[g].nbytes else None
    stand = [DArray(slots[g], x._dim, x._dtype, place) for g, x in zip(groups, leaves)]
    with sched.recording(rec):
        args, kwargs = _tree.unflatten(spec, stand)[0]
        out = fn(*args, **kwargs)
        out_leaves: list[DArray] = []
        out_spec = _tree.flatten(out, out_leaves)
        lazy.evaluate(*[x for x in (*out_leaves, *stand) if x._node is not None])
    p = _plan(name, place, rec, slots, stand, out_leaves, out_spec)
    p.by_extent = rec.extent
    return p


def _plan(name: str, place: CLPlace, rec: Recorder, inputs: list[Slot], stand: list[DArray],
          out_leaves: list[DArray], out_spec: Any) -> Program:
    in_group = {s.index: g for g, s in enumerate(inputs)}
    outputs: dict[int, int] = {}                    # slot -> output k
    results: list[tuple[str, Any, Dim, np.dtype]] = []
    for x in out_leaves:
        a = x._alloc
        if type(a) is Slot and a.index in in_group:
            results.append(("in", in_group[a.index], x._dim, x._dtype))
        elif type(a) is Slot:
            k = outputs.setdefault(a.index, len(outputs))
            results.append(("out", k, x._dim, x._dtype))
        else:
            results.append(("const", x, x._dim, x._dtype))
    rebinds = []
    for i, x in enumerate(stand):  # an input whose array now holds other memory (rebound in the body)
        a = x._alloc
        if type(a) is Slot and a.index not in in_group:
            rebinds.append((i, outputs.setdefault(a.index, len(outputs)), x._dim))
    runs, first, last, ext_r, ext_w, written = _runs(rec.steps, in_group)
    arena = {s.index: s.nbytes for s in rec.slots if s.index not in in_group and s.index not in outputs}
    placed, total = _place(arena, first, last)
    for r in runs:
        if r.data is None:
            r.fixed = [(i, s) for i, s in r.binds if s in placed]
            r.binds = [(i, s) for i, s in r.binds if s not in placed]
    sizes = {s.index: s.nbytes for s in rec.slots}
    p = Program(name, place, runs, len(rec.slots), [s.index for s in inputs], sorted(written),
                [(s, sizes[s]) for s in sorted(outputs, key=outputs.__getitem__)],
                [(s, off, arena[s]) for s, off in placed.items()], total, results, out_spec, rebinds,
                ext_r, ext_w)
    p.fixed = _fixed(p)
    p.recorded = _cmdbuf.ENABLED and len(runs) >= _cmdbuf.MIN_STEPS and all(r.kernel is not None for r in runs) \
        and _cmdbuf.api(runtime(place).device) is not None
    p.buffers = {}
    return p


def _clone(st: Step) -> cl.Kernel:
    """A kernel object of the step's own with every argument set but slots and dynamic values
    (converted to the kernel's scalar dtypes where it was given them)."""
    k = cl.Kernel(st.kernel.program, st.kernel.function_name)
    for i, a in enumerate(st.args):
        if type(a) is not Slot and type(a) is not Dynamic:
            dt = st.dtypes[i] if st.dtypes else None
            k.set_arg(i, a if dt is None or a is None else np.dtype(dt).type(a))
    return k


def _runs(steps: Sequence[Step], in_group: dict[int, int]) -> tuple[list[_Run], dict[int, int], dict[int, int],
                                                                    list[Any], list[Any], set[int]]:
    """The replayable steps, each slot's first and last step, the allocations from outside the
    trace read and written, and the input groups written."""
    runs: list[_Run] = []
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    ext_r: dict[int, Any] = {}
    ext_w: dict[int, Any] = {}
    written: set[int] = set()

    def use(a: Any, k: int) -> None:
        if type(a) is Slot:
            first.setdefault(a.index, k)
            last[a.index] = k

    for k, st in enumerate(steps):
        binds = [(i, a.index) for i, a in enumerate(st.args) if type(a) is Slot]
        for _, s in binds:
            first.setdefault(s, k)
            last[s] = k
        for a in st.reads:
            use(a, k)
            if type(a) is not Slot and a.buffer is not None:
                ext_r[id(a)] = a
        for a in st.writes:
            use(a, k)
            if type(a) is not Slot and a.buffer is not None:
                ext_w[id(a)] = a
            elif type(a) is Slot and a.index in in_group:
                written.add(in_group[a.index])
        if st.data is not None:
            binds = [(0, st.writes[0].index)]
        args = [None if type(a) is Slot else region(a) if st.call is not None else a for a in st.args]
        dynamic = [(i, a) for i, a in enumerate(st.args) if type(a) is Dynamic] or None
        kernel = _clone(st) if st.kernel is not None else None
        runs.append(_Run(st.name, kernel, args, st.gsize, st.lsize, binds, st.data, st.call, dynamic))
    return runs, first, last, [a for i, a in ext_r.items() if i not in ext_w], list(ext_w.values()), written


def _place(sizes: dict[int, int], first: dict[int, int], last: dict[int, int]) -> tuple[dict[int, int], int]:
    """Byte offsets in one arena for slots of ``sizes``: largest first, each at the lowest aligned
    offset that overlaps no placed slot alive at the same time (a slot no step uses is dropped)."""
    placed: dict[int, int] = {}
    total = 0
    for s in sorted((s for s in sizes if s in first and sizes[s]), key=lambda s: (-sizes[s], s)):
        size = -(-sizes[s] // ALIGN) * ALIGN
        busy = sorted((placed[t], placed[t] + -(-sizes[t] // ALIGN) * ALIGN) for t in placed
                      if first[t] <= last[s] and first[s] <= last[t])
        off = 0
        for lo, hi in busy:
            if off + size <= lo:
                break
            off = max(off, hi)
        placed[s] = off
        total = max(total, off + size)
    return placed, total


# -- replay ---------------------------------------------------------------------------------------
def _fixed(p: Program) -> list[Any]:
    """The arena (allocated once per program), the buffer of each of its slots, set as the
    arguments of the kernels that take them. Under the bounds check (``alloc._guard``) each slot
    is an allocation of its own, with guard bytes around it."""
    table: list[Any] = [None] * p.nslots
    if _guard.ON:
        p.arena = [allocate(p.place, n) for _, _, n in p.arena_slots]
        for (s, _, _), a in zip(p.arena_slots, p.arena):
            table[s] = region(a)
    elif p.arena_bytes:
        p.arena = [allocate(p.place, p.arena_bytes)]
        for s, off, n in p.arena_slots:
            table[s] = region(p.arena[0], off, n)
    for r in p.runs:
        for i, s in r.fixed or ():
            if r.kernel is not None:
                r.kernel.set_arg(i, table[s])
            else:
                r.args[i] = table[s]
    return table


def _recorded(p: Program, table: list[Any], queue: cl.CommandQueue, wait_for: list[cl.Event] | None) -> cl.Event:
    """Run ``p`` through its command buffer for ``queue``, recorded on first use with this call's
    arguments (when recording fails, the steps are enqueued one by one, from then on too)."""
    assert p.buffers is not None
    cb = p.buffers.get(queue.int_ptr)
    if cb is not None:
        updates = [(k, [(i, table[s]) for i, s in r.binds] + [(i, d.value()) for i, d in r.dynamic or ()])
                   for k, r in enumerate(p.runs) if r.binds or r.dynamic]
        return cb.run(updates, wait_for)
    for r in p.runs:  # this call's arguments, in step order: the recording takes them as set
        for i, s in r.binds:
            r.kernel.set_arg(i, table[s])
        for i, d in r.dynamic or ():
            r.kernel.set_arg(i, d.value())
    apis = _cmdbuf.api(queue.device)
    try:
        assert apis is not None  # checked when planned
        cb = p.buffers[queue.int_ptr] = _cmdbuf.CommandBuffer(apis, queue, p.runs)
    except (DeviceError, cl.Error):
        p.recorded = False
        events = []
        for r in p.runs:
            events.append(cl.enqueue_nd_range_kernel(queue, r.kernel, r.gsize, r.lsize, wait_for=wait_for))
            wait_for = None
        return events[-1]
    return cb.run([], wait_for)


def _call(call: Callable[[cl.CommandQueue, list[Any]], object], args: list[Any], queue: cl.CommandQueue) -> None:
    """A recorded library call over its bound buffers (``Recorder.library``)."""
    call(queue, args)


def replay(p: Program, leaves: Sequence[DArray], groups: list[int]) -> list[Any]:
    """Run ``p`` on the caller's arrays; the result leaves (new DArrays, inputs, constants)."""
    assert p.fixed is not None  # set by _plan
    table = list(p.fixed)
    ins: list[Any] = [None] * len(p.inputs)
    for x, g in zip(leaves, groups):
        if ins[g] is None:
            ins[g] = x._data()
    for g, a in enumerate(ins):
        table[p.inputs[g]] = region(a)
    outs = [allocate(p.place, n) for _, n in p.outputs]
    for (s, _), a in zip(p.outputs, outs):
        table[s] = region(a)
    runs = p.runs

    def enqueue(queue: cl.CommandQueue, wait_for: list[cl.Event] | None) -> cl.Event:
        if p.recorded:
            return _recorded(p, table, queue, wait_for)
        ev: cl.Event | None = None
        for r in runs:
            if r.data is not None:
                ev = cl.enqueue_copy(queue, table[r.binds[0][1]], r.data, wait_for=wait_for, is_blocking=False)
                wait_for = None
                continue
            k = r.kernel
            if k is None:  # a library call, enqueued as sched.launch_call's
                args = r.args
                for i, s in r.binds:
                    args[i] = table[s]
                assert r.call is not None  # a step is a copy, a call or a kernel
                ev = sched.enqueue_call(partial(_call, r.call, args), queue, wait_for)
            else:
                for i, s in r.binds:
                    k.set_arg(i, table[s])
                if r.dynamic:
                    for i, d in r.dynamic:
                        k.set_arg(i, d.value())
                ev = cl.enqueue_nd_range_kernel(queue, k, r.gsize, r.lsize, wait_for=wait_for)
            wait_for = None
        assert ev is not None  # a program with no steps is not launched
        return ev

    if runs:
        written = set(p.written)
        reads = [a for g, a in enumerate(ins) if g not in written and a.buffer is not None] + p.extern_reads
        writes = [a for a in outs if a.buffer is not None] + [ins[g] for g in written] + p.extern_writes
        if p.arena:
            writes += p.arena
        sched.launch(p.name, enqueue, place=p.place, reads=reads, writes=writes)
    for i, k, dim in p.rebinds:
        leaves[i]._rebind(outs[k], dim)
    out: list[Any] = []
    for kind, ref, dim, dtype in p.results:
        if kind == "const":
            out.append(ref)
        else:
            out.append(DArray(ins[ref] if kind == "in" else outs[ref], dim, dtype, p.place))
    return out
