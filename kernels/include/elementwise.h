/* darray elementwise helpers, inlined at the top of every generated elementwise kernel.
 * Entry points: none (helper functions only); the generated kernel is `elementwise`.
 * Helpers are named <op>_<ctype>: floordiv_*, pymod_* (NumPy floor_divide/remainder,
 * division by zero gives 0 for integers; floats step for step as NumPy's npy_divmod),
 * shl_*, shr_* (NumPy shifts: counts outside [0, bits) give 0, or -1 for negative values
 * shifted right), ipow_* (integer power by squaring, wrap-around), recip_*, logaddexp_*,
 * clip_* (NaN propagates), cfmod_*, gcd_*, lcm_* (NumPy fmod/gcd/lcm of integers), logaddexp2_*,
 * heaviside_*, spacing_*; trig_sin/cos/tan
 * (overloaded for float, float4, float8, double: own float/float4/float8 code, double built-ins);
 * crecip_*, cclip_* (NumPy's complex reciprocal and clip, on float2/double2: the rows of
 * ops/_table.py, not complex functions in the mathematical sense). Define DARRAY_FP64 before
 * this header to get the double versions. Complex helpers live in complex.h.
 */
/* float8 at element alignment: PoCL 3.0 leaves vload8/vstore8 as out-of-line calls, while
 * plain loads through this type vectorise (used by the vector blocks of generated kernels). */
typedef float8 float8_u __attribute__((aligned(4)));
typedef float4 float4_u __attribute__((aligned(4)));  /* the gpu form's float4 blocks */

#define DARRAY_INT_HELPERS(T, U, BITS, TMIN)                                          \
inline T floordiv_##T(T a, T b) {                                                    \
    if (b == 0) return 0;                                                            \
    if ((T)-1 < 0 && b == (T)-1) return (T)(-(U)a);                                  \
    T q = a / b;                                                                     \
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;                                \
    return q;                                                                        \
}                                                                                    \
inline T pymod_##T(T a, T b) {                                                       \
    if (b == 0 || ((T)-1 < 0 && b == (T)-1)) return 0;                               \
    T r = a % b;                                                                     \
    if (r != 0 && ((r < 0) != (b < 0))) r += b;                                      \
    return r;                                                                        \
}                                                                                    \
inline T shl_##T(T a, T b) {                                                         \
    return ((U)b >= (U)BITS) ? (T)0 : (T)((U)a << (U)b);                             \
}                                                                                    \
inline T shr_##T(T a, T b) {                                                         \
    if ((U)b >= (U)BITS) return a < 0 ? (T)-1 : (T)0;                                \
    return (T)(a >> b);                                                              \
}                                                                                    \
inline T ipow_##T(T a, T b) {                                                        \
    U base = (U)a, acc = 1;                                                          \
    if ((T)-1 < 0 && b < 0) return a == 1 ? 1 : (a == (T)-1 ? ((b & 1) ? (T)-1 : 1) : 0); \
    while (b) { if (b & 1) acc *= base; base *= base; b = (T)((U)b >> 1); }           \
    return (T)acc;                                                                   \
}                                                                                    \
inline T recip_##T(T a) {                                                            \
    return a == 0 ? (T)(TMIN) : (T)(1 / a);                                           \
}                                                                                    \
inline T cfmod_##T(T a, T b) {  /* C's remainder (NumPy fmod): 0 for b == 0 or -1 */  \
    return (b == 0 || ((T)-1 < 0 && b == (T)-1)) ? (T)0 : (T)(a % b);                \
}                                                                                    \
inline T gcd_##T(T a, T b) {  /* NumPy gcd: of the magnitudes, non-negative */        \
    U x = (a < 0) ? (U)(-(U)a) : (U)a, y = (b < 0) ? (U)(-(U)b) : (U)b;              \
    while (y) { U r = x % y; x = y; y = r; }                                         \
    return (T)x;                                                                     \
}                                                                                    \
inline T lcm_##T(T a, T b) {                                                         \
    U g = (U)gcd_##T(a, b);                                                          \
    U x = (a < 0) ? (U)(-(U)a) : (U)a, y = (b < 0) ? (U)(-(U)b) : (U)b;              \
    return g == 0 ? (T)0 : (T)((x / g) * y);                                         \
}

DARRAY_INT_HELPERS(char, uchar, 8, -128)
DARRAY_INT_HELPERS(uchar, uchar, 8, 0)
DARRAY_INT_HELPERS(short, ushort, 16, -32768)
DARRAY_INT_HELPERS(ushort, ushort, 16, 0)
DARRAY_INT_HELPERS(int, uint, 32, (-2147483647 - 1))
DARRAY_INT_HELPERS(uint, uint, 32, 0)
DARRAY_INT_HELPERS(long, ulong, 64, (-9223372036854775807L - 1))
DARRAY_INT_HELPERS(ulong, ulong, 64, 0)

/* NumPy's npy_floor_divide and npy_remainder for floats (npy_divmod: floor division and a
 * remainder with the divisor's sign), step for step, so every combination of signed zeros,
 * infinities and NaN gives NumPy's bits: by zero, a / b and fmod(a, b); else the quotient
 * (a - fmod(a, b)) / b, stepped down where the remainder's sign is not the divisor's and
 * snapped to the nearest integer (inf // 2 is NaN, -1 // inf is -1 and -1 % inf is inf, as
 * NumPy). float16 goes through float and rounds once, as NumPy's half loops do. */
#define DARRAY_FLOAT_DIVMOD(T)                                                       \
inline T floordiv_##T(T a, T b) {                                                    \
    T mod = fmod(a, b);                                                              \
    if (b == 0) return a / b;                                                        \
    T div = (a - mod) / b;                                                           \
    if (mod != 0) { if ((b < 0) != (mod < 0)) div -= 1; }                            \
    T fl;                                                                            \
    if (div != 0) { fl = floor(div); if (div - fl > (T)0.5) fl += 1; }               \
    else fl = copysign((T)0, a / b);                                                 \
    return fl;                                                                       \
}                                                                                    \
inline T pymod_##T(T a, T b) {                                                       \
    T mod = fmod(a, b);                                                              \
    if (b == 0) return mod;                                                          \
    if (mod != 0) { if ((b < 0) != (mod < 0)) mod += b; }                            \
    else mod = copysign((T)0, b);                                                    \
    return mod;                                                                      \
}
#define DARRAY_FLOAT_HELPERS(T)                                                      \
inline T logaddexp_##T(T x, T y) {                                                   \
    if (x == y) return x + (T)0.69314718055994530942;                                             \
    T d = x - y;                                                                     \
    if (d > 0) return x + log1p(exp(-d));                                            \
    if (d <= 0) return y + log1p(exp(d));                                            \
    return d;                                                                        \
}                                                                                    \
inline T clip_##T(T x, T lo, T hi) {  /* NaN in any argument propagates; x kept on ties */ \
    T t = (x < lo || isnan(lo)) ? lo : x;                                            \
    return (t > hi || isnan(hi)) ? hi : t;                                           \
}                                                                                    \
inline T logaddexp2_##T(T x, T y) {  /* NumPy's: log2(2**x + 2**y) without overflow */ \
    if (x == y) return x + (T)1;                                                     \
    T d = x - y;                                                                     \
    if (d > 0) return x + log1p(exp2(-d)) * (T)1.44269504088896340736;               \
    if (d <= 0) return y + log1p(exp2(d)) * (T)1.44269504088896340736;               \
    return d;                                                                        \
}                                                                                    \
inline T heaviside_##T(T x, T h0) {                                                  \
    return isnan(x) ? x : (x < 0 ? (T)0 : (x > 0 ? (T)1 : h0));                      \
}                                                                                    \
inline T spacing_##T(T x) {  /* the gap to the next float away from zero, signed */  \
    if (isnan(x) || isinf(x)) return (T)NAN;                                         \
    return signbit(x) ? nextafter(x, (T)-INFINITY) - x : nextafter(x, (T)INFINITY) - x; \
}

DARRAY_FLOAT_DIVMOD(float)
DARRAY_FLOAT_HELPERS(float)
#ifdef DARRAY_FP64
DARRAY_FLOAT_DIVMOD(double)
DARRAY_FLOAT_HELPERS(double)
#endif
#ifdef DARRAY_FP16
inline half floordiv_half(half a, half b) { return (half)floordiv_float((float)a, (float)b); }
inline half pymod_half(half a, half b) { return (half)pymod_float((float)a, (float)b); }
DARRAY_FLOAT_HELPERS(half)
#endif

/* float sin/cos/tan, darray's own: PoCL 3.0's float8 built-ins run at ~0.75 G elements/s on
 * 2 cores (and are wrong in lanes with |x| < 2^-7 when another lane needs the large-argument
 * reduction); sin and cos here run at ~2/3 of the copy bandwidth, tan at ~1/3 (1.5x the
 * built-in). One generic body for float and float8, so vector blocks and scalar tails give
 * the same bits. PoCL 3.0 calls every built-in out of line (fabs, select, any, fma too), so
 * only operators and as_* here. Nothing below relies on whether the compiler contracts a*b+c
 * into an FMA (PoCL does), but reassociation (-cl-fast-relaxed-math) would undo the Fast2Sum
 * and Dekker steps. For |x| <= 6433, so that j < 2^12:
 *  - j = rint(|x| * 2/pi) by adding 1.5*2^23 (j's low bits are then the float's low bits);
 *  - r = |x| - j*pi/2 as rh + rl, pi/2 = P1 + P2 + P3 + P4 with P1..P3 of 12 bits at fixed
 *    positions (2^0..2^-11, 2^-12..2^-23, 2^-24..2^-35): j*P1..j*P3 are exact, and so is
 *    |x| - j*P1 - j*P2 (a multiple of 2^-24 below 1); Fast2Sum keeps the rounding of the
 *    j*P3 step in rl, with j*P4. The float multiples of pi/2 here come within 2^-28, so a
 *    float r alone (3-part Cody-Waite) would cost up to 2.3 ulp;
 *  - sin(r) = r + r^3 S(r^2), cos(r) = 1 - r^2/2 + r^4 C(r^2): minimax (relative) on
 *    |r| <= 0.7866 (pi/4 plus the slack of a misrounded j), errors 2^-28 and 2^-33; rl
 *    enters as sin(rh + rl) ~ s(rh) + rl cos(rh), cos(rh + rl) ~ c(rh) - rh rl;
 *  - the quadrant (j & 3) picks +-sin or +-cos; sin and tan are odd: the sign of x goes on
 *    last (sin(-0.0) = -0.0; |x| < 2^-12 gives x, denormals included);
 *  - tan = s/c (even j) or c/-s (odd j), then one Newton-like correction with the low parts
 *    of s and c (sl, cl: roundings of the last steps and of r^2) and the exact product q*d
 *    (Dekker's split, no FMA): s/c alone would cost up to 2.7 ulp.
 * Lanes with |x| > 6433, inf or NaN take the built-in (exact reduction; NaN for inf/NaN).
 * Max error against float64 NumPy rounded to float32, exhaustive over |x| <= 6433 on PoCL:
 * sin 1.018 ulp, cos 1.018 ulp, tan 0.995 ulp (NumPy 2.4 float32 on AVX2: 1.42, 1.42, 3.3). */
#define DARRAY_TRIG_BOUND 6433.0f
#define DARRAY_TRIG(T, IT, UT)                                                       \
inline T trig_pick_##T(T a, T b, UT j) {  /* j odd ? b : a (?: tests the sign bit of */ \
    return (j << 31) ? b : a;              /* vector lanes, as select(), but inline) */ \
}                                                                                    \
inline T trig_split_##T(T v, T *lo) {  /* v = hi + lo, 12 bits each (Dekker) */       \
    const T t = v * 4097.0f, hi = t - (t - v);                                       \
    *lo = v - hi;                                                                    \
    return hi;                                                                       \
}                                                                                    \
/* s + sl ~ sin(r), c + cl ~ cos(r); returns j in the low bits (sl, cl only used by tan) */ \
inline UT trig_core_##T(T a, T *s, T *sl, T *c, T *cl) {                             \
    const T t = a * 0x1.45f306p-1f + 0x1.8p23f, jf = t - 0x1.8p23f;                  \
    const T p = (a - jf * 0x1.922p+0f) - jf * -0x1.28p-18f, q = jf * -0x1.778p-25f;  \
    const T rh = p - q, rl = ((p - rh) - q) - jf * 0x1.68c234p-39f;                   \
    const T r2 = rh * rh;                                                            \
    const T c4 = (r2 * r2) * (0x1.55554ap-5f + r2 * (-0x1.6c0c22p-10f + r2 * 0x1.99e6b8p-16f)); \
    const T ts = (rh * r2) * (-0x1.555546p-3f + r2 * (0x1.11072cp-7f + r2 * -0x1.993e86p-13f)) \
                 + rl * (1.0f - (0.5f * r2 - c4));                                   \
    const T h = 0.5f * r2, w = c4 - rh * rl, v = h - w;                              \
    T rlo;                                                                           \
    const T rhi = trig_split_##T(rh, &rlo);                                          \
    const T e2 = ((rhi * rhi - r2) + 2.0f * rhi * rlo) + rlo * rlo;  /* rh^2 - r2 */   \
    *s = rh + ts;                                                                    \
    *sl = (rh - *s) + ts;                                                            \
    *c = 1.0f - v;                                                                   \
    *cl = (((1.0f - *c) - v) - ((h - v) - w)) - 0.5f * e2;                           \
    return as_##UT(t);                                                               \
}                                                                                    \
inline T __attribute__((overloadable)) trig_sin(T x) {                               \
    T s, sl, c, cl;                                                                  \
    const UT ux = as_##UT(x);                                                        \
    const T a = as_##T(ux & 0x7fffffffu);                                            \
    const UT j = trig_core_##T(a, &s, &sl, &c, &cl);                                 \
    T v = as_##T(as_##UT(trig_pick_##T(s, c, j)) ^ ((ux ^ (j << 30)) & 0x80000000u)); \
    const IT big = !(a <= DARRAY_TRIG_BOUND);  /* or NaN */                         \
    if (DARRAY_TRIG_ANY_##T(big)) v = select(v, sin(x), big);                        \
    return v;                                                                        \
}                                                                                    \
inline T __attribute__((overloadable)) trig_cos(T x) {                               \
    T s, sl, c, cl;                                                                  \
    const T a = as_##T(as_##UT(x) & 0x7fffffffu);                                    \
    const UT j = trig_core_##T(a, &s, &sl, &c, &cl);                                 \
    T v = as_##T(as_##UT(trig_pick_##T(c, s, j)) ^ (((j + 1) << 30) & 0x80000000u));  \
    const IT big = !(a <= DARRAY_TRIG_BOUND);                                        \
    if (DARRAY_TRIG_ANY_##T(big)) v = select(v, cos(x), big);                        \
    return v;                                                                        \
}                                                                                    \
inline T __attribute__((overloadable)) trig_tan(T x) {                               \
    T s, sl, c, cl, ql, dlo;                                                         \
    const UT ux = as_##UT(x);                                                        \
    const T a = as_##T(ux & 0x7fffffffu);                                            \
    const UT j = trig_core_##T(a, &s, &sl, &c, &cl);                                 \
    const T n = trig_pick_##T(s, c, j), nl = trig_pick_##T(sl, cl, j);              \
    const T d = trig_pick_##T(c, -s, j), dl = trig_pick_##T(cl, -sl, j);            \
    const T rd = 1.0f / d, q = n * rd, qh = trig_split_##T(q, &ql), dh = trig_split_##T(d, &dlo); \
    const T ph = q * d, pl = ((qh * dh - ph) + qh * dlo + ql * dh) + ql * dlo;      \
    T v = q + (((n - ph) - pl) + (nl - q * dl)) * rd;  /* (n + nl) / (d + dl) */     \
    v = as_##T(as_##UT(v) ^ (ux & 0x80000000u));                                     \
    const IT big = !(a <= DARRAY_TRIG_BOUND);                                        \
    if (DARRAY_TRIG_ANY_##T(big)) v = select(v, tan(x), big);                        \
    return v;                                                                        \
}
#define DARRAY_TRIG_ANY_float(b) (b)
#define DARRAY_TRIG_ANY_float8(b) trig_any8(b)
#define DARRAY_TRIG_ANY_float4(b) trig_any4(b)
inline int trig_any4(int4 b) { const int2 q = b.lo | b.hi; return q.x | q.y; }
inline int trig_any8(int8 b) { return trig_any4(b.lo | b.hi); }
DARRAY_TRIG(float, int, uint)
DARRAY_TRIG(float4, int4, uint4)  /* the gpu form's float4 blocks */
DARRAY_TRIG(float8, int8, uint8)
#ifdef DARRAY_FP64
inline double __attribute__((overloadable)) trig_sin(double x) { return sin(x); }
inline double __attribute__((overloadable)) trig_cos(double x) { return cos(x); }
inline double __attribute__((overloadable)) trig_tan(double x) { return tan(x); }
#endif
#ifdef DARRAY_FP16  /* through float, rounded once (as half promotes where double is absent) */
inline half __attribute__((overloadable)) trig_sin(half x) { return (half)trig_sin((float)x); }
inline half __attribute__((overloadable)) trig_cos(half x) { return (half)trig_cos((float)x); }
inline half __attribute__((overloadable)) trig_tan(half x) { return (half)trig_tan((float)x); }
#endif

/* NumPy's complex reciprocal (not 1 / z through division: 1 / (0 + 0j) is nan + nanj) and
 * complex clip (lexicographic; a NaN in x or lo wins, a NaN only in hi's imaginary part does
 * not, as numpy.clip). */
#define DARRAY_COMPLEX_ROWS(R, C)                                                    \
inline C crecip_##R(C z) {                                                           \
    if (fabs(z.y) <= fabs(z.x)) {                                                    \
        R r = z.y / z.x, d = z.x + z.y * r;                                          \
        return (C)(1 / d, -r / d);                                                   \
    }                                                                                \
    R r = z.x / z.y, d = z.x * r + z.y;                                              \
    return (C)(r / d, -1 / d);                                                       \
}                                                                                    \
inline C cclip_##R(C x, C lo, C hi) {                                                \
    C t = (isnan(x.x) || isnan(x.y) || x.x > lo.x || (x.x == lo.x && x.y > lo.y)) ? x : lo; \
    return (isnan(t.x) || isnan(t.y) || t.x < hi.x || (t.x == hi.x && t.y < hi.y)) ? t : hi; \
}

DARRAY_COMPLEX_ROWS(float, float2)
#ifdef DARRAY_FP64
DARRAY_COMPLEX_ROWS(double, double2)
#endif
