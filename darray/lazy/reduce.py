"""Plan and launch reductions over a fused elementwise term (no temporary for the chain).

Outputs ``M`` values (product of the kept axes), each folding ``K`` elements (product of the
reduced axes). Launches are named after the op (``mean`` for a mean).

CPU devices ("chunked"): one launch per reduction. A row kernel gives each of ``P`` work-items
per output a contiguous run of at most ``CPU_CHUNK`` elements (about ``CPU_ITEMS`` work-items
per compute unit: few partials, so few atomic counter updates); with ``P > 1`` the last
work-item of each output folds the partials (stage ``rows``). When the kept axes are innermost
in memory (``sum(x, axis=0)``), a column kernel streams whole rows instead (stage ``columns``:
about ``TASKS`` tasks per compute unit, bands of at most ``MAX_BAND`` rows). Both keep their
partial results and counters in a per-stream scratch allocation (see :func:`_scratch`).
In the ``item`` form (CPU runtimes that vectorise across work-items; see :func:`_grouped`),
dense sums and products over trailing axes use a row kernel whose tasks go to work-groups
instead (stages ``group``, ``groups``: see ``reduce_render._render_groups``).

The ``gpu`` form (GPUs): one launch per reduction too, the tree kernel of ``reduce_gpu``: teams
of ``T`` lanes (a power of two, about ``PER_LANE`` elements per lane, at most the work-group)
fold a task each and join in local memory; enough tasks (``P`` per output) to give the device
``GPU_LANES`` lanes per compute unit; with ``P > 1`` the team that finishes an output's last
task, found by an atomic counter, folds its partials (stage ``trees``). When the kept axes are
innermost in memory, teams of one lane take neighbouring outputs (coalesced rows).

Every launch goes through :func:`.execute.run` with its layout (shape, perm, Reduction, work,
K, P): a reduction of a structure seen before reuses its prepared kernel and arguments.
"""
from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import prod
from typing import Any

import numpy as np
import pyopencl as cl

from .. import sched
from ..alloc import allocate
from ..dim import Dim
from ..place import CLPlace, runtime
from . import execute, fuse, user
from .graph import Input, Term
from .reduce_columns import COLUMNS
from .reduce_render import GROUP
from .spec import Reduction

MIN_CHUNK = 2048  # a work-item's chunk is at least this long: shorter rows are one part (at 1000 float64, 62 parts
# of 16 cost the kernel 28 us where one costs 25, and the host engine's fold of their order 10.3 us where one takes 9.2)
MIN_COLUMNS = 16  # a column kernel needs at least this many outputs
MIN_BAND = 32     # and bands of at least this many rows
MAX_BAND = 2048   # at most this many (float sums: a band folds MAX_BAND / ROWS blocks serially)
CPU_CHUNK = 65536  # float sums fold such a chunk in three levels of blocks (see reduce_render._lanes)
CPU_ITEMS = 64
TASKS = 4         # column tasks per compute unit
GROUP_ROWS = 4    # group kernels: only for tasks of at least this many rows of a work-group's width
GROUP_OPS = ("sum", "prod")  # and only these (max/argmax measured slower there than chunked on Intel)
PER_LANE = 64    # GPU tree kernels: elements per lane that pick the team size
MIN_LANE = 16    # and at least this many per lane in a task
GPU_LANES = 1024  # lanes per compute unit (an H100 runs 2048 at once; with 1024, fewer and longer tasks:
# full sum 1876 GB/s against 1869 at 2048 and 1858 at 4096, sum(axis=0) 1780 against 1556 and 1433)
_INT64 = np.dtype(np.int64)
_INT32 = np.dtype(np.int32)


def partitions(place: CLPlace, m: int, k: int) -> int:
    """Partial results per output of a CPU row kernel: chunks of at most CPU_CHUNK and enough
    work-items to fill the device; every chunk at least MIN_CHUNK long."""
    parts = max(-(-k // CPU_CHUNK), -(-runtime(place).info.compute_units * CPU_ITEMS // max(m, 1)))
    return max(1, min(parts, k // MIN_CHUNK))


def _chunked(place: CLPlace) -> bool:
    """The CPU plans (chunked row and column kernels) in the CPU forms (``chunked``, ``item``);
    the tree kernels in the ``gpu`` form. (Intel's CPU runtime measured 0.1x the copy bandwidth
    with one element per work-item, 0.25x (rows) and 0.86x (columns) chunked.) Tests patch
    this to run the other plan."""
    return runtime(place).info.form != "gpu"


def _grouped(place: CLPlace) -> bool:
    """Row kernels whose tasks go to work-groups walking them interleaved (stages ``group`` and
    ``groups``) in the ``item`` form (CPU runtimes that vectorise across work-items; on Intel's,
    on a Zen 4, 0.8-1.2x the copy bandwidth where a contiguous chunk per work-item in groups of
    16 measured 0.3x). Only for sums and products of dense inputs (``_dense``) over the trailing
    axes: strided inputs (a division per element) and max/argmax measured slower in that form
    than chunked. Tests patch this to run that form on any device."""
    return runtime(place).info.form == "item"


def _dense(inputs: Sequence[Input], shape: tuple[int, ...]) -> bool:
    """Whether every input, broadcast to ``shape``, is C-contiguous or a single element."""
    for t in inputs:
        d = t.dim.broadcast_to(shape)
        if not (d.is_c_contiguous or not any(d.strides)):
            return False
    return True


def _columns_first(inputs: Sequence[Input], shape: tuple[int, ...], axes: tuple[int, ...], m: int) -> bool:
    """Whether the ``inputs``' innermost axis in memory (smallest non-zero stride) is a kept axis:
    then a column kernel reads neighbouring outputs together instead of walking columns."""
    if m < MIN_COLUMNS or not axes:
        return False
    best: tuple[int, int] | None = None
    for t in inputs:
        for a, (st, size) in enumerate(zip(t.dim.broadcast_to(shape).strides, shape)):
            if size > 1 and st and (best is None or abs(st) < best[0]):
                best = (abs(st), a)
    return best is not None and best[1] not in axes


def _target(place: CLPlace, count: int, dtype: np.dtype) -> Input:
    return Input(allocate(place, count * dtype.itemsize), Dim.trusted((count,)), dtype)


@dataclass
class _Space:
    """A stream's scratch: ``counters`` zeroed int32 counters, then room for partial results;
    ``views`` caches the scratch targets by layout."""

    alloc: Any
    counters: int
    nbytes: int
    views: dict = field(default_factory=dict)


_spaces: weakref.WeakKeyDictionary[sched.Stream, _Space] = weakref.WeakKeyDictionary()
_ALIGN = 64


def _up(n: int) -> int:
    return -(-n // _ALIGN) * _ALIGN


def _scratch(place: CLPlace, counters: int, partials: int, acc: np.dtype, arg: bool) -> list[Input]:
    """Scratch outputs of a one-launch kernel: partial values, partial indices (arg reductions)
    and ``counters`` int32 counters, in the current stream's scratch allocation.

    Kernels of one stream run in order and each leaves its counters at zero, so the stream's
    scratch is reused without a fill; it is zero-filled (on the stream) only when it grows."""
    stream = sched.current_stream(place)
    space = _spaces.get(stream)
    key = (counters, partials, acc, arg)
    if space is not None and key in space.views:
        return space.views[key]
    vbytes, ibytes = _up(partials * acc.itemsize), partials * 8 if arg else 0
    old_c, old_b = (space.counters, space.nbytes) if space else (0, 0)
    if space is None or counters > old_c or old_b < _up(4 * old_c) + vbytes + ibytes:
        ncount = max(old_c, 4096) if counters <= old_c else max(counters, 2 * old_c)
        cbytes = _up(4 * ncount)
        nbytes = max(cbytes + vbytes + ibytes, 1 << 16, 2 * old_b)
        with sched.suspended():  # the stream's scratch outlives a da.jit trace: made for real
            alloc = allocate(place, nbytes)
            buffer = alloc.buffer
            assert buffer is not None  # at least 64 KiB
            sched.launch("reduce_scratch", lambda q, wf: cl.enqueue_fill_buffer(
                q, buffer, np.zeros(1, np.uint32), alloc.offset, cbytes, wait_for=wf),
                place=place, writes=[alloc], stream=stream, nbytes=cbytes)
        space = _spaces[stream] = _Space(alloc, ncount, nbytes)
    base = _up(4 * space.counters)
    out = [Input(space.alloc, Dim.contiguous((partials,), base // acc.itemsize), acc)]
    if arg:
        out.append(Input(space.alloc, Dim.contiguous((partials,), (base + vbytes) // 8), _INT64))
    out.append(Input(space.alloc, Dim.trusted((counters,)), _INT32))
    if len(space.views) >= 64:
        space.views.clear()
    space.views[key] = out
    return out


_columns: dict[tuple, tuple[bool, bool]] = {}  # (trace key, shape, axes) -> (_columns_first, _dense)


def reduce(roots: Sequence[Term], shape: tuple[int, ...], axes: tuple[int, ...], op: str, acc: np.dtype,
           out: np.dtype, place: CLPlace, *, divisor: int | None = None, values: bool = False) -> Any:
    """Reduce ``roots[0]`` (of ``shape``) over ``axes`` in one launch; returns the allocation of the
    results in C order over the kept axes (dtype ``out``; int64 indices for argmax/argmin, or their
    values, of dtype ``acc``, if ``values``), divided by ``divisor`` if given (a mean). The plan: one
    column kernel or one row kernel on CPU devices, one tree kernel on GPUs (see the module
    docstring). A reduction stores none of the values below ``roots`` that live arrays hold
    (``evaluate.decisions``: it has no room for them, and its own argument, a live array while it
    runs, would cost a pass and a launch of its own)."""
    kept = tuple(a for a in range(len(shape)) if a not in axes)
    m = prod(shape[a] for a in kept)
    k = prod(shape[a] for a in axes)
    arg = op in ("argmax", "argmin")
    axes = tuple(axes)
    tr = fuse.trace(roots)
    ckey = (tr.key, shape, axes)
    form = _columns.get(ckey)
    if form is None:
        if len(_columns) >= 4096:
            _columns.clear()
        form = _columns[ckey] = (_columns_first(tr.inputs, shape, axes, m), _dense(tr.inputs, shape))
    columns, dense = form
    mean = divisor is not None
    if _chunked(place):
        perm, parts, counters, work, red = _cpu_plan(place, m, k, columns, kept, axes, op, acc, mean, dense)
    else:
        perm, parts, counters, work, red = _gpu_plan(place, m, k, columns, kept, axes, op, acc, mean)
    results = [_target(place, m, acc if arg else out)] + ([_target(place, m, _INT64)] if arg else [])
    one_pass = red.stage in ("first", "group", "tree")  # the others finish their partials in the launch
    scratch = [] if one_pass else _scratch(place, counters, m * parts, acc, arg)
    execute.run(roots, results + scratch, place, "mean" if mean else op, shape=shape, perm=perm,
                reduce=red, work=work, extra=(k, parts) + ((float(divisor),) if divisor is not None else ()), traced=tr)
    return results[0 if values else -1].alloc


@lru_cache(maxsize=1024)
def _cpu_plan(place: CLPlace, m: int, k: int, columns: bool, kept: tuple[int, ...], axes: tuple[int, ...],
              op: str, acc: np.dtype, mean: bool,
              dense: bool = False) -> tuple[tuple[int, ...], int, int, int, Reduction]:
    """(perm, parts, counters, work, Reduction) of a CPU reduction (see the module docstring);
    ``dense``: the inputs are C-contiguous or single elements (the group form may apply)."""
    info = runtime(place).info
    if columns:
        stripes = -(-m // COLUMNS)
        parts = max(1, min(max(-(-TASKS * info.compute_units // stripes), -(-k // MAX_BAND)), k // MIN_BAND))
        work = stripes * parts * execute.local_size(place)  # one task per work-group
        return tuple(sorted(axes)) + kept, parts, stripes, work, Reduction(op, acc, "columns", mean, True)
    parts = partitions(place, m, k)
    trailing = kept + axes == tuple(range(len(kept) + len(axes)))
    summing = op in GROUP_OPS or user.get(op) is not None  # a user fold is planned as sum
    if _grouped(place) and dense and trailing and summing and k >= parts * GROUP * GROUP_ROWS:
        work = m * parts * execute.local_size(place)  # one task per work-group
        return kept + axes, parts, m, work, Reduction(op, acc, "group" if parts == 1 else "groups", mean, False)
    return kept + axes, parts, m, m * parts, Reduction(op, acc, "first" if parts == 1 else "rows", mean, True)


@lru_cache(maxsize=1024)
def _gpu_plan(place: CLPlace, m: int, k: int, columns: bool, kept: tuple[int, ...], axes: tuple[int, ...],
              op: str, acc: np.dtype, mean: bool) -> tuple[tuple[int, ...], int, int, int, Reduction]:
    """(perm, parts, counters, work, Reduction) of a GPU tree reduction (see the module docstring)."""
    group = execute.local_size(place)
    team = 1
    if not columns:
        while team < group and team * PER_LANE < k:
            team *= 2
        while group % team:
            team //= 2
    lanes = max(4096, runtime(place).info.compute_units * GPU_LANES)
    parts = max(1, min(-(-lanes // (team * max(m, 1))), k // (team * MIN_LANE)))
    teams = group // team
    groups = max(1, min(-(-lanes // group), -(-m * parts // teams)))
    red = Reduction(op, acc, "tree" if parts == 1 else "trees", mean, False, group, team)
    return kept + axes, parts, m if parts > 1 else 0, groups * group, red
