"""Launching the hand-written kernels (``kernels/*.cl``) of the op families.

:func:`run` enqueues a kernel over a number of work-items in the device's work-groups through
``sched.launch``. :func:`launch` serves kernels whose work-items each take a run of elements
(``n`` and ``ch`` as their last two arguments; ``ch`` from the device's kernel form), so they
follow the same per-device decisions (``DeviceInfo``) as the generated kernels.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

import numpy as np
import pyopencl as cl

from .. import sched
from .._array import DArray
from ..lazy import execute
from ..place import CLPlace, runtime


@lru_cache(maxsize=None)
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
    size = -(-items // group) * group

    def enqueue(queue: cl.CommandQueue, wait_for: list | None) -> cl.Event:
        kernel.set_args(*args)
        return cl.enqueue_nd_range_kernel(queue, kernel, (size,), (group,), wait_for=wait_for)

    sched.launch(name, enqueue, place=place, reads=reads, writes=writes, nbytes=nbytes)


def launch(entry: str, place: CLPlace, file: str, options: str, n: int, args: list[Any], *, reads: list[Any],
           writes: list[Any], ch: int | None = None, nbytes: int = 0) -> None:
    """Enqueue ``entry`` of ``kernels/<file>`` built with ``options`` over ``n`` elements, ``ch``
    per work-item (default: as the device's kernel form has it)."""
    kernel = runtime(place).programs.kernel(source(file), entry, options)
    ch = ch or execute.CHUNK.get(execute.form(place), 1)
    run(entry, kernel, [*args, np.int64(n), np.int64(ch)], -(-n // ch), place, reads=reads, writes=writes,
        nbytes=nbytes)
