/* The revised simplex kernel of the LP method (Dantzig 1953; e.g. Chvatal, "Linear Programming",
 * ch. 7): x_B = B^-1 rhs, duals y^T = c_B^T B^-1, reduced costs c_j - y^T a_j; the entering
 * column's representation alpha = B^-1 a_q, the ratio test min {x_i / alpha_i : alpha_i > 0},
 * and the explicit inverse updated by the elementary row operation mapping alpha to e_r (m <= 18).
 * The dense m x m work is always-inlined functions of m, instantiated with m = 5 (every 3D LP;
 * unrolled) and the general m, with the same arithmetic. Rows: lp/kernel.h. Tolerances (normalized
 * units; none decides a verdict): core/tolerances.h and docs/algorithms/lp.md, section 2. */
#include <math.h>
#include <string.h>

#include "lp/kernel.h"
#include "lp/column.h"
#include "lp/price.h"
#include "core/tolerances.h"

void hdi_lp_init(hdi_lp *lp, int dim, const hdi_lp_set *s, const hdi_lp_set *t,
                 const double *centre, double sigma, int cap)
{
    lp->dim = dim;
    lp->rows = dim + 2;
    lp->set[0] = *s;
    lp->set[1] = *t;
    for (int k = 0; k < dim; ++k) {
        lp->centre[k] = centre[k];
    }
    lp->sigma = sigma;
    lp->extra_count = 0;
    lp->extra_unit = 0;
    lp->target = -INFINITY;
    lp->probe_gap = -INFINITY;
    lp->pivots = 0;
    lp->cap = cap;
    lp->since_refactor = 0;
    lp->degenerate_run = 0;
    lp->bland = 0;
    lp->restarts = 0;
    lp->support_calls = 0;
    lp->priced_full = 0;
}

/* Recomputes the cached costs and flags of the basis. */
static void basis_changed(hdi_lp *lp)
{
    int n = hdi_lp_structural_count(lp);
    memset(lp->special_basic, 0, sizeof lp->special_basic);
    for (int i = 0; i < lp->rows; ++i) {
        lp->cb[i] = hdi_lp_cost_of(lp, lp->basis[i]);
        if (lp->basis[i] >= n) {
            lp->special_basic[lp->basis[i] - n] = 1;
        }
    }
    lp->since_refactor = 0;
    lp->degenerate_run = 0;
    lp->bland = 0;
    lp->cand_count = 0;
    lp->duals_valid = 0;
    lp->priced_full = 0;
}

void hdi_lp_setup_phase1(hdi_lp *lp)
{
    int d = lp->dim;
    for (int i = 0; i < lp->rows; ++i) {
        lp->rhs[i] = i < d ? 0.0 : 1.0;
        lp->start[i] = lp->basis[i] = hdi_lp_slack_id(lp, i);
        lp->xb[i] = lp->rhs[i];
        for (int j = 0; j < lp->rows; ++j) {
            lp->inv[i][j] = i == j ? 1.0 : 0.0;
        }
    }
    lp->slack_cost = 1.0;
    lp->slack_enter = 1;
    lp->extra_count = 0;
    lp->extra_unit = 0;
    basis_changed(lp);
    /* The slack basis has B = I and every cost 1: y = e. */
    for (int i = 0; i < lp->rows; ++i) {
        lp->y[i] = 1.0;
    }
    lp->duals_valid = 1;
}

void hdi_lp_setup_l1(hdi_lp *lp, int js, int jt)
{
    int d = lp->dim, ns = lp->set[0].count;
    double s0[HD_LP_ROWS], t0[HD_LP_ROWS];
    hdi_lp_point_column_d(lp, d, 0, js, s0);
    hdi_lp_point_column_d(lp, d, 1, jt, t0);
    for (int k = 0; k < d; ++k) {
        lp->rhs[k] = 0.0;
        lp->extra_cost[2 * k] = lp->extra_cost[2 * k + 1] = 1.0;
    }
    lp->extra_count = 2 * d;
    lp->extra_unit = 1; /* extra 2k is +e_k, extra 2k + 1 is -e_k: no explicit columns */
    lp->rhs[d] = lp->rhs[d + 1] = 1.0;
    lp->slack_cost = 0.0;
    lp->slack_enter = 0;
    /* The basis [diag(g) s0 t0] (g_k = +-1, the sign of the residual r = -s0^ - t0^; s0, t0
     * hold the convexity rows' 1) has the exact inverse [diag(g) -diag(g) s0^ -diag(g) t0^] over
     * the identity on the convexity rows, and x_B = (|r_k|, 1, 1): no re-inversion needed. */
    memset(lp->inv, 0, sizeof lp->inv[0] * (size_t)lp->rows);
    for (int j = 0; j < lp->rows; ++j) {
        lp->inv[j][j] = 1.0;
    }
    for (int k = 0; k < d; ++k) {
        double r = lp->rhs[k] - s0[k] - t0[k], g = r >= 0.0 ? 1.0 : -1.0;
        lp->start[k] = hdi_lp_extra_id(lp, g > 0.0 ? 2 * k : 2 * k + 1);
        lp->inv[k][k] = g;
        lp->inv[d][k] = -g * s0[k];
        lp->inv[d + 1][k] = -g * t0[k];
        lp->xb[k] = g * r;
    }
    lp->xb[d] = lp->xb[d + 1] = 1.0;
    lp->start[d] = js;
    lp->start[d + 1] = ns + jt;
    memcpy(lp->basis, lp->start, sizeof lp->basis);
    basis_changed(lp);
}

int hdi_lp_setup_ray(hdi_lp *lp, const int *basis, const double *u)
{
    int d = lp->dim;
    for (int i = 0; i < lp->rows; ++i) {
        lp->rhs[i] = i < d ? 0.0 : 1.0;
        lp->extra[0][i] = i < d ? -u[i] : 0.0;
    }
    lp->extra_cost[0] = -1.0;
    lp->extra_count = 1;
    lp->extra_unit = 0;
    lp->slack_cost = 0.0;
    lp->slack_enter = 0;
    memcpy(lp->basis, basis, sizeof lp->basis);
    memcpy(lp->start, basis, sizeof lp->start);
    basis_changed(lp);
    return hdi_lp_refactor(lp);
}

/* Iterative refinement of x_B (Wilkinson): r = rhs - B x_B from the explicit columns, then
 * x_B += B^-1 r. With an ill-conditioned basis (thin overlaps: cond ~ 1e9) the explicit inverse
 * alone leaves a residual of cond * 2^-53; each step shrinks it by that factor, down to the
 * rounding of the residual itself. a holds the basic columns (a[i][j]: row i of column j). */
HD_LP_INLINE void refine(hdi_lp *lp, const int m, double a[HD_LP_ROWS][HD_LP_ROWS])
{
    double r[HD_LP_ROWS];
    for (int i = 0; i < m; ++i) {
        double s = lp->rhs[i];
        for (int j = 0; j < m; ++j) {
            s -= a[i][j] * lp->xb[j];
        }
        r[i] = s;
    }
    for (int j = 0; j < m; ++j) {
        for (int i = 0; i < m; ++i) {
            lp->xb[i] += lp->inv[j][i] * r[j];
        }
    }
}

/* Gauss-Jordan inversion of the basis with partial pivoting: O(m^3), m <= 18, into b (row
 * major), stored by columns; then x_B from the fresh inverse and one refinement step (the
 * explicit columns are kept for it). */
int hdi_lp_refactor(hdi_lp *lp)
{
    int m = lp->rows;
    double a[HD_LP_ROWS][HD_LP_ROWS], keep[HD_LP_ROWS][HD_LP_ROWS], b[HD_LP_ROWS][HD_LP_ROWS];
    double big = 1.0;
    for (int j = 0; j < m; ++j) {
        double col[HD_LP_ROWS];
        hdi_lp_column(lp, lp->basis[j], col);
        for (int i = 0; i < m; ++i) {
            a[i][j] = keep[i][j] = col[i];
            b[i][j] = i == j ? 1.0 : 0.0;
            big = hdi_max(big, fabs(col[i]));
        }
    }
    for (int c = 0; c < m; ++c) {
        int p = c;
        for (int r = c + 1; r < m; ++r) {
            if (fabs(a[r][c]) > fabs(a[p][c])) {
                p = r;
            }
        }
        if (!(fabs(a[p][c]) > HD_LP_SINGULAR * big)) {
            return -1;
        }
        if (p != c) {
            for (int j = 0; j < m; ++j) {
                double t = a[p][j];
                a[p][j] = a[c][j];
                a[c][j] = t;
                t = b[p][j];
                b[p][j] = b[c][j];
                b[c][j] = t;
            }
        }
        double inv = 1.0 / a[c][c];
        for (int j = 0; j < m; ++j) {
            a[c][j] *= inv;
            b[c][j] *= inv;
        }
        for (int r = 0; r < m; ++r) {
            double f = a[r][c];
            if (r == c || f == 0.0) {
                continue;
            }
            for (int j = 0; j < m; ++j) {
                a[r][j] -= f * a[c][j];
                b[r][j] -= f * b[c][j];
            }
        }
    }
    for (int i = 0; i < m; ++i) {
        double x = 0.0;
        for (int j = 0; j < m; ++j) {
            lp->inv[j][i] = b[i][j];
            x += b[i][j] * lp->rhs[j];
        }
        lp->xb[i] = x;
    }
    refine(lp, m, keep);
    lp->since_refactor = 0;
    lp->duals_valid = 0;
    lp->priced_full = 0;
    return 0;
}

/* Makes the inverse and x_B as accurate as a fresh re-inversion would (for the certificates):
 * the residual R = I - B X of the updated inverse X is measured on the explicit columns. X is
 * kept when ||R||_inf <= 2^-50 m ||X||_inf -- the accuracy lp_solve's basis bound assumes of a
 * fresh inverse (||X - B^-1|| <= ||X|| ||R|| / (1 - ||R||), and ||B||_inf <= m), which the
 * product-form updates of a few well-conditioned pivots keep -- and x_B gets the refinement step
 * of a re-inversion; otherwise the basis is re-inverted. O(m^3) multiply-adds either way, but
 * about a quarter of Gauss-Jordan's work and no divisions. Returns hdi_lp_refactor's result. */
HD_LP_INLINE int settle_m(hdi_lp *lp, const int m)
{
    double a[HD_LP_ROWS][HD_LP_ROWS], col[HD_LP_ROWS], delta = 0.0, xnorm = 0.0;
    for (int j = 0; j < m; ++j) {
        hdi_lp_column_m(lp, m, lp->basis[j], col);
        for (int i = 0; i < m; ++i) {
            a[i][j] = col[i];
        }
    }
    for (int i = 0; i < m; ++i) {
        double rsum = 0.0, xsum = 0.0;
        for (int k = 0; k < m; ++k) {
            double bx = 0.0;
            for (int j = 0; j < m; ++j) {
                bx += a[i][j] * lp->inv[k][j];
            }
            rsum += fabs((i == k ? 1.0 : 0.0) - bx);
            xsum += fabs(lp->inv[k][i]);
        }
        delta = hdi_max(delta, rsum);
        xnorm = hdi_max(xnorm, xsum);
    }
    if (!(delta <= HD_LP_INVERSE_RESIDUAL * m * xnorm)) {
        return hdi_lp_refactor(lp);
    }
    refine(lp, m, a);
    lp->since_refactor = 0;
    return 0;
}

int hdi_lp_settle(hdi_lp *lp)
{
    if (lp->since_refactor == 0) {
        return 0;
    }
    return lp->rows == HD_LP_ROWS_3D ? settle_m(lp, HD_LP_ROWS_3D) : settle_m(lp, lp->rows);
}

HD_LP_INLINE void duals_m(hdi_lp *lp, const int m)
{
    for (int j = 0; j < m; ++j) {
        double s = 0.0;
        for (int i = 0; i < m; ++i) {
            s += lp->cb[i] * lp->inv[j][i];
        }
        lp->y[j] = s;
    }
    lp->duals_valid = 1;
}

void hdi_lp_duals(hdi_lp *lp)
{
    duals_m(lp, lp->rows);
    lp->priced_full = 0;
}

double hdi_lp_objective(const hdi_lp *lp)
{
    double f = 0.0;
    for (int i = 0; i < lp->rows; ++i) {
        f += lp->cb[i] * lp->xb[i];
    }
    return f;
}

/* Separation probe (pairs only): the coordinate part of the current duals, y_x, is the normal
 * the phase-1 optimum will separate with (lp.md); as soon as it separates the points by more
 * than probe_gap the verdict is proven and the optimum is not needed. The support points of both
 * sets along y_x are those the last full pricing found (Dantzig's rule is a support query in
 * direction y_x, see lp/price.c), so the probe costs two dot products. */
static int probe_separates(hdi_lp *lp)
{
    double max_s = 0.0;
    double gap = hdi_lp_gap_at(lp, lp->y, lp->support[0], lp->support[1], &max_s);
    if (!(gap > lp->probe_gap)) {
        return 0;
    }
    double len = sqrt(hdi_lp_dot(lp->y, lp->y, lp->dim));
    for (int k = 0; k < lp->dim; ++k) {
        lp->probe_normal[k] = lp->y[k] / len;
    }
    lp->probe_value = gap;
    lp->probe_max_s = max_s;
    return 1;
}

/* Ratio test. An entry counts when it exceeds HD_LP_NOISE times its own rounding-error scale
 * (noise[i] = sum_j |B^-1_ij a_j|): only entries that may be rounding noise are ignored, so no
 * basic variable is driven negative by more than rounding -- a fixed fraction of max |alpha|
 * would ignore genuine entries of the size of a thin overlap and leave variables negative by that
 * much. Slack variables held at zero (slack_enter == 0) block any step when their entry counts.
 * Ties go to the largest pivot, or under Bland's rule to the smallest basic column id. Returns
 * the row, -1 if unbounded. */
HD_LP_INLINE int ratio_test_m(const hdi_lp *lp, const int m, const double *alpha,
                              const double *noise, double *theta)
{
    double ratio[HD_LP_ROWS];
    double tmin = INFINITY;
    int n = hdi_lp_structural_count(lp);
    /* basis[i] - n < m (unsigned): a slack column */
    unsigned hold = lp->slack_enter ? 0u : (unsigned)m;
    for (int i = 0; i < m; ++i) {
        int held = (unsigned)(lp->basis[i] - n) < hold;
        double a = held ? fabs(alpha[i]) : alpha[i];
        double tol = HD_LP_NOISE * noise[i] + HD_LP_PIVOT_ABS;
        ratio[i] = a > tol ? hdi_max(lp->xb[i], 0.0) / a : INFINITY;
        tmin = hdi_min(tmin, ratio[i]);
    }
    if (tmin == INFINITY) {
        return -1;
    }
    /* Only near-exact ties (degenerate zeros, rounding-level differences): a wider window would
     * step past a smaller ratio and leave its variable negative by (window * theta), which in a
     * thin overlap (ratios differing by 1e-9) is as large as the overlap itself. */
    double lim = tmin * (1.0 + HD_LP_TIE_REL) + 0x1.0p-52 * HD_LP_TIE_ABS;
    int r = -1;
    for (int i = 0; i < m; ++i) {
        if (ratio[i] > lim) {
            continue;
        }
        if (r < 0 || (lp->bland ? lp->basis[i] < lp->basis[r] : fabs(alpha[i]) > fabs(alpha[r]))) {
            r = i;
        }
    }
    *theta = ratio[r];
    return r;
}

#if defined(__GNUC__)
/* Two doubles: GCC and Clang compile the arithmetic on it to one SSE2 (NEON) instruction. Only
 * element-wise operations are used, so every result is the scalar code's, bit for bit. */
typedef double hdi_lp_v2 __attribute__((vector_size(16)));
typedef long long hdi_lp_i2 __attribute__((vector_size(16)));

static inline hdi_lp_v2 hdi_lp_v2_abs(hdi_lp_v2 x)
{
    const hdi_lp_i2 mask = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
    return (hdi_lp_v2)((hdi_lp_i2)x & mask);
}

/* ftran_m for m = 5: entries 0..3 of a column as two pairs, entry 4 alone. */
static inline void ftran5(const hdi_lp *lp, const double *col, double *alpha, double *noise)
{
    hdi_lp_v2 a0 = {0.0, 0.0}, a1 = {0.0, 0.0}, n0 = {0.0, 0.0}, n1 = {0.0, 0.0};
    double a4 = 0.0, n4 = 0.0;
    for (int j = 0; j < 5; ++j) {
        double c = col[j];
        if (c == 0.0) {
            continue;
        }
        const double *p = lp->inv[j];
        hdi_lp_v2 x0, x1, cv = {c, c};
        memcpy(&x0, p, sizeof x0);
        memcpy(&x1, p + 2, sizeof x1);
        x0 *= cv;
        x1 *= cv;
        double x4 = p[4] * c;
        a0 += x0;
        a1 += x1;
        a4 += x4;
        n0 += hdi_lp_v2_abs(x0);
        n1 += hdi_lp_v2_abs(x1);
        n4 += fabs(x4);
    }
    memcpy(alpha, &a0, sizeof a0);
    memcpy(alpha + 2, &a1, sizeof a1);
    alpha[4] = a4;
    memcpy(noise, &n0, sizeof n0);
    memcpy(noise + 2, &n1, sizeof n1);
    noise[4] = n4;
}

/* The inverse update of pivot_m for m = 5 (same element-wise arithmetic). */
static inline void update5(hdi_lp *lp, int r, const double *alpha, double ia)
{
    hdi_lp_v2 a0, a1;
    memcpy(&a0, alpha, sizeof a0);
    memcpy(&a1, alpha + 2, sizeof a1);
    double a4 = alpha[4];
    for (int j = 0; j < 5; ++j) {
        double *c = lp->inv[j];
        double v = c[r] * ia;
        hdi_lp_v2 x0, x1, vv = {v, v};
        memcpy(&x0, c, sizeof x0);
        memcpy(&x1, c + 2, sizeof x1);
        x0 -= a0 * vv;
        x1 -= a1 * vv;
        memcpy(c, &x0, sizeof x0);
        memcpy(c + 2, &x1, sizeof x1);
        c[4] -= a4 * v;
        c[r] = v;
    }
}

#define HD_LP_VECTOR5 1
#endif

/* Pivot on alpha_r: the explicit inverse follows the elementary row operation that maps alpha
 * to e_r (column by column: its row-r entry v is divided by alpha_r, then every other entry i
 * loses alpha_i v), x_B moves by theta along -alpha, and when the duals are current they follow
 * too: y' = y + dq (row r of the new inverse), dq the entering column's reduced cost (the new
 * basic costs c_B' satisfy y'^T B' = c_B'^T). */
HD_LP_INLINE void pivot_m(hdi_lp *lp, const int m, int q, int r, const double *alpha, double theta,
                          double dq)
{
    int n = hdi_lp_structural_count(lp);
    double ia = 1.0 / alpha[r];
#ifdef HD_LP_VECTOR5
    if (m == HD_LP_ROWS_3D) {
        update5(lp, r, alpha, ia);
    } else
#endif
    {
        for (int j = 0; j < m; ++j) {
            double *c = lp->inv[j];
            double v = c[r] * ia;
            for (int i = 0; i < m; ++i) {
                c[i] -= alpha[i] * v;
            }
            c[r] = v;
        }
    }
    for (int i = 0; i < m; ++i) {
        lp->xb[i] -= theta * alpha[i];
    }
    lp->xb[r] = theta;
    if (lp->duals_valid) {
        for (int j = 0; j < m; ++j) {
            lp->y[j] += dq * lp->inv[j][r];
        }
    }
    if (lp->basis[r] >= n) {
        lp->special_basic[lp->basis[r] - n] = 0;
    }
    if (q >= n) {
        lp->special_basic[q - n] = 1;
    }
    lp->basis[r] = q;
    lp->cb[r] = hdi_lp_cost_of(lp, q);
    lp->since_refactor++;
    lp->pivots++;
    lp->priced_full = 0;
}

/* alpha = B^-1 a, and noise[i] = sum_j |B^-1_ij a_j|, the scale of alpha_i's rounding error;
 * by columns of the inverse, skipping the zero entries of a (a point's other convexity row). */
HD_LP_INLINE void ftran_m(const hdi_lp *lp, const int m, const double *col, double *alpha,
                          double *noise)
{
#ifdef HD_LP_VECTOR5
    if (m == HD_LP_ROWS_3D) {
        ftran5(lp, col, alpha, noise);
        return;
    }
#endif
    for (int i = 0; i < m; ++i) {
        alpha[i] = 0.0;
        noise[i] = 0.0;
    }
    for (int j = 0; j < m; ++j) {
        double c = col[j];
        if (c == 0.0) {
            continue;
        }
        for (int i = 0; i < m; ++i) {
            double p = lp->inv[j][i] * c;
            alpha[i] += p;
            noise[i] += fabs(p);
        }
    }
}

/* A singular basis (only after heavy rounding): restart from the starting basis under Bland's
 * rule; the second time the LP gives up. */
static int recover(hdi_lp *lp)
{
    if (lp->restarts >= 2) {
        return -1;
    }
    lp->restarts++;
    memcpy(lp->basis, lp->start, sizeof lp->basis);
    basis_changed(lp);
    return hdi_lp_refactor(lp);
}

/* The entering column q (or -1), its explicit column and its accurate reduced cost. */
HD_LP_INLINE int entering_m(hdi_lp *lp, const int m, double *col, double *dq)
{
    if (!lp->duals_valid) {
        duals_m(lp, m);
    }
    double ymax = 0.0;
    for (int i = 0; i < m; ++i) {
        ymax = hdi_max(ymax, fabs(lp->y[i]));
    }
    double tol = HD_LP_DUAL_REL * (1.0 + ymax);
    int bland = lp->bland || lp->restarts > 0;
    int q = bland ? hdi_lp_price_bland(lp, tol) : hdi_lp_price_dantzig(lp, tol);
    if (q < 0) {
        return -1;
    }
    hdi_lp_column_m(lp, m, q, col);
    *dq = hdi_lp_cost_of(lp, q) - hdi_lp_dot(lp->y, col, m);
    if (!(*dq < -tol) && !bland) {
        q = hdi_lp_price_accurate(lp, tol);
        if (q >= 0) {
            hdi_lp_column_m(lp, m, q, col);
            *dq = hdi_lp_cost_of(lp, q) - hdi_lp_dot(lp->y, col, m);
        }
    }
    return q;
}

/* After a small pivot, or when a basic variable has turned negative (rounding), x_B and the
 * inverse are recomputed so that the next ratio tests see accurate values. */
HD_LP_INLINE int needs_refactor_m(const hdi_lp *lp, const int m, const double *alpha, int r)
{
    if (lp->since_refactor == 0) {
        return 0;
    }
    double amax = 0.0;
    int negative = 0;
    for (int i = 0; i < m; ++i) {
        amax = hdi_max(amax, fabs(alpha[i]));
        negative |= lp->xb[i] < 0.0;
    }
    return negative || fabs(alpha[r]) < HD_LP_SMALL_PIVOT * amax;
}

HD_LP_INLINE hdi_lp_run_status run_m(hdi_lp *lp, const int m)
{
    for (;;) {
        double f = 0.0;
        for (int i = 0; i < m; ++i) {
            f += lp->cb[i] * lp->xb[i];
        }
        if (f <= lp->target) {
            return HD_LP_TARGET;
        }
        if (lp->pivots >= lp->cap) {
            return HD_LP_CAP;
        }
        if (lp->since_refactor >= HD_LP_REFACTOR && hdi_lp_refactor(lp) != 0 && recover(lp) != 0) {
            return HD_LP_BREAKDOWN;
        }
        double col[HD_LP_ROWS], alpha[HD_LP_ROWS], noise[HD_LP_ROWS], dq = 0.0, theta = 0.0;
        int q = entering_m(lp, m, col, &dq);
        /* Most probes fail (the sets are not yet apart along y_x): pricing's sign test of the
         * gap (lp/price.c) skips them; skipping a probe never affects a verdict. */
        if (lp->priced_full && lp->probe_hint && lp->probe_gap > -INFINITY && probe_separates(lp)) {
            return HD_LP_SEPARATED;
        }
        if (q < 0) {
            return HD_LP_OPTIMAL;
        }
        ftran_m(lp, m, col, alpha, noise);
        int r = ratio_test_m(lp, m, alpha, noise, &theta);
        if (r < 0) {
            return HD_LP_UNBOUNDED;
        }
        pivot_m(lp, m, q, r, alpha, theta, dq);
        if (needs_refactor_m(lp, m, alpha, r) && hdi_lp_refactor(lp) != 0 && recover(lp) != 0) {
            return HD_LP_BREAKDOWN;
        }
        /* Anti-cycling: Bland's rule while the objective stalls (a cycle can only consist of
         * pivots that leave the objective unchanged, and Bland's rule admits no cycle). */
        if (-dq * theta <= HD_LP_STALL * (1.0 + fabs(f))) {
            if (++lp->degenerate_run >= HD_LP_BLAND_AFTER * m) {
                lp->bland = 1;
            }
        } else {
            lp->degenerate_run = 0;
            lp->bland = 0;
        }
    }
}

/* Drives the basic extra columns out of the basis (the end of a textbook phase 1: Chvatal,
 * ch. 8). Row i of a basic extra column: the structural column with the largest |alpha_i| =
 * |(row i of B^-1) . a| enters with a degenerate step (x_i is zero to rounding, so is theta).
 * alpha_i is affine in the point, so over a set its extremes are the support points in
 * directions +-(row i's coordinate part) (four support queries per row). Fails (-1) when every
 * |alpha_i| is below 2^-20 of the row's size: the point sets are flat in that direction. */
int hdi_lp_drive_out_extras(hdi_lp *lp)
{
    int m = lp->rows, d = lp->dim, n = hdi_lp_structural_count(lp), ns = lp->set[0].count;
    for (int i = 0; i < m; ++i) {
        if (lp->basis[i] < n + m) {
            continue;
        }
        double w[HD_LP_ROWS], u[HD_LP_MAX_DIM], wn = 0.0;
        for (int j = 0; j < m; ++j) {
            w[j] = lp->inv[j][i];
            wn = hdi_max(wn, fabs(w[j]));
        }
        int best = -1;
        double bestv = 0x1.0p-20 * wn;
        for (int k = 0; k < 2; ++k) {
            for (int sg = -1; sg <= 1; sg += 2) {
                for (int c = 0; c < d; ++c) {
                    u[c] = sg * w[c];
                }
                int id = hdi_lp_support(lp, k, u) + k * ns;
                double col[HD_LP_ROWS];
                hdi_lp_column(lp, id, col);
                double a = fabs(hdi_lp_dot(w, col, m));
                if (a > bestv) {
                    bestv = a;
                    best = id;
                }
            }
        }
        if (best < 0) {
            return -1;
        }
        double col[HD_LP_ROWS], alpha[HD_LP_ROWS], noise[HD_LP_ROWS];
        hdi_lp_column(lp, best, col);
        lp->duals_valid = 0;
        if (m == HD_LP_ROWS_3D) {
            ftran_m(lp, HD_LP_ROWS_3D, col, alpha, noise);
            pivot_m(lp, HD_LP_ROWS_3D, best, i, alpha, lp->xb[i] / alpha[i], 0.0);
        } else {
            ftran_m(lp, m, col, alpha, noise);
            pivot_m(lp, m, best, i, alpha, lp->xb[i] / alpha[i], 0.0);
        }
    }
    return 0;
}

hdi_lp_run_status hdi_lp_run(hdi_lp *lp)
{
    if (lp->rows == HD_LP_ROWS_3D) {
        return run_m(lp, HD_LP_ROWS_3D);
    }
    return run_m(lp, lp->rows);
}
