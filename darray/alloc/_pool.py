"""Caching allocator for one OpenCL place: 512-byte classes, segments split and merged.

Requests up to ``SMALL_LIMIT`` come from 2 MiB segments of a small pool; larger ones from
segments of their own size (rounded to 2 MiB) in a large pool, split only when the rest is
large too. A freed block keeps the events of the kernels that last touched it; whoever
gets the block next starts from those events, so its first writer waits for them.
Freed blocks are stacked per size class and merged with their neighbours only when a
request finds no stack of its class and no free block large enough (see ``Pool``).
"""
from __future__ import annotations

import bisect
import gc
import itertools
import os
import re
import threading
from typing import TYPE_CHECKING, Any

import numpy as np
import pyopencl as cl

from ..errors import cl_errors
from ..place._runtime import page_aligned
from ..sched._profile import _active, record_allocation
from . import _guard

if TYPE_CHECKING:
    from ..place import Runtime

CLASS = 512
SMALL_LIMIT = 1 << 20
SEGMENT = 2 << 20
_MASK = CLASS - 1

Pending = dict  # stream id -> (stream, seq, event); see darray.sched


def round_class(nbytes: int) -> int:
    return max(CLASS, -(-nbytes // CLASS) * CLASS)


def parse_bytes(text: str) -> int:
    """``"512MB"``, ``"2GiB"``, ``"1000"`` -> bytes (KB/MB/GB are powers of 1024 as well)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b?)\s*", text.lower())
    if not m:
        raise ValueError(f"darray alloc: cannot parse DARRAY_MEMORY_LIMIT={text!r}; use bytes or e.g. '512MB'")
    scale = 1024 ** " kmgt".index(m.group(2) or " ")
    return int(float(m.group(1)) * scale)


class _Segment:
    """One OpenCL buffer of the pool; ``host``: the host memory it is made over (host-backed
    runtimes, see ``Runtime.host_backed``), else None."""

    __slots__ = ("buffer", "size", "large", "host")

    def __init__(self, buffer: cl.Buffer, size: int, large: bool, host: np.ndarray | None) -> None:
        self.buffer, self.size, self.large, self.host = buffer, size, large, host


class _Block:
    """A piece of a segment. ``free``: listed in the pool's sorted free lists (mergeable);
    ``want``: the size class it was last handed out for (its key in the pool's ``cached``)."""

    __slots__ = ("segment", "buffer", "offset", "size", "free", "prev", "next", "pending", "key", "want")
    _ids = itertools.count()

    def __init__(self, segment: _Segment, offset: int, size: int) -> None:
        self.segment, self.buffer, self.offset, self.size = segment, segment.buffer, offset, size
        self.free = False
        self.prev: _Block | None = None
        self.next: _Block | None = None
        self.pending: Pending | None = {}  # None while handed out (the Allocation holds the entries)
        self.key = (size, next(self._ids))
        self.want = size


def merge_pending(a: Pending, b: Pending) -> Pending:
    """Per stream, keep the later of two events (in-order queues: later implies earlier)."""
    if not a:
        return dict(b)
    out = dict(a)
    for sid, entry in b.items():
        have = out.get(sid)
        if have is None or have[1] < entry[1]:
            out[sid] = entry
    return out


class Allocation:
    """A block of device memory handed to one DArray; returned to the pool when dropped.

    ``write``/``reads`` are the scheduler's record of the last write and the reads since;
    ``reads`` starts as the entries the block's previous owners left pending. ``host``: the
    host memory of the whole segment (bytes; the block starts at ``offset``) on host-backed
    runtimes, else None: the host may use it only while no command touching it is pending.
    """

    __slots__ = ("pool", "block", "nbytes", "buffer", "offset", "host", "write", "reads", "__weakref__")

    def __init__(self, pool: "Pool | None", block: _Block | None, nbytes: int) -> None:
        self.pool, self.block, self.nbytes = pool, block, nbytes
        self.write: tuple | None = None
        if block is None:
            self.buffer, self.offset, self.host, self.reads = None, 0, None, {}
        else:
            self.buffer, self.offset, self.reads = block.buffer, block.offset, block.pending
            self.host = block.segment.host
            block.pending = None

    def __del__(self) -> None:
        pool = self.pool
        if pool is not None and self.block is not None:
            try:
                pool.free(self)
            except Exception:  # interpreter shutdown
                pass


class Pool:
    """The caching allocator of one OpenCL place (thread-safe).

    A freed block first goes to ``cached``, a LIFO stack per size class, unmerged: a request
    of that class takes it back in O(1), the common case of a loop that allocates the same
    sizes again. Only a request that no stack serves runs the best-fit search of the sorted
    free lists; when that fails too, every stacked block is merged with its free neighbours
    into the sorted lists (``_flush``) and the search runs again before a segment is added.
    ``empty_cache`` and the out-of-memory path flush as well.
    """

    __slots__ = ("rt", "lock", "deferred", "cached", "free_small", "free_large", "segments", "limit", "max_alloc",
                 "reserved", "in_use", "peak", "n_allocations", "n_hits", "n_device", "n_frees", "n_oom")

    def __init__(self, rt: "Runtime") -> None:
        self.rt = rt
        self.lock = threading.Lock()
        self.deferred: list[tuple[_Block, Pending]] = []  # frees that found the lock taken
        self.cached: dict[int, list[_Block]] = {}         # size class -> freed blocks, not merged yet
        self.free_small: list[tuple[tuple[int, int], _Block]] = []
        self.free_large: list[tuple[tuple[int, int], _Block]] = []
        self.segments: list[_Segment] = []
        env = os.environ.get("DARRAY_MEMORY_LIMIT", "").strip()
        self.limit = parse_bytes(env) if env else rt.info.global_mem_bytes
        self.max_alloc = rt.info.max_alloc_bytes
        self.reserved = self.in_use = self.peak = 0
        self.n_allocations = self.n_hits = self.n_device = self.n_frees = self.n_oom = 0

    # -- public -------------------------------------------------------------------
    def allocate(self, nbytes: int) -> Allocation:
        """A block of at least ``nbytes`` (zero bytes allocates nothing)."""
        if nbytes <= 0:
            return Allocation(None, None, 0)
        size = (nbytes + _guard.padding() + _MASK) & ~_MASK
        if size > self.max_alloc:
            raise MemoryError(f"darray alloc: {nbytes} bytes exceeds the largest single allocation of {self.rt.place} "
                              f"({self.max_alloc} bytes)")
        with self.lock:
            if self.deferred:
                self._drain()
            self.n_allocations += 1
            stack = self.cached.get(size)
            if stack:
                block = stack.pop()
                hit = True
            else:
                block = self._take(size)
                if block is None and self.cached:
                    self._flush()
                    block = self._take(size)
                hit = block is not None
                if block is None:
                    block = self._grow(size)
            if hit:
                self.n_hits += 1
            in_use = self.in_use = self.in_use + block.size
            if in_use > self.peak:
                self.peak = in_use
            alloc = Allocation(self, block, nbytes)
        if _guard.ON:
            _guard.arm(self, alloc)
        if _active:
            record_allocation(nbytes, hit)
        return alloc

    def free(self, alloc: Allocation) -> None:
        """Return ``alloc``'s block; never blocks (another thread's or a nested call's frees are queued)."""
        block = alloc.block
        alloc.block = None
        # The scheduler's entries still pending (those known complete are dropped, so a
        # free block does not keep dead streams and their events alive).
        pending: Pending = {}
        reads = alloc.reads
        if reads:
            for k, e in reads.items():
                if e[1] > e[0].done:
                    pending[k] = e
        w = alloc.write
        if w is not None and w[1] > w[0].done:
            sid = w[0].id
            have = pending.get(sid)
            if have is None or have[1] < w[1]:
                pending[sid] = w
        if _guard.ON:
            _guard.check(self, block, alloc, pending)  # type: ignore[arg-type]
        lock = self.lock
        if not lock.acquire(False):
            self.deferred.append((block, pending))  # type: ignore[arg-type]
            return
        try:
            if self.deferred:
                self._drain()
            self._cache(block, pending)  # type: ignore[arg-type]
        finally:
            lock.release()

    def empty_cache(self) -> None:
        """Release every wholly free segment to OpenCL (after its pending work)."""
        with self.lock:
            self._release_free_segments()

    def stats(self) -> dict[str, Any]:
        with self.lock:
            self._drain()
            return {"place": str(self.rt.place), "in_use_bytes": self.in_use, "cached_bytes": self.reserved - self.in_use,
                    "reserved_bytes": self.reserved, "peak_bytes": self.peak, "limit_bytes": self.limit,
                    "segments": len(self.segments), "allocations": self.n_allocations, "cache_hits": self.n_hits,
                    "device_allocations": self.n_device, "frees": self.n_frees, "oom_retries": self.n_oom}

    # -- internals (under the lock) -------------------------------------------------
    def _cache(self, block: _Block, pending: Pending) -> None:
        """A freed block onto the stack of its size class."""
        block.pending = pending
        self.in_use -= block.size
        self.n_frees += 1
        stack = self.cached.get(block.want)
        if stack is None:
            self.cached[block.want] = [block]
        else:
            stack.append(block)

    def _drain(self) -> None:
        deferred = self.deferred
        while deferred:
            self._cache(*deferred.pop())

    def _flush(self) -> None:
        """Merge every stacked block with its free neighbours into the sorted free lists."""
        cached, self.cached = self.cached, {}
        for stack in cached.values():
            for block in stack:
                for other in (block.prev, block.next):
                    if other is not None and other.free:
                        self._unlist(other)
                        block = self._join(block, other) if other is block.next else self._join(other, block)
                self._list(block)

    def _release_free_segments(self) -> None:
        self._drain()
        self._flush()
        for seg_list in (self.free_small, self.free_large):
            keep = []
            for key, block in seg_list:
                if block.prev is None and block.next is None:
                    for _, _, ev in block.pending.values():  # type: ignore[union-attr]
                        ev.wait()
                    self.segments.remove(block.segment)
                    self.reserved -= block.segment.size
                    block.segment.buffer.release()
                else:
                    keep.append((key, block))
            seg_list[:] = keep

    def _list(self, block: _Block) -> None:
        block.free = True
        block.key = (block.size, block.key[1])
        lst = self.free_large if block.segment.large else self.free_small
        bisect.insort(lst, (block.key, block))

    def _unlist(self, block: _Block) -> None:
        lst = self.free_large if block.segment.large else self.free_small
        i = bisect.bisect_left(lst, (block.key,))
        while lst[i][1] is not block:
            i += 1
        del lst[i]
        block.free = False

    @staticmethod
    def _join(left: _Block, right: _Block) -> _Block:
        left.size += right.size
        left.next = right.next
        if right.next is not None:
            right.next.prev = left
        left.pending = merge_pending(left.pending, right.pending)  # type: ignore[arg-type]
        return left

    def _take(self, size: int) -> _Block | None:
        """Best fit from the sorted free lists, split when the rest is worth keeping."""
        lst = self.free_small if size <= SMALL_LIMIT else self.free_large
        i = bisect.bisect_left(lst, ((size, -1),))
        if i == len(lst):
            return None
        block = lst.pop(i)[1]
        block.free = False
        block.want = size
        rest = block.size - size
        if rest >= (CLASS if not block.segment.large else SMALL_LIMIT + 1):
            tail = _Block(block.segment, block.offset + size, rest)
            tail.pending = dict(block.pending)  # type: ignore[arg-type]
            tail.prev, tail.next = block, block.next
            if block.next is not None:
                block.next.prev = tail
            block.next = tail
            block.size = size
            self._list(tail)
        return block

    def _grow(self, size: int) -> _Block:
        large = size > SMALL_LIMIT
        seg_size = -(-size // SEGMENT) * SEGMENT if large else SEGMENT
        seg_size = min(seg_size, max(size, self.max_alloc))
        buf, host = self._create(seg_size)
        if buf is None:  # out of memory: release the cache, collect, wait, retry once
            self.n_oom += 1
            gc.collect()
            from ..sched import synchronize

            synchronize(self.rt.place)
            self._release_free_segments()
            block = self._take(size)
            if block is not None:
                return block
            buf, host = self._create(seg_size)
            if buf is None and size < seg_size:
                buf, host = self._create(size)
            if buf is None:
                raise MemoryError(
                    f"darray alloc: out of memory on {self.rt.place}: requested {size} bytes, in use {self.in_use}, "
                    f"cached {self.reserved - self.in_use}, limit {self.limit} bytes")
            seg_size = buf.size
        seg = _Segment(buf, seg_size, large, host)
        self.segments.append(seg)
        self.reserved += seg_size
        self.n_device += 1
        block = _Block(seg, 0, seg_size)
        self._list(block)
        return self._take(size)  # type: ignore[return-value]

    def _create(self, nbytes: int) -> tuple[cl.Buffer | None, np.ndarray | None]:
        """A new OpenCL buffer (made over page-aligned host memory on host-backed runtimes) and
        that host memory; (None, None) when out of memory or over the limit."""
        if self.reserved + nbytes > self.limit:
            return None, None
        try:
            with cl_errors(f"allocating {nbytes} bytes on {self.rt.place}"):
                if not self.rt.host_backed:
                    return cl.Buffer(self.rt.context, cl.mem_flags.READ_WRITE, nbytes), None
                host = page_aligned(nbytes)
                flags = cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR
                return cl.Buffer(self.rt.context, flags, hostbuf=host), host
        except (cl.MemoryError, MemoryError):
            return None, None
