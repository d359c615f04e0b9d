"""Compile (once per structure) and launch a fused elementwise plan through the scheduler.

:func:`run` is the hot path of every elementwise graph: a graph whose :class:`~.fuse.Trace`
key was seen before reuses its kernel and argument list (only buffers, offsets and scalar
values change), so fuse and render run once per structure and shapes.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import pyopencl as cl

from .. import sched
from ..place import CLPlace, runtime
from .fuse import INT_LIMIT, Plan, fuse, trace
from .graph import Input, Term
from .reduce_render import REDUCE_NAME, render_reduce
from .render import KERNEL_NAME, ExprFn, params, render
from .spec import KernelSpec

LOCAL = {"CPU": 16}         # work-group size by device type (default 64)
CHUNK = {"CPU": 256}        # elements per work-item of elementwise kernels (default 1)
_kernels: dict[tuple[CLPlace, KernelSpec], cl.Kernel] = {}


def kernel_for(place: CLPlace, spec: KernelSpec, expr: ExprFn) -> cl.Kernel:
    """The compiled kernel of ``spec`` on ``place`` (rendered and built on first use)."""
    key = (place, spec)
    k = _kernels.get(key)
    if k is None:
        if spec.reduce is None:
            k = runtime(place).programs.kernel(render(spec, expr), KERNEL_NAME)
        else:
            k = runtime(place).programs.kernel(render_reduce(spec, expr), REDUCE_NAME)
        k.set_scalar_arg_dtypes([dt for _, _, dt in params(spec)])
        _kernels[key] = k
    return k


def arguments(plan: Plan, extra: tuple = ()) -> list:
    """Kernel arguments in the order of ``render.params`` (``extra``: a reduction's K, P, count)."""
    spec = plan.spec
    args: list = []
    for a, off, _ in plan.views:
        args += [a.buffer, off]
    args += [int(v) if dt.kind == "b" else v for v, dt in zip(plan.scalars, spec.scalars)]
    args.append(plan.n)
    args += extra
    if spec.strided:
        args += list(plan.shape[1:])
        for (_, _, st), op in zip(plan.views, spec.operands):
            if op.pattern == "s":
                args += list(st)
    return args


def launch(plan: Plan, place: CLPlace, expr: ExprFn, name: str = "elementwise", *, work: int | None = None,
           extra: tuple = ()) -> None:
    """Enqueue ``plan`` over ``work`` work-items (default: one per element; nothing when zero)."""
    kind = runtime(place).info.type
    if work is None:
        chunk = CHUNK.get(kind, 1)
        work, extra = -(-plan.n // chunk), (chunk,)
    if work == 0:
        return
    kernel = kernel_for(place, plan.spec, expr)
    args = arguments(plan, extra)
    local = LOCAL.get(kind, 64)
    gsize = -(-work // local) * local
    nout = len(plan.spec.outputs)
    allocs = [a for a, _, _ in plan.views]
    nbytes = plan.n * sum(op.dtype.itemsize for op in plan.spec.operands if op.pattern != "0")

    def enqueue(queue: cl.CommandQueue, wait_for: list | None) -> cl.Event:
        kernel.set_args(*args)
        return cl.enqueue_nd_range_kernel(queue, kernel, (gsize,), (local,), wait_for=wait_for)

    sched.launch(name, enqueue, place=place, reads=allocs[nout:], writes=allocs[:nout], nbytes=nbytes)


@lru_cache(maxsize=1024)
def param_bytes(spec: KernelSpec) -> int:
    """Bytes of the kernel's arguments (buffers as 8-byte pointers, each argument aligned to its size)."""
    total = 0
    for _, _, dt in params(spec):
        size = 8 if dt is None else dt.itemsize
        total = -(-total // size) * size + size
    return total


def budget(place: CLPlace) -> int:
    """The device's bytes for kernel arguments."""
    return runtime(place).info.max_parameter_bytes


class Prepared:
    """A fused elementwise kernel ready to launch again: the argument list of its first launch
    in which buffers (at ``2k``), element offsets (``2k + 1``) and scalars (after the views)
    are replaced per launch. ``spans[k]``: the elements view ``k`` reaches past its offset."""

    __slots__ = ("kernel", "args", "nviews", "nout", "scalar_kinds", "spans", "long", "gsize", "local", "nbytes")

    def __init__(self, plan: Plan, place: CLPlace, expr: ExprFn) -> None:
        kind = runtime(place).info.type
        chunk = CHUNK.get(kind, 1)
        work = -(-plan.n // chunk)
        self.kernel = kernel_for(place, plan.spec, expr) if work else None
        self.args = arguments(plan, (chunk,))
        self.nviews = len(plan.views)
        self.nout = len(plan.spec.outputs)
        self.scalar_kinds = [dt.kind == "b" for dt in plan.spec.scalars]
        self.spans = [sum(abs(st) * (k - 1) for st, k in zip(strides, plan.shape)) + 1 for _, _, strides in plan.views]
        self.long = plan.spec.index == "long"
        self.local = LOCAL.get(kind, 64)
        self.gsize = -(-work // self.local) * self.local
        self.nbytes = plan.n * sum(op.dtype.itemsize for op in plan.spec.operands if op.pattern != "0")


_prepared: dict[tuple, Prepared | None] = {}  # (place index, trace key, targets) -> kernel ready to launch, None: over budget


def run(roots: Sequence[Term], targets: Sequence[Input], place: CLPlace, expr: ExprFn, name: str) -> bool:
    """Compute ``roots[k]`` into ``targets[k]`` (views of one shape) with one kernel. False, with
    nothing launched, when the kernel's arguments exceed the device's budget (the caller splits)."""
    tr = trace(roots)
    key = (place.index, tr.key, *[(t.dtype, t.dim.shape, t.dim.strides) for t in targets])
    p = _prepared.get(key, False)
    if p is False:
        plan = fuse(roots, targets, traced=tr)
        if param_bytes(plan.spec) > budget(place):
            p = None
        else:
            p = Prepared(plan, place, expr)
            if p.kernel is None:  # nothing to compute: not worth a cache entry
                return True
        if len(_prepared) >= 4096:
            _prepared.clear()
        _prepared[key] = p
    if p is None:
        return False
    if p.kernel is None:
        return True
    args = p.args.copy()
    views = [*targets, *tr.inputs]
    allocs = [v.alloc for v in views]
    top = 0
    for k, v in enumerate(views):
        a = v.alloc
        off = a.offset // v.dtype.itemsize + v.dim.offset
        args[2 * k] = a.buffer
        args[2 * k + 1] = off
        if off + p.spans[k] > top:
            top = off + p.spans[k]
    if top > INT_LIMIT and not p.long:  # this allocation lies too far into its segment for int indices
        plan = fuse(roots, targets, traced=tr)
        launch(plan, place, expr, name)
        return True
    base = 2 * p.nviews
    for j, (s, boolean) in enumerate(zip(tr.scalars, p.scalar_kinds)):
        args[base + j] = int(s.value) if boolean else s.value
    kernel, gsize, local = p.kernel, (p.gsize,), (p.local,)

    def enqueue(queue: cl.CommandQueue, wait_for: list | None) -> cl.Event:
        kernel.set_args(*args)
        return cl.enqueue_nd_range_kernel(queue, kernel, gsize, local, wait_for=wait_for)

    sched.launch(name, enqueue, place=place, reads=allocs[p.nout:], writes=allocs[:p.nout], nbytes=p.nbytes)
    return True
