/* darray random: Philox4x32-10 (Salmon et al., Random123) as a pure function of (key, counter).
 * Build options: -D T=<integer type of integers' output>, -D DARRAY_FP64=1 where the device has double,
 * -D F32_<T>_C= (and F64_<T>_C= with DARRAY_FP64) for T in LOG, SIN, COS, LN2, SQRT2: the constants of
 * Box-Muller from darray/random/_philox.py (BOX_MULLER) as comma-separated hex literals, lowest power first.
 * Block b of a draw is philox(counter = (lo32(base + b), hi32(base + b), retry, 0), key = (k0, k1)),
 * four 32-bit words w0..w3. Blocks go in groups of 8 (one vector lane each); in group g,
 * 32-bit draws put word w of block 8g + l at element 32g + 8w + l, 64-bit draws put the word
 * pair (w_2h << 32 | w_2h+1) of block 8g + l at element 16g + 8h + l. darray/random/_philox.py
 * computes the same numbers with NumPy. Work-item t computes groups [t * ch, min((t + 1) * ch, n)).
 * Entry points (out: elements [out_o, out_o + size) of the output):
 *   random32(__global float *out, long out_o, long size, uint k0, uint k1, ulong base, long n, long ch)
 *       out = (w >> 8) * 2^-24 (float32 in [0, 1))
 *   random64(__global double *out, ...same...)     out = (pair >> 11) * 2^-53 (float64 in [0, 1))
 *   normal32(__global float *out, ...same...)      Box-Muller on words (w0, w1) and (w2, w3):
 *       r = sqrt(-2 log(1 - u)), t = 2 pi v; the first of a pair gets r cos t, the second r sin t
 *   normal64(__global double *out, ...same...)     the same on pairs 0 (u) and 1 (v)
 *   log, cos and sin are darray's own (BOX_MULLER below): + - * / sqrt and bit operations only
 *   (darray builds every program with contraction off), so every IEEE device and NumPy give the same bits.
 *   integers(__global T *out, long out_o, long size, uint k0, uint k1, ulong base, ulong low, ulong rng,
 *            long n, long ch)
 *       out = low + an unbiased draw in [0, rng] (Lemire's multiply-shift with rejection on the
 *       64-bit pair; a rejected element of block b redraws from block b with retry 1, 2, ...,
 *       the same word pair); rng = 2^64 - 1 takes the pair as it is.
 *   philox(__global uint *out, long out_o, __global const uint *ctr, long ctr_o, uint k0, uint k1, long n, long ch)
 *       out[out_o + 4i ..][:4] = the words of counter ctr[ctr_o + 4i ..][:4] (known-answer tests)
 * <kind>_blocks (random32_blocks ... integers_blocks, the same arguments with n = blocks): the gpu form's, one block
 *   at a time per work-item, each word stored at its element above (the same numbers; neighbouring work-items
 *   store neighbouring elements).
 * With -D DARRAY_SAMPLERS these entry points are left out: kernels/samplers.cl follows this file.
 */
#ifdef DARRAY_FP64
#  pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/* One Philox4x32 round, then the key bump (scalar keys), on ulong scalars or vectors holding 32-bit words (one
 * widening multiply gives both halves of a product; vectorises better than mul_hi on uint8). */
#define ROUND(c0, c1, c2, c3, k0, k1) { \
    const __typeof__(c0) p0 = c0 * 0xD2511F53UL, p1 = c2 * 0xCD9E8D57UL; \
    c0 = (p1 >> 32) ^ c1 ^ k0; c1 = p1 & 0xFFFFFFFFUL; c2 = (p0 >> 32) ^ c3 ^ k1; c3 = p0 & 0xFFFFFFFFUL; \
    k0 = (k0 + 0x9E3779B9UL) & 0xFFFFFFFFUL; k1 = (k1 + 0xBB67AE85UL) & 0xFFFFFFFFUL; }

#define PHILOX(c0, c1, c2, c3, key0, key1) { \
    ulong kk0 = key0, kk1 = key1; \
    ROUND(c0, c1, c2, c3, kk0, kk1) ROUND(c0, c1, c2, c3, kk0, kk1) ROUND(c0, c1, c2, c3, kk0, kk1) \
    ROUND(c0, c1, c2, c3, kk0, kk1) ROUND(c0, c1, c2, c3, kk0, kk1) ROUND(c0, c1, c2, c3, kk0, kk1) \
    ROUND(c0, c1, c2, c3, kk0, kk1) ROUND(c0, c1, c2, c3, kk0, kk1) ROUND(c0, c1, c2, c3, kk0, kk1) \
    ROUND(c0, c1, c2, c3, kk0, kk1) }

/* Horner's rule over the coefficients C (lowest power first) at z. */
#define HORNER(C, z, p) { p = C[sizeof(C) / sizeof(C[0]) - 1]; \
    for (int i_ = (int)(sizeof(C) / sizeof(C[0])) - 2; i_ >= 0; i_--) p = p * (z) + C[i_]; }

/* box_muller<bits>(a, b, &c, &s): r = sqrt(-2 log x) for x = (2^B - a) 2^-B in (0, 1] and the turn
 * v = b 2^-B in [0, 1); c = r cos(2 pi v), s = r sin(2 pi v). log: x = m 2^e, m in [sqrt(1/2), sqrt(2)),
 * f = m - 1, t = f / (2 + f), log(1 + f) = 2t + t z R(z), z = t^2; log x = e ln2_hi + (e ln2_lo + log(1 + f)).
 * sin/cos: q = round(4v) (integers), y = v - q/4 in [-1/8, 1/8] exactly, sin(2 pi y) = y S(y^2),
 * cos(2 pi y) = C(y^2), rotated by q quarter turns. darray/random/_philox.py mirrors this with NumPy. Vector types
 * (float8...) and scalar ones (float...) alike: the selects' conditions are cast to I. */
#define BOX_MULLER(NAME, F, I, U, B, ONE, MANT, BIAS, C) \
void NAME(const U a, const U b, F *c, F *s) { \
    const F x = convert_##F(((U)1 << B) - a) * ONE; \
    const I bits = as_##I(x); \
    const F m = as_##F((bits & (((I)1 << MANT) - 1)) | ((I)BIAS << MANT)); \
    const I big = m > C##_SQRT2[0]; \
    const F f = select(m, m * (F)0.5f, big) - (F)1; \
    const F e = convert_##F((bits >> MANT) - (I)BIAS + select((I)0, (I)1, big)); \
    const F t = f / ((F)2 + f), z = t * t; \
    F p; HORNER(C##_LOG, z, p) \
    const F lg = e * C##_LN2[0] + (e * C##_LN2[1] + ((F)2 * t + (t * z) * p)); \
    const F r = sqrt((F)-2 * lg); \
    const U q = (b + ((U)1 << (B - 3))) >> (B - 2); \
    const F y = convert_##F(as_##I(b) - as_##I(q << (B - 2))) * ONE, y2 = y * y; \
    F sn, cs; HORNER(C##_SIN, y2, sn) HORNER(C##_COS, y2, cs) sn = y * sn; \
    const I k = as_##I(q & (U)3); \
    const I k1 = (I)(k == (I)1), k3 = (I)(k == (I)3), k2 = (I)(k >= (I)2); \
    *s = r * select(select(sn, cs, k1), select(-sn, -cs, k3), k2); \
    *c = r * select(select(cs, -sn, k1), select(-cs, sn, k3), k2); }

__constant float F32_LOG[] = {F32_LOG_C}, F32_SIN[] = {F32_SIN_C}, F32_COS[] = {F32_COS_C};
__constant float F32_LN2[] = {F32_LN2_C}, F32_SQRT2[] = {F32_SQRT2_C};
BOX_MULLER(box_muller32, float8, int8, uint8, 24, 0x1p-24f, 23, 127, F32)
BOX_MULLER(box_muller32s, float, int, uint, 24, 0x1p-24f, 23, 127, F32)
#ifdef DARRAY_FP64
__constant double F64_LOG[] = {F64_LOG_C}, F64_SIN[] = {F64_SIN_C}, F64_COS[] = {F64_COS_C};
__constant double F64_LN2[] = {F64_LN2_C}, F64_SQRT2[] = {F64_SQRT2_C};
BOX_MULLER(box_muller64, double8, long8, ulong8, 53, 0x1p-53, 52, 1023, F64)
BOX_MULLER(box_muller64s, double, long, ulong, 53, 0x1p-53, 52, 1023, F64)
#endif

/* The four words of blocks 8g .. 8g + 7 of a draw (retry 0) as w0..w3. */
#define GROUP(g) \
    const ulong first = base + (ulong)(g) * 8; \
    const ulong8 ctr = (ulong8)(first) + (ulong8)(0, 1, 2, 3, 4, 5, 6, 7); \
    ulong8 x0 = ctr & 0xFFFFFFFFUL, x1 = ctr >> 32, x2 = (ulong8)(0), x3 = (ulong8)(0); \
    PHILOX(x0, x1, x2, x3, k0, k1) \
    const uint8 w0 = convert_uint8(x0), w1 = convert_uint8(x1), w2 = convert_uint8(x2), w3 = convert_uint8(x3);

/* Store the vector v as elements [at, at + 8) of out, the ones below size only. */
#define STORE(v, at) { \
    const long a = (at); const __typeof__(v) vv = (v); \
    if (a + 8 <= size) vstore8(vv, 0, out + out_o + a); \
    else for (int l = 0; l < 8 && a + l < size; l++) out[out_o + a + l] = vv[l]; }

#define PAIR(hi, lo) ((convert_ulong8(hi) << 32) | convert_ulong8(lo))
#define LOOP for (long g = (long)get_global_id(0) * ch, end = min(g + ch, n); g < end; g++)
#define HEAD(TY) __global TY *out, long out_o, long size, uint k0, uint k1, ulong base
#define ARGS(TY) HEAD(TY), long n, long ch

#ifndef DARRAY_SAMPLERS  /* kernels/samplers.cl appended: its entry points only */
__kernel void random32(ARGS(float)) {
    LOOP {
        GROUP(g)
        const float s = 0x1p-24f;
        STORE(convert_float8(w0 >> 8) * s, 32 * g) STORE(convert_float8(w1 >> 8) * s, 32 * g + 8)
        STORE(convert_float8(w2 >> 8) * s, 32 * g + 16) STORE(convert_float8(w3 >> 8) * s, 32 * g + 24)
    }
}

__kernel void normal32(ARGS(float)) {
    LOOP {
        GROUP(g)
        float8 c, s;
        box_muller32(w0 >> 8, w1 >> 8, &c, &s); STORE(c, 32 * g) STORE(s, 32 * g + 8)
        box_muller32(w2 >> 8, w3 >> 8, &c, &s); STORE(c, 32 * g + 16) STORE(s, 32 * g + 24)
    }
}

#ifdef DARRAY_FP64
__kernel void random64(ARGS(double)) {
    LOOP {
        GROUP(g)
        const double s = 0x1p-53;
        STORE(convert_double8(PAIR(w0, w1) >> 11) * s, 16 * g)
        STORE(convert_double8(PAIR(w2, w3) >> 11) * s, 16 * g + 8)
    }
}

__kernel void normal64(ARGS(double)) {
    LOOP {
        GROUP(g)
        double8 c, s;
        box_muller64(PAIR(w0, w1) >> 11, PAIR(w2, w3) >> 11, &c, &s);
        STORE(c, 16 * g) STORE(s, 16 * g + 8)
    }
}
#endif

/* Lemire's draw in [0, rng] from the 64-bit x; the retries of a rejected x come from block b. */
ulong bounded(ulong x, ulong rng, uint k0, uint k1, ulong b, int h) {
    if (rng == 0xFFFFFFFFFFFFFFFFUL) return x;
    const ulong s = rng + 1;
    ulong lo = x * s;
    if (lo < s) {
        const ulong limit = (0 - s) % s;
        for (uint retry = 1; lo < limit; retry++) {
            ulong c0 = b & 0xFFFFFFFFUL, c1 = b >> 32, c2 = retry, c3 = 0;
            PHILOX(c0, c1, c2, c3, k0, k1)
            x = h ? (c2 << 32 | c3) : (c0 << 32 | c1);
            lo = x * s;
        }
    }
    return mul_hi(x, s);
}

__kernel void integers(HEAD(T), ulong low, ulong rng, long n, long ch) {
    LOOP {
        GROUP(g)
        const ulong8 x[2] = {PAIR(w0, w1), PAIR(w2, w3)};
        for (int h = 0; h < 2; h++) {
            const long at = 16 * g + 8 * h;
            for (int l = 0; l < 8 && at + l < size; l++)
                out[out_o + at + l] = (T)(low + bounded(x[h][l], rng, k0, k1, first + l, h));
        }
    }
}

/* The gpu form's entry points: one block at a time per work-item, each word stored where the grouped entry points
 * put it, so neighbouring work-items store neighbouring elements (stores coalesce; the same numbers). */
#define BLOCKS for (long b = (long)get_global_id(0) * ch, end = min(b + ch, n); b < end; b++)
#define ONE_BLOCK(b) \
    const ulong ctr = base + (ulong)(b); \
    ulong x0 = ctr & 0xFFFFFFFFUL, x1 = ctr >> 32, x2 = 0, x3 = 0; \
    PHILOX(x0, x1, x2, x3, k0, k1) \
    const uint w0 = (uint)x0, w1 = (uint)x1, w2 = (uint)x2, w3 = (uint)x3; \
    const ulong pair0 = x0 << 32 | x1, pair1 = x2 << 32 | x3;
#define PUT(v, at) { const long a_ = (at); if (a_ < size) out[out_o + a_] = (v); }

__kernel void random32_blocks(ARGS(float)) {
    BLOCKS {
        ONE_BLOCK(b)
        const long at = 32 * (b >> 3) + (b & 7);
        PUT(convert_float(w0 >> 8) * 0x1p-24f, at) PUT(convert_float(w1 >> 8) * 0x1p-24f, at + 8)
        PUT(convert_float(w2 >> 8) * 0x1p-24f, at + 16) PUT(convert_float(w3 >> 8) * 0x1p-24f, at + 24)
    }
}

__kernel void normal32_blocks(ARGS(float)) {
    BLOCKS {
        ONE_BLOCK(b)
        const long at = 32 * (b >> 3) + (b & 7);
        float c, s;
        box_muller32s(w0 >> 8, w1 >> 8, &c, &s); PUT(c, at) PUT(s, at + 8)
        box_muller32s(w2 >> 8, w3 >> 8, &c, &s); PUT(c, at + 16) PUT(s, at + 24)
    }
}

#ifdef DARRAY_FP64
__kernel void random64_blocks(ARGS(double)) {
    BLOCKS {
        ONE_BLOCK(b)
        const long at = 16 * (b >> 3) + (b & 7);
        PUT(convert_double(pair0 >> 11) * 0x1p-53, at) PUT(convert_double(pair1 >> 11) * 0x1p-53, at + 8)
    }
}

__kernel void normal64_blocks(ARGS(double)) {
    BLOCKS {
        ONE_BLOCK(b)
        const long at = 16 * (b >> 3) + (b & 7);
        double c, s;
        box_muller64s(pair0 >> 11, pair1 >> 11, &c, &s); PUT(c, at) PUT(s, at + 8)
    }
}
#endif

__kernel void integers_blocks(HEAD(T), ulong low, ulong rng, long n, long ch) {
    BLOCKS {
        ONE_BLOCK(b)
        const long at = 16 * (b >> 3) + (b & 7);
        PUT((T)(low + bounded(pair0, rng, k0, k1, ctr, 0)), at)
        PUT((T)(low + bounded(pair1, rng, k0, k1, ctr, 1)), at + 8)
    }
}

__kernel void philox(__global uint *out, long out_o, __global const uint *ctr, long ctr_o, uint k0, uint k1,
                     long n, long ch) {
    for (long i = (long)get_global_id(0) * ch, end = min(i + ch, n); i < end; i++) {
        __global const uint *c = ctr + ctr_o + 4 * i;
        ulong c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
        PHILOX(c0, c1, c2, c3, k0, k1)
        vstore4((uint4)((uint)c0, (uint)c1, (uint)c2, (uint)c3), 0, out + out_o + 4 * i);
    }
}
#endif
