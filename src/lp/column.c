/* Out-of-line access to the columns and costs of lp/column.h. */
#include "lp/column.h"

void hd_lp_column(const hd_lp *lp, int id, double *col)
{
    if (lp->rows == HD_LP_ROWS_3D) {
        hd_lp_column_m(lp, HD_LP_ROWS_3D, id, col);
    } else {
        hd_lp_column_m(lp, lp->rows, id, col);
    }
}

double hd_lp_cost(const hd_lp *lp, int id)
{
    return hd_lp_cost_of(lp, id);
}
