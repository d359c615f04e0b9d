"""Compile (once per structure) and launch a fused elementwise plan through the scheduler."""
from __future__ import annotations

import numpy as np
import pyopencl as cl

from .. import sched
from ..place import CLPlace, runtime
from .fuse import Plan
from .render import KERNEL_NAME, ExprFn, params, render
from .spec import KernelSpec

LOCAL = 64
_kernels: dict[tuple[CLPlace, KernelSpec], cl.Kernel] = {}


def kernel_for(place: CLPlace, spec: KernelSpec, expr: ExprFn) -> cl.Kernel:
    """The compiled kernel of ``spec`` on ``place`` (rendered and built on first use)."""
    key = (place, spec)
    k = _kernels.get(key)
    if k is None:
        k = runtime(place).programs.kernel(render(spec, expr), KERNEL_NAME)
        k.set_scalar_arg_dtypes([dt for _, _, dt in params(spec)])
        _kernels[key] = k
    return k


def arguments(plan: Plan) -> list:
    """Kernel arguments in the order of ``render.params``."""
    spec = plan.spec
    args: list = []
    for a, off, _ in plan.views:
        args += [a.buffer, off]
    args += [int(v) if dt.kind == "b" else v for v, dt in zip(plan.scalars, spec.scalars)]
    args.append(plan.n)
    if spec.strided:
        args += list(plan.shape[1:])
        for (_, _, st), op in zip(plan.views, spec.operands):
            if op.pattern == "s":
                args += list(st)
    return args


def launch(plan: Plan, place: CLPlace, expr: ExprFn, name: str = "elementwise") -> None:
    """Enqueue ``plan`` (nothing for an empty result)."""
    if plan.n == 0:
        return
    kernel = kernel_for(place, plan.spec, expr)
    args = arguments(plan)
    gsize = -(-plan.n // LOCAL) * LOCAL
    nout = len(plan.spec.outputs)
    allocs = [a for a, _, _ in plan.views]
    nbytes = plan.n * sum(op.dtype.itemsize for op in plan.spec.operands if op.pattern != "0")

    def enqueue(queue: cl.CommandQueue, wait_for: list | None) -> cl.Event:
        kernel.set_args(*args)
        return cl.enqueue_nd_range_kernel(queue, kernel, (gsize,), (LOCAL,), wait_for=wait_for)

    sched.launch(name, enqueue, place=place, reads=allocs[nout:], writes=allocs[:nout], nbytes=nbytes)
