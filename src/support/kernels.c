/* Vector support scans over structure-of-arrays blocks (support/kernels.h): the values of every
 * block, their largest non-NaN value, then the lowest index of a lane equal to it, read from the
 * equality masks' bits (support.md, section 4, says why this is the plain scan's vertex). */
#include "support/kernels.h"

#if HD_SCAN_X86
#include <immintrin.h>

/* AVX is enough for these instructions; "avx2" names the level the CPU test asks for. No "fma"
 * in the target: every product must round before its sum, as in the plain scan. */
#define HD_TARGET_AVX2 __attribute__((target("avx2"), always_inline)) static inline

HD_TARGET_AVX2 __m256d dot_avx2(const double *x, __m256d dx, __m256d dy, __m256d dz)
{
    __m256d p = _mm256_add_pd(_mm256_mul_pd(_mm256_load_pd(x), dx),
                              _mm256_mul_pd(_mm256_load_pd(x + HD_BLOCK_VERTS), dy));
    return _mm256_add_pd(p, _mm256_mul_pd(_mm256_load_pd(x + 2 * HD_BLOCK_VERTS), dz));
}

/* The largest of the four lanes of m, in every lane. */
HD_TARGET_AVX2 __m256d max_lanes_avx2(__m256d m)
{
    m = _mm256_max_pd(_mm256_permute2f128_pd(m, m, 1), m);
    return _mm256_max_pd(_mm256_permute_pd(m, 5), m);
}

HD_TARGET_AVX2 int scan_avx2(const double *blocks, int n, const double d[3])
{
    __m256d dx = _mm256_set1_pd(d[0]), dy = _mm256_set1_pd(d[1]), dz = _mm256_set1_pd(d[2]);
    __m256d v[HD_SCAN_BLOCKS_COUNT];
    /* two running maxima, even and odd blocks, halve the chain of dependent maxima */
    v[0] = dot_avx2(blocks, dx, dy, dz); /* n >= 1: the first block is real */
    __m256d m0 = _mm256_max_pd(v[0], _mm256_set1_pd(-INFINITY));
    __m256d m1 = _mm256_set1_pd(-INFINITY);
    int count = (n + HD_BLOCK_VERTS - 1) / HD_BLOCK_VERTS;
    for (int b = 1; b < count; ++b) {
        v[b] = dot_avx2(blocks + HD_BLOCK_DOUBLES * b, dx, dy, dz);
        if (b & 1) {
            m1 = _mm256_max_pd(v[b], m1);
        } else {
            m0 = _mm256_max_pd(v[b], m0);
        }
    }
    __m256d m = max_lanes_avx2(_mm256_max_pd(m1, m0));
    unsigned bits = 0;
    for (int b = 0; b < count; ++b) {
        bits |= (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(v[b], m, _CMP_EQ_OQ))
                << (HD_BLOCK_VERTS * b);
    }
    double v0 = _mm256_cvtsd_f64(v[0]);
    return v0 != v0 ? 0 : __builtin_ctz(bits);
}

__attribute__((target("avx2"))) int hdi_scan_avx2(const double *blocks, int n, const double d[3])
{
    return scan_avx2(blocks, n, d);
}

__attribute__((target("avx2"))) void hdi_scan_pair_avx2(const double *blocks_a, int na,
                                                        const double da[3], const double *blocks_b,
                                                        int nb, const double db[3], int *ia,
                                                        int *ib)
{
    *ia = scan_avx2(blocks_a, na, da);
    *ib = scan_avx2(blocks_b, nb, db);
}

#define HD_TARGET_AVX512 __attribute__((target("avx512f"), always_inline)) static inline

/* Blocks b and b + 1 (or b alone, twice, when b is the last) in the halves of one register. */
HD_TARGET_AVX512 __m512d load_two(const double *block, int k, int both)
{
    __m256d lo = _mm256_load_pd(block + HD_BLOCK_VERTS * k);
    __m256d hi = both ? _mm256_load_pd(block + HD_BLOCK_DOUBLES + HD_BLOCK_VERTS * k) : lo;
    return _mm512_insertf64x4(_mm512_castpd256_pd512(lo), hi, 1);
}

/* The values of blocks b and b + 1 (or b alone, in both halves). */
HD_TARGET_AVX512 __m512d dot_two(const double *block, int both, __m512d dx, __m512d dy, __m512d dz)
{
    __m512d p = _mm512_add_pd(_mm512_mul_pd(load_two(block, 0, both), dx),
                              _mm512_mul_pd(load_two(block, 1, both), dy));
    return _mm512_add_pd(p, _mm512_mul_pd(load_two(block, 2, both), dz));
}

HD_TARGET_AVX512 int scan_avx512(const double *blocks, int n, const double d[3])
{
    __m512d dx = _mm512_set1_pd(d[0]), dy = _mm512_set1_pd(d[1]), dz = _mm512_set1_pd(d[2]);
    __m512d v[(HD_SCAN_BLOCKS_COUNT + 1) / 2];
    __m512d m = _mm512_set1_pd(-INFINITY);
    int count = (n + HD_BLOCK_VERTS - 1) / HD_BLOCK_VERTS;
    int pairs = (count + 1) / 2;
    v[0] = dot_two(blocks, count > 1, dx, dy, dz); /* n >= 1: the first block is real */
    m = _mm512_max_pd(v[0], m);
    for (int q = 1; q < pairs; ++q) {
        v[q] = dot_two(blocks + 2 * HD_BLOCK_DOUBLES * q, 2 * q + 1 < count, dx, dy, dz);
        m = _mm512_max_pd(v[q], m);
    }
    __m256d half = _mm256_max_pd(_mm512_extractf64x4_pd(m, 1), _mm512_castpd512_pd256(m));
    half = _mm256_max_pd(_mm256_permute2f128_pd(half, half, 1), half);
    half = _mm256_max_pd(_mm256_permute_pd(half, 5), half);
    m = _mm512_broadcast_f64x4(half);
    unsigned bits = 0;
    for (int q = 0; q < pairs; ++q) {
        /* a lone last block's copy in the upper half is masked off by the low bit's priority */
        bits |= (unsigned)_mm512_cmp_pd_mask(v[q], m, _CMP_EQ_OQ) << (8 * q);
    }
    double v0 = _mm512_cvtsd_f64(v[0]);
    return v0 != v0 ? 0 : __builtin_ctz(bits);
}

__attribute__((target("avx512f"))) int hdi_scan_avx512(const double *blocks, int n,
                                                       const double d[3])
{
    return scan_avx512(blocks, n, d);
}

__attribute__((target("avx512f"))) void hdi_scan_pair_avx512(const double *blocks_a, int na,
                                                             const double da[3],
                                                             const double *blocks_b, int nb,
                                                             const double db[3], int *ia, int *ib)
{
    *ia = scan_avx512(blocks_a, na, da);
    *ib = scan_avx512(blocks_b, nb, db);
}
#endif
