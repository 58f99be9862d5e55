/* hedra contact queries: signed distance, exact penetration depth and normal with certified
 * bounds, and the contact manifold of a pair of posed polytopes (docs/algorithms/contact.md). */
#ifndef HEDRA_CONTACT_H
#define HEDRA_CONTACT_H

#include <stdbool.h>

#include "hedra/core.h"
#include "hedra/polytope.h"
#include "hedra/query.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A vertex, edge or face of one polytope, by the indices of hd_polytope_vertices,
 * hd_polytope_edge and hd_polytope_face. */
typedef enum hd_feature_type {
    HD_FEATURE_VERTEX = 0,
    HD_FEATURE_EDGE = 1,
    HD_FEATURE_FACE = 2
} hd_feature_type;

typedef struct hd_feature_id {
    hd_feature_type type;
    int index;
} hd_feature_id;

HD_API const char *hd_feature_type_str(hd_feature_type type); /* "vertex", "edge", "face" */

/* How the depth of an overlapping pair was computed (see hd_signed_distance). */
typedef enum hd_depth_method {
    HD_DEPTH_NONE = 0, /* separated: the distance is GJK's */
    HD_DEPTH_EPA = 1,  /* expanding polytope run to convergence, then the exact facet of A - B */
    HD_DEPTH_SAT = 2   /* the least support value over every facet plane of A - B */
} hd_depth_method;

/* The answer of hd_signed_distance: the signed distance of a pair and what attains it; every
 * vector in the world frame. The three regimes, for the band eps (hd_tolerance):
 * - separated (verdict HD_SEPARATED, signed_distance > eps): signed_distance is the Euclidean
 *   distance, normal the direction from witness_a to witness_b, the closest points of A and B;
 *   lower and upper are GJK's proven distance bounds; method is HD_DEPTH_NONE.
 * - touching (HD_TOUCHING, |signed_distance| <= eps): the pair is within eps of contact on either
 *   side; the fields mean what they mean in the regime of the sign of signed_distance (method
 *   HD_DEPTH_NONE when it is GJK's distance, the depth method when it is a depth).
 * - intersecting (HD_INTERSECTING, signed_distance < -eps): signed_distance is minus the
 *   penetration depth (the length of the shortest translation of B that makes the pair touch:
 *   the distance from the origin to the boundary of M = A - B), normal the normal of the facet of
 *   M that attains it (moving B by -signed_distance * normal makes the pair touch), witness_a and
 *   witness_b the deepest points along the normal; lower and upper bound minus the depth.
 *
 * signed_distance delta: the computed value, not rounded to 0 inside the band: it is continuous
 *   through contact.
 * normal n: unit, from A towards B in both regimes: the outward normal of M at its point nearest
 *   to the origin. When M has no interior (two flat or lower-dimensional polytopes that span no
 *   volume together) and the pair touches, n is a normal of M's plane or line when one exists;
 *   for two coincident points it is (1, 0, 0).
 * witness_b - witness_a = delta * n (to rounding; to 1e-9 size where a face's foot point is
 *   located by a solve).
 * lower <= delta <= upper: bounds on the signed distance itself, proven with the rounding of every
 *   computed value accounted for (a few units of 2^-53 times the magnitude of the coordinates in
 *   A's frame, see docs/algorithms/contact.md), valid in every regime; for an overlap the exact
 *   methods make them a few rounding units apart (lower = -(upper bound of the depth)).
 * feature_a, feature_b: the features that attain delta: the supporting feature of A along n and
 *   that of B along -n (a face when n is its normal, an edge perpendicular to n, else a vertex;
 *   angles within 1e-9 radian count as exact). For an overlap of generic position they are a
 *   face and a vertex, a vertex and a face, or two edges.
 * rounded polytopes (hd_polytope_build_rounded, R = r_A + r_B): signed_distance, lower and upper
 *   are the cores' minus R (exact: the Minkowski difference of the rounded shapes is the cores'
 *   plus a ball of radius R), normal, features, method and size are the cores', the witnesses lie
 *   on the rounded surfaces (the cores' moved by r_A along n and by r_B against it), the verdict is
 *   signed_distance's against the band; the gradient is the cores' (the formula holds unchanged).
 * size: the diagonal of a box holding both polytopes, taken in A's frame around A's box and the
 *   box enclosing B's rotated box (not the world bounding box: it can differ from that by tens of
 *   percent); the accuracy contract is |delta - exact| <= 1e-9 size and
 *   h_M(n) - depth <= 1e-9 size for an overlap. */
typedef struct hd_signed_distance_result {
    hd_verdict verdict;
    double signed_distance;
    double normal[3];
    double witness_a[3];
    double witness_b[3];
    double lower;
    double upper;
    hd_feature_id feature_a;
    hd_feature_id feature_b;
    hd_depth_method method;
    double eps; /* the touching band's half-width: touch_rel * scale */
    double size;
    hd_stats stats;
    hd_pose_gradient gradient; /* with HD_QUERY_GRADIENT in opt->flags, else all zero */
} hd_signed_distance_result;

/* Signed distance, normal, witnesses, bounds and features of a pair. Poses may be NULL
 * (identity); opt may be NULL (defaults). opt->algo is not used but must be valid; opt->cache
 * warm-starts the query (the same hd_cache as hd_collide's: one per ordered pair and thread);
 * opt->flags: HD_QUERY_BRUTE_SUPPORT as for hd_collide, HD_QUERY_DEPTH_SAT for the
 * separating-axis method. opt->workspace is optional: without it the expanding polytope holds
 * HD_CONTACT_STACK_VERTICES inner vertices on the stack, with one it may grow to a quarter of the
 * workspace's capacity; a run that still does not converge (a degenerate or very large inner
 * polytope) is finished by the separating-axis method, which is exact and needs no memory, so no
 * valid input fails for lack of scratch. Errors: those of hd_collide (HD_ERR_NULL,
 * HD_ERR_BAD_POSE, HD_ERR_NONFINITE, HD_ERR_INVALID_ARG, HD_ERR_RANGE), and
 * HD_ERR_ITERATION_LIMIT when GJK reaches its cap. On error *out holds no answer. */
HD_API hd_status hd_signed_distance(const hd_polytope *a, const hd_pose *pose_a,
                                    const hd_polytope *b, const hd_pose *pose_b,
                                    const hd_options *opt, hd_signed_distance_result *out);

/* The rates of change of a contact's signed distance, normal and witnesses under a motion of both
 * bodies, for optimisers that use second order (docs/algorithms/gradient.md, section 4).
 * motion = (tau_A, theta_A, tau_B, theta_B): translation and rotation rates about each frame's
 * origin in world axes, hd_pose_gradient's convention. contact: the answer of hd_signed_distance
 * for the same polytopes and poses (poses may be NULL: identity); its features must meet in one
 * point pair: vertex-face, face-vertex, edge-edge (not parallel), or, for a signed distance
 * above 0, vertex-vertex, vertex-edge, edge-vertex. The witnesses' rates are those of the
 * reported closest (or deepest) points. Errors: HD_ERR_NULL, HD_ERR_NONFINITE (a non-finite
 * motion), HD_ERR_BAD_POSE, HD_ERR_INVALID_ARG (another feature pair, a feature index out of
 * range, parallel edges, a vertex case at a signed distance of 0 or below). */
typedef struct hd_contact_rates {
    double signed_distance;
    double normal[3];
    double witness_a[3];
    double witness_b[3];
} hd_contact_rates;

HD_API hd_status hd_signed_distance_rates(const hd_polytope *a, const hd_pose *pose_a,
                                          const hd_polytope *b, const hd_pose *pose_b,
                                          const hd_signed_distance_result *contact,
                                          const double motion[12], hd_contact_rates *out);

#define HD_CONTACT_STACK_VERTICES 128

/* A workspace capacity (hd_workspace_create) with which the contact queries on A and B never
 * run out of scratch: hd_contact_manifold's clipping of their largest faces, and an expanding
 * polytope of at least 1024 inner vertices. 0 for a NULL argument. */
HD_API int hd_contact_workspace_capacity(const hd_polytope *a, const hd_polytope *b);

/* One point of a contact manifold (world frame). point lies between the two surfaces, half-way
 * along n between the point of the incident face and its projection onto the reference face;
 * separation is their signed distance along n (negative when penetrating). feature_a and
 * feature_b name what produced the point, so that a point keeps its ids from frame to frame
 * while the contact persists: a vertex of the incident face inside the reference face (vertex
 * and face), a vertex of the reference face inside the incident face (face and vertex), or an
 * edge of one clipped by an edge of the other (two edges). */
typedef struct hd_contact_point {
    double point[3];
    double separation;
    hd_feature_id feature_a;
    hd_feature_id feature_b;
} hd_contact_point;

#define HD_MANIFOLD_MAX 4

/* A contact manifold for a physics solver: count points (0 when the pair is separated by more
 * than eps; 1 for an edge-edge contact or a vertex against a face), all with the contact's normal.
 * Construction (docs/algorithms/contact.md): the reference face is the face of the depth's facet
 * (A's face for face-vertex and face-face facets, B's for vertex-face; for an edge-edge facet a
 * face at either supporting feature within about 2.6 degrees of the normal, so that nearly
 * parallel faces stay a face contact), the incident face is the face of the other polytope at its
 * supporting feature most anti-parallel to it, the incident
 * polygon is clipped by the side planes of the reference face (Sutherland-Hodgman), points above
 * the reference plane by more than eps are dropped, and more than four are reduced to the deepest
 * point and the three that span the largest area with it. Rounded polytopes: the cores' manifold
 * with the band widened by R = r_A + r_B, each point moved half-way between the rounded surfaces
 * ((r_A - r_B) / 2 along n) and its separation less R. */
typedef struct hd_manifold {
    int count;
    double normal[3];
    hd_contact_point points[HD_MANIFOLD_MAX];
} hd_manifold;

/* hd_signed_distance and the manifold of its answer. contact may be NULL when only the manifold
 * is wanted. Errors as hd_signed_distance, and HD_ERR_WORKSPACE_FULL when the reference and
 * incident faces have more than 64 vertices together and opt->workspace is missing or smaller
 * than hd_contact_workspace_capacity(a, b). */
HD_API hd_status hd_contact_manifold(const hd_polytope *a, const hd_pose *pose_a,
                                     const hd_polytope *b, const hd_pose *pose_b,
                                     const hd_options *opt, hd_signed_distance_result *contact,
                                     hd_manifold *out);

#ifdef __cplusplus
}
#endif

#endif
