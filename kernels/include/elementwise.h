/* darray elementwise helpers, inlined at the top of every generated elementwise kernel.
 * Entry points: none (helper functions only); the generated kernel is `elementwise`.
 * Helpers are named <op>_<ctype>: floordiv_*, pymod_* (NumPy floor_divide/remainder,
 * division by zero gives 0 for integers), shl_*, shr_* (NumPy shifts: counts outside
 * [0, bits) give 0, or -1 for negative values shifted right), ipow_* (integer power by
 * squaring, wrap-around), recip_*, logaddexp_*, clip_* (NaN propagates). Define DARRAY_FP64 before this header to get the
 * double versions. Complex helpers live in complex.h.
 */
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
