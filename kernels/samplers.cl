/* darray random: samplers of darray/random/_samplers.py, appended to kernels/philox.cl (its macros PHILOX, HORNER,
 * STORE, LOOP and box_muller64) and built with its options (DARRAY_FP64 required) plus
 *   -D DARRAY_SAMPLERS -D KIND_<kind> (the one entry point built) -D TAG=<t> (word 3 of every counter)
 *   -D OUT=<float|double|long> -D CONVERT_OUT=convert_<OUT>8, -D A0=1 (A1, A2): parameter k is an array,
 *   -D LOGGAM_C=<Stirling's series of log Gamma, hex literals> -D HALF_LOG_2PI=<hex literal>.
 * Element i draws its j-th block of four words w0..w3 from counter (lo32(base + i), hi32(base + i), j, TAG) and
 * key (k0, k1); U0 = (w0 w1 >> 11) 2^-53 and U1 = (w2 w3 >> 11) 2^-53 are its uniforms in [0, 1). Work-item t
 * computes groups [t * ch, min((t + 1) * ch, n)) of 8 elements as vectors, one lane per element; a rejection loop
 * runs until every lane has accepted, each lane keeping its first accepted proposal, so the numbers do not depend on
 * the lanes' company. Arithmetic in double; log, exp, pow, cos... are OpenCL's. darray/random/_host_samplers.py
 * computes the same numbers with NumPy.
 * Entry points, all (__global OUT *out, long out_o, long size, uint k0, uint k1, ulong base,
 *   __global const double *a0, long o0, double s0, (a1, o1, s1), (a2, o2, s2), long n, long ch):
 *   parameter k of element i is a_k[o_k + i] with -D Ak=1, else s_k; out[out_o + i] for i < size.
 *   standard_gamma(shape): Marsaglia-Tsang (shape < 1: of shape + 1, times U0^(1/shape) of block j = 2^32 - 1)
 *   poisson(lam): inversion of U0 of block 0 (lam < 10), PTRS (Hormann 1993) with U0 - 1/2, U1 of block j
 *   binomial(n, p): of r = min(p, 1 - p) (n - x for p > 1/2): inversion of U0 of block j, restarted past a bound
 *       (n r <= 30), BTPE (Kachitvichyanukul and Schmeiser 1988) with U0, U1 of block j
 *   hypergeometric(ngood, nbad, nsample): of m = min(nsample, total - nsample) draws: an urn for m < 10 (draw 2j + h
 *       takes a good ball when U_h of block j times the balls left < the good ones left), else HRUA (Stadlober)
 *       with 1 - U0, U1 of block j
 *   vonmises(mu, kappa): Best-Fisher with U0, U1 of block j (the sign: bit 0 of w3), wrapped to [-pi, pi];
 *       kappa < 1e-8: pi (2 U0 - 1) of block 0; kappa > 1e6: mu + Box-Muller's normal of block 0 / sqrt(kappa)
 *   zipf(a): Devroye's rejection with U = 1 - U0 (1 - 2^(63 (1 - a))) and U1 of block j; a >= 1025: 1. T - 1 and
 *       b - 1 through expm1 (NumPy's pow(1 + 1/X, a - 1) rounds to 1 for X > 2^53 and accepts every such X)
 *   logseries(p): Kemp's second method with V = U0, U = U1 of block j
 */
#ifndef A0
#  define A0 0
#endif
#ifndef A1
#  define A1 0
#endif
#ifndef A2
#  define A2 0
#endif

typedef double8 R;
typedef long8 M;  /* lane masks: -1 true, 0 false */

#define LANES (long8)(0, 1, 2, 3, 4, 5, 6, 7)

/* Block j of the lanes' counters ctr: the words x0..x3 (32 bits in each ulong) and the uniforms U0, U1. */
#define BLOCK(j) \
    ulong8 x0 = ctr & 0xFFFFFFFFUL, x1 = ctr >> 32, x2 = (ulong8)(j), x3 = (ulong8)(TAG); \
    PHILOX(x0, x1, x2, x3, k0, k1) \
    const R U0 = convert_double8(((x0 << 32) | x1) >> 11) * 0x1p-53; \
    const R U1 = convert_double8(((x2 << 32) | x3) >> 11) * 0x1p-53;

/* Parameter values of elements [at, at + 8): the array a (from o), or s; lanes past size repeat the last element. */
R param(__global const double *a, const long o, const double s, const int array, const long at, const long size) {
    if (!array) return (R)(s);
    if (at + 8 <= size) return vload8(0, a + o + at);
    R v;
    for (int l = 0; l < 8; l++) v[l] = a[o + min(at + l, size - 1)];
    return v;
}

/* Marsaglia-Tsang: d v for the first accepted (x, u) of blocks j = 0, 1, ..., d = shape - 1/3, c = 1 / sqrt(9 d);
 * x: Box-Muller's cos normal of (w0 w1 >> 11, w2 << 21), u = (w3 + 1/2) 2^-32. Lanes in done stay 0. */
R marsaglia_tsang(const R d, const R c, const ulong8 ctr, M done, const uint k0, const uint k1) {
    R res = 0;
    for (uint j = 0; !all(done); j++) {
        BLOCK(j)
        R x, y;
        box_muller64(((x0 << 32) | x1) >> 11, x2 << 21, &x, &y);
        const R u = (convert_double8(x3) + 0.5) * 0x1p-32, v1 = 1 + c * x, v = v1 * v1 * v1, xx = x * x;
        const M ok = ~done & (v1 > 0) & ((u < 1 - 0.0331 * xx * xx) | (log(u) < 0.5 * xx + d * (1 - v + log(v))));
        res = select(res, d * v, ok);
        done |= ok;
    }
    return res;
}

R standard_gamma_8(const R a, const R p1, const R p2, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const M zero = a == 0, small = a < 1;
    const R d = select(a, a + 1, small) - 1.0 / 3, c = 1 / sqrt(9 * d);
    R res = marsaglia_tsang(d, c, ctr, idle | zero, k0, k1);
    if (any(small & ~zero & ~idle)) {
        BLOCK(0xFFFFFFFFU)
        res = select(res, res * pow(1 - U0, 1 / a), small);
    }
    return select(res, (R)(0), zero);
}

__constant double LOGGAM[] = {LOGGAM_C};

/* BTPE's correction of Stirling's formula at a (a2 = a^2). */
#define STIRLING_TERM(a, a2) ((13860 - (462 - (132 - (99 - 140 / a2) / a2) / a2) / a2) / a / 166320)

/* log Gamma(x) for x >= 1: shifted up to y >= 7 (minus the log of the shifts' product), then Stirling's series. */
R loggam(const R x) {
    R y = x, prod = 1;
    for (int i = 0; i < 6; i++) {
        const M lo = y < 7;
        prod = select(prod, prod * y, lo);
        y = select(y, y + 1, lo);
    }
    const R z = 1 / (y * y);
    R s;
    HORNER(LOGGAM, z, s)
    return s / y + HALF_LOG_2PI + (y - 0.5) * log(y) - y - log(prod);
}

R poisson_8(const R lam, const R p1, const R p2, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const M small = lam < 10;
    R res = 0;
    M act = small & ~idle;
    if (any(act)) {  /* inversion: k while U0 > P(X <= k) */
        BLOCK(0)
        R p = exp(-lam), f = p;
        act &= U0 > f;
        while (any(act)) {
            res = select(res, res + 1, act);
            p = select(p, p * lam / res, act);
            f = select(f, f + p, act);
            act &= (U0 > f) & (p > 0);
        }
    }
    M pend = ~small & ~idle;
    if (!any(pend)) return res;
    const R slam = sqrt(lam), loglam = log(lam), b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    const R lia = log(1.1239 + 1.1328 / (b - 3.4)), vr = 0.9277 - 3.6224 / (b - 2);
    for (uint j = 0; any(pend); j++) {
        BLOCK(j)
        const R u = U0 - 0.5, us = 0.5 - fabs(u), k = floor((2 * a / us + b) * u + lam + 0.43);
        const M bad = (k < 0) | ((us < 0.013) & (U1 > us));
        const R kk = fmax(k, 0);
        const M ok = pend & (((us >= 0.07) & (U1 <= vr)) |
                             (~bad & (log(U1) + lia - log(a / (us * us) + b) <= -lam + kk * loglam - loggam(kk + 1))));
        res = select(res, k, ok);
        pend &= ~ok;
    }
    return res;
}

R binomial_8(const R n, const R p, const R p2_, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const M flip = p > 0.5;
    const R r = select(p, 1 - p, flip), q = 1 - r;
    const M small = n * r <= 30;
    R res = 0;
    M pend = small & ~idle;
    if (any(pend)) {  /* inversion, restarted with the next block past the bound */
        const R qn = exp(n * log(q)), nr = n * r, bound = fmin(n, nr + 10 * sqrt(nr * q + 1));
        for (uint j = 0; any(pend); j++) {
            BLOCK(j)
            R u = U0, x = 0, px = qn;
            M act = pend & (u > px), over = 0;
            while (any(act)) {
                x = select(x, x + 1, act);
                const M o = act & (x > bound);
                over |= o;
                act &= ~o;
                u = select(u, u - px, act);
                px = select(px, ((n - x + 1) * r * px) / (x * q), act);
                act &= u > px;
            }
            res = select(res, x, pend & ~over);
            pend &= over;
        }
    }
    pend = ~small & ~idle;
    if (any(pend)) {  /* BTPE */
        const R fm = n * r + r, m = floor(fm), nrq = n * r * q;
        const R p1 = floor(2.195 * sqrt(nrq) - 4.6 * q) + 0.5, xm = m + 0.5, xl = xm - p1, xr = xm + p1;
        const R c = 0.134 + 20.5 / (15.3 + m), al = (fm - xl) / (fm - xl * r), ar = (xr - fm) / (xr * q);
        const R laml = al * (1 + al / 2), lamr = ar * (1 + ar / 2);
        const R p2 = p1 * (1 + 2 * c), p3 = p2 + c / laml, p4 = p3 + c / lamr;
        const R s = r / q, sa = s * (n + 1);
        for (uint j = 0; any(pend); j++) {
            BLOCK(j)
            const R u = U0 * p4;
            const M r1 = u <= p1, r2 = ~r1 & (u <= p2), r3 = ~r1 & ~r2 & (u <= p3), r4 = ~r1 & ~r2 & ~r3;
            const R xs = xl + (u - p1) / c;
            const R y = select(select(select(floor(xr - log(U1) / lamr), floor(xl + log(U1) / laml), r3),
                                      floor(xs), r2), floor(xm - p1 * U1 + u), r1);
            const R v = select(select(U1 * (u - p3) * lamr, U1 * (u - p2) * laml, r3),
                               U1 * c + 1 - fabs(m - xs + 0.5) / p1, r2);
            const M test = pend & ~r1 & ~(r2 & (v > 1)) & ~(r3 & (y < 0)) & ~(r4 & (y > n));
            const R k = fabs(y - m);
            const M squeeze = test & (k > 20) & (k < nrq / 2 - 1), direct = test & ~squeeze;
            M ok = pend & r1;
            if (any(direct)) {  /* v <= f(y) / f(m) by the ratios of successive probabilities */
                R f = 1, i = fmin(m, y);
                M act = direct & (i < fmax(m, y));
                const M up = m < y;
                while (any(act)) {
                    i = select(i, i + 1, act);
                    const R t = sa / i - s;
                    f = select(f, select(f / t, f * t, up), act);
                    act &= i < fmax(m, y);
                }
                ok |= direct & (v <= f);
            }
            if (any(squeeze)) {  /* the bounds of log f(y) / f(m), then Stirling's approximation */
                const R rho = (k / nrq) * ((k * (k / 3 + 0.625) + 1.0 / 6) / nrq + 0.5);
                const R t = -k * k / (2 * nrq), lv = log(v);
                const R y1 = y + 1, f1 = m + 1, z = n + 1 - m, w = n - y + 1;
                const R y1s = y1 * y1, f1s = f1 * f1, zs = z * z, ws = w * w;
                const R bound = xm * log(f1 / y1) + (n - m + 0.5) * log(z / w) + (y - m) * log(w * r / (y1 * q)) +
                                STIRLING_TERM(f1, f1s) + STIRLING_TERM(z, zs) + STIRLING_TERM(y1, y1s) +
                                STIRLING_TERM(w, ws);
                ok |= squeeze & ((lv < t - rho) | ((lv <= t + rho) & (lv <= bound)));
            }
            res = select(res, y, ok);
            pend &= ~ok;
        }
    }
    return select(res, n - res, flip);
}

R hypergeometric_8(const R good, const R bad, const R nsample, const ulong8 ctr, const M idle, const uint k0,
                   const uint k1) {
    const R total = good + bad, cs = fmin(nsample, total - nsample);
    const M small = cs < 10;
    R res = 0;
    M act = small & ~idle & (cs > 0);
    if (any(act)) {  /* the urn */
        R g = good, t = total;
        for (uint j = 0; any(act); j++) {
            BLOCK(j)
            for (int h = 0; h < 2; h++) {
                act &= (R)(2 * j + h) < cs;
                const M good_one = act & ((h ? U1 : U0) * t < g);
                res = select(res, res + 1, good_one);
                g = select(g, g - 1, good_one);
                t = select(t, t - 1, act);
            }
        }
    }
    M pend = ~small & ~idle;
    if (any(pend)) {  /* HRUA */
        const R mingb = fmin(good, bad), maxgb = fmax(good, bad), p = mingb / total, q = maxgb / total;
        const R a = cs * p + 0.5, c = sqrt((total - cs) * cs * p * q / (total - 1) + 0.5);
        const R h = 2 * sqrt(2 / M_E) * c + (3 - 2 * sqrt(3 / M_E)), m = floor((cs + 1) * (mingb + 1) / (total + 2));
        const R lg = loggam(m + 1) + loggam(mingb - m + 1) + loggam(cs - m + 1) + loggam(maxgb - cs + m + 1);
        const R b = fmin(fmin(cs, mingb) + 1, floor(a + 16 * c));
        const M hrua = pend;
        for (uint j = 0; any(pend); j++) {
            BLOCK(j)
            const R u = 1 - U0, x = a + h * (U1 - 0.5) / u, k = clamp(floor(x), (R)(0), b - 1);
            const R t = lg - (loggam(k + 1) + loggam(mingb - k + 1) + loggam(cs - k + 1) + loggam(maxgb - cs + k + 1));
            const M ok = pend & (x >= 0) & (x < b) & ((u * (4 - u) - 3 <= t) | ((u * (u - t) < 1) & (2 * log(u) <= t)));
            res = select(res, k, ok);
            pend &= ~ok;
        }
        res = select(res, cs - res, hrua & (good > bad));
    }
    return select(res, good - res, cs < nsample);
}

R vonmises_8(const R mu, const R kappa, const R p2, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const M tiny = kappa < 1e-8, huge = kappa > 1e6;
    R res = 0;
    if (any((tiny | huge) & ~idle)) {
        BLOCK(0)
        R z, zs;
        box_muller64(((x0 << 32) | x1) >> 11, ((x2 << 32) | x3) >> 11, &z, &zs);
        res = select(select(res, mu + sqrt(1 / kappa) * z, huge), M_PI * (2 * U0 - 1), tiny);
    }
    M pend = ~tiny & ~huge & ~idle;
    if (any(pend)) {  /* Best and Fisher's rejection */
        const M mid = pend;
        const R rr = 1 + sqrt(1 + 4 * kappa * kappa), rho = (rr - sqrt(2 * rr)) / (2 * kappa);
        const R s = select((1 + rho * rho) / (2 * rho), 1 / kappa + kappa, kappa < 1e-5);
        R w = 0;
        M neg = 0;
        for (uint j = 0; any(pend); j++) {
            BLOCK(j)
            const R z = cos(M_PI * U0), wj = (1 + s * z) / (s + z), y = kappa * (s - wj);
            const M ok = pend & ((y * (2 - y) - U1 >= 0) | (log(y / U1) + 1 - y >= 0));
            w = select(w, wj, ok);
            neg = select(neg, (x3 & 1) == 0, ok);
            pend &= ~ok;
        }
        const R angle = acos(w);
        res = select(res, mu + select(angle, -angle, neg), mid);
    }
    const R md = fmod(fabs(res) + M_PI, 2 * M_PI) - M_PI;
    return select(select(md, -md, res < 0), res, tiny);
}

R zipf_8(const R a, const R p1, const R p2, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const R am1 = a - 1, bm1 = expm1(am1 * M_LN2), umin = pow((R)(0x1p63), -am1);
    M pend = ~idle & (a < 1025);
    R res = 1;
    for (uint j = 0; any(pend); j++) {
        BLOCK(j)
        const R x = floor(pow(1 - U0 * (1 - umin), -1 / am1)), tm1 = expm1(am1 * log1p(1 / x));
        const M ok = pend & (x >= 1) & (x < 0x1p63) & (U1 * x * tm1 / bm1 <= (1 + tm1) / (1 + bm1));
        res = select(res, x, ok);
        pend &= ~ok;
    }
    return res;
}

R logseries_8(const R p, const R p1, const R p2, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const R r = log1p(-p);
    M pend = ~idle;
    R res = 1;
    for (uint j = 0; any(pend); j++) {
        BLOCK(j)
        const R q = -expm1(r * U1), k = floor(1 + log(U0) / log(q));
        const M low = (U0 < p) & (U0 <= q * q);
        const M ok = pend & (~low | ((k >= 1) & (U0 != 0)));
        res = select(res, select(select((R)(2), (R)(1), (U0 >= p) | (U0 >= q)), k, low), ok);
        pend &= ~ok;
    }
    return res;
}

/* The entry point NAME: NAME_8(p0, p1, p2, counters, lanes past size, key) per group of 8 elements. */
#define SAMPLER(NAME) \
__kernel void NAME(__global OUT *out, long out_o, long size, uint k0, uint k1, ulong base, \
                   __global const double *a0, long o0, double s0, __global const double *a1, long o1, double s1, \
                   __global const double *a2, long o2, double s2, long n, long ch) { \
    LOOP { \
        const long at = 8 * g; \
        const ulong8 ctr = (ulong8)(base + (ulong)at) + convert_ulong8(LANES); \
        const R res = NAME##_8(param(a0, o0, s0, A0, at, size), param(a1, o1, s1, A1, at, size), \
                           param(a2, o2, s2, A2, at, size), ctr, ((M)(at) + LANES) >= (M)(size), k0, k1); \
        STORE(CONVERT_OUT(res), at) \
    } \
}

#ifdef KIND_standard_gamma
SAMPLER(standard_gamma)
#endif
#ifdef KIND_poisson
SAMPLER(poisson)
#endif
#ifdef KIND_binomial
SAMPLER(binomial)
#endif
#ifdef KIND_hypergeometric
SAMPLER(hypergeometric)
#endif
#ifdef KIND_vonmises
SAMPLER(vonmises)
#endif
#ifdef KIND_zipf
SAMPLER(zipf)
#endif
#ifdef KIND_logseries
SAMPLER(logseries)
#endif
