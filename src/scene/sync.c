/* Bringing a scene up to date with the latest poses: the boxes of the moved bodies (on every
 * thread), the broad phase, and the pair table. The table holds at least the pairs whose boxes
 * overlap: with the tree, a pair is added when a body's fattened box is (re)inserted and meets
 * another's, and dropped by the step once their fattened boxes part (step.c); with
 * sweep-and-prune it holds exactly the pairs whose tight boxes overlap. */
#include <limits.h>

#include "scene/internal.h"
#include "core/tolerances.h"

/* A fattened box reaches this many last displacements ahead (Box2D v2.4: b2_aabbMultiplier). */
#define HD_SCENE_PREDICT 4.0

/* The box loop asks for the records of the body this many places ahead in the list. */
#define HD_SCENE_PREFETCH 4

/* Escaped bodies whose placement is prepared ahead of the one placed (tree_place_escaped). */
#define HD_SCENE_PLACE_AHEAD 8

/* Bodies per chunk of the parallel loops, least and most (hdi_scene_chunk): a tree query costs
 * several boxes, so its chunks are smaller; large enough that claiming a chunk stays cheap. */
#define HD_SCENE_BOX_CHUNK 32
#define HD_SCENE_BOX_CHUNK_MAX 128
#define HD_SCENE_QUERY_CHUNK 8
#define HD_SCENE_QUERY_CHUNK_MAX 32

/* Ids per chunk of the loops that clear flags: a byte each, so only long chunks pay for a
 * thread. */
#define HD_SCENE_CLEAR_CHUNK 4096

/* The fattened box of a body that left its old one: the tight box widened by the margin and
 * stretched along its last displacement d (centre to centre) by HD_SCENE_PREDICT d, so that a
 * body moving on steadily stays inside for several frames (Box2D v2.4's displacement
 * prediction). */
static void fatten(const hd_scene *s, int id, const hdi_box *old, int had_box, hdi_box *fat)
{
    const hdi_box *box = &s->boxes[id];
    double m = s->opt.margin * s->bodies[id].radius;
    for (int k = 0; k < 3; ++k) {
        double d = had_box ? 0.5 * (box->lo[k] + box->hi[k] - old->lo[k] - old->hi[k]) : 0.0;
        double ahead = HD_SCENE_PREDICT * d;
        fat->lo[k] = box->lo[k] - m + (ahead < 0.0 ? ahead : 0.0);
        fat->hi[k] = box->hi[k] + m + (ahead > 0.0 ? ahead : 0.0);
    }
}

static void prefetch_body(const hd_scene *s, int id)
{
    const char *b = (const char *)&s->bodies[id];
    hdi_scene_prefetch(b);
    hdi_scene_prefetch(b + 64);
    hdi_scene_prefetch(b + 128);
    hdi_scene_prefetch(&s->boxes[id]);
}

/* A moved or added body gets its box; with the tree, a body that left its fattened
 * box gets a new one (the serial part reinserts it). Each id appears once in the stale list:
 * the writes are disjoint. */
static void box_chunk(void *ctx, int worker, int begin, int end)
{
    hd_scene *s = ctx;
    int tree = s->opt.broadphase == HD_BROADPHASE_TREE;
    (void)worker;
    for (int i = begin; i < end; ++i) {
        if (i + HD_SCENE_PREFETCH < end) {
            prefetch_body(s, s->stale.ids[i + HD_SCENE_PREFETCH]);
        }
        int id = s->stale.ids[i];
        hdi_body *b = &s->bodies[id];
        if (b->state != HD_BODY_LIVE) {
            continue;
        }
        if (s->staged_by[i] >= 0) {
            b->pose = s->staged_pose[i]; /* hd_scene_move_many's */
        }
        hdi_box *box = &s->boxes[id], old = *box;
        hdi_body_box(b, s->band_rel, s->grow, box);
        hdi_box *fat = &s->fat[id];
        if (tree && (b->proxy < 0 || !hdi_box_inside(box->lo, box->hi, fat->lo, fat->hi))) {
            fatten(s, id, &old, b->proxy >= 0, fat);
            s->flags[id] |= HD_BODY_ESCAPED;
        }
    }
}

/* Tree: places a body that left its fattened box with its new one (a local reinsertion); it
 * becomes fresh (its pairs are looked for) and refattened (the step drops its parted pairs). With
 * flags_later, its flags are left for hdi_scene_placed (the narrow phase reads them meanwhile). */
static void tree_place(hd_scene *s, int id, int flags_later)
{
    hdi_body *b = &s->bodies[id];
    const hdi_box *fat = &s->fat[id];
    if (b->proxy >= 0) {
        b->proxy = hdi_tree_update(&s->tree, b->proxy, fat->lo, fat->hi);
        s->stats.reinserted++;
    } else {
        b->proxy = hdi_tree_insert(&s->tree, fat->lo, fat->hi, id);
        s->unplaced--;
    }
    if (!(s->flags[id] & HD_BODY_FRESH)) {
        s->fresh.ids[s->fresh.count++] = id; /* room reserved by hd_scene_add */
    }
    if (!flags_later) {
        s->flags[id] |= HD_BODY_FRESH | HD_BODY_REFAT;
    }
}

/* A growth of the pair table or of sweep-and-prune (which report a status) into the scene's
 * sticky flag, so that the sync checks one flag. */
static void note_growth(hd_scene *s, hd_status st)
{
    s->out_of_memory |= st != HD_OK;
}

typedef struct rebuild_ctx {
    hd_scene *s;
    hdi_idlist *found; /* the task's list */
    int *failed;       /* the worker's lane's flag */
} rebuild_ctx;

static void build_chunk(void *ctx, int worker, int begin, int end)
{
    hd_scene *s = ctx;
    (void)worker;
    for (int j = begin; j < end; ++j) {
        hdi_tree_build_job(&s->tree, s->scratch.ids, s->fat, &s->jobs.job[j], s->work.ids);
    }
}

static int found_pair(void *ctx, int a, int b)
{
    rebuild_ctx *c = ctx;
    hdi_idlist *l = c->found;
    if (!hdi_idlist_reserve(l, l->count + 2, c->failed)) {
        return 1; /* stops the descent */
    }
    l->ids[l->count++] = a;
    l->ids[l->count++] = b;
    return 0;
}

static void pairs_chunk(void *ctx, int worker, int begin, int end)
{
    hd_scene *s = ctx;
    for (int k = begin; k < end; ++k) {
        rebuild_ctx c = {s, &s->pair_tasks[k], &s->lanes[worker].out_of_memory};
        c.found->count = 0;
        hdi_tree_pair_task(&s->tree, &s->jobs, k, found_pair, &c);
    }
}

/* The tasks' pairs into the table, in task order (the same table for any thread count). */
static void add_found_pairs(hd_scene *s)
{
    int tasks = hdi_tree_pair_task_count(&s->jobs), threads = hdi_scene_threads(s);
    for (int w = 0; w < threads; ++w) {
        s->out_of_memory |= s->lanes[w].out_of_memory;
        s->lanes[w].out_of_memory = 0;
    }
    long long found = s->pairs.count;
    for (int k = 0; k < tasks; ++k) {
        found += s->pair_tasks[k].count / 2;
    }
    if (!s->out_of_memory) { /* one growth of the table for the whole batch */
        note_growth(s,
                    found > INT_MAX ? HD_ERR_NO_MEMORY : hdi_pairs_reserve(&s->pairs, (int)found));
    }
    for (int k = 0; k < tasks && !s->out_of_memory; ++k) {
        const hdi_idlist *l = &s->pair_tasks[k];
        for (int i = 0; i < l->count && !s->out_of_memory; i += 2) {
            int index;
            note_growth(s, hdi_pairs_add(&s->pairs, l->ids[i], l->ids[i + 1], &index));
        }
    }
}

/* Tree: a batch of new bodies at least as large as the tree (the first frame, above all) builds
 * the tree anew over every body, top down, and finds every pair by a descent of the tree
 * against itself: much faster than inserting and querying body after body. Both run on every
 * thread: the subtrees below the top levels are built apart, and the descent is cut into the
 * pairs within and between those subtrees (tree.h). */
static void tree_rebuild(hd_scene *s)
{
    hdi_idlist_reserve(&s->scratch, s->live, &s->out_of_memory);
    hdi_idlist_reserve(&s->work, s->live, &s->out_of_memory);
    if (s->out_of_memory) {
        return; /* the stale list stays: the next sync tries again */
    }
    int n = 0;
    for (int id = 0; id < s->body_ids; ++id) {
        if (s->flags[id] & HD_BODY_ALIVE) {
            s->scratch.ids[n++] = id;
        }
    }
    hdi_tree_build_split(&s->tree, s->scratch.ids, n, s->fat, &s->jobs);
    hdi_scene_run(s, build_chunk, s, s->jobs.count, 1);
    hdi_tree_build_join(&s->tree, &s->jobs);
    for (int k = 0; k < n; ++k) {
        s->bodies[s->scratch.ids[k]].proxy = s->work.ids[k];
    }
    s->scratch.count = s->work.count = 0;
    for (int i = 0; i < s->stale.count; ++i) {
        if (s->flags[s->stale.ids[i]] & HD_BODY_ESCAPED) {
            s->flags[s->stale.ids[i]] |= HD_BODY_REFAT; /* its old pairs are checked */
        }
    }
    hdi_scene_run(s, pairs_chunk, s, hdi_tree_pair_task_count(&s->jobs), 1);
    add_found_pairs(s);
    if (!s->out_of_memory) {
        s->unplaced = 0;
    }
}

/* Tree: is a batch of new bodies large enough for tree_rebuild? */
static int rebuild_due(const hd_scene *s)
{
    return s->unplaced >= HD_SCENE_BULK_MIN && s->unplaced >= s->tree.leaves;
}

/* The first place from i on in the stale list of a live body that left its fattened box (the
 * flags, not the body record: most bodies need nothing here); the list's count when none. */
static int next_escaped(const hd_scene *s, int i)
{
    for (; i < s->stale.count; ++i) {
        unsigned flags = s->flags[s->stale.ids[i]];
        if ((flags & HD_BODY_ALIVE) && (flags & HD_BODY_ESCAPED)) {
            break;
        }
    }
    return i;
}

/* What placing body id reads first, asked for ahead of time (a placement is a chain of dependent
 * reads of records and tree nodes that are rarely cached): stage 0 its record and fattened box,
 * stage 1 its leaf (its record arrived at stage 0), stage 2 the leaf's parent. */
static void prefetch_place(const hd_scene *s, int id, int stage)
{
    if (stage == 0) {
        hdi_scene_prefetch(&s->bodies[id].proxy);
        hdi_scene_prefetch(&s->fat[id]);
        return;
    }
    int leaf = s->bodies[id].proxy;
    if (leaf < 0) {
        return;
    }
    const hdi_tree_node *node = &s->tree.nodes[leaf];
    if (stage == 1) {
        hdi_scene_prefetch(node);
    } else if (node->parent >= 0) {
        hdi_scene_prefetch(&s->tree.nodes[node->parent]);
    }
}

/* Tree: the stale bodies that left their fattened boxes, one by one (their flags now or later),
 * in stale order, the reads of the next few asked for in three stages (prefetch_place). */
static void tree_place_escaped(hd_scene *s, int flags_later)
{
    enum { AHEAD = HD_SCENE_PLACE_AHEAD };
    int ring[AHEAD], count = s->stale.count, far = next_escaped(s, 0);
    for (int k = 0; k < AHEAD; ++k) {
        ring[k] = far;
        if (far < count) {
            prefetch_place(s, s->stale.ids[far], 0);
            far = next_escaped(s, far + 1);
        }
    }
    for (int k = 0; ring[k % AHEAD] < count; ++k) {
        int id = s->stale.ids[ring[k % AHEAD]];
        int half = ring[(k + AHEAD / 2) % AHEAD], near = ring[(k + 1) % AHEAD];
        if (half < count) {
            prefetch_place(s, s->stale.ids[half], 1);
        }
        if (near < count) {
            prefetch_place(s, s->stale.ids[near], 2);
        }
        ring[k % AHEAD] = far; /* the body AHEAD places on */
        if (far < count) {
            prefetch_place(s, s->stale.ids[far], 0);
            far = next_escaped(s, far + 1);
        }
        tree_place(s, id, flags_later);
    }
}

/* Tree: the stale bodies that left their fattened boxes, one by one, or all at once. */
static void tree_place_stale(hd_scene *s)
{
    if (rebuild_due(s)) {
        tree_rebuild(s);
    } else {
        tree_place_escaped(s, 0);
    }
}

/* Sweep-and-prune: the stale bodies' end points, moved or appended. */
static void sap_place_stale(hd_scene *s)
{
    for (int i = 0; i < s->stale.count; ++i) {
        int id = s->stale.ids[i];
        hdi_body *b = &s->bodies[id];
        if (!(s->flags[id] & HD_BODY_ALIVE)) {
            continue;
        }
        if (b->proxy >= 0) {
            hdi_sap_move(&s->sap, id, &s->boxes[id]);
            continue;
        }
        note_growth(s, hdi_sap_insert(&s->sap, id, &s->boxes[id]));
        if (s->out_of_memory) {
            return; /* the stale list stays: the next sync redoes it all */
        }
        b->proxy = 0;
    }
}

typedef struct clear_ctx {
    hd_scene *s;
    const int *ids;
    unsigned char keep;
} clear_ctx;

static void clear_chunk(void *ctx, int worker, int begin, int end)
{
    const clear_ctx *c = ctx;
    int alive = 0;
    for (int i = begin; i < end; ++i) {
        unsigned char *f = &c->s->flags[c->ids[i]]; /* each id once in the list: disjoint */
        alive += (*f & HD_BODY_ALIVE) != 0;
        *f &= c->keep;
    }
    c->s->lanes[worker].alive += alive;
}

int hdi_scene_clear_flags(hd_scene *s, const hdi_idlist *list, unsigned mask)
{
    clear_ctx c = {s, list->ids, (unsigned char)~mask};
    int threads = hdi_scene_threads(s), alive = 0;
    for (int w = 0; w < threads; ++w) {
        s->lanes[w].alive = 0;
    }
    hdi_scene_run(s, clear_chunk, &c, list->count, HD_SCENE_CLEAR_CHUNK);
    for (int w = 0; w < threads; ++w) {
        alive += s->lanes[w].alive;
    }
    return alive;
}

/* The stale bodies are placed: their flags cleared, the list emptied. */
static void stale_done(hd_scene *s)
{
    hdi_scene_clear_flags(s, &s->stale, HD_BODY_STALE | HD_BODY_ESCAPED);
    s->stale.count = 0;
    s->move_base = 0;
}

/* The broad-phase entries of the stale bodies; then the stale list is empty. */
static void place_stale(hd_scene *s)
{
    if (s->opt.broadphase == HD_BROADPHASE_TREE) {
        tree_place_stale(s);
    } else {
        sap_place_stale(s);
    }
    if (!s->out_of_memory) {
        stale_done(s);
    }
}

/* Drops the pairs of removed bodies. */
static void purge_removed(hd_scene *s)
{
    for (int i = s->pairs.count - 1; i >= 0; --i) {
        const hdi_pair_rec *r = &s->pairs.recs[i];
        if (s->bodies[r->a].state != HD_BODY_LIVE || s->bodies[r->b].state != HD_BODY_LIVE) {
            hdi_pairs_remove_at(&s->pairs, i);
        }
    }
    s->purge = 0;
}

typedef struct tree_visit_ctx {
    hd_scene *s;
    int self;
    hdi_lane *lane; /* its found list, and its flag when that cannot grow */
} tree_visit_ctx;

/* The flags of a fresh body when the queries run: HD_BODY_FRESH once its flags are set; while
 * they are left for later (the queries in hdi_scene_place_lead, beside the narrow phase), the
 * HD_BODY_ESCAPED of the box loop, which every body placed in this step has. */
#define HD_SCENE_FRESH_NOW (HD_BODY_FRESH | HD_BODY_ESCAPED)

/* A leaf met by a fresh body's query: a candidate pair, unless the other body is fresh too and
 * smaller (its own query finds the pair) or the pair is already in the table. The table is only
 * read during the queries (the narrow phase beside them writes pair records, not the table):
 * the lookups run on every thread, or on the caller's beside the narrow phase, and the serial
 * merge (merge_found) inserts only the new pairs. */
static int tree_visit(void *ctx, int other)
{
    tree_visit_ctx *v = ctx;
    if (other == v->self || ((v->s->flags[other] & HD_SCENE_FRESH_NOW) && other < v->self)) {
        return 0;
    }
    if (hdi_pairs_find(&v->s->pairs, v->self, other) >= 0) {
        return 0;
    }
    hdi_idlist *found = &v->lane->found;
    if (!hdi_idlist_reserve(found, found->count + 2, &v->lane->out_of_memory)) {
        return 1; /* stops the query */
    }
    found->ids[found->count++] = v->self;
    found->ids[found->count++] = other;
    return 0;
}

/* The queries of the fresh bodies, on every thread: the tree, the fattened boxes, the flags and
 * the pair table are only read; each worker appends to its own list. */
static void query_chunk(void *ctx, int worker, int begin, int end)
{
    hd_scene *s = ctx;
    hdi_lane *lane = &s->lanes[worker];
    for (int i = begin; i < end && !lane->out_of_memory; ++i) {
        int id = s->fresh.ids[i];
        tree_visit_ctx v = {s, id, lane};
        hdi_tree_query(&s->tree, s->fat[id].lo, s->fat[id].hi, tree_visit, &v);
    }
}

/* The candidate pairs of lanes [0, lanes) into the table, then the fresh list emptied. */
static void merge_found(hd_scene *s, int lanes)
{
    for (int w = 0; w < lanes && !s->out_of_memory; ++w) {
        const hdi_lane *lane = &s->lanes[w];
        s->out_of_memory |= lane->out_of_memory;
        for (int k = 0; k < lane->found.count && !s->out_of_memory; k += 2) {
            int index;
            note_growth(
                s, hdi_pairs_add(&s->pairs, lane->found.ids[k], lane->found.ids[k + 1], &index));
        }
    }
    if (s->out_of_memory) {
        return; /* the fresh list stays: the next sync queries again */
    }
    hdi_scene_clear_flags(s, &s->fresh, HD_BODY_FRESH);
    s->fresh.count = 0;
}

/* Tree: the pairs of the fresh bodies into the table, the queries on every thread. */
static void tree_pairs(hd_scene *s)
{
    int threads = hdi_scene_threads(s);
    for (int w = 0; w < threads; ++w) {
        s->lanes[w].found.count = 0;
        s->lanes[w].out_of_memory = 0;
    }
    hdi_scene_run(
        s, query_chunk, s, s->fresh.count,
        hdi_scene_chunk(s, s->fresh.count, HD_SCENE_QUERY_CHUNK, HD_SCENE_QUERY_CHUNK_MAX));
    merge_found(s, threads);
}

void hdi_scene_sync_boxes(hd_scene *s)
{
    long long t0 = hdi_scene_now_ns();
    hdi_scene_run(s, box_chunk, s, s->stale.count,
                  hdi_scene_chunk(s, s->stale.count, HD_SCENE_BOX_CHUNK, HD_SCENE_BOX_CHUNK_MAX));
    if (s->purge) {
        purge_removed(s);
    }
    s->stats.boxes_ns += hdi_scene_now_ns() - t0;
}

hd_status hdi_scene_sync_rest(hd_scene *s)
{
    long long t0 = hdi_scene_now_ns();
    place_stale(s);
    if (!s->out_of_memory && s->opt.broadphase == HD_BROADPHASE_TREE) {
        tree_pairs(s);
    } else if (!s->out_of_memory) {
        note_growth(s, hdi_sap_update(&s->sap, s->boxes, &s->pairs));
    }
    s->stats.broad_ns += hdi_scene_now_ns() - t0;
    return s->out_of_memory ? HD_ERR_NO_MEMORY : HD_OK;
}

hd_status hdi_scene_sync(hd_scene *s)
{
    hdi_scene_sync_boxes(s);
    return hdi_scene_sync_rest(s);
}

int hdi_scene_can_place_beside(const hd_scene *s)
{
    return s->opt.broadphase == HD_BROADPHASE_TREE && !rebuild_due(s);
}

void hdi_scene_place_prepare(hd_scene *s)
{
    for (int i = 0; i < s->fresh.count; ++i) {
        s->flags[s->fresh.ids[i]] |= HD_BODY_FRESH; /* left by a failed step: not listed again */
    }
    s->lanes[0].found.count = 0;
}

/* The placements, then the fresh bodies' queries on the caller's thread, while the workers run
 * the narrow phase: the queries read the nodes the placements have just written, which are in
 * the caller's cache and would have to travel to another core's. */
void hdi_scene_place_lead(void *ctx)
{
    hd_scene *s = ctx;
    long long t0 = hdi_scene_now_ns();
    tree_place_escaped(s, 1);
    query_chunk(s, 0, 0, s->fresh.count);
    s->stats.broad_ns += hdi_scene_now_ns() - t0;
}

hd_status hdi_scene_placed(hd_scene *s)
{
    long long t0 = hdi_scene_now_ns();
    for (int i = 0; i < s->fresh.count; ++i) {
        s->flags[s->fresh.ids[i]] |= HD_BODY_FRESH | HD_BODY_REFAT;
    }
    stale_done(s);
    merge_found(s, 1);
    s->stats.broad_ns += hdi_scene_now_ns() - t0;
    return s->out_of_memory ? HD_ERR_NO_MEMORY : HD_OK;
}
