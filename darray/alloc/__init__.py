"""Allocations: every device buffer comes from the caching allocator of its place.

``stats(place)`` reports in-use, cached and peak bytes and counters; ``empty_cache(place)``
returns cached memory to OpenCL. ``DARRAY_MEMORY_LIMIT`` (bytes, or ``"512MB"``, ``"8 MiB"``)
caps each OpenCL place: what counts is the bytes of the OpenCL buffers its pool holds, and
under a small limit those are sized close to the requests (see ``_pool``).

A request the pool cannot serve releases the cached memory and retries. If other threads
hold memory then (and are not themselves waiting for memory), it waits for their frees,
retrying after each, for up to 5 seconds (``Pool.wait_s``): with Dask's threads, a chunk
that does not fit waits for another task's chunks to go. Then garbage is collected, pending
work waited for, and a last retry made; a request that still fails raises ``MemoryError``
with the requested, in-use, cached and limit bytes. ``stats`` counts the failed requests
(``oom_retries``) and those that waited (``oom_waits``).

``DARRAY_CHECK_BOUNDS=1`` puts guard bytes around every block (see ``_guard``).
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, overload

import numpy as np

from ..place import CLPlace, CPUPlace, Place, PlaceLike, parse, runtime
from ..sched import capturing
from ..transfer import staging
from ._pool import Allocation, Pool, region
from ._sizes import CLASS, parse_bytes, round_class

__all__ = ["Allocation", "HostAllocation", "allocate", "region", "stats", "empty_cache", "pool", "CLASS", "round_class",
           "parse_bytes"]

_pools: dict[CLPlace, Pool] = {}
_lock = threading.Lock()


class HostAllocation:
    """Host memory of a CPUPlace array: a flat byte buffer that NumPy views index; ``host``:
    existing bytes to use (``from_dlpack`` shares a producer's memory), else new ones."""

    __slots__ = ("host", "nbytes", "__weakref__")
    counts = {"allocations": 0, "in_use_bytes": 0, "peak_bytes": 0}

    def __init__(self, nbytes: int, host: np.ndarray | None = None) -> None:
        self.host = np.empty(max(nbytes, 0), np.uint8) if host is None else host
        self.nbytes = nbytes
        if nbytes > 0:  # zero-size arrays allocate nothing
            c = HostAllocation.counts
            c["allocations"] += 1
            c["in_use_bytes"] += nbytes
            c["peak_bytes"] = max(c["peak_bytes"], c["in_use_bytes"])

    def __del__(self) -> None:
        HostAllocation.counts["in_use_bytes"] -= self.nbytes


def pool(place: CLPlace) -> Pool:
    """The caching allocator of an OpenCL place."""
    p = _pools.get(place)
    if p is None:
        with _lock:
            p = _pools.get(place)
            if p is None:
                p = _pools[place] = Pool(runtime(place))
    return p


def _host_stats() -> dict[str, Any]:
    c = HostAllocation.counts
    return {"place": "cpu", "cached_bytes": 0, "cache_hits": 0, "device_allocations": c["allocations"], **c}


def _device_empty_cache(place: CLPlace) -> None:
    pool(place).empty_cache()
    staging.pool(place).trim()


# per place kind: (allocate, stats, empty_cache); the allocator sits below the ops' registry
_KINDS: dict[str, tuple[Callable[[Any, int], Any], Callable[[Any], dict[str, Any]], Callable[[Any], None]]] = {
    "cpu": (lambda place, nbytes: HostAllocation(nbytes), lambda place: _host_stats(), lambda place: None),
    "cl": (lambda place, nbytes: pool(place).allocate(nbytes), lambda place: pool(place).stats(), _device_empty_cache),
}


@overload
def allocate(place: CLPlace, nbytes: int) -> Allocation: ...
@overload
def allocate(place: CPUPlace, nbytes: int) -> HostAllocation: ...
@overload
def allocate(place: Place, nbytes: int) -> Allocation | HostAllocation: ...
def allocate(place: Place, nbytes: int) -> Allocation | HostAllocation:
    """``nbytes`` of memory on ``place`` (pooled on OpenCL places; a placeholder while ``da.jit``
    captures on this thread, see ``sched.capturing``)."""
    rec = capturing()
    if rec is not None and place.kind == "cl":
        return rec.slot(nbytes)  # type: ignore[return-value]  # a Slot stands for an Allocation in a trace
    return _KINDS[place.kind][0](place, nbytes)


def stats(place: PlaceLike = None) -> dict[str, Any]:
    """Allocator figures of ``place`` (default: current): in_use_bytes, cached_bytes, peak_bytes,
    allocations, cache_hits, device_allocations, frees, reserved_bytes, limit_bytes."""
    p = parse(place)
    return _KINDS[p.kind][1](p)


def empty_cache(place: PlaceLike = None) -> None:
    """Return the cached (free) memory of ``place`` to OpenCL, the kept pinned staging buffers
    of its reads (``darray.transfer.staging``) too."""
    p = parse(place)
    _KINDS[p.kind][2](p)
