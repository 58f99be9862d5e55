/* The public life cycle of a scene: options, creation, bodies added, moved and removed. The work
 * happens later, in one pass per step (sync.c, step.c). */
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/math.h"
#include "scene/internal.h"

/* Moves per chunk of hd_scene_move_many's checks: a check is a short pose test, so a chunk
 * holds many. */
#define HD_SCENE_MOVE_CHUNK 64
#define HD_SCENE_MOVE_CHUNK_MAX 256

/* Candidates of one CD-Dual search in a worker's workspace at first (grow_workspaces). */
#define HD_SCENE_WORKSPACE (1 << 14)

static const char *const hdi_broadphase_names[HD_BROADPHASE_COUNT] = {"tree", "sap"};

const char *hd_broadphase_str(hd_broadphase bp)
{
    return (int)bp >= 0 && bp < HD_BROADPHASE_COUNT ? hdi_broadphase_names[bp] : "unknown";
}

hd_status hd_broadphase_parse(const char *name, hd_broadphase *out)
{
    if (name == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    for (int i = 0; i < HD_BROADPHASE_COUNT; ++i) {
        if (strcmp(name, hdi_broadphase_names[i]) == 0) {
            *out = (hd_broadphase)i;
            return HD_OK;
        }
    }
    return HD_ERR_INVALID_ARG;
}

hd_scene_options hd_scene_options_default(void)
{
    hd_scene_options o;
    memset(&o, 0, sizeof o);
    o.threads = 0;
    o.broadphase = HD_BROADPHASE_TREE;
    o.margin = HD_SCENE_DEFAULT_MARGIN;
    o.algo = HD_ALGO_GJK;
    o.tol = hd_tolerance_default();
    return o;
}

int hdi_idlist_reserve(hdi_idlist *list, int count, int *failed)
{
    if (count > HD_MAX_POINTS * 4) { /* never that many ids: a caller's count gone wrong */
        *failed = 1;
        return 0;
    }
    return hdi_array_reserve(&list->ids, &list->capacity, count, HD_IDLIST_MIN_CAPACITY,
                             sizeof *list->ids, failed);
}

int hdi_idlist_push(hdi_idlist *list, int id, int *failed)
{
    if (!hdi_idlist_reserve(list, list->count + 1, failed)) {
        return 0;
    }
    list->ids[list->count++] = id;
    return 1;
}

hd_status hdi_scene_take_failure(hd_scene *s)
{
    int failed = s->out_of_memory;
    s->out_of_memory = 0;
    return failed ? HD_ERR_NO_MEMORY : HD_OK;
}

void hdi_idlist_free(hdi_idlist *list)
{
    free(list->ids);
    memset(list, 0, sizeof *list);
}

/* A caller's job system: both callbacks, 1 .. HD_SCENE_MAX_THREADS workers, and threads 0 or
 * the same count. */
static int tasks_valid(const hd_scene_options *o)
{
    const hd_task_callbacks *t = o->tasks;
    return t->enqueue != NULL && t->finish != NULL && t->worker_count >= 1 &&
           t->worker_count <= HD_SCENE_MAX_THREADS &&
           (o->threads == 0 || o->threads == t->worker_count);
}

static hd_status check_options(const hd_scene_options *o)
{
    int ok = (o->tasks == NULL || tasks_valid(o)) && o->threads >= 0 &&
             o->threads <= HD_SCENE_MAX_THREADS && (int)o->broadphase >= 0 &&
             o->broadphase < HD_BROADPHASE_COUNT && isfinite(o->margin) && o->margin >= 0.0 &&
             o->margin <= 16.0 && (int)o->algo >= 0 && o->algo < HD_ALGO_COUNT &&
             (int)o->detail >= 0 && o->detail < HD_SCENE_DETAIL_COUNT && o->proximity >= 0.0 &&
             o->proximity <= HD_MAX_COORD && o->sweep_threshold >= 0.0;
    return ok ? hd_tolerance_validate(&o->tol) : HD_ERR_INVALID_ARG;
}

/* The threads and, for CD-Dual or a detail level, one workspace per thread (for a detail level
 * alone, made when the first body is added: grow_workspaces). */
static hd_status start_threads(hd_scene *s)
{
    int threads = s->opt.threads > 0 ? s->opt.threads : hdi_pool_cores();
    if (s->opt.tasks != NULL) {
        s->tasks = *s->opt.tasks;
        s->opt.tasks = &s->tasks; /* the caller's struct need not outlive hd_scene_create */
        threads = s->tasks.worker_count;
    }
    threads = threads < HD_SCENE_MAX_THREADS ? threads : HD_SCENE_MAX_THREADS;
    s->opt.threads = threads;
    if (s->opt.algo == HD_ALGO_CDDUAL || s->opt.detail != HD_SCENE_VERDICT) {
        s->ws = calloc((size_t)threads, sizeof *s->ws);
        if (s->ws == NULL) {
            return HD_ERR_NO_MEMORY;
        }
        for (int i = 0; i < threads && s->opt.algo == HD_ALGO_CDDUAL; ++i) {
            hd_status st = hd_workspace_create(HD_SCENE_WORKSPACE, &s->ws[i]);
            if (st != HD_OK) {
                return st;
            }
        }
    }
    s->lanes = calloc((size_t)threads, sizeof *s->lanes);
    if (s->lanes == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    return s->opt.tasks != NULL ? HD_OK : hdi_pool_create(threads, &s->pool);
}

hd_status hd_scene_create(const hd_scene_options *opt, hd_scene **out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    *out = NULL;
    hd_scene_options o = opt != NULL ? *opt : hd_scene_options_default();
    hd_status st = check_options(&o);
    if (st != HD_OK) {
        return st == HD_ERR_NULL ? HD_ERR_INVALID_ARG : st;
    }
    hd_scene *s = calloc(1, sizeof *s);
    if (s == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    if (o.proximity > 0.0 && o.detail == HD_SCENE_VERDICT) {
        o.detail = HD_SCENE_DEPTH; /* a pair within the proximity carries its signed distance */
    }
    s->opt = o;
    s->band_rel = hdi_body_band_rel(&o.tol);
    s->grow = 0.5 * o.proximity;
    s->free_head = -1;
    hdi_pairs_init(&s->pairs, hdi_scene_detail_size(o.detail));
    hdi_tree_init(&s->tree);
    hdi_sap_init(&s->sap);
    st = start_threads(s);
    if (st != HD_OK) {
        hd_scene_destroy(s);
        return st;
    }
    *out = s;
    return HD_OK;
}

void hd_scene_destroy(hd_scene *s)
{
    if (s == NULL) {
        return;
    }
    hdi_pool_destroy(s->pool);
    if (s->ws != NULL) {
        for (int i = 0; i < s->opt.threads; ++i) {
            hd_workspace_destroy(s->ws[i]);
        }
        free(s->ws);
    }
    hdi_pairs_free(&s->pairs);
    hdi_tree_free(&s->tree);
    hdi_sap_free(&s->sap);
    hdi_idlist_free(&s->stale);
    hdi_idlist_free(&s->moved);
    hdi_idlist_free(&s->fresh);
    hdi_idlist_free(&s->removed);
    hdi_idlist_free(&s->work);
    hdi_idlist_free(&s->scratch);
    for (int i = 0; s->lanes != NULL && i < s->opt.threads; ++i) {
        hdi_idlist_free(&s->lanes[i].found);
        hdi_idlist_free(&s->lanes[i].drop);
        free(s->lanes[i].contacts);
    }
    free(s->lanes);
    for (int id = 0; s->bodies != NULL && id < s->body_ids; ++id) {
        hd_compound_destroy(s->bodies[id].wrap);
    }
    free(s->bodies);
    free(s->boxes);
    free(s->fat);
    free(s->flags);
    free(s->reach);
    for (size_t k = 0; k < sizeof s->pair_tasks / sizeof s->pair_tasks[0]; ++k) {
        hdi_idlist_free(&s->pair_tasks[k]);
    }
    free(s->filters);
    free(s->slot);
    free(s->staged_by);
    free(s->staged_pose);
    free(s->contacts);
    free(s->contact_tmp);
    free(s->sort_keys);
    free(s->out_contact);
    free(s->out_manifold);
    free(s->out_pieces);
    free(s);
}

int hd_scene_body_count(const hd_scene *s)
{
    return s != NULL ? s->live : 0;
}

/* Reads only the small per-id arrays: a move does not touch the body record (the parallel box
 * loop does, sync.c). */
static int is_live(const hd_scene *s, int id)
{
    return id >= 0 && id < s->body_ids && (s->flags[id] & HD_BODY_ALIVE);
}

/* A pose for a body: validated with the scene's pose tolerance and range-checked. */
static hd_status check_pose(const hd_scene *s, const hd_polytope *shape, double reach, int tiny,
                            const hd_pose *pose)
{
    hd_status st = hd_pose_validate(pose, s->opt.tol.pose_tol);
    return st != HD_OK ? st : hdi_body_check_range(shape, reach, tiny, pose);
}

/* Room for `more` more entries in the stale list (with their batch entries) and the moved list;
 * each id is at most once in each, so never more than body_ids + 1 (a body being added). */
static hd_status reserve_lists_n(hd_scene *s, int more)
{
    long long cap = (long long)s->body_ids + 1;
    int stale = (int)(s->stale.count + (long long)more < cap ? s->stale.count + more : cap);
    int moved = (int)(s->moved.count + (long long)more < cap ? s->moved.count + more : cap);
    int *failed = &s->out_of_memory;
    hdi_idlist_reserve(&s->stale, stale, failed);
    hdi_idlist_reserve(&s->moved, moved, failed);
    if (s->staged_capacity < s->stale.capacity) {
        /* each kept when the other fails: the capacity stays, the arrays kept are as large */
        hdi_array_resize(&s->staged_by, s->stale.capacity, sizeof *s->staged_by, failed);
        hdi_array_resize(&s->staged_pose, s->stale.capacity, sizeof *s->staged_pose, failed);
        s->staged_capacity = *failed ? s->staged_capacity : s->stale.capacity;
    }
    return hdi_scene_take_failure(s);
}

static hd_status reserve_lists(hd_scene *s)
{
    return reserve_lists_n(s, 1);
}

/* Marks a body stale and moved (room reserved); its place in the stale list. */
static int mark_stale(hd_scene *s, int id)
{
    unsigned char *flags = &s->flags[id];
    if (!(*flags & HD_BODY_STALE)) {
        s->slot[id] = s->stale.count;
        s->staged_by[s->stale.count] = -1;
        s->stale.ids[s->stale.count++] = id;
    }
    if (!(*flags & HD_BODY_MOVED)) {
        s->moved.ids[s->moved.count++] = id;
    }
    *flags |= HD_BODY_STALE | HD_BODY_MOVED;
    return s->slot[id];
}

/* Gives a body its pose and marks it for the next sync (room reserved). Nothing reads a body's
 * pose between its move and the next sync (the scene's queries sync first, hd_scene_body looks
 * at the staged pose), so the pose goes straight into the body record, where the box loop reads
 * it; a pose staged by an earlier hd_scene_move_many is overridden. */
static void stage(hd_scene *s, int id, const hd_pose *pose)
{
    s->staged_by[mark_stale(s, id)] = -1;
    s->bodies[id].pose = *pose;
}

/* The pose check of hd_scene_move for a live body. Reads only. */
static hd_status check_body_pose(const hd_scene *s, int id, const hd_pose *pose)
{
    int tiny = (s->flags[id] & HD_BODY_TINY) != 0;
    const hd_polytope *shape = tiny ? s->bodies[id].shape : NULL;
    return check_pose(s, shape, s->reach[id], tiny, pose);
}

/* The checks of hd_scene_move for one body: its id, then its pose. Reads only. */
static hd_status check_move(const hd_scene *s, int id, const hd_pose *pose)
{
    return is_live(s, id) ? check_body_pose(s, id, pose) : HD_ERR_INVALID_ARG;
}

typedef struct move_ctx {
    hd_scene *s;
    const int *ids;
    const hd_pose *poses;
    int base;           /* entry i is named base + i in s->staged_by */
    atomic_int refused; /* set by a worker that refused an entry's pose (rarely written) */
} move_ctx;

/* A refused entry in hd_scene_move_many's scratch: -1 for an id that is not a body's, else
 * -2 - place (place: the body's place in the stale list). */
static int refused_place(int entry)
{
    return -2 - entry;
}

/* The poses of a batch of moves checked, on every thread, and each body's pose staged from its
 * last entry (s->staged_by) when that entry passes: one writer per place, sequential writes. The
 * body records are not touched here: the box loop copies each staged pose on the thread that
 * computes that body's box, so a record is written by one thread per step, not by whichever
 * thread checked its move, and stays in one core's cache. scratch holds each entry's place in
 * the stale list; a refused entry's becomes -2 - place. */
static void check_copy_chunk(void *ctx, int worker, int begin, int end)
{
    move_ctx *m = ctx;
    hd_scene *s = m->s;
    (void)worker;
    for (int i = begin; i < end; ++i) {
        int place = s->scratch.ids[i], id = m->ids[i];
        if (place < 0) {
            continue;
        }
        if (check_body_pose(s, id, &m->poses[i]) != HD_OK) { /* the id: the serial pass */
            s->scratch.ids[i] = refused_place(place);
            atomic_store_explicit(&m->refused, 1, memory_order_relaxed);
        } else if (s->staged_by[place] == m->base + i) {
            s->staged_pose[place] = m->poses[i];
        }
    }
}

/* After a refusal (rare, serial): each body whose last entry was refused takes the pose of its
 * last valid entry, if any (else it keeps its pose; it stays marked, which only costs its box and
 * pairs a recomputation of the same answers). Returns the first refused entry's status. */
static hd_status mend_refused(hd_scene *s, const move_ctx *m, int count, int *failed)
{
    hd_status first = HD_OK;
    for (int i = 0; i < count; ++i) {
        int e = s->scratch.ids[i];
        if (e < 0 && first == HD_OK) {
            first = e == -1 ? HD_ERR_INVALID_ARG : check_move(s, m->ids[i], &m->poses[i]);
            if (failed != NULL) {
                *failed = i;
            }
        }
        if (e <= -2 && s->staged_by[refused_place(e)] == m->base + i) {
            s->staged_by[refused_place(e)] = -1; /* its last entry refused */
        }
    }
    for (int i = 0; i < count; ++i) { /* in order: the last valid pose wins */
        int place = s->scratch.ids[i];
        if (place >= 0 && s->staged_by[place] == -1) {
            s->bodies[m->ids[i]].pose = m->poses[i];
        }
    }
    return first;
}

/* A pose staged at place by an earlier hd_scene_move_many of this frame (its name below base)
 * goes into the body record, so that a body whose entries in this batch are all refused keeps
 * it (rare: serial). */
static void unstage_earlier(hd_scene *s, int place, int base)
{
    int by = s->staged_by[place];
    if (by >= 0 && by < base) {
        s->bodies[s->stale.ids[place]].pose = s->staged_pose[place];
        s->staged_by[place] = -1;
    }
}

/* Every staged pose into its body record, so that the entries' names start again from 0 (after
 * more than INT_MAX entries in one frame). */
static void unstage_all(hd_scene *s)
{
    for (int place = 0; place < s->stale.count; ++place) {
        unstage_earlier(s, place, INT_MAX);
    }
    s->move_base = 0;
}

hd_status hd_scene_move(hd_scene *s, int id, const hd_pose *pose)
{
    if (s == NULL || pose == NULL) {
        return HD_ERR_NULL;
    }
    hd_status st = check_move(s, id, pose);
    if (st == HD_OK) {
        st = reserve_lists(s);
    }
    if (st == HD_OK) {
        stage(s, id, pose);
    }
    return st;
}

hd_status hd_scene_move_many(hd_scene *s, int count, const int *ids, const hd_pose *poses,
                             int *failed)
{
    if (failed != NULL) {
        *failed = -1;
    }
    if (s == NULL || (count > 0 && (ids == NULL || poses == NULL))) {
        return HD_ERR_NULL;
    }
    if (count < 0) {
        return HD_ERR_INVALID_ARG;
    }
    hd_status st = reserve_lists_n(s, count);
    if (st == HD_OK) {
        hdi_idlist_reserve(&s->scratch, count, &s->out_of_memory);
        st = hdi_scene_take_failure(s);
    }
    if (st != HD_OK) {
        return st; /* nothing moved */
    }
    /* serially, in order: the ids checked and their bodies marked, the last entry of each body
     * named its stager; the worker's wake-up meanwhile (hdi_scene_wake) */
    int chunk = hdi_scene_chunk(s, count, HD_SCENE_MOVE_CHUNK, HD_SCENE_MOVE_CHUNK_MAX);
    hdi_scene_wake(s, count, chunk);
    if (count > INT_MAX - s->move_base) {
        unstage_all(s);
    }
    int unknown = 0, base = s->move_base;
    for (int i = 0; i < count; ++i) {
        int place = -1;
        if (is_live(s, ids[i])) {
            place = mark_stale(s, ids[i]);
            unstage_earlier(s, place, base);
            s->staged_by[place] = base + i;
        }
        unknown |= place < 0;
        s->scratch.ids[i] = place;
    }
    s->move_base = base + count;
    move_ctx m = {s, ids, poses, base, 0};
    hdi_scene_run(s, check_copy_chunk, &m, count, chunk);
    int refused = unknown || atomic_load_explicit(&m.refused, memory_order_relaxed);
    return refused ? mend_refused(s, &m, count, failed) : HD_OK;
}

hd_status hd_scene_body(const hd_scene *s, int id, const hd_polytope **shape, hd_pose *pose,
                        void **user)
{
    if (s == NULL) {
        return HD_ERR_NULL;
    }
    if (!is_live(s, id)) {
        return HD_ERR_INVALID_ARG;
    }
    const hdi_body *b = &s->bodies[id];
    if (shape != NULL) {
        *shape = b->shape; /* NULL for a compound body */
    }
    if (pose != NULL) {
        int place = s->flags[id] & HD_BODY_STALE ? s->slot[id] : -1;
        *pose = place >= 0 && s->staged_by[place] >= 0 ? s->staged_pose[place] : b->pose;
    }
    if (user != NULL) {
        *user = b->user;
    }
    return HD_OK;
}

/* Doubles the arrays indexed by id (each kept when its growth fails: only capacity changes). */
static int grow_bodies(hd_scene *s)
{
    int cap = hdi_array_grown_capacity(s->body_capacity, s->body_capacity + 1, HD_SCENE_MIN_BODIES,
                                       sizeof(hdi_body));
    int *failed = &s->out_of_memory;
    if (cap < 0) {
        *failed = 1;
    }
    hdi_array_resize(&s->bodies, cap, sizeof *s->bodies, failed);
    hdi_array_resize(&s->boxes, cap, sizeof *s->boxes, failed);
    hdi_array_resize(&s->fat, cap, sizeof *s->fat, failed);
    hdi_array_resize(&s->flags, cap, sizeof *s->flags, failed);
    hdi_array_resize(&s->reach, cap, sizeof *s->reach, failed);
    hdi_array_resize(&s->filters, cap, sizeof *s->filters, failed);
    hdi_array_resize(&s->slot, cap, sizeof *s->slot, failed);
    s->body_capacity = *failed ? s->body_capacity : cap;
    return !*failed;
}

/* A free id with room in the body arrays; -1 when out of memory or ids. */
static int take_id(hd_scene *s, hd_status *st)
{
    if (s->free_head >= 0) {
        int id = s->free_head;
        s->free_head = s->bodies[id].next_free;
        return id;
    }
    if (s->body_ids >= HD_MAX_POINTS) {
        *st = HD_ERR_TOO_LARGE;
        return -1;
    }
    if (s->body_ids == s->body_capacity && !grow_bodies(s)) {
        *st = hdi_scene_take_failure(s);
        return -1;
    }
    return s->body_ids++;
}

/* Room for one more body in the lists and the broad phase. */
static hd_status reserve_body(hd_scene *s)
{
    hd_status st = reserve_lists(s);
    if (st == HD_OK && s->opt.broadphase == HD_BROADPHASE_TREE) {
        hdi_idlist_reserve(&s->fresh, s->live + 1, &s->out_of_memory);
        st = hdi_scene_take_failure(s);
        st = st == HD_OK ? hdi_tree_reserve(&s->tree, s->live + 1) : st;
    }
    return st;
}

/* CD-Dual: every worker's workspace at least hd_workspace_capacity_for(shape, shape) for every
 * shape added, which is enough for every pair of them: a pair's need is at most its evaluation
 * cap plus one, 65 + 4 (V_A + V_B), at most the larger shape's own; a shape whose own need is
 * below its cap (its distinct candidates fewer) has at most 13 vertices, and pairs of those need
 * at most 169, far below the initial HD_SCENE_WORKSPACE. A smaller workspace would only make
 * CD-Dual fall back to GJK. A detail level: at least hd_contact_workspace_capacity(shape, shape),
 * which grows with the largest face of either shape, so the largest shape's covers every pair.
 * Every worker's workspace has the same capacity: the answers do not depend on the worker. */
static hd_status grow_workspaces(hd_scene *s, const hd_polytope *shape)
{
    int need = 0;
    hd_status st = HD_OK;
    if (s->ws != NULL && s->opt.algo == HD_ALGO_CDDUAL) {
        st = hd_workspace_capacity_for(shape, shape, &s->opt.tol, &need);
    }
    if (s->ws != NULL && s->opt.detail != HD_SCENE_VERDICT) {
        int contact = hd_contact_workspace_capacity(shape, shape);
        need = contact > need ? contact : need;
    }
    for (int i = 0; st == HD_OK && s->ws != NULL && i < s->opt.threads; ++i) {
        if (s->ws[i] == NULL || hd_workspace_capacity(s->ws[i]) < need) {
            hd_workspace *bigger;
            st = hd_workspace_create(need, &bigger);
            if (st == HD_OK) {
                hd_workspace_destroy(s->ws[i]);
                s->ws[i] = bigger;
            }
        }
    }
    return st;
}

/* A plain body as a compound of one piece (hd_compound_build copies the array of pieces). */
static hd_status wrap_body(hdi_body *b)
{
    const hd_polytope *pieces[1] = {b->shape};
    return b->wrap != NULL || b->compound != NULL ? HD_OK
                                                  : hd_compound_build(pieces, NULL, 1, &b->wrap);
}

/* The first compound body: every plain body gets its wrap. */
static hd_status wrap_all(hd_scene *s)
{
    hd_status st = HD_OK;
    for (int id = 0; id < s->body_ids && st == HD_OK; ++id) {
        if (s->bodies[id].state != HD_BODY_FREE) {
            st = wrap_body(&s->bodies[id]);
        }
    }
    return st;
}

/* The bounding radius and reach of a compound about its frame origin (every piece's farthest
 * point), and the workspaces grown for each piece. */
static hd_status compound_extent(hd_scene *s, const hd_compound *c, double *reach)
{
    *reach = 0.0;
    hd_status st = HD_OK;
    for (int i = 0; i < hd_compound_piece_count(c) && st == HD_OK; ++i) {
        hd_pose pose;
        const hd_polytope *piece = hd_compound_piece(c, i, &pose);
        double r = hdi_v3_len(pose.t) + hdi_body_reach(piece);
        *reach = r > *reach ? r : *reach;
        st = grow_workspaces(s, piece);
    }
    return st;
}

/* hd_scene_add and hd_scene_add_compound: one of shape and compound. */
static hd_status add_body(hd_scene *s, const hd_polytope *shape, const hd_compound *compound,
                          const hd_pose *pose, void *user, int *id)
{
    hd_pose p = pose != NULL ? *pose : hd_pose_identity();
    double centre[3], radius = 0.0, reach = 0.0;
    hd_status st = HD_OK;
    if (shape != NULL) {
        hd_polytope_sphere(shape, centre, &radius);
        reach = hdi_body_reach(shape);
    } else {
        st = compound_extent(s, compound, &reach);
        radius = reach;
    }
    int tiny = shape != NULL && radius < HD_MIN_SCALE;
    st = st == HD_OK ? check_pose(s, shape, reach, tiny, &p) : st;
    if (st == HD_OK) {
        st = reserve_body(s);
    }
    if (st == HD_OK && shape != NULL) {
        st = grow_workspaces(s, shape);
    }
    if (st == HD_OK && compound != NULL && !s->compounds) {
        st = wrap_all(s);
        s->compounds = st == HD_OK;
    }
    hd_compound *wrap = NULL;
    if (st == HD_OK && shape != NULL && s->compounds) {
        const hd_polytope *pieces[1] = {shape};
        st = hd_compound_build(pieces, NULL, 1, &wrap);
    }
    int k = st == HD_OK ? take_id(s, &st) : -1;
    if (k < 0) {
        hd_compound_destroy(wrap);
        return st;
    }
    hdi_body *b = &s->bodies[k];
    memset(b, 0, sizeof *b);
    b->shape = shape;
    b->compound = compound;
    b->wrap = wrap;
    b->reach = reach;
    b->user = user;
    b->pose = p;
    b->radius = radius;
    b->state = HD_BODY_LIVE;
    b->proxy = -1;
    b->next_free = -1;
    s->flags[k] = (unsigned char)(HD_BODY_ALIVE | (tiny ? HD_BODY_TINY : 0));
    s->reach[k] = reach;
    s->filters[k] = hd_scene_filter_default();
    s->live++;
    s->unplaced++;
    stage(s, k, &p); /* room was reserved */
    *id = k;
    return HD_OK;
}

hd_status hd_scene_add(hd_scene *s, const hd_polytope *shape, const hd_pose *pose, void *user,
                       int *id)
{
    if (id != NULL) {
        *id = -1;
    }
    if (s == NULL || shape == NULL || id == NULL) {
        return HD_ERR_NULL;
    }
    return add_body(s, shape, NULL, pose, user, id);
}

hd_status hd_scene_add_compound(hd_scene *s, const hd_compound *compound, const hd_pose *pose,
                                void *user, int *id)
{
    if (id != NULL) {
        *id = -1;
    }
    if (s == NULL || compound == NULL || id == NULL) {
        return HD_ERR_NULL;
    }
    return add_body(s, NULL, compound, pose, user, id);
}

hd_status hd_scene_body_compound(const hd_scene *s, int id, const hd_compound **compound)
{
    if (s == NULL || compound == NULL) {
        return HD_ERR_NULL;
    }
    if (!is_live(s, id)) {
        return HD_ERR_INVALID_ARG;
    }
    *compound = s->bodies[id].compound;
    return HD_OK;
}

/* The farthest any point of the body travels over the frame: |v| + |w| reach (the arc length of
 * the farthest point about the frame origin). */
static double travel(const hdi_body *b)
{
    return hdi_v3_len(b->v) + hdi_v3_len(b->w) * b->reach;
}

/* A new twist marks the body moved: its box and every pair of it are computed again. */
hd_status hd_scene_set_velocity(hd_scene *s, int id, const double v[3], const double w[3])
{
    if (s == NULL || v == NULL || w == NULL) {
        return HD_ERR_NULL;
    }
    if (!is_live(s, id)) {
        return HD_ERR_INVALID_ARG;
    }
    for (int k = 0; k < 3; ++k) {
        if (!isfinite(v[k]) || !isfinite(w[k])) {
            return HD_ERR_NONFINITE;
        }
    }
    hd_status st = reserve_lists(s);
    if (st == HD_OK) {
        hdi_body *b = &s->bodies[id];
        memcpy(b->v, v, sizeof b->v);
        memcpy(b->w, w, sizeof b->w);
        double moves = travel(b);
        b->swept = moves > 0.0 && moves > s->opt.sweep_threshold;
        mark_stale(s, id);
    }
    return st;
}

hd_scene_filter hd_scene_filter_default(void)
{
    hd_scene_filter f = {1u, 0xffffffffu, 0};
    return f;
}

/* A new filter marks the body moved, so that every pair of it is asked again: a pair kept from
 * an earlier step would otherwise keep the verdict of the old filter. */
hd_status hd_scene_set_filter(hd_scene *s, int id, const hd_scene_filter *filter)
{
    if (s == NULL || filter == NULL) {
        return HD_ERR_NULL;
    }
    if (!is_live(s, id)) {
        return HD_ERR_INVALID_ARG;
    }
    hd_status st = reserve_lists(s);
    if (st == HD_OK) {
        s->filters[id] = *filter;
        mark_stale(s, id);
    }
    return st;
}

hd_status hd_scene_filter_of(const hd_scene *s, int id, hd_scene_filter *filter)
{
    if (s == NULL || filter == NULL) {
        return HD_ERR_NULL;
    }
    if (!is_live(s, id)) {
        return HD_ERR_INVALID_ARG;
    }
    *filter = s->filters[id];
    return HD_OK;
}

hd_status hd_scene_remove(hd_scene *s, int id)
{
    if (s == NULL) {
        return HD_ERR_NULL;
    }
    if (!is_live(s, id)) {
        return HD_ERR_INVALID_ARG;
    }
    if (!hdi_idlist_push(&s->removed, id, &s->out_of_memory)) {
        return hdi_scene_take_failure(s);
    }
    hdi_body *b = &s->bodies[id];
    if (b->proxy >= 0 && s->opt.broadphase == HD_BROADPHASE_TREE) {
        hdi_tree_remove(&s->tree, b->proxy);
    } else if (b->proxy >= 0) {
        hdi_sap_remove(&s->sap, id);
    }
    s->unplaced -= b->proxy < 0;
    b->proxy = -1;
    b->state = HD_BODY_REMOVED;
    s->flags[id] &= (unsigned char)~HD_BODY_ALIVE;
    s->live--;
    s->purge = 1;
    return HD_OK;
}
