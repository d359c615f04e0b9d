"""Launching hand-written kernels (``kernels/*.cl``) whose work-items each take a run of elements.

The kernels take ``n`` (elements) and ``ch`` (elements per work-item) as their last two
arguments; ``ch`` and the work-group size come from the device's kernel form (``DeviceInfo``),
so these kernels follow the same per-device decisions as the generated ones.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np
import pyopencl as cl

from .. import sched
from ..lazy import execute
from ..place import CLPlace, runtime


@lru_cache(maxsize=None)
def source(file: str) -> str:
    """The text of ``kernels/<file>``."""
    return resources.files("darray.kernels").joinpath(file).read_text()


def launch(entry: str, place: CLPlace, file: str, options: str, n: int, args: list[Any], *, reads: list[Any],
           writes: list[Any], ch: int | None = None, nbytes: int = 0) -> None:
    """Enqueue ``entry`` of ``kernels/<file>`` built with ``options`` over ``n`` elements, ``ch``
    per work-item (default: as the device's kernel form has it), through ``sched.launch``."""
    kernel = runtime(place).programs.kernel(source(file), entry, options)
    ch = ch or execute.CHUNK.get(execute.form(place), 1)
    local = execute.local_size(place)
    gsize = -(-(-(-n // ch)) // local) * local
    full = [*args, np.int64(n), np.int64(ch)]

    def enqueue(queue: cl.CommandQueue, wait_for: list | None) -> cl.Event:
        kernel.set_args(*full)
        return cl.enqueue_nd_range_kernel(queue, kernel, (gsize,), (local,), wait_for=wait_for)

    sched.launch(entry, enqueue, place=place, reads=reads, writes=writes, nbytes=nbytes)
