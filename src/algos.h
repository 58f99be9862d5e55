/* Entry points of the algorithm modules, called by the query dispatcher (query.c) after
 * hd_pair_init succeeded. Each fills *out in A's local frame (certificate normal, point,
 * witnesses); the dispatcher maps them to the world frame. On entry *out is zeroed except
 * out->algo, out->eps and out->distance = -1. */
#ifndef HD_ALGOS_H
#define HD_ALGOS_H

#include "pair.h"

/* gjk.c */
hd_status hd_gjk_collide(const hd_pair *pair, const hd_options *opt, hd_result *out);
hd_status hd_gjk_distance(const hd_pair *pair, const hd_options *opt, hd_result *out);

/* contact.c: the shared contact classifier. Called by any algorithm whose own evidence cannot
 * place the signed distance delta outside [-eps, eps]: decides separated / touching /
 * intersecting from distance bounds (GJK) and penetration-depth bounds (expanding polytope),
 * fills the certificate and sets out->stop = HD_STOP_REFINED. */
hd_status hd_contact_classify(const hd_pair *pair, const hd_options *opt, hd_result *out);

/* cddual.c */
hd_status hd_cddual_collide(const hd_pair *pair, const hd_options *opt, hd_result *out);

/* gap.c: directional gap, CD-Dual section 6. dir is the direction in A's frame (query.c rotates
 * the caller's world direction and sets out->direction); HD_ERR_UNSUPPORTED when A - B is flat
 * (see hd_gap). */
hd_status hd_cddual_gap(const hd_pair *pair, const double dir[3], const hd_options *opt,
                        hd_gap_result *out);

/* lp_query.c: the LP method on two hd_polytopes (3D) */
hd_status hd_lp_collide(const hd_pair *pair, const hd_options *opt, hd_result *out);

#endif
