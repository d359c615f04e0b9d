"""Host <-> device copies, all through the scheduler's launch path on the thread's transfer stream."""
from __future__ import annotations

import numpy as np
import pyopencl as cl

from . import sched
from .alloc import Allocation, allocate
from .dim import Dim
from .place import CLPlace


def upload(host: np.ndarray, place: CLPlace) -> Allocation:
    """A new allocation holding a C-contiguous copy of ``host`` (returns once the copy is done)."""
    host = np.ascontiguousarray(host)
    alloc = allocate(place, host.nbytes)
    if host.nbytes:
        entry = sched.launch(
            "host_to_device",
            lambda q, wf: cl.enqueue_copy(q, alloc.buffer, host, dst_offset=alloc.offset, wait_for=wf, is_blocking=False),
            place=place, writes=[alloc], stream=sched.transfer_stream(place), nbytes=host.nbytes)
        sched.wait(entry, "host_to_device")
    return alloc


def read_bytes(alloc: Allocation, place: CLPlace, start: int, nbytes: int) -> np.ndarray:
    """``nbytes`` bytes of ``alloc`` from byte ``start``, after its last write completed."""
    out = np.empty(nbytes, np.uint8)
    if nbytes:
        entry = sched.launch(
            "device_to_host",
            lambda q, wf: cl.enqueue_copy(q, out, alloc.buffer, src_offset=alloc.offset + start, wait_for=wf,
                                          is_blocking=False),
            place=place, reads=[alloc], stream=sched.transfer_stream(place), nbytes=nbytes)
        sched.wait(entry, "device_to_host")
    return out


def download(alloc: Allocation, dim: Dim, dtype: np.dtype, place: CLPlace) -> np.ndarray | None:
    """The view ``dim`` of ``alloc`` as a new NumPy array, or None when a device-side gather
    should run first (a sparse strided view whose span is much larger than its size)."""
    if dim.size == 0:
        return np.empty(dim.shape, dtype)
    lo, hi = dim.span()
    item = dtype.itemsize
    if dim.is_c_contiguous:
        return read_bytes(alloc, place, lo * item, dim.size * item).view(dtype).reshape(dim.shape)
    if hi - lo > 2 * dim.size:
        return None
    raw = read_bytes(alloc, place, lo * item, (hi - lo) * item).view(dtype)
    view = np.lib.stride_tricks.as_strided(raw[dim.offset - lo:], dim.shape, tuple(s * item for s in dim.strides))
    return np.array(view, copy=True)
