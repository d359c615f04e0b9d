/* darray complex helpers (float2/double2 as re, im); included when a kernel uses complex.
 * Entry points: none. Helpers are named c<op>_<component type>, e.g. cmul_float(a, b).
 */
#define DARRAY_COMPLEX_BASIC(R, C)                                                   \
inline C cmul_##R(C a, C b) { return (C)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); } \
inline C cdiv_##R(C a, C b) {                                                        \
    R s = fabs(b.x) + fabs(b.y);                                                     \
    if (s == 0) return (C)(a.x / s, a.y / s);                                        \
    R bx = b.x / s, by = b.y / s, d = bx * bx + by * by;                             \
    R ax = a.x / s, ay = a.y / s;                                                    \
    return (C)((ax * bx + ay * by) / d, (ay * bx - ax * by) / d);                    \
}                                                                                    \
inline R cabs_##R(C a) { return hypot(a.x, a.y); }

DARRAY_COMPLEX_BASIC(float, float2)
#ifdef DARRAY_FP64
DARRAY_COMPLEX_BASIC(double, double2)
#endif
