/* GLPK peer for the LP method: "do conv(A) and conv(B) intersect" as the feasibility of the vertex
 * linear program  sum_i x_i a_i = sum_j y_j b_j,  sum x = sum y = 1,  x, y >= 0, with both vertex
 * sets posed in the world frame, solved by glp_simplex (primal simplex, presolver off, messages
 * off) as GLPK's reference manual shows. The problem is built per query: GLPK has no other way to
 * take new coordinates, and that cost is part of using it. Floating point with GLPK's default
 * tolerances, so contact within ~1e-7 of the size may go either way. */
#include <glpk.h>
#include <stdlib.h>
#include <string.h>

#include "peers/peers.h"

typedef hd_bench_point_set hd_glpk_shape;

/* Appends the 4 entries of column j: sign * (posed point) in rows 1..3 and 1 in row conv_row. */
static void hd_glpk_column(const hd_bench_pose *p, const double *v, double sign, int j,
                           int conv_row, int *ia, int *ja, double *ar, int *k)
{
    for (int r = 0; r < 3; ++r) {
        ++*k;
        ia[*k] = r + 1;
        ja[*k] = j;
        ar[*k] = sign * (p->r[3 * r] * v[0] + p->r[3 * r + 1] * v[1] + p->r[3 * r + 2] * v[2] +
                         p->t[r]);
    }
    ++*k;
    ia[*k] = conv_row;
    ja[*k] = j;
    ar[*k] = 1.0;
}

static int hd_glpk_query(const void *a, const hd_bench_pose *pa, const void *b,
                         const hd_bench_pose *pb, hd_bench_answer *out)
{
    const hd_glpk_shape *sa = a, *sb = b;
    int ncols = sa->n + sb->n;
    int nnz = 4 * ncols;
    int *ia = malloc(sizeof(int) * (size_t)(nnz + 1));
    int *ja = malloc(sizeof(int) * (size_t)(nnz + 1));
    double *ar = malloc(sizeof(double) * (size_t)(nnz + 1));
    int rc = HD_BENCH_FAILED;
    if (ia == NULL || ja == NULL || ar == NULL) {
        goto done;
    }
    glp_prob *lp = glp_create_prob();
    glp_add_rows(lp, 5);
    for (int r = 1; r <= 5; ++r) {
        double rhs = r <= 3 ? 0.0 : 1.0;
        glp_set_row_bnds(lp, r, GLP_FX, rhs, rhs);
    }
    glp_add_cols(lp, ncols);
    int k = 0;
    for (int j = 1; j <= ncols; ++j) {
        glp_set_col_bnds(lp, j, GLP_LO, 0.0, 0.0);
        if (j <= sa->n) {
            hd_glpk_column(pa, sa->xyz + 3 * (j - 1), 1.0, j, 4, ia, ja, ar, &k);
        } else {
            hd_glpk_column(pb, sb->xyz + 3 * (j - 1 - sa->n), -1.0, j, 5, ia, ja, ar, &k);
        }
    }
    glp_load_matrix(lp, k, ia, ja, ar);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    if (glp_simplex(lp, &parm) == 0) {
        int status = glp_get_status(lp);
        memset(out, 0, sizeof *out);
        out->distance = -1.0;
        out->iterations = glp_get_it_cnt(lp);
        out->support_calls = -1;
        if (status == GLP_OPT || status == GLP_FEAS) {
            out->verdict = 2;
            rc = HD_BENCH_OK;
        } else if (status == GLP_NOFEAS) {
            out->verdict = 0;
            rc = HD_BENCH_OK;
        }
    }
    glp_delete_prob(lp);
done:
    free(ia);
    free(ja);
    free(ar);
    return rc;
}

int hd_bench_glpk_methods(hd_bench_method *list, int capacity)
{
    if (capacity < 1) {
        return 0;
    }
    memset(list, 0, sizeof *list);
    list[0].name = "glpk";
    list[0].library = "GLPK (glp_simplex)";
    list[0].kind = HD_BENCH_BOOLEAN;
    list[0].create = hd_bench_point_set_create;
    list[0].destroy = hd_bench_point_set_destroy;
    list[0].query = hd_glpk_query;
    return 1;
}
