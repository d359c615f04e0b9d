"""Compile (once per structure) and launch fused elementwise and reduction plans through the scheduler.

:func:`run` is the hot path of every elementwise graph and reduction: a graph whose
:class:`~.fuse.Trace` key (with the targets and a reduction's layout) was seen before reuses
its kernel and argument list (only buffers, offsets and scalar values change), so fuse and
render run once per structure and shapes.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Literal

import pyopencl as cl

from .. import sched
from ..place import CLPlace, runtime
from . import user
from .fuse import INT_LIMIT, Plan, Trace, fuse, trace
from .graph import Input, Term
from .reduce_columns import render_columns
from .reduce_gpu import render_tree
from .reduce_render import REDUCE_NAME, render_reduce
from .render import KERNEL_NAME, gpu_width, params, render, tile_shape, tiled, tiles
from .render_gpu import TILE_GROUP, gpu_kind, render_gpu, work_items
from .spec import KernelSpec, Reduction

CHUNK = {"chunked": 256}    # elements per work-item of elementwise kernels by kernel form (default 1)
_kernels: dict[tuple[CLPlace, KernelSpec], cl.Kernel] = {}


def form(place: CLPlace) -> str:
    """The kernel form of ``place`` (``DeviceInfo.form``: chunked, item or gpu)."""
    return runtime(place).info.form


def local_size(place: CLPlace) -> int:
    """The work-group size of darray's kernels on ``place`` (``DeviceInfo.work_group``)."""
    return runtime(place).info.work_group


def gpu_copy(place: CLPlace, spec: KernelSpec) -> str:
    """The gpu form's copy or cast kernel for ``spec`` on ``place`` (``render_gpu.gpu_kind``), or ''."""
    info = runtime(place).info
    return gpu_kind(spec, info.max_work_group_size) if info.form == "gpu" else ""


def kernel_for(place: CLPlace, spec: KernelSpec) -> cl.Kernel:
    """The compiled kernel of ``spec`` on ``place`` (rendered and built on first use)."""
    key = (place, spec)
    k = _kernels.get(key)
    if k is None:
        source, name = _source(place, spec)
        k = runtime(place).programs.kernel(source, name)
        k.set_scalar_arg_dtypes([dt for _, _, dt in params(spec)])
        _kernels[key] = k
        _sources.pop(key, None)
    return k


def built(place: CLPlace, spec: KernelSpec) -> bool:
    """Whether the kernel of ``spec`` on ``place`` is ready now; else its program's build is queued
    (once) on the build thread (``ProgramCache.ready``) and False."""
    return (place, spec) in _kernels or runtime(place).programs.ready(_source(place, spec)[0])


def _source(place: CLPlace, spec: KernelSpec) -> tuple[str, str]:
    """The OpenCL source of ``spec`` on ``place`` and its kernel's name, rendered once (the vector
    overloads of its user ops decided first: ``lazy.user.decide``)."""
    key = (place, spec)
    found = _sources.get(key)
    if found is None:
        user.decide(spec, lambda source: runtime(place).programs.kernel(source, "darray_probe"))
        if spec.reduce is None:
            info = runtime(place).info
            kind = gpu_copy(place, spec)
            found = (render_gpu(spec, kind) if kind else render(spec, info.chunked, info.form == "gpu"), KERNEL_NAME)
        else:
            render_one = render_tree if spec.reduce.group else render_columns if spec.reduce.stage == "columns" \
                else render_reduce
            found = (render_one(spec), REDUCE_NAME)
        _sources[key] = found
    return found


_sources: dict[tuple[CLPlace, KernelSpec], tuple[str, str]] = {}  # rendered, not built yet


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
    """A fused kernel ready to launch again: the argument list of its first launch in which
    buffers (at ``2k``, kept as None so the cache holds no memory), element offsets (``2k + 1``)
    and scalars (after the views) are replaced per launch. ``spans[k]``: the elements view ``k``
    reaches past its offset. ``work``: work-items (elementwise: one per ``CHUNK`` elements, or per
    tile in the chunked form's tiled kernels, shaped by ``render.tile_shape``; the gpu form's copies
    and casts: ``render_gpu.work_items``); the work-group size is read at each launch, except a tree
    reduction's and a tiled copy's (``group``: their local arrays' size)."""

    __slots__ = ("kernel", "args", "nviews", "nout", "scalar_kinds", "spans", "long", "work", "nbytes", "group",
                 "dtypes")

    def __init__(self, plan: Plan, place: CLPlace, work: int | None = None, extra: tuple = ()) -> None:
        self.group = plan.spec.reduce.group if plan.spec.reduce is not None else 0
        kind = gpu_copy(place, plan.spec) if work is None else ""
        if kind:  # the gpu form's tiled or vector copies and casts (``render_gpu``)
            work, extra = work_items(kind, plan.shape, plan.n), ((1, 1) if tiled(plan.spec) else (1,))
            self.group = TILE_GROUP if kind == "tiles" else 0
        elif work is None:
            chunk = gpu_width(plan.spec) if form(place) == "gpu" else CHUNK.get(form(place), 1)
            work, extra = -(-plan.n // chunk), (chunk,)
            if tiled(plan.spec):
                rows = 1
                if chunk > 1:
                    rows, chunk = tile_shape(plan.spec, [st for _, _, st in plan.views], chunk)
                    work = tiles(plan.shape, rows, chunk)
                extra = (chunk, rows)
        self.work = work
        self.kernel = kernel_for(place, plan.spec) if work else None
        self.dtypes = [dt for _, _, dt in params(plan.spec)]
        self.args = arguments(plan, extra)
        self.nviews = len(plan.views)
        for k in range(self.nviews):
            self.args[2 * k] = None
        self.nout = len(plan.spec.outputs)
        self.scalar_kinds = [dt.kind == "b" for dt in plan.spec.scalars]
        self.spans = [sum(abs(st) * (k - 1) for st, k in zip(strides, plan.shape)) + 1 for _, _, strides in plan.views]
        self.long = plan.spec.index == "long"
        self.nbytes = plan.n * sum(op.dtype.itemsize for op in plan.spec.operands if op.pattern != "0")

    def launch(self, args: list, allocs: list, place: CLPlace, name: str) -> None:
        """Enqueue the kernel with ``args`` (``allocs``: the views' allocations, outputs first)."""
        kernel, local = self.kernel, self.group or local_size(place)
        assert kernel is not None  # a plan with nothing to compute is never cached nor launched
        nout = self.nout
        sched.launch_kernel(name, kernel, args, (-(-self.work // local) * local,), (local,), place=place,
                            reads=allocs[nout:], writes=allocs[:nout], nbytes=self.nbytes, dtypes=self.dtypes)


_prepared: dict[tuple, Prepared | None] = {}  # (place, trace key, layout, targets) -> Prepared; None: over budget


def run(roots: Sequence[Term], targets: Sequence[Input], place: CLPlace, name: str, *,
        shape: tuple[int, ...] | None = None, perm: tuple[int, ...] | None = None, reduce: Reduction | None = None,
        work: int | None = None, extra: tuple = (), traced: Trace | None = None,
        meanwhile: Callable[[], bool] | None = None) -> bool:
    """Compute ``roots[k]`` into ``targets[k]`` with one kernel, reusing the kernel and argument
    list of an earlier launch of the same structure (only buffers, offsets and scalars change).

    Elementwise (``reduce`` None): targets are views of one shape; False, with nothing launched,
    when the kernel's arguments exceed the device's budget (the caller splits). Reduction: see
    :func:`~.fuse.fuse` for ``shape``, ``perm`` and ``reduce``; ``work`` work-items, ``extra``
    the reduction's (K, P[, count]) arguments. ``traced``: the :func:`~.fuse.trace` of ``roots``.
    ``meanwhile``: the work done another way (the host engine) while the kernel's program is still
    building (its build then goes on, on the build thread: :func:`built`); True when it did the work.
    """
    tr = trace(roots) if traced is None else traced
    layout = None if reduce is None else (shape, perm, reduce, work, extra)
    key = (place.index, tr.key, layout, *[(t.dtype, t.dim.shape, t.dim.strides) for t in targets])
    p: Prepared | None | Literal[False] = _prepared.get(key, False)  # False: not seen yet
    if p is False:
        plan = fuse(roots, targets, shape=shape, perm=perm, reduce=reduce, traced=tr)
        if reduce is None and param_bytes(plan.spec) > budget(place):
            p = None
        else:
            if meanwhile is not None and not built(place, plan.spec) and meanwhile():
                return True
            p = Prepared(plan, place, work, extra)
            if p.kernel is None:  # nothing to compute: not worth a cache entry
                return True
        if len(_prepared) >= 4096:
            _prepared.clear()
        _prepared[key] = p
    if p is None:
        return False
    views = [*targets, *tr.inputs]
    args, top = _bind(p, views)
    if top > INT_LIMIT and not p.long:  # views reaching too far for int indices: the long-index form
        long_key = (*key, "long")
        p = _prepared.get(long_key)
        if p is None:
            plan = fuse(roots, targets, shape=shape, perm=perm, reduce=reduce, traced=tr)
            p = _prepared[long_key] = Prepared(plan, place, work, extra)
        args, _ = _bind(p, views)
    base = 2 * p.nviews
    for j, (s, boolean) in enumerate(zip(tr.scalars, p.scalar_kinds)):
        args[base + j] = int(s.value) if boolean else s.value
    if sched.capturing() is not None:  # a da.jit program lists what each kernel fused
        name = f"{name}[{', '.join([e[0] for e in tr.key[0] if e[0] not in ('in', 'sc')])}]"
    p.launch(args, [v.alloc for v in views], place, name)
    return True


def _bind(p: Prepared, views: list[Input]) -> tuple[list, int]:
    """``p``'s arguments with the buffers and element offsets of ``views`` (outputs first), and
    the highest element index they reach."""
    args = p.args.copy()
    top = 0
    for k, v in enumerate(views):
        a = v.alloc
        off = a.offset // v.dtype.itemsize + v.dim.offset
        args[2 * k] = a.buffer
        args[2 * k + 1] = off
        if off + p.spans[k] > top:
            top = off + p.spans[k]
    return args, top
