/* Shared by the query module's public entry points (query.c, query/contact.c). */
#ifndef HD_QUERY_INTERNAL_H
#define HD_QUERY_INTERNAL_H

#include "kernel/gjk_core.h"
#include "support/pair.h"

/* The argument checks every query shares, and the pair in A's frame: a NULL opt becomes the
 * defaults (stored in *defaults, *opt pointed at them), an invalid algo is HD_ERR_INVALID_ARG,
 * then hdi_pair_init's checks (NULL polytopes, poses, tolerances, range). */
hd_status hdi_query_prepare(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                            const hd_pose *pose_b, const hd_options **opt, hd_options *defaults,
                            hdi_pair *pair);

/* r_A + r_B of the pair's rounded shapes: 0 for sharp polytopes, whose queries then run as they
 * always did (inline: every query asks). */
static inline double hdi_rounded_sum(const hdi_pair *pair)
{
    return pair->a->radius + pair->b->radius;
}

/* For a pair of rounded shapes (hdi_rounded_sum > 0): out holds an algorithm's answer for the
 * cores (A's frame); replaces it by the answer for the rounded shapes, with the certificate that
 * hd_certificate_check verifies for them (hedra/query.h). closest (NULL for hd_collide) gets the
 * rounded distance and witnesses. Errors: HD_ERR_ITERATION_LIMIT (GJK on the cores). */
hd_status hdi_rounded_collide(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out,
                              hdi_closest *closest);

/* hd_gap for a rounded pair (A's frame; s unit): the travel along +-s to first contact (the
 * pair apart) or to separate (touching or overlapping) of the rounded shapes, whose verdict is
 * given; stats add the line's GJK runs. Errors: HD_ERR_ITERATION_LIMIT. */
hd_status hdi_rounded_gap(const hdi_pair *pair, const hd_options *opt, hd_verdict verdict,
                          const double s[3], hd_gap_result *out);

/* The signed distance of the point p (A's frame) to A's core (the hull, without the radius):
 * the distance outside, with closest the nearest point of the core (GJK on the pair (A, {p}) run
 * to convergence, eps its band); minus the depth inside a solid, closest then p. */
hd_status hdi_point_core_distance(const hd_polytope *a, const double p[3], double eps,
                                  const hd_options *opt, double *signed_distance,
                                  double closest[3]);

#endif
