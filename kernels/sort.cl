/* darray sorting and set kernels (darray/ops/sorting.py, darray/ops/sets.py).
 *
 * key_of and is_nan_key come from include/sort_key.h (prepended by darray/ops/sorting.py).
 * Elements are read as the unsigned integer U of their width and mapped to an order-preserving
 * unsigned key KEY, so no fp16/fp64 extension is needed. Floats: -0.0 maps to +0.0's key and every
 * NaN to the largest key (NaN sorts last, stable among NaNs); -D DESCENDING inverts every key
 * (so NaNs come first, as in array_api_strict's descending sort).
 * Build options: -D U=<uchar|ushort|uint|ulong> -D KEY=<uint|ulong> -D BITS=<digit width>
 *                -D KEY_FLOAT or -D KEY_SIGNED (else unsigned/bool), -D SIGN=<U's top bit>,
 *                -D EXPMASK=<exponent bits, floats>; -D DESCENDING; -D IDX=<int|long> (indices and
 *                counts); -D ARG to carry indices along with the values.
 * Rows: M rows of K contiguous elements; work-item p owns chunk (p % P) of row (p / P).
 * Entry points:
 *   radix_hist(__global const U* src, long src_o, __global IDX* hist, long hist_o, __global KEY* diff,
 *              long diff_o, long M, long K, long P, int logc, int shift)
 *       chunks are 2**logc keys (P = ceil(K / 2**logc) per row); counts digit d = (key >> shift) & (R - 1)
 *       of its chunk into hist[row * L + 1 + d * P + part] (L = R * P + 1; hist[row * L] = 0, so an
 *       inclusive scan of each row gives exclusive offsets); diff[p] = OR over the chunk of
 *       key ^ (key of the row's first element): the key bits that vary.
 *   radix_scatter(__global const U* src, long src_o, __global U* dst, long dst_o, __global const IDX* isrc,
 *                 long isrc_o, __global IDX* idst, long idst_o, __global const IDX* offs, long offs_o,
 *                 __global IDX* part, long part_o, long M, long K, long P, int logc, int shift, int first,
 *                 int next)
 *       stable scatter of its chunk to the offsets of the scanned histogram; with ARG the index
 *       moves along (first pass: the position in the row). With next >= 0 it also counts digit
 *       (key >> next) of each key by the chunk it lands in, into its own P x R block of part
 *       (the next pass's histogram, without another read of the keys).
 *   radix_merge(__global const IDX* part, long part_o, __global IDX* hist, long hist_o, long M, long P)
 *       work-item (row, chunk c) sums the P blocks of part into that row's hist, as radix_hist lays it out.
 *   rows_sort(__global U* data, long data_o, __global IDX* idx, long idx_o, long M, long K, long C)
 *       work-item p insertion-sorts rows [p * C, (p + 1) * C) in place (stable; short rows); with ARG
 *       idx is filled too.
 * Chunked entry points: work-item p handles elements [p * C, min((p + 1) * C, n)).
 *   unique_count(__global const U* s, long s_o, __global long* counts, long counts_o, long n, long C)
 *       counts[1 + p] = how many elements of its chunk of the sorted s start a new value (the first
 *       element, another key than the one before, or a NaN); counts[0] = 0.
 *   unique_scatter(__global const U* s, long s_o, __global const long* offs, long offs_o,
 *                  __global const long* order, long order_o, __global U* values, long values_o,
 *                  __global long* starts, long starts_o, __global long* first, long first_o,
 *                  __global long* inverse, long inverse_o, long n, long C, int with_order)
 *       with offs the inclusive scan of unique_count's counts: at the start i of value u, values[u] = s[i],
 *       starts[u] = i; with_order (order = the stable argsort): first[u] = order[i], inverse[order[i]] = u.
 *   isin_search(__global const U* x, long x_o, __global const U* t, long t_o, __global uchar* out,
 *               long out_o, long n, long m, long C, int invert)
 *       out[i] = (x[i] equals an element of the sorted t[0..m)) != invert; NaN equals nothing.
 */
#define R (1 << BITS)

__kernel void radix_hist(__global const U* src, long src_o, __global IDX* hist, long hist_o, __global KEY* diff,
                         long diff_o, long M, long K, long P, int logc, int shift)
{
    const long p = get_global_id(0);
    if (p >= M * P) return;
    const long j = p / P, part = p - j * P, k0 = part << logc, k1 = min(k0 + (1L << logc), K);
    __global const U* row = src + src_o + j * K;
    IDX cnt[R];
    for (int d = 0; d < R; d++) cnt[d] = 0;
    const KEY k_first = key_of(row[0]);
    KEY bits = 0;
    for (long k = k0; k < k1; k++) {
        const KEY key = key_of(row[k]);
        bits |= key ^ k_first;
        cnt[(key >> shift) & (R - 1)]++;
    }
    __global IDX* h = hist + hist_o + j * (R * P + 1);
    if (part == 0) h[0] = 0;
    for (int d = 0; d < R; d++) h[1 + d * P + part] = cnt[d];
    diff[diff_o + p] = bits;
}

__kernel void radix_scatter(__global const U* src, long src_o, __global U* dst, long dst_o, __global const IDX* isrc,
                            long isrc_o, __global IDX* idst, long idst_o, __global const IDX* offs, long offs_o,
                            __global IDX* part, long part_o, long M, long K, long P, int logc, int shift, int first,
                            int next)
{
    const long p = get_global_id(0);
    if (p >= M * P) return;
    const long j = p / P, k0 = (p - j * P) << logc, k1 = min(k0 + (1L << logc), K);
    __global const U* row = src + src_o + j * K;
    __global U* out = dst + dst_o + j * K;
    __global const IDX* o = offs + offs_o + j * (R * P + 1) + (p - j * P);
    __global IDX* count = part + part_o + p * P * R;
    IDX at[R];
    for (int d = 0; d < R; d++) at[d] = o[d * P];
    if (next >= 0)
        for (long i = 0; i < P * R; i++) count[i] = 0;
    for (long k = k0; k < k1; k++) {
        const U v = row[k];
        const KEY key = key_of(v);
        const IDX to = at[(key >> shift) & (R - 1)]++;
        out[to] = v;
#ifdef ARG
        idst[idst_o + j * K + to] = first ? (IDX)k : isrc[isrc_o + j * K + k];
#endif
        if (next >= 0) count[((to >> logc) << BITS) + ((key >> next) & (R - 1))]++;
    }
}

__kernel void radix_merge(__global const IDX* part, long part_o, __global IDX* hist, long hist_o, long M, long P)
{
    const long q = get_global_id(0);
    if (q >= M * P) return;
    const long j = q / P, c = q - j * P;
    __global const IDX* blocks = part + part_o + j * P * P * R + c * R;
    __global IDX* h = hist + hist_o + j * (R * P + 1);
    if (c == 0) h[0] = 0;
    for (int d = 0; d < R; d++) {
        IDX sum = 0;
        for (long w = 0; w < P; w++) sum += blocks[w * P * R + d];
        h[1 + d * P + c] = sum;
    }
}

__kernel void rows_sort(__global U* data, long data_o, __global IDX* idx, long idx_o, long M, long K, long C)
{
  for (long j = get_global_id(0) * C, j1 = min(j + C, M); j < j1; j++) {
    __global U* row = data + data_o + j * K;
#ifdef ARG
    __global IDX* irow = idx + idx_o + j * K;
    for (long k = 0; k < K; k++) irow[k] = (IDX)k;
#endif
    for (long k = 1; k < K; k++) {
        const U v = row[k];
        const KEY key = key_of(v);
#ifdef ARG
        const IDX iv = irow[k];
#endif
        long i = k;
        while (i > 0 && key_of(row[i - 1]) > key) {
            row[i] = row[i - 1];
#ifdef ARG
            irow[i] = irow[i - 1];
#endif
            i--;
        }
        row[i] = v;
#ifdef ARG
        irow[i] = iv;
#endif
    }
  }
}

inline int starts_value(__global const U* s, long i)
{
    const KEY key = key_of(s[i]);
    return i == 0 || is_nan_key(key) || key != key_of(s[i - 1]);
}

__kernel void unique_count(__global const U* s, long s_o, __global long* counts, long counts_o, long n, long C)
{
    const long p = get_global_id(0), i0 = p * C, i1 = min(i0 + C, n);
    if (i0 >= n) return;
    long c = 0;
    for (long i = i0; i < i1; i++) c += starts_value(s + s_o, i);
    counts[counts_o + 1 + p] = c;
    if (p == 0) counts[counts_o] = 0;
}

__kernel void unique_scatter(__global const U* s, long s_o, __global const long* offs, long offs_o,
                             __global const long* order, long order_o, __global U* values, long values_o,
                             __global long* starts, long starts_o, __global long* first, long first_o,
                             __global long* inverse, long inverse_o, long n, long C, int with_order)
{
    const long p = get_global_id(0), i0 = p * C, i1 = min(i0 + C, n);
    if (i0 >= n) return;
    long u = offs[offs_o + p] - 1;
    for (long i = i0; i < i1; i++) {
        if (starts_value(s + s_o, i)) {
            u++;
            values[values_o + u] = s[s_o + i];
            starts[starts_o + u] = i;
            if (with_order) first[first_o + u] = order[order_o + i];
        }
        if (with_order) inverse[inverse_o + order[order_o + i]] = u;
    }
}

__kernel void isin_search(__global const U* x, long x_o, __global const U* t, long t_o, __global uchar* out,
                          long out_o, long n, long m, long C, int invert)
{
    const long p = get_global_id(0), i0 = p * C, i1 = min(i0 + C, n);
    t += t_o;
    for (long i = i0; i < i1; i++) {
        const KEY key = key_of(x[x_o + i]);
        long lo = 0, hi = m;
        while (lo < hi) {
            const long mid = lo + (hi - lo) / 2;
            if (key_of(t[mid]) < key) lo = mid + 1; else hi = mid;
        }
        const int found = !is_nan_key(key) && lo < m && key_of(t[lo]) == key;
        out[out_o + i] = (uchar)(found != invert);
    }
}
