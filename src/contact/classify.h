/* The shared contact classifier (classify.c): called by any algorithm whose own evidence cannot
 * place the signed distance delta outside [-eps, eps]. */
#ifndef HD_CONTACT_CONTACT_H
#define HD_CONTACT_CONTACT_H

#include "kernel/gjk_core.h"

/* Decides separated / touching / intersecting from scratch, from distance bounds (GJK) and
 * penetration-depth bounds (expanding polytope); fills the certificate in A's frame and sets
 * out->stop = HD_STOP_REFINED. */
hd_status hdi_contact_classify(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out);

/* The same for callers that already ran GJK (gjk/gjk.c): it continues from their state. */

/* Decides separated / touching / intersecting from st (any end of hdi_gjk_iterate; GJK is run on
 * further when its bounds do not yet place the distance side), fills the verdict and certificate
 * in A's frame, sets out->stop = HD_STOP_REFINED and adds its work to out->stats (support_calls,
 * refine_steps). With closest (NULL for hd_collide), also the distance and the witnesses (the
 * closest points when separated, a point pair within eps when touching, the common point when
 * intersecting). */
hd_status hdi_contact_refine(const hdi_pair *pair, hdi_gjk_state *st, hdi_closest *closest,
                             hd_collide_result *out);

/* For an algorithm's own touching or intersecting answer in out (A's frame): checks in O(k) that
 * its point certificate's two convex combinations are within eps of each other, as
 * hd_certificate_check will require (weights from an ill-conditioned basis or simplex, with
 * coordinates spanning many orders of magnitude, can miss that by far more than eps). When they
 * are not, the answer is replaced by the contact classifier's (hdi_contact_classify), which gives
 * a certified answer or HD_ERR_ITERATION_LIMIT. A separated answer is returned as it is. */
hd_status hdi_contact_confirm(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out);

/* For a pair every algorithm left undecided (HD_ERR_ITERATION_LIMIT): a proof that it overlaps
 * by more than eps, from the facets of M and GJK's common point (contact/overlap.c). Returns 1
 * with out's verdict (HD_INTERSECTING) and certificate (A's frame) filled and GJK's work added to
 * out->stats; 0, out's verdict untouched, when the pair is too large for it (HD_OVERLAP_WORK_MAX),
 * the bound does not clear eps, a candidate normal cannot be trusted, or no common point is found.
 * The caller checks the certificate before answering. */
int hdi_overlap_prove(const hdi_pair *pair, hd_collide_result *out);

/* The depth bound of hdi_overlap_prove alone: 1 with a proven lower bound on the depth above eps
 * in *depth; 0 under the same conditions as hdi_overlap_prove's bound. */
int hdi_overlap_depth_bound(const hdi_pair *pair, double *depth);

#endif
