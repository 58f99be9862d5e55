/* The revised simplex kernel of the LP method (private). Every LP has the d + 2 rows of problem P1
 * of Kreuzer, "On Convex Polytopes, Collision Detection, and the Simplex Method", on normalized
 * points s^ = sigma (s - centre), t^ = sigma (t - centre) (sigma a power of two: exact):
 *     sum_i lambda_i s^_i - sum_j mu_j t^_j (+ special columns) = rhs[0..d-1]
 *     sum_i lambda_i = rhs[d],   sum_j mu_j = rhs[d+1]
 * Structural columns are generated from their points, never stored; besides them d + 2 slack
 * columns e_i and at most HD_LP_MAX_EXTRA extra ones (l1 residuals +-e_k, implicit, or one ray
 * column). Nothing allocates: an hdi_lp lives on the stack (8.7 KB, sized for d = 16; the fields a
 * 3D phase 1 touches come first, about 2 KB). Method: docs/algorithms/lp.md, sections 1-2. */
#ifndef HD_LP_KERNEL_H
#define HD_LP_KERNEL_H

#include "lp/problem.h"

/* Prepares lp for dim-dimensional points: sets, normalization (centre, sigma), pivot cap.
 * Costs, rhs and the starting basis are chosen by one of the hdi_lp_setup_* calls below. */
void hdi_lp_init(hdi_lp *lp, int dim, const hdi_lp_set *s, const hdi_lp_set *t,
                 const double *centre, double sigma, int cap);

/* The source's problem P2 (phase 1): rhs (0, .., 0, 1, 1), cost 1 on every slack, slack basis. */
void hdi_lp_setup_phase1(hdi_lp *lp);

/* min |sum lambda s^ - sum mu t^|_1 under the convexity rows: extra columns +-e_k of cost 1,
 * starting basis {s_js, t_jt, the sign-matching e_k} (with js = jt = 0, or a crash basis), whose
 * inverse is written down exactly. Needs ns, nt >= 1. */
void hdi_lp_setup_l1(hdi_lp *lp, int js, int jt);

/* From basis (a feasible basis of the rhs (0, .., 0, 1, 1) with objective 0, e.g. phase 1's
 * optimum) asks for max rho^ such that rho^ u lies in the normalized conv(S^) - conv(T^) (u a
 * unit vector): one extra column (-u, 0, 0) of cost -1; slacks are held at zero. The raw radius
 * is rho^ / sigma (the centre cancels because both convexity sums are 1). Returns
 * hdi_lp_refactor's result. */
int hdi_lp_setup_ray(hdi_lp *lp, const int *basis, const double *u);

/* Inverts the basis from its columns and recomputes xb. Returns 0, or -1 when it is singular. */
int hdi_lp_refactor(hdi_lp *lp);

/* After a run: keeps the updated inverse when it is as accurate as a fresh one (measured
 * residual), else re-inverts; x_B is refined either way. Returns 0, or -1 when the basis is
 * singular. */
int hdi_lp_settle(hdi_lp *lp);

/* Pivots every basic extra column out of the basis (degenerate pivots; x_B unchanged to
 * rounding). Returns 0, or -1 when a row has no structural column to pivot on. The inverse is
 * the product-form update: settle or refactor afterwards. */
int hdi_lp_drive_out_extras(hdi_lp *lp);

/* Runs the simplex loop from the current basis. */
hdi_lp_run_status hdi_lp_run(hdi_lp *lp);

/* y = c_B^T B^-1 for the current basis. */
void hdi_lp_duals(hdi_lp *lp);

/* c_B^T x_B. */
double hdi_lp_objective(const hdi_lp *lp);

#endif
