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

/* Lane by lane, the better of (v, i) and (w, j): the larger value, the lower index among equal
 * values (lane values are never NaN: a NaN never replaces one). A total order, so the lanes may
 * be reduced in any grouping; selects rather than branches, which the values would mispredict. */
static void better_sse2(__m128d *v, __m128d *i, __m128d w, __m128d j)
{
    __m128d take =
        _mm_or_pd(_mm_cmpgt_pd(w, *v), _mm_and_pd(_mm_cmpeq_pd(w, *v), _mm_cmplt_pd(j, *i)));
    *v = _mm_or_pd(_mm_and_pd(take, w), _mm_andnot_pd(take, *v));
    *i = _mm_or_pd(_mm_and_pd(take, j), _mm_andnot_pd(take, *i));
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
    better_sse2(&best[0], &at[0], best[1], at[1]);
    better_sse2(&best[0], &at[0], _mm_unpackhi_pd(best[0], best[0]), _mm_unpackhi_pd(at[0], at[0]));
    return (int)_mm_cvtsd_f64(at[0]);
}

/* better_sse2 on four lanes. */
__attribute__((target("avx2"))) static void better_avx2(__m256d *v, __m256d *i, __m256d w,
                                                        __m256d j)
{
    __m256d take = _mm256_or_pd(
        _mm256_cmp_pd(w, *v, _CMP_GT_OQ),
        _mm256_and_pd(_mm256_cmp_pd(w, *v, _CMP_EQ_OQ), _mm256_cmp_pd(j, *i, _CMP_LT_OQ)));
    *v = _mm256_blendv_pd(*v, w, take);
    *i = _mm256_blendv_pd(*i, j, take);
}

/* The index of the best of four lanes: halves against halves, then neighbours. */
__attribute__((target("avx2"))) static int best_of_lanes(__m256d v, __m256d i)
{
    better_avx2(&v, &i, _mm256_permute2f128_pd(v, v, 1), _mm256_permute2f128_pd(i, i, 1));
    better_avx2(&v, &i, _mm256_permute_pd(v, 5), _mm256_permute_pd(i, 5));
    return (int)_mm256_cvtsd_f64(i);
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
    return best_of_lanes(best, at);
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
    __m256d v = _mm512_castpd512_pd256(best), i = _mm512_castpd512_pd256(at);
    better_avx2(&v, &i, _mm512_extractf64x4_pd(best, 1), _mm512_extractf64x4_pd(at, 1));
    return best_of_lanes(v, i);
}
#endif
