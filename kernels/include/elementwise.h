/* darray elementwise helpers, inlined at the top of every generated elementwise kernel.
 * Entry points: none (helper functions only); the generated kernel is `elementwise`.
 * Helpers are named <op>_<ctype>: floordiv_*, pymod_* (NumPy floor_divide/remainder,
 * division by zero gives 0 for integers), shl_*, shr_* (NumPy shifts: counts outside
 * [0, bits) give 0, or -1 for negative values shifted right), ipow_* (integer power by
 * squaring, wrap-around), recip_*, logaddexp_*, clip_* (NaN propagates); trig_sin/cos/tan
 * (overloaded for float, float8, double: the built-ins, with a fix for PoCL's float8 forms);
 * crecip_*, cclip_* (NumPy's complex reciprocal and clip, on float2/double2: the rows of
 * ops/_table.py, not complex functions in the mathematical sense). Define DARRAY_FP64 before
 * this header to get the double versions. Complex helpers live in complex.h.
 */
/* float8 at element alignment: PoCL 3.0 leaves vload8/vstore8 as out-of-line calls, while
 * plain loads through this type vectorise (used by the vector blocks of generated kernels). */
typedef float8 float8_u __attribute__((aligned(4)));

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
}

DARRAY_INT_HELPERS(char, uchar, 8, -128)
DARRAY_INT_HELPERS(uchar, uchar, 8, 0)
DARRAY_INT_HELPERS(short, ushort, 16, -32768)
DARRAY_INT_HELPERS(ushort, ushort, 16, 0)
DARRAY_INT_HELPERS(int, uint, 32, (-2147483647 - 1))
DARRAY_INT_HELPERS(uint, uint, 32, 0)
DARRAY_INT_HELPERS(long, ulong, 64, (-9223372036854775807L - 1))
DARRAY_INT_HELPERS(ulong, ulong, 64, 0)

/* NumPy's npy_divmod for floats: floor division and a remainder with the divisor's sign. */
#define DARRAY_FLOAT_HELPERS(T)                                                      \
inline T floordiv_##T(T a, T b) {                                                    \
    if (b == 0) return a / b;                                                        \
    T mod = fmod(a, b);                                                              \
    T div = (a - mod) / b;                                                           \
    if (mod != 0) { if ((b < 0) != (mod < 0)) div -= 1; }                            \
    T fl;                                                                            \
    if (div != 0) { fl = floor(div); if (div - fl > (T)0.5) fl += 1; }               \
    else fl = copysign((T)0, a / b);                                                 \
    return fl;                                                                       \
}                                                                                    \
inline T pymod_##T(T a, T b) {                                                       \
    if (b == 0) return fmod(a, b);                                                   \
    T mod = fmod(a, b);                                                              \
    if (mod != 0) { if ((b < 0) != (mod < 0)) mod += b; }                            \
    else mod = copysign((T)0, b);                                                    \
    return mod;                                                                      \
}                                                                                    \
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
}

DARRAY_FLOAT_HELPERS(float)
#ifdef DARRAY_FP64
DARRAY_FLOAT_HELPERS(double)
#endif

/* PoCL 3.0 (LLVM 14, SLEEF) computes float8 sin/cos/tan wrongly in lanes with |x| < 2^-7
 * when another lane of the same vector needs the large-argument reduction (|x| >= ~1e7):
 * sin(1e-3) comes out as sin(8e-3), sin(1e-8) 2^20 times too big. The float8 forms take
 * those lanes from their Taylor polynomial (<= 1 ulp there, -0.0 kept); scalar forms are
 * the built-ins. */
#define DARRAY_TRIG_SMALL ((float8)0.0078125f)
inline float __attribute__((overloadable)) trig_sin(float x) { return sin(x); }
inline float __attribute__((overloadable)) trig_cos(float x) { return cos(x); }
inline float __attribute__((overloadable)) trig_tan(float x) { return tan(x); }
inline float8 __attribute__((overloadable)) trig_sin(float8 x) {
    float8 x2 = x * x;
    return select(sin(x), x * (1.0f + x2 * (-1.0f / 6 + x2 * (1.0f / 120))), isless(fabs(x), DARRAY_TRIG_SMALL));
}
inline float8 __attribute__((overloadable)) trig_cos(float8 x) {
    float8 x2 = x * x;
    return select(cos(x), 1.0f + x2 * (-0.5f + x2 * (1.0f / 24)), isless(fabs(x), DARRAY_TRIG_SMALL));
}
inline float8 __attribute__((overloadable)) trig_tan(float8 x) {
    float8 x2 = x * x;
    return select(tan(x), x * (1.0f + x2 * (1.0f / 3 + x2 * (2.0f / 15 + x2 * (17.0f / 315)))),
                  isless(fabs(x), DARRAY_TRIG_SMALL));
}
#ifdef DARRAY_FP64
inline double __attribute__((overloadable)) trig_sin(double x) { return sin(x); }
inline double __attribute__((overloadable)) trig_cos(double x) { return cos(x); }
inline double __attribute__((overloadable)) trig_tan(double x) { return tan(x); }
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
