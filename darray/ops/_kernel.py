"""Device commands of the op families: hand-written kernels and NumPy on mapped buffers.

:func:`run` enqueues a kernel (``kernels/*.cl``) over a number of work-items in the device's
work-groups through ``sched.launch``. :func:`launch` serves kernels whose work-items each take
a run of elements (``n`` and ``ch`` as their last two arguments; ``ch`` from the device's
kernel form), so they follow the same per-device decisions (``DeviceInfo``) as the generated
kernels. :func:`on_host` runs a NumPy function on arrays through the host engine
(``lazy.host.call``: their memory on host-backed devices, else their buffers mapped).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources
from typing import Any, cast

import numpy as np
import pyopencl as cl

from .. import sched
from .._array import DArray
from ..lazy import execute, host
from ..lazy.graph import Input
from ..place import CLPlace, runtime


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


def on_host(name: str, reads: Sequence[DArray], writes: Sequence[DArray], fn: Callable[..., None]) -> None:
    """``fn(*read_views, *write_views)`` on NumPy views of the arrays' memory (none empty; the written
    ones fresh, their old contents are not kept), through the host engine (``lazy.host.call``)."""
    nw = len(writes)
    host.call(name, lambda *v: fn(*v[nw:], *v[:nw]), cast(CLPlace, writes[0].place), [_term(x) for x in reads],
              [_term(x) for x in writes])


def _term(x: DArray) -> Input:
    return Input(x._data(), x._dim, x._dtype)
