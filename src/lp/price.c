/* Pricing of the LP method's revised simplex (lp/kernel.c): which column enters. Structural columns
 * are points, so the duals are folded into a direction h_k and an offset off_k per set, and the
 * reduced cost of point p of set k is -(h_k.p + off_k): Dantzig's rule is two support queries, S's
 * along y_x and T's along -y_x, whose points also give the gap of the plane with normal y_x (the
 * kernel's separation probe). Bland's rule is the anti-cycling fallback. Always-inlined in the
 * dimension, instantiated with 3 and the general d. docs/algorithms/lp.md, section 2. */
#include <math.h>
#include <string.h>

#include "lp/column.h"
#include "lp/price.h"
#include "support/support.h"
#include "core/tolerances.h"

/* Reduced cost of column id from its explicit column: the accurate value. */
double hdi_lp_reduced_cost(const hdi_lp *lp, int id)
{
    int n = hdi_lp_structural_count(lp);
    if (id >= n && id < n + lp->rows) {
        return lp->slack_cost - lp->y[id - n];
    }
    double col[HD_LP_ROWS];
    hdi_lp_column(lp, id, col);
    return hdi_lp_cost(lp, id) - hdi_lp_dot(lp->y, col, lp->rows);
}

/* The duals folded for both sets (normalization sigma (x - c), T's sign and B's pose absorbed):
 *     S:  y^T (sigma (s - c), 1, 0)        = (sigma y_x).s - sigma y_x.c + y_d
 *     T:  y^T (-sigma (R t + v - c), 0, 1) = (-sigma R^T y_x).t - sigma y_x.(v - c) + y_{d+1} */
typedef struct hdi_lp_fold {
    double h[2][HD_LP_MAX_DIM];
    double off[2];
} hdi_lp_fold;

HD_LP_INLINE void fold_set_d(const hdi_lp *lp, const int d, int k, double *h, double *off)
{
    const hdi_lp_set *set = &lp->set[k];
    const double *v = lp->y;
    double sg = k == 0 ? lp->sigma : -lp->sigma, o = 0.0;
    if (set->rot != NULL) {
        const double *r = set->rot;
        double g0 = sg * v[0], g1 = sg * v[1], g2 = sg * v[2];
        for (int i = 0; i < 3; ++i) {
            h[i] = r[i] * g0 + r[3 + i] * g1 + r[6 + i] * g2;
        }
        o = g0 * (set->shift[0] - lp->centre[0]) + g1 * (set->shift[1] - lp->centre[1]) +
            g2 * (set->shift[2] - lp->centre[2]);
    } else {
        for (int i = 0; i < d; ++i) {
            h[i] = sg * v[i];
            o -= h[i] * lp->centre[i];
        }
    }
    *off = o + v[d + k];
}

HD_LP_INLINE void fold_duals_d(const hdi_lp *lp, const int d, hdi_lp_fold *fd)
{
    fold_set_d(lp, d, 0, fd->h[0], &fd->off[0]);
    fold_set_d(lp, d, 1, fd->h[1], &fd->off[1]);
}

/* h . p for a point of d doubles (d = 3 without the leading 0.0 + of hdi_lp_dot). */
HD_LP_INLINE double point_dot_d(const double *h, const double *p, const int d)
{
    return d == 3 ? h[0] * p[0] + h[1] * p[1] + h[2] * p[2] : hdi_lp_dot(h, p, d);
}

/* Reduced cost of point j of set k from the folded duals. */
HD_LP_INLINE double folded_cost_d(const hdi_lp *lp, const int d, const hdi_lp_fold *fd, int k,
                                  int j)
{
    return -(point_dot_d(fd->h[k], lp->set[k].pts + (long)d * j, d) + fd->off[k]);
}

/* The (at most) topk points with the largest h . p, best first, into idx. */
HD_LP_INLINE int scan_topk_d(const double *pts, int count, const int d, const double *h, int topk,
                             int *idx)
{
    double val[HD_LP_TOPK];
    int size = 0;
    for (int j = 0; j < count; ++j) {
        double v = point_dot_d(h, pts + (long)d * j, d);
        if (size == topk && !(v > val[topk - 1])) {
            continue;
        }
        int i = size < topk ? size++ : topk - 1;
        while (i > 0 && v > val[i - 1]) {
            val[i] = val[i - 1];
            idx[i] = idx[i - 1];
            i--;
        }
        val[i] = v;
        idx[i] = j;
    }
    return size;
}

/* Index of the point maximising h . p over count >= 1 points of d doubles (lowest index on
 * ties). Two interleaved running maxima (even and odd positions after the first point), merged
 * at the end, so that consecutive comparisons do not wait for each other. */
HD_LP_INLINE int scan_argmax_d(const double *pts, int count, const int d, const double *h)
{
    double b0 = point_dot_d(h, pts, d), b1 = -INFINITY;
    int i0 = 0, i1 = 0, j = 1;
    for (; j + 1 < count; j += 2) {
        const double *p = pts + (long)d * j;
        double v0 = point_dot_d(h, p, d), v1 = point_dot_d(h, p + d, d);
        if (v0 > b0) {
            b0 = v0;
            i0 = j;
        }
        if (v1 > b1) {
            b1 = v1;
            i1 = j + 1;
        }
    }
    if (j < count) {
        double v = point_dot_d(h, pts + (long)d * j, d);
        if (v > b0) {
            b0 = v;
            i0 = j;
        }
    }
    return b1 > b0 || (b1 == b0 && i1 < i0) ? i1 : i0;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* scan_argmax_d for 3D points with SSE2, two points per step: the six doubles of points j and
 * j + 1 are three aligned-or-not pairs (x0 y0) (z0 x1) (y1 z1); multiplied by (hx hy) (hz hx)
 * (hy hz) and regrouped by three shuffles into (hx x0, hx x1), (hy y0, hy y1), (hz z0, hz z1),
 * they add up as (a + b) + c: the scalar code's products and sums, bit for bit. Lane 0 keeps the
 * first maximum among even indices, lane 1 among odd ones; the merge takes the larger value, the
 * lower index on a tie. */
static int scan_argmax3_sse2(const double *pts, int count, const double *h)
{
    const __m128d ha = _mm_set_pd(h[1], h[0]), hb = _mm_set_pd(h[0], h[2]);
    const __m128d hc = _mm_set_pd(h[2], h[1]), two = _mm_set1_pd(2.0);
    __m128d best = _mm_set1_pd(-INFINITY), bidx = _mm_setzero_pd(), idx = _mm_set_pd(1.0, 0.0);
    int j = 0;
    for (; j + 1 < count; j += 2) {
        const double *p = pts + 3 * j;
        __m128d pa = _mm_mul_pd(_mm_loadu_pd(p), ha);
        __m128d pb = _mm_mul_pd(_mm_loadu_pd(p + 2), hb);
        __m128d pc = _mm_mul_pd(_mm_loadu_pd(p + 4), hc);
        __m128d x = _mm_shuffle_pd(pa, pb, 2); /* (pa0, pb1) */
        __m128d y = _mm_shuffle_pd(pa, pc, 1); /* (pa1, pc0) */
        __m128d z = _mm_shuffle_pd(pb, pc, 2); /* (pb0, pc1) */
        __m128d v = _mm_add_pd(_mm_add_pd(x, y), z);
        __m128d gt = _mm_cmpgt_pd(v, best);
        best = _mm_max_pd(v, best); /* equal values: either is the same number */
        bidx = _mm_or_pd(_mm_and_pd(gt, idx), _mm_andnot_pd(gt, bidx));
        idx = _mm_add_pd(idx, two);
    }
    double bv[2], bi[2];
    _mm_storeu_pd(bv, best);
    _mm_storeu_pd(bi, bidx);
    int i0 = (int)bi[0], i1 = (int)bi[1];
    double b0 = bv[0], b1 = bv[1];
    if (j < count) {
        const double *p = pts + 3 * j;
        double v = h[0] * p[0] + h[1] * p[1] + h[2] * p[2];
        if (v > b0) {
            b0 = v;
            i0 = j;
        }
    }
    if (count == 1) {
        return 0;
    }
    return b1 > b0 || (b1 == b0 && i1 < i0) ? i1 : i0;
}
#endif

/* Index of set k's point maximising h . raw (h in the set's own frame). Polytopes climb their
 * vertex graph when they are large enough for it to pay (support/support.h); smaller ones are
 * scanned like raw arrays, with the same answer (lowest index among equal maxima). */
HD_LP_INLINE int set_argmax_d(hdi_lp *lp, const int d, int k, const double *h)
{
    hdi_lp_set *set = &lp->set[k];
    lp->support_calls++;
    if (set->poly != NULL && set->count > HD_SUPPORT_SCAN_MAX) {
        set->climb = hdi_support_climb(set->poly, h, set->climb);
        return set->climb;
    }
#if defined(__SSE2__)
    if (d == 3) {
        return scan_argmax3_sse2(set->pts, set->count, h);
    }
#endif
    return d == 3 ? scan_argmax_d(set->pts, set->count, 3, h)
                  : scan_argmax_d(set->pts, set->count, d, h);
}

int hdi_lp_support(hdi_lp *lp, int k, const double *u)
{
    const hdi_lp_set *set = &lp->set[k];
    if (set->rot == NULL) {
        return lp->dim == 3 ? set_argmax_d(lp, 3, k, u) : set_argmax_d(lp, lp->dim, k, u);
    }
    const double *r = set->rot;
    double h[3];
    for (int i = 0; i < 3; ++i) {
        h[i] = r[i] * u[0] + r[3 + i] * u[1] + r[6 + i] * u[2];
    }
    return set_argmax_d(lp, 3, k, h);
}

/* u = n / |n| in d dimensions; 0 when n is zero or not finite. */
static int unit_direction(const double *n, int d, double *u)
{
    double len = sqrt(hdi_lp_dot(n, n, d));
    if (!(len > 0.0) || !isfinite(len)) {
        return 0;
    }
    for (int k = 0; k < d; ++k) {
        u[k] = n[k] / len;
    }
    return 1;
}

/* min_T u.t - max_S u.s on the points js of S and jt of T, for a unit u. */
static double gap_of_unit(const hdi_lp *lp, const double *u, int js, int jt, double *max_s)
{
    int d = lp->dim;
    double p[HD_LP_MAX_DIM];
    hdi_lp_point(lp, 0, js, p);
    double hs = hdi_lp_dot(u, p, d);
    hdi_lp_point(lp, 1, jt, p);
    if (max_s != NULL) {
        *max_s = hs;
    }
    return hdi_lp_dot(u, p, d) - hs;
}

double hdi_lp_gap_at(const hdi_lp *lp, const double *n, int js, int jt, double *max_s)
{
    double u[HD_LP_MAX_DIM];
    return unit_direction(n, lp->dim, u) ? gap_of_unit(lp, u, js, jt, max_s) : -INFINITY;
}

double hdi_lp_gap_along(hdi_lp *lp, const double *n, double *max_s)
{
    int d = lp->dim;
    double u[HD_LP_MAX_DIM], nu[HD_LP_MAX_DIM];
    if (!unit_direction(n, d, u)) {
        return -INFINITY;
    }
    for (int k = 0; k < d; ++k) {
        nu[k] = -u[k];
    }
    int js = hdi_lp_support(lp, 0, u), jt = hdi_lp_support(lp, 1, nu);
    return gap_of_unit(lp, u, js, jt, max_s);
}

/* The special (slack, extra) column with the most negative reduced cost below *bestd. */
HD_LP_INLINE int price_special(const hdi_lp *lp, int best, double *bestd)
{
    int n = hdi_lp_structural_count(lp), m = lp->rows;
    if (lp->slack_enter) {
        for (int e = 0; e < m; ++e) {
            double dj = lp->slack_cost - lp->y[e];
            if (dj < *bestd && !lp->special_basic[e]) {
                *bestd = dj;
                best = n + e;
            }
        }
    }
    if (lp->extra_unit) {
        /* +-e_k cost 1: reduced costs 1 -+ y_k; only the sign of y_k can be below 1 - 0 (the
         * two columns of a row are never basic together: they are dependent). */
        for (int k = 0; k < lp->dim; ++k) {
            int e = lp->y[k] > 0.0 ? 2 * k : 2 * k + 1;
            double dj = 1.0 - fabs(lp->y[k]);
            if (dj < *bestd && !lp->special_basic[m + e]) {
                *bestd = dj;
                best = n + m + e;
            }
        }
        return best;
    }
    for (int e = 0; e < lp->extra_count; ++e) {
        if (lp->special_basic[m + e]) {
            continue;
        }
        double dj = lp->extra_cost[e] - hdi_lp_dot(lp->y, lp->extra[e], m);
        if (dj < *bestd) {
            *bestd = dj;
            best = n + m + e;
        }
    }
    return best;
}

/* Full search of set k for its most negative (folded) reduced cost: the support point of set k
 * in direction h_k. Large scanned sets also add their best HD_LP_TOPK points to the candidate
 * list. Returns the index in the set. */
HD_LP_INLINE int search_set_d(hdi_lp *lp, const int d, const hdi_lp_fold *fd, int k)
{
    hdi_lp_set *set = &lp->set[k];
    if (set->poly != NULL || set->count <= HD_LP_PARTIAL_MIN) {
        return set_argmax_d(lp, d, k, fd->h[k]);
    }
    int idx[HD_LP_TOPK];
    lp->support_calls++;
    int got = scan_topk_d(set->pts, set->count, d, fd->h[k], HD_LP_TOPK, idx);
    int base = k * lp->set[0].count;
    for (int c = 0; c < got; ++c) {
        lp->cand[lp->cand_count++] = idx[c] + base;
    }
    return idx[0];
}

/* Both sets searched in full with the current duals: their support points are recorded for the
 * separation probe and the separated certificate. Returns the better of the two winners (column
 * id) if its reduced cost is below *bestd, else best. */
HD_LP_INLINE int price_full_d(hdi_lp *lp, const int d, const hdi_lp_fold *fd, int best,
                              double *bestd, int accurate)
{
    lp->cand_count = 0;
    double sum = lp->y[d] + lp->y[d + 1];
    for (int k = 0; k < 2; ++k) {
        int j = search_set_d(lp, d, fd, k), id = j + k * lp->set[0].count;
        lp->support[k] = j;
        double dj = accurate ? hdi_lp_reduced_cost(lp, id) : folded_cost_d(lp, d, fd, k, j);
        sum += dj;
        if (dj < *bestd) {
            *bestd = dj;
            best = id;
        }
    }
    /* The two reduced costs add up to sigma (y_x . t - y_x . s) - y_d - y_{d+1} (fold the two
     * columns): the sign of the support points' gap along y_x, for the kernel's probe. */
    lp->probe_hint = sum > 0.0;
    lp->priced_full = 1;
    return best;
}

/* Dantzig's rule on the folded reduced costs: over the candidate list when it holds an
 * improving column, else over every column. */
HD_LP_INLINE int dantzig_d(hdi_lp *lp, const int d, double tol)
{
    hdi_lp_fold fd;
    fold_duals_d(lp, d, &fd);
    lp->priced_full = 0;
    if (lp->cand_count > 0) {
        int best = -1, ns = lp->set[0].count;
        double bestd = -tol;
        for (int c = 0; c < lp->cand_count; ++c) {
            int id = lp->cand[c], k = id < ns ? 0 : 1;
            double dj = folded_cost_d(lp, d, &fd, k, id - k * ns);
            if (dj < bestd) {
                bestd = dj;
                best = id;
            }
        }
        best = price_special(lp, best, &bestd);
        if (best >= 0) {
            return best;
        }
    }
    double bestd = -tol;
    int best = price_full_d(lp, d, &fd, -1, &bestd, 0);
    return price_special(lp, best, &bestd);
}

int hdi_lp_price_dantzig(hdi_lp *lp, double tol)
{
    return lp->dim == 3 ? dantzig_d(lp, 3, tol) : dantzig_d(lp, lp->dim, tol);
}

/* Dantzig's rule with every candidate's reduced cost from its explicit column: the fallback
 * when a folded winner fails confirmation (rounding of the folded form, far from the origin). */
int hdi_lp_price_accurate(hdi_lp *lp, double tol)
{
    hdi_lp_fold fd;
    fold_duals_d(lp, lp->dim, &fd);
    double bestd = -tol;
    int best = price_full_d(lp, lp->dim, &fd, -1, &bestd, 1);
    return price_special(lp, best, &bestd);
}

/* Bland's rule: the smallest column id with a negative reduced cost (Bland 1977). Points are
 * screened with the folded duals, candidates confirmed with the explicit column. */
int hdi_lp_price_bland(hdi_lp *lp, double tol)
{
    int d = lp->dim;
    hdi_lp_fold fd;
    fold_duals_d(lp, d, &fd);
    lp->priced_full = 0;
    for (int k = 0; k < 2; ++k) {
        const hdi_lp_set *set = &lp->set[k];
        for (int j = 0; j < set->count; ++j) {
            if (folded_cost_d(lp, d, &fd, k, j) < -tol) {
                int id = j + k * lp->set[0].count;
                if (hdi_lp_reduced_cost(lp, id) < -tol) {
                    return id;
                }
            }
        }
    }
    int n = hdi_lp_structural_count(lp);
    for (int e = lp->slack_enter ? 0 : lp->rows; e < lp->rows + lp->extra_count; ++e) {
        if (!lp->special_basic[e] && hdi_lp_reduced_cost(lp, n + e) < -tol) {
            return n + e;
        }
    }
    return -1;
}
