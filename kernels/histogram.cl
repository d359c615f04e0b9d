/* darray counting: each work-item counts a run of values into its own row of bins; the host sums the rows.
 * Build options: -D T=<type of the values> -D C=<type of a row's cells: uint for counts, the weights' sum type
 * with WEIGHTED> [-D WEIGHTED -D W=<type of the weights>] [-D E=<type of the edges> for hist_uniform]
 * [-D DARRAY_FP64=1 where a type is double].
 * Work-item t < R zeroes row t (rows[rows_o + t * bins ..][:bins]), then takes values [t * ch, min((t + 1) * ch, n)).
 * Entry points (the weights' arguments w, w_o only with WEIGHTED):
 *   count(__global const T *x, long x_o, [__global const W *w, long w_o,] __global C *rows, long rows_o, long R, long bins,
 *         long n, long ch)
 *       a value v in [0, bins) adds 1 (or its weight) to cell v; other values are skipped.
 *   hist_uniform(__global const T *x, long x_o, [w, w_o,] __global const E *edges, long edges_o, E lo, E hi,
 *                __global C *rows, long rows_o, long R, long bins, long n, long ch)
 *       a value a = (E)v in [lo, hi] (edges[0] = lo, edges[bins] = hi, equal steps) goes to the bin
 *       (a - lo) * (bins / (hi - lo)), moved by one where the edges themselves disagree (NumPy's
 *       correction, which also absorbs the rounding of the scale; the last bin holds hi); NaN and
 *       values outside are skipped.
 */
#ifdef DARRAY_FP64
#  pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifdef WEIGHTED
#  define WPARAM , __global const W *w, long w_o
#  define ADD(b, i) row[b] += (C)w[w_o + (i)]
#else
#  define WPARAM
#  define ADD(b, i) row[b] += 1
#endif

/* Zero this work-item's row and find its run [i0, i1) (empty past the data). */
#define ROW_START \
    const long t = get_global_id(0); \
    if (t >= R) return; \
    __global C *row = rows + rows_o + t * bins; \
    for (long b = 0; b < bins; b++) row[b] = 0; \
    const long i0 = min(t * ch, n), i1 = min(i0 + ch, n);

__kernel void count(__global const T *x, long x_o WPARAM, __global C *rows, long rows_o, long R, long bins, long n, long ch)
{
    ROW_START
    for (long i = i0; i < i1; i++) {
        const T v = x[x_o + i];
        if (v >= (T)0 && (ulong)v < (ulong)bins) ADD((long)v, i);
    }
}

#ifdef E
__kernel void hist_uniform(__global const T *x, long x_o WPARAM, __global const E *edges, long edges_o, E lo, E hi,
                           __global C *rows, long rows_o, long R, long bins, long n, long ch)
{
    ROW_START
    __global const E *e = edges + edges_o;
    const E scale = (E)bins / (hi - lo);
    for (long i = i0; i < i1; i++) {
        const E a = (E)x[x_o + i];
        if (!(a >= lo && a <= hi)) continue;
        long b = (long)((a - lo) * scale);
        b = clamp(b, 0L, bins - 1);
        if (a < e[b]) b--;
        if (b != bins - 1 && a >= e[b + 1]) b++;
        ADD(b, i);
    }
}
#endif
