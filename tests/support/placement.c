/* Placement of a benchmark pair at gap l along u: LP ray shooting in the Minkowski difference,
 * checked by brute force. See placement.h for the mathematics. */
#include "placement.h"

#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Columns: weights of A (1..na), weights of B (na+1..na+nb), then t (na+nb+1).
 * Rows 1..3: sum wa a - sum wb Rb - t u = 0;  row 4: sum wa = 1;  row 5: sum wb = 1. */
static glp_prob *hd_pl_build_lp(const double *a, int na, const double *rb, int nb,
                                const double u[3])
{
    int ncols = na + nb + 1;
    int nnz = 4 * (na + nb) + 3;
    int *ia = malloc(sizeof(int) * (size_t)(nnz + 1));
    int *ja = malloc(sizeof(int) * (size_t)(nnz + 1));
    double *ar = malloc(sizeof(double) * (size_t)(nnz + 1));
    if (ia == NULL || ja == NULL || ar == NULL) {
        free(ia);
        free(ja);
        free(ar);
        return NULL;
    }
    glp_prob *lp = glp_create_prob();
    glp_add_rows(lp, 5);
    for (int r = 1; r <= 3; ++r) {
        glp_set_row_bnds(lp, r, GLP_FX, 0.0, 0.0);
    }
    glp_set_row_bnds(lp, 4, GLP_FX, 1.0, 1.0);
    glp_set_row_bnds(lp, 5, GLP_FX, 1.0, 1.0);
    glp_add_cols(lp, ncols);
    int k = 0;
    for (int j = 1; j <= na + nb; ++j) {
        int from_a = j <= na;
        const double *p = from_a ? a + 3 * (j - 1) : rb + 3 * (j - 1 - na);
        double sign = from_a ? 1.0 : -1.0;
        glp_set_col_bnds(lp, j, GLP_LO, 0.0, 0.0);
        for (int r = 0; r < 3; ++r) {
            ++k;
            ia[k] = r + 1;
            ja[k] = j;
            ar[k] = sign * p[r];
        }
        ++k;
        ia[k] = from_a ? 4 : 5;
        ja[k] = j;
        ar[k] = 1.0;
    }
    glp_set_col_bnds(lp, ncols, GLP_FR, 0.0, 0.0);
    glp_set_obj_coef(lp, ncols, 1.0);
    for (int r = 0; r < 3; ++r) {
        ++k;
        ia[k] = r + 1;
        ja[k] = ncols;
        ar[k] = -u[r];
    }
    glp_load_matrix(lp, k, ia, ja, ar);
    free(ia);
    free(ja);
    free(ar);
    return lp;
}

/* Optimises in direction dir (GLP_MAX / GLP_MIN) with GLPK's floating-point simplex. Only the
 * optimal basis is used: the values are recomputed from it by hd_pl_refine. (glp_exact is no help
 * here: it first replaces each coefficient by a nearby "simple" fraction, a relative perturbation
 * of about 1e-9, so its optimum is exact for slightly different data.) Returns 0 when optimal. */
static int hd_pl_optimise(glp_prob *lp, int dir)
{
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    glp_set_obj_dir(lp, dir);
    if (glp_simplex(lp, &parm) != 0 || glp_get_status(lp) != GLP_OPT) {
        return -1;
    }
    return 0;
}

/* The basic weight columns of the optimal basis: the vertices of A and of B spanning the facet of
 * M that the line t u crosses (4 of them unless the optimum is degenerate). */
static void hd_pl_basis(glp_prob *lp, int na, int nb, hd_pl_weights *w)
{
    memset(w, 0, sizeof *w);
    for (int j = 1; j <= na + nb; ++j) {
        if (glp_get_col_stat(lp, j) != GLP_BS) {
            continue;
        }
        if (j <= na && w->count_a < HD_PL_MAX_SUPPORT) {
            w->index_a[w->count_a] = j - 1;
            w->weight_a[w->count_a++] = glp_get_col_prim(lp, j);
        } else if (j > na && w->count_b < HD_PL_MAX_SUPPORT) {
            w->index_b[w->count_b] = j - 1 - na;
            w->weight_b[w->count_b++] = glp_get_col_prim(lp, j);
        }
    }
}

/* h_A(d) + h_RB(-d): the support function of M = A - RB, by brute force. */
static double hd_pl_support_m(const double *a, int na, const double *rb, int nb, const double d[3])
{
    double ha = -HUGE_VAL, hb = -HUGE_VAL;
    for (int i = 0; i < na; ++i) {
        double v = d[0] * a[3 * i] + d[1] * a[3 * i + 1] + d[2] * a[3 * i + 2];
        ha = v > ha ? v : ha;
    }
    for (int j = 0; j < nb; ++j) {
        double v = -(d[0] * rb[3 * j] + d[1] * rb[3 * j + 1] + d[2] * rb[3 * j + 2]);
        hb = v > hb ? v : hb;
    }
    return ha + hb;
}

/* The point sum wa a - sum wb (rb + shift), and its distance from t u when shift = 0. */
static void hd_pl_combination(const hd_pl_weights *w, const double *a, const double *rb,
                              double xa[3], double xb[3])
{
    xa[0] = xa[1] = xa[2] = 0.0;
    xb[0] = xb[1] = xb[2] = 0.0;
    for (int i = 0; i < w->count_a; ++i) {
        for (int r = 0; r < 3; ++r) {
            xa[r] += w->weight_a[i] * a[3 * w->index_a[i] + r];
        }
    }
    for (int i = 0; i < w->count_b; ++i) {
        for (int r = 0; r < 3; ++r) {
            xb[r] += w->weight_b[i] * rb[3 * w->index_b[i] + r];
        }
    }
}

/* The basic system of the optimal basis, square when the optimum is not degenerate: the 4 basic
 * weights and t solve  sum wa a - sum wb Rb - t u = 0, sum wa = 1, sum wb = 1  (5 x 5). Solved
 * in long double by Gaussian elimination with partial pivoting and one step of iterative
 * refinement, so t and the weights are accurate to a few units of 2^-53 relative to the data.
 * Returns -1 when the basis does not have exactly 4 weight columns or is singular. */
static int hd_pl_basic_solve(const double *a, const double *rb, const double u[3],
                             hd_pl_weights *w, double *t)
{
    int k = w->count_a + w->count_b;
    if (k != 4) {
        return -1;
    }
    long double m[5][5], x[5] = {0, 0, 0, 0, 0};
    for (int c = 0; c < 5; ++c) {
        const double *p = c < w->count_a ? a + 3 * w->index_a[c]
                          : c < 4        ? rb + 3 * w->index_b[c - w->count_a]
                                         : u;
        long double sign = c < w->count_a ? 1.0L : -1.0L;
        for (int r = 0; r < 3; ++r) {
            m[r][c] = sign * p[r];
        }
        m[3][c] = c < w->count_a ? 1.0L : 0.0L;
        m[4][c] = c >= w->count_a && c < 4 ? 1.0L : 0.0L;
    }
    long double rhs[5] = {0, 0, 0, 1, 1};
    for (int pass = 0; pass < 2; ++pass) {
        long double g[5][6];
        for (int r = 0; r < 5; ++r) {
            long double res = rhs[r];
            for (int c = 0; c < 5; ++c) {
                g[r][c] = m[r][c];
                res -= m[r][c] * x[c];
            }
            g[r][5] = res;
        }
        for (int col = 0; col < 5; ++col) {
            int piv = col;
            for (int r = col + 1; r < 5; ++r) {
                piv = fabsl(g[r][col]) > fabsl(g[piv][col]) ? r : piv;
            }
            if (g[piv][col] == 0.0L) {
                return -1;
            }
            for (int c = 0; c < 6; ++c) {
                long double tmp = g[col][c];
                g[col][c] = g[piv][c];
                g[piv][c] = tmp;
            }
            for (int r = col + 1; r < 5; ++r) {
                long double f = g[r][col] / g[col][col];
                for (int c = col; c < 6; ++c) {
                    g[r][c] -= f * g[col][c];
                }
            }
        }
        long double dx[5];
        for (int r = 4; r >= 0; --r) {
            long double v = g[r][5];
            for (int c = r + 1; c < 5; ++c) {
                v -= g[r][c] * dx[c];
            }
            dx[r] = v / g[r][r];
        }
        for (int c = 0; c < 5; ++c) {
            x[c] += dx[c];
        }
    }
    for (int c = 0; c < 4; ++c) {
        if (c < w->count_a) {
            w->weight_a[c] = (double)x[c];
        } else {
            w->weight_b[c - w->count_a] = (double)x[c];
        }
    }
    *t = (double)x[4];
    return 0;
}

static void hd_pl_cross(const double p[3], const double q[3], const double r[3], const double s[3],
                        double out[3])
{
    double e[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
    double f[3] = {s[0] - r[0], s[1] - r[1], s[2] - r[2]};
    out[0] = e[1] * f[2] - e[2] * f[1];
    out[1] = e[2] * f[0] - e[0] * f[2];
    out[2] = e[0] * f[1] - e[1] * f[0];
}

/* Normal of the facet of M spanned by the basis: a face of A against a vertex of B (3 + 1), a
 * vertex of A against a face of B (1 + 3), or an edge of each (2 + 2, the cross product of the two
 * edge directions). Falls back to the LP's duals (d = -y, see below) when the basis is degenerate.
 * Dual reading: at the optimum of max t the reduced cost of the basic column t is 1 + y.u = 0, and
 * dual feasibility of the weight columns gives h_A(d) + h_RB(-d) <= t d.u for d = -y. */
static void hd_pl_normal(glp_prob *lp, const double *a, const double *rb, const hd_pl_weights *w,
                         double d[3])
{
    const int *ia = w->index_a, *ib = w->index_b;
    d[0] = d[1] = d[2] = 0.0;
    if (w->count_a == 3 && w->count_b == 1) {
        hd_pl_cross(a + 3 * ia[0], a + 3 * ia[1], a + 3 * ia[0], a + 3 * ia[2], d);
    } else if (w->count_a == 1 && w->count_b == 3) {
        hd_pl_cross(rb + 3 * ib[0], rb + 3 * ib[1], rb + 3 * ib[0], rb + 3 * ib[2], d);
    } else if (w->count_a == 2 && w->count_b == 2) {
        hd_pl_cross(a + 3 * ia[0], a + 3 * ia[1], rb + 3 * ib[0], rb + 3 * ib[1], d);
    }
    if (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0) {
        for (int r = 0; r < 3; ++r) {
            d[r] = -glp_get_row_dual(lp, r + 1);
        }
    }
}

/* One end of the chord (sign +1: t_hi, -1: t_lo) from the optimal basis in lp. The plane value
 * t_plane = h_M(d) / d.u (brute force over all vertices, d oriented so that sign d.u > 0) bounds
 * the end from outside for ANY d; the basic solution t_basic is a point of M on the line. Their
 * difference plus the basic point's residual is the verified bracket. */
static int hd_pl_refine(glp_prob *lp, const double *a, int na, const double *rb, int nb,
                        const double u[3], int sign, double *t, hd_pl_weights *w, double d_unit[3],
                        double *cos_du, double *bracket)
{
    hd_pl_basis(lp, na, nb, w);
    double d[3];
    hd_pl_normal(lp, a, rb, w, d);
    double du = d[0] * u[0] + d[1] * u[1] + d[2] * u[2];
    if (sign * du < 0.0) {
        d[0] = -d[0], d[1] = -d[1], d[2] = -d[2], du = -du;
    }
    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(sign * du > 0.0) || !(len > 0.0)) {
        return -1;
    }
    double t_plane = hd_pl_support_m(a, na, rb, nb, d) / du;
    double t_basic = glp_get_col_prim(lp, na + nb + 1);
    int solved = hd_pl_basic_solve(a, rb, u, w, &t_basic) == 0;
    double xa[3], xb[3], res = 0.0, min_w = 1.0;
    hd_pl_combination(w, a, rb, xa, xb);
    for (int r = 0; r < 3; ++r) {
        double e = xa[r] - xb[r] - t_basic * u[r];
        res += e * e;
    }
    for (int i = 0; i < w->count_a; ++i) {
        min_w = fmin(min_w, w->weight_a[i]);
    }
    for (int i = 0; i < w->count_b; ++i) {
        min_w = fmin(min_w, w->weight_b[i]);
    }
    *bracket = fabs(t_plane - t_basic) + sqrt(res);
    if (!solved || min_w < -1e-9) {
        *bracket = HUGE_VAL; /* degenerate, or not a point of M: the basis is wrong */
    }
    *t = t_plane;
    for (int r = 0; r < 3; ++r) {
        d_unit[r] = d[r] / len;
    }
    *cos_du = du / len;
    return 0;
}

int hd_pl_ray_solve(const double *a, int na, const double *rb, int nb, const double u[3],
                    hd_pl_ray *out, char *err, int err_size)
{
    memset(out, 0, sizeof *out);
    double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (na <= 0 || nb <= 0 || !(len > 0.0)) {
        snprintf(err, (size_t)err_size, "empty set or zero direction");
        return -1;
    }
    for (int r = 0; r < 3; ++r) {
        out->u[r] = u[r] / len;
    }
    glp_prob *lp = hd_pl_build_lp(a, na, rb, nb, out->u);
    if (lp == NULL) {
        snprintf(err, (size_t)err_size, "out of memory");
        return -1;
    }
    int rc = -1;
    double normal_lo[3], cos_lo, bracket_lo;
    if (hd_pl_optimise(lp, GLP_MAX) != 0) {
        snprintf(err, (size_t)err_size, "the line along u misses A - RB (or GLPK failed)");
    } else if (hd_pl_refine(lp, a, na, rb, nb, out->u, 1, &out->t_hi, &out->w_hi, out->normal_hi,
                            &out->cos_hi, &out->bracket) != 0) {
        snprintf(err, (size_t)err_size, "no usable facet normal at t_hi");
    } else if (hd_pl_optimise(lp, GLP_MIN) != 0 ||
               hd_pl_refine(lp, a, na, rb, nb, out->u, -1, &out->t_lo, &out->w_lo, normal_lo,
                            &cos_lo, &bracket_lo) != 0) {
        snprintf(err, (size_t)err_size, "GLPK failed on min t");
    } else {
        out->bracket = fmax(out->bracket, bracket_lo);
        rc = 0;
    }
    glp_delete_prob(lp);
    return rc;
}

/* Interpolated common point for t in [t_lo, t_hi]: with theta = (t - t_lo) / (t_hi - t_lo), the
 * weights theta w_hi + (1 - theta) w_lo give x_A = sum wa a and x_B = sum wb Rb + t u, equal in
 * exact arithmetic because both programs' points lie on the line t u. */
static double hd_pl_common_residual(const hd_pl_ray *ray, double t, const double *a,
                                    const double *b)
{
    double theta = (t - ray->t_lo) / (ray->t_hi - ray->t_lo);
    if (theta < 0.0 || theta > 1.0) {
        return HUGE_VAL;
    }
    double ha[3], hb[3], la[3], lb[3];
    hd_pl_combination(&ray->w_hi, a, b, ha, hb);
    hd_pl_combination(&ray->w_lo, a, b, la, lb);
    double res = 0.0;
    for (int r = 0; r < 3; ++r) {
        /* b already holds rb + t u, so the B combination needs no shift. */
        double xa = theta * ha[r] + (1.0 - theta) * la[r];
        double xb = theta * hb[r] + (1.0 - theta) * lb[r];
        res += (xa - xb) * (xa - xb);
    }
    return sqrt(res);
}

double hd_pl_check(const hd_pl_ray *ray, double l, const double *a, int na, const double *b,
                   int nb, double tol, int *ok)
{
    if (l > 0.0) {
        const double *d = ray->normal_hi;
        double max_a = -HUGE_VAL, min_b = HUGE_VAL;
        for (int i = 0; i < na; ++i) {
            double v = d[0] * a[3 * i] + d[1] * a[3 * i + 1] + d[2] * a[3 * i + 2];
            max_a = v > max_a ? v : max_a;
        }
        for (int j = 0; j < nb; ++j) {
            double v = d[0] * b[3 * j] + d[1] * b[3 * j + 1] + d[2] * b[3 * j + 2];
            min_b = v < min_b ? v : min_b;
        }
        double gap = min_b - max_a;
        *ok = gap > 0.0 && fabs(gap - l * ray->cos_hi) <= tol;
        return gap;
    }
    double res = hd_pl_common_residual(ray, ray->t_hi + l, a, b);
    *ok = res <= tol;
    return res;
}
