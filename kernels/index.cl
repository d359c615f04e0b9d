/* darray advanced indexing: gathers and scatters through element offsets, and compaction of a
 * mask. Elements are moved as raw bits, so one build serves every dtype of a size.
 * Build options: -D T=<unsigned type of the element's size: uchar, ushort, uint, ulong, ulong2>.
 * Buffers are passed with element offsets (``*_o``, in units of their element type). Work-item
 * g handles elements [g * ch, min((g + 1) * ch, n)) (``ch`` from the device's kernel form).
 * Entry points:
 *   gather(__global const T *src, long src_o, __global const long *off, long off_o,
 *          __global T *out, long out_o, long n, long ch)
 *       out[i] = src[off[i]]: offsets are checked on the host side before the launch.
 *   scatter(__global T *dst, long dst_o, __global const long *off, long off_o,
 *           __global const T *val, long val_o, long n, long ch)
 *       dst[off[i]] = val[i] (repeated offsets: one of their values lands).
 *   compact_positions(__global const uchar *mask, long mask_o, __global const long *cs, long cs_o,
 *                     __global long *out, long out_o, long n, long ch)
 *       out[cs[i] - 1] = i where mask[i] (cs: the inclusive scan of the mask): nonzero's flat indices.
 *   compact_values(__global const uchar *mask, long mask_o, __global const long *cs, long cs_o,
 *                  __global const T *src, long src_o, __global T *out, long out_o, long n, long ch)
 *       out[cs[i] - 1] = src[i] where mask[i]: x[mask] for a contiguous x and a mask of its shape.
 */
#define RANGE const long start = (long)get_global_id(0) * ch; const long end = min(start + ch, n);

__kernel void gather(__global const T *src, long src_o, __global const long *off, long off_o,
                     __global T *out, long out_o, long n, long ch) {
    RANGE
    for (long i = start; i < end; i++) out[out_o + i] = src[src_o + off[off_o + i]];
}

__kernel void scatter(__global T *dst, long dst_o, __global const long *off, long off_o,
                      __global const T *val, long val_o, long n, long ch) {
    RANGE
    for (long i = start; i < end; i++) dst[dst_o + off[off_o + i]] = val[val_o + i];
}

__kernel void compact_positions(__global const uchar *mask, long mask_o, __global const long *cs, long cs_o,
                                __global long *out, long out_o, long n, long ch) {
    RANGE
    for (long i = start; i < end; i++)
        if (mask[mask_o + i]) out[out_o + cs[cs_o + i] - 1] = i;
}

__kernel void compact_values(__global const uchar *mask, long mask_o, __global const long *cs, long cs_o,
                             __global const T *src, long src_o, __global T *out, long out_o, long n, long ch) {
    RANGE
    for (long i = start; i < end; i++)
        if (mask[mask_o + i]) out[out_o + cs[cs_o + i] - 1] = src[src_o + i];
}
