"""Caching allocator for one OpenCL place: 512-byte classes, segments split and merged.

Segments are 2 MiB, or smaller under a small limit (``_sizes.segment_size``: at most a 32nd
of it), so a small block left in use pins little of the limit. Requests up to half a segment
come from segments of a small pool; larger ones from segments of their own size (rounded up
to a segment, unless the rounding would pass the limit) in a large pool, split only when the
rest is large too. A freed block keeps the events of the kernels that last touched it;
whoever gets the block next starts from those events, so its first writer waits for them.
Freed blocks are stacked per size class and merged with their neighbours only when a
request finds no stack of its class and no free block large enough (see ``Pool``); the
out-of-memory path is ``Pool._out_of_memory``.
"""
from __future__ import annotations

import bisect
import gc
import itertools
import threading
import time
from typing import TYPE_CHECKING, Any

import numpy as np
import pyopencl as cl

from ..errors import cl_errors
from ..place._runtime import page_aligned
from ..sched import synchronize
from ..sched._profile import _active, record_allocation
from . import _guard
from ._sizes import CLASS, env_limit, segment_size

if TYPE_CHECKING:
    from ..place import Runtime

WAIT_S = 5.0             # seconds a failed request waits for other threads' frees, at most
_POLL_S = 0.05           # seconds between retries while waiting
_MASK = CLASS - 1
_ident = threading.get_ident
_PAD = _guard.padding()  # guard bytes per block: none unless DARRAY_CHECK_BOUNDS=1 (read at import)

Pending = dict  # stream id -> (stream, seq, event); see darray.sched


class _Segment:
    """One OpenCL buffer of the pool; ``host``: the host memory it is made over (host-backed
    runtimes, see ``Runtime.host_backed``), else None; ``first``: its block at offset 0 (splits
    and merges keep that block), the head of its list of blocks; ``typed``: ``host`` as 1-D arrays
    of the dtypes the host engine asked for (``lazy.host``), released with the segment."""

    __slots__ = ("buffer", "size", "large", "host", "first", "typed")

    def __init__(self, buffer: cl.Buffer, size: int, large: bool, host: np.ndarray | None) -> None:
        self.buffer, self.size, self.large, self.host = buffer, size, large, host
        self.first: _Block | None = None
        self.typed: dict[np.dtype, np.ndarray | None] = {}


class _Block:
    """A piece of a segment. ``free``: listed in the pool's sorted free lists (mergeable);
    ``want``: the size class it was last handed out for (its key in the pool's ``cached``);
    ``owner``: the id of the thread it was last handed out to."""

    __slots__ = ("segment", "buffer", "offset", "size", "free", "prev", "next", "pending", "key", "want", "owner",
                 "sub", "view")
    _ids = itertools.count()

    def __init__(self, segment: _Segment, offset: int, size: int) -> None:
        self.segment, self.buffer, self.offset, self.size = segment, segment.buffer, offset, size
        self.free = False
        self.prev: _Block | None = None
        self.next: _Block | None = None
        self.pending: Pending | None = {}  # None while handed out (the Allocation holds the entries)
        self.key = (size, next(self._ids))
        self.want = size
        self.owner = 0
        self.sub: tuple[int, int, cl.Buffer] | None = None  # (offset, size, sub-buffer) made by ``region``
        self.view: tuple | None = None  # the last host view made of it (``Allocation.view``), kept for its next owner


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


def _live(reads: Pending, write: tuple | None) -> Pending:
    """The entries of ``reads`` and ``write`` (per stream, the later) not known complete."""
    pending: Pending = {}
    for k, e in reads.items():
        if e[1] > e[0].done:
            pending[k] = e
    if write is not None and write[1] > write[0].done:
        sid = write[0].id
        have = pending.get(sid)
        if have is None or have[1] < write[1]:
            pending[sid] = write
    return pending


class Allocation:
    """A block of device memory handed to one DArray; returned to the pool when dropped.

    ``write``/``reads`` are the scheduler's record of the last write and the reads since;
    ``reads`` starts as the entries the block's previous owners left pending. ``host``: the
    host memory of the whole segment (bytes; the block starts at ``offset``) on host-backed
    runtimes, else None: the host may use it only while no command touching it is pending.
    """

    __slots__ = ("pool", "block", "nbytes", "buffer", "offset", "host", "write", "reads", "view", "__weakref__")
    pool: Pool | None
    block: _Block | None          # None once freed, and for zero bytes
    nbytes: int
    buffer: cl.Buffer | None      # None for zero bytes
    offset: int
    host: np.ndarray | None
    write: tuple | None
    reads: Pending
    view: tuple | None            # (dim, dtype, NumPy array) of the last host view made (``lazy.host``),
                                  # of its block by an earlier owner at first

    def __init__(self, pool: Pool | None, block: _Block | None, nbytes: int) -> None:
        self.pool, self.block, self.nbytes = pool, block, nbytes
        self.write = self.view = None
        if block is None:
            self.buffer, self.offset, self.host, self.reads = None, 0, None, {}
        else:
            pending = block.pending
            assert pending is not None  # a block being handed out holds its entries until now
            self.buffer, self.offset, self.reads = block.buffer, block.offset, pending
            self.host = block.segment.host
            self.view = block.view
            block.pending = None

    def __del__(self) -> None:
        pool = self.pool
        if pool is not None and self.block is not None:
            try:
                pool.free(self)
            except Exception:  # interpreter shutdown
                pass


def region(alloc: Allocation, start: int = 0, nbytes: int = 0) -> cl.Buffer | None:
    """A buffer whose byte 0 is byte ``start`` of ``alloc`` and that spans ``nbytes`` (default: to
    the end of ``alloc``): ``alloc.buffer`` itself where the allocation starts its segment, else a
    sub-buffer (cached on the pool block when it spans the whole allocation). For kernels that
    take a buffer without an offset argument (``da.jit``'s replays); None for zero bytes."""
    buffer = alloc.buffer
    if buffer is None:
        return None
    first = alloc.offset + start
    size = nbytes or alloc.nbytes - start
    if first == 0:
        return buffer
    block = alloc.block
    if block is None or start or nbytes:
        with cl_errors("sub-buffer"):
            return buffer.get_sub_region(first, size)
    sub = block.sub
    if sub is None or sub[0] != first or sub[1] < size:
        span = block.offset + block.size - first  # to the block's end (past guard bytes, if any)
        with cl_errors("sub-buffer"):
            sub = block.sub = (first, span, buffer.get_sub_region(first, span))
    return sub[2]


class Pool:
    """The caching allocator of one OpenCL place (thread-safe).

    A freed block first goes to ``cached``, a LIFO stack per size class, unmerged: a request
    of that class takes it back in O(1), the common case of a loop that allocates the same
    sizes again. Only a request that no stack serves runs the best-fit search of the sorted
    free lists; when that fails too, every stacked block is merged with its free neighbours
    into the sorted lists (``_flush``) and the search runs again before a segment is added.
    ``empty_cache`` and the out-of-memory path flush as well.

    ``limit``: the cap in bytes (default: ``DARRAY_MEMORY_LIMIT``, else the device's memory);
    what counts against it is ``reserved``, the bytes of the OpenCL buffers the pool holds.
    """

    __slots__ = ("rt", "lock", "cond", "deferred", "cached", "free_small", "free_large", "segments", "limit",
                 "max_alloc", "segment", "small_limit", "waiting", "wait_s", "reserved", "in_use", "peak",
                 "n_allocations", "n_hits", "n_device", "n_frees", "n_oom", "n_waits")

    def __init__(self, rt: Runtime, limit: int | None = None) -> None:
        self.rt = rt
        self.lock = threading.Lock()
        self.cond = threading.Condition(self.lock)  # notified on frees while a request waits
        self.deferred: list[tuple[_Block, Pending]] = []  # frees that found the lock taken
        self.cached: dict[int, list[_Block]] = {}         # size class -> freed blocks, not merged yet
        self.free_small: list[tuple[tuple[int, int], _Block]] = []
        self.free_large: list[tuple[tuple[int, int], _Block]] = []
        self.segments: list[_Segment] = []
        self.limit = limit = env_limit(rt.info.global_mem_bytes) if limit is None else limit
        self.max_alloc = rt.info.max_alloc_bytes
        self.segment = segment_size(limit)
        self.small_limit = self.segment // 2
        self.waiting: set[int] = set()  # ids of the threads waiting for frees
        self.wait_s = WAIT_S
        self.reserved = self.in_use = self.peak = 0
        self.n_allocations = self.n_hits = self.n_device = self.n_frees = self.n_oom = self.n_waits = 0

    # -- public -------------------------------------------------------------------
    def allocate(self, nbytes: int) -> Allocation:
        """A block of at least ``nbytes`` (zero bytes allocates nothing)."""
        if nbytes <= 0:
            return Allocation(None, None, 0)
        size = (nbytes + _PAD + _MASK) & ~_MASK
        if size > self.max_alloc:
            raise MemoryError(f"darray alloc: {nbytes} bytes exceeds the largest single allocation of {self.rt.place} "
                              f"({self.max_alloc} bytes)")
        lock = self.lock
        lock.acquire()
        try:
            if self.deferred:
                self._drain()
            self.n_allocations += 1
            stack = self.cached.get(size)
            if stack:  # the common case: a block of this class freed before
                block = stack.pop()
                hit = True
            else:
                found = self._take(size)
                if found is None and self.cached:
                    self._flush()
                    found = self._take(size)
                hit = found is not None
                block = self._grow(size) if found is None else found
            if hit:
                self.n_hits += 1
            block.owner = _ident()
            in_use = self.in_use = self.in_use + block.size
            if in_use > self.peak:
                self.peak = in_use
        finally:
            lock.release()
        alloc = Allocation(self, block, nbytes)
        if _PAD:
            _guard.arm(self, alloc)
        if _active:
            record_allocation(nbytes, hit)
        return alloc

    def free(self, alloc: Allocation) -> None:
        """Return ``alloc``'s block; never blocks (another thread's or a nested call's frees are queued)."""
        block = alloc.block
        assert block is not None  # __del__ frees an allocation once, and only one holding a block
        alloc.block = None
        reads, w = alloc.reads, alloc.write
        # The scheduler's entries still pending go with the block (those known complete are
        # dropped, so a free block does not keep dead streams and their events alive); where
        # none ever was, the allocation's empty dict serves its next owner.
        pending = reads if w is None and not reads else _live(reads, w)
        if _PAD:
            _guard.check(self, block, alloc, pending)
        lock = self.lock
        if not lock.acquire(False):
            self.deferred.append((block, pending))
            return
        try:
            if self.deferred:
                self._drain()
            self._cache(block, pending)
        finally:
            lock.release()

    def empty_cache(self) -> None:
        """Release every wholly free segment to OpenCL (after its pending work)."""
        with self.lock:
            self._release_free_segments()

    def stats(self) -> dict[str, Any]:
        with self.lock:
            self._drain()
            return {"place": str(self.rt.place), "in_use_bytes": self.in_use,
                    "cached_bytes": self.reserved - self.in_use, "reserved_bytes": self.reserved,
                    "peak_bytes": self.peak, "limit_bytes": self.limit,
                    "segments": len(self.segments), "allocations": self.n_allocations, "cache_hits": self.n_hits,
                    "device_allocations": self.n_device, "frees": self.n_frees, "oom_retries": self.n_oom,
                    "oom_waits": self.n_waits}

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
        if self.waiting:
            self.cond.notify_all()

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
                    assert block.pending is not None  # a listed block is free
                    for _, _, ev in block.pending.values():
                        ev.wait()
                    self.segments.remove(block.segment)
                    self.reserved -= block.segment.size
                    block.segment.buffer.release()
                else:
                    keep.append((key, block))
            seg_list[:] = keep

    def _list(self, block: _Block) -> None:
        block.free = True
        block.view = None  # kept only while the block is stacked whole (merges and splits come after)
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
        assert left.pending is not None and right.pending is not None  # both free
        left.pending = merge_pending(left.pending, right.pending)
        right.view = None  # absorbed: its host view (``lazy.host._memory``'s cache) goes with it
        return left

    def _take(self, size: int) -> _Block | None:
        """Best fit from the sorted free lists, split when the rest is worth keeping."""
        lst = self.free_small if size <= self.small_limit else self.free_large
        i = bisect.bisect_left(lst, ((size, -1),))
        if i == len(lst):
            return None
        block = lst.pop(i)[1]
        block.free = False
        block.want = size
        rest = block.size - size
        if rest >= (CLASS if not block.segment.large else self.small_limit + 1):
            tail = _Block(block.segment, block.offset + size, rest)
            assert block.pending is not None  # it was listed: free
            tail.pending = dict(block.pending)
            tail.prev, tail.next = block, block.next
            if block.next is not None:
                block.next.prev = tail
            block.next = tail
            block.size = size
            self._list(tail)
        return block

    def _grow(self, size: int) -> _Block:
        """A block of ``size`` bytes from a new segment (see the module); on failure ``_out_of_memory``."""
        large = size > self.small_limit
        seg_size = self._segment_for(size, large)
        buf, host = self._create(seg_size)
        if buf is None and size < seg_size:  # the rounding would pass the limit: no rounding
            buf, host = self._create(size)
        if buf is None:
            return self._out_of_memory(size, large)
        return self._add(buf, host, large, size)

    def _segment_for(self, size: int, large: bool) -> int:
        seg = self.segment
        return min(-(-size // seg) * seg if large else seg, max(size, self.max_alloc))

    def _add(self, buf: cl.Buffer, host: np.ndarray | None, large: bool, size: int) -> _Block:
        """A new segment over ``buf``, from which a block of ``size`` bytes is taken."""
        seg = _Segment(buf, buf.size, large, host)
        self.segments.append(seg)
        self.reserved += seg.size
        self.n_device += 1
        seg.first = _Block(seg, 0, seg.size)
        self._list(seg.first)
        block = self._take(size)
        assert block is not None  # the new segment holds at least ``size`` bytes
        return block

    def _out_of_memory(self, size: int, large: bool) -> _Block:
        """Release the cache and retry. While other threads hold blocks and are not waiting
        themselves, wait for their frees (up to ``wait_s`` seconds), releasing and retrying after
        each. Then collect garbage, wait for pending work, release and retry once more; then
        ``MemoryError``. (A full collection is slow: it comes after the waits.)"""
        self.n_oom += 1
        me, start, waits = _ident(), time.monotonic(), 0
        block = self._retry(size, large)
        while block is None:
            left = start + self.wait_s - time.monotonic()
            if left <= 0 or size > self.limit or not self._others_hold(me):  # (no frees make room past the limit)
                break
            if not waits:
                self.n_waits += 1
            waits += 1
            self.waiting.add(me)
            try:
                self.cond.wait(min(_POLL_S, left))
            finally:
                self.waiting.discard(me)
            block = self._retry(size, large)
        if block is not None:
            return block
        gc.collect()
        synchronize(self.rt.place)
        block = self._retry(size, large)
        if block is not None:
            return block
        waited = f" (waited {time.monotonic() - start:.1f} s for other threads' frees)" if waits else ""
        raise MemoryError(
            f"darray alloc: out of memory on {self.rt.place}: requested {size} bytes, in use {self.in_use}, "
            f"cached {self.reserved - self.in_use}, limit {self.limit} bytes{waited}")

    def _retry(self, size: int, large: bool) -> _Block | None:
        """Release every wholly free segment, then a block of ``size`` bytes from the free lists or
        a new segment (rounded, else exact), or None."""
        self._release_free_segments()
        block = self._take(size)
        if block is not None:
            return block
        seg_size = self._segment_for(size, large)
        for nbytes in (seg_size, size) if size < seg_size else (size,):
            buf, host = self._create(nbytes)
            if buf is not None:
                return self._add(buf, host, large, size)
        return None

    def _others_hold(self, me: int) -> bool:
        """Whether a live thread other than ``me`` holds blocks and is not waiting for frees itself."""
        alive = {t.ident for t in threading.enumerate()}
        return any(tid != me and tid in alive and tid not in self.waiting for tid in self.holders())

    def holders(self) -> dict[int, int]:
        """Thread id -> bytes of the blocks in use that it took (a walk over every block; for the
        out-of-memory path and tests, under the lock, after ``_drain``)."""
        out: dict[int, int] = {}
        for seg in self.segments:
            block = seg.first
            while block is not None:
                if block.pending is None:  # handed out
                    out[block.owner] = out.get(block.owner, 0) + block.size
                block = block.next
        return out

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
