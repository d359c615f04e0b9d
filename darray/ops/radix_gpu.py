"""The gpu plan of the device sort (``kernels/radix_gpu.cl``): an LSD radix sort of M rows of K keys
in work-groups, one launch per pass.

Each row is cut into tiles of ``GROUP * ITEMS`` keys, one work-group each. ``radix_count`` reads
the keys once and counts every 8-bit digit of every key byte per row (and the key bits that vary:
one 8-byte read-back, so passes over digits that never vary are skipped, as in the chunked plan).
Each pass is then one ``radix_pass`` launch: a group sorts its tile by the digit in local memory
(stable: two 4-bit splits ranked by group prefix sums), finds each digit's offset among the row's
earlier tiles by a decoupled look-back, and writes the tile out. The rows are segments: tile ids,
counts and look-backs are per row, so an axis sort of M rows is one launch per pass too.

Forward progress: OpenCL 1.2 does not promise that one work-group waits safely on another. Tile
ids come from an atomic ticket taken when a group starts, and a group only waits on smaller
tickets, held by groups that already run; a GPU keeps a running group resident, and the CPU
runtimes (Intel's, PoCL) run a started group to completion on its thread, so neither can hang.

Used where ``sorting.plan`` says ``gpu`` (the ``gpu`` kernel form, or ``DARRAY_SORT=gpu``) for rows
longer than ``sorting.SHORT_ROW`` and shorter than 2**30 keys, on devices with work-groups of 256.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pyopencl as cl

from .. import dtypes as _dt
from .. import sched
from .._array import DArray
from ..place import CLPlace, runtime
from ..transfer.convert import empty
from ._kernel import ref, source
from .creation import zeros

GROUP = 256  # work-items per group: one per digit value in the look-back
MAX_ITEMS = 16  # keys per work-item at most (per work-item nibble counts are ushort, tiles at most 4096 keys)
MAX_ROW = 1 << 30  # the look-back packs a count in 30 bits
_UINT = {1: "uchar", 2: "ushort", 4: "uint", 8: "ulong"}
_EXP = {2: 0x7C00, 4: 0x7F800000, 8: 0x7FF0000000000000}


def key_options(dt: np.dtype, *, descending: bool = False, arg: bool = False) -> list[str]:
    """The build options of ``include/sort_key.h`` (and ``-D ARG``) for elements of ``dt``."""
    size = dt.itemsize
    opts = [f"-D U={_UINT[size]}", f"-D KEY={'ulong' if size == 8 else 'uint'}", f"-D SIGN={1 << (8 * size - 1):#x}UL"]
    if dt.kind == "f":
        opts += ["-D KEY_FLOAT", f"-D EXPMASK={_EXP[size]:#x}UL"]
    elif dt.kind == "i":
        opts.append("-D KEY_SIGNED")
    return opts + ["-D DESCENDING"] * descending + ["-D ARG"] * arg


def items(place: CLPlace, k: int, dt: np.dtype, arg: bool) -> int:
    """Keys per work-item: enough for a row of ``k`` (a power of two up to ``MAX_ITEMS``) whose
    tile still fits the device's local memory (0: not even one key per work-item fits)."""
    local = int(runtime(place).device.local_mem_size)
    n = 1
    while n < MAX_ITEMS and n * GROUP < k:
        n *= 2
    while n and GROUP * n * (dt.itemsize + 4 * arg) + 32 * GROUP + 3 * 256 * 4 + 64 > local:
        n //= 2
    return n


def fits(place: CLPlace, k: int, dt: np.dtype, arg: bool) -> bool:
    """Whether rows of ``k`` keys of ``dt`` can take the gpu plan on ``place``."""
    return k < MAX_ROW and runtime(place).info.max_work_group_size >= GROUP and items(place, k, dt, arg) > 0


def sort_rows(data: DArray, *, descending: bool = False, arg: bool = False) -> tuple[DArray, DArray | None]:
    """Stable sort of each row of the contiguous non-empty 2-D OpenCL array ``data`` (left
    unchanged; :func:`fits` holds). Returns (sorted values, int32 positions in the row or None)."""
    m, k = data.shape
    place, dt = data.place, data.dtype
    assert isinstance(place, CLPlace)
    per = items(place, k, dt, arg)
    tiles = -(-k // (GROUP * per))
    ndig = dt.itemsize
    opts = " ".join(key_options(dt, descending=descending, arg=arg)
                    + ["-D IDX=int", f"-D GROUP={GROUP}", f"-D ITEMS={per}", f"-D NDIG={ndig}"])
    programs = runtime(place).programs
    text = source("include/sort_key.h") + source("radix_gpu.cl")
    counters = zeros((2 + ndig + m * ndig * 256,), _dt.uint32, device=place)  # bits, tickets, histograms
    bits, tickets, hist = counters[:2], counters[2:2 + ndig], counters[2 + ndig:]
    shape = ((m * tiles * GROUP,), (GROUP,))
    _launch("radix_count", programs.kernel(text, "radix_count", opts),
            [*ref(data), *ref(hist), *ref(bits), np.int64(k), np.int64(tiles)], shape, place, [data], [counters])
    if sched.capturing() is None:  # which digits vary (da.jit replays every pass: it cannot read back)
        lo, hi = (int(b) for b in bits.get())
        varying = lo | hi << 32
        shifts = [s for s in range(0, 8 * ndig, 8) if (varying >> s) & 255] or [0]
    else:
        shifts = list(range(0, 8 * ndig, 8))
    status = zeros((len(shifts) * m * tiles * 256 if tiles > 1 else 1,), _dt.uint32, device=place)
    step = m * tiles * 256
    kern = programs.kernel(text, "radix_pass", opts)
    pairs = 2 if len(shifts) > 1 else 1  # ping-pong buffers; data itself is never written
    vals = [empty((m, k), dt, place) for _ in range(pairs)]
    index = [empty((m, k), _dt.int32, place) for _ in range(pairs)] if arg else vals
    for n, shift in enumerate(shifts):
        src, dst = data if n == 0 else vals[(n - 1) % 2], vals[n % 2]
        isrc, idst = data if n == 0 else index[(n - 1) % 2], index[n % 2]
        sview = status[n * step:(n + 1) * step] if tiles > 1 else status
        args = [*ref(src), *ref(dst), *ref(isrc), *ref(idst), *ref(hist), *ref(sview), *ref(tickets[n:]),
                np.int64(k), np.int64(tiles), np.int32(shift), np.int32(n == 0)]
        _launch("radix_pass", kern, args, shape, place, [src, counters] + [isrc] * (arg and n > 0),
                [dst, status, counters] + [idst] * arg)
    return dst, idst if arg else None


def _launch(name: str, kern: cl.Kernel, args: list[Any], shape: tuple[tuple[int], tuple[int]], place: CLPlace,
            reads: list[DArray], writes: list[DArray]) -> None:
    sched.launch_kernel(name, kern, args, shape[0], shape[1], place=place, reads=[a._data() for a in reads],
                        writes=[a._data() for a in writes])
