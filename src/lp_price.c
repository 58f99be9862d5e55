/* Pricing of the LP method's revised simplex: which column enters. See lp_kernel.c for the
 * method and docs/algorithms/lp.md, section 2.
 *
 * Structural columns are points, so pricing never builds them: the duals are folded into a
 * direction h and an offset per set (the normalisation sigma (x - centre), and for B's vertices
 * the pose, are absorbed), and the reduced cost of a point is an affine function of h . p. The
 * most negative one over a set is therefore a support-mapping query: hill climbing over a
 * polytope's vertex adjacency, or a scan of a raw array (which also keeps its best points as
 * candidates for partial pricing). Dantzig's rule compares the winners of both sets and the slack
 * and extra columns; the winner is confirmed from its explicit column by the caller. Bland's rule
 * (the smallest column id with a negative reduced cost) is the anti-cycling fallback.
 */
#include <math.h>
#include <string.h>

#include "lp_price.h"
#include "support.h"

/* Reduced cost of column id from its explicit column: the accurate value. */
double hd_lp_reduced_cost(const hd_lp *lp, int id)
{
    int n = hd_lp_structural_count(lp);
    if (id >= n && id < n + lp->rows) {
        return lp->slack_cost - lp->y[id - n];
    }
    double col[HD_LP_ROWS];
    hd_lp_column(lp, id, col);
    return hd_lp_cost(lp, id) - hd_lp_dot(lp->y, col, lp->rows);
}

/* The vector v (dual-like, rows entries) folded for set k: v^T a_j = sign_k (h . raw_j + off),
 * with h the direction in the set's own frame (R^T g when the set is rotated), g = sigma v[0..d).
 * S: v^T a = g.(p - c) + v_d;  T: v^T a = -g.(p - c) + v_{d+1} = -(g.(p - c) - v_{d+1}). */
static void fold_direction(const hd_lp *lp, int k, const double *v, double *h, double *off)
{
    int d = lp->dim;
    double o = 0.0, sg = lp->sigma;
    const hd_lp_set *set = &lp->set[k];
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
    *off = k == 0 ? o + v[d] : o - v[d + 1];
}

/* The (at most) topk points with the largest h . p, best first, into idx. */
static int scan_topk(const double *pts, int count, int dim, const double *h, int topk, int *idx)
{
    double val[HD_LP_TOPK];
    int size = 0;
    for (int j = 0; j < count; ++j) {
        const double *p = pts + (long)dim * j;
        double v = dim == 3 ? h[0] * p[0] + h[1] * p[1] + h[2] * p[2] : hd_lp_dot(h, p, dim);
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

/* Index of the point maximising h . p over count points of dim doubles (lowest index on ties). */
static int scan_argmax(const double *pts, int count, int dim, const double *h)
{
    int best = 0;
    if (dim == 3) {
        double h0 = h[0], h1 = h[1], h2 = h[2];
        double bv = h0 * pts[0] + h1 * pts[1] + h2 * pts[2];
        for (int j = 1; j < count; ++j) {
            const double *p = pts + 3 * j;
            double v = h0 * p[0] + h1 * p[1] + h2 * p[2];
            if (v > bv) {
                bv = v;
                best = j;
            }
        }
        return best;
    }
    double bv = hd_lp_dot(h, pts, dim);
    for (int j = 1; j < count; ++j) {
        double v = hd_lp_dot(h, pts + (long)dim * j, dim);
        if (v > bv) {
            bv = v;
            best = j;
        }
    }
    return best;
}

/* Index of set k's point maximising h . raw (h in the set's own frame). */
static int set_argmax(hd_lp *lp, int k, const double *h)
{
    hd_lp_set *set = &lp->set[k];
    lp->support_calls++;
    if (set->poly != NULL) {
        set->climb = hd_support_climb(set->poly, h, set->climb);
        return set->climb;
    }
    return scan_argmax(set->pts, set->count, lp->dim, h);
}

int hd_lp_support(hd_lp *lp, int k, const double *u)
{
    const hd_lp_set *set = &lp->set[k];
    if (set->rot == NULL) {
        return set_argmax(lp, k, u);
    }
    const double *r = set->rot;
    double h[3];
    for (int i = 0; i < 3; ++i) {
        h[i] = r[i] * u[0] + r[3 + i] * u[1] + r[6 + i] * u[2];
    }
    return set_argmax(lp, k, h);
}

double hd_lp_gap_along(hd_lp *lp, const double *n, double *max_s)
{
    int d = lp->dim;
    double len = sqrt(hd_lp_dot(n, n, d)), u[HD_LP_MAX_DIM], nu[HD_LP_MAX_DIM], p[HD_LP_MAX_DIM];
    if (!(len > 0.0) || !isfinite(len)) {
        return -INFINITY;
    }
    for (int k = 0; k < d; ++k) {
        u[k] = n[k] / len;
        nu[k] = -u[k];
    }
    hd_lp_point(lp, 0, hd_lp_support(lp, 0, u), p);
    double hs = hd_lp_dot(u, p, d);
    hd_lp_point(lp, 1, hd_lp_support(lp, 1, nu), p);
    if (max_s != NULL) {
        *max_s = hs;
    }
    return hd_lp_dot(u, p, d) - hs;
}

/* The special (slack, extra) column with the most negative reduced cost below *bestd. */
static int price_special(const hd_lp *lp, int best, double *bestd)
{
    int n = hd_lp_structural_count(lp);
    for (int e = lp->slack_enter ? 0 : lp->rows; e < lp->rows + lp->extra_count; ++e) {
        if (lp->special_basic[e]) {
            continue;
        }
        double dj = e < lp->rows ? lp->slack_cost - lp->y[e]
                                 : lp->extra_cost[e - lp->rows] -
                                       hd_lp_dot(lp->y, lp->extra[e - lp->rows], lp->rows);
        if (dj < *bestd) {
            *bestd = dj;
            best = n + e;
        }
    }
    return best;
}

/* The duals folded for both sets: the reduced cost of S's point j is -(h_0 . s_j + off_0), of
 * T's point j is h_1 . t_j + off_1. */
typedef struct hd_lp_fold {
    double h[2][HD_LP_MAX_DIM];
    double off[2];
} hd_lp_fold;

static void fold_duals(const hd_lp *lp, hd_lp_fold *fd)
{
    fold_direction(lp, 0, lp->y, fd->h[0], &fd->off[0]);
    fold_direction(lp, 1, lp->y, fd->h[1], &fd->off[1]);
}

static double folded_cost(const hd_lp *lp, const hd_lp_fold *fd, int id)
{
    int k = id < lp->set[0].count ? 0 : 1, j = id - k * lp->set[0].count;
    double v = hd_lp_dot(fd->h[k], lp->set[k].pts + (long)lp->dim * j, lp->dim) + fd->off[k];
    return k == 0 ? -v : v;
}

/* Full scan of set k for its most negative (folded) reduced cost: a support point of S in
 * direction h_0, of T in direction -h_1. Large scanned sets also add their best HD_LP_TOPK
 * points to the candidate list. Returns the column id. */
static int scan_set(hd_lp *lp, const hd_lp_fold *fd, int k)
{
    hd_lp_set *set = &lp->set[k];
    double h[HD_LP_MAX_DIM];
    for (int i = 0; i < lp->dim; ++i) {
        h[i] = k == 0 ? fd->h[0][i] : -fd->h[1][i];
    }
    int base = k * lp->set[0].count;
    if (set->poly != NULL || set->count <= HD_LP_PARTIAL_MIN) {
        return set_argmax(lp, k, h) + base;
    }
    int idx[HD_LP_TOPK];
    lp->support_calls++;
    int got = scan_topk(set->pts, set->count, lp->dim, h, HD_LP_TOPK, idx);
    for (int c = 0; c < got; ++c) {
        lp->cand[lp->cand_count++] = idx[c] + base;
    }
    return idx[0] + base;
}

/* Dantzig's rule on the folded reduced costs: over the candidate list when it holds an
 * improving column, else over every column. */
int hd_lp_price_dantzig(hd_lp *lp, double tol)
{
    hd_lp_fold fd;
    fold_duals(lp, &fd);
    for (int pass = lp->cand_count > 0 ? 0 : 1; pass < 2; ++pass) {
        int best = -1;
        double bestd = -tol;
        if (pass == 0) {
            for (int c = 0; c < lp->cand_count; ++c) {
                double dj = folded_cost(lp, &fd, lp->cand[c]);
                if (dj < bestd) {
                    bestd = dj;
                    best = lp->cand[c];
                }
            }
        } else {
            lp->cand_count = 0;
            for (int k = 0; k < 2; ++k) {
                int j = scan_set(lp, &fd, k);
                double dj = folded_cost(lp, &fd, j);
                if (dj < bestd) {
                    bestd = dj;
                    best = j;
                }
            }
        }
        best = price_special(lp, best, &bestd);
        if (best >= 0) {
            return best;
        }
    }
    return -1;
}

/* Dantzig's rule with every candidate's reduced cost from its explicit column: the fallback
 * when a folded winner fails confirmation (rounding of the folded form, far from the origin). */
int hd_lp_price_accurate(hd_lp *lp, double tol)
{
    hd_lp_fold fd;
    fold_duals(lp, &fd);
    lp->cand_count = 0;
    int best = -1;
    double bestd = -tol;
    for (int k = 0; k < 2; ++k) {
        int j = scan_set(lp, &fd, k);
        double dj = hd_lp_reduced_cost(lp, j);
        if (dj < bestd) {
            bestd = dj;
            best = j;
        }
    }
    return price_special(lp, best, &bestd);
}

/* Bland's rule: the smallest column id with a negative reduced cost (Bland 1977). Points are
 * screened with the folded duals, candidates confirmed with the explicit column. */
int hd_lp_price_bland(hd_lp *lp, double tol)
{
    int d = lp->dim;
    for (int k = 0; k < 2; ++k) {
        double h[HD_LP_MAX_DIM], off;
        fold_direction(lp, k, lp->y, h, &off);
        const hd_lp_set *set = &lp->set[k];
        for (int j = 0; j < set->count; ++j) {
            double v = hd_lp_dot(h, set->pts + (long)d * j, d) + off;
            double dj = k == 0 ? -v : v;
            if (dj < -tol) {
                int id = j + k * lp->set[0].count;
                if (hd_lp_reduced_cost(lp, id) < -tol) {
                    return id;
                }
            }
        }
    }
    int n = hd_lp_structural_count(lp);
    for (int e = lp->slack_enter ? 0 : lp->rows; e < lp->rows + lp->extra_count; ++e) {
        if (!lp->special_basic[e] && hd_lp_reduced_cost(lp, n + e) < -tol) {
            return n + e;
        }
    }
    return -1;
}
