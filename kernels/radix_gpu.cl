/* darray work-group radix sort: the gpu plan of darray/ops/radix_gpu.py (LSD, 8-bit digits, stable).
 *
 * key_of comes from include/sort_key.h (prepended). Rows: M rows of K contiguous elements (K < 2**30),
 * cut into T = ceil(K / TILE) tiles of TILE = GROUP * ITEMS keys; work-group g handles tile g % T of
 * row g / T. Counts are uint; the look-back packs a 2-bit flag and a 30-bit count into one word.
 * Build options: those of sort_key.h, -D IDX=int, -D ARG (carry indices), -D GROUP=256 (work-items
 * per group, one per digit value), -D ITEMS=<keys per work-item, at most 16>, -D NDIG=<sizeof(U)>.
 * Entry points (launched over M * T groups of GROUP work-items):
 *   radix_count(__global const U* src, long src_o, __global uint* hist, long hist_o,
 *               __global uint* bits, long bits_o, long K, long T)
 *       adds the tile's counts of every digit of every key byte b to hist[(row * NDIG + b) * 256 + d]
 *       (hist zeroed before) and ORs the key bits that differ from the row's first key into bits[0]
 *       (low 32) and bits[1] (high 32): one read of the keys gives every pass's histogram.
 *   radix_pass(__global const U* src, long src_o, __global U* dst, long dst_o, __global const IDX* isrc,
 *              long isrc_o, __global IDX* idst, long idst_o, __global const uint* hist, long hist_o,
 *              __global uint* status, long status_o, __global uint* ticket, long ticket_o,
 *              long K, long T, int shift, int first)
 *       one pass over digit (key >> shift) & 255, in one launch: the group takes its tile id from an
 *       atomic ticket (ids are handed out in the order groups start), sorts its tile stably by the
 *       digit in local memory (two 4-bit splits: per-work-item counts, a group prefix sum, a stable
 *       rearrangement), publishes its digit counts in status[g * 256 + d] (flag A: its own count,
 *       flag P: the inclusive count of the row's tiles up to it) and looks back over the row's
 *       earlier tiles until a P flag for the exclusive prefix (decoupled look-back), then writes its
 *       keys to hist's exclusive scan + prefix + rank within the tile. With ARG the indices move
 *       along (first != 0: the position in the row). status (M * T * 256 words, T > 1) and ticket are
 *       zeroed before the pass; with T == 1 status is not touched.
 * Forward progress: a group only waits on tiles with smaller tickets, which belong to groups that
 * already started; a started group never waits on a later one, so groups that are resident (GPUs)
 * or run to completion on their thread once started (the CPU runtimes) cannot deadlock.
 */
#define R 256
#define TILE (GROUP * ITEMS)
#define FLAG_A 0x40000000u
#define FLAG_P 0x80000000u
#define COUNT 0x3FFFFFFFu

inline uint digit_of(U v, int shift)
{
    return (uint)(key_of(v) >> shift) & (R - 1);
}

inline uint scan_excl(__local uint* a, uint v)
{   /* exclusive prefix sum of v over the group (Hillis-Steele in a, GROUP words); every work-item calls it */
    const int lid = get_local_id(0);
    a[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < GROUP; off <<= 1) {
        const uint add = lid >= off ? a[lid - off] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        a[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const uint incl = a[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    return incl - v;
}

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void radix_count(__global const U* src, long src_o, __global uint* hist, long hist_o, __global uint* bits,
                 long bits_o, long K, long T)
{
    __local uint lh[NDIG * R];
    __local uint lbits[2];
    const int lid = get_local_id(0);
    const long g = get_group_id(0), row = g / T, k0 = (g - row * T) * TILE;
    const int n = (int)min((long)TILE, K - k0);
    for (int i = lid; i < NDIG * R; i += GROUP) lh[i] = 0;
    if (lid < 2) lbits[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    __global const U* in = src + src_o + row * K;
    const KEY first = key_of(in[0]);
    KEY diff = 0;
    for (int i = lid; i < n; i += GROUP) {
        const KEY key = key_of(in[k0 + i]);
        diff |= key ^ first;
        for (int b = 0; b < NDIG; b++) atomic_inc(&lh[b * R + (int)((key >> (8 * b)) & (R - 1))]);
    }
    if ((uint)diff) atomic_or(&lbits[0], (uint)diff);
    if ((uint)((ulong)diff >> 32)) atomic_or(&lbits[1], (uint)((ulong)diff >> 32));
    barrier(CLK_LOCAL_MEM_FENCE);
    __global uint* h = hist + hist_o + row * NDIG * R;
    for (int i = lid; i < NDIG * R; i += GROUP)
        if (lh[i]) atomic_add(&h[i], lh[i]);
    if (lid < 2 && lbits[lid]) atomic_or(&bits[bits_o + lid], lbits[lid]);
}

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void radix_pass(__global const U* src, long src_o, __global U* dst, long dst_o, __global const IDX* isrc,
                long isrc_o, __global IDX* idst, long idst_o, __global const uint* hist, long hist_o,
                __global uint* status, long status_o, __global uint* ticket, long ticket_o, long K, long T,
                int shift, int first)
{
    __local U lval[TILE];
#ifdef ARG
    __local IDX lidx[TILE];
#endif
    __local ushort lscan[16 * GROUP];  /* per work-item counts of the 16 nibble values, then their prefix sums */
    __local uint lstart[R], lend[R], lbase[R];
    __local uint lticket;
    const int lid = get_local_id(0);
    if (lid == 0) lticket = atomic_inc(ticket + ticket_o);
    barrier(CLK_LOCAL_MEM_FENCE);
    const long g = lticket, row = g / T, tile = g - row * T, k0 = tile * TILE;
    const int n = (int)min((long)TILE, K - k0);
    __global const U* in = src + src_o + row * K + k0;
    for (int i = lid; i < n; i += GROUP) {
        lval[i] = in[i];
#ifdef ARG
        lidx[i] = first ? (IDX)(k0 + i) : isrc[isrc_o + row * K + k0 + i];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* sort the tile stably by the digit: by its low nibble, then by its high nibble */
    for (int nibble = 0; nibble < 2; nibble++) {
        U v[ITEMS];
#ifdef ARG
        IDX ix[ITEMS];
#endif
        uchar nib[ITEMS];
        ushort cnt[16];
        for (int d = 0; d < 16; d++) cnt[d] = 0;
        for (int r = 0; r < ITEMS; r++) {  /* blocked: work-item lid holds keys [lid * ITEMS, (lid + 1) * ITEMS) */
            const int j = lid * ITEMS + r;
            nib[r] = 0;
            if (j < n) {
                v[r] = lval[j];
#ifdef ARG
                ix[r] = lidx[j];
#endif
                nib[r] = (uchar)((digit_of(v[r], shift) >> (4 * nibble)) & 15);
                cnt[nib[r]]++;
            }
        }
        const ushort16 mine = vload16(0, cnt);
        vstore16(mine, lid, lscan);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int off = 1; off < GROUP; off <<= 1) {
            const ushort16 add = lid >= off ? vload16(lid - off, lscan) : (ushort16)(0);
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid >= off) vstore16(vload16(lid, lscan) + add, lid, lscan);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        ushort pre[16], tot[16];
        vstore16(vload16(lid, lscan) - mine, 0, pre);
        vstore16(vload16(GROUP - 1, lscan), 0, tot);
        barrier(CLK_LOCAL_MEM_FENCE);  /* every work-item has read lval and lscan */
        ushort run = 0;
        for (int d = 0; d < 16; d++) {
            const ushort t = tot[d];
            pre[d] += run;
            run += t;
        }
        for (int r = 0; r < ITEMS; r++) {
            if (lid * ITEMS + r < n) {
                const ushort to = pre[nib[r]]++;
                lval[to] = v[r];
#ifdef ARG
                lidx[to] = ix[r];
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* where each digit's run starts and ends in the sorted tile */
    lstart[lid] = 0;
    lend[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = lid; i < n; i += GROUP) {
        const uint d = digit_of(lval[i], shift);
        if (i == 0 || digit_of(lval[i - 1], shift) != d) lstart[d] = i;
        if (i == n - 1 || digit_of(lval[i + 1], shift) != d) lend[d] = i + 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* work-item d: the row's keys of smaller digits (hist) + this digit's keys in earlier tiles (look-back) */
    const uint count = lend[lid] - lstart[lid];
    const uint below = scan_excl(lbase, hist[hist_o + (row * NDIG + shift / 8) * R + lid]);
    uint prefix = 0;
    if (T > 1) {
        __global uint* st = status + status_o + lid;
        if (tile == 0) {
            atomic_xchg(st + g * R, FLAG_P | count);
        } else {
            atomic_xchg(st + g * R, FLAG_A | count);
            long j = g - 1;
            for (;;) {
                const uint s = atomic_or(st + j * R, 0u);
                if (!s) continue;  /* not published yet: the group of tile j started before this one */
                prefix += s & COUNT;
                if (s & FLAG_P) break;
                j--;
            }
            atomic_xchg(st + g * R, FLAG_P | (prefix + count));
        }
    }
    lbase[lid] = below + prefix - lstart[lid];  /* modulo 2**32: + the position in the tile gives the target */
    barrier(CLK_LOCAL_MEM_FENCE);
    __global U* out = dst + dst_o + row * K;
    for (int i = lid; i < n; i += GROUP) {
        const U v = lval[i];
        const uint to = lbase[digit_of(v, shift)] + (uint)i;
        out[to] = v;
#ifdef ARG
        idst[idst_o + row * K + to] = lidx[i];
#endif
    }
}
