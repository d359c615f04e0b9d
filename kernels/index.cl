/* darray advanced indexing: gathers and scatters through element offsets or an index array,
 * and compaction of a mask. Elements are moved as raw bits, so one build serves every dtype of
 * a size.
 * Build options: -D T=<unsigned type of the element's size: uchar, ushort, uint, ulong, ulong2>.
 * Buffers are passed with element offsets (``*_o``, in units of their element type). Work-item
 * g handles elements [g * ch, min((g + 1) * ch, n)).
 * Entry points:
 *   gather(__global const T *src, long src_o, __global const long *off, long off_o,
 *          __global T *out, long out_o, __global int *flag, long flag_o, long n, long ch)
 *       out[i] = src[off[i]]; an offset of -1 (an index out of bounds) sets flag[flag_o] = 1 instead.
 *   gather_index(__global const T *src, long src_o, __global const long *idx, long idx_o,
 *                long size, long stride, __global T *out, long out_o, __global int *flag, long flag_o, long n, long ch)
 *       out[i] = src[k * stride] with k = idx[i] (+ size when negative); k outside [0, size)
 *       sets flag[flag_o] = 1 instead (one index array on a 1-d view: no offsets pass).
 *   scatter(__global T *dst, long dst_o, __global const long *off, long off_o,
 *           __global const T *val, long val_o, long n, long ch)
 *       dst[off[i]] = val[i] (offsets checked before the launch, except in a da.jit trace: an offset of -1
 *       writes nothing; repeated ones: one value lands).
 *   count_chunks(__global const uchar *mask, long mask_o, __global long *counts, long counts_o, long n, long ch)
 *       counts[g] = the number of set elements of the mask in chunk g.
 *   compact_values(__global const uchar *mask, long mask_o, __global const long *ends, long ends_o,
 *                  __global const T *src, long src_o, __global T *out, long out_o, long n, long ch)
 *       the set elements' values of chunk g go to out[ends[g - 1]...] in order (ends: the
 *       inclusive scan of counts): x[mask] for a contiguous x and a mask of its shape.
 *   compact_positions(__global const uchar *mask, long mask_o, __global const long *ends, long ends_o,
 *                     __global long *out, long out_o, long n, long ch)
 *       the same with the flat positions of the set elements: nonzero.
 */
#define RANGE const long g = get_global_id(0); const long start = g * ch; const long end = min(start + ch, n);

__kernel void gather(__global const T *src, long src_o, __global const long *off, long off_o,
                     __global T *out, long out_o, __global int *flag, long flag_o, long n, long ch) {
    RANGE
    for (long i = start; i < end; i++) {
        const long k = off[off_o + i];
        if (k < 0) { flag[flag_o] = 1; out[out_o + i] = (T)0; }
        else out[out_o + i] = src[src_o + k];
    }
}

__kernel void gather_index(__global const T *src, long src_o, __global const long *idx, long idx_o,
                           long size, long stride, __global T *out, long out_o, __global int *flag,
                           long flag_o, long n, long ch) {
    RANGE
    for (long i = start; i < end; i++) {
        long k = idx[idx_o + i];
        k += k < 0 ? size : 0;
        if (k < 0 || k >= size) { flag[flag_o] = 1; out[out_o + i] = (T)0; }
        else out[out_o + i] = src[src_o + k * stride];
    }
}

__kernel void scatter(__global T *dst, long dst_o, __global const long *off, long off_o,
                      __global const T *val, long val_o, long n, long ch) {
    RANGE
    for (long i = start; i < end; i++) {
        long k = off[off_o + i];
        if (k >= 0) dst[dst_o + k] = val[val_o + i];
    }
}

__kernel void count_chunks(__global const uchar *mask, long mask_o, __global long *counts, long counts_o,
                           long n, long ch) {
    RANGE
    long c = 0;
    for (long i = start; i < end; i++) c += mask[mask_o + i] != 0;
    if (start < n) counts[counts_o + g] = c;
}

#define COMPACT(value)                                           \
    RANGE                                                        \
    long k = out_o + (g ? ends[ends_o + g - 1] : 0);             \
    for (long i = start; i < end; i++)                           \
        if (mask[mask_o + i]) out[k++] = (value);

__kernel void compact_values(__global const uchar *mask, long mask_o, __global const long *ends, long ends_o,
                             __global const T *src, long src_o, __global T *out, long out_o, long n, long ch) {
    COMPACT(src[src_o + i])
}

__kernel void compact_positions(__global const uchar *mask, long mask_o, __global const long *ends, long ends_o,
                                __global long *out, long out_o, long n, long ch) {
    COMPACT(i)
}
