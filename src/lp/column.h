/* The columns of the LP (points of S and T, slacks, extra columns) and their costs, built on the
 * fly from the point sets: shared by the kernel (lp/kernel.c) and the pricing (lp/price.c). */
#ifndef HD_LP_COLUMN_H
#define HD_LP_COLUMN_H

#include <stddef.h>

#include "lp/problem.h"

/* The explicit column of id (rows entries). */
void hdi_lp_column(const hdi_lp *lp, int id, double *col);

/* Cost of column id. */
double hdi_lp_cost(const hdi_lp *lp, int id);

/* The rows of every 3D LP. */
#define HD_LP_ROWS_3D 5

/* Normalised column of point j of set k: (+-sigma (p - centre), e_{d+k}); d a constant in the
 * 3D instantiation. */
HD_LP_INLINE void hdi_lp_point_column_d(const hdi_lp *lp, const int d, int k, int j, double *col)
{
    const hdi_lp_set *set = &lp->set[k];
    double s = k == 0 ? lp->sigma : -lp->sigma;
    if (set->rot != NULL) {
        double p[3];
        hdi_lp_set_point(set, 3, j, p);
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

/* The explicit column of id, m = rows (a constant in the 3D instantiation). */
HD_LP_INLINE void hdi_lp_column_m(const hdi_lp *lp, const int m, int id, double *col)
{
    int ns = lp->set[0].count, n = hdi_lp_structural_count(lp);
    if (id < n) {
        int k = id < ns ? 0 : 1;
        hdi_lp_point_column_d(lp, m - 2, k, id - k * ns, col);
        return;
    }
    for (int i = 0; i < m; ++i) {
        col[i] = 0.0;
    }
    if (id < n + m) {
        col[id - n] = 1.0;
    } else if (lp->extra_unit) {
        int e = id - n - m;
        col[e >> 1] = (e & 1) ? -1.0 : 1.0;
    } else {
        const double *e = lp->extra[id - n - m];
        for (int i = 0; i < m; ++i) {
            col[i] = e[i];
        }
    }
}

/* Cost of column id. */
HD_LP_INLINE double hdi_lp_cost_of(const hdi_lp *lp, int id)
{
    int n = hdi_lp_structural_count(lp);
    if (id < n) {
        return 0.0;
    }
    if (id < n + lp->rows) {
        return lp->slack_cost;
    }
    return lp->extra_cost[id - n - lp->rows];
}

#endif
