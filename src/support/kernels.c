/* Vector support scans over structure-of-arrays blocks (support/kernels.h). Each lane j keeps the
 * running maximum of d.v over the vertices j, j + 4, j + 8, ... with the plain scan's rule (a
 * later vertex replaces it only when strictly greater), starting from -inf at the lane's first
 * index; the lanes are then reduced by value, the lower index among equal values. That is the
 * lowest index of the maximum, which the plain scan returns too, except when vertex 0's value is
 * NaN: nothing beats NaN there, so it returns 0, and so do the kernels, which test it first. */
#include <math.h>

#include "support/kernels.h"

#if HD_SCAN_X86
#include <immintrin.h>

/* Whether the plain scan answers 0 whatever follows: vertex 0's value is NaN. */
static int first_is_nan(const double *blocks, const double d[3])
{
    double v0 =
        blocks[0] * d[0] + blocks[HD_BLOCK_VERTS] * d[1] + blocks[2 * HD_BLOCK_VERTS] * d[2];
    return isnan(v0);
}

/* The lanes' maxima (never NaN: a NaN never replaces a value) reduced to the lowest index of the
 * largest. */
static int reduce_lanes(const double *value, const double *index, int lanes)
{
    double best = value[0], at = index[0];
    for (int j = 1; j < lanes; ++j) {
        if (value[j] > best || (value[j] == best && index[j] < at)) {
            best = value[j];
            at = index[j];
        }
    }
    return (int)at;
}

int hdi_scan_sse2(const double *blocks, int n, const double d[3])
{
    if (first_is_nan(blocks, d)) {
        return 0;
    }
    __m128d dx = _mm_set1_pd(d[0]), dy = _mm_set1_pd(d[1]), dz = _mm_set1_pd(d[2]);
    __m128d best[2] = {_mm_set1_pd(-INFINITY), _mm_set1_pd(-INFINITY)};
    __m128d at[2] = {_mm_setr_pd(0.0, 1.0), _mm_setr_pd(2.0, 3.0)};
    __m128d index[2] = {at[0], at[1]};
    __m128d step = _mm_set1_pd(HD_BLOCK_VERTS);
    int count = (n + HD_BLOCK_VERTS - 1) / HD_BLOCK_VERTS;
    for (int b = 0; b < count; ++b) {
        const double *block = blocks + HD_BLOCK_DOUBLES * b;
        for (int h = 0; h < 2; ++h) {
            __m128d x = _mm_load_pd(block + 2 * h);
            __m128d y = _mm_load_pd(block + HD_BLOCK_VERTS + 2 * h);
            __m128d z = _mm_load_pd(block + 2 * HD_BLOCK_VERTS + 2 * h);
            __m128d v =
                _mm_add_pd(_mm_add_pd(_mm_mul_pd(x, dx), _mm_mul_pd(y, dy)), _mm_mul_pd(z, dz));
            __m128d gt = _mm_cmpgt_pd(v, best[h]); /* false on NaN, as the plain > */
            best[h] = _mm_or_pd(_mm_and_pd(gt, v), _mm_andnot_pd(gt, best[h]));
            at[h] = _mm_or_pd(_mm_and_pd(gt, index[h]), _mm_andnot_pd(gt, at[h]));
            index[h] = _mm_add_pd(index[h], step);
        }
    }
    double value[4], where[4];
    _mm_storeu_pd(value, best[0]);
    _mm_storeu_pd(value + 2, best[1]);
    _mm_storeu_pd(where, at[0]);
    _mm_storeu_pd(where + 2, at[1]);
    return reduce_lanes(value, where, 4);
}

/* AVX is enough for these instructions; "avx2" names the level the CPU test asks for. No "fma"
 * in the target: the products must round before the sums. */
__attribute__((target("avx2"))) int hdi_scan_avx2(const double *blocks, int n, const double d[3])
{
    if (first_is_nan(blocks, d)) {
        return 0;
    }
    __m256d dx = _mm256_set1_pd(d[0]), dy = _mm256_set1_pd(d[1]), dz = _mm256_set1_pd(d[2]);
    __m256d best = _mm256_set1_pd(-INFINITY);
    __m256d at = _mm256_setr_pd(0.0, 1.0, 2.0, 3.0), index = at;
    __m256d step = _mm256_set1_pd(HD_BLOCK_VERTS);
    int count = (n + HD_BLOCK_VERTS - 1) / HD_BLOCK_VERTS;
    for (int b = 0; b < count; ++b) {
        const double *block = blocks + HD_BLOCK_DOUBLES * b;
        __m256d x = _mm256_load_pd(block);
        __m256d y = _mm256_load_pd(block + HD_BLOCK_VERTS);
        __m256d z = _mm256_load_pd(block + 2 * HD_BLOCK_VERTS);
        __m256d v = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x, dx), _mm256_mul_pd(y, dy)),
                                  _mm256_mul_pd(z, dz));
        __m256d gt = _mm256_cmp_pd(v, best, _CMP_GT_OQ);
        best = _mm256_blendv_pd(best, v, gt);
        at = _mm256_blendv_pd(at, index, gt);
        index = _mm256_add_pd(index, step);
    }
    double value[4], where[4];
    _mm256_storeu_pd(value, best);
    _mm256_storeu_pd(where, at);
    return reduce_lanes(value, where, 4);
}

/* Two blocks per step in the halves of a 512-bit register; an odd last block in the lower half
 * alone, the upper lanes masked off. */
__attribute__((target("avx512f"))) static __m512d load_pair(const double *block, int k, int both)
{
    __m256d lo = _mm256_load_pd(block + HD_BLOCK_VERTS * k);
    __m256d hi = both ? _mm256_load_pd(block + HD_BLOCK_DOUBLES + HD_BLOCK_VERTS * k) : lo;
    return _mm512_insertf64x4(_mm512_castpd256_pd512(lo), hi, 1);
}

__attribute__((target("avx512f"))) int hdi_scan_avx512(const double *blocks, int n,
                                                       const double d[3])
{
    if (first_is_nan(blocks, d)) {
        return 0;
    }
    __m512d dx = _mm512_set1_pd(d[0]), dy = _mm512_set1_pd(d[1]), dz = _mm512_set1_pd(d[2]);
    __m512d best = _mm512_set1_pd(-INFINITY);
    __m512d at = _mm512_setr_pd(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0), index = at;
    __m512d step = _mm512_set1_pd(2 * HD_BLOCK_VERTS);
    int count = (n + HD_BLOCK_VERTS - 1) / HD_BLOCK_VERTS;
    for (int b = 0; b < count; b += 2) {
        const double *block = blocks + HD_BLOCK_DOUBLES * b;
        int both = b + 1 < count;
        __m512d x = load_pair(block, 0, both);
        __m512d y = load_pair(block, 1, both);
        __m512d z = load_pair(block, 2, both);
        __m512d v = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(x, dx), _mm512_mul_pd(y, dy)),
                                  _mm512_mul_pd(z, dz));
        __mmask8 gt = _mm512_mask_cmp_pd_mask(both ? 0xFF : 0x0F, v, best, _CMP_GT_OQ);
        best = _mm512_mask_mov_pd(best, gt, v);
        at = _mm512_mask_mov_pd(at, gt, index);
        index = _mm512_add_pd(index, step);
    }
    double value[8], where[8];
    _mm512_storeu_pd(value, best);
    _mm512_storeu_pd(where, at);
    return reduce_lanes(value, where, 8);
}
#endif
