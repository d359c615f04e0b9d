"""The samplers of ``kernels/samplers.cl`` with NumPy, for the ``cpu`` place (and devices without float64).

Element i of a draw at ``base`` takes its j-th block of Philox words from counter
(lo32(base + i), hi32(base + i), j, tag); each sampler here makes the same proposals from the
same blocks in the same order as the kernel, vectorised over the elements still pending, so
the integer kinds give the kernel's numbers and the float ones agree to the accuracy of
log, exp and pow (NumPy's against the device's).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ._philox import _box_muller, philox

_MASK = np.uint64(0xFFFFFFFF)
_F = np.float64
Block = tuple[list[np.ndarray], np.ndarray, np.ndarray]  # (words x0..x3 as uint64, U0, U1)
Propose = Callable[[Block, np.ndarray], tuple[np.ndarray, np.ndarray]]


class Blocks:
    """Philox blocks of one draw: ``blocks(j, idx)`` is block ``j`` of elements ``idx``."""

    def __init__(self, key: tuple[int, int], tag: int, base: int, size: int) -> None:
        self.key, self.tag = key, tag
        self.ctr = np.uint64(base) + np.arange(size, dtype=np.uint64)

    def __call__(self, j: int, idx: np.ndarray) -> Block:
        c = self.ctr[idx]
        w = philox([c & _MASK, c >> np.uint64(32), np.full(c.shape, j, np.uint32),
                    np.full(c.shape, self.tag, np.uint32)], self.key)
        x = [v.astype(np.uint64) for v in w]
        pairs = [(x[0] << np.uint64(32)) | x[1], (x[2] << np.uint64(32)) | x[3]]
        u0, u1 = ((p >> np.uint64(11)).astype(_F) * 2.0 ** -53 for p in pairs)
        return x, u0, u1


def reject(blocks: Blocks, idx: np.ndarray, propose: Propose) -> np.ndarray:
    """The first accepted proposal of each element ``idx`` over blocks j = 0, 1, ...:
    ``propose(block, t)`` gives (values, accepted) for the elements ``idx[t]``."""
    res = np.zeros(idx.size)
    todo = np.arange(idx.size)
    j = 0
    while todo.size:
        val, ok = propose(blocks(j, idx[todo]), todo)
        res[todo[ok]] = val[ok]
        todo = todo[~ok]
        j += 1
    return res


def marsaglia_tsang(blocks: Blocks, idx: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Gamma(d + 1/3) draws of elements ``idx`` (``marsaglia_tsang`` of the kernel)."""
    c = 1 / np.sqrt(9 * d)

    def propose(b: Block, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x, _ = _box_muller(((b[0][0] << np.uint64(32)) | b[0][1]) >> np.uint64(11), b[0][2] << np.uint64(21),
                           "float64")
        u = (b[0][3].astype(_F) + 0.5) * 2.0 ** -32
        v1 = 1 + c[t] * x
        v, xx = v1 * v1 * v1, x * x
        ok = (v1 > 0) & ((u < 1 - 0.0331 * xx * xx) | (np.log(u) < 0.5 * xx + d[t] * (1 - v + np.log(v))))
        return d[t] * v, ok

    return reject(blocks, idx, propose)


def standard_gamma(blocks: Blocks, a: np.ndarray) -> np.ndarray:
    """Marsaglia-Tsang; shape < 1 through shape + 1 and ``U0 ** (1 / shape)`` of block 2^32 - 1; shape 0 gives 0."""
    res = np.zeros(a.size)
    small = a < 1
    live = np.flatnonzero(a != 0)
    res[live] = marsaglia_tsang(blocks, live, np.where(small, a + 1, a)[live] - 1.0 / 3)
    boost = np.flatnonzero(small & (a != 0))
    if boost.size:
        res[boost] = res[boost] * (1 - blocks(0xFFFFFFFF, boost)[1]) ** (1 / a[boost])
    return res


SAMPLERS: dict[str, Callable[..., np.ndarray]] = {"standard_gamma": standard_gamma}


def host_sample(kind: str, key: tuple[int, int], tag: int, base: int, params: list[np.ndarray | float],
                shape: tuple[int, ...]) -> np.ndarray:
    """Draws of ``kind`` (float64 values) of ``shape`` from (key, base); ``params``: numbers or
    arrays broadcastable to ``shape``."""
    flat = [np.broadcast_to(np.asarray(p, _F), shape).reshape(-1) for p in params]
    with np.errstate(all="ignore"):  # rejected proposals may compute inf and NaN, as the kernel's do
        return SAMPLERS[kind](Blocks(key, tag, base, math.prod(shape)), *flat).reshape(shape)
