"""Device commands of the op families: hand-written kernels and NumPy on mapped buffers.

:func:`run` enqueues a kernel (``kernels/*.cl``) over a number of work-items in the device's
work-groups through ``sched.launch``. :func:`launch` serves kernels whose work-items each take
a run of elements (``n`` and ``ch`` as their last two arguments; ``ch`` from the device's
kernel form), so they follow the same per-device decisions (``DeviceInfo``) as the generated
kernels. :func:`on_host` runs a NumPy function on arrays of a device whose memory is host
memory: their bytes are mapped (zero copy) and unmapped through the scheduler, so the call
waits for their writers and later work waits for the unmaps.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources
from typing import Any, TypedDict, cast

import numpy as np
import pyopencl as cl

from .. import sched
from .._array import DArray
from ..lazy import execute
from ..place import CLPlace, runtime

_BYTES = np.dtype(np.uint8)  # the dtype of a mapped buffer's bytes


class _Access(TypedDict, total=False):
    """The ``reads=`` or ``writes=`` of a launch."""

    reads: list[Any]
    writes: list[Any]


@cache
def source(file: str) -> str:
    """The text of ``kernels/<file>``."""
    return resources.files("darray.kernels").joinpath(file).read_text()


def origin(x: DArray) -> tuple[Any, np.int64]:
    """(allocation, element offset of ``x``'s first element in its buffer) of an OpenCL array."""
    alloc = x._data()
    return alloc, np.int64(alloc.offset // x.dtype.itemsize + x._dim.offset)


def ref(x: DArray) -> tuple[Any, np.int64]:
    """(buffer, element offset of ``x``'s first element), as the kernels take an array."""
    alloc, offset = origin(x)
    return alloc.buffer, offset


def run(name: str, kernel: cl.Kernel, args: Sequence[Any], items: int, place: CLPlace, *,
        reads: Sequence[Any], writes: Sequence[Any], nbytes: int = 0) -> None:
    """Enqueue ``kernel(*args)`` over ``items`` work-items (in the device's work-groups) through
    the scheduler; ``reads``/``writes`` are allocations."""
    group = execute.local_size(place)
    sched.launch_kernel(name, kernel, args, (-(-items // group) * group,), (group,), place=place, reads=reads,
                        writes=writes, nbytes=nbytes)


def launch(entry: str, place: CLPlace, file: str, options: str, n: int, args: list[Any], *, reads: list[Any],
           writes: list[Any], ch: int | None = None, nbytes: int = 0) -> None:
    """Enqueue ``entry`` of ``kernels/<file>`` built with ``options`` over ``n`` elements, ``ch``
    per work-item (default: as the device's kernel form has it)."""
    kernel = runtime(place).programs.kernel(source(file), entry, options)
    ch = ch or execute.CHUNK.get(execute.form(place), 1)
    run(entry, kernel, [*args, np.int64(n), np.int64(ch)], -(-n // ch), place, reads=reads, writes=writes,
        nbytes=nbytes)


class Mapped:
    """One operand's bytes mapped into host memory through the scheduler."""

    def __init__(self, x: DArray, write: bool) -> None:
        self.alloc = x._data()
        self.dim, self.dtype, self.write = x._dim, x.dtype, write
        lo, hi = self.dim.span()
        item = self.dtype.itemsize
        self.lo, self.nbytes = lo * item, (hi - lo) * item
        self.array: np.ndarray | None = None
        self.entry: Any = None

    def map(self, place: CLPlace) -> None:
        flags = cl.map_flags.WRITE_INVALIDATE_REGION if self.write else cl.map_flags.READ

        def enqueue(queue: cl.CommandQueue, wait_for: Any) -> cl.Event:
            ary, ev = cl.enqueue_map_buffer(queue, self.alloc.buffer, flags, self.alloc.offset + self.lo,
                                            (self.nbytes,), _BYTES, wait_for=wait_for, is_blocking=False)
            self.array = ary
            return ev

        self.entry = sched.launch("map", enqueue, place=place, **self._rw(), nbytes=self.nbytes)

    def view(self) -> np.ndarray:
        item = self.dtype.itemsize
        return np.ndarray(self.dim.shape, self.dtype, buffer=self.array, offset=self.dim.offset * item - self.lo,
                          strides=tuple(s * item for s in self.dim.strides))

    def unmap(self, place: CLPlace) -> None:
        ary, self.array = self.array, None
        if ary is not None:
            mapping = cast(cl.MemoryMap, ary.base)  # a mapped array's base is its mapping
            sched.launch("unmap", lambda queue, wait_for: mapping.release(queue, wait_for=wait_for),
                         place=place, **self._rw())

    def _rw(self) -> _Access:
        return {"writes": [self.alloc]} if self.write else {"reads": [self.alloc]}


def host_memory(place: CLPlace) -> bool:
    """True when the device's memory is host memory (mapping its buffers copies nothing); False
    while ``da.jit`` captures, so ops take their kernel paths (a host path cannot be replayed)."""
    if sched.capturing() is not None:
        return False
    info = runtime(place).info
    return bool(info.host_unified_memory) or info.type == "CPU"


def on_host(name: str, reads: Sequence[DArray], writes: Sequence[DArray], fn: Callable[..., None]) -> None:
    """``fn(*read_views, *write_views)`` on NumPy views of the mapped arrays (none empty; the
    written ones fresh, their old contents are not kept)."""
    place = cast(CLPlace, writes[0].place)  # the host form of an OpenCL op
    maps = [Mapped(x, False) for x in reads] + [Mapped(x, True) for x in writes]
    try:
        for mp in maps:
            mp.map(place)
        for mp in maps:
            sched.wait(mp.entry, f"{name} host map")
        fn(*[mp.view() for mp in maps])
    finally:
        for mp in maps:
            mp.unmap(place)
