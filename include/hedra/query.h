/* hedra queries on pairs of posed polytopes: intersection (three algorithms), distance with
 * witness points, directional gap, containment, point inside; certificates and their check. */
#ifndef HEDRA_QUERY_H
#define HEDRA_QUERY_H

#include "hedra/core.h"
#include "hedra/polytope.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The verdict of an intersection query; see hd_tolerance for the touching band. */
typedef enum hd_verdict { HD_SEPARATED = 0, HD_TOUCHING = 1, HD_INTERSECTING = 2 } hd_verdict;

HD_API const char *hd_verdict_str(hd_verdict verdict); /* "separated", "touching", "intersecting" */

/* The three independent ways to decide intersection. */
typedef enum hd_algo {
    HD_ALGO_GJK = 0,    /* Gilbert-Johnson-Keerthi on the Minkowski difference */
    HD_ALGO_CDDUAL = 1, /* Choi-Li-Wang-Cameron local search guided by the dual signed distance */
    HD_ALGO_LP = 2,     /* simplex method on the vertex-set linear program */
    HD_ALGO_COUNT
} hd_algo;

HD_API const char *hd_algo_str(hd_algo algo); /* "gjk", "cddual", "lp" */

/* HD_OK and *out set when name is one of the strings above. */
HD_API hd_status hd_algo_parse(const char *name, hd_algo *out);

/* Why a query stopped. */
typedef enum hd_stop {
    HD_STOP_CONVERGED = 0, /* the algorithm ran to its optimum */
    HD_STOP_EARLY_EXIT,    /* the verdict was proven before the optimum (e.g. a separating plane) */
    HD_STOP_REFINED,       /* the algorithm's own evidence fell inside the touching band and the
                              shared contact classifier (distance and depth bounds) decided */
    HD_STOP_FALLBACK       /* the answer comes from another algorithm, said here so that nobody
                              is misled: from GJK when CD-Dual does not apply to the input or its
                              search needs more scratch than the workspace holds, from the LP
                              method when an iteration cap was reached (docs/ALGORITHMS.md) */
} hd_stop;

/* A convex combination of at most HD_COMBINATION_MAX hull vertices of one polytope. */
#define HD_COMBINATION_MAX 8
typedef struct hd_combination {
    int count;
    int index[HD_COMBINATION_MAX];
    double weight[HD_COMBINATION_MAX]; /* >= 0, summing to 1 */
} hd_combination;

/* What proves a verdict; every vector is in the world frame.
 * - HD_SEPARATED: has_plane; for every vertex a of A, n.a <= offset - gap/2 and for every vertex b
 *   of B, n.b >= offset + gap/2, with gap > eps (n unit, pointing from A towards B).
 * - HD_INTERSECTING: has_point; point = sum w_i a_i = sum v_j b_j (convex weights on_a, on_b), and
 *   depth_bound > eps is a lower bound on the penetration depth proven by the algorithm.
 * - HD_TOUCHING: has_plane with gap >= -eps (the pair cannot overlap by more than eps) and
 *   has_point with |sum w_i a_i - sum v_j b_j| <= eps (the pair is no further apart than eps).
 * Fields of a part that is absent (has_plane or has_point false) are zero. hd_certificate_check
 * verifies all of this by brute force, independently of the algorithms.
 * Rounded polytopes (hd_polytope_build_rounded, radii r_A and r_B): the same statements hold for
 * the rounded shapes, whose support along n is the core's plus r. The plane: n.a + r_A <=
 * offset - gap/2 for every core vertex a of A and n.b - r_B >= offset + gap/2 for every core
 * vertex b of B (gap is the rounded shapes' gap, the cores' minus r_A + r_B). The point: with
 * p_A = sum w_i a_i and p_B = sum v_j b_j (core vertices), |point - p_A| <= r_A + eps,
 * |point - p_B| <= r_B + eps and |p_A - p_B| <= r_A + r_B + eps (point is a common point of the
 * rounded shapes); depth_bound bounds the rounded pair's depth. With both radii 0 these are the
 * statements above. docs/algorithms/rounded.md. */
typedef struct hd_certificate {
    bool has_plane;
    double normal[3];
    double offset;
    double gap;
    bool has_point;
    double point[3];
    hd_combination on_a;
    hd_combination on_b;
    double depth_bound;
} hd_certificate;

/* Work counters, for benchmarks and the paper's figures. */
typedef struct hd_stats {
    int iterations;    /* main-loop iterations (GJK, with the portal's steps before it on small
                          solids), pivots (LP), faces visited in all (CD-Dual) */
    int support_calls; /* support-mapping evaluations on either polytope */
    int visits_fv;     /* CD-Dual: candidates evaluated in SEARCH-FV, SEARCH-VF, SEARCH-EE (in
                          SEARCH-EE: edge pairs tested, face or not, and the FV / VF faces
                          reached from them); iterations is their sum */
    int visits_vf;
    int visits_ee;
    int refine_steps; /* steps of the shared contact classifier, 0 when it was not needed */
} hd_stats;

/* Which kind of face of the Minkowski difference M = A - B attained CD-Dual's optimum. */
typedef enum hd_face_kind {
    HD_FACE_NONE = 0,
    HD_FACE_FV, /* face of A with a supporting vertex of -B: feature_a = face, feature_b = vertex */
    HD_FACE_VF, /* vertex of A with a face of -B: feature_a = vertex, feature_b = face */
    HD_FACE_EE  /* edge of A with an edge of -B: feature_a, feature_b = edges */
} hd_face_kind;

/* The optimum of CD-Dual's search: the face of M whose plane is farthest from the origin, with
 * d_max of Eq. (1) (positive: the plane separates, the pair is apart by at least that much). Set
 * whenever a CD-Dual search produced the answer, also when it answers for another algorithm that
 * stalled (stop = HD_STOP_FALLBACK). kind is HD_FACE_NONE, with every other field 0, when no
 * CD-Dual search did: another algorithm answered, including CD-Dual's own fallback to GJK. */
typedef struct hd_cddual_face {
    hd_face_kind kind;
    int feature_a; /* hull indices of A's vertex, edge (hd_polytope_edge) or face */
    int feature_b; /* the same for B */
    double dual_distance;
} hd_cddual_face;

/* The answer of hd_collide. For rounded polytopes the chosen algorithm runs on the cores; when its
 * own evidence does not decide the rounded pair (a plane whose gap does not clear r_A + r_B, a
 * touching pair), GJK on the cores decides and stop is HD_STOP_REFINED; cddual then describes the
 * cores' optimum. */
typedef struct hd_collide_result {
    hd_verdict verdict;
    hd_algo algo; /* the algorithm asked for */
    hd_stop stop;
    double eps; /* the absolute touching half-width used: touch_rel * scale */
    hd_certificate cert;
    hd_stats stats;
    hd_cddual_face cddual;
} hd_collide_result;

/* Derivatives of the signed distance with respect to the two poses, asked with
 * HD_QUERY_GRADIENT in hd_signed_distance or hd_contact_manifold (hedra/contact.h), and of the
 * distance in hd_distance (below); docs/algorithms/gradient.md. For an overlap the tie test looks
 * at the facets of A - B near the depth's features, or, where the expanding polytope does not
 * bound them (flat shapes, the separating-axis fallback), at every facet. Six
 * numbers per body: first d delta / d tau for a translation tau of the body in world axes, then d
 * delta / d theta for a small rotation theta (world axes, angle times unit axis) about the body
 * frame's origin, the pose's t (the world origin for a NULL pose). With the normal n and the
 * witnesses of hd_signed_distance_result, b = (n, (witness_b - t_B) x n) and
 * a = (-n, -(witness_a - t_A) x n), so that delta changes by b . (tau_B, theta_B) + a . (tau_A,
 * theta_A) to first order. For a twist in the body's own axes (velocity v and angular velocity w,
 * tau = R v, theta = R w, R the pose's rotation) the gradient is (R^T b[0..2], R^T b[3..5]), the
 * same for a. unique: true when delta is differentiable at these poses as far as the doubles tell:
 * the features that attain it meet in one point pair (vertex-face, face-vertex, edge-edge with the
 * edges' sine above 1e-10, vertex-vertex, vertex-edge, edge-vertex; feature angles within 1e-9
 * radian count as exact, as for feature_a and feature_b) and, for an overlap, no other facet of A -
 * B comes within 1e-9 size of the depth; M = A - B has an interior when the pair touches. false:
 * delta has a kink here (faces or edges in contact along a segment or a polygon, several facets
 * attaining the depth, a touching pair of flat shapes) and a and b are the gradient of one of the
 * smooth pieces meeting here: a Clarke subgradient, finite, never NaN. */
typedef struct hd_pose_gradient {
    double a[6];
    double b[6];
    bool unique;
} hd_pose_gradient;

/* The answer of hd_distance (always computed by GJK, see hd_distance). */
typedef struct hd_distance_result {
    hd_verdict verdict;
    hd_stop stop;
    double eps;          /* as in hd_collide_result */
    double distance;     /* Euclidean distance >= 0; 0 when the pair touches or intersects */
    double witness_a[3]; /* on A and on B (world frame): the closest points when separated, a */
    double witness_b[3]; /* point pair within eps when touching, a common point when
                            intersecting (or, with stop = HD_STOP_FALLBACK, the certificate's
                            two points, within eps of each other) */
    hd_certificate cert;
    hd_stats stats;
    /* with HD_QUERY_GRADIENT in opt->flags, else all zero: for a separated pair the signed
     * distance's (hd_pose_gradient, the normal (witness_b - witness_a) / distance); for an
     * intersecting one zero and unique, the distance being 0 around these poses; for a touching
     * one zero, not unique (a subgradient of the kink between 0 and the separated side) */
    hd_pose_gradient gradient;
} hd_distance_result;

/* Per ordered pair warm-start state (frame coherence), owned by the caller: one per pair and
 * thread, initialised with HD_CACHE_INIT or hd_cache_reset. Indices are validated before use and
 * the axis is only a direction to try, so a cache used with the wrong pair costs time, never
 * correctness. hd_collide with HD_ALGO_GJK first tries what the cache holds: the axis, when it
 * still separates by more than the band (two support scans; the plane is the certificate), then
 * a cached tetrahedron that still holds the origin deeper than the band (its common point and
 * depth bound); anything else runs GJK from the cached simplex. */
typedef struct hd_cache {
    bool valid;
    int simplex_count; /* GJK: the last simplex as (vertex of A, vertex of B) pairs */
    int simplex_a[4];
    int simplex_b[4];
    int support_a; /* hill-climbing start vertices */
    int support_b;
    int cddual_face; /* CD-Dual: the face f_p of A from which the last optimum was reached */
    double axis[3];  /* GJK: the unit normal (from A towards B, in A's local frame) of the last
                        separating or touching plane found; zero when there was none. Used only
                        when its length is 1 to rounding */
} hd_cache;

#define HD_CACHE_INIT                                                                              \
    {                                                                                              \
        false, 0, {0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, -1,                                            \
        {                                                                                          \
            0.0, 0.0, 0.0                                                                          \
        }                                                                                          \
    }
HD_API void hd_cache_reset(hd_cache *cache);

/* Caller-owned scratch for the queries that need more than the stack: CD-Dual's map of the
 * candidates one search has examined (faces of A, faces of B, edge pairs) and its search path.
 * Created once (this allocates), used by one query at a time.
 *
 * Without a workspace (opt->workspace NULL) a fixed scratch of 1024 candidates on the stack is
 * used and no path is recorded. A CD-Dual intersection query that needs more than its workspace
 * or the scratch holds is answered by GJK instead, with stop = HD_STOP_FALLBACK: hd_collide never
 * fails for lack of scratch. hd_gap has no other method and returns HD_ERR_WORKSPACE_FULL. */
typedef struct hd_workspace hd_workspace;

/* capacity: number of candidates one CD-Dual search may examine (>= 16). Errors: HD_ERR_NULL,
 * HD_ERR_INVALID_ARG (capacity < 16), HD_ERR_TOO_LARGE (above 2^26), HD_ERR_NO_MEMORY. */
HD_API hd_status hd_workspace_create(int capacity, hd_workspace **out);
HD_API void hd_workspace_destroy(hd_workspace *ws);

/* The capacity with which no CD-Dual search on polytopes a and b (any poses) can run out of
 * scratch: one more than the search's evaluation cap (tol->max_iterations, or its automatic value
 * 64 + 4 (V_A + V_B)), and never more than the F_A + F_B + E_A E_B distinct candidates (F faces,
 * E edges); at least 16, at most 2^26 (beyond, the query falls back as above). A search that
 * reaches the cap stops and hd_collide answers with the LP method (HD_STOP_FALLBACK). Derivation
 * and measured needs in docs/algorithms/cddual.md section 9. tol may be NULL (defaults). Errors:
 * HD_ERR_NULL, HD_ERR_INVALID_ARG (invalid tol). *capacity is 0 on error. */
HD_API hd_status hd_workspace_capacity_for(const hd_polytope *a, const hd_polytope *b,
                                           const hd_tolerance *tol, int *capacity);

/* hd_workspace_create(capacity_for(a, b, tol)): the workspace every query on a and b can use
 * (one per thread). Errors: those of both. */
HD_API hd_status hd_workspace_create_for(const hd_polytope *a, const hd_polytope *b,
                                         const hd_tolerance *tol, hd_workspace **out);

/* The capacity a workspace was created with (0 for NULL). */
HD_API int hd_workspace_capacity(const hd_workspace *ws);

/* The search path of the last query run with HD_QUERY_RECORD_PATH: count entries, each a face of
 * the Minkowski difference as (kind, feature_a, feature_b, dual distance), in order: SEARCH-FV's
 * climb (its start face and each move), SEARCH-VF's climb, then each new optimum of SEARCH-EE
 * (the paper's Figure 11); phase says which (0 FV, 1 VF, 2 EE). hd_gap records the intersection
 * search and then its own searches along the line, one after the other. */
typedef struct hd_path_step {
    hd_face_kind kind;
    int feature_a;
    int feature_b;
    double dual_distance;
    int phase;
} hd_path_step;
HD_API int hd_workspace_path(const hd_workspace *ws, const hd_path_step **steps);

/* GJK's path, recorded with HD_QUERY_RECORD_PATH by hd_collide and hd_distance wherever GJK runs
 * (HD_ALGO_GJK, CD-Dual's fallback to GJK, and the contact classifier's continuation of the same
 * run): one step per iteration, the first HD_GJK_PATH_MAX of them. A step holds the support pair
 * the iteration found (the point support_a of A minus support_b of B, hull vertex indices) and
 * the state after it: the simplex (count points, point k being vertex_a[k] of A minus
 * vertex_b[k] of B, -1 beyond count; unchanged when the iteration ended the search without
 * adding its point, e.g. a separating plane found at once, and then possibly empty), its point
 * nearest the origin as a difference of world points (|closest| is GJK's upper bound on the
 * distance; 0 when count is 0), and lower, the best lower bound proven so far (-HUGE_VAL while
 * there is none). Returns the number of steps; *steps (may be NULL) points into the workspace,
 * valid until its next query. */
#define HD_GJK_PATH_MAX 256
typedef struct hd_gjk_step {
    int support_a;
    int support_b;
    int count;
    int vertex_a[4];
    int vertex_b[4];
    double closest[3];
    double lower;
} hd_gjk_step;
HD_API int hd_workspace_gjk_path(const hd_workspace *ws, const hd_gjk_step **steps);

/* Query flags. */
enum {
    HD_QUERY_BRUTE_SUPPORT = 1u << 0, /* support mapping by brute force instead of hill climbing */
    HD_QUERY_RECORD_PATH = 1u << 1,   /* record the algorithm's path in opt->workspace, reset by
                                         every query that asks: CD-Dual's faces
                                         (hd_workspace_path), GJK's simplices
                                         (hd_workspace_gjk_path); unset, it costs one
                                         pointer test per GJK iteration */
    HD_QUERY_DEPTH_SAT = 1u << 2,     /* hd_signed_distance (hedra/contact.h): penetration depth
                                         by the separating-axis method, not the expanding
                                         polytope */
    HD_QUERY_NO_PORTAL = 1u << 3,     /* hd_collide with HD_ALGO_GJK: GJK from the first step.
                                         Without it, a query with no valid cache on two solids
                                         tries Minkowski portal refinement first, which proves
                                         most verdicts with fewer steps and leaves the rest to
                                         GJK, starting from its portal. A recorded path implies
                                         it (the path is GJK's) */
    HD_QUERY_GRADIENT = 1u << 4       /* hd_signed_distance, hd_contact_manifold (hedra/contact.h)
                                         and hd_distance: the derivatives of the signed distance
                                         or the distance with respect to both poses
                                         (hd_pose_gradient); unset, one flag test */
};

typedef struct hd_options {
    hd_algo algo;
    hd_tolerance tol;
    hd_cache *cache;         /* NULL: cold start */
    hd_workspace *workspace; /* NULL: a fixed-size scratch on the stack */
    unsigned flags;
} hd_options;

/* algo = HD_ALGO_GJK, default tolerances, no cache, no workspace, no flags. */
HD_API hd_options hd_options_default(void);

/* Intersection: separated, touching or intersecting, with a certificate. Poses may be NULL
 * (identity); opt may be NULL (defaults). Errors: HD_ERR_NULL, HD_ERR_BAD_POSE, HD_ERR_NONFINITE,
 * HD_ERR_INVALID_ARG (bad tolerance or algo), HD_ERR_RANGE (the pair's scale outside
 * [HD_MIN_SCALE, HD_MAX_COORD]), HD_ERR_ITERATION_LIMIT (when the other methods, asked after the
 * chosen algorithm's cap, reach theirs: the LP method, CD-Dual, and last a proof of an overlap
 * beyond the band from the facets of A - B, on pairs of small vertex counts; stop =
 * HD_STOP_FALLBACK when one answers). A workspace too small is never an error here (see
 * hd_workspace).
 * On error *out holds no verdict. The same errors apply to every query below. */
HD_API hd_status hd_collide(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                            const hd_pose *pose_b, const hd_options *opt, hd_collide_result *out);

/* Euclidean distance and closest points (GJK, whatever opt->algo says), with the verdict and
 * certificate of hd_collide. Rounded polytopes: max(0, cores' distance - r_A - r_B), the witnesses
 * on the rounded surfaces (the cores' closest points moved by their radius towards each other).
 * distance is 0 when the pair touches or intersects. When GJK cannot prove an overlap
 * (needle-shaped Minkowski differences), the LP method decides it and the witnesses are its
 * certificate's point pair (stop = HD_STOP_FALLBACK). */
HD_API hd_status hd_distance(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                             const hd_pose *pose_b, const hd_options *opt, hd_distance_result *out);

/* Directional gap (CD-Dual section 6): for a direction s (any length, normalized here), the
 * signed distance B must travel along +s or -s so that it just touches A (A fixed).
 *   contact false: the sweep of B along the line never meets A (no contact in either sense; the
 *     line {tau s} passes farther than eps from A - B), distance = 0;
 *   separated pairs: distance > 0 is the travel along s_sign*s to first contact;
 *   overlapping pairs: distance > 0 is the travel along s_sign*s to separate (the nearer way out);
 *   touching pairs (verdict HD_TOUCHING): contact true and distance >= 0 the travel along
 *     s_sign*s to leave the contact, 0 when B can move away at once.
 * s_sign is +1 or -1. verdict is hd_collide's (CD-Dual) for the pair as given; stats add that
 * query's work and the gap's searches'. HD_ERR_UNSUPPORTED when A - B is flat: neither polytope
 * is a solid and together they span no volume (a point, two segments, polygons in parallel
 * planes, a segment parallel to a polygon). HD_ERR_WORKSPACE_FULL when one of its searches needs
 * more than opt->workspace (or the stack scratch) holds: a workspace from hd_workspace_create_for
 * always suffices. Rounded polytopes (a radius above 0 on either): the same answers for the
 * rounded shapes, flat cores included (their difference always has an interior), from Newton's
 * method on the cores' distance along the line (docs/algorithms/rounded.md, section 4): the travel
 * is accurate to eps / 16 over the sine of the angle at which the line meets the rounded surface;
 * HD_ERR_ITERATION_LIMIT when a GJK run on the line reaches its cap. */
typedef struct hd_gap_result {
    bool contact;
    hd_verdict verdict; /* of the pair as given */
    double distance;
    int s_sign;
    double direction[3]; /* unit s */
    hd_stats stats;
} hd_gap_result;

HD_API hd_status hd_gap(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                        const hd_pose *pose_b, const double direction[3], const hd_options *opt,
                        hd_gap_result *out);

/* Containment: *inside true when every vertex of B lies in A (within eps: a vertex on A's boundary
 * counts as inside), else false. Rounded polytopes: true when the rounded B lies in the rounded A
 * within eps, decided exactly as every core vertex of B having a signed distance to A's core of at
 * most r_A - r_B. opt->algo is not used but must be valid. Errors: HD_ERR_NULL,
 * HD_ERR_BAD_POSE, HD_ERR_NONFINITE, HD_ERR_INVALID_ARG, HD_ERR_RANGE, HD_ERR_ITERATION_LIMIT. */
HD_API hd_status hd_contains(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                             const hd_pose *pose_b, const hd_options *opt, bool *inside);

/* Point inside: the verdict of the point, taken as a polytope of one vertex, against A (for a
 * rounded A: its core's signed distance to the point minus r_A against the band), in the
 * vocabulary of every query (the CLI and Python print the same words): HD_INTERSECTING
 * ("intersecting") strictly inside, deeper than eps; HD_TOUCHING ("touching") on the boundary
 * within eps; HD_SEPARATED ("separated") outside by more than eps. Errors as hd_contains. */
HD_API hd_status hd_point_inside(const hd_polytope *a, const hd_pose *pose_a, const double point[3],
                                 const hd_options *opt, hd_verdict *out);

/* Independent brute-force check of a certificate cert for the verdict it proves, under the band
 * eps, against the vertices of the posed polytopes (O(V_A + V_B)). It checks either query's
 * answer: pass r.verdict, r.eps and &r.cert of an hd_collide_result or an hd_distance_result (the
 * same poses as the query). HD_OK when it holds, HD_ERR_CERTIFICATE when it does not (also when
 * eps is not a band any valid tolerance could give: negative, not finite, or above 1e-3 of the
 * scale, and when verdict is not an hd_verdict). HD_ERR_NULL for NULL polytopes or cert; a pose
 * that is not a rotation gives its hd_pose_validate status. */
HD_API hd_status hd_certificate_check(const hd_polytope *a, const hd_pose *pose_a,
                                      const hd_polytope *b, const hd_pose *pose_b,
                                      hd_verdict verdict, double eps, const hd_certificate *cert);

#ifdef __cplusplus
}
#endif

#endif
