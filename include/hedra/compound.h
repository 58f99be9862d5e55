/* hedra compound bodies: several convex pieces moving as one body under one pose, and the queries
 * between two of them (docs/algorithms/compound.md). */
#ifndef HEDRA_COMPOUND_H
#define HEDRA_COMPOUND_H

#include <stdbool.h>

#include "hedra/contact.h"
#include "hedra/core.h"
#include "hedra/io.h"
#include "hedra/polytope.h"
#include "hedra/query.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A compound: count pieces, piece i the polytope pieces[i] placed in the body's frame by
 * poses[i] (a point x of the polytope's own frame is at R_i x + t_i in the body's frame), with a
 * tree of boxes over the pieces built once. Immutable after construction, safe to share between
 * threads. A query poses the whole body (body pose composed with each piece's pose).
 *
 * Ownership: hd_compound_build borrows the pieces: they must outlive the compound and are not
 * freed with it (one polytope may serve several pieces and several compounds). A compound read
 * from a file (hd_compound_read_obj) owns its pieces and frees them in hd_compound_destroy. */
typedef struct hd_compound hd_compound;

/* Largest number of pieces: bounds the tree's depth (at most 18 levels), so that every query's
 * descent runs on a fixed stack. */
#define HD_COMPOUND_MAX_PIECES (1 << 16)

/* Builds a compound. poses may be NULL (every piece in the body's frame as it is). Errors:
 * HD_ERR_NULL (pieces or out NULL, or a NULL piece), HD_ERR_EMPTY (count <= 0), HD_ERR_TOO_LARGE
 * (count > HD_COMPOUND_MAX_PIECES), hd_pose_validate's statuses for a piece's pose
 * (HD_ERR_NONFINITE, HD_ERR_BAD_POSE), HD_ERR_RANGE (a posed piece beyond HD_MAX_COORD),
 * HD_ERR_NO_MEMORY. *out is NULL on error. */
HD_API hd_status hd_compound_build(const hd_polytope *const *pieces, const hd_pose *poses,
                                   int count, hd_compound **out);

/* Frees a compound (and its pieces when it owns them); NULL is ignored. */
HD_API void hd_compound_destroy(hd_compound *compound);

HD_API int hd_compound_piece_count(const hd_compound *compound);

/* Piece i's polytope, and its pose in the body's frame into *pose (may be NULL); NULL for an
 * invalid i. */
HD_API const hd_polytope *hd_compound_piece(const hd_compound *compound, int i, hd_pose *pose);

/* The box of the whole body in its own frame. */
HD_API void hd_compound_bounds(const hd_compound *compound, double lo[3], double hi[3]);

/* The work of one query: pairs of tree nodes examined and narrow-phase queries run (pairs of
 * pieces whose boxes could not rule them out). A pair of compounds of n and m pieces runs at most
 * n m piece queries, and far fewer when only some pieces are near each other. */
typedef struct hd_compound_stats {
    long long node_pairs;
    long long piece_pairs;
} hd_compound_stats;

/* Boolean query: the compounds intersect when some pair of pieces intersects, touch when none
 * does and some pair touches (each pair's band eps is its own hd_collide's), and are separated
 * otherwise. piece_a, piece_b: the pair that decides (the first intersecting pair in the tree's
 * order, else the first touching one; -1 when separated); pair: that pair's hd_collide answer
 * with its certificate (checkable by hd_certificate_check on the two pieces at their world
 * poses, hd_compound_piece_pose). A separated verdict is proven pair by pair: by the boxes of the
 * tree (farther apart than the band) or by the pair's separating plane. */
typedef struct hd_compound_collide_result {
    hd_verdict verdict;
    int piece_a;
    int piece_b;
    hd_collide_result pair; /* zero when separated */
    hd_compound_stats stats;
} hd_compound_collide_result;

/* Distance: the smallest distance over the pairs of pieces (0 when a pair touches or
 * intersects), by branch and bound on the trees' box distances. piece_a, piece_b and pair: the
 * pair attaining it and its hd_distance answer (witnesses in the world frame); verdict: the
 * compounds' verdict as hd_compound_collide's (intersecting when any pair intersects). */
typedef struct hd_compound_distance_result {
    hd_verdict verdict;
    double distance;
    int piece_a;
    int piece_b;
    hd_distance_result pair;
    hd_compound_stats stats;
} hd_compound_distance_result;

/* Signed distance: the smallest signed distance over the pairs of pieces. For separated
 * compounds it is their distance; for overlapping ones minus the largest penetration depth of a
 * pair of pieces (the deepest pair), not the depth of the union (which the pieces' overlap with
 * each other makes ill-defined): moving B by -signed_distance * normal frees that pair (other
 * pairs may stay in contact); a solver resolves each pair in contact along its own normal, as
 * the points of hd_compound_contact_manifold give them (docs/algorithms/compound.md). piece_a,
 * piece_b and pair: the pair attaining it and its hd_signed_distance answer (normal, witnesses,
 * features of the two pieces, bounds); pair.verdict is the compounds'. With HD_QUERY_GRADIENT (here
 * and in hd_compound_distance) pair.gradient is that pair's, with its rotation parts about the body
 * frames' origins (the body poses' t): the gradient of the compounds' value where that pair alone
 * attains the least; where several pairs tie it is one of their gradients (a subgradient) and
 * unique says only whether the pair's own is. */
typedef struct hd_compound_signed_distance_result {
    double signed_distance;
    int piece_a;
    int piece_b;
    hd_signed_distance_result pair;
    hd_compound_stats stats;
} hd_compound_signed_distance_result;

/* One point of a compound's contact manifold: the point of its pair of pieces (hd_contact_point,
 * features of those pieces), the pieces it belongs to and that pair's normal. */
typedef struct hd_compound_contact_point {
    hd_contact_point contact;
    int piece_a;
    int piece_b;
    double normal[3];
} hd_compound_contact_point;

/* At most HD_MANIFOLD_MAX points for the body pair: the points of every pair of pieces in
 * contact (signed distance within its band or below), reduced to the deepest point, the point
 * farthest from it and the two that span the largest area with both (seen along normal, the
 * deepest pair's normal). pairs: the number of pairs of pieces in contact. count is 0 when no
 * pair is within its band. */
typedef struct hd_compound_manifold {
    int count;
    int pairs;
    double normal[3];
    hd_compound_contact_point points[HD_MANIFOLD_MAX];
} hd_compound_manifold;

/* The queries on compounds A and B under the body poses pose_a and pose_b (NULL: identity). opt
 * (may be NULL: defaults) is passed to every piece query except its cache (a cache belongs to
 * one pair of polytopes; the piece queries start cold); opt->workspace, when given, must suit
 * every pair of pieces (hd_workspace_create_for on the largest ones). Errors: HD_ERR_NULL,
 * hd_pose_validate's for the body poses, HD_ERR_INVALID_ARG (bad options), and the first error
 * of a piece query (HD_ERR_RANGE, HD_ERR_ITERATION_LIMIT, HD_ERR_WORKSPACE_FULL, ...); on error
 * *out holds no answer. Never allocates; deterministic (the tree's order). A polytope is a
 * compound of one piece (hd_compound_build with count 1). */
HD_API hd_status hd_compound_collide(const hd_compound *a, const hd_pose *pose_a,
                                     const hd_compound *b, const hd_pose *pose_b,
                                     const hd_options *opt, hd_compound_collide_result *out);
HD_API hd_status hd_compound_distance(const hd_compound *a, const hd_pose *pose_a,
                                      const hd_compound *b, const hd_pose *pose_b,
                                      const hd_options *opt, hd_compound_distance_result *out);
HD_API hd_status hd_compound_signed_distance(const hd_compound *a, const hd_pose *pose_a,
                                             const hd_compound *b, const hd_pose *pose_b,
                                             const hd_options *opt,
                                             hd_compound_signed_distance_result *out);
/* contact may be NULL. */
HD_API hd_status hd_compound_contact_manifold(const hd_compound *a, const hd_pose *pose_a,
                                              const hd_compound *b, const hd_pose *pose_b,
                                              const hd_options *opt,
                                              hd_compound_signed_distance_result *contact,
                                              hd_compound_manifold *out);

/* The world pose of piece i under the body pose (NULL: identity): body pose composed with the
 * piece's. HD_ERR_NULL, HD_ERR_INVALID_ARG for an invalid i. */
HD_API hd_status hd_compound_piece_pose(const hd_compound *compound, const hd_pose *body, int i,
                                        hd_pose *out);

/* How far the points xyz (count of them, in the body's frame) lie outside the union of the
 * pieces: for each point the distance to the nearest piece (0 when inside one or within its
 * band), and the largest over the points. vertex: the point attaining it (the first in order on
 * ties; -1 when every point is inside), piece: the nearest piece to it, witness: that piece's
 * point nearest to it; inside: the number of points at distance 0. Errors: HD_ERR_NULL,
 * HD_ERR_EMPTY (count <= 0), HD_ERR_TOO_LARGE (count > HD_MAX_POINTS), HD_ERR_NONFINITE, and
 * those of hd_distance. Unlike the queries above it allocates (one polytope of one point, freed
 * before it returns: HD_ERR_NO_MEMORY). */
typedef struct hd_enclosure_result {
    double distance;
    int vertex;
    int piece;
    double witness[3];
    int inside;
    hd_compound_stats stats;
} hd_enclosure_result;

HD_API hd_status hd_compound_enclosure(const hd_compound *compound, const double *xyz, int count,
                                       const hd_options *opt, hd_enclosure_result *out);

/* Reads a convex decomposition from a Wavefront OBJ file (as CoACD and V-HACD write them): each
 * "o" or "g" statement starts a piece (vertices and faces before the first one form a piece of
 * their own when there are any); a piece's points are the vertices its faces use, or, for a
 * piece without faces, the "v" lines that follow its statement. Each piece is the hull of its
 * points; a piece whose faces are not convex (a vertex of the piece more than
 * tol->convex_rel * scale outside a face's plane on the side opposite to the others) is
 * HD_ERR_NOT_CONVEX at the line of that face. The compound owns its pieces (identity poses).
 * tol may be NULL (defaults). Errors: those of hd_read_points, HD_ERR_NOT_CONVEX,
 * HD_ERR_TOO_LARGE (more than HD_COMPOUND_MAX_PIECES pieces), a piece's hd_polytope_build
 * status (at its statement's line); err (may be NULL) holds file, line and reason. */
HD_API hd_status hd_compound_read_obj(const char *path, const hd_tolerance *tol, hd_compound **out,
                                      hd_parse_error *err);

/* The same from an open stream (not closed here); name is used in error messages. */
HD_API hd_status hd_compound_read_obj_stream(FILE *fp, const char *name, const hd_tolerance *tol,
                                             hd_compound **out, hd_parse_error *err);

#ifdef __cplusplus
}
#endif

#endif
