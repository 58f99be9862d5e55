/* hedra LP method: intersection of the convex hulls of two vertex sets in any dimension, by the
 * simplex method (source: "On Convex Polytopes, Collision Detection, and the Simplex Method"). */
#ifndef HEDRA_LP_H
#define HEDRA_LP_H

#include "hedra/core.h"
#include "hedra/query.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest dimension of the raw-array API; the LP has HD_LP_MAX_DIM + 2 rows at most. */
#define HD_LP_MAX_DIM 16

/* Answer of hd_lp_intersect for K = conv(S), L = conv(T) in R^dim.
 * verdict: as for hd_collide, with eps = tol.touch_rel * (largest absolute coordinate).
 * f_min: the minimum of f(x) = e^T (b - A x) over A x <= b, x >= 0 (0 when K and L meet).
 * When separated: normal (unit, dim entries) and gap > eps with max_S n.s + gap <= min_T n.t,
 *   read from the final basis' dual values; distance_lower_bound = gap, a true lower bound on the
 *   Euclidean distance (the source's f_min / sqrt(dim) is not one; see docs/ALGORITHMS.md).
 * When intersecting or touching: weights_s (ns entries) and weights_t (nt entries), convex, with
 *   sum w_s s = sum w_t t = point (dim entries), caller-provided arrays (NULL to skip).
 * pivots: simplex iterations. */
typedef struct hd_lp_result {
    hd_verdict verdict;
    double f_min;
    double eps;
    double normal[HD_LP_MAX_DIM];
    double gap;
    double distance_lower_bound;
    double point[HD_LP_MAX_DIM];
    double depth_bound;
    int pivots;
} hd_lp_result;

/* s: ns points of dimension dim (row-major, dim doubles each); t: nt points. Either set may be
 * empty (count 0, pointer may be NULL): empty sets never collide (verdict HD_SEPARATED with no
 * plane, gap = +infinity). weights_s / weights_t may be NULL. tol may be NULL.
 * Errors: HD_ERR_NULL, HD_ERR_INVALID_ARG (dim outside 1..HD_LP_MAX_DIM), HD_ERR_TOO_LARGE,
 * HD_ERR_NONFINITE, HD_ERR_ITERATION_LIMIT. Never allocates. */
hd_status hd_lp_intersect(int dim, const double *s, int ns, const double *t, int nt,
                          const hd_tolerance *tol, hd_lp_result *out, double *weights_s,
                          double *weights_t);

/* Containment in any dimension (the source's IsSubsetOf): *inside = 1 when every point of T lies
 * in conv(S) within eps. Empty T is inside anything; a non-empty T is never inside an empty S. */
hd_status hd_lp_contains(int dim, const double *s, int ns, const double *t, int nt,
                         const hd_tolerance *tol, int *inside);

/* Point inside conv(S) in any dimension: HD_INTERSECTING inside, HD_TOUCHING on the boundary
 * within eps, HD_SEPARATED outside (or S empty). */
hd_status hd_lp_point_inside(int dim, const double *s, int ns, const double *point,
                             const hd_tolerance *tol, hd_verdict *out);

#ifdef __cplusplus
}
#endif

#endif
