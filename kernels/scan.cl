/* darray scans (cumulative sum/product) over M rows of K elements, in place; row j starts at
 * data[data_o + j * L] (L >= K: rows may be the tail of wider rows) and is contiguous.
 * Build options: -D T=<element type> -D U=<unsigned twin for integers, else T>
 *                -D OP_SUM or -D OP_PROD; -D COMPLEX_R=<float|double> for complex T
 *                (complex.h is prepended by the host for complex builds); -D T_FLOAT for real
 *                floating T (sums start from -0.0, so a run of -0.0 stays -0.0 as in NumPy);
 *                -D T_BOOL for bool T (sum is logical or, product logical and: NumPy's bool add/multiply).
 * Entry points:
 *   scan_chunks(__global T* data, long data_o, __global T* totals, long totals_o, long M, long K, long P, long L)
 *       work-item p scans chunk (p % P) of row (p / P) in place and writes the chunk total to totals[p].
 *   scan_fix(__global T* data, long data_o, __global const T* incl, long incl_o, long M, long K, long P, long L)
 *       work-item p combines the inclusive scan of the earlier chunks' totals (incl[p - 1]) into its chunk.
 */
#ifdef COMPLEX_R
#  define JOIN2(a, b) a##_##b
#  define JOIN(a, b) JOIN2(a, b)
#  ifdef OP_SUM
#    define COMBINE(a, b) ((a) + (b))
#    define IDENTITY ((T)(-0.0, -0.0))
#  else
#    define COMBINE(a, b) JOIN(cmul, COMPLEX_R)(a, b)
#    define IDENTITY ((T)(1, 0))
#  endif
#elif defined(T_BOOL)
#  ifdef OP_SUM
#    define COMBINE(a, b) ((T)((a) || (b)))
#    define IDENTITY ((T)0)
#  else
#    define COMBINE(a, b) ((T)((a) && (b)))
#    define IDENTITY ((T)1)
#  endif
#else
#  ifdef OP_SUM
#    define COMBINE(a, b) ((T)((U)(a) + (U)(b)))
#    ifdef T_FLOAT
#      define IDENTITY ((T)(-0.0))
#    else
#      define IDENTITY ((T)0)
#    endif
#  else
#    define COMBINE(a, b) ((T)((U)(a) * (U)(b)))
#    define IDENTITY ((T)1)
#  endif
#endif

__kernel void scan_chunks(__global T* data, long data_o, __global T* totals, long totals_o, long M, long K, long P, long L)
{
    const long p = get_global_id(0);
    if (p >= M * P) return;
    const long j = p / P, C = (K + P - 1) / P, k0 = (p - j * P) * C, k1 = min(k0 + C, K);
    __global T* row = data + data_o + j * L;
    T acc = IDENTITY;
    for (long k = k0; k < k1; k++) {
        acc = COMBINE(acc, row[k]);
        row[k] = acc;
    }
    totals[totals_o + p] = acc;
}

__kernel void scan_fix(__global T* data, long data_o, __global const T* incl, long incl_o, long M, long K, long P, long L)
{
    const long p = get_global_id(0);
    if (p >= M * P) return;
    const long j = p / P, part = p - j * P, C = (K + P - 1) / P, k0 = part * C, k1 = min(k0 + C, K);
    if (part == 0) return;
    const T offset = incl[incl_o + p - 1];
    __global T* row = data + data_o + j * L;
    for (long k = k0; k < k1; k++) row[k] = COMBINE(offset, row[k]);
}
