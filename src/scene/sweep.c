/* The continuous check of a frame (hd_scene_sweep): swept boxes through the broad phase, then
 * hd_toi on each candidate pair, hd_compound_toi when a body is a compound (docs/algorithms/
 * motion.md, sections 7 and 8). */
#include <math.h>
#include <string.h>

#include "core/math.h"
#include "motion/twist.h"
#include "scene/internal.h"

typedef struct sweep {
    hd_scene *s;
    const hd_body_twist *twists;
    int *mark; /* per body id: 1 + its twist's index when it moves, else 0 */
    const hd_toi_options *opt;
    hd_scene_toi *out;
    int capacity, found;
    hd_status failed;
    long long failed_key; /* the pair of the first failure by pair order */
    int moving;           /* the moving body whose candidates are being visited */
    hdi_box swept;
} sweep;

/* The body's motion over the frame: its twist's, or at rest. */
static hd_motion motion_of(const sweep *w, int id)
{
    const hdi_body *b = &w->s->bodies[id];
    hd_motion m;
    memset(&m, 0, sizeof m);
    m.pose0 = b->pose;
    hdi_v3_copy(m.c, b->pose.t);
    if (w->mark[id] > 0) {
        const hd_body_twist *t = &w->twists[w->mark[id] - 1];
        hdi_v3_copy(m.v, t->v);
        hdi_v3_copy(m.w, t->w);
        hdi_v3_copy(m.c, t->c);
    }
    return m;
}

/* The body's reach about the motion's centre: the vertices' (hdi_motion_reach) for a plain body,
 * its reach about its frame origin plus |T0 - c| for a compound. */
static double reach_about(const hdi_body *b, const hd_motion *m)
{
    if (b->compound == NULL) {
        return hdi_motion_reach(b->shape, m);
    }
    double off[3];
    hdi_v3_sub(off, m->pose0.t, m->c);
    return b->reach + hdi_v3_len(off);
}

/* The body's swept box over the frame (the scene's one, hdi_body_swept_box) widened by twice
 * the motion's band (hd_toi's, max(touch_rel, HD_TOI_MIN_BAND_REL) times the motion's scale):
 * every point of the body over the frame lies in it, with room for the band. */
static void swept_box(const sweep *w, int id, hdi_box *out)
{
    hd_motion m = motion_of(w, id);
    const hdi_body *b = &w->s->bodies[id];
    double scale = hdi_v3_len(m.c) + hdi_v3_len(m.v) + reach_about(b, &m);
    double widen = 2.0 * hdi_max(w->s->opt.tol.touch_rel, HD_TOI_MIN_BAND_REL) * scale;
    hdi_body_swept_box(b, &m, w->s->band_rel, out);
    for (int k = 0; k < 3; ++k) {
        out->lo[k] -= widen;
        out->hi[k] += widen;
    }
}

/* Keeps a hit in (a, b) order among the first capacity (insertion into the caller's array). */
static void keep(sweep *w, const hd_scene_toi *h)
{
    int n = w->found < w->capacity ? w->found : w->capacity;
    ++w->found;
    int at = n;
    while (at > 0 &&
           (w->out[at - 1].a > h->a || (w->out[at - 1].a == h->a && w->out[at - 1].b > h->b))) {
        --at;
    }
    if (at >= w->capacity) {
        return;
    }
    int moved = (n < w->capacity ? n : w->capacity - 1) - at;
    memmove(&w->out[at + 1], &w->out[at], (size_t)moved * sizeof *h);
    w->out[at] = *h;
}

static void test_pair(sweep *w, int i, int j)
{
    hd_scene_toi h;
    h.a = i < j ? i : j;
    h.b = i < j ? j : i;
    hd_motion ma = motion_of(w, h.a), mb = motion_of(w, h.b);
    const hdi_body *a = &w->s->bodies[h.a], *b = &w->s->bodies[h.b];
    hd_status st;
    if (a->compound == NULL && b->compound == NULL) {
        st = hd_toi(a->shape, &ma, b->shape, &mb, w->opt, &h.toi);
    } else { /* the pieces' first contact, pruned by their trees */
        hd_compound_toi_result res;
        st = hd_compound_toi(hdi_body_as_compound(a), &ma, hdi_body_as_compound(b), &mb, w->opt,
                             &res);
        h.toi = res.toi;
    }
    long long key = (long long)h.a << 32 | h.b;
    if (st != HD_OK && (w->failed == HD_OK || key < w->failed_key)) {
        w->failed = st;
        w->failed_key = key;
    }
    if (st == HD_OK && h.toi.hit) {
        keep(w, &h);
    }
}

/* A still body whose box meets the moving body's swept box. */
static int visit_still(void *ctx, int id)
{
    sweep *w = ctx;
    const hdi_box *box = &w->s->boxes[id];
    if (id != w->moving && w->mark[id] == 0 &&
        hdi_box_overlap(box->lo, box->hi, w->swept.lo, w->swept.hi)) {
        test_pair(w, w->moving, id);
    }
    return 0;
}

/* Every pair of a moving body: the still ones through the broad phase, the later moving ones by
 * their swept boxes. */
static void sweep_body(sweep *w, int i)
{
    w->moving = i;
    swept_box(w, i, &w->swept);
    hdi_box mine = w->swept;
    if (w->s->opt.broadphase == HD_BROADPHASE_TREE) {
        hdi_tree_query(&w->s->tree, mine.lo, mine.hi, visit_still, w);
    } else {
        for (int id = 0; id < w->s->body_ids; ++id) {
            if (w->s->bodies[id].state == HD_BODY_LIVE) {
                visit_still(w, id);
            }
        }
    }
    for (int id = i + 1; id < w->s->body_ids; ++id) {
        if (w->mark[id] <= 0) {
            continue;
        }
        hdi_box other;
        swept_box(w, id, &other);
        if (hdi_box_overlap(mine.lo, mine.hi, other.lo, other.hi)) {
            test_pair(w, i, id);
        }
    }
}

/* Marks the moving bodies (their twist's index + 1), refusing a dead id, a repeated one and a
 * non-finite twist; bodies at most threshold fast stay unmarked (still). */
static hd_status mark_moving(sweep *w, int count, double threshold)
{
    hd_scene *s = w->s;
    memset(w->mark, 0, (size_t)s->body_ids * sizeof *w->mark);
    for (int k = 0; k < count; ++k) {
        const hd_body_twist *t = &w->twists[k];
        if (t->id < 0 || t->id >= s->body_ids || s->bodies[t->id].state != HD_BODY_LIVE ||
            w->mark[t->id] != 0) {
            return HD_ERR_INVALID_ARG;
        }
        if (!hdi_v3_is_finite(t->v) || !hdi_v3_is_finite(t->w) || !hdi_v3_is_finite(t->c)) {
            return HD_ERR_NONFINITE;
        }
        w->mark[t->id] = k + 1;
    }
    for (int k = 0; k < count; ++k) {
        int id = w->twists[k].id;
        hd_motion m = motion_of(w, id);
        double speed = hdi_v3_len(m.v) + hdi_v3_len(m.w) * reach_about(&s->bodies[id], &m);
        if (!(speed > threshold)) {
            w->mark[id] = -(k + 1); /* listed, but still: kept apart from a repeat */
        }
    }
    for (int id = 0; id < s->body_ids; ++id) {
        w->mark[id] = w->mark[id] < 0 ? 0 : w->mark[id];
    }
    return HD_OK;
}

static hd_status sweep_args(const hd_scene *s, const hd_body_twist *twists, int count,
                            double threshold, const hd_scene_toi *out, int capacity,
                            const int *found)
{
    if (s == NULL || found == NULL || (twists == NULL && count > 0) ||
        (out == NULL && capacity > 0)) {
        return HD_ERR_NULL;
    }
    return count < 0 || capacity < 0 || !(threshold >= 0.0) ? HD_ERR_INVALID_ARG : HD_OK;
}

hd_status hd_scene_sweep(hd_scene *s, const hd_body_twist *twists, int count, double threshold,
                         const hd_toi_options *opt, hd_scene_toi *out, int capacity, int *found)
{
    if (found != NULL) {
        *found = 0;
    }
    hd_status st = sweep_args(s, twists, count, threshold, out, capacity, found);
    if (st == HD_OK) {
        st = hdi_scene_sync(s);
    }
    if (st == HD_OK) {
        hdi_idlist_reserve(&s->scratch, s->body_ids, &s->out_of_memory);
        st = hdi_scene_take_failure(s);
    }
    if (st != HD_OK) {
        return st;
    }
    sweep w = {s, twists, s->scratch.ids, opt, out, capacity, 0, HD_OK, 0, -1, {{0}, {0}}};
    s->scratch.count = 0;
    st = mark_moving(&w, count, threshold);
    for (int id = 0; id < s->body_ids && st == HD_OK; ++id) {
        if (w.mark[id] > 0) {
            sweep_body(&w, id);
        }
    }
    if (st == HD_OK) {
        st = w.failed;
    }
    *found = st == HD_OK || st == w.failed ? w.found : 0;
    return st;
}
