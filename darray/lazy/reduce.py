"""Plan and launch reductions over a fused elementwise term (no temporary for the chain).

Outputs ``M`` (product of kept axes) values, each folding ``K`` elements (product of the
reduced axes). When ``M`` alone gives too little parallelism, or ``K`` is long, a pass
writes ``P`` partial results per output (at most ``MAX_CHUNK`` elements each) and the
partials are reduced again by ``combine`` passes, which split only to keep chunks at most
``MAX_CHUNK`` long (so up to ``MAX_CHUNK`` partials per output take one more pass).
Launches are named after the op (``mean`` for a mean), in every pass. On CPU devices a
reduction whose kept axes are innermost in memory (``sum(x, axis=0)``) starts with a
``columns`` pass (see ``reduce_render._render_columns``) with about four work-items per compute
unit; its partial results are laid out ``[P, M]``.
"""
from __future__ import annotations

from math import prod
from typing import Any, Sequence

import numpy as np

from ..alloc import allocate
from ..dim import Dim
from ..place import CLPlace, runtime
from . import execute, fuse
from .graph import Input, Term, walk
from .reduce_render import COLUMNS
from .spec import Reduction

MIN_CHUNK = 16
MIN_COLUMNS = 16  # a "columns" first pass needs at least this many outputs
MAX_CHUNK = 4096
_INT64 = np.dtype(np.int64)


def partitions(place: CLPlace, m: int, k: int, stage: str = "first") -> int:
    """Partial results per output: chunks of at most MAX_CHUNK and (first stage) enough work-items
    to fill the device; every chunk at least MIN_CHUNK long."""
    parts = -(-k // MAX_CHUNK)
    if stage == "first":
        target = max(4096, runtime(place).info.compute_units * 2048)
        parts = max(parts, -(-target // max(m, 1)))
    return max(1, min(parts, k // MIN_CHUNK))


def _chunked(place: CLPlace) -> bool:
    """Chunked kernels (a contiguous run per work-item) on CPU devices; interleaved on others.
    (Tests patch this to run the GPU form on a CPU device.)"""
    return runtime(place).info.type == "CPU"


def _columns_first(roots: Sequence[Term], shape: tuple[int, ...], axes: tuple[int, ...], m: int) -> bool:
    """Whether the inputs' innermost axis in memory (smallest non-zero stride) is a kept axis:
    then a "columns" first pass reads neighbouring outputs together instead of walking columns."""
    if m < MIN_COLUMNS or not axes:
        return False
    best: tuple[int, int] | None = None
    for t in walk(list(roots)):
        if isinstance(t, Input):
            for a, (st, size) in enumerate(zip(t.dim.broadcast_to(shape).strides, shape)):
                if size > 1 and st and (best is None or abs(st) < best[0]):
                    best = (abs(st), a)
    return best is not None and best[1] not in axes


def _target(place: CLPlace, count: int, dtype: np.dtype) -> Input:
    return Input(allocate(place, count * dtype.itemsize), Dim.contiguous((count,)), dtype)


def reduce(roots: Sequence[Term], shape: tuple[int, ...], axes: tuple[int, ...], op: str, acc: np.dtype,
           out: np.dtype, place: CLPlace, expr: Any, *, divisor: int | None = None, stage: str = "first") -> Any:
    """Reduce ``roots[0]`` (of ``shape``) over ``axes``; returns the allocation of the results in C order
    over the kept axes (dtype ``out``; int64 indices for argmax/argmin), divided by ``divisor`` if given
    (a mean). A ``combine`` stage takes partial values (and, for arg reductions, indices) as ``roots``."""
    kept = tuple(a for a in range(len(shape)) if a not in axes)
    m = prod(shape[a] for a in kept)
    k = prod(shape[a] for a in axes)
    arg = op in ("argmax", "argmin")
    chunked = _chunked(place)
    if chunked and stage == "first" and _columns_first(roots, shape, axes, m):
        stage, blocks, perm = "columns", -(-m // COLUMNS), tuple(sorted(axes)) + kept
        parts = max(1, min(-(-4 * runtime(place).info.compute_units // blocks), k // MIN_CHUNK))
    else:
        blocks, perm = m, kept + tuple(axes)
        parts = partitions(place, m, k, stage)
    last = parts == 1
    red = Reduction(op, acc, stage, divisor is not None and last, chunked)
    count = m * parts
    targets = [_target(place, count, acc if arg or not last else out)] + ([_target(place, count, _INT64)] if arg else [])
    plan = fuse.fuse(list(roots), targets, shape=shape, perm=perm, reduce=red)
    execute.launch(plan, place, expr, "mean" if divisor is not None else op, work=blocks * parts,
                   extra=(k, parts) + ((float(divisor),) if red.mean else ()))
    if last:
        return targets[-1].alloc
    grid = Dim.contiguous((m, parts)) if stage != "columns" else Dim.contiguous((parts, m)).transpose((1, 0))
    partial = [Input(t.alloc, grid, t.dtype) for t in targets]
    return reduce(partial, (m, parts), (1,), op, acc, out, place, expr, divisor=divisor, stage="combine")
