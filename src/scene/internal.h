/* The layout of hd_scene, shared by the files of the scene module (never installed).
 *
 * Bodies live in an array indexed by id. A removed body's id waits in `removed` until the end of
 * the next step (its pairs are dropped first), then joins the free list. Arrays grow
 * geometrically and never shrink; a steady-state step allocates nothing.
 *
 * Lists of ids:
 *   stale:   bodies whose box must be recomputed (added or moved since the last sync);
 *   moved:   bodies added or moved since the last step (their pairs are queried again);
 *   fresh:   tree only, bodies (re)inserted since the last sync, whose pairs are looked for;
 *   removed: bodies removed since the last step.
 * A sync (sync.c) brings boxes, broad phase and pair table up to date with the poses; the step
 * and the queries start with one. */
#ifndef HD_SCENE_INTERNAL_H
#define HD_SCENE_INTERNAL_H

#include "hedra/scene.h"
#include "scene/box.h"
#include "scene/pairs.h"
#include "scene/pool.h"
#include "scene/sap.h"
#include "scene/tree.h"

enum { HD_BODY_FREE = 0, HD_BODY_LIVE = 1, HD_BODY_REMOVED = 2 };

/* Flags of a body, one byte per id in hd_scene.flags (a small array the pair loops read at
 * random, apart from the larger body records). */
enum {
    HD_BODY_STALE = 1u << 0,   /* in the stale list */
    HD_BODY_MOVED = 1u << 1,   /* in the moved list */
    HD_BODY_FRESH = 1u << 2,   /* in the fresh list */
    HD_BODY_ESCAPED = 1u << 3, /* tree: its new box left its fattened box */
    HD_BODY_ALIVE = 1u << 4,   /* state HD_BODY_LIVE */
    HD_BODY_TINY = 1u << 5,    /* its shape's radius is below HD_MIN_SCALE */
    HD_BODY_REFAT = 1u << 6    /* tree: a new fattened box since the last step */
};

/* What a pair in contact keeps with detail HD_SCENE_DEPTH (contact) or HD_SCENE_MANIFOLD (both):
 * the extra bytes of its pair record (pairs.h). */
typedef struct hdi_pair_detail {
    hd_signed_distance_result contact;
    hd_manifold manifold;
    int pieces[2 * HD_MANIFOLD_MAX]; /* a compound pair's: the pieces of each manifold point */
} hdi_pair_detail;

/* The extra bytes per pair record for a detail level. */
static inline size_t hdi_scene_detail_size(hd_scene_detail detail)
{
    return detail == HD_SCENE_MANIFOLD ? sizeof(hdi_pair_detail)
           : detail == HD_SCENE_DEPTH  ? sizeof(hd_signed_distance_result)
                                       : 0;
}

typedef struct hdi_body {
    const hd_polytope *shape;    /* NULL for a compound body */
    const hd_compound *compound; /* hd_scene_add_compound's, else NULL */
    hd_compound *wrap;           /* a plain body as a compound of one piece (owned), once the
                                    scene holds a compound body; else NULL */
    double v[3];                 /* the twist of hd_scene_set_velocity (zero: at rest) */
    double w[3];
    int swept;    /* its motion over the frame may exceed the sweep threshold */
    double reach; /* farthest point of the body from its frame origin (its motion's centre) */
    void *user;
    hd_pose pose;
    double radius; /* the shape's bounding radius: the unit of the fattening margin */
    int state;     /* HD_BODY_FREE, _LIVE or _REMOVED */
    int proxy;     /* in the broad phase: its tree leaf, or 0 in SAP; -1 when not yet */
    int hint[6];   /* support vertices of the last box, for shapes that climb (no table) */
    int next_free; /* free list link */
} hdi_body;

/* A contact's sort key, (a << 32 | b), and its place in the unsorted contacts. */
typedef struct hdi_sort_key {
    unsigned long long key;
    int place;
} hdi_sort_key;

/* First capacities of the arrays that grow (core/array.h doubles them): lists of ids start small,
 * as most hold a few moved bodies; arrays indexed by id, contacts and results at 64. */
#define HD_IDLIST_MIN_CAPACITY 16
#define HD_SCENE_MIN_BODIES 64
#define HD_SCENE_MIN_CONTACTS 64

/* A growable list of ids. */
typedef struct hdi_idlist {
    int *ids;
    int count;
    int capacity;
} hdi_idlist;

/* A worker's share of the parallel loops over bodies and pairs: what it found, appended to lists
 * of its own (grown geometrically, reused), merged by the caller afterwards. */
typedef struct hdi_lane {
    int out_of_memory; /* sticky: one of its lists could not grow (core/array.h) */
    hdi_idlist found;  /* tree: candidate pairs (a, b) of the fresh bodies' queries */
    int tested;        /* pairs it queried */
    int swept;         /* of them, pairs given to hd_toi (the continuous step) */
    hdi_idlist drop;   /* tree: pairs whose fattened boxes parted */
    hd_scene_contact *contacts;
    int contact_count;
    int contact_capacity;
    int alive;    /* hdi_scene_clear_flags: live ids among those cleared */
    int failures; /* pairs whose query failed; the first by ids and its status */
    int failed_a;
    int failed_b;
    hd_status failed_status;
} hdi_lane;

struct hd_scene {
    hd_scene_options opt;
    double band_rel; /* boxes are widened by band_rel times the body's scale (body.c) */
    double grow;     /* and by half the proximity (length units) */
    hdi_body *bodies;
    hdi_box *boxes;           /* tight boxes, by id */
    hdi_box *fat;             /* tree: fattened boxes (those of the leaves), by id */
    unsigned char *flags;     /* by id */
    double *reach;            /* by id: |sphere centre| + radius of the shape (range checks) */
    hd_scene_filter *filters; /* by id */
    int *slot;                /* by id, while stale: its place in the stale list */
    /* by place in the stale list: move_base + the index of hd_scene_move_many's last entry for
     * the body there whose pose passed, its pose in staged_pose (copied into the body record by
     * the box loop, on the thread that computes the box); -1 when the record holds the pose */
    int *staged_by;
    hd_pose *staged_pose;
    int staged_capacity;
    int move_base; /* the entries of this frame's earlier hd_scene_move_many calls */
    int body_ids;  /* ids in use or freed: bodies[0 .. body_ids - 1] */
    int body_capacity;
    int live;
    int compounds; /* the scene holds (or held) a compound body: every plain body has a wrap */
    int unplaced;  /* tree: bodies added and not in the tree yet */
    int free_head; /* -1 when no id is free */
    hdi_idlist stale, moved, fresh, removed;
    int purge; /* pairs of removed bodies still in the table */
    hdi_pair_table pairs;
    hdi_tree tree;
    hdi_sap sap;
    hdi_pool *pool;          /* hedra's pool, or NULL when the loops run on `tasks` */
    hd_task_callbacks tasks; /* the caller's job system (when pool is NULL) */
    hd_workspace **ws;       /* one per thread (CD-Dual, or a detail level), else NULL */
    hdi_idlist work;         /* tree_rebuild's leaves */
    hdi_tree_jobs jobs;      /* tree_rebuild's subtrees, built on every thread */
    /* tree_rebuild's pairs, one list per task of hdi_tree_pair_task (a, b, a, b, ...) */
    hdi_idlist pair_tasks[HD_TREE_BUILD_JOBS * (HD_TREE_BUILD_JOBS + 1) / 2];
    hdi_idlist scratch; /* queries: candidate ids */
    hdi_lane *lanes;    /* one per thread */
    hd_scene_contact *contacts;
    hd_scene_contact *contact_tmp; /* the contacts gathered in sorted order, as large */
    hdi_sort_key *sort_keys;       /* the radix sort's keys: two buffers of contact_capacity */
    int contact_count;
    int contact_capacity;
    hd_signed_distance_result
        *out_contact;          /* detail: the contacts' answers, by place in contacts */
    hd_manifold *out_manifold; /* HD_SCENE_MANIFOLD: their manifolds */
    int *out_pieces;           /* and their points' pieces, 2 HD_MANIFOLD_MAX per contact */
    int out_capacity;
    hd_scene_stats stats;
    /* sticky (core/array.h): a growth on the caller's thread failed; each public call that grows
     * takes it once, where it returns (hdi_scene_take_failure) */
    int out_of_memory;
};

/* Room for count ids in a list; appends id to a list. 0 when out of memory (or count above
 * 4 HD_MAX_POINTS): the list stays as it was and *failed is set (sticky, core/array.h). */
int hdi_idlist_reserve(hdi_idlist *list, int count, int *failed);
int hdi_idlist_push(hdi_idlist *list, int id, int *failed);
void hdi_idlist_free(hdi_idlist *list);

/* HD_ERR_NO_MEMORY when a growth of this call failed (s->out_of_memory), which it clears; else
 * HD_OK. */
hd_status hdi_scene_take_failure(hd_scene *s);

/* The tight box of a body at its pose: the extreme vertices along each world axis by support
 * climbs from the last ones, widened by band_rel times the body's scale and by grow (body.c). */
void hdi_body_box(hdi_body *body, double band_rel, double grow, hdi_box *out);

/* The box of every point of the body over motion m (m->pose0 its pose at t = 0, any centre),
 * widened by band_rel as the body's boxes are (body.c): the one swept box of the step and of
 * hd_scene_sweep. */
void hdi_body_swept_box(const hdi_body *body, const hd_motion *m, double band_rel, hdi_box *out);

/* The compound a body is queried as against a compound body: its own, or its one-piece wrap. */
static inline const hd_compound *hdi_body_as_compound(const hdi_body *b)
{
    return b->compound != NULL ? b->compound : b->wrap;
}

/* A body as a list of convex pieces: a plain body is one piece at its pose; piece i of a
 * compound body at the body pose composed with the piece's. */
static inline int hdi_body_piece_count(const hdi_body *b)
{
    return b->compound != NULL ? hd_compound_piece_count(b->compound) : 1;
}

static inline const hd_polytope *hdi_body_piece(const hdi_body *b, int i, hd_pose *pose)
{
    if (b->compound == NULL) {
        *pose = b->pose;
        return b->shape;
    }
    hd_compound_piece_pose(b->compound, &b->pose, i, pose);
    return hd_compound_piece(b->compound, i, NULL);
}

/* The body's motion over the frame (hd_motion, centre its frame origin). */
void hdi_body_motion(const hdi_body *body, hd_motion *out);

/* Does the filter let bodies a and b collide (hd_scene_filter)? */
static inline int hdi_filter_pass(const hd_scene_filter *a, const hd_scene_filter *b)
{
    return (a->category & b->mask) != 0 && (b->category & a->mask) != 0 &&
           (a->group == 0 || a->group != b->group);
}

/* |sphere centre| + radius of a shape: |t|_max + reach bounds the posed scale. */
double hdi_body_reach(const hd_polytope *shape);

/* HD_ERR_RANGE when |t|_max + reach > HD_MAX_COORD, or when the scale of the posed shape as
 * hd_collide defines it (largest |coordinate| of its bounding sphere) is positive and below
 * HD_MIN_SCALE: computed only when the shape is tiny (radius below HD_MIN_SCALE), else it cannot
 * be; shape may then be NULL. */
hd_status hdi_body_check_range(const hd_polytope *shape, double reach, int tiny,
                               const hd_pose *pose);

/* The widening of boxes for the tolerances tol (body.c). */
double hdi_body_band_rel(const hd_tolerance *tol);

/* Brings boxes, broad phase and pair table up to date (sync.c). HD_ERR_NO_MEMORY, with
 * s->out_of_memory set for the public call to take: what was done stays done; a later sync
 * completes the rest. */
hd_status hdi_scene_sync(hd_scene *s);

/* hdi_scene_sync in two parts: the stale bodies' poses and boxes (on every thread) and the pairs
 * of removed bodies dropped; then the broad phase and the pair table. */
void hdi_scene_sync_boxes(hd_scene *s);
hd_status hdi_scene_sync_rest(hd_scene *s);

/* Or, after hdi_scene_sync_boxes, when hdi_scene_can_place_beside (the tree, no rebuild due):
 * hdi_scene_place_prepare (serial), then the tree placement of the escaped bodies and their
 * queries as the lead task of hdi_scene_run_beside (it writes the tree, the body records'
 * proxies, the fresh list and lane 0's candidates, and leaves the flags), then
 * hdi_scene_placed: the flags, and the fresh bodies' pairs into the table. A lead that fails
 * (no room for a candidate) sets lane 0's out_of_memory. */
int hdi_scene_can_place_beside(const hd_scene *s);
void hdi_scene_place_prepare(hd_scene *s);
void hdi_scene_place_lead(void *scene);
hd_status hdi_scene_placed(hd_scene *s);

/* The scene's loops on its job system (tasks.c): hedra's pool or the caller's callbacks, with
 * the meaning of the hdi_pool_* functions of the same names; wake only concerns the pool.
 * hdi_scene_threads is the number of workers, hence of lanes and workspaces. */
int hdi_scene_threads(const hd_scene *s);
int hdi_scene_chunk(const hd_scene *s, int count, int least, int most);
void hdi_scene_run(hd_scene *s, hdi_pool_fn fn, void *ctx, int count, int chunk);
void hdi_scene_run_beside(hd_scene *s, void (*lead)(void *), void *lead_ctx, hdi_pool_fn fn,
                          void *ctx, int count, int chunk);
void hdi_scene_wake(hd_scene *s, int count, int chunk);

/* Clears the flags in mask of every id in list (each id at most once), on every thread
 * (sync.c); returns how many of them are alive. */
int hdi_scene_clear_flags(hd_scene *s, const hdi_idlist *list, unsigned mask);

#endif
