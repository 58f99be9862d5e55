/* Pricing of the LP method's revised simplex (private; lp/price.c). */
#ifndef HD_LP_PRICE_H
#define HD_LP_PRICE_H

#include "lp/problem.h"

/* Index of a point of set k maximising u . p, u in the common frame (hill climbing when the set
 * has a polytope, else a scan). */
int hdi_lp_support(hdi_lp *lp, int k, const double *u);

/* The gap of direction n (any length; the common frame): min_T u.t - max_S u.s with u = n / |n|,
 * evaluated on the points the support mappings pick. -inf for a zero or non-finite n. */
double hdi_lp_gap_along(hdi_lp *lp, const double *n, double *max_s);

/* The same gap evaluated on given support points: js of S (maximising n . s) and jt of T
 * (minimising n . t), e.g. the ones the last full pricing found for n = y_x. */
double hdi_lp_gap_at(const hdi_lp *lp, const double *n, int js, int jt, double *max_s);

/* Reduced cost of column id from its explicit column (needs current duals lp->y). */
double hdi_lp_reduced_cost(const hdi_lp *lp, int id);

/* Dantzig's rule on folded reduced costs, with partial pricing: the entering column id whose
 * reduced cost is below -tol (to be confirmed from its explicit column), or -1. */
int hdi_lp_price_dantzig(hdi_lp *lp, double tol);

/* Dantzig's rule with each candidate confirmed from its explicit column (the fallback when a
 * folded winner fails confirmation), or -1. */
int hdi_lp_price_accurate(hdi_lp *lp, double tol);

/* Bland's rule: the smallest column id with a reduced cost below -tol, or -1. */
int hdi_lp_price_bland(hdi_lp *lp, double tol);

#endif
