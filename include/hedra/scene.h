/* hedra scenes: many posed bodies, moving from frame to frame, and every pair in contact.
 *
 * A scene holds bodies, each a shared polytope or compound (never copied; it must outlive the
 * body), a pose, a user pointer and, for the continuous step, a twist. hd_scene_step answers, for
 * the poses given since the last step, every pair of bodies that touches or intersects, with
 * hd_collide's verdict. In between:
 * - a broad phase kept incrementally as bodies move (a dynamic AABB tree with fattened boxes by
 *   default, or sweep-and-prune with insertion sort; docs/algorithms/scene.md);
 * - a persistent pair table: every pair of bodies whose boxes overlap keeps its hd_cache from
 *   frame to frame (warm start) and a pair neither of whose bodies moved keeps its verdict;
 * - the narrow phase (hd_collide per candidate pair) on a fixed pool of threads owned by the
 *   scene, or on the caller's job system (hd_task_callbacks), and, when asked
 *   (hd_scene_options.detail), the signed distance, normal, witnesses, depth bounds and contact
 *   manifold of every pair in contact (hedra/contact.h). Results are sorted by body ids, so the
 *   output does not depend on the thread count or the job system.
 *
 * A scene is used by one thread at a time (its own workers run only inside hd_scene_move_many,
 * hd_scene_step and the queries; between two of those an idle worker of hedra's pool naps in
 * short timed sleeps for a few milliseconds, a small share of its core, so that a step soon after
 * the last one need not wake it through the kernel, and then sleeps). The polytopes it holds are
 * only read. Steady-state steps do not allocate: every array grows geometrically and is reused.
 */
#ifndef HEDRA_SCENE_H
#define HEDRA_SCENE_H

#include <stdint.h>

#include "hedra/compound.h"
#include "hedra/contact.h"
#include "hedra/core.h"
#include "hedra/motion.h"
#include "hedra/polytope.h"
#include "hedra/query.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hd_scene hd_scene;

/* The broad phase. Both find exactly the pairs whose boxes overlap; they differ in speed
 * (docs/BENCHMARKS.md, "Scenes"). */
typedef enum hd_broadphase {
    HD_BROADPHASE_TREE = 0, /* dynamic AABB tree with fattened boxes (Catto; Box2D) */
    HD_BROADPHASE_SAP = 1,  /* sweep-and-prune, insertion sort on three axes (I-COLLIDE) */
    HD_BROADPHASE_COUNT
} hd_broadphase;

HD_API const char *hd_broadphase_str(hd_broadphase bp); /* "tree", "sap" */

/* HD_OK and *out set when name is one of the strings above. */
HD_API hd_status hd_broadphase_parse(const char *name, hd_broadphase *out);

/* What each contact of a step carries besides its verdict (hd_scene_options.detail). */
typedef enum hd_scene_detail {
    HD_SCENE_VERDICT = 0,  /* the verdict only (hd_collide's) */
    HD_SCENE_DEPTH = 1,    /* and hd_signed_distance's answer: signed distance, normal, witnesses,
                              depth bounds, features */
    HD_SCENE_MANIFOLD = 2, /* and hd_contact_manifold's manifold */
    HD_SCENE_DETAIL_COUNT
} hd_scene_detail;

/* Most threads a scene runs (hedra's pool), and most workers of a caller's job system. */
#define HD_SCENE_MAX_THREADS 256

/* A range job: runs items [begin, end) of [0, count) as worker `worker`, in [0, worker_count);
 * task_ctx is the scene's (the one given to enqueue). */
typedef void (*hd_task_fn)(int begin, int end, int worker, void *task_ctx);

/* The caller's job system (Box2D's enqueueTask / finishTask, a Jolt JobSystem, TBB, OpenMP).
 * - enqueue(task, task_ctx, count, min_range, user) schedules task over [0, count) (count >= 1)
 *   cut into sub-ranges of the system's choice, each at least min_range items except the last
 *   (a hint: smaller ranges are correct, only slower), and returns a handle (any pointer, NULL
 *   included) that the scene hands to finish. Ranges may run during enqueue, during finish or
 *   between the two, on any thread and in any order, but must cover [0, count) exactly once, and
 *   no two ranges running at the same time may share a worker index: the scene's per-worker
 *   scratch (workspaces, buffers) is indexed by it.
 * - finish(handle, user) returns only after every range of that job has run (and their writes
 *   are visible to the caller's thread). Each enqueue is followed by its finish before the next
 *   enqueue: the scene never has two jobs out.
 * Only hd_scene_move_many, hd_scene_step and the two queries call them, on the thread that
 * called the scene; a loop of at most min_range items may run there as worker 0 without enqueue.
 * The output (every contact, their order, every bit of every answer) is the same for any job
 * system, worker count and order of the ranges. */
typedef struct hd_task_callbacks {
    void *(*enqueue)(hd_task_fn task, void *task_ctx, int count, int min_range, void *user);
    void (*finish)(void *handle, void *user);
    int worker_count; /* workers the system may use at once: 1 .. HD_SCENE_MAX_THREADS */
    void *user;       /* handed back to enqueue and finish */
} hd_task_callbacks;

typedef struct hd_scene_options {
    int threads;              /* threads of hedra's pool, the caller's included: 0 = one per
                                 online core, 1 = the caller only; at most HD_SCENE_MAX_THREADS;
                                 with tasks, 0 or tasks->worker_count */
    hd_broadphase broadphase; /* default HD_BROADPHASE_TREE */
    double margin;            /* tree: each body's box is fattened by margin times its bounding
                                 radius (default HD_SCENE_DEFAULT_MARGIN); in [0, 16] */
    hd_algo algo;             /* the narrow phase's algorithm (default GJK; CD-Dual gets a
                                 workspace per thread, of 16384 candidates or, grown as bodies
                                 are added, hd_workspace_capacity_for the largest shape) */
    hd_tolerance tol;         /* tolerances of every query (default hd_tolerance_default) */
    hd_scene_detail detail;   /* default HD_SCENE_VERDICT. Above it, a pair found in contact is
                                 also given to hd_signed_distance (or hd_contact_manifold) on the
                                 same worker, warm-started from the pair's cache, with a workspace
                                 per thread of hd_contact_workspace_capacity for the largest
                                 shape; the answer is kept with the pair (about 270 bytes per
                                 pair of overlapping boxes, 530 with the manifold) and reused
                                 while neither body moves. */
    bool gradient;            /* with a detail level: each contact's signed distance also carries
                                 its pose gradient (HD_QUERY_GRADIENT; the bodies' frame origins
                                 are their poses' translations); default false */
    double proximity;         /* a distance d >= 0 (length units, finite; default 0): a step also
                                 reports every separated pair whose distance is below d, with
                                 verdict HD_SEPARATED and its signed distance, normal and
                                 witnesses (for safety margins and speculative contacts). Each
                                 body's box grows by d / 2, a pair whose boxes overlap is given
                                 to hd_collide, and only a pair whose separating plane's gap is
                                 below d to hd_signed_distance: the cost is that of the pairs
                                 within d. With d > 0 the detail level is at least
                                 HD_SCENE_DEPTH (every reported pair carries its answer). */
    /* The caller's job system, copied by hd_scene_create (the struct need not outlive it);
     * default NULL: hedra's own pool of `threads` threads. */
    const hd_task_callbacks *tasks;
    /* Continuous step (docs/algorithms/scene.md): a body given a twist (hd_scene_set_velocity)
     * whose points may travel more than sweep_threshold (length units, >= 0; default 0: every body
     * with a non-zero twist; HUGE_VAL: none) over the frame is swept: its box covers its whole
     * motion, and each of its pairs not in contact at the start of the frame is given to hd_toi
     * (hd_compound_toi where a body is a compound) with both bodies' twists; a pair that meets is
     * reported with its time of impact (hd_scene_contact.toi). */
    double sweep_threshold;
} hd_scene_options;

#define HD_SCENE_DEFAULT_MARGIN 0.5

/* A body's collision filter (Box2D's b2Filter): bodies a and b are queried only when
 * (category_a & mask_b) != 0 and (category_b & mask_a) != 0, and they do not share a group
 * other than 0. A group holds bodies that never collide with each other, such as the links of
 * one robot or the pieces of one decomposed object. A filtered pair is never reported, touching
 * or within the proximity. */
typedef struct hd_scene_filter {
    uint32_t category; /* the body's bits; default 1 */
    uint32_t mask;     /* the categories it collides with; default every bit */
    int group;         /* default 0: no group */
} hd_scene_filter;

/* category 1, mask every bit, group 0: every body collides with every other. */
HD_API hd_scene_filter hd_scene_filter_default(void);

/* The defaults above. */
HD_API hd_scene_options hd_scene_options_default(void);

/* Creates an empty scene and its threads (none with tasks). opt may be NULL (defaults). Errors:
 * HD_ERR_NULL, HD_ERR_INVALID_ARG (threads, broadphase, margin, algo, tolerance or detail out of
 * range; tasks with a NULL enqueue or finish, worker_count outside [1, HD_SCENE_MAX_THREADS], or
 * threads neither 0 nor worker_count), HD_ERR_NO_MEMORY (also when a thread cannot be started).
 * *out is NULL on error. */
HD_API hd_status hd_scene_create(const hd_scene_options *opt, hd_scene **out);

/* Stops the threads and frees the scene (not the polytopes); NULL is ignored. */
HD_API void hd_scene_destroy(hd_scene *scene);

/* Adds a body: shape (shared, not copied; must stay alive while the body exists), pose (NULL:
 * identity), user (any pointer, handed back with its contacts). *id receives the body's id, a
 * small non-negative integer; ids of removed bodies are reused, but not before the next step.
 * The body takes part from the next step on. Errors: HD_ERR_NULL, HD_ERR_BAD_POSE and
 * HD_ERR_NONFINITE (hd_pose_validate with the scene's tol.pose_tol), HD_ERR_RANGE (|t|_max + |c| +
 * r beyond HD_MAX_COORD, c and r the shape's bounding sphere; or the posed shape's scale, as
 * hd_collide defines it, positive and below HD_MIN_SCALE), HD_ERR_TOO_LARGE (more than
 * HD_MAX_POINTS bodies), HD_ERR_NO_MEMORY. */
HD_API hd_status hd_scene_add(hd_scene *scene, const hd_polytope *shape, const hd_pose *pose,
                              void *user, int *id);

/* Sets a body's collision filter (a body starts with hd_scene_filter_default); it applies from
 * the next step on, to the body's pairs and to new ones. HD_ERR_NULL, HD_ERR_INVALID_ARG (not
 * the id of a body in the scene), HD_ERR_NO_MEMORY. */
HD_API hd_status hd_scene_set_filter(hd_scene *scene, int id, const hd_scene_filter *filter);

/* A body's collision filter. HD_ERR_NULL, HD_ERR_INVALID_ARG (not a body's id). */
HD_API hd_status hd_scene_filter_of(const hd_scene *scene, int id, hd_scene_filter *filter);

/* Adds a compound body (hedra/compound.h; shared, not copied, alive while the body exists): one
 * body whose box covers every piece, whose pairs are answered by hd_compound_collide (and, with
 * a detail level, hd_compound_signed_distance or hd_compound_contact_manifold); its pieces are
 * never paired with each other. A plain body paired with a compound body is queried as a
 * compound of one piece (the scene builds one per plain body once it holds a compound body:
 * this call, and hd_scene_add after it, allocate it). Errors as hd_scene_add (the range check
 * with the farthest point of any piece from the body's origin; no tiny-scale check), and those
 * of hd_compound_build (HD_ERR_NO_MEMORY). */
HD_API hd_status hd_scene_add_compound(hd_scene *scene, const hd_compound *compound,
                                       const hd_pose *pose, void *user, int *id);

/* The compound of a body added by hd_scene_add_compound, NULL for a plain body. HD_ERR_NULL,
 * HD_ERR_INVALID_ARG (not a body's id). */
HD_API hd_status hd_scene_body_compound(const hd_scene *scene, int id,
                                        const hd_compound **compound);

/* Gives a body the twist it follows over the next frames (hd_motion with pose0 the body's pose
 * at the step, centre its frame origin): v the velocity of that origin, w the angular velocity
 * (world axes, radians per frame). Zero v and w (the default) is a body at rest. The scene does
 * not move the body: the caller gives the next frame's pose. Used by the continuous step
 * (hd_scene_options.sweep_threshold). HD_ERR_NULL, HD_ERR_INVALID_ARG (not a body's id),
 * HD_ERR_NONFINITE, HD_ERR_NO_MEMORY. */
HD_API hd_status hd_scene_set_velocity(hd_scene *scene, int id, const double v[3],
                                       const double w[3]);

/* Removes a body; its id becomes free after the next step. HD_ERR_NULL, HD_ERR_INVALID_ARG (not
 * the id of a body in the scene). */
HD_API hd_status hd_scene_remove(hd_scene *scene, int id);

/* Gives a body its pose for the next step. Errors as hd_scene_add, and HD_ERR_INVALID_ARG for an
 * id that is not a body's; on error the body keeps its pose. */
HD_API hd_status hd_scene_move(hd_scene *scene, int id, const hd_pose *pose);

/* hd_scene_move for count bodies at once (ids[i] gets poses[i]), the checks run on the scene's
 * threads: the way to move many bodies per frame. Each entry is checked as hd_scene_move checks
 * it; the bodies whose entry passes are moved (an id given more than once takes its last valid
 * pose), the others keep their poses. Returns HD_OK, or the status of the first refused entry
 * (*failed, when failed is not NULL, receives its index; -1 when none was refused). Errors:
 * HD_ERR_NULL (scene, or ids or poses with count > 0), HD_ERR_INVALID_ARG (count < 0),
 * HD_ERR_NO_MEMORY (then no body is moved), and those of hd_scene_move per entry. */
HD_API hd_status hd_scene_move_many(hd_scene *scene, int count, const int *ids,
                                    const hd_pose *poses, int *failed);

/* A body's shape (NULL for a compound body: hd_scene_body_compound), pose and user pointer (each
 * output may be NULL). HD_ERR_INVALID_ARG for an id that is not a body's. */
HD_API hd_status hd_scene_body(const hd_scene *scene, int id, const hd_polytope **shape,
                               hd_pose *pose, void **user);

/* Number of bodies in the scene; 0 for NULL. */
HD_API int hd_scene_body_count(const hd_scene *scene);

/* A pair in contact: body ids a < b, the verdict (HD_TOUCHING or HD_INTERSECTING, hd_collide's;
 * HD_SEPARATED for a pair within the proximity that does not touch) and the bodies' user
 * pointers. With detail HD_SCENE_DEPTH or above, contact points to the
 * pair's hd_signed_distance answer (body a as A, body b as B; its own verdict field is the one
 * hd_signed_distance derives from the signed distance, which may differ from `verdict` at the
 * edge of the touching band); with HD_SCENE_MANIFOLD, manifold points to its contact manifold.
 * Both are NULL below those levels. They point into storage of the scene that stays valid as
 * long as the contacts array does (until the next call that changes the scene). */
typedef struct hd_scene_contact {
    int a;
    int b;
    hd_verdict verdict;
    void *user_a;
    void *user_b;
    const hd_signed_distance_result *contact;
    const hd_manifold *manifold;
    /* Compound bodies: the pieces of a and b that decide (hd_compound_collide's pair, or with a
     * detail level the pair of the signed distance); -1 on the side of a plain body. */
    int piece_a;
    int piece_b;
    /* With HD_SCENE_MANIFOLD and a compound body: the pieces of each manifold point,
     * point_pieces[2 i] of a and [2 i + 1] of b (the points' normals are their pairs' own, the
     * manifold's normal the deepest pair's); NULL otherwise. */
    const int *point_pieces;
    /* A swept pair (continuous step): hd_toi's time of impact in [0, 1] (0: in contact at the
     * start of the frame); the verdict and detail are those at the start of the frame when it is
     * 0, else HD_TOUCHING with contact at the poses of the impact (hd_toi's; the manifold is
     * hd_contact_manifold's there, without points when the distance at the impact, within the
     * motion's band, is above the query's band). 1 for every other pair. */
    double toi;
} hd_scene_contact;

/* What the last step did (with the queries since the previous step, which bring the broad phase
 * up to date too). Times are wall-clock nanoseconds (monotonic clock). */
typedef struct hd_scene_stats {
    int bodies;              /* bodies in the scene */
    int moved;               /* bodies added or moved since the previous step (with a body
                              * whose every entry of an hd_scene_move_many was refused: its box
                              * and pairs are computed again, to the same answers) */
    int pairs;               /* pairs in the pair table (boxes overlapping) */
    int pairs_added;         /* pairs whose boxes began to overlap in this step */
    int pairs_removed;       /* pairs whose boxes stopped overlapping (or whose body was removed) */
    int tested;              /* pairs the narrow phase examined (new, or with a moved body):
                                tight boxes compared, hd_collide run when they overlap */
    int swept;               /* of them, pairs apart at the frame's start given to hd_toi (a
                                swept body's: the continuous step) */
    int contacts;            /* pairs touching or intersecting, and those within the proximity */
    int near;                /* of them, separated pairs within the proximity */
    int reinserted;          /* tree: leaves whose body left its fattened box */
    int threads;             /* threads that ran the step, the caller's included (with tasks:
                                worker_count) */
    long long boxes_ns;      /* the moved bodies' boxes (on all threads) */
    long long broad_ns;      /* broad phase: structure update, new pairs (with the tree, the
                                reinsertions run beside the narrow phase: their time is here) */
    long long narrow_ns;     /* narrow phase: sorting out the pairs, the queries and, with a
                                detail level, the contact queries, gathering the contacts (all
                                threads; the wall time the reinsertions left) */
    long long sort_ns;       /* sorting the contacts, dropping parted pairs */
    int failures;            /* pairs whose query failed (they are not in the contacts) */
    hd_status failed_status; /* the first failed pair by ids (a, b), and its status */
    int failed_a;
    int failed_b;
} hd_scene_stats;

/* Runs one frame: brings the broad phase up to date with the poses given since the last step,
 * queries every pair whose boxes overlap and whose verdict may have changed, and sets *contacts
 * to the pairs in contact, sorted by (a, b), *count to their number. The array belongs to the
 * scene and stays valid until the next call that changes the scene (step, add, remove, move,
 * destroy). stats may be NULL. Errors: HD_ERR_NULL; HD_ERR_NO_MEMORY (no contacts: part of
 * the work may be done, nothing is lost, and the step may be repeated); the status of a failed pair
 * query (hd_collide's or, with a detail level, the contact query's; the first by ids, see stats):
 * the other pairs are answered and listed all the same, the failed one is not listed. */
HD_API hd_status hd_scene_step(hd_scene *scene, const hd_scene_contact **contacts, int *count,
                               hd_scene_stats *stats);

/* Bodies whose box overlaps the axis-aligned box [lo, hi] (world frame; lo <= hi): their ids in
 * increasing order in ids[0 .. min(*count, capacity) - 1]; *count is the number of such bodies,
 * which may exceed capacity (then ids holds the smallest capacity ids). The scene's broad phase
 * is brought up to date with the latest poses first. A body's box contains its posed shape
 * (a swept body's: its whole motion over the frame) widened by the touching band and half the
 * proximity. Errors: HD_ERR_NULL (ids may be NULL when
 * capacity is 0), HD_ERR_NONFINITE, HD_ERR_INVALID_ARG (lo > hi, capacity < 0), HD_ERR_NO_MEMORY.
 */
HD_API hd_status hd_scene_query_box(hd_scene *scene, const double lo[3], const double hi[3],
                                    int *ids, int capacity, int *count);

/* Bodies that touch or intersect the posed polytope (shape, pose; NULL pose: identity), as
 * hd_collide with the scene's algorithm and tolerances answers (filters and proximity do not
 * apply): ids in increasing order, with
 * their verdicts when verdicts is not NULL, as hd_scene_query_box. Errors: those of
 * hd_scene_query_box, the pose errors of hd_scene_add, and the status of a failed query. */
HD_API hd_status hd_scene_query_polytope(hd_scene *scene, const hd_polytope *shape,
                                         const hd_pose *pose, int *ids, hd_verdict *verdicts,
                                         int capacity, int *count);

/* One body hit by a ray: its id and hd_ray_cast's answer against it (hedra/motion.h). */
typedef struct hd_scene_ray_hit {
    int id;
    hd_ray_result ray;
} hd_scene_ray_hit;

/* Bodies hit by the ray origin + t dir, 0 <= t <= length (length may be HUGE_VAL), found through
 * the broad phase (the tree's boxes, or a scan of the boxes with sweep-and-prune) and answered by
 * hd_ray_cast (exact on each body's face planes). all false: the nearest hit only (the least t;
 * among equal t the smallest id), *count 0 or 1. all true: every hit, ordered by t and then id,
 * the first min(*count, capacity) of them in hits; *count is their number. Bodies that are points
 * or segments are never hit (a ray meets them only in degenerate positions). Queries do not
 * allocate beyond the scene's own scratch. Errors: HD_ERR_NULL (hits may be NULL when capacity is
 * 0), HD_ERR_NONFINITE, HD_ERR_INVALID_ARG (dir zero, length negative or NaN, capacity < 0),
 * HD_ERR_NO_MEMORY. */
HD_API hd_status hd_scene_raycast(hd_scene *scene, const double origin[3], const double dir[3],
                                  double length, bool all, hd_scene_ray_hit *hits, int capacity,
                                  int *count);

/* A body's motion over a frame, for hd_scene_sweep: the twist of hd_motion (hedra/motion.h) from
 * the body's current pose: velocity v, angular velocity w (radians over the frame, world axes),
 * centre c. */
typedef struct hd_body_twist {
    int id;
    double v[3];
    double w[3];
    double c[3];
} hd_body_twist;

/* A pair that comes into contact during the frame, a < b, with hd_toi's answer for it (for a
 * compound body, hd_compound_toi's pair answer; its pieces are not named here). */
typedef struct hd_scene_toi {
    int a;
    int b;
    hd_toi_result toi;
} hd_scene_toi;

/* The continuous check of a frame: the bodies of twists (count of them) move over t in [0, 1]
 * from their current poses, every other body stays; for every pair with a moving body whose
 * swept boxes meet (a moving body's swept box: the box of its centre's path widened by its reach
 * and the motion's band), hd_toi (hd_compound_toi where a body is a compound; opt: its options,
 * NULL the defaults) gives the first contact.
 * Bodies whose speed bound |v| + |w| reach is at most threshold are taken as still (the discrete
 * step answers them). The pairs that hit, by (a, b), the first min(*found, capacity) of them in
 * out; *found is their number. The poses are not changed. On the caller's thread; no
 * allocation beyond the scene's scratch. Errors: HD_ERR_NULL, HD_ERR_INVALID_ARG (an id not a
 * live body or listed twice, count or capacity < 0, threshold negative or NaN), HD_ERR_NONFINITE,
 * HD_ERR_NO_MEMORY, and the first failed hd_toi's status (by pair order; that pair is not
 * listed, the others are). */
HD_API hd_status hd_scene_sweep(hd_scene *scene, const hd_body_twist *twists, int count,
                                double threshold, const hd_toi_options *opt, hd_scene_toi *out,
                                int capacity, int *found);

#ifdef __cplusplus
}
#endif

#endif
