/* darray scans (cumulative sum/product) of M rows of K elements, by chunks: the chunks' totals first, then each
 * chunk scanned from the combined totals of the chunks before it. Source row j starts at src[src_o + j * SL],
 * destination row j at dst[dst_o + j * L]; both are contiguous (the destination may be the source: in place).
 * Build options: -D T=<element type> -D S=<source element type: T, or a real type that converts to T>
 *                -D U=<unsigned twin for integers, else T>
 *                -D OP_SUM or -D OP_PROD; -D COMPLEX_R=<float|double> for complex T
 *                (complex.h is prepended by the host for complex builds); -D T_FLOAT for real
 *                floating T (sums start from -0.0, so a run of -0.0 stays -0.0 as in NumPy);
 *                -D T_BOOL for bool T (sum is logical or, product logical and: NumPy's bool add/multiply).
 * Chunk p (p < M * P) is part (p % P) of row (p / P): elements [part * C, min((part + 1) * C, K)), C = ceil(K / P).
 * Entry points:
 *   scan_totals(__global const S* src, long src_o, long SL, __global T* totals, long totals_o, long M, long K, long P)
 *       work-item p writes the combination of chunk p to totals[totals_o + p] (in four interleaved chains).
 *   scan_apply(__global const S* src, long src_o, long SL, __global T* dst, long dst_o, long L,
 *              __global const T* incl, long incl_o, long M, long K, long P)
 *       work-item p scans chunk p into dst, starting from incl[incl_o + p - 1] (the inclusive scan of the
 *       totals; the identity for a row's first chunk: incl is not read when P = 1).
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

#define CHUNK(p) \
    const long j = p / P, part = p - j * P, C = (K + P - 1) / P, k0 = part * C, k1 = min(k0 + C, K); \
    __global const S* in = src + src_o + j * SL;

__kernel void scan_totals(__global const S* src, long src_o, long SL, __global T* totals, long totals_o, long M, long K,
                          long P)
{
    const long p = get_global_id(0);
    if (p >= M * P) return;
    CHUNK(p)
    T a0 = IDENTITY, a1 = IDENTITY, a2 = IDENTITY, a3 = IDENTITY;  /* four chains: no wait on one add's latency */
    long k = k0;
    for (; k + 3 < k1; k += 4) {
        a0 = COMBINE(a0, (T)in[k]); a1 = COMBINE(a1, (T)in[k + 1]);
        a2 = COMBINE(a2, (T)in[k + 2]); a3 = COMBINE(a3, (T)in[k + 3]);
    }
    for (; k < k1; k++) a0 = COMBINE(a0, (T)in[k]);
    totals[totals_o + p] = COMBINE(COMBINE(a0, a1), COMBINE(a2, a3));
}

__kernel void scan_apply(__global const S* src, long src_o, long SL, __global T* dst, long dst_o, long L,
                         __global const T* incl, long incl_o, long M, long K, long P)
{
    const long p = get_global_id(0);
    if (p >= M * P) return;
    CHUNK(p)
    __global T* out = dst + dst_o + j * L;
    T acc = part ? incl[incl_o + p - 1] : IDENTITY;
    for (long k = k0; k < k1; k++) {
        acc = COMBINE(acc, (T)in[k]);
        out[k] = acc;
    }
}
