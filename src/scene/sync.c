/* Bringing a scene up to date with the latest poses: the boxes of the moved bodies (on every
 * thread), the broad phase, and the pair table. The table holds the pairs whose boxes overlap:
 * the fattened boxes with the tree (a pair found when a body is (re)inserted, dropped when the
 * fattened boxes part), the tight boxes with sweep-and-prune. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "scene/internal.h"

/* Bodies per chunk of the parallel box loop (a box costs 0.1 to 0.3 us: a chunk is worth a wake-up). */
#define HD_SCENE_BOX_CHUNK 128

long long hd_scene_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void hd_scene_fat_box(const hd_scene *s, int id, hd_box *out)
{
    double m = s->opt.margin * s->bodies[id].radius;
    for (int k = 0; k < 3; ++k) {
        out->lo[k] = s->boxes[id].lo[k] - m;
        out->hi[k] = s->boxes[id].hi[k] + m;
    }
}

static void box_chunk(void *ctx, int worker, int begin, int end)
{
    hd_scene *s = ctx;
    (void)worker;
    for (int i = begin; i < end; ++i) {
        int id = s->stale.ids[i];
        if (s->bodies[id].state == HD_BODY_LIVE) {
            hd_body_box(&s->bodies[id], s->band_rel, &s->boxes[id]);
        }
    }
}

/* Tree: (re)inserts a body whose tight box left its fattened one; it becomes fresh. */
static void tree_place(hd_scene *s, int id)
{
    hd_body *b = &s->bodies[id];
    const hd_box *box = &s->boxes[id];
    if (b->proxy >= 0) {
        const hd_tree_node *leaf = &s->tree.nodes[b->proxy];
        if (hd_box_inside(box->lo, box->hi, leaf->lo, leaf->hi)) {
            return;
        }
        hd_tree_remove(&s->tree, b->proxy);
        s->stats.reinserted++;
    }
    hd_box fat;
    hd_scene_fat_box(s, id, &fat);
    b->proxy = hd_tree_insert(&s->tree, fat.lo, fat.hi, id);
    if (!(b->flags & HD_BODY_FRESH)) {
        b->flags |= HD_BODY_FRESH;
        s->fresh.ids[s->fresh.count++] = id; /* room reserved by hd_scene_add */
    }
}

/* The broad-phase entries of the stale bodies. */
static hd_status place_stale(hd_scene *s)
{
    for (int i = 0; i < s->stale.count; ++i) {
        int id = s->stale.ids[i];
        hd_body *b = &s->bodies[id];
        if (b->state != HD_BODY_LIVE) {
            continue;
        }
        if (s->opt.broadphase == HD_BROADPHASE_TREE) {
            tree_place(s, id);
        } else if (b->proxy >= 0) {
            hd_sap_move(&s->sap, id, &s->boxes[id]);
        } else {
            hd_status st = hd_sap_insert(&s->sap, id, &s->boxes[id]);
            if (st != HD_OK) {
                return st; /* the stale list stays: the next sync redoes it all */
            }
            b->proxy = 0;
        }
    }
    for (int i = 0; i < s->stale.count; ++i) {
        s->bodies[s->stale.ids[i]].flags &= ~(unsigned)HD_BODY_STALE;
    }
    s->stale.count = 0;
    return HD_OK;
}

/* Drops the pairs of removed bodies. */
static void purge_removed(hd_scene *s)
{
    for (int i = s->pairs.count - 1; i >= 0; --i) {
        const hd_pair_rec *r = &s->pairs.recs[i];
        if (s->bodies[r->a].state != HD_BODY_LIVE || s->bodies[r->b].state != HD_BODY_LIVE) {
            hd_pairs_remove_at(&s->pairs, i);
        }
    }
    s->purge = 0;
}

typedef struct tree_visit_ctx {
    hd_scene *s;
    int self;
} tree_visit_ctx;

/* A leaf met by a fresh body's query: a pair, unless the other body is fresh too and smaller
 * (its own query finds the pair). */
static int tree_visit(void *ctx, int other)
{
    tree_visit_ctx *v = ctx;
    if (other == v->self || ((v->s->bodies[other].flags & HD_BODY_FRESH) && other < v->self)) {
        return 0;
    }
    int index;
    return (int)hd_pairs_add(&v->s->pairs, v->self, other, &index);
}

/* Tree: pairs of the fresh bodies, then the pairs whose fattened boxes parted. */
static hd_status tree_pairs(hd_scene *s)
{
    for (int i = 0; i < s->fresh.count; ++i) {
        int id = s->fresh.ids[i];
        const hd_tree_node *leaf = &s->tree.nodes[s->bodies[id].proxy];
        tree_visit_ctx v = {s, id};
        hd_status st = (hd_status)hd_tree_query(&s->tree, leaf->lo, leaf->hi, tree_visit, &v);
        if (st != HD_OK) {
            return st; /* the fresh list stays: the next sync queries again */
        }
    }
    for (int i = s->pairs.count - 1; i >= 0 && s->fresh.count > 0; --i) {
        const hd_pair_rec *r = &s->pairs.recs[i];
        const hd_body *a = &s->bodies[r->a], *b = &s->bodies[r->b];
        if (!((a->flags | b->flags) & HD_BODY_FRESH)) {
            continue;
        }
        const hd_tree_node *la = &s->tree.nodes[a->proxy], *lb = &s->tree.nodes[b->proxy];
        if (!hd_box_overlap(la->lo, la->hi, lb->lo, lb->hi)) {
            hd_pairs_remove_at(&s->pairs, i);
        }
    }
    for (int i = 0; i < s->fresh.count; ++i) {
        s->bodies[s->fresh.ids[i]].flags &= ~(unsigned)HD_BODY_FRESH;
    }
    s->fresh.count = 0;
    return HD_OK;
}

hd_status hd_scene_sync(hd_scene *s)
{
    long long t0 = hd_scene_now_ns();
    hd_pool_run(s->pool, box_chunk, s, s->stale.count, HD_SCENE_BOX_CHUNK);
    long long t1 = hd_scene_now_ns();
    hd_status st = place_stale(s);
    if (st == HD_OK && s->purge) {
        purge_removed(s);
    }
    if (st == HD_OK) {
        st = s->opt.broadphase == HD_BROADPHASE_TREE ? tree_pairs(s)
                                                     : hd_sap_update(&s->sap, s->boxes, &s->pairs);
    }
    s->stats.boxes_ns += t1 - t0;
    s->stats.broad_ns += hd_scene_now_ns() - t1;
    return st;
}
