"""Host <-> device copies, all through the scheduler (``sched.launch`` on the thread's transfer
stream, or ``sched.run_host``).

On host-backed devices (``Allocation.host``: the buffer is host memory) both directions are a
host copy on the calling thread through ``sched.run_host``, once what the copy depends on has
completed. Elsewhere host-to-device is one write command, and device-to-host goes one of two ways:

- a **read command** (``clEnqueueReadBuffer``), on any device; PoCL's CPU device runs it as
  one ``memcpy`` on one thread, as fast as ``np.copyto`` into an existing array;
- **map + host copy**, on devices whose memory is host memory (``host_unified_memory``: CPU
  devices, integrated GPUs), for reads of ``MAP_MIN`` bytes or more and for sparse strided
  views: the buffer span is mapped (zero-copy), copied on the host (``host_copy``), then
  unmapped. A strided view is copied straight from the mapped span, with no device-side
  gather and no intermediate host buffer. The copy runs on the calling thread: splitting it
  over threads gained at most 1.15x on an idle machine and, as the threads page-fault the
  new array concurrently, took 10-15x longer in some runs.

Map and unmap both go through ``sched.launch`` as reads of the allocation on this thread's
transfer stream: the map waits for the last write, and commands launched later that write
the allocation wait for the unmap, which is enqueued once the host copy is done.

Why the map for large new arrays: NumPy's new arrays of 32 MiB or more are fresh pages
(page faults during the copy), and PoCL's buffers start 128 bytes into a page while NumPy's
arrays start 16 bytes in; a copy into fresh pages whose offset in the page differs from the
source's runs at about 0.6x the speed of one where it matches. The mapped source tells its
address, so ``download`` places the new array at the same offset modulo the page size; such
an array is a view of a slightly larger byte buffer (``out.base`` is not None, as for any
NumPy view).

On devices whose memory is not host memory (discrete GPUs), a contiguous read of
``staging.STAGE_MIN`` bytes or more into a new array goes into a pinned staging buffer
(``transfer.staging``), which a read command fills by DMA at the link rate, several times faster
than into pageable memory: the new array is that pinned memory itself, whose ``base`` is a
staging lease (not None, and not an ndarray); the buffer goes back to a small per-place pool
when the array and its views are gone. Larger reads than the pool lends, reads into an existing
array (``x.get(out=dst)``) and uploads (``asarray``) of ``STAGE_MIN`` bytes or more go through
staging buffers in chunks of ``CHUNK`` bytes, two buffers taking turns, so the host copy of
one chunk overlaps the transfer of the next (:func:`_staged`); where the pool has no buffer they
fall back to one command on pageable memory.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np
import pyopencl as cl

from .. import sched
from ..alloc import Allocation, allocate
from ..dim import Dim
from ..place import CLPlace, runtime
from ..sched._profile import _active
from . import staging

MAP_MIN = 32 << 20       # bytes: smaller reads use one read command (map + unmap cost 50-100 us more)
CHUNK = 8 << 20          # bytes per step of a staged transfer (two steps in flight: host copy and transfer)
HOST_COPIES = True       # host copies on host-backed devices (tests turn it off to run the command paths)
PAGE = 4096
_BYTES = np.dtype(np.uint8)


def host_copy(dst: np.ndarray, src: np.ndarray) -> None:
    """``np.copyto(dst, src)`` for arrays of one shape and dtype (measured as fast as the C
    library's ``memmove`` from 64 KiB to 64 MiB, and 6x faster for small arrays: no ctypes)."""
    if dst.nbytes:
        np.copyto(dst, src, casting="no")


def aligned_empty(nbytes: int, like: int) -> np.ndarray:
    """A new 1-D uint8 array of ``nbytes`` whose address equals ``like`` modulo the page size."""
    raw = np.empty(nbytes + PAGE, np.uint8)
    off = (like - raw.ctypes.data) % PAGE
    return raw[off:off + nbytes]


def _unified(place: CLPlace) -> bool:
    return runtime(place).info.host_unified_memory


_FLAGS = {"read": cl.map_flags.READ, "write": cl.map_flags.WRITE_INVALIDATE_REGION,
          "update": cl.map_flags.READ | cl.map_flags.WRITE}


class Mapped:
    """``with Mapped(alloc, place, start, nbytes) as host:`` maps ``nbytes`` of ``alloc`` from byte
    ``start`` as a uint8 array through the scheduler (the map waits for what it depends on; the unmap
    on exit orders later commands after the host's use). ``access``: "read", "write" (the old contents
    are not kept) or "update"; ``stream``: default the place's transfer stream. The one way darray
    maps a buffer (device-to-host copies, NumPy over buffers without host memory of their own)."""

    __slots__ = ("alloc", "place", "start", "nbytes", "access", "stream", "host")

    def __init__(self, alloc: Allocation, place: CLPlace, start: int, nbytes: int, access: str = "read",
                 stream: sched.Stream | None = None) -> None:
        self.alloc, self.place, self.start, self.nbytes, self.access = alloc, place, start, nbytes, access
        self.stream = sched.transfer_stream(place) if stream is None else stream
        self.host: np.ndarray | None = None

    def _rw(self) -> dict[str, list[Allocation]]:
        return {"reads": [self.alloc]} if self.access == "read" else {"writes": [self.alloc]}

    def __enter__(self) -> np.ndarray:
        alloc, buffer, flags = self.alloc, self.alloc.buffer, _FLAGS[self.access]
        assert buffer is not None  # a mapped span is never empty

        def enqueue(q: cl.CommandQueue, wf: list[cl.Event] | None) -> cl.Event:
            mapped = cl.enqueue_map_buffer(q, buffer, cast(cl.map_flags, flags), alloc.offset + self.start,
                                           (self.nbytes,), _BYTES, wait_for=wf, is_blocking=False)
            # pyopencl's stub says it returns the array; it returns (array, event)
            self.host, ev = cast("tuple[np.ndarray, cl.Event]", mapped)
            return ev

        name = "device_to_host" if self.access == "read" else "map"
        entry = sched.launch(name, enqueue, place=self.place, stream=self.stream, nbytes=self.nbytes, **self._rw())
        sched.wait(entry, name)
        assert self.host is not None  # set by enqueue
        return self.host

    def __exit__(self, *exc: object) -> None:
        assert self.host is not None  # set by __enter__
        mapping = cast(cl.MemoryMap, self.host.base)  # a mapped array is a view of its MemoryMap
        self.host = None
        sched.launch("unmap", lambda q, wf: mapping.release(q, wait_for=wf), place=self.place, stream=self.stream,
                     nbytes=self.nbytes, **self._rw())


def _in_host(alloc: Allocation, place: CLPlace, fn: Callable[[], None], *, write: bool) -> None:
    """Run ``fn()``, a host copy out of (``write`` False) or into the host memory of ``alloc``,
    once every command it depends on has completed (waiting for them as needed)."""
    if not _active and sched.settled((alloc,), write) and sched.capturing() is None:  # nothing to wait for
        fn()  # (and no profile to list it, no trace to refuse it): at once
        return
    name, reads, writes = ("host_to_device", [], [alloc]) if write else ("device_to_host", [alloc], [])
    sched.run_host(name, fn, place=place, reads=reads, writes=writes, nbytes=alloc.nbytes)


def _host_bytes(alloc: Allocation, start: int, nbytes: int) -> np.ndarray:
    """``nbytes`` of a host-backed allocation from byte ``start``, as a uint8 array."""
    host = alloc.host
    assert host is not None  # host-backed
    return host[alloc.offset + start:alloc.offset + start + nbytes]


def upload(host: np.ndarray, place: CLPlace) -> Allocation:
    """A new allocation holding a C-contiguous copy of ``host`` (returns once the copy is done)."""
    host = np.ascontiguousarray(host)
    alloc = allocate(place, host.nbytes)
    rec = sched.capturing()
    if rec is not None:  # a constant of a function da.jit traces: copied in at each replay
        if host.nbytes:
            rec.upload(alloc, host)
    elif host.nbytes and alloc.host is not None and HOST_COPIES:
        dst = _host_bytes(alloc, 0, host.nbytes)
        if alloc.write is not None or alloc.reads or _active:  # commands pending (guard fills, earlier owners)
            _in_host(alloc, place, lambda: host_copy(dst, host.reshape(-1).view(np.uint8)), write=True)
        else:  # a new allocation nothing is pending on, and no other thread can reach yet
            host_copy(dst, host.reshape(-1).view(np.uint8))
    elif host.nbytes >= staging.STAGE_MIN and not _unified(place) and \
            _staged(host.reshape(-1).view(np.uint8), alloc, place, 0, write=True):
        pass
    elif host.nbytes:
        sched.wait(_copy_command(alloc, place, host, 0, write=True), "host_to_device")
    return alloc


def _read_into(dst: np.ndarray, alloc: Allocation, place: CLPlace, start: int) -> None:
    """Fill the C-contiguous ``dst`` with its size in bytes of ``alloc`` from byte ``start``."""
    sched.wait(_copy_command(alloc, place, dst, start, write=False), "device_to_host")


def _copy_command(alloc: Allocation, place: CLPlace, host: np.ndarray, start: int, *, write: bool) -> sched.Entry:
    """Enqueue (without waiting) a copy between the C-contiguous ``host`` and the bytes of
    ``alloc`` from byte ``start``, on this thread's transfer stream."""
    buffer = alloc.buffer
    assert buffer is not None  # not empty
    at = alloc.offset + start
    if write:
        return sched.launch("host_to_device", lambda q, wf: cl.enqueue_copy(q, buffer, host, dst_offset=at, wait_for=wf,
                                                                          is_blocking=False),
                            place=place, writes=[alloc], stream=sched.transfer_stream(place), nbytes=host.nbytes)
    return sched.launch("device_to_host", lambda q, wf: cl.enqueue_copy(q, host, buffer, src_offset=at, wait_for=wf,
                                                                      is_blocking=False),
                        place=place, reads=[alloc], stream=sched.transfer_stream(place), nbytes=host.nbytes)


def _staged(host: np.ndarray, alloc: Allocation, place: CLPlace, start: int, *, write: bool) -> bool:
    """Copy the uint8 array ``host`` into (``write``) or out of the bytes of ``alloc`` from byte
    ``start`` through pinned staging buffers, ``CHUNK`` bytes at a time: two buffers take turns,
    so the host copy of one chunk overlaps the transfer of the other. Returns once done; False,
    with nothing done, when the pool lends no buffer."""
    nbytes = host.nbytes
    step = min(nbytes, CHUNK)
    pool = staging.pool(place)
    bufs = []
    for _ in range(2 if nbytes > step else 1):
        b = pool.take(step)
        if b is None:
            break
        bufs.append(b)
    if not bufs:
        return False
    starts = range(0, nbytes, step)
    pending: list[sched.Entry | None] = [None] * len(bufs)

    def stage(k: int) -> np.ndarray:  # chunk k's part of its staging buffer
        return bufs[k % len(bufs)].host[:min(step, nbytes - starts[k])]

    def command(k: int) -> None:
        pending[k % len(bufs)] = _copy_command(alloc, place, stage(k), start + starts[k], write=write)

    try:
        if not write:
            command(0)
        for k, at in enumerate(starts):
            j = k % len(bufs)
            if write:
                sched.wait(pending[j], "host_to_device")  # the buffer's previous chunk is on the device
                host_copy(stage(k), host[at:at + step])
                command(k)
                continue
            if k + 1 < len(starts) and len(bufs) > 1:
                command(k + 1)  # the other buffer's chunk was copied out in the previous step
            sched.wait(pending[j], "device_to_host")
            pending[j] = None
            host_copy(host[at:at + step], stage(k))
            if k + 1 < len(starts) and len(bufs) == 1:
                command(k + 1)
    finally:
        try:
            for e in pending:
                sched.wait(e, "staged transfer")
        finally:
            for b in bufs:
                pool.put(b)
    return True


def _strided(raw: np.ndarray, dim: Dim, dtype: np.dtype, lo: int) -> np.ndarray:
    """The view ``dim`` of the elements ``[lo, ...)`` held by the uint8 array ``raw``."""
    item = dtype.itemsize
    return np.lib.stride_tricks.as_strided(raw[(dim.offset - lo) * item:].view(dtype), dim.shape,
                                           tuple(s * item for s in dim.strides), writeable=False)


def download(alloc: Allocation, dim: Dim, dtype: np.dtype, place: CLPlace,
             out: np.ndarray | None = None) -> np.ndarray | None:
    """The view ``dim`` of ``alloc`` copied into ``out`` (a C-contiguous array of its shape and
    dtype) or a new NumPy array; None when a device-side gather should run first (a sparse
    strided view, much larger in span than in size, on a device that cannot map it)."""
    if dim.size == 0:
        return np.empty(dim.shape, dtype) if out is None else out
    lo, hi = dim.span()
    item = dtype.itemsize
    contiguous = dim.is_c_contiguous
    nbytes = dim.size * item
    sparse = hi - lo > 2 * dim.size
    if alloc.host is not None and HOST_COPIES:
        raw = _host_bytes(alloc, lo * item, (hi - lo) * item)
        if out is None:
            out = (aligned_empty(nbytes, raw.ctypes.data).view(dtype).reshape(dim.shape)
                   if contiguous and nbytes >= MAP_MIN else np.empty(dim.shape, dtype))
        src = raw.view(dtype).reshape(dim.shape) if contiguous else _strided(raw, dim, dtype, lo)
        dst = out
        _in_host(alloc, place, lambda: host_copy(dst, src), write=False)
        return dst
    if (nbytes >= MAP_MIN or sparse) and _unified(place):
        with Mapped(alloc, place, lo * item, (hi - lo) * item) as raw:
            if out is None:
                out = (aligned_empty(nbytes, raw.ctypes.data).view(dtype).reshape(dim.shape) if contiguous
                       else np.empty(dim.shape, dtype))
            host_copy(out, _strided(raw, dim, dtype, lo))
        return out
    stage = nbytes >= staging.STAGE_MIN and not _unified(place)
    if contiguous:
        if out is None and stage:
            staged = staging.read_new(dim.shape, dtype, place, lambda dst: _read_into(dst, alloc, place, lo * item))
            if staged is not None:
                return staged
        if out is None:
            out = np.empty(dim.shape, dtype)
        if not (stage and _staged(out.reshape(-1).view(np.uint8), alloc, place, lo * item, write=False)):
            _read_into(out, alloc, place, lo * item)
        return out
    if sparse:
        return None
    span = (hi - lo) * item
    pinned = staging.read_new((span,), _BYTES, place, lambda dst: _read_into(dst, alloc, place, lo * item)) \
        if stage else None
    raw = np.empty(span, np.uint8) if pinned is None else pinned
    if pinned is None:
        _read_into(raw, alloc, place, lo * item)
    view = _strided(raw, dim, dtype, lo)
    if out is None:
        return np.array(view, copy=True)
    np.copyto(out, view)
    return out


def check_out(shape: tuple[int, ...], dtype: np.dtype, out: object) -> None:
    """Whether ``out`` can receive ``x.get(out=out)``: a writable C-contiguous NumPy array of
    ``shape`` and ``dtype`` (TypeError for another type or dtype, ValueError otherwise)."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"darray get: out must be a numpy.ndarray, got {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"darray get: out has dtype {out.dtype} but the array has dtype {dtype}")
    if out.shape != shape:
        raise ValueError(f"darray get: out has shape {out.shape} but the array has shape {shape}")
    if not out.flags.c_contiguous:
        raise ValueError("darray get: out must be C-contiguous")
    if not out.flags.writeable:
        raise ValueError("darray get: out is read-only")
