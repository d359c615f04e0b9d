"""Masks and ``nonzero``: the set elements of a mask in C order (compaction kernels of ``index.cl``, or
NumPy on host-backed devices), and the index kernels' launcher that ``indexing`` shares."""
from __future__ import annotations

from math import prod
from typing import Any, cast

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..lazy import host
from ..place import CLPlace
from ..transfer.convert import asarray, astype, empty, from_numpy, from_result, input_term
from . import _dispatch as D
from . import elementwise as E
from ._kernel import launch, origin
from .scan import cumulative_sum

__all__ = ["nonzero"]

_RAW = {1: "uchar", 2: "ushort", 4: "uint", 8: "ulong", 16: "ulong2"}
COMPACT_CHUNK = 4096  # mask elements per work-item when compacting (few chunk counts to scan)


def launch_index(name: str, place: CLPlace, itemsize: int, n: int, args: list[Any], reads: list[Any],
            writes: list[Any], ch: int | None = None) -> None:
    """Enqueue entry point ``name`` of ``index.cl`` for elements of ``itemsize`` bytes."""
    launch(name, place, "index.cl", f"-D T={_RAW[itemsize]}", n, args, reads=reads, writes=writes, ch=ch,
           nbytes=n * (itemsize * 2 + 8))


def _compaction(mask: DArray, kernel: str, dtype: np.dtype, args: list[Any], reads: list[Any]) -> DArray:
    """The selected (set) elements of ``mask`` in C order, through ``kernel`` (``compact_values``
    with ``args`` the source, or ``compact_positions``): each work-item counts its chunk of the
    mask, the counts are scanned on the device, one number (the total) is read back, then each
    work-item writes its chunk's elements from where the scan puts them."""
    flat = (mask if mask.dtype == _dt.bool_ else E.apply("not_equal", mask, 0)).reshape(-1)
    if not flat._dim.is_c_contiguous:
        flat = astype(flat, _dt.bool_, copy=True)
    place, n = cast(CLPlace, mask._place), flat.size
    chunks = -(-n // COMPACT_CHUNK)
    counts = empty((chunks,), _dt.int64, place)
    if n:
        (m, m_o), (c, c_o) = origin(flat), origin(counts)
        launch_index("count_chunks", place, 8, n, [m.buffer, m_o, c.buffer, c_o], reads=[m], writes=[c],
                     ch=COMPACT_CHUNK)
    ends = cumulative_sum(counts)
    out = empty((int(ends[-1].item()) if n else 0,), dtype, place)
    if out.size:
        (e, e_o), (d, d_o) = origin(ends), origin(out)
        launch_index(kernel, place, dtype.itemsize, n, [m.buffer, m_o, e.buffer, e_o,
                                                   *args, d.buffer, d_o],
                reads=[m, e, *reads], writes=[d], ch=COMPACT_CHUNK)
    return out


def _select(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return values[mask]


def _compact(x: DArray, mask: DArray) -> DArray:
    """``x[mask]`` for a mask of ``x``'s shape: the selected elements in C order."""
    place = x._place
    assert isinstance(place, CLPlace)
    if host.usable(place, x.size):  # through NumPy: no kernels, no count read back
        return from_result(host.call("compact_values", _select, place, [input_term(x), input_term(mask)]), place)
    src = x.reshape(-1) if x._dim.is_c_contiguous else astype(x, x.dtype, copy=True).reshape(-1)
    s, s_o = origin(src)
    return _compaction(mask, "compact_values", x.dtype, [s.buffer, s_o], [s])


def nonzero(a: Any) -> tuple[DArray, ...]:
    """Indices of the non-zero elements, one int64 array per axis, in C order.

    See also: numpy.nonzero. As NumPy 2, a 0-d input is a ValueError."""
    a = a if isinstance(a, DArray) else asarray(a)
    if a.ndim == 0:
        raise ValueError("darray nonzero: nonzero of a 0-d array is not allowed; use atleast_1d (NumPy 2)")
    return D.implementation("nonzero", a._place)(a)


@D.register("nonzero", "cpu")
def _nonzero_cpu(x: DArray) -> tuple[DArray, ...]:
    """nonzero through NumPy."""
    return tuple(from_numpy(i.astype(np.int64), x._place) for i in np.nonzero(x._host_view()))


@D.register("nonzero", "cl")
def _nonzero_cl(x: DArray) -> tuple[DArray, ...]:
    """The positions of the set elements by compaction, then one coordinate array per axis
    (through NumPy on host-backed devices)."""
    place = cast(CLPlace, x._place)
    if host.usable(place, x.size):
        return tuple(from_result(i.astype(np.int64, copy=False), place)
                     for i in host.call("nonzero", np.nonzero, place, [input_term(x)]))
    pos = _compaction(x, "compact_positions", _dt.int64, [], [])
    if x.ndim == 1:
        return (pos,)
    inner = [prod(x.shape[j + 1:]) for j in range(x.ndim)]
    return tuple((pos // inner[j]) % x.shape[j] for j in range(x.ndim))
