/* darray sparse matrix kernels (darray/sparse/_ops.py).
 *
 * Build options: -D I=<int|long> (index type of indptr, indices, rows), -D T=<value type: float,
 *   double, float2, double2>, -D COMPLEX for complex T (real in .x, imaginary in .y), -D DARRAY_FP64
 *   for double T; -D KT=<dense columns per launch> and -D NO_X (sum the values, no x)  for the products,
 *   -D ONE_COLUMN when K is 1.
 * Buffers come with element offsets (*_o). A product launch takes the KT columns j0 <= j < j0 + KT of
 * X (N x K, row-major) and y (M x K): reads X[col * K + j], writes y[row * K + j]. KT is a build option
 * so that the accumulators stay in registers (a private array indexed at run time lives in memory:
 * 1.7x slower SpMV on Intel's CPU runtime).
 * Entry points:
 *   spmv_split(indptr, indices, data, x, y, carry, carry_row, long M, long nnz, long K, long j0, long C)
 *       merge-path split: work-item p takes nonzeros [p * C, (p + 1) * C) and owns the rows that start
 *       in them (the last one also the empty rows starting at nnz), found by a binary search of indptr.
 *       It writes its rows' sums (partial for a row running past its range) and the sum of its head,
 *       the tail of the row begun before it, into carry[p * K + j] with carry_row[p] = that row (-1: none).
 *   spmv_fix(y, carry, carry_row, long P, long K)
 *       work-item j adds the P head sums of column j into y in order.
 *   spmv_vector(indptr, indices, data, x, y, __local T* scratch, long M, long K, long j0, int VS)
 *       VS lanes (a power of two dividing the work-group) per row: each lane sums every VS-th nonzero,
 *       the lanes' sums are added in local memory.
 * Chunked entry points (work-item g handles items [g * ch, min((g + 1) * ch, n))):
 *   row_index(indptr, rows, long n, long ch)        rows[k] = r for the nonzeros k of row r (n rows).
 *   row_starts(rows, indptr, long M, long n, long ch)
 *       indptr (M + 1 entries) of the n sorted row indices: indptr[r] = the first k with rows[k] >= r.
 *   csr_dense(indptr, indices, data, out, long N, long n, long ch)
 *       out[r * N + indices[k]] += data[k] over each row r's nonzeros (out zeroed; n rows).
 *   spgemm_expand(arow, acol, aval, offs, bptr, bcol, bval, orow, ocol, oval, long n, long ch)
 *       each nonzero k of A times row acol[k] of B, written from offs[k] on (offs: long, the
 *       exclusive scan of the products per nonzero).
 */
#ifdef DARRAY_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifdef COMPLEX
#  define MUL(a, b) ((T)((a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x))
#else
#  define MUL(a, b) ((a) * (b))
#endif
#define ZERO ((T)(0))
#ifdef NO_X
#  define TERM(k, j) (data[k])
#elif defined(ONE_COLUMN)
#  define TERM(k, j) MUL(data[k], x[indices[k]])
#else
#  define TERM(k, j) MUL(data[k], x[(long)indices[k] * K + (j)])
#endif
#define CLEAR(acc) for (int j = 0; j < KT; j++) acc[j] = ZERO
#define ADD(acc, k) for (int j = 0; j < KT; j++) acc[j] += TERM(k, j)
#define RANGE const long g = get_global_id(0); const long start = g * ch; const long end = min(start + ch, n);
#define SHIFT(name) name += name##_o

__kernel void spmv_split(__global const I* indptr, long indptr_o, __global const I* indices, long indices_o,
                         __global const T* data, long data_o, __global const T* x, long x_o, __global T* y, long y_o,
                         __global T* carry, long carry_o, __global long* carry_row, long carry_row_o, long M,
                         long nnz, long K, long j0, long C)
{
    const long p = get_global_id(0), k0 = p * C;
    if (k0 >= nnz) return;
    const long k1 = min(k0 + C, nnz);
    const int last = k1 == nnz;
    SHIFT(indptr); SHIFT(indices); SHIFT(data); SHIFT(x); SHIFT(y); SHIFT(carry); SHIFT(carry_row);
    x += j0; y += j0; carry += p * K + j0;
    long lo = 0, hi = M;                      /* r0: the first row starting at or after k0 */
    while (lo < hi) {
        const long mid = lo + (hi - lo) / 2;
        if (indptr[mid] < k0) lo = mid + 1; else hi = mid;
    }
    const long r0 = lo, head = min((long)indptr[r0], k1);
    carry_row[p] = k0 < head ? r0 - 1 : -1;
    T acc[KT];
    if (k0 < head) {
        CLEAR(acc);
        for (long k = k0; k < head; k++) ADD(acc, k);
        for (int j = 0; j < KT; j++) carry[j] = acc[j];
    }
    const long stop = last ? k1 + 1 : k1;    /* rows starting before stop are this work-item's */
    long s = indptr[r0];
    for (long r = r0; r < M && s < stop; r++) {
        const long next = indptr[r + 1], e = min(next, k1);
        CLEAR(acc);
#if KT == 1
        T odd = ZERO;                          /* two chains of additions: half the latency */
        long k = s;
        for (; k + 1 < e; k += 2) { ADD(acc, k); odd += TERM(k + 1, 0); }
        if (k < e) ADD(acc, k);
        acc[0] += odd;
#else
        for (long k = s; k < e; k++) ADD(acc, k);
#endif
        for (int j = 0; j < KT; j++) y[r * K + j] = acc[j];
        s = next;
    }
}

__kernel void spmv_fix(__global T* y, long y_o, __global const T* carry, long carry_o,
                       __global const long* carry_row, long carry_row_o, long P, long K)
{
    const long j = get_global_id(0);
    if (j >= K) return;
    SHIFT(y); SHIFT(carry); SHIFT(carry_row);
    for (long q = 0; q < P; q++) {
        const long r = carry_row[q];
        if (r >= 0) y[r * K + j] += carry[q * K + j];
    }
}

__kernel void spmv_vector(__global const I* indptr, long indptr_o, __global const I* indices, long indices_o,
                          __global const T* data, long data_o, __global const T* x, long x_o, __global T* y,
                          long y_o, __local T* scratch, long M, long K, long j0, int VS)
{
    const int lid = (int)get_local_id(0), lane = lid % VS;
    const long r = get_group_id(0) * (get_local_size(0) / VS) + lid / VS;
    SHIFT(indptr); SHIFT(indices); SHIFT(data); SHIFT(x); SHIFT(y);
    x += j0; y += j0;
    const long s = r < M ? (long)indptr[r] : 0, e = r < M ? (long)indptr[r + 1] : 0;
    T acc[KT];
    CLEAR(acc);
    for (long k = s + lane; k < e; k += VS) ADD(acc, k);
    for (int j = 0; j < KT; j++) {
        scratch[lid] = acc[j];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int h = VS / 2; h > 0; h >>= 1) {
            if (lane < h) scratch[lid] += scratch[lid + h];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lane == 0 && r < M) y[r * K + j] = scratch[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

__kernel void row_index(__global const I* indptr, long indptr_o, __global I* rows, long rows_o, long n, long ch)
{
    RANGE
    SHIFT(indptr); SHIFT(rows);
    for (long r = start; r < end; r++)
        for (long k = indptr[r]; k < indptr[r + 1]; k++) rows[k] = (I)r;
}

__kernel void row_starts(__global const I* rows, long rows_o, __global I* indptr, long indptr_o, long M,
                         long n, long ch)
{
    RANGE
    SHIFT(rows); SHIFT(indptr);
    for (long i = start; i < end; i++) {
        const long r = rows[i], prev = i ? (long)rows[i - 1] : -1;
        for (long q = prev + 1; q <= r; q++) indptr[q] = (I)i;
        if (i == n - 1)
            for (long q = r + 1; q <= M; q++) indptr[q] = (I)n;
    }
}

__kernel void csr_dense(__global const I* indptr, long indptr_o, __global const I* indices, long indices_o,
                        __global const T* data, long data_o, __global T* out, long out_o, long N, long n, long ch)
{
    RANGE
    SHIFT(indptr); SHIFT(indices); SHIFT(data); SHIFT(out);
    for (long r = start; r < end; r++)
        for (long k = indptr[r]; k < indptr[r + 1]; k++) out[r * N + indices[k]] += data[k];
}

__kernel void spgemm_expand(__global const I* arow, long arow_o, __global const I* acol, long acol_o,
                            __global const T* aval, long aval_o, __global const long* offs, long offs_o,
                            __global const I* bptr, long bptr_o, __global const I* bcol, long bcol_o,
                            __global const T* bval, long bval_o, __global I* orow, long orow_o,
                            __global I* ocol, long ocol_o, __global T* oval, long oval_o, long n, long ch)
{
    RANGE
    SHIFT(arow); SHIFT(acol); SHIFT(aval); SHIFT(offs); SHIFT(bptr); SHIFT(bcol); SHIFT(bval);
    SHIFT(orow); SHIFT(ocol); SHIFT(oval);
    for (long k = start; k < end; k++) {
        long pos = offs[k];
        const I i = arow[k];
        const T a = aval[k];
        const long c = acol[k];
        for (long t = bptr[c]; t < bptr[c + 1]; t++, pos++) {
            orow[pos] = i;
            ocol[pos] = bcol[t];
            oval[pos] = MUL(a, bval[t]);
        }
    }
}
