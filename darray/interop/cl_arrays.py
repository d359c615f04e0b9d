"""pyopencl arrays over darray's buffers.

- ``x.to_pyopencl()`` lends ``x``'s buffer to a ``pyopencl.array.Array`` (no copy) on the queue
  of darray's current stream: its ``events`` carry darray's pending work on ``x``, and what
  pyopencl enqueues on that queue runs in order with darray's later work on the stream.
- ``da.from_pyopencl(a)`` (and ``da.asarray(a)``) wraps a pyopencl array of darray's context as
  a DArray (no copy); darray's first command on it waits for everything enqueued on ``a.queue``
  so far. Handing back an array that ``to_pyopencl`` lent gives the lender's memory record.

Either way the memory is shared from then on: every darray command on it (kernels, copies, host
reads and writes) first waits for what pyopencl has enqueued on the array's queue by then
(``sched.share``), and darray's host engine computes over it through maps, not at once. darray's
own work is on its streams: synchronize (``da.synchronize()``) before pyopencl reads what darray
wrote from another queue. An array of another
  context cannot share memory: ``from_pyopencl`` raises, ``asarray`` copies through the host.
"""
from __future__ import annotations

import weakref
from typing import Any, cast

import numpy as np
import pyopencl as cl
import pyopencl.array as cla

from .. import sched
from .._array import DArray
from ..alloc import Allocation
from ..dim import Dim
from ..place import CLPlace, parse
from ..place._runtime import runtimes
from ..transfer.convert import adopt, from_numpy

__all__ = ["from_pyopencl", "to_pyopencl"]


# (buffer handle, byte offset) of each array lent by to_pyopencl -> the lender's allocation
_lent: weakref.WeakValueDictionary[tuple[int, int], Allocation] = weakref.WeakValueDictionary()


def to_pyopencl(x: DArray) -> cla.Array:
    """A ``pyopencl.array.Array`` sharing ``x``'s memory (see the module docstring); ``x`` must be
    on an OpenCL place (ValueError naming the place otherwise)."""
    place = x.place
    if not isinstance(place, CLPlace):
        raise ValueError(f"darray to_pyopencl: the array is on {place}, not on an OpenCL device")
    alloc = x._data()
    stream = sched.current_stream(place)
    if alloc.buffer is None:  # an empty array has no memory: pyopencl's own empty array
        return cla.empty(stream.queue, x.shape, x.dtype)
    entry = sched.launch("to_pyopencl", lambda q, wait_for: cl.enqueue_marker(q, wait_for=wait_for),
                         place=place, writes=[alloc], stream=stream)
    offset = alloc.offset + x._dim.offset * x.itemsize
    _lent[(alloc.buffer.int_ptr, offset)] = alloc
    _shared(alloc, stream.queue)
    return cla.Array(stream.queue, x.shape, x.dtype, data=alloc.buffer, offset=offset, strides=x.strides,
                     events=[entry[2]])


def _shared(alloc: Allocation, queue: cl.CommandQueue) -> None:
    """``alloc`` as memory pyopencl writes too: darray's host engine leaves it alone (its memory is
    reached through maps, ordered by the scheduler) and every darray command on it comes after
    what pyopencl enqueued on ``queue`` by then (``sched.share``)."""
    alloc.host = alloc.view = None
    sched.share(alloc, queue)


def _place_of(context: cl.Context | None) -> CLPlace | None:
    """darray's place whose context is ``context``, if any (a context darray made is open)."""
    return next((rt.place for rt in runtimes() if rt.context == context), None)


def from_pyopencl(a: cla.Array) -> DArray:
    """A DArray sharing the memory of the pyopencl array ``a`` (see the module docstring).

    ValueError when ``a`` lives in a context that is not darray's (copy with ``da.asarray``)
    or has strides or an offset that are not whole elements."""
    place = _place_of(a.context)
    if place is None:
        raise ValueError("darray from_pyopencl: the array's context is not darray's (make it on "
                         "da.place.runtime(place).context, or copy it with da.asarray)")
    item = a.dtype.itemsize
    if a.offset % item or any(s % item for s in a.strides):
        raise ValueError(f"darray from_pyopencl: offset {a.offset} and strides {a.strides} must be whole "
                         f"elements of {a.dtype}")
    dtype = np.dtype(a.dtype)
    if a.size == 0 or a.base_data is None:
        return from_numpy(np.empty(a.shape, dtype), place)
    data = cast(cl.Buffer, a.base_data)  # not an SVM pointer: darray lends and takes buffers
    alloc = _lent.get((data.int_ptr, a.offset))
    if alloc is None:
        alloc = Allocation(None, None, data.size)
        alloc.buffer = data
        offset = a.offset // item
    else:
        offset = (a.offset - alloc.offset) // item
    if a.queue is None:
        raise ValueError("darray from_pyopencl: the array has no queue (darray orders its work after the array's)")
    _shared(alloc, a.queue)
    return DArray(alloc, Dim(tuple(a.shape), tuple(s // item for s in a.strides), offset), dtype, place)


def pyopencl_to_darray(a: cla.Array, device: Any, copy: bool | None) -> DArray:
    """``da.asarray`` of a pyopencl array: shared when it is in darray's context on ``device``
    (or ``device`` is None), else a host copy onto ``device`` (ValueError with ``copy=False``)."""
    place = _place_of(a.context)
    if place is not None and (device is None or parse(device) == place):
        return from_pyopencl(a)
    if copy is False:
        raise ValueError("darray asarray: copy=False but the pyopencl array is not in darray's context "
                         "on that device")
    return from_numpy(a.get(), parse(device))


adopt(cla.Array, pyopencl_to_darray)  # ``da.asarray`` takes pyopencl arrays through this module
