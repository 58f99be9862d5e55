/* hedra motion queries: certified time of impact of two moving polytopes (both may rotate), the
 * linear shape cast, and the ray cast against one posed polytope (docs/algorithms/motion.md). */
#ifndef HEDRA_MOTION_H
#define HEDRA_MOTION_H

#include <stdbool.h>

#include "hedra/compound.h"
#include "hedra/contact.h"
#include "hedra/core.h"
#include "hedra/polytope.h"
#include "hedra/query.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A body's motion over t in [0, 1], as a twist: at t = 0 the body has pose0; a point p of the
 * body (world position p at t = 0) is at
 *     p(t) = c + exp(t [w]x) (p - c) + t v,
 * a turn at the constant angular velocity w (world axes, radians per unit of t, any number of
 * turns) about the centre c, which itself moves with the velocity v. The body's pose at t is
 * R(t) = exp(t [w]x) R0, T(t) = c + exp(t [w]x) (T0 - c) + t v (hd_motion_pose). With c = T0
 * the frame origin moves on a straight line from T0 to T0 + v. */
typedef struct hd_motion {
    hd_pose pose0;
    double v[3];
    double w[3];
    double c[3];
} hd_motion;

/* The motion from pose0 to pose1: frame origin on a straight line, rotation at constant angular
 * velocity along the shorter arc, w = log(R1 R0^T) (angle in [0, pi]; at exactly pi one of the
 * two axes), c = T0, v = T1 - T0. A turn of more than half a revolution cannot be given by two
 * poses: build the hd_motion directly. Errors: HD_ERR_NULL, HD_ERR_NONFINITE, HD_ERR_BAD_POSE
 * (hd_pose_validate with the default tolerance). */
HD_API hd_status hd_motion_from_poses(const hd_pose *pose0, const hd_pose *pose1, hd_motion *out);

/* A motion that only translates: pose0 moved by translation over [0, 1]. pose0 NULL: the
 * identity. Errors: HD_ERR_NULL (translation or out), HD_ERR_NONFINITE. */
HD_API hd_status hd_motion_translation(const hd_pose *pose0, const double translation[3],
                                       hd_motion *out);

/* The pose of a motion at t (any finite t; the motion's formula, not clamped to [0, 1]).
 * Errors: HD_ERR_NULL, HD_ERR_NONFINITE (t or a field of the motion not finite). */
HD_API hd_status hd_motion_pose(const hd_motion *motion, double t, hd_pose *out);

/* Options of the time of impact. time_tol: the width hi - lo asked of toi_bounds, in units of
 * t (<= 0: HD_TOI_DEFAULT_TIME_TOL); max_iterations: the cap on distance queries (<= 0:
 * HD_TOI_DEFAULT_ITERATIONS). query: the tolerances, cache and workspace of every distance
 * query along the motion (opt->query.cache warm-starts them; NULL cache: a local one). */
typedef struct hd_toi_options {
    hd_options query;
    double time_tol;
    int max_iterations;
} hd_toi_options;

#define HD_TOI_DEFAULT_TIME_TOL 1e-9
#define HD_TOI_DEFAULT_ITERATIONS 100000

/* hd_options_default() for the queries, the default time tolerance and cap. */
HD_API hd_toi_options hd_toi_options_default(void);

/* The answer of hd_toi and hd_shape_cast; every vector in the world frame.
 * The motion's band: eps = max(touch_rel, HD_TOI_MIN_BAND_REL) * scale, scale the motion's
 * scale (the largest absolute coordinate either body can reach over [0, 1]: |c| + |v| + the
 * body's reach about c), one band for the whole motion.
 * - hit false: the pair's distance stays above eps / 2 on all of [0, 1] (proven); lo = 1,
 *   hi = 1, toi = 1, and the contact fields are zero.
 * - hit true: for every t < lo the distance is above eps / 2 (proven by conservative
 *   advancement on certified distances with the speed bounds of the motion), and at hi the pair
 *   posed by hd_motion_pose is touching or intersecting (its signed distance at most eps,
 *   proven by its certificate); hi - lo <= time_tol; toi = hi. toi = lo = hi = 0 when the pair
 *   touches or intersects at t = 0.
 * contact: hd_signed_distance's answer at the poses of hi (pose_a, pose_b): signed distance,
 * normal from A towards B, witnesses, bounds, features. Its signed distance lies within the
 * band or below it, so the normal of a pair of nearly parallel faces at the TOI is only as
 * sharp as the closest points 1e-12 of the size apart allow (it may tilt by 1e-5 rad).
 * iterations: distance queries run (the answer depends on nothing else: the same bits on every
 * run and machine of the same floating-point arithmetic). */
typedef struct hd_toi_result {
    bool hit;
    double toi;
    double lo;
    double hi;
    hd_signed_distance_result contact;
    hd_pose pose_a;
    hd_pose pose_b;
    double eps;
    int iterations;
} hd_toi_result;

/* The smallest relative band of a motion: the poses along the motion are computed in double, a
 * few hundred units of 2^-53 of the scale, and the advancement needs eps / 2 above that. */
#define HD_TOI_MIN_BAND_REL 1e-12

/* Time of impact of A moving by motion_a and B by motion_b over t in [0, 1]. opt may be NULL
 * (hd_toi_options_default). No allocation; deterministic. Errors: HD_ERR_NULL, HD_ERR_NONFINITE,
 * HD_ERR_BAD_POSE, HD_ERR_INVALID_ARG (bad tolerances, a non-finite time_tol), HD_ERR_RANGE (the
 * motion's scale beyond HD_MAX_COORD, or below HD_MIN_SCALE), the errors of hd_distance along
 * the motion, and HD_ERR_ITERATION_LIMIT when max_iterations queries did not settle the answer:
 * then out->lo still holds the proven-free bound reached (the pair is apart on [0, lo)),
 * out->iterations the count, hit is false and the contact fields are zero. On other errors *out
 * is zeroed. */
HD_API hd_status hd_toi(const hd_polytope *a, const hd_motion *motion_a, const hd_polytope *b,
                        const hd_motion *motion_b, const hd_toi_options *opt, hd_toi_result *out);

/* The answer of hd_compound_toi: toi as hd_toi's for the pair of pieces that meets first
 * (piece_a of A, piece_b of B; -1 when none meets), with toi.iterations the distance queries of
 * every piece pair run; stats: node pairs of the two trees examined and piece pairs given to
 * hd_toi (piece_pairs). */
typedef struct hd_compound_toi_result {
    hd_toi_result toi;
    int piece_a;
    int piece_b;
    hd_compound_stats stats;
} hd_compound_toi_result;

/* Time of impact of compound A moving by motion_a and compound B by motion_b over [0, 1] (every
 * piece moves with its body's twist). hit true: every pair of pieces is apart (within its band,
 * as hd_toi proves it) for all t < toi.lo, and pieces piece_a, piece_b touch or intersect at
 * toi.hi (their poses pose_a, pose_b, their contact). hit false: every pair stays apart on [0, 1].
 * A node pair of the trees is skipped when the swept boxes (each t = 0 box grown by its points'
 * displacement bound) do not meet; the others are visited in order of a lower bound of their
 * contact time (box distance over speed bound), and each pair of pieces runs hd_toi on [0, T],
 * T = min(1, best + time_tol) (best: the earliest contact proven so far; the twists scaled by
 * T). Brackets within time_tol of each other are a tie: the smaller (piece_a, piece_b) is named
 * and lo is the smaller lo, so hi - lo may reach about 3 time_tol there (else <= time_tol); eps
 * is that pair's band on its scaled motion. No allocation (a fixed stack); deterministic. opt may
 * be NULL; its cache is not used. Errors: those of hd_toi (HD_ERR_NULL, HD_ERR_NONFINITE,
 * HD_ERR_BAD_POSE, HD_ERR_INVALID_ARG, HD_ERR_RANGE, HD_ERR_ITERATION_LIMIT, ...), the first met in
 * the descent's order; on error *out is zeroed but for stats (pieces -1). */
HD_API hd_status hd_compound_toi(const hd_compound *a, const hd_motion *motion_a,
                                 const hd_compound *b, const hd_motion *motion_b,
                                 const hd_toi_options *opt, hd_compound_toi_result *out);

/* Linear shape cast: A fixed at pose_a, B from pose_b moved by translation_b over t in [0, 1]
 * (t = 1 at the full translation): the first contact with the proofs of hd_toi (it is hd_toi
 * with two translation-only motions). hd_gap answers the related question without a bound on
 * the travel and in both senses of the line; this one bounds the travel and brackets the time.
 * Errors as hd_toi. */
HD_API hd_status hd_shape_cast(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                               const hd_pose *pose_b, const double translation_b[3],
                               const hd_toi_options *opt, hd_toi_result *out);

/* The answer of hd_ray_cast (world frame). hit: some point o + t d with 0 <= t <= length lies in
 * the polytope; t the least such t, point = o + t d. inside: the origin itself lies in the
 * polytope (t = 0, normal and feature then say nothing: normal zero, feature a vertex of index
 * -1). Otherwise normal is the outward unit normal of the face the ray enters through and
 * feature that face; where the entry point lies on several faces within the coordinates'
 * resolution (an edge or a vertex), feature is the edge or vertex and normal the normal of the
 * entering face whose plane the ray crosses last. For a polygon (dimension 2) crossed by the ray
 * the face is the side facing the ray; for a ray in the polygon's plane, the polygon's edge it
 * enters through (or that edge's end vertex) with the edge's outward normal in the plane.
 * A rounded polytope (radius r > 0, any dimension of its core): t is the first with o + t d
 * within r of the core, up to the touching band (from below: the ray is outside for every
 * smaller t); normal is the rounded surface's there (from the core's nearest point towards the
 * hit) and feature the core's feature at that nearest point; inside means the origin lies in
 * the rounded shape deeper than the band. */
typedef struct hd_ray_result {
    bool hit;
    bool inside;
    double t;
    double point[3];
    double normal[3];
    hd_feature_id feature;
} hd_ray_result;

/* Ray cast: the least t in [0, length] with origin + t dir in A posed by pose_a (NULL:
 * identity): the linear program min t s.t. o + t d in A, solved on A's face planes in A's own
 * frame, exact for the stored planes. dir need not be unit (t is in units of dir); length may be
 * HUGE_VAL (an unbounded ray). opt may be NULL (its tolerance's band is used for rounded
 * polytopes only). A rounded polytope is answered by steps from one supporting plane of the
 * rounded shape to the next (docs/algorithms/motion.md). Errors: HD_ERR_NULL, HD_ERR_NONFINITE
 * (origin, dir), HD_ERR_BAD_POSE, HD_ERR_INVALID_ARG (dir zero, length negative or NaN, bad
 * tolerance), HD_ERR_UNSUPPORTED (a sharp point or segment: no volume to enter),
 * HD_ERR_ITERATION_LIMIT (a rounded polytope grazed so closely that HD_RAY_ROUNDED_ITERATIONS
 * steps did not settle it). */
HD_API hd_status hd_ray_cast(const hd_polytope *a, const hd_pose *pose_a, const double origin[3],
                             const double dir[3], double length, const hd_options *opt,
                             hd_ray_result *out);

#ifdef __cplusplus
}
#endif

#endif
