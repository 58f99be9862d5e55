/* Queries of a scene by box and by posed polytope: the broad phase gives the candidates (the
 * tree's fattened boxes, then the tight boxes; with sweep-and-prune a scan of the tight boxes),
 * hd_collide decides for a polytope. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/internal.h"

typedef struct box_query {
    hd_scene *s;
    const double *lo;
    const double *hi;
} box_query;

static int collect(void *ctx, int id)
{
    box_query *q = ctx;
    const hdi_box *b = &q->s->boxes[id];
    if (!hdi_box_overlap(b->lo, b->hi, q->lo, q->hi)) {
        return 0;
    }
    return !hdi_idlist_push(&q->s->scratch, id, &q->s->out_of_memory); /* 1 stops the query */
}

static int compare_ids(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a > b) - (a < b);
}

/* The ids of the bodies whose tight box overlaps [lo, hi], increasing, into s->scratch. */
static hd_status candidates(hd_scene *s, const double lo[3], const double hi[3])
{
    hd_status st = hdi_scene_sync(s);
    s->scratch.count = 0;
    box_query q = {s, lo, hi};
    if (st == HD_OK && s->opt.broadphase == HD_BROADPHASE_TREE) {
        hdi_tree_query(&s->tree, lo, hi, collect, &q);
    } else if (st == HD_OK) {
        for (int id = 0; id < s->body_ids && !s->out_of_memory; ++id) {
            if (s->bodies[id].state == HD_BODY_LIVE) {
                collect(&q, id);
            }
        }
    }
    if (s->scratch.count > 1) {
        qsort(s->scratch.ids, (size_t)s->scratch.count, sizeof(int), compare_ids);
    }
    hd_status grown = hdi_scene_take_failure(s); /* the query's one check of the flag */
    return st != HD_OK ? st : grown;
}

static hd_status check_box(const double lo[3], const double hi[3])
{
    for (int k = 0; k < 3; ++k) {
        if (!isfinite(lo[k]) || !isfinite(hi[k])) {
            return HD_ERR_NONFINITE;
        }
        if (lo[k] > hi[k]) {
            return HD_ERR_INVALID_ARG;
        }
    }
    return HD_OK;
}

hd_status hd_scene_query_box(hd_scene *s, const double lo[3], const double hi[3], int *ids,
                             int capacity, int *count)
{
    if (count != NULL) {
        *count = 0;
    }
    if (s == NULL || lo == NULL || hi == NULL || count == NULL || (ids == NULL && capacity > 0)) {
        return HD_ERR_NULL;
    }
    hd_status st = capacity < 0 ? HD_ERR_INVALID_ARG : check_box(lo, hi);
    if (st == HD_OK) {
        st = candidates(s, lo, hi);
    }
    if (st != HD_OK) {
        return st;
    }
    int n = s->scratch.count < capacity ? s->scratch.count : capacity;
    if (n > 0) {
        memcpy(ids, s->scratch.ids, (size_t)n * sizeof *ids);
    }
    *count = s->scratch.count;
    return HD_OK;
}

/* The tight box of a posed shape, as a body's. */
static void shape_box(const hd_scene *s, const hd_polytope *shape, const hd_pose *pose,
                      hdi_box *out)
{
    hdi_body probe;
    memset(&probe, 0, sizeof probe);
    probe.shape = shape;
    probe.pose = *pose;
    hdi_body_box(&probe, s->band_rel, 0.0, out);
}

/* A body against the posed shape: intersecting when one of its pieces is, else touching when
 * one touches (hd_compound_collide's verdict, piece by piece). */
static hd_status body_verdict(const hdi_body *b, const hd_polytope *shape, const hd_pose *pose,
                              const hd_options *opt, hd_verdict *out)
{
    *out = HD_SEPARATED;
    for (int i = 0; i < hdi_body_piece_count(b) && *out != HD_INTERSECTING; ++i) {
        hd_pose piece_pose;
        const hd_polytope *piece = hdi_body_piece(b, i, &piece_pose);
        hd_collide_result r;
        hd_status st = hd_collide(piece, &piece_pose, shape, pose, opt, &r);
        if (st != HD_OK) {
            return st;
        }
        *out = r.verdict == HD_INTERSECTING || *out == HD_SEPARATED ? r.verdict : *out;
    }
    return HD_OK;
}

hd_status hd_scene_query_polytope(hd_scene *s, const hd_polytope *shape, const hd_pose *pose,
                                  int *ids, hd_verdict *verdicts, int capacity, int *count)
{
    if (count != NULL) {
        *count = 0;
    }
    if (s == NULL || shape == NULL || count == NULL || (ids == NULL && capacity > 0)) {
        return HD_ERR_NULL;
    }
    hd_pose p = pose != NULL ? *pose : hd_pose_identity();
    hd_status st = capacity < 0 ? HD_ERR_INVALID_ARG : hd_pose_validate(&p, s->opt.tol.pose_tol);
    double centre[3], radius = 0.0;
    hd_polytope_sphere(shape, centre, &radius);
    if (st == HD_OK) {
        st = hdi_body_check_range(shape, hdi_body_reach(shape), radius < HD_MIN_SCALE, &p);
    }
    hdi_box box;
    if (st == HD_OK) {
        shape_box(s, shape, &p, &box);
        st = candidates(s, box.lo, box.hi);
    }
    hd_options opt = hd_options_default();
    opt.algo = s->opt.algo;
    opt.tol = s->opt.tol;
    opt.workspace = s->opt.algo == HD_ALGO_CDDUAL ? s->ws[0] : NULL;
    int found = 0;
    for (int i = 0; i < s->scratch.count && st == HD_OK; ++i) {
        hd_verdict v = HD_SEPARATED;
        st = body_verdict(&s->bodies[s->scratch.ids[i]], shape, &p, &opt, &v);
        if (st == HD_OK && v != HD_SEPARATED) {
            if (found < capacity) {
                ids[found] = s->scratch.ids[i];
                if (verdicts != NULL) {
                    verdicts[found] = v;
                }
            }
            found++;
        }
    }
    *count = st == HD_OK ? found : 0;
    return st;
}
