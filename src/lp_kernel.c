/* The revised simplex kernel of the LP method; see lp_kernel.h and docs/algorithms/lp.md.
 *
 * Revised simplex (Dantzig 1953; e.g. Chvatal, "Linear Programming", ch. 7): for a basis B
 * (m = d + 2 columns) the basic solution is x_B = B^-1 rhs, the duals y^T = c_B^T B^-1 and the
 * reduced cost of column a_j is c_j - y^T a_j. A column with a negative reduced cost enters;
 * alpha = B^-1 a_q is its representation in the basis; the ratio test
 * min { x_i / alpha_i : alpha_i > 0 } picks the leaving row r; the inverse is updated by the
 * elementary row operation that turns alpha into e_r (the product-form update, applied to the
 * explicit inverse since m <= 18).
 *
 * Tolerances (normalised units: coordinates of magnitude <= 1, convexity coefficients 1,
 * weights in [0, 1]; the ray column is a unit vector):
 *   HD_LP_NOISE, HD_LP_PIVOT_ABS: an entry alpha_i of the entering column counts in the ratio
 *     test when it exceeds 2^-46 sum_j |B^-1_ij a_j| (128 units of its rounding error) and 2^-44.
 *     Ignoring an entry below 2^-44 leaves its variable negative by at most theta 2^-44 (theta
 *     <= 4 in every LP here: weights <= 1, slacks and l1 residuals <= 2, ray lengths <= sqrt(16)),
 *     about 2e-13 of the extent: below the touching band, which is all the resolution the
 *     answers need; while entries of the size of a thin overlap (1e-9 of the extent) count.
 *   HD_LP_SINGULAR: re-inversion fails on a pivot below 2^-48 of the basis' largest entry.
 *   HD_LP_SMALL_PIVOT: after a pivot on an element below 1e-6 of its column's largest entry the
 *     basis may be ill-conditioned (thin overlaps need such pivots), so it is re-inverted at once
 *     and x_B refined; likewise whenever a basic variable turns negative.
 *   HD_LP_DUAL_REL: a reduced cost counts as negative below -1e-11 (1 + max |y_i|), i.e. a few
 *     thousand units of rounding of the dot product y^T a_j.
 *   HD_LP_STALL: a pivot that lowers the objective by less than 1e-13 (1 + |objective|) is
 *     degenerate for the anti-cycling logic.
 *   Ratio-test ties: ratios within 2^-50 relative (plus 2^-52 * 1e-3 absolute, for the rounding
 *     noise of degenerate zeros) count as equal.
 * None of these decides a verdict: certificates are rechecked on the input doubles (lp_solve.c).
 */
#include <math.h>
#include <string.h>

#include "lp_kernel.h"
#include "lp_price.h"

#define HD_LP_NOISE 0x1.0p-46
#define HD_LP_PIVOT_ABS 0x1.0p-44
#define HD_LP_SMALL_PIVOT 1e-6
#define HD_LP_DUAL_REL 1e-11
#define HD_LP_STALL 1e-13
#define HD_LP_SINGULAR 0x1.0p-48
#define HD_LP_REFACTOR 32
#define HD_LP_TIE_ABS 1e-3

void hd_lp_init(hd_lp *lp, int dim, const hd_lp_set *s, const hd_lp_set *t,
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
    lp->target = -INFINITY;
    lp->probe_gap = -INFINITY;
    lp->pivots = 0;
    lp->cap = cap;
    lp->since_refactor = 0;
    lp->degenerate_run = 0;
    lp->bland = 0;
    lp->restarts = 0;
    lp->support_calls = 0;
}

void hd_lp_point(const hd_lp *lp, int k, int j, double *out)
{
    hd_lp_set_point(&lp->set[k], lp->dim, j, out);
}

/* Normalised column of point j of set k: (+-sigma (p - centre), e_{d+k}). */
static inline void point_column(const hd_lp *lp, int k, int j, double *col)
{
    int d = lp->dim;
    const hd_lp_set *set = &lp->set[k];
    double s = k == 0 ? lp->sigma : -lp->sigma;
    if (set->rot != NULL) {
        double p[3];
        hd_lp_set_point(set, 3, j, p);
        for (int i = 0; i < 3; ++i) {
            col[i] = s * (p[i] - lp->centre[i]);
        }
    } else {
        const double *p = set->pts + (long)d * j;
        for (int i = 0; i < d; ++i) {
            col[i] = s * (p[i] - lp->centre[i]);
        }
    }
    col[d] = k == 0 ? 1.0 : 0.0;
    col[d + 1] = k == 0 ? 0.0 : 1.0;
}

void hd_lp_column(const hd_lp *lp, int id, double *col)
{
    int ns = lp->set[0].count, n = hd_lp_structural_count(lp);
    if (id < n) {
        int k = id < ns ? 0 : 1;
        point_column(lp, k, id - k * ns, col);
        return;
    }
    for (int i = 0; i < lp->rows; ++i) {
        col[i] = 0.0;
    }
    if (id < n + lp->rows) {
        col[id - n] = 1.0;
    } else {
        const double *e = lp->extra[id - n - lp->rows];
        for (int i = 0; i < lp->rows; ++i) {
            col[i] = e[i];
        }
    }
}

double hd_lp_cost(const hd_lp *lp, int id)
{
    int n = hd_lp_structural_count(lp);
    if (id < n) {
        return 0.0;
    }
    if (id < n + lp->rows) {
        return lp->slack_cost;
    }
    return lp->extra_cost[id - n - lp->rows];
}

/* Recomputes the cached costs and flags of the basis. */
static void basis_changed(hd_lp *lp)
{
    int n = hd_lp_structural_count(lp);
    memset(lp->special_basic, 0, sizeof lp->special_basic);
    for (int i = 0; i < lp->rows; ++i) {
        lp->cb[i] = hd_lp_cost(lp, lp->basis[i]);
        if (lp->basis[i] >= n) {
            lp->special_basic[lp->basis[i] - n] = 1;
        }
    }
    lp->since_refactor = 0;
    lp->degenerate_run = 0;
    lp->bland = 0;
    lp->cand_count = 0;
    lp->duals_valid = 0;
}

void hd_lp_setup_phase1(hd_lp *lp)
{
    int d = lp->dim;
    for (int i = 0; i < lp->rows; ++i) {
        lp->rhs[i] = i < d ? 0.0 : 1.0;
        lp->start[i] = lp->basis[i] = hd_lp_slack_id(lp, i);
        lp->xb[i] = lp->rhs[i];
        for (int j = 0; j < lp->rows; ++j) {
            lp->binv[i][j] = i == j ? 1.0 : 0.0;
        }
    }
    lp->slack_cost = 1.0;
    lp->slack_enter = 1;
    lp->extra_count = 0;
    basis_changed(lp);
}

int hd_lp_setup_l1(hd_lp *lp, const double *q)
{
    int d = lp->dim, ns = lp->set[0].count;
    double s0[HD_LP_ROWS], t0[HD_LP_ROWS];
    point_column(lp, 0, 0, s0);
    point_column(lp, 1, 0, t0);
    for (int k = 0; k < d; ++k) {
        lp->rhs[k] = q != NULL ? lp->sigma * q[k] : 0.0;
        for (int i = 0; i < lp->rows; ++i) {
            lp->extra[2 * k][i] = i == k ? 1.0 : 0.0;
            lp->extra[2 * k + 1][i] = i == k ? -1.0 : 0.0;
        }
        lp->extra_cost[2 * k] = lp->extra_cost[2 * k + 1] = 1.0;
    }
    lp->extra_count = 2 * d;
    lp->rhs[d] = lp->rhs[d + 1] = 1.0;
    lp->slack_cost = 0.0;
    lp->slack_enter = 0;
    for (int k = 0; k < d; ++k) {
        double r = lp->rhs[k] - s0[k] - t0[k];
        lp->start[k] = hd_lp_extra_id(lp, r >= 0.0 ? 2 * k : 2 * k + 1);
    }
    lp->start[d] = 0;
    lp->start[d + 1] = ns;
    memcpy(lp->basis, lp->start, sizeof lp->basis);
    basis_changed(lp);
    return hd_lp_refactor(lp);
}

int hd_lp_setup_ray(hd_lp *lp, const int *basis, const double *u)
{
    int d = lp->dim;
    for (int i = 0; i < lp->rows; ++i) {
        lp->rhs[i] = i < d ? 0.0 : 1.0;
        lp->extra[0][i] = i < d ? -u[i] : 0.0;
    }
    lp->extra_cost[0] = -1.0;
    lp->extra_count = 1;
    lp->slack_cost = 0.0;
    lp->slack_enter = 0;
    memcpy(lp->basis, basis, sizeof lp->basis);
    memcpy(lp->start, basis, sizeof lp->start);
    basis_changed(lp);
    return hd_lp_refactor(lp);
}

/* Gauss-Jordan inversion of the basis with partial pivoting: O(m^3), m <= 18. */
int hd_lp_refactor(hd_lp *lp)
{
    int m = lp->rows;
    double a[HD_LP_ROWS][HD_LP_ROWS], col[HD_LP_ROWS];
    double big = 1.0;
    for (int j = 0; j < m; ++j) {
        hd_lp_column(lp, lp->basis[j], col);
        for (int i = 0; i < m; ++i) {
            a[i][j] = col[i];
            lp->binv[i][j] = i == j ? 1.0 : 0.0;
            big = hd_lp_max(big, fabs(col[i]));
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
        for (int j = 0; j < m; ++j) {
            double t = a[p][j];
            a[p][j] = a[c][j];
            a[c][j] = t;
            t = lp->binv[p][j];
            lp->binv[p][j] = lp->binv[c][j];
            lp->binv[c][j] = t;
        }
        double inv = 1.0 / a[c][c];
        for (int j = 0; j < m; ++j) {
            a[c][j] *= inv;
            lp->binv[c][j] *= inv;
        }
        for (int r = 0; r < m; ++r) {
            double f = a[r][c];
            if (r == c || f == 0.0) {
                continue;
            }
            for (int j = 0; j < m; ++j) {
                a[r][j] -= f * a[c][j];
                lp->binv[r][j] -= f * lp->binv[c][j];
            }
        }
    }
    for (int i = 0; i < m; ++i) {
        lp->xb[i] = hd_lp_dot(lp->binv[i], lp->rhs, m);
    }
    hd_lp_refine(lp);
    lp->since_refactor = 0;
    lp->duals_valid = 0;
    return 0;
}

/* Iterative refinement of x_B (Wilkinson): r = rhs - B x_B from the explicit columns, then
 * x_B += B^-1 r. With an ill-conditioned basis (thin overlaps: cond ~ 1e9) the explicit inverse
 * alone leaves a residual of cond * 2^-53; each step shrinks it by that factor, down to the
 * rounding of the residual itself. */
void hd_lp_refine(hd_lp *lp)
{
    int m = lp->rows;
    double r[HD_LP_ROWS], col[HD_LP_ROWS];
    for (int i = 0; i < m; ++i) {
        r[i] = lp->rhs[i];
    }
    for (int j = 0; j < m; ++j) {
        hd_lp_column(lp, lp->basis[j], col);
        for (int i = 0; i < m; ++i) {
            r[i] -= col[i] * lp->xb[j];
        }
    }
    for (int i = 0; i < m; ++i) {
        lp->xb[i] += hd_lp_dot(lp->binv[i], r, m);
    }
}

void hd_lp_duals(hd_lp *lp)
{
    int m = lp->rows;
    for (int j = 0; j < m; ++j) {
        lp->y[j] = 0.0;
    }
    for (int i = 0; i < m; ++i) {
        double c = lp->cb[i];
        if (c != 0.0) {
            for (int j = 0; j < m; ++j) {
                lp->y[j] += c * lp->binv[i][j];
            }
        }
    }
    lp->duals_valid = 1;
}

double hd_lp_objective(const hd_lp *lp)
{
    double f = 0.0;
    for (int i = 0; i < lp->rows; ++i) {
        f += lp->cb[i] * lp->xb[i];
    }
    return f;
}

/* Separation probe (pairs only): the coordinate part of the current duals, y_x, is the normal
 * the phase-1 optimum will separate with (lp.md); as soon as it separates the points by more
 * than probe_gap the verdict is proven and the optimum is not needed. */
static int probe_separates(hd_lp *lp)
{
    if (!(lp->probe_gap > -INFINITY)) {
        return 0;
    }
    double gap = hd_lp_gap_along(lp, lp->y, NULL);
    if (!(gap > lp->probe_gap)) {
        return 0;
    }
    double len = sqrt(hd_lp_dot(lp->y, lp->y, lp->dim));
    for (int k = 0; k < lp->dim; ++k) {
        lp->probe_normal[k] = lp->y[k] / len;
    }
    return 1;
}

/* Ratio test. An entry counts when it exceeds HD_LP_NOISE times its own rounding-error scale
 * (noise[i] = sum_j |B^-1_ij a_j|): only entries that may be rounding noise are ignored, so no
 * basic variable is driven negative by more than rounding -- a fixed fraction of max |alpha|
 * would ignore genuine entries of the size of a thin overlap and leave variables negative by that
 * much. Slack variables held at zero (slack_enter == 0) block any step when their entry counts.
 * Ties go to the largest pivot, or under Bland's rule to the smallest basic column id. Returns
 * the row, -1 if unbounded. */
static int ratio_test(const hd_lp *lp, const double *alpha, const double *noise, double *theta)
{
    int m = lp->rows;
    double ratio[HD_LP_ROWS];
    double tmin = INFINITY;
    for (int i = 0; i < m; ++i) {
        int held = !lp->slack_enter && hd_lp_is_slack(lp, lp->basis[i]);
        double a = held ? fabs(alpha[i]) : alpha[i];
        double tol = HD_LP_NOISE * noise[i] + HD_LP_PIVOT_ABS;
        ratio[i] = a > tol ? hd_lp_max(lp->xb[i], 0.0) / a : INFINITY;
        tmin = hd_lp_min(tmin, ratio[i]);
    }
    if (tmin == INFINITY) {
        return -1;
    }
    /* Only near-exact ties (degenerate zeros, rounding-level differences): a wider window would
     * step past a smaller ratio and leave its variable negative by (window * theta), which in a
     * thin overlap (ratios differing by 1e-9) is as large as the overlap itself. */
    double lim = tmin * (1.0 + 0x1.0p-50) + 0x1.0p-52 * HD_LP_TIE_ABS;
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

/* Pivot on alpha_r: the explicit inverse's rows follow the elementary row operation that maps
 * alpha to e_r, x_B moves by theta along -alpha, and when the duals are current they follow too:
 * y' = y + dq (row r of the new inverse), dq the entering column's reduced cost (the new basic
 * costs c_B' satisfy y'^T B' = c_B'^T). */
static void pivot(hd_lp *lp, int q, int r, const double *alpha, double theta, double dq)
{
    int m = lp->rows, n = hd_lp_structural_count(lp);
    double inv = 1.0 / alpha[r];
    for (int j = 0; j < m; ++j) {
        lp->binv[r][j] *= inv;
    }
    for (int i = 0; i < m; ++i) {
        if (i == r || alpha[i] == 0.0) {
            continue;
        }
        double f = alpha[i];
        for (int j = 0; j < m; ++j) {
            lp->binv[i][j] -= f * lp->binv[r][j];
        }
        lp->xb[i] -= theta * f;
    }
    if (lp->duals_valid) {
        for (int j = 0; j < m; ++j) {
            lp->y[j] += dq * lp->binv[r][j];
        }
    }
    if (lp->basis[r] >= n) {
        lp->special_basic[lp->basis[r] - n] = 0;
    }
    if (q >= n) {
        lp->special_basic[q - n] = 1;
    }
    lp->xb[r] = theta;
    lp->basis[r] = q;
    lp->cb[r] = hd_lp_cost(lp, q);
    lp->since_refactor++;
    lp->pivots++;
}

/* alpha = B^-1 a, and noise[i] = sum_j |B^-1_ij a_j|, the scale of alpha_i's rounding error. */
static void ftran(const hd_lp *lp, const double *col, double *alpha, double *noise)
{
    int m = lp->rows;
    for (int i = 0; i < m; ++i) {
        double s = 0.0, e = 0.0;
        for (int j = 0; j < m; ++j) {
            double p = lp->binv[i][j] * col[j];
            s += p;
            e += fabs(p);
        }
        alpha[i] = s;
        if (noise != NULL) {
            noise[i] = e;
        }
    }
}

/* A singular basis (only after heavy rounding): restart from the starting basis under Bland's
 * rule; the second time the LP gives up. */
static int recover(hd_lp *lp)
{
    if (lp->restarts >= 2) {
        return -1;
    }
    lp->restarts++;
    memcpy(lp->basis, lp->start, sizeof lp->basis);
    basis_changed(lp);
    return hd_lp_refactor(lp);
}

static double max_abs_n(const double *a, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; ++i) {
        m = hd_lp_max(m, fabs(a[i]));
    }
    return m;
}

/* One pricing + ratio test: the entering column q (or -1), its accurate reduced cost, alpha,
 * and the leaving row (or -1). */
static int choose_pivot(hd_lp *lp, int *q, double *dq, double *alpha, double *theta)
{
    if (!lp->duals_valid) {
        hd_lp_duals(lp);
    }
    double tol = HD_LP_DUAL_REL * (1.0 + max_abs_n(lp->y, lp->rows));
    double col[HD_LP_ROWS];
    int bland = lp->bland || lp->restarts > 0;
    *q = bland ? hd_lp_price_bland(lp, tol) : hd_lp_price_dantzig(lp, tol);
    if (*q >= 0) {
        hd_lp_column(lp, *q, col);
        *dq = hd_lp_cost(lp, *q) - hd_lp_dot(lp->y, col, lp->rows);
        if (!(*dq < -tol) && !bland) {
            *q = hd_lp_price_accurate(lp, tol);
            if (*q >= 0) {
                hd_lp_column(lp, *q, col);
                *dq = hd_lp_cost(lp, *q) - hd_lp_dot(lp->y, col, lp->rows);
            }
        }
    }
    if (*q < 0) {
        return -1;
    }
    double noise[HD_LP_ROWS];
    ftran(lp, col, alpha, noise);
    return ratio_test(lp, alpha, noise, theta);
}

/* After a small pivot, or when a basic variable has turned negative (rounding), x_B and the
 * inverse are recomputed so that the next ratio tests see accurate values. */
static int needs_refactor(const hd_lp *lp, const double *alpha, int r)
{
    if (lp->since_refactor == 0) {
        return 0;
    }
    double amax = 0.0;
    for (int i = 0; i < lp->rows; ++i) {
        amax = hd_lp_max(amax, fabs(alpha[i]));
        if (lp->xb[i] < 0.0) {
            return 1;
        }
    }
    return fabs(alpha[r]) < HD_LP_SMALL_PIVOT * amax;
}

hd_lp_run_status hd_lp_run(hd_lp *lp)
{
    for (;;) {
        double f = hd_lp_objective(lp);
        if (f <= lp->target) {
            return HD_LP_TARGET;
        }
        if (lp->pivots >= lp->cap) {
            return HD_LP_CAP;
        }
        if (lp->since_refactor >= HD_LP_REFACTOR && hd_lp_refactor(lp) != 0 && recover(lp) != 0) {
            return HD_LP_BREAKDOWN;
        }
        int q;
        double dq = 0.0, alpha[HD_LP_ROWS], theta = 0.0;
        int r = choose_pivot(lp, &q, &dq, alpha, &theta);
        if (probe_separates(lp)) {
            return HD_LP_SEPARATED;
        }
        if (r < 0) {
            return q < 0 ? HD_LP_OPTIMAL : HD_LP_UNBOUNDED;
        }
        pivot(lp, q, r, alpha, theta, dq);
        if (needs_refactor(lp, alpha, r) && hd_lp_refactor(lp) != 0 && recover(lp) != 0) {
            return HD_LP_BREAKDOWN;
        }
        /* Anti-cycling: Bland's rule while the objective stalls (a cycle can only consist of
         * pivots that leave the objective unchanged, and Bland's rule admits no cycle). */
        if (-dq * theta <= HD_LP_STALL * (1.0 + fabs(f))) {
            if (++lp->degenerate_run >= lp->rows) {
                lp->bland = 1;
            }
        } else {
            lp->degenerate_run = 0;
            lp->bland = 0;
        }
    }
}
