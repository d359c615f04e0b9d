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
from fractions import Fraction

import numpy as np

from ._philox import _box_muller, _horner, philox

_MASK = np.uint64(0xFFFFFFFF)
_F = np.float64
Block = tuple[list[np.ndarray], np.ndarray, np.ndarray]  # (words x0..x3 as uint64, U0, U1)
Propose = Callable[[Block, np.ndarray], tuple[np.ndarray, np.ndarray]]


def _bernoulli(n: int) -> list[Fraction]:
    """Bernoulli numbers B_0 .. B_n (B_1 = -1/2)."""
    b = [Fraction(1)]
    for m in range(1, n + 1):
        b.append(-sum((math.comb(m + 1, k) * b[k] for k in range(m)), Fraction(0)) / (m + 1))
    return b


# Stirling's series of log Gamma in 1 / x^2 (B_2k / (2k (2k - 1)), k = 1..10) and 0.5 log(2 pi): -D options of
# kernels/samplers.cl (loggam)
STIRLING = np.array([float(b / (2 * k * (2 * k - 1))) for k, b in enumerate(_bernoulli(20)[2::2], 1)])
HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def loggam(x: np.ndarray) -> np.ndarray:
    """log Gamma(x) for x >= 1 (``loggam`` of the kernel): shifted up to y >= 7, then Stirling's series."""
    y, prod = x.copy(), np.ones_like(x)
    for _ in range(6):
        lo = y < 7
        prod = np.where(lo, prod * y, prod)
        y = np.where(lo, y + 1, y)
    return _horner(STIRLING, 1 / (y * y)) / y + HALF_LOG_2PI + (y - 0.5) * np.log(y) - y - np.log(prod)


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


def poisson(blocks: Blocks, lam: np.ndarray) -> np.ndarray:
    """Inversion of block 0's U0 (lam < 10), else PTRS (Hormann) with U0 - 1/2 and U1 of block j."""
    res = np.zeros(lam.size)
    inv = np.flatnonzero(lam < 10)
    if inv.size:
        u, lo = blocks(0, inv)[1], lam[inv]
        p = np.exp(-lo)
        f, k = p.copy(), np.zeros(inv.size)
        act = np.flatnonzero(u > f)
        while act.size:
            k[act] += 1
            p[act] = p[act] * lo[act] / k[act]
            f[act] += p[act]
            act = act[(u[act] > f[act]) & (p[act] > 0)]
        res[inv] = k
    big = np.flatnonzero(lam >= 10)
    lb = lam[big]
    slam, loglam = np.sqrt(lb), np.log(lb)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    lia, vr = np.log(1.1239 + 1.1328 / (b - 3.4)), 0.9277 - 3.6224 / (b - 2)

    def propose(blk: Block, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        u, v = blk[1] - 0.5, blk[2]
        us = 0.5 - np.abs(u)
        k = np.floor((2 * a[t] / us + b[t]) * u + lb[t] + 0.43)
        bad = (k < 0) | ((us < 0.013) & (v > us))
        kk = np.fmax(k, 0)
        fine = np.log(v) + lia[t] - np.log(a[t] / (us * us) + b[t]) <= -lb[t] + kk * loglam[t] - loggam(kk + 1)
        return k, ((us >= 0.07) & (v <= vr[t])) | (~bad & fine)

    res[big] = reject(blocks, big, propose)
    return res


def _binomial_inversion(blocks: Blocks, idx: np.ndarray, n: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Inversion for n r <= 30 (r <= 1/2): a new block's U0 past the bound."""
    q = 1 - r
    qn, nr = np.exp(n * np.log(q)), n * r
    bound = np.fmin(n, nr + 10 * np.sqrt(nr * q + 1))

    def propose(blk: Block, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        u, x, px = blk[1].copy(), np.zeros(t.size), qn[t].copy()
        nt, rt, qt = n[t], r[t], q[t]
        over = np.zeros(t.size, bool)
        act = np.flatnonzero(u > px)
        while act.size:
            x[act] += 1
            o = x[act] > bound[t][act]
            over[act[o]] = True
            act = act[~o]
            u[act] -= px[act]
            px[act] = ((nt[act] - x[act] + 1) * rt[act] * px[act]) / (x[act] * qt[act])
            act = act[u[act] > px[act]]
        return x, ~over

    return reject(blocks, idx, propose)


def _stirling_term(a: np.ndarray, a2: np.ndarray) -> np.ndarray:
    return (13860 - (462 - (132 - (99 - 140 / a2) / a2) / a2) / a2) / a / 166320


def _btpe(blocks: Blocks, idx: np.ndarray, n: np.ndarray, r: np.ndarray) -> np.ndarray:
    """BTPE (Kachitvichyanukul and Schmeiser) for n r > 30 (r <= 1/2) with U0 p4 and U1 of block j."""
    q = 1 - r
    fm = n * r + r
    m, nrq = np.floor(fm), n * r * q
    p1 = np.floor(2.195 * np.sqrt(nrq) - 4.6 * q) + 0.5
    xm = m + 0.5
    xl, xr = xm - p1, xm + p1
    c = 0.134 + 20.5 / (15.3 + m)
    al, ar = (fm - xl) / (fm - xl * r), (xr - fm) / (xr * q)
    laml, lamr = al * (1 + al / 2), ar * (1 + ar / 2)
    p2 = p1 * (1 + 2 * c)
    p3 = p2 + c / laml
    p4 = p3 + c / lamr
    s = r / q
    sa = s * (n + 1)

    def propose(blk: Block, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        v0 = blk[2]
        u = blk[1] * p4[t]
        r1 = u <= p1[t]
        r2 = ~r1 & (u <= p2[t])
        r3 = ~r1 & ~r2 & (u <= p3[t])
        r4 = ~r1 & ~r2 & ~r3
        x2 = xl[t] + (u - p1[t]) / c[t]
        y = np.floor(np.select([r1, r2, r3], [xm[t] - p1[t] * v0 + u, x2, xl[t] + np.log(v0) / laml[t]],
                               xr[t] - np.log(v0) / lamr[t]))
        v = np.select([r2, r3], [v0 * c[t] + 1 - np.abs(m[t] - x2 + 0.5) / p1[t], v0 * (u - p2[t]) * laml[t]],
                      v0 * (u - p3[t]) * lamr[t])
        test = ~r1 & ~(r2 & (v > 1)) & ~(r3 & (y < 0)) & ~(r4 & (y > n[t]))
        k = np.abs(y - m[t])
        squeeze = test & (k > 20) & (k < nrq[t] / 2 - 1)
        ok = r1.copy()
        d = np.flatnonzero(test & ~squeeze)
        if d.size:
            md, yd = m[t][d], y[d]
            f, i, top = np.ones(d.size), np.fmin(md, yd), np.fmax(md, yd)
            up = md < yd
            act = np.flatnonzero(i < top)
            while act.size:
                i[act] += 1
                tt = sa[t][d][act] / i[act] - s[t][d][act]
                f[act] = np.where(up[act], f[act] * tt, f[act] / tt)
                act = act[i[act] < top[act]]
            ok[d] = v[d] <= f
        e = np.flatnonzero(squeeze)
        if e.size:
            ke, ye, me, ne, nrqe = k[e], y[e], m[t][e], n[t][e], nrq[t][e]
            rho = (ke / nrqe) * ((ke * (ke / 3 + 0.625) + 1.0 / 6) / nrqe + 0.5)
            tt, lv = -ke * ke / (2 * nrqe), np.log(v[e])
            x1, f1, z, w = ye + 1, me + 1, ne + 1 - me, ne - ye + 1
            bound = (xm[t][e] * np.log(f1 / x1) + (ne - me + 0.5) * np.log(z / w)
                     + (ye - me) * np.log(w * r[t][e] / (x1 * q[t][e])) + _stirling_term(f1, f1 * f1)
                     + _stirling_term(z, z * z) + _stirling_term(x1, x1 * x1) + _stirling_term(w, w * w))
            ok[e] = (lv < tt - rho) | ((lv <= tt + rho) & (lv <= bound))
        return y, ok

    return reject(blocks, idx, propose)


def binomial(blocks: Blocks, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Of r = min(p, 1 - p) (n - x for p > 1/2): inversion for n r <= 30, else BTPE."""
    flip = p > 0.5
    r = np.where(flip, 1 - p, p)
    small = n * r <= 30
    res = np.zeros(n.size)
    for sel, fn in ((np.flatnonzero(small), _binomial_inversion), (np.flatnonzero(~small), _btpe)):
        res[sel] = fn(blocks, sel, n[sel], r[sel])
    return np.where(flip, n - res, res)


SAMPLERS: dict[str, Callable[..., np.ndarray]] = {"standard_gamma": standard_gamma, "poisson": poisson,
                                                  "binomial": binomial}


def host_sample(kind: str, key: tuple[int, int], tag: int, base: int, params: list[np.ndarray | float],
                shape: tuple[int, ...]) -> np.ndarray:
    """Draws of ``kind`` (float64 values) of ``shape`` from (key, base); ``params``: numbers or
    arrays broadcastable to ``shape``."""
    flat = [np.broadcast_to(np.asarray(p, _F), shape).reshape(-1) for p in params]
    with np.errstate(all="ignore"):  # rejected proposals may compute inf and NaN, as the kernel's do
        return SAMPLERS[kind](Blocks(key, tag, base, math.prod(shape)), *flat).reshape(shape)

