/* Derivatives of the signed distance with respect to both poses (docs/algorithms/gradient.md),
 * from the answer of hdi_sd_pair: the normal, the witnesses and the features that attain delta. */
#ifndef HD_CONTACT_GRADIENT_H
#define HD_CONTACT_GRADIENT_H

#include "contact/signed_distance.h"
#include "kernel/gjk_core.h"

/* The gradient of sd's signed distance in the world frame (hd_pose_gradient's convention: per
 * body, d delta / d translation, then d delta / d rotation about the body frame's origin, both in
 * world axes). unique certifies, to the doubles' resolution, that delta is differentiable here:
 *   - the features attaining delta meet in one point pair: vertex-face, face-vertex, edge-edge with
 *     the edges' sine above HD_PARALLEL_SINE, vertex-vertex, vertex-edge, edge-vertex, as
 *     classified at HD_FEATURE_ANGLE; the last three only while the pair is separated beyond the
 *     band (at contact the origin lies on a vertex or an edge of M, whose normal is not unique);
 *   - M = A - B has an interior, or the pair is separated beyond the band;
 *   - for an overlap, no facet of M other than sd's (normals HD_FEATURE_ANGLE apart) has a support
 *     value within HD_GRADIENT_TIE_REL size (plus the rounding allowance) of the depth: the
 *     facets in a cap around the normal (hdi_tie_each_cap_facet) when the expanding polytope
 *     bounds it, else a pass over every facet of M (hdi_sat_each_facet).
 * Otherwise unique is false and the gradient is that of the smooth piece sd's features define. */
void hdi_sd_gradient(const hdi_pair *pair, const hdi_sd_result *sd, hd_stats *stats,
                     hd_pose_gradient *out);

/* The gradient of the distance of hd_distance's answer (closest, in A's frame; the verdict
 * run's): a separated pair's is the signed distance's at the closest points, along
 * (witness_b - witness_a) / distance with the supporting features there; an intersecting pair's
 * is zero and unique (the distance is 0 around it), a touching pair's zero and not unique. */
void hdi_distance_gradient(const hdi_pair *pair, const hdi_closest *closest, hd_verdict verdict,
                           hd_stats *stats, hd_pose_gradient *out);

#endif
