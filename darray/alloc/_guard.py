"""Bounds-check mode (``DARRAY_CHECK_BOUNDS=1``, read at import): guard bytes around every block.

Each pooled block gets ``BYTES`` guard bytes before and after the caller's region, and the
whole block is filled with ``0xFF`` when it is handed out: a float read outside a view sees
NaN, an integer read sees -1, so a kernel that reads outside its view changes its result
and a test comparing with NumPy fails. When the block is freed, its guards are read back
(after the commands that touched it): a guard that changed means some command wrote
outside its view; it is recorded in ``violations`` (and warned about), and the test suite
fails on it (``tests/conftest.py``). A debugging mode: every allocation costs a fill and
every free a wait and a read.
"""
from __future__ import annotations

import os
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pyopencl as cl

from .. import sched

if TYPE_CHECKING:
    # import loop: type names only (_pool calls _guard at run time)
    from ._pool import Allocation, Pending, Pool, _Block

ON = os.environ.get("DARRAY_CHECK_BOUNDS", "") == "1"
BYTES = 512  # a whole size class on each side, so the caller's region keeps the block's alignment
PATTERN = 0xFF
violations: list[str] = []
_queues: dict[int, cl.CommandQueue] = {}


def padding() -> int:
    """Bytes a request grows by in this mode (both guards), else 0."""
    return 2 * BYTES if ON else 0


def arm(pool: Pool, alloc: Allocation) -> None:
    """Fill ``alloc``'s whole block with the pattern (after its previous users' commands) and
    move its region past the leading guard."""
    block, buffer = alloc.block, alloc.buffer
    assert block is not None and buffer is not None
    start, size = block.offset, block.size

    def fill(queue: cl.CommandQueue, wait_for: list[cl.Event] | None) -> cl.Event:
        return cl.enqueue_fill_buffer(queue, buffer, np.full(1, PATTERN, np.uint8), start, size,
                                      wait_for=wait_for)

    sched.launch("bounds_guard", fill, place=pool.rt.place, writes=[alloc], nbytes=size)
    alloc.offset = start + BYTES


def check(pool: Pool, block: _Block, alloc: Allocation, pending: Pending) -> None:
    """Read the guards of ``alloc`` (freed, its ``block`` detached) back once the commands in
    ``pending`` completed; record a violation when one changed."""
    events = [e[2] for e in pending.values() if e[2] is not None]
    if events:
        cl.wait_for_events(events)
    start, end = block.offset, block.offset + block.size
    tail = alloc.offset + alloc.nbytes
    host = block.segment.host
    if host is not None:
        guards = np.concatenate([host[start:alloc.offset], host[tail:end]])
    else:
        queue = _queues.get(id(pool))
        if queue is None:
            queue = _queues[id(pool)] = pool.rt.new_queue()
        guards = np.empty(end - start, np.uint8)
        buffer = alloc.buffer
        assert buffer is not None  # the allocation held a block
        cl.enqueue_copy(queue, guards, buffer, src_offset=start, is_blocking=True)
        guards = np.concatenate([guards[:alloc.offset - start], guards[tail - start:]])
    bad = np.flatnonzero(guards != PATTERN)
    if bad.size:
        msg = (f"darray bounds check: a command wrote outside its view: {bad.size} guard bytes changed around a "
               f"block of {alloc.nbytes} bytes on {pool.rt.place}")
        violations.append(msg)
        warnings.warn(msg, RuntimeWarning, stacklevel=2)
