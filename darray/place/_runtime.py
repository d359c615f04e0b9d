"""Per-device runtime: context, device facts and program cache, created on first use."""
from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from functools import cached_property

import numpy as np
import pyopencl as cl

from ..errors import cl_errors
from . import _discovery, _probe
from ._places import CLPlace, Place, PlaceLike, _local, parse
from ._programs import ProgramCache


class Runtime:
    """Everything darray holds for one OpenCL device."""

    def __init__(self, place: CLPlace) -> None:
        devs = _discovery.found()
        if place.index >= len(devs):
            raise ValueError(f"darray place: no OpenCL device {place}; {len(devs)} device(s) found")
        self.place = place
        self.info, self.device = devs[place.index]
        _probe.require(self.info, self.device)
        with cl_errors(f"creating a context on {place}"):
            self.context = cl.Context([self.device])
        self.programs = ProgramCache(self.context, self.device, self.info.ident)
        self.lock = threading.Lock()  # guards kernel argument setting + enqueue

    @cached_property
    def host_backed(self) -> bool:
        """Whether a buffer made over host memory (``CL_MEM_USE_HOST_PTR``) is that memory, so the
        host may read and write it directly between commands. Checked once, on CPU devices only:
        a device copy inside such a buffer must show in the host array with no map (a runtime
        that keeps its own copy fails). ``DARRAY_HOST_BACKED=0`` turns it off."""
        if self.info.type != "CPU" or os.environ.get("DARRAY_HOST_BACKED") == "0":
            return False
        host = page_aligned(8192)
        host[:4096] = np.arange(4096) % 251
        host[4096:] = 0
        try:
            buf = cl.Buffer(self.context, cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR, hostbuf=host)
            queue = cl.CommandQueue(self.context, self.device)
            cl.enqueue_copy(queue, buf, buf, byte_count=4096, src_offset=0, dst_offset=4096).wait()
            queue.finish()
            buf.release()
        except cl.Error:
            return False
        return bool(np.array_equal(host[4096:], host[:4096]))

    def new_queue(self) -> cl.CommandQueue:
        with cl_errors(f"creating a queue on {self.place}"):
            return cl.CommandQueue(self.context, self.device, properties=cl.command_queue_properties.PROFILING_ENABLE)


def page_aligned(nbytes: int) -> np.ndarray:
    """``nbytes`` of uninitialised host memory starting on a 4 KiB boundary (CPU runtimes use such
    memory for a buffer without copying; Intel's requires the alignment)."""
    raw = np.empty(nbytes + 4096, np.uint8)
    skip = -raw.ctypes.data % 4096
    return raw[skip:skip + nbytes]


_runtimes: dict[CLPlace, Runtime] = {}
_lock = threading.Lock()


def runtime(place: CLPlace) -> Runtime:
    """The runtime of ``place``, created (OpenCL initialised) on first use."""
    rt = _runtimes.get(place)
    if rt is None:
        with _lock:
            rt = _runtimes.get(place)
            if rt is None:
                rt = _runtimes[place] = Runtime(place)
    return rt


def runtimes() -> list[Runtime]:
    """The runtimes created so far."""
    return list(_runtimes.values())


@contextlib.contextmanager
def use(place: PlaceLike) -> Iterator[Place]:
    """Make ``place`` current in this thread for the block; restored on exit, also on exceptions."""
    p = parse(place)
    if isinstance(p, CLPlace):
        runtime(p)  # fail early for an index that does not exist
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    stack.append(p)
    try:
        yield p
    finally:
        stack.pop()
