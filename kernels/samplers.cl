/* darray random: samplers of darray/random/_samplers.py, appended to kernels/philox.cl (its macros PHILOX, HORNER,
 * STORE, LOOP and box_muller64) and built with its options (DARRAY_FP64 required) plus
 *   -D DARRAY_SAMPLERS -D KIND_<kind> (the one entry point built) -D TAG=<t> (word 3 of every counter)
 *   -D OUT=<float|double|long> -D CONVERT_OUT=convert_<OUT>8, -D A0=1 (A1, A2): parameter k is an array,
 *   -D LOGGAM_C=<Stirling's series of log Gamma, hex literals> -D HALF_LOG_2PI=<hex literal>.
 * Element i draws its j-th block of four words w0..w3 from counter (lo32(base + i), hi32(base + i), j, TAG) and
 * key (k0, k1); U0 = (w0 w1 >> 11) 2^-53 and U1 = (w2 w3 >> 11) 2^-53 are its uniforms in [0, 1). Work-item t
 * computes groups [t * ch, min((t + 1) * ch, n)) of 8 elements as vectors, one lane per element; a rejection loop
 * runs until every lane has accepted, each lane keeping its first accepted proposal, so the numbers do not depend on
 * the lanes' company. Each entry point derives its parameters' constants once per work-item when they are scalars
 * (NAME_setup). Arithmetic in double; log is darray's own (log8), exp, pow, cos... are OpenCL's.
 * darray/random/_host_samplers.py and _host_discrete.py compute the same numbers with NumPy.
 * Entry points, all (__global OUT *out, long out_o, long size, uint k0, uint k1, ulong base,
 *   __global const double *a0, long o0, double s0, (a1, o1, s1), (a2, o2, s2), long n, long ch):
 *   parameter k of element i is a_k[o_k + i] with -D Ak=1, else s_k; out[out_o + i] for i < size.
 *   standard_gamma(shape): Marsaglia-Tsang with Box-Muller's cos normal of (w0 w1 >> 11, w2 << 21) and
 *       u = (w3 + 1/2) 2^-32 of block j (shape < 1: of shape + 1, times U0^(1/shape) of block j = 2^32 - 1)
 *   poisson(lam): inversion of U0 of block 0 (lam < 10), PTRS (Hormann 1993) with U0 - 1/2, U1 of block j;
 *       -D LOGFACT_C=<log k! for k < 128>
 *   binomial(n, p): of r = min(p, 1 - p) (n - x for p > 1/2): inversion of U0 of block j, restarted past a bound
 *       (n r <= 30), BTPE (Kachitvichyanukul and Schmeiser 1988) with U0, U1 of block j
 *   hypergeometric(ngood, nbad, nsample): of m = min(nsample, total - nsample) draws: an urn for m < 10 (draw 2j + h
 *       takes a good ball when U_h of block j times the balls left < the good ones left), else HRUA (Stadlober)
 *       with 1 - U0, U1 of block j
 *   vonmises(mu, kappa): Best-Fisher with U0, U1 of block j (the sign: bit 0 of w3), wrapped to [-pi, pi];
 *       kappa < 1e-8: pi (2 U0 - 1) of block 0; kappa > 1e6: mu + Box-Muller's normal of block 0 / sqrt(kappa)
 *   zipf(a): Devroye's rejection with U = 1 - U0 (1 - 2^(63 (1 - a))) and U1 of block j; a >= 1025: 1. T - 1 and
 *       b - 1 through expm1 (NumPy's pow(1 + 1/X, a - 1) rounds to 1 for X > 2^53 and accepts every such X); every
 *       function through darray's own exp8, expm18, log1p8 and log8 (+ - * / and exact steps: the host's bits; the
 *       runtime's pow differed in the last bit, which U^(-1/(a - 1)) amplified into other integers)
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

/* log x by Box-Muller's series (box_muller64 of kernels/philox.cl; 8 times faster than the runtime's double log
 * here): x = m 2^e, m in [sqrt(1/2), sqrt(2)), f = m - 1, t = f / (2 + f), log(1 + f) = 2t + t z R(z), z = t^2,
 * log x = e ln2_hi + (e ln2_lo + log(1 + f)); subnormals scaled by 2^54 first; 0: -inf, inf: inf, below 0: NaN. */
R log8(const R x) {
    const M sub = x < 0x1p-1022;
    const long8 bits = as_long8(select(x, x * 0x1p54, sub));
    const R m = as_double8((bits & 0xFFFFFFFFFFFFFL) | (1023L << 52));
    const M big = m > F64_SQRT2[0];
    const R f = select(m, m * 0.5, big) - 1;
    const R e = convert_double8((bits >> 52) - 1023L - big - (sub & 54L));
    const R t = f / (2 + f), z = t * t;
    R p;
    HORNER(F64_LOG, z, p)
    const R lg = e * F64_LN2[0] + (e * F64_LN2[1] + (2 * t + (t * z) * p));
    return select(select(select(lg, (R)(-INFINITY), x == 0), x, x == INFINITY), (R)(NAN), (x < 0) | isnan(x));
}

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
        M ok = ~done & (v1 > 0);
        const M squeeze = u < 1 - 0.0331 * xx * xx;
        if (any(ok & ~squeeze)) ok &= squeeze | (log8(u) < 0.5 * xx + d * (1 - v + log8(v)));  /* the logs: rarely */
        else ok &= squeeze;
        res = select(res, d * v, ok);
        done |= ok;
    }
    return res;
}

typedef struct { R a, d, c; } standard_gamma_s;

standard_gamma_s standard_gamma_setup(const R a, const R p1, const R p2) {
    standard_gamma_s s = {a, select(a, a + 1, a < 1) - 1.0 / 3, 0};
    s.c = 1 / sqrt(9 * s.d);
    return s;
}

R standard_gamma_8(const standard_gamma_s *s, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const R a = s->a;
    const M zero = a == 0, small = a < 1;
    R res = marsaglia_tsang(s->d, s->c, ctr, idle | zero, k0, k1);
    if (any(small & ~zero & ~idle)) {
        BLOCK(0xFFFFFFFFU)
        res = select(res, res * pow(1 - U0, 1 / a), small);
    }
    return select(res, (R)(0), zero);
}

__constant double LOGGAM[] = {LOGGAM_C};
__constant double EXPC[] = {EXP_C};

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
    return s / y + HALF_LOG_2PI + (y - 0.5) * log8(y) - y - log8(prod);
}

/* log k! for integers k >= 0: the table LOGFACT below 128, else loggam(k + 1). */
__constant double LOGFACT[] = {LOGFACT_C};

R logfact(const R k) {
    const M big = k >= 128;
    const long8 i = convert_long8(select(k, (R)(0), big));
    R v;
    for (int l = 0; l < 8; l++) v[l] = LOGFACT[i[l]];
    return any(big) ? select(v, loggam(k + 1), big) : v;
}

typedef struct { R lam, p0, loglam, b, a, inva, vr; } poisson_s;

poisson_s poisson_setup(const R lam, const R p1, const R p2) {
    const R b = 0.931 + 2.53 * sqrt(lam);
    const poisson_s s = {lam, exp(-lam), log8(lam), b, -0.059 + 0.02483 * b, 1.1239 + 1.1328 / (b - 3.4),
                         0.9277 - 3.6224 / (b - 2)};
    return s;
}

R poisson_8(const poisson_s *s, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const R lam = s->lam, loglam = s->loglam, b = s->b, a = s->a, inva = s->inva, vr = s->vr;
    const M small = lam < 10;
    R res = 0;
    M act = small & ~idle;
    if (any(act)) {  /* inversion: k while U0 > P(X <= k) */
        BLOCK(0)
        R p = s->p0, f = p;
        act &= U0 > f;
        while (any(act)) {
            res = select(res, res + 1, act);
            p = select(p, p * lam / res, act);
            f = select(f, f + p, act);
            act &= (U0 > f) & (p > 0);
        }
    }
    M pend = ~small & ~idle;
    for (uint j = 0; any(pend); j++) {
        BLOCK(j)
        const R u = U0 - 0.5, us = 0.5 - fabs(u), k = floor((2 * a / us + b) * u + lam + 0.43);
        const M bad = (k < 0) | ((us < 0.013) & (U1 > us));
        const R kk = fmax(k, 0);
        const M ok = pend & (((us >= 0.07) & (U1 <= vr)) |
                             (~bad & (log8(U1 * inva / (a / (us * us) + b)) <= -lam + kk * loglam - logfact(kk))));
        res = select(res, k, ok);
        pend &= ~ok;
    }
    return res;
}

typedef struct { R n, p, r, q, qn, bound, m, nrq, p1, xm, xl, xr, c, laml, lamr, p2, p3, p4, s, sa; } binomial_s;

binomial_s binomial_setup(const R n, const R p, const R p2_) {
    binomial_s s;
    s.n = n, s.p = p, s.r = select(p, 1 - p, p > 0.5), s.q = 1 - s.r;
    const R r = s.r, q = s.q, nr = n * r;  /* inversion's */
    s.qn = exp(n * log1p(-r)), s.bound = fmin(n, nr + 10 * sqrt(nr * q + 1));
    const R fm = n * r + r, m = floor(fm), nrq = n * r * q;  /* BTPE's */
    const R p1 = floor(2.195 * sqrt(nrq) - 4.6 * q) + 0.5, xm = m + 0.5, xl = xm - p1, xr = xm + p1;
    const R c = 0.134 + 20.5 / (15.3 + m), al = (fm - xl) / (fm - xl * r), ar = (xr - fm) / (xr * q);
    s.m = m, s.nrq = nrq, s.p1 = p1, s.xm = xm, s.xl = xl, s.xr = xr, s.c = c;
    s.laml = al * (1 + al / 2), s.lamr = ar * (1 + ar / 2);
    s.p2 = p1 * (1 + 2 * c), s.p3 = s.p2 + c / s.laml, s.p4 = s.p3 + c / s.lamr;
    s.s = r / q, s.sa = s.s * (n + 1);
    return s;
}

R binomial_8(const binomial_s *st, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const R n = st->n, r = st->r, q = st->q;
    const M flip = st->p > 0.5, small = n * r <= 30;
    R res = 0;
    M pend = small & ~idle;
    if (any(pend)) {  /* inversion, restarted with the next block past the bound */
        const R qn = st->qn, bound = st->bound;
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
        const R m = st->m, nrq = st->nrq, p1 = st->p1, xm = st->xm, xl = st->xl, xr = st->xr, c = st->c;
        const R laml = st->laml, lamr = st->lamr, p2 = st->p2, p3 = st->p3, p4 = st->p4, s = st->s, sa = st->sa;
        for (uint j = 0; any(pend); j++) {
            BLOCK(j)
            const R u = U0 * p4;
            const M r1 = u <= p1, r2 = ~r1 & (u <= p2), r3 = ~r1 & ~r2 & (u <= p3), r4 = ~r1 & ~r2 & ~r3;
            const R xs = xl + (u - p1) / c;
            const R y = select(select(select(floor(xr - log8(U1) / lamr), floor(xl + log8(U1) / laml), r3),
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
                const R t = -k * k / (2 * nrq), lv = log8(v);
                const R y1 = y + 1, f1 = m + 1, z = n + 1 - m, w = n - y + 1;
                const R y1s = y1 * y1, f1s = f1 * f1, zs = z * z, ws = w * w;
                const R bound = xm * log8(f1 / y1) + (n - m + 0.5) * log8(z / w) + (y - m) * log8(w * r / (y1 * q)) +
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

typedef struct { R good, bad, nsample, total, cs, mingb, maxgb, a, h, lg, b; } hypergeometric_s;

hypergeometric_s hypergeometric_setup(const R good, const R bad, const R nsample) {
    hypergeometric_s s;
    s.good = good, s.bad = bad, s.nsample = nsample, s.total = good + bad, s.cs = fmin(nsample, s.total - nsample);
    const R total = s.total, cs = s.cs, mingb = fmin(good, bad), maxgb = fmax(good, bad);  /* HRUA's */
    const R p = mingb / total, q = maxgb / total, a = cs * p + 0.5;
    const R c = sqrt((total - cs) * cs * p * q / (total - 1) + 0.5);
    const R m = floor((cs + 1) * (mingb + 1) / (total + 2));
    s.mingb = mingb, s.maxgb = maxgb, s.a = a, s.h = 2 * sqrt(2 / M_E) * c + (3 - 2 * sqrt(3 / M_E));
    s.lg = any(cs >= 10) ? loggam(m + 1) + loggam(mingb - m + 1) + loggam(cs - m + 1) + loggam(maxgb - cs + m + 1) : 0;
    s.b = fmin(fmin(cs, mingb) + 1, floor(a + 16 * c));
    return s;
}

R hypergeometric_8(const hypergeometric_s *s, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const R good = s->good, bad = s->bad, nsample = s->nsample, total = s->total, cs = s->cs;
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
        const R mingb = s->mingb, maxgb = s->maxgb, a = s->a, h = s->h, lg = s->lg, b = s->b;
        const M hrua = pend;
        for (uint j = 0; any(pend); j++) {
            BLOCK(j)
            const R u = 1 - U0, x = a + h * (U1 - 0.5) / u, k = clamp(floor(x), (R)(0), b - 1);
            const R t = lg - (loggam(k + 1) + loggam(mingb - k + 1) + loggam(cs - k + 1) + loggam(maxgb - cs + k + 1));
            const M ok = pend & (x >= 0) & (x < b) &
                         ((u * (4 - u) - 3 <= t) | ((u * (u - t) < 1) & (2 * log8(u) <= t)));
            res = select(res, k, ok);
            pend &= ~ok;
        }
        res = select(res, cs - res, hrua & (good > bad));
    }
    return select(res, good - res, cs < nsample);
}

typedef struct { R mu, kappa, s; } vonmises_s;

vonmises_s vonmises_setup(const R mu, const R kappa, const R p2) {
    const R rr = 1 + sqrt(1 + 4 * kappa * kappa), rho = (rr - sqrt(2 * rr)) / (2 * kappa);
    const vonmises_s s = {mu, kappa, select((1 + rho * rho) / (2 * rho), 1 / kappa + kappa, kappa < 1e-5)};
    return s;
}

R vonmises_8(const vonmises_s *st, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const R mu = st->mu, kappa = st->kappa, s = st->s;
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
        R w = 0;
        M neg = 0;
        for (uint j = 0; any(pend); j++) {
            BLOCK(j)
            const R z = cos(M_PI * U0), wj = (1 + s * z) / (s + z), y = kappa * (s - wj);
            const M ok = pend & ((y * (2 - y) - U1 >= 0) | (log8(y / U1) + 1 - y >= 0));
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

/* e^y from + - * / and exact steps (rint, ldexp), so the host's NumPy mirror (_host_samplers.exp8) gives the same
 * bits, as log8: k = rint(y log2 e), r = (y - k ln2_hi) - k ln2_lo, e^r by its Taylor series to r^14 / 14!
 * (-D EXP_C=1/n!), times 2^k; y clamped to [-746, 710] first (0 and inf beyond), NaN stays NaN. */
R exp8(const R y) {
    const R c = fmin(fmax(y, -746.0), 710.0), k = rint(c * M_LOG2E);
    const R r = (c - k * F64_LN2[0]) - k * F64_LN2[1];
    R p;
    HORNER(EXPC, r, p)
    return select(ldexp(p, convert_int8(k)), y, isnan(y));
}

/* e^y - 1 (Kahan's): u = exp8(y), y where u == 1, (u - 1) (y / log8(u)) elsewhere, u - 1 where u is 0 or inf. */
R expm18(const R y) {
    const R u = exp8(y);
    return select(select((u - 1) * (y / log8(u)), y, u == 1), u - 1, (u == 0) | (u == INFINITY));
}

/* log(1 + z) (Goldberg's): u = 1 + z, z where u == 1, log8(u) z / (u - 1) elsewhere; log8(u) where u is inf. */
R log1p8(const R z) {
    const R u = 1 + z;
    return select(select(log8(u) * z / (u - 1), z, u == 1), log8(u), u == INFINITY);
}

typedef struct { R a, am1, bm1, umin; } zipf_s;

zipf_s zipf_setup(const R a, const R p1, const R p2) {
    const zipf_s s = {a, a - 1, expm18((a - 1) * M_LN2), exp8((1 - a) * (63 * M_LN2))};
    return s;
}

R zipf_8(const zipf_s *s, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const R a = s->a, am1 = s->am1, bm1 = s->bm1, umin = s->umin;
    M pend = ~idle & (a < 1025);
    R res = 1;
    for (uint j = 0; any(pend); j++) {
        BLOCK(j)
        const R x = floor(exp8(log8(1 - U0 * (1 - umin)) * (-1 / am1))), tm1 = expm18(am1 * log1p8(1 / x));
        const M ok = pend & (x >= 1) & (x < 0x1p63) & (U1 * x * tm1 / bm1 <= (1 + tm1) / (1 + bm1));
        res = select(res, x, ok);
        pend &= ~ok;
    }
    return res;
}

typedef struct { R p, r; } logseries_s;

logseries_s logseries_setup(const R p, const R p1, const R p2) {
    const logseries_s s = {p, log1p(-p)};
    return s;
}

R logseries_8(const logseries_s *s, const ulong8 ctr, const M idle, const uint k0, const uint k1) {
    const R p = s->p, r = s->r;
    M pend = ~idle;
    R res = 1;
    for (uint j = 0; any(pend); j++) {
        BLOCK(j)
        const R q = -expm1(r * U1), k = floor(1 + log8(U0) / log8(q));
        const M low = (U0 < p) & (U0 <= q * q);
        const M ok = pend & (~low | ((k >= 1) & (U0 != 0)));
        res = select(res, select(select((R)(2), (R)(1), (U0 >= p) | (U0 >= q)), k, low), ok);
        pend &= ~ok;
    }
    return res;
}

/* The entry point NAME: NAME_8(the constants NAME_setup(p0, p1, p2) derives from the parameters, counters, lanes
 * past size, key) per group of 8 elements; scalar parameters' constants once per work-item. */
#define SAMPLER(NAME) \
__kernel void NAME(__global OUT *out, long out_o, long size, uint k0, uint k1, ulong base, \
                   __global const double *a0, long o0, double s0, __global const double *a1, long o1, double s1, \
                   __global const double *a2, long o2, double s2, long n, long ch) { \
    NAME##_s s = NAME##_setup((R)(s0), (R)(s1), (R)(s2)); \
    LOOP { \
        const long at = 8 * g; \
        const ulong8 ctr = (ulong8)(base + (ulong)at) + convert_ulong8(LANES); \
        if (A0 || A1 || A2) \
            s = NAME##_setup(param(a0, o0, s0, A0, at, size), param(a1, o1, s1, A1, at, size), \
                             param(a2, o2, s2, A2, at, size)); \
        const R res = NAME##_8(&s, ctr, ((M)(at) + LANES) >= (M)(size), k0, k1); \
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
