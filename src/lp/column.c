/* Out-of-line access to the columns and costs of lp/column.h. */
#include "lp/column.h"

void hdi_lp_column(const hdi_lp *lp, int id, double *col)
{
    if (lp->rows == HD_LP_ROWS_3D) {
        hdi_lp_column_m(lp, HD_LP_ROWS_3D, id, col);
    } else {
        hdi_lp_column_m(lp, lp->rows, id, col);
    }
}

double hdi_lp_cost(const hdi_lp *lp, int id)
{
    return hdi_lp_cost_of(lp, id);
}
