/* darray sort keys (prepended to kernels/sort.cl and kernels/radix_gpu.cl by darray/ops/sorting.py).
 *
 * An element is read as the unsigned integer U of its width and mapped to an order-preserving
 * unsigned key KEY: floats map -0.0 to +0.0's key and every NaN to the largest key (NaN last,
 * stable among NaNs), signed integers flip their sign bit; -D DESCENDING inverts every key.
 * Build options: -D U=<uchar|ushort|uint|ulong> -D KEY=<uint|ulong> -D KEY_FLOAT or -D KEY_SIGNED
 * (else unsigned/bool) -D SIGN=<U's top bit> -D EXPMASK=<exponent bits, floats> [-D DESCENDING].
 *   KEY key_of(U v)          the key of v
 *   int is_nan_key(KEY k)    whether k is a NaN's key
 */
inline KEY key_of(U v)
{   /* branch-free: the sign of random data is unpredictable */
    KEY k;
#if defined(KEY_FLOAT)
    const U mag = v & (U)~(U)SIGN;
    const U flip = (U)((U)0 - (U)((v & (U)SIGN) != 0)) | (U)SIGN;
    k = (KEY)(U)(v ^ flip);
    k = mag == 0 ? (KEY)SIGN : k;                            /* -0.0 and +0.0 */
    k = mag > (U)EXPMASK ? (KEY)~(KEY)0 : k;                 /* NaN: above +inf */
#elif defined(KEY_SIGNED)
    k = (KEY)(U)(v ^ (U)SIGN);
#else
    k = (KEY)v;
#endif
#ifdef DESCENDING
    k = ~k;
#endif
    return k;
}

inline int is_nan_key(KEY k)
{
#if defined(KEY_FLOAT)
#  ifdef DESCENDING
    return k == (KEY)0;
#  else
    return k == (KEY)~(KEY)0;
#  endif
#else
    return 0;
#endif
}
