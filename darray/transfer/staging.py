"""Pinned staging buffers: transfers between host and device at the link rate (issues 19, 29).

On a discrete GPU a read command into pageable memory is staged by the driver (2.6 GB/s on
an H100); into pinned memory it runs as DMA at the link rate. ``read_new`` reads into a
pinned buffer (``ALLOC_HOST_PTR``, mapped once and kept mapped) and returns that memory
itself as the new array: a copy into fresh pageable pages would cost as much as the read.
The array's base is a ``_Lease`` (its ``__array_interface__`` is the mapping); when the
last view of the array is gone the buffer goes back to its place's pool. Uploads and reads into
existing arrays borrow buffers with ``take`` and ``put`` for the length of one transfer
(``copies._staged``: chunks through two buffers taking turns, issue 29).

Pinning is slow (on an H100, pinning and mapping 64 MiB took 31 ms, the pageable read of
it 20 ms and the pinned one 1.3 ms), so buffers are kept for reuse, and a buffer is pinned
only where the pool can keep it: sizes are powers of two of at least ``BUFFER_MIN``, a
place holds at most ``POOL_BYTES`` of staging buffers, lent out or kept (the oldest kept
ones are unmapped and freed to make room), and keeps at most ``POOL_COUNT`` once returned.
A read that would pass ``POOL_BYTES`` (a large one, or one among many arrays kept alive),
or whose pinning fails, gets None from ``read_new`` and goes into pageable memory.

Buffers come back through a finalizer, which may run on any thread or inside a garbage
collection that interrupted the pool itself: it only appends to a deque, and whoever holds
the pool's lock next settles what came back. Staging buffers are host memory, outside the
device allocator's pool and limit; ``da.alloc.empty_cache`` frees the kept ones too. At exit the
kept buffers are unmapped before the scheduler drains its queues; buffers still lent out then are
left to the interpreter.
"""
from __future__ import annotations

import atexit
import collections
import math
import threading
import weakref
from collections.abc import Callable
from typing import cast

import numpy as np
import pyopencl as cl

from ..place import CLPlace, runtime

STAGE_MIN = 1 << 20      # bytes: smaller reads go to pageable memory (on an H100 a pinned read saved 130 us at 1 MiB)
BUFFER_MIN = 1 << 20     # bytes: the smallest staging buffer
POOL_COUNT = 4           # staging buffers kept per place once returned
POOL_BYTES = 256 << 20   # bytes of staging buffers per place, lent out or kept


class _Staging:
    """One pinned buffer, mapped for reading and writing for as long as it lives."""

    __slots__ = ("buffer", "host", "nbytes", "address")

    def __init__(self, buffer: cl.Buffer, host: np.ndarray) -> None:
        self.buffer, self.host, self.nbytes, self.address = buffer, host, host.nbytes, host.ctypes.data

    def free(self, queue: cl.CommandQueue) -> None:
        mapping = cast(cl.MemoryMap, self.host.base)  # a mapped array's base is its mapping
        self.host = None  # type: ignore[assignment]
        mapping.release(queue).wait()
        self.buffer.release()


class _Pool:
    """The staging buffers of one place: ``take`` lends one, ``put`` (any thread) returns it."""

    def __init__(self, place: CLPlace) -> None:
        self.place = place
        self.lock = threading.Lock()
        self.free: list[_Staging] = []          # released buffers, oldest first
        self.returned: collections.deque[_Staging] = collections.deque()  # put() but not yet settled
        self.queue: cl.CommandQueue | None = None
        self.leased = 0                         # bytes lent out (returned ones included until settled)
        self.created = self.reused = self.freed = 0
        self.closed = False

    def take(self, nbytes: int) -> _Staging | None:
        """A staging buffer of at least ``nbytes`` (at most 4x the size it needs), or None."""
        size = max(BUFFER_MIN, 1 << (nbytes - 1).bit_length())
        with self.lock:
            self._settle()
            fits = [s for s in self.free if size <= s.nbytes <= 4 * size]
            staging: _Staging | None
            if fits:
                staging = min(fits, key=lambda s: s.nbytes)
                self.free.remove(staging)
                self.reused += 1
            elif self.closed or self.leased + size > POOL_BYTES:
                return None
            else:
                while self.free and self.leased + sum(s.nbytes for s in self.free) + size > POOL_BYTES:
                    self._free_oldest()
                staging = self._create(size)
                if staging is None:
                    return None
            self.leased += staging.nbytes
            return staging

    def put(self, staging: _Staging) -> None:
        """Give ``staging`` back (a finalizer: no lock, no OpenCL call; the next ``take`` settles it)."""
        self.returned.append(staging)

    def _settle(self) -> None:
        """Move returned buffers to the free list and free the oldest beyond the bounds (lock held)."""
        if not (self.returned or self.closed):
            return
        while self.returned:
            staging = self.returned.popleft()
            self.leased -= staging.nbytes
            self.free.append(staging)
        while self.free and (len(self.free) > POOL_COUNT or sum(s.nbytes for s in self.free) > POOL_BYTES
                             or self.closed):
            self._free_oldest()

    def _free_oldest(self) -> None:
        assert self.queue is not None  # made by the _create of every buffer kept
        self.free.pop(0).free(self.queue)
        self.freed += 1

    def _create(self, size: int) -> _Staging | None:
        rt = runtime(self.place)
        try:
            if self.queue is None:
                self.queue = cl.CommandQueue(rt.context, rt.device)
            buffer = cl.Buffer(rt.context, cl.mem_flags.READ_WRITE | cl.mem_flags.ALLOC_HOST_PTR, size)
            rw = cl.map_flags.READ | cl.map_flags.WRITE
            host, _ = cl.enqueue_map_buffer(self.queue, buffer, rw,  # type: ignore[arg-type]  # stub: one map_flags
                                            0, (size,), np.dtype(np.uint8), is_blocking=True)
        except cl.Error:  # out of pinned memory: the caller reads into pageable memory
            return None
        self.created += 1
        return _Staging(buffer, host)

    def stats(self) -> dict[str, int]:
        with self.lock:
            self._settle()
            return {"free": len(self.free), "free_bytes": sum(s.nbytes for s in self.free),
                    "leased_bytes": self.leased, "created": self.created, "reused": self.reused, "freed": self.freed}

    def trim(self) -> None:
        """Unmap and free the kept buffers (``da.alloc.empty_cache``)."""
        with self.lock:
            self._settle()
            while self.free:
                self._free_oldest()

    def close(self) -> None:
        """Unmap and free the kept buffers; later returns are freed too (at exit)."""
        with self.lock:
            self.closed = True
            self._settle()


_pools: dict[CLPlace, _Pool] = {}
_pools_lock = threading.Lock()


def pool(place: CLPlace) -> _Pool:
    """The staging pool of ``place``, created on first use."""
    p = _pools.get(place)
    if p is None:
        with _pools_lock:
            p = _pools.setdefault(place, _Pool(place))
    return p


def stats(place: CLPlace) -> dict[str, int]:
    """Counters of ``place``'s staging pool: buffers kept (``free``, ``free_bytes``), bytes lent
    out, and buffers created, reused and freed so far."""
    return pool(place).stats()


class _Lease:
    """The base of an array read into a staging buffer: NumPy views the mapping through
    ``__array_interface__``; a finalizer returns the buffer once the lease is gone."""

    __slots__ = ("__array_interface__", "staging", "__weakref__")

    def __init__(self, staging: _Staging, shape: tuple[int, ...], dtype: np.dtype) -> None:
        self.staging = staging
        self.__array_interface__ = {"data": (staging.address, False), "shape": shape,
                                    "typestr": dtype.str, "version": 3}


def read_new(shape: tuple[int, ...], dtype: np.dtype, place: CLPlace,
             read: Callable[[np.ndarray], None]) -> np.ndarray | None:
    """A new writable C-contiguous array of ``shape`` and ``dtype`` in a pinned staging buffer,
    filled by ``read(dst)`` (``dst``: the array's bytes, a uint8 array); None when no staging
    buffer can be had. The buffer goes back to the pool if ``read`` raises."""
    nbytes = math.prod(shape) * dtype.itemsize
    p = pool(place)
    staging = p.take(nbytes)
    if staging is None:
        return None
    try:
        read(staging.host[:nbytes])
    except BaseException:
        p.put(staging)
        raise
    lease = _Lease(staging, shape, dtype)
    weakref.finalize(lease, p.put, staging).atexit = False
    return np.asarray(lease)


def _close_at_exit() -> None:
    """Unmap the kept buffers while the contexts are alive (before ``sched`` drains the queues)."""
    for p in list(_pools.values()):
        try:
            p.close()
        except Exception:  # a device error at exit has nobody left to report to
            pass


atexit.register(_close_at_exit)
