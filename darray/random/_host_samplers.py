"""The samplers of ``kernels/samplers.cl`` with NumPy, for the ``cpu`` place (and devices without float64).

Element i of a draw at ``base`` takes its j-th block of Philox words from counter
(lo32(base + i), hi32(base + i), j, tag); each sampler here makes the same proposals from the
same blocks in the same order as the kernel, vectorised over the elements still pending. log is
darray's own (:func:`log8`, the kernel's bits); exp, pow, cos, acos, expm1 and log1p are NumPy's
against the device's, so the integer kinds give the kernel's numbers but where one of those lands
on the other side of a bound (rarely), and the float ones agree to their accuracy.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from ._philox import _box_muller, _constants, _horner, philox

_MASK = np.uint64(0xFFFFFFFF)
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


def log8(x: np.ndarray) -> np.ndarray:
    """log x as ``log8`` of the kernel computes it (Box-Muller's series): the same bits."""
    c = _constants("float64")
    sub = x < 2.0 ** -1022
    bits = (x * np.where(sub, 2.0 ** 54, 1.0)).view(np.int64)
    m = ((bits & np.int64((1 << 52) - 1)) | np.int64(1023 << 52)).view(np.float64)
    big = m > c["SQRT2"][0]
    f = np.where(big, m * 0.5, m) - 1
    e = ((bits >> np.int64(52)) - 1023 + big - np.where(sub, 54, 0)).astype(np.float64)
    t = f / (2 + f)
    z = t * t
    lg = e * c["LN2"][0] + (e * c["LN2"][1] + (2 * t + (t * z) * _horner(c["LOG"], z)))
    return np.where((x < 0) | np.isnan(x), np.nan, np.where(x == np.inf, x, np.where(x == 0, -np.inf, lg)))


EXP_C = np.array([1 / math.factorial(n) for n in range(15)])  # e^r's Taylor series (exp8; -D EXP_C)
_LOG2E = 1.4426950408889634  # M_LOG2E


def exp8(y: np.ndarray) -> np.ndarray:
    """e^y as ``exp8`` of the kernel computes it (rint, Cody-Waite's ln2 in two parts, a Taylor series, ldexp):
    the same bits."""
    ln2 = _constants("float64")["LN2"]
    c = np.fmin(np.fmax(y, -746.0), 710.0)
    k = np.rint(c * _LOG2E)
    r = (c - k * ln2[0]) - k * ln2[1]
    p = _horner(EXP_C, r)
    return np.where(np.isnan(y), y, np.ldexp(p, np.nan_to_num(k).astype(np.int32)))


def expm18(y: np.ndarray) -> np.ndarray:
    """e^y - 1 as ``expm18`` of the kernel (Kahan's: (u - 1) (y / log8(u)), u = exp8(y))."""
    u = exp8(y)
    with np.errstate(invalid="ignore", divide="ignore"):
        v = (u - 1) * (y / log8(u))
    return np.where((u == 0) | (u == np.inf), u - 1, np.where(u == 1, y, v))


def log1p8(z: np.ndarray) -> np.ndarray:
    """log(1 + z) as ``log1p8`` of the kernel (Goldberg's: log8(u) z / (u - 1), u = 1 + z)."""
    u = 1 + z
    with np.errstate(invalid="ignore", divide="ignore"):
        v = log8(u) * z / (u - 1)
    return np.where(u == np.inf, log8(u), np.where(u == 1, z, v))


LOGFACT = np.array([math.lgamma(k + 1) for k in range(128)])  # log k! below 128: -D LOGFACT_C (logfact)


def logfact(k: np.ndarray) -> np.ndarray:
    """log k! of integers k >= 0 (``logfact`` of the kernel): the table below 128, else :func:`loggam`."""
    return np.where(k < 128, LOGFACT[np.minimum(k, 127).astype(np.int64)], loggam(k + 1))


def loggam(x: np.ndarray) -> np.ndarray:
    """log Gamma(x) for x >= 1 (``loggam`` of the kernel): shifted up to y >= 7, then Stirling's series."""
    y, prod = x.copy(), np.ones_like(x)
    for _ in range(6):
        lo = y < 7
        prod = np.where(lo, prod * y, prod)
        y = np.where(lo, y + 1, y)
    return _horner(STIRLING, 1 / (y * y)) / y + HALF_LOG_2PI + (y - 0.5) * log8(y) - y - log8(prod)


class Blocks:
    """Philox blocks of one draw: ``blocks(j, idx)`` is block ``j`` of elements ``idx``."""

    def __init__(self, key: tuple[int, int], tag: int, base: int, size: int) -> None:
        self.key, self.tag = key, tag
        self.ctr = np.uint64(base % 2**64) + np.arange(size, dtype=np.uint64)

    def __call__(self, j: int, idx: np.ndarray) -> Block:
        c = self.ctr[idx]
        w = philox([c & _MASK, c >> np.uint64(32), np.full(c.shape, j, np.uint32),
                    np.full(c.shape, self.tag, np.uint32)], self.key)
        x = [v.astype(np.uint64) for v in w]
        pairs = [(x[0] << np.uint64(32)) | x[1], (x[2] << np.uint64(32)) | x[3]]
        u0, u1 = ((p >> np.uint64(11)).astype(np.float64) * 2.0 ** -53 for p in pairs)
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
        u = (b[0][3].astype(np.float64) + 0.5) * 2.0 ** -32
        v1 = 1 + c[t] * x
        v, xx = v1 * v1 * v1, x * x
        ok = (v1 > 0) & ((u < 1 - 0.0331 * xx * xx) | (log8(u) < 0.5 * xx + d[t] * (1 - v + log8(v))))
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
    slam, loglam = np.sqrt(lb), log8(lb)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    inva, vr = 1.1239 + 1.1328 / (b - 3.4), 0.9277 - 3.6224 / (b - 2)

    def propose(blk: Block, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        u, v = blk[1] - 0.5, blk[2]
        us = 0.5 - np.abs(u)
        k = np.floor((2 * a[t] / us + b[t]) * u + lb[t] + 0.43)
        bad = (k < 0) | ((us < 0.013) & (v > us))
        kk = np.fmax(k, 0)
        fine = log8(v * inva[t] / (a[t] / (us * us) + b[t])) <= -lb[t] + kk * loglam[t] - logfact(kk)
        return k, ((us >= 0.07) & (v <= vr[t])) | (~bad & fine)

    res[big] = reject(blocks, big, propose)
    return res



def vonmises(blocks: Blocks, mu: np.ndarray, kappa: np.ndarray) -> np.ndarray:
    """Best-Fisher with U0, U1 of block j (sign: bit 0 of w3), wrapped to [-pi, pi]; kappa < 1e-8: a uniform angle,
    kappa > 1e6: a normal of sd 1 / sqrt(kappa) (block 0)."""
    res = np.zeros(mu.size)
    tiny, huge = kappa < 1e-8, kappa > 1e6
    ends = np.flatnonzero(tiny | huge)
    if ends.size:
        x, u0, _ = blocks(0, ends)
        z, _ = _box_muller(((x[0] << np.uint64(32)) | x[1]) >> np.uint64(11),
                           ((x[2] << np.uint64(32)) | x[3]) >> np.uint64(11), "float64")
        res[ends] = np.where(tiny[ends], np.pi * (2 * u0 - 1), mu[ends] + np.sqrt(1 / kappa[ends]) * z)
    mid = np.flatnonzero(~tiny & ~huge)
    k = kappa[mid]
    rr = 1 + np.sqrt(1 + 4 * k * k)
    rho = (rr - np.sqrt(2 * rr)) / (2 * k)
    s = np.where(k < 1e-5, 1 / k + k, (1 + rho * rho) / (2 * rho))

    def propose(b: Block, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        z = np.cos(np.pi * b[1])
        w = (1 + s[t] * z) / (s[t] + z)
        y = k[t] * (s[t] - w)
        angle = np.arccos(w)
        ok = (y * (2 - y) - b[2] >= 0) | (log8(y / b[2]) + 1 - y >= 0)
        return np.where(b[0][3] & np.uint64(1), angle, -angle), ok

    res[mid] = mu[mid] + reject(blocks, mid, propose)
    md = np.fmod(np.abs(res) + np.pi, 2 * np.pi) - np.pi
    return np.where(tiny, res, np.where(res < 0, -md, md))



