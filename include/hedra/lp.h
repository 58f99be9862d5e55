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
 * verdict: as for hd_collide, with eps = tol.touch_rel * (largest absolute coordinate of S and T)
 *   and delta the signed distance (distance, or minus the penetration depth). Outside
 *   [-eps sqrt(dim), eps sqrt(dim)] the verdict is the exact answer for the given doubles; inside
 *   [-eps, eps] it is HD_TOUCHING; in between it is either the exact answer or, when the LP's
 *   bounds could not resolve it, HD_TOUCHING with undecided true (raw arrays carry no interior ball
 *   to bound the depth with, and the l1 distance LP bounds the distance only within sqrt(dim);
 *   see docs/algorithms/lp.md). For dim = 1 the band is exact.
 * f_min: the minimum of the source's f(x) = e^T (b - A x) over A x <= b, x >= 0 on the normalized
 *   coordinates sigma (x - c) (c the centre of the bounding box of S and T, sigma a power of two
 *   with sigma * extent in [1/2, 1)); 0 (up to 2^-46) exactly when K and L meet. f_min is not a
 *   distance: f_min / sqrt(dim) is NOT a lower bound on it, contrary to the source.
 * normal (unit, dim entries), gap and offset: the best separating-plane candidate read from a
 *   final basis' duals (phase 1's, the l1 distance LP's or a depth ray's), with gap recomputed on
 *   the points: gap = min_T n.t - max_S n.s and the plane n.x = offset halfway. When separated,
 *   gap > eps and distance_lower_bound = gap, a true lower bound on the Euclidean distance.
 *   When touching with undecided false, gap >= -eps. has_plane says whether a plane is given
 *   at all: always when separated (non-empty sets); false for empty sets and for a touching
 *   answer whose bases gave no plane, with a zero normal then.
 * has_point, point, weights_s (ns entries), weights_t (nt entries): has_point is true exactly
 *   when the verdict is intersecting or touching; the point and weights are then convex
 *   weights with sum w_s s ~= sum w_t t (to rounding; within eps when touching with
 *   undecided false, within eps sqrt(dim) when undecided); point is the midpoint of the two sums.
 * Caller-provided arrays (NULL to skip); zero elsewhere. depth_bound: when intersecting, a proven
 * lower bound > eps on the penetration depth; else 0. pivots: simplex iterations over every LP
 * solved. */
typedef struct hd_lp_result {
    hd_verdict verdict;
    bool undecided;
    bool has_plane;
    bool has_point;
    double f_min;
    double eps;
    double normal[HD_LP_MAX_DIM];
    double gap;
    double offset;
    double distance_lower_bound;
    double point[HD_LP_MAX_DIM];
    double depth_bound;
    int pivots;
} hd_lp_result;

/* s: ns points of dimension dim (row-major, dim doubles each); t: nt points. Either set may be
 * empty (count 0, pointer may be NULL): empty sets never collide (verdict HD_SEPARATED with no
 * plane, gap = distance_lower_bound = f_min = +infinity). Two single points are compared by
 * their exact distance. weights_s / weights_t may be NULL. tol may be NULL (defaults); its
 * max_iterations caps each simplex run (0: 1000 + 50 (dim+2)^2 + 4 (ns+nt)).
 * Errors: HD_ERR_NULL, HD_ERR_INVALID_ARG (dim outside 1..HD_LP_MAX_DIM, negative count, bad
 * tolerance), HD_ERR_TOO_LARGE, HD_ERR_NONFINITE, HD_ERR_ITERATION_LIMIT. Never allocates. */
HD_API hd_status hd_lp_intersect(int dim, const double *s, int ns, const double *t, int nt,
                                 const hd_tolerance *tol, hd_lp_result *out, double *weights_s,
                                 double *weights_t);

/* Containment in any dimension (the source's IsSubsetOf): *inside true when no point of T is
 * separated from conv(S) by more than eps (each point decided as by hd_lp_point_inside, so the
 * sqrt(dim) band above applies). Empty T is inside anything; a non-empty T is never inside an
 * empty S. */
HD_API hd_status hd_lp_contains(int dim, const double *s, int ns, const double *t, int nt,
                                const hd_tolerance *tol, bool *inside);

/* Point inside conv(S) in any dimension: HD_INTERSECTING inside deeper than eps, HD_TOUCHING on
 * the boundary within eps, HD_SEPARATED outside by more than eps (or S empty); eps =
 * tol.touch_rel * (largest absolute coordinate of S and the point), band as for
 * hd_lp_intersect. */
HD_API hd_status hd_lp_point_inside(int dim, const double *s, int ns, const double *point,
                                    const hd_tolerance *tol, hd_verdict *out);

#ifdef __cplusplus
}
#endif

#endif
