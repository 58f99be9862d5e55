/* Pricing of the LP method's revised simplex (private; lp/price.c). */
#ifndef HD_LP_PRICE_H
#define HD_LP_PRICE_H

#include "lp/kernel.h"

/* Reduced cost of column id from its explicit column (needs current duals lp->y). */
double hd_lp_reduced_cost(const hd_lp *lp, int id);

/* Dantzig's rule on folded reduced costs, with partial pricing: the entering column id whose
 * reduced cost is below -tol (to be confirmed from its explicit column), or -1. */
int hd_lp_price_dantzig(hd_lp *lp, double tol);

/* Dantzig's rule with each candidate confirmed from its explicit column (the fallback when a
 * folded winner fails confirmation), or -1. */
int hd_lp_price_accurate(hd_lp *lp, double tol);

/* Bland's rule: the smallest column id with a reduced cost below -tol, or -1. */
int hd_lp_price_bland(hd_lp *lp, double tol);

#endif
