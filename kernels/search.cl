/* darray searchsorted: binary search of each value in a sorted 1-d array.
 * Build options: -D T=<element type> (real types only), -D T_FLOAT for floating T (NaN sorts
 *                after everything, as in NumPy), -D SIDE_RIGHT for side="right" (else left),
 *                -D DARRAY_FP64=1 / -D DARRAY_FP16=1 for double / half T.
 * Work-item g searches values [g * ch, min((g + 1) * ch, n)).
 * Entry point:
 *   searchsorted(__global const T *a, long a_o, long a_s, long na,
 *                __global const T *v, long v_o, __global long *out, long out_o, long n, long ch)
 *       out[i] = the first j in [0, na] with a[j] >= v[i] (left) or a[j] > v[i] (right), where
 *       a[j] is a[a_o + j * a_s] (a strided view of the sorted array).
 */
#ifdef DARRAY_FP64
#  pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifdef DARRAY_FP16
#  pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
#ifdef T_FLOAT
#  define LESS(x, y) ((x) < (y) || (isnan(y) && !isnan(x)))
#else
#  define LESS(x, y) ((x) < (y))
#endif
#ifdef SIDE_RIGHT
#  define GOES_LEFT(aj, val) LESS(val, aj)      /* a[j] > v */
#else
#  define GOES_LEFT(aj, val) (!LESS(aj, val))   /* a[j] >= v */
#endif

__kernel void searchsorted(__global const T *a, long a_o, long a_s, long na,
                           __global const T *v, long v_o, __global long *out, long out_o, long n, long ch) {
    const long start = (long)get_global_id(0) * ch, end = min(start + ch, n);
    for (long i = start; i < end; i++) {
        const T val = v[v_o + i];
        long lo = 0, hi = na;
        while (lo < hi) {
            const long mid = lo + (hi - lo) / 2;
            if (GOES_LEFT(a[a_o + mid * a_s], val)) hi = mid; else lo = mid + 1;
        }
        out[out_o + i] = lo;
    }
}
