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
