"""The frozen structures between the lazy stages: a kernel's structure, never its sizes.

A :class:`KernelSpec` is what ``fuse`` hands ``render``: operand patterns and dtypes, the
SSA body and the outputs. Shapes, strides, offsets and scalar values are kernel arguments,
so the spec (and the compiled kernel) is shared by every shape and value.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Ref = tuple[str, int]  # ("in", k) input k, ("sc", k) scalar k, ("t", k) body value k


@dataclass(frozen=True, slots=True)
class Operand:
    """An array read or written by a kernel; pattern 'c' contiguous, 's' strided, '0' one element.
    ``per_row``: a strided input whose last axis has stride 0 (broadcast along it, as ``x[:, None]``):
    the tiled form reads its one value per row instead of taking the transposed blocks' path."""

    dtype: np.dtype
    pattern: str
    per_row: bool = False


@dataclass(frozen=True, slots=True)
class Instr:
    """One SSA step: ``t_k = op(args)`` computed in ``dtype``; op ``cast`` converts."""

    op: str
    args: tuple[Ref, ...]
    dtype: np.dtype


@dataclass(frozen=True, slots=True)
class Reduction:
    """How a reduction kernel folds the body's value: ``op`` (sum, prod, max, min, any, all,
    argmax, argmin) in accumulator dtype ``acc``, in the kernel of ``stage`` (CPU devices:
    ``first``, ``rows``, ``columns``, ``group``, ``groups``; GPUs: ``tree``, ``trees``; see
    ``reduce.py``); ``mean`` divides by the count; ``chunked`` gives each work-item a
    contiguous run; the tree kernels give each task a team of ``team`` lanes in work-groups
    of ``group``."""

    op: str
    acc: np.dtype
    stage: str = "first"
    mean: bool = False
    chunked: bool = False  # contiguous chunk per work-item (CPU row and column kernels)
    group: int = 0         # tree kernels (GPUs): work-items per work-group
    team: int = 0          # and lanes per task (a power of two dividing ``group``)

    @property
    def arg(self) -> bool:
        return self.op in ("argmax", "argmin")


@dataclass(frozen=True, slots=True)
class KernelSpec:
    """A kernel over a collapsed index space of ``rank`` dimensions: elementwise, or with
    ``reduce`` set, a reduction whose outputs are indexed by output element, not by ``g``."""

    rank: int
    index: str                                   # 'int' or 'long'
    inputs: tuple[Operand, ...]
    scalars: tuple[np.dtype, ...]
    body: tuple[Instr, ...]
    outputs: tuple[tuple[Operand, Ref], ...]
    reduce: Reduction | None = None

    @property
    def strided(self) -> bool:
        return any(o.pattern == "s" for o in self.operands)

    @property
    def operands(self) -> tuple[Operand, ...]:
        return tuple(o for o, _ in self.outputs) + self.inputs
