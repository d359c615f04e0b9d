/* darray GEMM: C[z] = A[z] @ B[z] for every batch z, for every dtype darray computes with.
 *
 * Entry point (one source, specialised with -D defines by darray/ops/_gemm.py):
 *   __kernel void gemm(__global T* C, long c_off, long c_sm,
 *                      __global const T* A, long a_off, long a_sm, long a_sk,
 *                      __global const T* B, long b_off, long b_sk, long b_sn,
 *                      long M, long N, long K, long nb1,
 *                      long c_sb0, long c_sb1, long a_sb0, long a_sb1, long b_sb0, long b_sb1)
 *   C[m, n] = sum_k A[m, k] * B[k, n] (m < M, n < N, k < K). Offsets and strides count
 *   elements and may be anything (transposed and strided views are read in place); C has
 *   unit stride along n. The batch index z = get_global_id(2) splits as (z / nb1, z % nb1)
 *   over two batch dimensions with strides *_sb0, *_sb1 (0 where an operand broadcasts).
 *   NDRange: global (LX * ceil(N / (LX * NR)), LY * ceil(M / (LY * MR)), batches),
 *   local (LX, LY, 1). K = 0 writes zeros.
 *
 * Defines:
 *   T        element type computed and stored: float, double, the *unsigned* integer
 *            type of the dtype's width (unsigned arithmetic wraps as NumPy's integers do),
 *            uchar for bool, float2 / double2 for complex
 *   COMPLEX  1 for complex T (R: its component type, NRW = 2 * NR); BOOL 1 for bool (OR of ANDs)
 *   MR, NR   register block: each work-item computes MR x NR outputs (powers of two)
 *   LX, LY   work-group size; a work-group covers TM = LY * MR rows and TN = LX * NR columns
 *   TILED    0: each work-item reads its rows of A and an NR-wide strip of B straight from
 *               global memory into registers; real types use NR-wide vectors (T##NR),
 *               complex ones separate real and imaginary R##NR vectors (B's NR values load
 *               as one R##NRW vector, split with .even/.odd); vector loads of B where B_VEC
 *               (B has unit stride along n), gathers otherwise and at the edges. Best on
 *               CPU devices (PoCL: ~15-20 GFLOP/s float32 on 2 cores vs ~1-3 for the tiled
 *               variant), where caches do the tiling and barriers are costly.
 *            1: the work-group stages TM x TK tiles of A and TK x TN tiles of B in local
 *               memory, then each work-item accumulates its MR x NR outputs (rows ty + i*LY,
 *               columns tx + j*LX: conflict-free local reads) in registers. For GPUs.
 *   TK       depth of the local tiles (TILED only)
 *   DARRAY_FP64  enables cl_khr_fp64 (double, double2)
 *
 * Vector loads go through a typedef with element alignment, never vloadN/vstoreN or fma():
 * PoCL 3.0 (pip) leaves those builtins as out-of-line calls, 5-10x slower than plain code.
 */
#ifdef DARRAY_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#if COMPLEX
#define ZERO ((T)(0, 0))
#define MAC(c, a, b) c = (T)((c).x + (a).x * (b).x - (a).y * (b).y, (c).y + (a).x * (b).y + (a).y * (b).x)
#elif BOOL
#define ZERO ((T)0)
#define MAC(c, a, b) c |= (a) & (b)
#else
#define ZERO ((T)0)
#define MAC(c, a, b) c += (a) * (b)
#endif

#define UNROLL _Pragma("unroll")
#define TM (LY * MR)
#define TN (LX * NR)

#if TILED
__kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
#else
__kernel
#endif
void gemm(__global T* C, long c_off, long c_sm,
          __global const T* A, long a_off, long a_sm, long a_sk,
          __global const T* B, long b_off, long b_sk, long b_sn,
          long M, long N, long K, long nb1,
          long c_sb0, long c_sb1, long a_sb0, long a_sb1, long b_sb0, long b_sb1)
{
    const long z = get_global_id(2), z0 = z / nb1, z1 = z % nb1;
    C += c_off + z0 * c_sb0 + z1 * c_sb1;
    A += a_off + z0 * a_sb0 + z1 * a_sb1;
    B += b_off + z0 * b_sb0 + z1 * b_sb1;
#if TILED
    __local T As[TK][TM + 1];
    __local T Bs[TK][TN + 1];
    const int tx = get_local_id(0), ty = get_local_id(1), lid = ty * LX + tx;
    const long mb = get_group_id(1) * TM, nb = get_group_id(0) * TN;
    T acc[MR][NR];
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < NR; j++) acc[i][j] = ZERO;
    for (long k0 = 0; k0 < K; k0 += TK) {
        for (int e = lid; e < TM * TK; e += LX * LY) {
            const int kk = e % TK, mm = e / TK;
            const long m = mb + mm, k = k0 + kk;
            As[kk][mm] = (m < M && k < K) ? A[m * a_sm + k * a_sk] : ZERO;
        }
        for (int e = lid; e < TK * TN; e += LX * LY) {
            const int nn = e % TN, kk = e / TN;
            const long n = nb + nn, k = k0 + kk;
            Bs[kk][nn] = (n < N && k < K) ? B[k * b_sk + n * b_sn] : ZERO;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int kk = 0; kk < TK; kk++) {
            T av[MR], bv[NR];
#pragma unroll
            for (int i = 0; i < MR; i++) av[i] = As[kk][ty + i * LY];
#pragma unroll
            for (int j = 0; j < NR; j++) bv[j] = Bs[kk][tx + j * LX];
#pragma unroll
            for (int i = 0; i < MR; i++)
#pragma unroll
                for (int j = 0; j < NR; j++) MAC(acc[i][j], av[i], bv[j]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int i = 0; i < MR; i++) {
        const long m = mb + ty + i * LY;
        if (m < M)
            for (int j = 0; j < NR; j++) {
                const long n = nb + tx + j * LX;
                if (n < N) C[m * c_sm + n] = acc[i][j];
            }
    }
#else  /* direct */
    const long m0 = get_global_id(1) * MR, n0 = get_global_id(0) * NR;
    if (m0 >= M || n0 >= N) return;
    long ro[MR];  /* row offsets into A, clamped so edge work-items read valid memory */
#pragma unroll
    for (int i = 0; i < MR; i++) ro[i] = min(m0 + i, M - 1) * a_sm;
    const bool full = n0 + NR <= N;
    long co[NR];  /* column offsets into B, clamped likewise */
#pragma unroll
    for (int j = 0; j < NR; j++) co[j] = min(n0 + j, N - 1) * b_sn;
    const __global T* a = A;
    const __global T* b = B;
#if COMPLEX  /* separate real and imaginary vectors: B's NR values load as one 2*NR vector */
#define VR CAT(R, NR)
#define VW CAT(R, NRW)
    typedef VR __attribute__((aligned(sizeof(R)))) VRU;
    VR re[MR], im[MR];
    UNROLL for (int i = 0; i < MR; i++) re[i] = im[i] = (VR)(0);
#define STEP(bw) {                                                              \
        const VR bre = (bw).even, bim = (bw).odd;                               \
        UNROLL for (int i = 0; i < MR; i++) {                                   \
            const T av = a[ro[i]];                                              \
            re[i] += av.x * bre - av.y * bim;                                   \
            im[i] += av.x * bim + av.y * bre;                                   \
        } }
#else
#define VW CAT(T, NR)
    VW acc[MR];
    UNROLL for (int i = 0; i < MR; i++) acc[i] = (VW)(ZERO);
#define STEP(bw) { UNROLL for (int i = 0; i < MR; i++) MAC(acc[i], a[ro[i]], bw); }
#endif
    typedef VW __attribute__((aligned(sizeof(T)))) VWU;  /* NR elements at element alignment */
#if B_VEC
    if (full) {
        b += n0;
        for (long k = 0; k < K; k++, a += a_sk, b += b_sk) {
            const VW bw = *(const __global VWU*)b;
            STEP(bw)
        }
    } else
#endif
    {
        for (long k = 0; k < K; k++, a += a_sk, b += b_sk) {
            T tb[NR];
            UNROLL for (int j = 0; j < NR; j++) tb[j] = b[co[j]];
            const VW bw = *(VWU*)tb;
            STEP(bw)
        }
    }
    __global T* c = C + m0 * c_sm + n0;
    UNROLL for (int i = 0; i < MR; i++) {
        if (m0 + i < M) {
#if COMPLEX
            R tr[NR], ti[NR];
            *(VRU*)tr = re[i];
            *(VRU*)ti = im[i];
            for (int j = 0; j < NR && n0 + j < N; j++) c[i * c_sm + j] = (T)(tr[j], ti[j]);
#else
            if (full) {
                *(__global VWU*)(c + i * c_sm) = acc[i];
            } else {
                T t[NR];
                *(VWU*)t = acc[i];
                for (int j = 0; j < NR && n0 + j < N; j++) c[i * c_sm + j] = t[j];
            }
#endif
        }
    }
#endif  /* TILED */
}
