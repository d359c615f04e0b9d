"""einsum and einsum_path, planned as views, sums, transposes, reshapes and matmuls on the device.

Each operand first takes its repeated labels as a diagonal view and sums the labels no other
operand or the output uses; then the operands are contracted two at a time (in the order NumPy's
``einsum_path`` chooses, greedily by size): the labels both keep become a batch axis, the shared
ones a matmul's inner axis, so ``einsum("ij,jk->ik")`` is one matmul and ``"bij,bjk->bik"`` one
batched matmul.
"""
from __future__ import annotations

import math
import string
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..dim import Dim
from ..transfer.convert import asarray
from . import reduction as R
from ._out import finish
from .creation import zeros
from .linalg import matmul
from .manipulation import broadcast_to, reshape, transpose

_LETTERS = set(string.ascii_letters)
_INTERLEAVED = string.ascii_uppercase + string.ascii_lowercase


def _parse(subscripts: str, shapes: list[tuple[int, ...]]) -> tuple[list[str], str]:
    """The labels of each operand and of the output, ellipses spelled out as upper-case-free labels."""
    spec = subscripts.replace(" ", "")
    inputs, arrow, output = spec.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"darray einsum: {len(terms)} operand subscripts for {len(shapes)} operands")
    unused = [c for c in reversed(string.ascii_letters) if c not in spec]
    ell = 0
    for t, s in zip(terms, shapes):
        if "..." in t:
            ell = max(ell, len(s) - (len(t) - 3))
    dots = "".join(unused[:ell])
    labels = []
    for t, s in zip(terms, shapes):
        if "..." in t:
            n = len(s) - (len(t) - 3)
            t = t.replace("...", dots[ell - n:] if n else "")
        if len(t) != len(s) or any(c not in _LETTERS for c in t):
            raise ValueError(f"darray einsum: subscripts {t!r} do not match an operand of {len(s)} dimensions")
        labels.append(t)
    if arrow:
        out = output.replace("...", dots)
        if any(c not in _LETTERS or out.count(c) > 1 for c in out) or any(c not in "".join(labels) for c in out):
            raise ValueError(f"darray einsum: invalid output subscripts {output!r}")
    else:
        joined = "".join(labels)
        out = dots + "".join(sorted(c for c in set(joined) if joined.count(c) == 1 and c not in dots))
    return labels, out


def _diagonal(x: DArray, labels: str) -> tuple[DArray, str]:
    """Repeated labels of one operand as a diagonal view (``"ii"`` of a square matrix: its diagonal)."""
    if len(set(labels)) == len(labels):
        return x, labels
    keep: dict[str, tuple[int, int]] = {}
    for c, n, s in zip(labels, x._dim.shape, x._dim.strides):
        if c in keep:
            if keep[c][0] != n:
                raise ValueError(f"darray einsum: dimensions of repeated label {c!r} differ")
            keep[c] = (n, keep[c][1] + s)
        else:
            keep[c] = (n, s)
    order = "".join(keep)
    dim = Dim(tuple(keep[c][0] for c in order), tuple(keep[c][1] for c in order), x._dim.offset)
    return x._view(dim), order


def _broadcast(work: list[tuple[DArray, str]]) -> list[tuple[DArray, str]]:
    """Each operand broadcast to the common size of each label (NumPy broadcasts a labelled or
    ellipsis dimension of size 1 against the others)."""
    size: dict[str, int] = {}
    for x, la in work:
        for c, n in zip(la, x.shape):
            if size.get(c, 1) not in (1, n) and n != 1:
                raise ValueError(f"darray einsum: operands could not be broadcast together: label {c!r} has "
                                 f"dimensions {size[c]} and {n}")
            size[c] = n if size.get(c, 1) == 1 else size[c]
    return [(x if x.shape == (want := tuple(size[c] for c in la)) else broadcast_to(x, want), la) for x, la in work]


def _sum_private(x: DArray, labels: str, needed: set[str]) -> tuple[DArray, str]:
    drop = tuple(k for k, c in enumerate(labels) if c not in needed)
    if not drop:
        return x, labels
    return R.sum(x, axis=drop, dtype=x.dtype), "".join(c for c in labels if c in needed)


def _contract(a: DArray, la: str, b: DArray, lb: str, keep: set[str]) -> tuple[DArray, str]:
    """``a`` and ``b`` contracted over their shared labels not in ``keep`` (a batched matmul)."""
    batch = [c for c in la if c in lb and c in keep]
    inner = [c for c in la if c in lb and c not in keep]
    free_a = [c for c in la if c not in lb]
    free_b = [c for c in lb if c not in la]
    size = dict(zip(la, a.shape)) | dict(zip(lb, b.shape))

    def n(cs: list[str]) -> int:
        return math.prod(size[c] for c in cs)

    ta = _shaped(_permuted(a, [la.index(c) for c in batch + free_a + inner]), (n(batch), n(free_a), n(inner)))
    tb = _shaped(_permuted(b, [lb.index(c) for c in batch + inner + free_b]), (n(batch), n(inner), n(free_b)))
    prod = matmul(ta, tb)
    labels = batch + free_a + free_b
    return _shaped(prod, tuple(size[c] for c in labels)), "".join(labels)


def _permuted(x: DArray, perm: list[int]) -> DArray:
    """``transpose(x, perm)``, or ``x`` itself for the identity (no call: einsum plans on every call)."""
    return x if perm == list(range(x.ndim)) else transpose(x, perm)


def _shaped(x: DArray, shape: tuple[int, ...]) -> DArray:
    return x if x.shape == shape else reshape(x, shape)


def _operands(operands: tuple[Any, ...]) -> tuple[str, list[Any]]:
    """``(subscripts, arrays)`` from either form: ``einsum("ij,jk", a, b)`` or the interleaved
    ``einsum(a, [0, 1], b, [1, 2], [0, 2])``."""
    if isinstance(operands[0], str):
        return operands[0], list(operands[1:])
    output = operands[-1] if len(operands) % 2 else None
    body = operands[:-1] if output is not None else operands
    arrays, terms = list(body[0::2]), list(body[1::2])

    def text(t: Any) -> str:  # NumPy's letters: 0..25 are A..Z, 26..51 a..z (implicit outputs sort them so)
        return "".join("..." if s is Ellipsis else _INTERLEAVED[int(s)] for s in t)

    spec = ",".join(text(t) for t in terms) + ("" if output is None else "->" + text(output))
    return spec, arrays


def einsum(*operands: Any, out: Any = None, dtype: Any = None, order: str = "K", casting: str = "safe",
           optimize: Any = False) -> DArray:
    """Einstein summation over labelled axes (explicit ``->`` or implicit output, ellipses, repeated
    labels, the interleaved operand form), on the device. One operand whose labels all reach the
    output gives a view of it (transposed, diagonal) in its own dtype whatever ``dtype=`` says, as
    NumPy's. See also: numpy.einsum."""
    spec, arrays = _operands(operands)
    xs = [a if isinstance(a, DArray) else asarray(a) for a in arrays]
    place = next((x.place for x in xs if isinstance(x, DArray)), None)
    xs = [x if x.place == place else asarray(x, device=place) for x in xs]
    labels, out_labels = _parse(spec, [x.shape for x in xs])
    if len(xs) == 1 and out is None and set(labels[0]) == set(out_labels):  # as NumPy: a view, in its own dtype
        x, la = _diagonal(xs[0], labels[0])
        return _permuted(x, [la.index(c) for c in out_labels])
    common = _dt.result_type(*[x.dtype for x in xs]) if dtype is None else _dt.as_dtype(dtype, "einsum")
    for x in xs if dtype is not None else []:
        if not _dt.can_cast(x.dtype, common, casting=casting):
            raise TypeError(f"darray einsum: cannot cast an operand from {x.dtype} to {common} under casting="
                            f"{casting!r}")
    work = _broadcast([_diagonal(x.astype(common, copy=False), la) for x, la in zip(xs, labels)])
    if any(x.size == 0 for x, _ in work):  # every product has an empty factor: a sum of none, 0 (even beside NaN)
        sizes = {c: n for x, la in work for c, n in zip(la, x.shape)}
        return finish("einsum", zeros(tuple(sizes[c] for c in out_labels), dtype=common, device=place), out,
                      casting)
    work = [_sum_private(x, la, set(out_labels).union(*[work[j][1] for j in range(len(work)) if j != k]))
            for k, (x, la) in enumerate(work)]
    while len(work) > 1:  # contract the pair with the smallest result first (a greedy order)
        best = None
        for i in range(len(work)):
            for j in range(i + 1, len(work)):
                rest = set(out_labels).union(*[work[m][1] for m in range(len(work)) if m not in (i, j)])
                keep = {c for c in work[i][1] + work[j][1] if c in rest}
                sizes = dict(zip(work[i][1], work[i][0].shape)) | dict(zip(work[j][1], work[j][0].shape))
                cost = math.prod(sizes[c] for c in keep)
                if best is None or cost < best[0]:
                    best = (cost, i, j, keep)
        assert best is not None
        _, i, j, keep = best
        merged = _contract(work[i][0], work[i][1], work[j][0], work[j][1], keep)
        work = [w for m, w in enumerate(work) if m not in (i, j)] + [merged]
    x, la = _sum_private(*work[0], set(out_labels))
    result = _permuted(x, [la.index(c) for c in out_labels]) if la else x
    return finish("einsum", result, out, casting)


def einsum_path(*operands: Any, optimize: Any = "greedy", einsum_call: bool = False) -> tuple[list[Any], str]:
    """NumPy's contraction order and its report for these operands (computed by NumPy from the shapes
    alone). See also: numpy.einsum_path."""
    if isinstance(operands[0], str):
        stand_ins = [np.broadcast_to(np.zeros((), dtype=getattr(a, "dtype", np.float64)), np.shape(a))
                     if not isinstance(a, DArray) else np.broadcast_to(np.zeros((), a.dtype), a.shape)
                     for a in operands[1:]]
        return np.einsum_path(operands[0], *stand_ins, optimize=optimize)
    spec, arrays = _operands(operands)
    return einsum_path(spec, *arrays, optimize=optimize)


__all__ = ["einsum", "einsum_path"]
