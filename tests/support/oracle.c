/* The exact GLPK oracle; see oracle.h. */
#include <float.h>
#include <glpk.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "oracle.h"

#define HD_ORACLE_MAX_DIM 16

/* The smallest K such that x 2^K is an integer for every x of the arrays, or INT_MIN-like
 * failure (returns 0 and *ok = 0) when some scaled value would overflow. */
typedef struct hd_oracle_scale {
    int k;
    int ok;
} hd_oracle_scale;

static int integral_at(double x, int k)
{
    double y = ldexp(x, k);
    return isfinite(y) && y == floor(y);
}

static void scale_consider(hd_oracle_scale *sc, const double *x, long n, int *first)
{
    for (long i = 0; i < n; ++i) {
        if (x[i] == 0.0) {
            continue;
        }
        int e;
        (void)frexp(x[i], &e); /* x = m 2^e, m in [0.5, 1): x 2^(53 - e) is an integer */
        int k = 53 - e;
        while (integral_at(x[i], k - 1) && k > -1100) {
            k--; /* trailing zero bits */
        }
        if (*first || k > sc->k) {
            sc->k = k;
        }
        *first = 0;
    }
}

static void scale_check(hd_oracle_scale *sc, const double *x, long n)
{
    for (long i = 0; i < n; ++i) {
        double y = ldexp(x[i], sc->k);
        if (!isfinite(y) || fabs(y) > DBL_MAX / 4 || y != floor(y)) {
            sc->ok = 0;
        }
    }
}

static hd_oracle_scale common_scale(int dim, const double *a, int na, const double *b, int nb,
                                    const double *shift)
{
    hd_oracle_scale sc = {0, 1};
    int first = 1;
    scale_consider(&sc, a, (long)na * dim, &first);
    scale_consider(&sc, b, (long)nb * dim, &first);
    if (shift != NULL) {
        scale_consider(&sc, shift, dim, &first);
    }
    scale_check(&sc, a, (long)na * dim);
    scale_check(&sc, b, (long)nb * dim);
    if (shift != NULL) {
        scale_check(&sc, shift, dim);
    }
    return sc;
}

/* Builds the vertex LP on the scaled data. rays != 0 adds 2 dim columns rho_r+ and rho_r-, the
 * one for row r and sign sg with the single coefficient -sg in row r (so that
 * sum lambda a - sum mu b = shift + rho sg e_r), all fixed at 0 until opened by open_ray. The
 * objective is zero. */
static glp_prob *build(int dim, const double *a, int na, const double *b, int nb,
                       const double *shift, int k, int rays)
{
    glp_prob *p = glp_create_prob();
    int rows = dim + 2, cols = na + nb + (rays ? 2 * dim : 0);
    glp_add_rows(p, rows);
    glp_add_cols(p, cols);
    for (int r = 0; r < dim; ++r) {
        double v = shift != NULL ? ldexp(shift[r], k) : 0.0;
        glp_set_row_bnds(p, r + 1, GLP_FX, v, v);
    }
    glp_set_row_bnds(p, dim + 1, GLP_FX, 1.0, 1.0);
    glp_set_row_bnds(p, dim + 2, GLP_FX, 1.0, 1.0);
    int ind[HD_ORACLE_MAX_DIM + 3];
    double val[HD_ORACLE_MAX_DIM + 3];
    for (int j = 0; j < na + nb; ++j) {
        int in_a = j < na;
        const double *x = in_a ? a + (long)dim * j : b + (long)dim * (j - na);
        int len = 0;
        for (int r = 0; r < dim; ++r) {
            double v = ldexp(x[r], k);
            if (v != 0.0) {
                ind[++len] = r + 1;
                val[len] = in_a ? v : -v;
            }
        }
        ind[++len] = in_a ? dim + 1 : dim + 2;
        val[len] = 1.0;
        glp_set_mat_col(p, j + 1, len, ind, val);
        glp_set_col_bnds(p, j + 1, GLP_LO, 0.0, 0.0);
    }
    for (int c = 0; rays && c < 2 * dim; ++c) {
        ind[1] = c / 2 + 1;
        val[1] = c % 2 ? 1.0 : -1.0;
        glp_set_mat_col(p, na + nb + c + 1, 1, ind, val);
        glp_set_col_bnds(p, na + nb + c + 1, GLP_FX, 0.0, 0.0);
    }
    glp_set_obj_dir(p, GLP_MAX);
    return p;
}

/* Opens (or closes) ray column c: bounds [0, inf) and objective 1, or fixed at 0 and 0. */
static void open_ray(glp_prob *p, int col, int open)
{
    glp_set_col_bnds(p, col, open ? GLP_LO : GLP_FX, 0.0, 0.0);
    glp_set_obj_coef(p, col, open ? 1.0 : 0.0);
}

/* Solves exactly from the problem's current basis (the standard basis when fresh): returns the
 * glp_get_status value, or -1 on failure; *obj the objective. */
static int solve_exact(glp_prob *p, int fresh, double *obj)
{
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    if (fresh) {
        glp_std_basis(p);
    }
    if (glp_exact(p, &parm) != 0) {
        return -1;
    }
    *obj = glp_get_obj_val(p);
    return glp_get_status(p);
}

static int valid_args(int dim, const double *a, int na, const double *b, int nb)
{
    return dim >= 1 && dim <= HD_ORACLE_MAX_DIM && na >= 1 && nb >= 1 && a != NULL && b != NULL;
}

/* The exactly scaled problem for a pair (with the ray columns when rays != 0); NULL when the
 * arguments are invalid or no common power-of-two scaling makes the coordinates integers. */
static glp_prob *prepare(int dim, const double *a, int na, const double *b, int nb,
                         const double *shift, int rays)
{
    if (!valid_args(dim, a, na, b, nb)) {
        return NULL;
    }
    hd_oracle_scale sc = common_scale(dim, a, na, b, nb, shift);
    if (!sc.ok) {
        return NULL;
    }
    glp_term_out(GLP_OFF);
    return build(dim, a, na, b, nb, shift, sc.k, rays);
}

int hd_oracle_meet_dim(int dim, const double *a, int na, const double *b, int nb,
                       const double *shift)
{
    glp_prob *p = prepare(dim, a, na, b, nb, shift, 0);
    if (p == NULL) {
        return -2;
    }
    double obj = 0.0;
    int st = solve_exact(p, 1, &obj);
    glp_delete_prob(p);
    if (st == GLP_OPT || st == GLP_FEAS) {
        return 1;
    }
    return st == GLP_NOFEAS ? 0 : -2;
}

int hd_oracle_intersect(const double *a, int na, const double *b, int nb)
{
    return hd_oracle_meet_dim(3, a, na, b, nb, NULL);
}

int hd_oracle_intersect_dim(int dim, const double *a, int na, const double *b, int nb)
{
    return hd_oracle_meet_dim(dim, a, na, b, nb, NULL);
}

int hd_oracle_sign_dim(int dim, const double *a, int na, const double *b, int nb,
                       const double *shift)
{
    /* One problem: the feasibility solve, then each ray maximised in turn from the previous
     * basis (a closed ray is fixed at 0, so every basis stays meaningful). */
    glp_prob *p = prepare(dim, a, na, b, nb, shift, 1);
    if (p == NULL) {
        return -2;
    }
    double obj = 0.0;
    int st = solve_exact(p, 1, &obj), sign = -1;
    if (st != GLP_OPT) {
        sign = st == GLP_NOFEAS ? 1 : -2;
    }
    for (int c = 0; sign == -1 && c < 2 * dim; ++c) {
        int col = na + nb + c + 1;
        open_ray(p, col, 1);
        st = solve_exact(p, 0, &obj);
        if (st != GLP_OPT) {
            sign = -2;
        } else if (!(obj > 0.0)) {
            sign = 0;
        }
        open_ray(p, col, 0);
    }
    glp_delete_prob(p);
    return sign;
}

int hd_oracle_sign(const double *a, int na, const double *b, int nb)
{
    return hd_oracle_sign_dim(3, a, na, b, nb, NULL);
}

int hd_oracle_verdict_ok(int sign, double magnitude, double eps, double band_factor,
                         hd_verdict v)
{
    if (sign == 0) {
        return v == HD_TOUCHING;
    }
    if (sign != 1 && sign != -1) {
        return 0;
    }
    hd_verdict strict = sign > 0 ? HD_SEPARATED : HD_INTERSECTING;
    double hi = 2.0 * eps * (band_factor < 1.0 ? 1.0 : band_factor);
    if (magnitude > hi) {
        return v == strict;
    }
    if (magnitude < 0.5 * eps) {
        return v == HD_TOUCHING;
    }
    return v == strict || v == HD_TOUCHING;
}
