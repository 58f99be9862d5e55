/* Ray queries of a scene: the broad phase's boxes give the candidates along the ray (the tree's,
 * with a shrinking length for the nearest hit; with sweep-and-prune a scan of the tight boxes),
 * hd_ray_cast answers each body exactly (docs/algorithms/motion.md, section 5). */
#include <math.h>
#include <string.h>

#include "core/math.h"
#include "scene/internal.h"

typedef struct ray_query {
    hd_scene *s;
    const double *o, *d;
    double t_max; /* the nearest hit so far, for a nearest-hit query */
    bool all;
    hd_scene_ray_hit *hits;
    int capacity, count;
    hd_status failed; /* the first failed ray cast */
} ray_query;

/* Is hit a before b: smaller t, then smaller id? */
static bool before(const hd_scene_ray_hit *a, const hd_scene_ray_hit *b)
{
    return a->ray.t < b->ray.t || (a->ray.t == b->ray.t && a->id < b->id);
}

/* Keeps the capacity first hits in order, by insertion (the caller's array, no allocation). */
static void keep_hit(ray_query *q, const hd_scene_ray_hit *h)
{
    int n = q->count < q->capacity ? q->count : q->capacity;
    ++q->count;
    int at = n;
    while (at > 0 && before(h, &q->hits[at - 1])) {
        --at;
    }
    if (at >= q->capacity) {
        return;
    }
    int moved = (n < q->capacity ? n : q->capacity - 1) - at;
    memmove(&q->hits[at + 1], &q->hits[at], (size_t)moved * sizeof *h);
    q->hits[at] = *h;
}

/* The nearest hit so far, in best; later candidates need only reach its t. */
static void keep_nearest(ray_query *q, const hd_scene_ray_hit *h, hd_scene_ray_hit *best)
{
    if (q->count == 0 || before(h, best)) {
        *best = *h;
        q->t_max = h->ray.t;
    }
    q->count = 1;
}

/* The ray against a body: the nearest hit over its pieces (the first piece on ties); points
 * and segments are never hit. */
static hd_status body_ray(const hdi_body *b, const ray_query *q, hd_ray_result *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < hdi_body_piece_count(b); ++i) {
        hd_pose pose;
        const hd_polytope *piece = hdi_body_piece(b, i, &pose);
        hd_ray_result r;
        if (hd_polytope_dimension(piece) < 2) {
            continue;
        }
        hd_status st = hd_ray_cast(piece, &pose, q->o, q->d, q->t_max, NULL, &r);
        if (st != HD_OK) {
            return st;
        }
        if (r.hit && (!out->hit || r.t < out->t)) {
            *out = r;
        }
    }
    return HD_OK;
}

static int visit(void *ctx, int id)
{
    ray_query *q = ctx;
    const hdi_body *b = &q->s->bodies[id];
    const hdi_box *box = &q->s->boxes[id];
    if (!hdi_box_ray(box->lo, box->hi, q->o, q->d, q->t_max)) {
        return 0;
    }
    hd_scene_ray_hit h = {id, {0}};
    hd_status st = body_ray(b, q, &h.ray);
    if (st != HD_OK) {
        q->failed = st;
        return 1;
    }
    if (!h.ray.hit) {
        return 0;
    }
    if (q->all) {
        keep_hit(q, &h);
    } else {
        keep_nearest(q, &h, &q->hits[0]);
    }
    return 0;
}

static hd_status check_ray_args(const double origin[3], const double dir[3], double length,
                                int capacity)
{
    if (!hdi_v3_is_finite(origin) || !hdi_v3_is_finite(dir)) {
        return HD_ERR_NONFINITE;
    }
    if (hdi_v3_is_zero(dir) || !(length >= 0.0) || capacity < 0) {
        return HD_ERR_INVALID_ARG;
    }
    return HD_OK;
}

hd_status hd_scene_raycast(hd_scene *s, const double origin[3], const double dir[3], double length,
                           bool all, hd_scene_ray_hit *hits, int capacity, int *count)
{
    if (count != NULL) {
        *count = 0;
    }
    if (s == NULL || origin == NULL || dir == NULL || count == NULL ||
        (hits == NULL && capacity > 0)) {
        return HD_ERR_NULL;
    }
    hd_status st = check_ray_args(origin, dir, length, capacity);
    if (st == HD_OK) {
        st = hdi_scene_sync(s);
    }
    if (st == HD_OK) {
        st = hdi_scene_take_failure(s);
    }
    if (st != HD_OK) {
        return st;
    }
    hd_scene_ray_hit nearest;
    ray_query q = {s, origin, dir, length, all, all ? hits : &nearest, capacity, 0, HD_OK};
    if (s->opt.broadphase == HD_BROADPHASE_TREE) {
        hdi_tree_query_ray(&s->tree, origin, dir, &q.t_max, visit, &q);
    } else {
        for (int id = 0; id < s->body_ids && q.failed == HD_OK; ++id) {
            if (s->bodies[id].state == HD_BODY_LIVE) {
                visit(&q, id);
            }
        }
    }
    if (q.failed != HD_OK) {
        return q.failed;
    }
    if (!all && q.count > 0 && capacity > 0) {
        hits[0] = nearest;
    }
    *count = q.count;
    return HD_OK;
}
