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

/* Flags of a body. */
enum {
    HD_BODY_STALE = 1u << 0, /* in the stale list */
    HD_BODY_MOVED = 1u << 1, /* in the moved list */
    HD_BODY_FRESH = 1u << 2  /* in the fresh list */
};

typedef struct hd_body {
    const hd_polytope *shape;
    void *user;
    hd_pose pose;
    double radius; /* the shape's bounding radius: the unit of the fattening margin */
    int state;     /* HD_BODY_FREE, _LIVE or _REMOVED */
    unsigned flags;
    int proxy;     /* in the broad phase: its tree leaf, or 0 in SAP; -1 when not yet */
    int hint[6];   /* support vertices of the last box (starts of the next climbs) */
    int next_free; /* free list link */
} hd_body;

/* A growable list of ids. */
typedef struct hd_idlist {
    int *ids;
    int count;
    int capacity;
} hd_idlist;

struct hd_scene {
    hd_scene_options opt;
    double band_rel; /* boxes are widened by band_rel times the body's scale (body.c) */
    hd_body *bodies;
    hd_box *boxes; /* tight boxes, by id */
    int body_ids;  /* ids in use or freed: bodies[0 .. body_ids - 1] */
    int body_capacity;
    int live;
    int free_head; /* -1 when no id is free */
    hd_idlist stale, moved, fresh, removed;
    int purge; /* pairs of removed bodies still in the table */
    hd_pair_table pairs;
    hd_tree tree;
    hd_sap sap;
    hd_pool *pool;
    hd_workspace **ws; /* one per thread (CD-Dual), else NULL */
    hd_idlist work;    /* narrow phase: indices of the pairs to query */
    hd_idlist scratch; /* queries: candidate ids */
    hd_scene_contact *contacts;
    int contact_count;
    int contact_capacity;
    hd_scene_stats stats;
};

/* Appends id to a list. HD_ERR_NO_MEMORY leaves it as it was. */
hd_status hd_idlist_push(hd_idlist *list, int id);
hd_status hd_idlist_reserve(hd_idlist *list, int count);
void hd_idlist_free(hd_idlist *list);

/* The tight box of a body at its pose: the extreme vertices along each world axis by support
 * climbs from the last ones, widened by band_rel times the body's scale (body.c). */
void hd_body_box(hd_body *body, double band_rel, hd_box *out);

/* The scale of a posed shape as hd_collide defines it (largest |coordinate| of its bounding
 * sphere); HD_ERR_RANGE outside [HD_MIN_SCALE, HD_MAX_COORD] (0 is allowed). */
hd_status hd_body_check_range(const hd_polytope *shape, const hd_pose *pose);

/* The widening of boxes for the tolerances tol (body.c). */
double hd_body_band_rel(const hd_tolerance *tol);

/* Brings boxes, broad phase and pair table up to date (sync.c). HD_ERR_NO_MEMORY: what was done
 * stays done; a later sync completes the rest. */
hd_status hd_scene_sync(hd_scene *s);

/* Monotonic clock in nanoseconds (sync.c). */
long long hd_scene_now_ns(void);

/* The fattened box of a body from its tight box (tree). */
void hd_scene_fat_box(const hd_scene *s, int id, hd_box *out);

#endif
