/* darray complex helpers: a complex number is a float2/double2 holding (re, im).
 * lazy/render.py inlines this file into every kernel that uses a complex dtype; the double
 * versions exist only when DARRAY_FP64 is defined. Entry points, each c<op>_<R> with R the
 * component type (float or double), e.g. cmul_float(a, b), csqrt_double(z):
 *   arithmetic   cmul cdiv cabs cpow csign
 *   exp and log  cexp cexp2 cexpm1 clog clog1p clog2 clog10 csqrt
 *   trigonometry csin ccos ctan casin cacos catan
 *   hyperbolic   csinh ccosh ctanh casinh cacosh catanh
 *   ordering     cless cless_equal cgreater cgreater_equal (return int), cmaximum cminimum,
 *                cfmax cfmin
 * Branch cuts and special values (inf, NaN, signed zeros) follow C99 Annex G as NumPy's
 * glibc-backed loops do; cpow, csign, cexp2 (cexp(z ln 2)), cexpm1, clog2, clog10 and the ordering
 * follow NumPy's own loops (cexpm1 with the Array API's special values where NumPy's formula gives others:
 * +0 + 0j at +-0 + 0j, an infinite real part with an infinite or NaN imaginary one, -inf).
 * The inverse functions use Kahan's formulas ("Branch cuts for complex elementary
 * functions", 1987), which keep their accuracy next to the branch points; very large |z| take
 * an asymptotic form and csqrt/clog scale, so nothing overflows before the result does.
 */
#define DARRAY_COMPLEX_BASIC(R, C)                                                   \
inline C cmul_##R(C a, C b) {  /* (ax bx - ay by, ax by + ay bx) as one vector sum: the same bits, */ \
    return a.xx * b + a.yy * (C)(-b.y, b.x);  /* and Intel's compiler keeps the signs of zeros */ \
} \
inline C cdiv_##R(C a, C b) {  /* Smith's algorithm, as NumPy's complex divide (unfused, as all) */ \
    const R ar = fabs(b.x), ai = fabs(b.y);                                          \
    if (ar >= ai) {                                                                  \
        if (ar == 0 && ai == 0) return (C)(a.x / ar, a.y / ai);                      \
        const R rat = b.y / b.x, scl = (R)1 / (b.x + b.y * rat);                     \
        return (C)((a.x + a.y * rat) * scl, (a.y - a.x * rat) * scl);                \
    }                                                                                \
    const R rat = b.x / b.y, scl = (R)1 / (b.y + b.x * rat);                         \
    return (C)((a.x * rat + a.y) * scl, (a.y * rat - a.x) * scl);                    \
}                                                                                    \
inline R cabs_##R(C a) { return hypot(a.x, a.y); }

/* The macros below take K, the suffix of the M_* constants (_F or nothing), and P, the prefix
 * of the float.h limits (FLT or DBL). LOGMAX: exp(x) overflows a little past it. */
#define DARRAY_LOGMAX(R, K, P) ((R)(P##_MAX_EXP - 1) * M_LN2##K)

/* Exponential, logarithms and square root. */
#define DARRAY_COMPLEX_EXP(R, C, K, P)                                               \
inline C cexp_##R(C z) {                                                             \
    R x = z.x, y = z.y, c, s;                                                        \
    if (y == 0) return (C)(exp(x), y);                                               \
    if (isinf(x) && !isfinite(y)) return x < 0 ? (C)(0, copysign((R)0, y)) : (C)(x, y - y); \
    s = sincos(y, &c);                                                               \
    if (x > DARRAY_LOGMAX(R, K, P)) {        /* e^x overflows before e^x cos y */    \
        R h = exp(x * (R)0.5);                                                       \
        return (C)(h * c * h, h * s * h);                                            \
    }                                                                                \
    R e = exp(x);                                                                    \
    return (C)(e * c, e * s);                                                        \
}                                                                                    \
inline C cexp2_##R(C z) { return cexp_##R(z * M_LN2##K); }  /* NumPy's nc_exp2 */ \
inline C cexpm1_##R(C z) {  /* NumPy's formula; the Array API's values where it differs */ \
    R x = z.x, y = z.y, h;                                                           \
    if (y == 0) return (C)(x == 0 ? (R)0 : expm1(x), y);  /* expm1(+-0 + 0j) = +0 + 0j */ \
    if (isinf(x) && !isfinite(y)) return x < 0 ? (C)(-1, copysign((R)0, y)) : (C)(x, y - y); \
    if (isinf(x) && x < 0) return (C)(-1, copysign((R)0, sin(y)));  /* +0 cis(y) - 1 */ \
    h = sin(y * (R)0.5);                                                             \
    return (C)(expm1(x) * cos(y) - 2 * h * h, exp(x) * sin(y));                      \
}                                                                                    \
inline C clog_##R(C z) {                                                             \
    R x = fabs(z.x), y = fabs(z.y), a = fmax(x, y), b = fmin(x, y), k = 0;           \
    if (a >= (R)0.5 && a <= 2 && !isnan(x + y))  /* |z| near 1: keep the low digits */ \
        return (C)((R)0.5 * log1p(fma(a - 1, a + 1, b * b)), atan2(z.y, z.x));       \
    if (a > P##_MAX / 4 && isfinite(a)) {    /* scale so hypot neither overflows... */ \
        x *= (R)0.25; y *= (R)0.25; k = 2 * M_LN2##K;                                \
    } else if (a < P##_MIN) {                /* ...nor loses subnormal digits */     \
        x /= P##_EPSILON * P##_EPSILON; y /= P##_EPSILON * P##_EPSILON;              \
        k = 2 * (P##_MANT_DIG - 1) * -M_LN2##K;                                      \
    }                                                                                \
    return (C)(log(hypot(x, y)) + k, atan2(z.y, z.x));                               \
}                                                                                    \
inline C clog1p_##R(C z) {                   /* accurate for small z, unlike NumPy's */ \
    if (fabs(z.x) < (R)0.5 && fabs(z.y) < (R)0.5)                                    \
        return (C)((R)0.5 * log1p(fma(z.x, z.x + 2, z.y * z.y)), atan2(z.y, 1 + z.x)); \
    return clog_##R((C)(1 + z.x, z.y));                                              \
}                                                                                    \
inline C clog2_##R(C z) { return clog_##R(z) * M_LOG2E##K; }                         \
inline C clog10_##R(C z) { return clog_##R(z) * M_LOG10E##K; }                      \
inline C csqrt_##R(C z) {                                                            \
    R x = z.x, y = z.y, ax = fabs(x), ay = fabs(y), k = 1, t;                        \
    if (x == 0 && y == 0) return (C)(0, y);                                          \
    if (isinf(y)) return (C)(INFINITY, y);                                           \
    if (isnan(x)) return (C)(x, x);                                                  \
    if (isinf(x))                                                                    \
        return x > 0 ? (C)(x, isnan(y) ? y : copysign((R)0, y)) : (C)(fabs(y - y), copysign(x, y)); \
    if (isnan(y)) return (C)(y, y);                                                  \
    if (fmax(ax, ay) > P##_MAX / 4) {        /* scale by an exact power of 4 */      \
        ax *= (R)0.25; ay *= (R)0.25; k = 2;                                         \
    } else if (fmax(ax, ay) < P##_MIN) {                                             \
        ax /= P##_EPSILON * P##_EPSILON; ay /= P##_EPSILON * P##_EPSILON; k = P##_EPSILON; \
    }                                                                                \
    t = sqrt((ax + hypot(ax, ay)) * (R)0.5);                                         \
    R u = k * (ay / (2 * t));                                                        \
    return x >= 0 ? (C)(k * t, copysign(u, y)) : (C)(u, copysign(k * t, y));         \
}

/* Hyperbolic and circular functions: sin(z) = -i sinh(iz), cos(z) = cosh(iz), and so on. */
#define DARRAY_COMPLEX_TRIG(R, C, K, P)                                              \
inline C csinh_##R(C z) {                                                            \
    R x = z.x, y = z.y, c, s;                                                        \
    if (isfinite(x) && isfinite(y)) {                                                \
        if (y == 0) return (C)(sinh(x), y);                                          \
        s = sincos(y, &c);                                                           \
        if (fabs(x) <= DARRAY_LOGMAX(R, K, P)) return (C)(sinh(x) * c, cosh(x) * s); \
        R h = exp(fabs(x) * (R)0.5), hc = (R)0.5 * h * c * h;  /* e^|x|/2 = h*h/2 */ \
        return (C)(x < 0 ? -hc : hc, (R)0.5 * h * s * h);                            \
    }                                                                                \
    if (x == 0 || y == 0) return (C)(x, y == 0 ? y : y - y);                         \
    if (isinf(x)) {                          /* +inf, like glibc, if y is inf/NaN */ \
        if (!isfinite(y)) return (C)(x * x, y - y);                                  \
        s = sincos(y, &c);                                                           \
        return (C)(x * c, INFINITY * s);                                             \
    }                                                                                \
    return (C)(NAN, NAN);                                                            \
}                                                                                    \
inline C ccosh_##R(C z) {                                                            \
    R x = z.x, y = z.y, c, s;                                                        \
    if (isfinite(x) && isfinite(y)) {                                                \
        if (y == 0) return (C)(cosh(x), x * y);                                      \
        s = sincos(y, &c);                                                           \
        if (fabs(x) <= DARRAY_LOGMAX(R, K, P)) return (C)(cosh(x) * c, sinh(x) * s); \
        R h = exp(fabs(x) * (R)0.5), hs = (R)0.5 * h * s * h;                        \
        return (C)((R)0.5 * h * c * h, x < 0 ? -hs : hs);                            \
    }                                                                                \
    if (x == 0) return (C)(y - y, x);                                                \
    if (y == 0) return (C)(x * x, copysign((R)0, x) * y);                            \
    if (isinf(x)) {                                                                  \
        if (!isfinite(y)) return (C)(INFINITY, y - y);                               \
        s = sincos(y, &c);                                                           \
        return (C)(INFINITY * c, x * s);                                             \
    }                                                                                \
    return (C)(NAN, NAN);                                                            \
}                                                                                    \
inline C ctanh_##R(C z) {                                                            \
    R x = z.x, y = z.y;                                                              \
    if (isinf(x)) return (C)(copysign((R)1, x), copysign((R)0, isinf(y) ? y : sin(y) * cos(y))); \
    if (isnan(x)) return (C)(x, y == 0 ? y : x);                                     \
    if (!isfinite(y)) return (C)(x == 0 ? x : y - y, y - y);                         \
    if (fabs(x) > 22) {                      /* tanh(x) rounds to +-1 */             \
        R e = exp(-fabs(x));                                                         \
        return (C)(copysign((R)1, x), 4 * sin(y) * cos(y) * e * e);                  \
    }                                                                                \
    R t = tan(y), b = 1 + t * t, s = sinh(x), d = 1 + b * s * s;  /* Kahan */        \
    return (C)(b * s * sqrt(1 + s * s) / d, t / d);                                  \
}                                                                                    \
inline C csin_##R(C z) { C w = csinh_##R((C)(-z.y, z.x)); return (C)(w.y, -w.x); }   \
inline C ccos_##R(C z) { return ccosh_##R((C)(-z.y, z.x)); }                         \
inline C ctan_##R(C z) { C w = ctanh_##R((C)(-z.y, z.x)); return (C)(w.y, -w.x); }

/* Inverse functions. casinh and catanh work on |re|, |im| and restore the signs (they are odd
 * and conjugate-symmetric); asin(z) = -i asinh(iz), atan(z) = -i atanh(iz) (their imaginary
 * part takes the sign of z.y itself: -z.y of a NaN keeps its sign bit on some GPUs), and
 * acosh(z) = +-i acos(z) with the sign that makes the real part >= 0. */
#define DARRAY_COMPLEX_ARC(R, C, K, P)                                               \
inline C casinh_##R(C z) {                                                           \
    R x = fabs(z.x), y = fabs(z.y), re, im;                                          \
    if (isnan(x) || isnan(y)) {                                                      \
        re = (isinf(x) || isinf(y)) ? INFINITY : NAN;                                \
        im = y == 0 ? y : NAN;                                                       \
    } else if (isinf(x) || isinf(y)) {                                               \
        re = INFINITY; im = atan2(y, x);                                             \
    } else if (fmax(x, y) > 1 / P##_EPSILON) {  /* asinh(z) = log(2z) + O(z^-2) */   \
        C l = clog_##R((C)(x, y)); re = l.x + M_LN2##K; im = l.y;                    \
    } else {                                 /* a = sqrt(1 - iz), b = sqrt(1 + iz) */ \
        C a = csqrt_##R((C)(1 + y, -x)), b = csqrt_##R((C)(1 - y, x));               \
        re = asinh(a.x * b.y - a.y * b.x);   /* both terms >= 0: no cancellation */  \
        im = atan2(y, a.x * b.x - a.y * b.y);                                        \
    }                                                                                \
    return (C)(copysign(re, z.x), copysign(im, z.y));                                \
}                                                                                    \
inline C cacos_##R(C z) {                    /* computed for |im|, conjugated back */ \
    R x = z.x, y = fabs(z.y), re, im;                                                \
    if (isnan(x) || isnan(y)) {                                                      \
        re = x == 0 ? M_PI_2##K : NAN;                                               \
        im = (isinf(x) || isinf(y)) ? -INFINITY : NAN;                               \
    } else if (isinf(x) || isinf(y)) {                                               \
        re = atan2(y, x); im = -INFINITY;                                            \
    } else if (fmax(fabs(x), y) > 1 / P##_EPSILON) {  /* acos(z) = -i log(2z) */     \
        C l = clog_##R((C)(x, y)); re = l.y; im = -(l.x + M_LN2##K);                 \
    } else {                                 /* a = sqrt(1 - z), b = sqrt(1 + z) */  \
        C a = csqrt_##R((C)(1 - x, -y)), b = csqrt_##R((C)(1 + x, y));               \
        re = 2 * atan2(a.x, b.x);                                                    \
        im = asinh(b.x * a.y - b.y * a.x);   /* both terms <= 0 */                   \
    }                                                                                \
    return (C)(re, signbit(z.y) ? -im : im);                                         \
}                                                                                    \
inline C catanh_##R(C z) {                                                           \
    R x = fabs(z.x), y = fabs(z.y), re, im;                                          \
    if (isnan(x) || isnan(y)) {                                                      \
        re = (isinf(x) || isinf(y) || x == 0) ? 0 : NAN;                             \
        im = isinf(y) ? M_PI_2##K : NAN;                                             \
    } else if (isinf(x) || isinf(y)) {                                               \
        re = 0; im = M_PI_2##K;                                                      \
    } else if (fmax(x, y) > 1 / P##_EPSILON) {  /* atanh(z) = i pi/2 + 1/z + O(z^-3) */ \
        R h = hypot(x, y); re = x / h / h; im = M_PI_2##K - y / h / h;               \
    } else {                                 /* Kahan; near z = 1 log each factor */ \
        R xm = 1 - x, d = xm * xm + y * y;                                           \
        re = d > (R)0.25 ? (R)0.25 * log1p(4 * x / d)                                \
                         : (R)0.5 * (log(hypot(1 + x, y)) - log(hypot(xm, y)));      \
        im = (R)0.5 * atan2(2 * y, xm * (1 + x) - y * y);                            \
    }                                                                                \
    return (C)(copysign(re, z.x), copysign(im, z.y));                                \
}                                                                                    \
inline C casin_##R(C z) { C w = casinh_##R((C)(-z.y, z.x)); return (C)(w.y, copysign(fabs(w.x), z.y)); } \
inline C catan_##R(C z) { C w = catanh_##R((C)(-z.y, z.x)); return (C)(w.y, copysign(fabs(w.x), z.y)); } \
inline C cacosh_##R(C z) { C w = cacos_##R(z); return (C)(fabs(w.y), copysign(w.x, z.y)); }

/* NumPy's power, sign and lexicographic ordering (a NaN operand makes comparisons false and
 * is what maximum/minimum return, the first one if both have a NaN; fmax/fmin return the other
 * operand, the first one if both have a NaN). */
#define DARRAY_COMPLEX_NUMPY(R, C)                                                   \
inline C cpow_##R(C a, C b) {                                                        \
    if (b.x == 0 && b.y == 0) return (C)(1, 0);                                      \
    if (a.x == 0 && a.y == 0) return b.x > 0 ? (C)(0, 0) : (C)(NAN, NAN);          \
    if (b.y == 0 && fabs(b.x) < 100 && b.x == trunc(b.x)) {  /* repeated squaring */ \
        int n = (int)fabs(b.x), first = 1;                                           \
        C p = a, r = a;                                                              \
        for (;;) {                                                                   \
            if (n & 1) { r = first ? p : cmul_##R(r, p); first = 0; }                \
            if ((n >>= 1) == 0) break;                                               \
            p = cmul_##R(p, p);                                                      \
        }                                                                            \
        return b.x < 0 ? cdiv_##R((C)(1, 0), r) : r;                                 \
    }                                                                                \
    return cexp_##R(cmul_##R(b, clog_##R(a)));                                       \
}                                                                                    \
inline C csign_##R(C z) {                                                            \
    R h = hypot(z.x, z.y);                                                           \
    if (isnan(h) || (isinf(z.x) && isinf(z.y))) return (C)(NAN, NAN);                \
    if (isinf(h)) return isinf(z.x) ? (C)(copysign((R)1, z.x), 0) : (C)(0, copysign((R)1, z.y)); \
    return h == 0 ? (C)(0, 0) : (C)(z.x / h, z.y / h);                               \
}                                                                                    \
inline int cless_##R(C a, C b) {                                                     \
    return (a.x < b.x && !isnan(a.y) && !isnan(b.y)) || (a.x == b.x && a.y < b.y);   \
}                                                                                    \
inline int cless_equal_##R(C a, C b) {                                               \
    return (a.x < b.x && !isnan(a.y) && !isnan(b.y)) || (a.x == b.x && a.y <= b.y);  \
}                                                                                    \
inline int cgreater_##R(C a, C b) { return cless_##R(b, a); }                        \
inline int cgreater_equal_##R(C a, C b) { return cless_equal_##R(b, a); }            \
inline C cmaximum_##R(C a, C b) {                                                    \
    return (isnan(a.x) || isnan(a.y) || cless_equal_##R(b, a)) ? a : b;              \
}                                                                                    \
inline C cminimum_##R(C a, C b) {                                                    \
    return (isnan(a.x) || isnan(a.y) || cless_equal_##R(a, b)) ? a : b;              \
}                                                                                    \
inline C cfmax_##R(C a, C b) {                                                       \
    return (isnan(b.x) || isnan(b.y) || cless_equal_##R(b, a)) ? a : b;              \
}                                                                                    \
inline C cfmin_##R(C a, C b) {                                                       \
    return (isnan(b.x) || isnan(b.y) || cless_equal_##R(a, b)) ? a : b;              \
}

#define DARRAY_COMPLEX_ALL(R, C, K, P)                                               \
    DARRAY_COMPLEX_BASIC(R, C) DARRAY_COMPLEX_EXP(R, C, K, P)                        \
    DARRAY_COMPLEX_TRIG(R, C, K, P) DARRAY_COMPLEX_ARC(R, C, K, P) DARRAY_COMPLEX_NUMPY(R, C)

DARRAY_COMPLEX_ALL(float, float2, _F, FLT)
#ifdef DARRAY_FP64
DARRAY_COMPLEX_ALL(double, double2, , DBL)
#endif
