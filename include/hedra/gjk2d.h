/* hedra 2D: intersection and distance of two convex polygons given as raw point arrays, by GJK in
 * the plane. The hulls are implicit: the support mapping scans the points, so the arrays may hold
 * interior points, duplicates, collinear points or a single point, in any order. The 2D API takes
 * no radius (rounded shapes are 3D polytopes, hd_polytope_build_rounded): for rounded polygons in
 * one plane the 3D queries on flat polytopes (z = 0) with their radii give the planar verdict and
 * distance, but not the planar depth (a flat core plus a ball is a slab only 2 r thick). */
#ifndef HEDRA_GJK2D_H
#define HEDRA_GJK2D_H

#include "hedra/core.h"
#include "hedra/query.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What proves a 2D verdict, in the input coordinates; the same rules as hd_certificate with a
 * line in place of the plane:
 * - HD_SEPARATED: has_line; n.a <= offset - gap/2 for every point a of A and n.b >= offset + gap/2
 *   for every point b of B, with gap > eps (n unit, pointing from A towards B);
 * - HD_INTERSECTING: has_point; point = sum w_i a_i = sum v_j b_j with the convex weights on_a and
 *   on_b (indices into the input arrays a and b), and depth_bound > eps a proven lower bound of
 *   the penetration depth (the shortest translation that separates the polygons);
 * - HD_TOUCHING: has_line with gap >= -eps and has_point with |sum w_i a_i - sum v_j b_j| <= eps.
 * Fields of an absent part are zero. */
typedef struct hd_certificate2d {
    bool has_line;
    double normal[2];
    double offset;
    double gap;
    bool has_point;
    double point[2];
    hd_combination on_a;
    hd_combination on_b;
    double depth_bound;
} hd_certificate2d;

/* The answer of hd_collide2d. */
typedef struct hd_collide2d_result {
    hd_verdict verdict;
    hd_stop stop; /* HD_STOP_EARLY_EXIT, HD_STOP_CONVERGED or HD_STOP_REFINED */
    double eps;   /* touch_rel * scale, scale = largest absolute input coordinate */
    hd_certificate2d cert;
    hd_stats stats; /* iterations, support_calls, refine_steps */
} hd_collide2d_result;

/* The answer of hd_distance2d: hd_collide2d's fields and the distance. */
typedef struct hd_distance2d_result {
    hd_verdict verdict;
    hd_stop stop;
    double eps;
    double distance;     /* >= 0; 0 when the polygons touch or intersect */
    double witness_a[2]; /* closest points (a point pair within eps when touching, the common */
    double witness_b[2]; /* point when intersecting) */
    hd_certificate2d cert;
    hd_stats stats;
} hd_distance2d_result;

/* Intersection of conv(a) and conv(b), a: na points (x, y pairs), b: nb points: separated,
 * touching or intersecting under the touching band of core.h, with a certificate, and an early
 * exit as soon as the verdict is proven. tol may be NULL (defaults).
 * Errors: HD_ERR_NULL, HD_ERR_EMPTY (na or nb is 0), HD_ERR_INVALID_ARG (negative count or bad
 * tolerance), HD_ERR_TOO_LARGE (count > HD_MAX_POINTS), HD_ERR_NONFINITE,
 * HD_ERR_ITERATION_LIMIT. Never allocates. */
HD_API hd_status hd_collide2d(const double *a, int na, const double *b, int nb,
                              const hd_tolerance *tol, hd_collide2d_result *out);

/* The same verdict and certificate, plus the Euclidean distance and the closest points. */
HD_API hd_status hd_distance2d(const double *a, int na, const double *b, int nb,
                               const hd_tolerance *tol, hd_distance2d_result *out);

/* Independent brute-force check of a 2D certificate cert for verdict under the band eps
 * (r.verdict, r.eps and &r.cert of either result above) against the points (O(na + nb)),
 * allowing a few units of rounding. HD_OK or HD_ERR_CERTIFICATE; HD_ERR_NULL when cert is NULL. */
HD_API hd_status hd_certificate_check2d(const double *a, int na, const double *b, int nb,
                                        hd_verdict verdict, double eps,
                                        const hd_certificate2d *cert);

#ifdef __cplusplus
}
#endif

#endif
