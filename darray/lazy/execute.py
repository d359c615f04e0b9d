"""Compile (once per structure) and launch a fused elementwise plan through the scheduler."""
from __future__ import annotations

import numpy as np
import pyopencl as cl

from .. import sched
from ..place import CLPlace, runtime
from .fuse import Plan
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
