"""The discrete samplers of ``kernels/samplers.cl`` with NumPy (binomial, hypergeometric, zipf, logseries): the
kernel's proposals from the same blocks, vectorised over the pending elements (``_host_samplers``)."""
from __future__ import annotations

import math

import numpy as np

from ._host_samplers import Block, Blocks, exp8, expm18, log1p8, log8, loggam, reject


def _binomial_inversion(blocks: Blocks, idx: np.ndarray, n: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Inversion for n r <= 30 (r <= 1/2): a new block's U0 past the bound."""
    q = 1 - r
    qn, nr = np.exp(n * np.log1p(-r)), n * r
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
        y = np.floor(np.select([r1, r2, r3], [xm[t] - p1[t] * v0 + u, x2, xl[t] + log8(v0) / laml[t]],
                               xr[t] - log8(v0) / lamr[t]))
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
            tt, lv = -ke * ke / (2 * nrqe), log8(v[e])
            x1, f1, z, w = ye + 1, me + 1, ne + 1 - me, ne - ye + 1
            bound = (xm[t][e] * log8(f1 / x1) + (ne - me + 0.5) * log8(z / w)
                     + (ye - me) * log8(w * r[t][e] / (x1 * q[t][e])) + _stirling_term(f1, f1 * f1)
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



def hypergeometric(blocks: Blocks, good: np.ndarray, bad: np.ndarray, nsample: np.ndarray) -> np.ndarray:
    """Of m = min(nsample, total - nsample) draws: an urn for m < 10 (draw 2j + h: U_h of block j), else HRUA with
    1 - U0 and U1 of block j."""
    total = good + bad
    cs = np.fmin(nsample, total - nsample)
    res = np.zeros(good.size)
    urn = np.flatnonzero((cs < 10) & (cs > 0))
    g, t = good[urn].copy(), total[urn].copy()
    act, j = np.arange(urn.size), 0
    while act.size:
        b = blocks(j, urn[act])
        for h in (0, 1):
            on = (2 * j + h) < cs[urn][act]
            u, act = b[1 + h][on], act[on]
            b = (b[0], b[1][on], b[2][on])
            pick = act[u * t[act] < g[act]]
            res[urn[pick]] += 1
            g[pick] -= 1
            t[act] -= 1
        j += 1
    big = np.flatnonzero(cs >= 10)
    gb, bb, cb, tb = good[big], bad[big], cs[big], total[big]
    mingb, maxgb = np.fmin(gb, bb), np.fmax(gb, bb)
    p, q = mingb / tb, maxgb / tb
    a, c = cb * p + 0.5, np.sqrt((tb - cb) * cb * p * q / (tb - 1) + 0.5)
    h = 2 * np.sqrt(2 / math.e) * c + (3 - 2 * np.sqrt(3 / math.e))
    m = np.floor((cb + 1) * (mingb + 1) / (tb + 2))
    lg = loggam(m + 1) + loggam(mingb - m + 1) + loggam(cb - m + 1) + loggam(maxgb - cb + m + 1)
    top = np.fmin(np.fmin(cb, mingb) + 1, np.floor(a + 16 * c))

    def propose(blk: Block, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        u = 1 - blk[1]
        x = a[t] + h[t] * (blk[2] - 0.5) / u
        k = np.clip(np.floor(x), 0, top[t] - 1)
        ct = cb[t]
        d = lg[t] - (loggam(k + 1) + loggam(mingb[t] - k + 1) + loggam(ct - k + 1) + loggam(maxgb[t] - ct + k + 1))
        return k, (x >= 0) & (x < top[t]) & ((u * (4 - u) - 3 <= d) | ((u * (u - d) < 1) & (2 * log8(u) <= d)))

    k = reject(blocks, big, propose)
    res[big] = np.where(gb > bb, cb - k, k)
    return np.where(cs < nsample, good - res, res)


def zipf(blocks: Blocks, a: np.ndarray) -> np.ndarray:
    """Devroye's rejection with U = 1 - U0 (1 - 2^(63 (1 - a))) and U1 of block j; a >= 1025 gives 1. T - 1 and
    b - 1 through expm1: exact in the tail, where NumPy's (1 + 1/X)^(a - 1) rounds to 1 and accepts every X > 2^53.
    Every function is darray's own (exp8, expm18, log1p8, log8: the kernel's bits), so X, whose U^(-1/(a - 1))
    amplifies a last-bit difference of 2^(63 (1 - a)) by 1/(a - 1), is the same integer on every place."""
    res = np.ones(a.size)
    live = np.flatnonzero(a < 1025)
    am1 = a[live] - 1
    bm1, umin = expm18(am1 * math.log(2)), exp8((1 - a[live]) * (63 * math.log(2)))

    def propose(blk: Block, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with np.errstate(divide="ignore"):
            x = np.floor(exp8(log8(1 - blk[1] * (1 - umin[t])) * (-1 / am1[t])))
            tm1 = expm18(am1[t] * log1p8(1 / x))
        return x, (x >= 1) & (x < 2.0 ** 63) & (blk[2] * x * tm1 / bm1[t] <= (1 + tm1) / (1 + bm1[t]))

    res[live] = reject(blocks, live, propose)
    return res


def logseries(blocks: Blocks, p: np.ndarray) -> np.ndarray:
    """Kemp's second method with V = U0 and U = U1 of block j."""
    r = np.log1p(-p)

    def propose(blk: Block, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        v = blk[1]
        q = -np.expm1(r[t] * blk[2])
        k = np.floor(1 + log8(v) / log8(q))
        low = (v < p[t]) & (v <= q * q)
        return np.where(low, k, np.where((v >= p[t]) | (v >= q), 1.0, 2.0)), ~low | ((k >= 1) & (v != 0))

    return reject(blocks, np.arange(p.size), propose)
