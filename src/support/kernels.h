/* Support scans over a polytope's structure-of-arrays vertex blocks (polytope/internal.h), one
 * kernel per instruction set. Each returns the index the plain scan (hdi_support_scan) returns,
 * bit for bit: the same products and sums in the same order, (x dx + y dy) + z dz, with no fused
 * multiply-add (the library is ISO C, where GCC contracts nothing, kernels.c is compiled with
 * -ffp-contract=off besides, and no kernel's target includes FMA), and the lowest index among
 * equal values. How: docs/algorithms/support.md, section 4. */
#ifndef HD_SUPPORT_KERNELS_H
#define HD_SUPPORT_KERNELS_H

#include <math.h>

#include "core/tolerances.h"
#include "polytope/internal.h"

/* Blocks of the largest polytope that has them. Every kernel takes 1 <= n <= HD_SCAN_BLOCKS_MAX
 * (its values stay in registers) and packs one bit per lane into an unsigned int. */
#define HD_SCAN_BLOCKS_COUNT ((HD_SCAN_BLOCKS_MAX + HD_BLOCK_VERTS - 1) / HD_BLOCK_VERTS)
_Static_assert(HD_BLOCK_VERTS *HD_SCAN_BLOCKS_COUNT <= 32, "one bit per lane in 32 bits");

#if HD_SCAN_X86
#include <emmintrin.h>

/* The scan of n >= 1 vertices in blocks with two lanes (SSE2, part of x86-64, so inline). Every
 * kernel works in two passes: the values of all blocks and their largest non-NaN value m (MAXPD
 * returns its second operand when either is NaN, and m starts at -inf), then the lowest index
 * whose value equals m, from the bits of the equality masks, without a branch on the data. That
 * is the plain scan's vertex (a later vertex replaces the running best only when strictly
 * greater), except when vertex 0's value is NaN: nothing beats it there, so the answer is 0. */
static inline __m128d hdi_scan_dot_sse2(const double *x, __m128d dx, __m128d dy, __m128d dz)
{
    __m128d p =
        _mm_add_pd(_mm_mul_pd(_mm_load_pd(x), dx), _mm_mul_pd(_mm_load_pd(x + HD_BLOCK_VERTS), dy));
    return _mm_add_pd(p, _mm_mul_pd(_mm_load_pd(x + 2 * HD_BLOCK_VERTS), dz));
}

static inline int hdi_scan_sse2(const double *blocks, int n, const double d[3])
{
    __m128d dx = _mm_set1_pd(d[0]), dy = _mm_set1_pd(d[1]), dz = _mm_set1_pd(d[2]);
    __m128d v[2 * HD_SCAN_BLOCKS_COUNT];
    v[0] = hdi_scan_dot_sse2(blocks, dx, dy, dz); /* n >= 1: the first half block is real */
    __m128d m = _mm_max_pd(v[0], _mm_set1_pd(-INFINITY));
    int halves = 2 * ((n + HD_BLOCK_VERTS - 1) / HD_BLOCK_VERTS);
    for (int h = 1; h < halves; ++h) {
        v[h] = hdi_scan_dot_sse2(blocks + HD_BLOCK_DOUBLES * (h >> 1) + 2 * (h & 1), dx, dy, dz);
        m = _mm_max_pd(v[h], m);
    }
    m = _mm_max_pd(_mm_shuffle_pd(m, m, 1), m);
    unsigned bits = 0;
    for (int h = 0; h < halves; ++h) {
        bits |= (unsigned)_mm_movemask_pd(_mm_cmpeq_pd(v[h], m)) << (2 * h);
    }
    double v0 = _mm_cvtsd_f64(v[0]);
    return v0 != v0 ? 0 : __builtin_ctz(bits);
}

/* The same answers with four lanes (AVX2) and eight (AVX-512F); only where
 * hdi_scan_kernel_available says the CPU has them. The pair forms scan A along da and B along db
 * in one call, so that the two scans overlap. */
int hdi_scan_avx2(const double *blocks, int n, const double d[3]);
void hdi_scan_pair_avx2(const double *blocks_a, int na, const double da[3], const double *blocks_b,
                        int nb, const double db[3], int *ia, int *ib);
int hdi_scan_avx512(const double *blocks, int n, const double d[3]);
void hdi_scan_pair_avx512(const double *blocks_a, int na, const double da[3],
                          const double *blocks_b, int nb, const double db[3], int *ia, int *ib);
#endif

#endif
