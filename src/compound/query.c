/* The queries on two compounds: each one a descent of the two trees (compound/descent.c) with a
 * visitor that runs the public query on a pair of pieces at their world poses and keeps the best
 * answer (docs/algorithms/compound.md, section 4). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "compound/internal.h"
#include "core/math.h"
#include "core/tolerances.h"

hd_status hdi_compound_options(const hd_options *opt, hd_options *out)
{
    *out = opt != NULL ? *opt : hd_options_default();
    out->cache = NULL;
    hd_status st = hd_tolerance_validate(&out->tol);
    if (st == HD_OK && (out->algo < 0 || out->algo >= HD_ALGO_COUNT)) {
        st = HD_ERR_INVALID_ARG;
    }
    return st;
}

hd_status hdi_compound_query_init(hdi_cquery *q, const hd_compound *a, const hd_pose *pose_a,
                                  const hd_compound *b, const hd_pose *pose_b,
                                  const hd_options *opt)
{
    if (a == NULL || b == NULL) {
        return HD_ERR_NULL;
    }
    q->a = a;
    q->b = b;
    hd_status st = hdi_compound_options(opt, &q->opt);
    if (st == HD_OK) {
        st = hdi_compound_frame(a, pose_a, b, pose_b, &q->opt.tol, &q->frame);
    }
    /* the frame checks the body poses with the caller's tolerance, the pieces get the wider one */
    double tol = q->opt.tol.pose_tol > 0.0 ? q->opt.tol.pose_tol : HD_DEFAULT_POSE_TOL;
    q->opt.tol.pose_tol = fmin(HD_TOL_REL_MAX, HD_COMPOUND_POSE_TOL_FACTOR * tol +
                                                   HD_COMPOUND_POSE_ROUNDING_UNITS * DBL_EPSILON);
    return st;
}

/* The two pieces at their world poses. */
typedef struct hdi_cpair {
    const hd_polytope *a;
    const hd_polytope *b;
    hd_pose pa;
    hd_pose pb;
} hdi_cpair;

static hdi_cpair piece_pair(const hdi_cquery *q, int i, int j)
{
    hdi_cpair p;
    p.a = q->a->pieces[i].poly;
    p.b = q->b->pieces[j].poly;
    hdi_compound_world_pose(q->a, &q->frame.pa, i, &p.pa);
    hdi_compound_world_pose(q->b, &q->frame.pb, j, &p.pb);
    return p;
}

static int deeper(hd_verdict x, hd_verdict y)
{
    return (int)x > (int)y;
}

/* ---- boolean ---------------------------------------------------------------------------- */

typedef struct hdi_ccollide {
    hdi_cquery q;
    hd_compound_collide_result *out;
} hdi_ccollide;

static hd_status visit_collide(hdi_cvisit *v, int i, int j)
{
    hdi_ccollide *c = v->ctx;
    hdi_cpair p = piece_pair(&c->q, i, j);
    hd_collide_result r;
    hd_status st = hd_collide(p.a, &p.pa, p.b, &p.pb, &c->q.opt, &r);
    if (st == HD_OK && deeper(r.verdict, c->out->verdict)) {
        c->out->verdict = r.verdict;
        c->out->piece_a = i;
        c->out->piece_b = j;
        c->out->pair = r;
        v->stop = r.verdict == HD_INTERSECTING;
    }
    return st;
}

hd_status hd_compound_collide(const hd_compound *a, const hd_pose *pose_a, const hd_compound *b,
                              const hd_pose *pose_b, const hd_options *opt,
                              hd_compound_collide_result *out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    hdi_ccollide c;
    memset(out, 0, sizeof *out);
    out->verdict = HD_SEPARATED;
    out->piece_a = out->piece_b = -1;
    c.out = out;
    hd_status st = hdi_compound_query_init(&c.q, a, pose_a, b, pose_b, opt);
    hdi_cvisit v = {0.0, 0, visit_collide, &c};
    if (st == HD_OK) {
        st = hdi_compound_descend(a, b, &c.q.frame, &v, &out->stats);
    }
    return st;
}

/* ---- distance and signed distance: the least over the pairs ------------------------------ */

/* Branch and bound for the least (signed) distance: the bound is the best value so far. */
typedef struct hdi_cleast {
    hdi_cquery q;
    int is_signed;
    int have;
    double best;
    hd_verdict verdict; /* the deepest over the pairs run */
    int piece_a;
    int piece_b;
    hd_distance_result distance;
    hd_signed_distance_result signed_distance;
} hdi_cleast;

/* Runs the pair's query; its value and verdict into *value, *verdict. */
static hd_status run_least(hdi_cleast *c, int i, int j, double *value, hd_verdict *verdict,
                           hd_distance_result *d, hd_signed_distance_result *s)
{
    hdi_cpair p = piece_pair(&c->q, i, j);
    hd_status st = c->is_signed ? hd_signed_distance(p.a, &p.pa, p.b, &p.pb, &c->q.opt, s)
                                : hd_distance(p.a, &p.pa, p.b, &p.pb, &c->q.opt, d);
    *value = c->is_signed ? s->signed_distance : d->distance;
    *verdict = c->is_signed ? s->verdict : d->verdict;
    return st;
}

static hd_status visit_least(hdi_cvisit *v, int i, int j)
{
    hdi_cleast *c = v->ctx;
    double value = 0.0;
    hd_verdict verdict = HD_SEPARATED;
    hd_distance_result d;
    hd_signed_distance_result s;
    hd_status st = run_least(c, i, j, &value, &verdict, &d, &s);
    if (st != HD_OK) {
        return st;
    }
    if (deeper(verdict, c->verdict)) {
        c->verdict = verdict;
    }
    if (!c->have || value < c->best) {
        c->have = 1;
        c->best = v->bound = value;
        c->piece_a = i;
        c->piece_b = j;
        if (c->is_signed) {
            c->signed_distance = s;
        } else {
            c->distance = d;
        }
    }
    /* a distance cannot go below 0: the first intersecting pair ends it */
    v->stop = !c->is_signed && c->verdict == HD_INTERSECTING;
    return HD_OK;
}

/* A piece query's pose gradient turns about the piece's world origin; the compound's about the
 * body's: d delta / d theta about o_body = that about o_piece + (o_piece - o_body) x (d delta /
 * d tau) (hd_pose_gradient's dd = tau . g_t + theta . g_r with g_r = (w - o) x g_t). */
static void gradient_to_bodies(const hdi_cleast *c, hd_pose_gradient *g)
{
    hd_pose pa, pb;
    hdi_compound_world_pose(c->q.a, &c->q.frame.pa, c->piece_a, &pa);
    hdi_compound_world_pose(c->q.b, &c->q.frame.pb, c->piece_b, &pb);
    double da[3], db[3], xa[3], xb[3];
    hdi_v3_sub(da, pa.t, c->q.frame.pa.t);
    hdi_v3_sub(db, pb.t, c->q.frame.pb.t);
    hdi_v3_cross(xa, da, g->a);
    hdi_v3_cross(xb, db, g->b);
    hdi_v3_add(g->a + 3, g->a + 3, xa);
    hdi_v3_add(g->b + 3, g->b + 3, xb);
}

static hd_status run_descent(hdi_cleast *c, const hd_compound *a, const hd_pose *pose_a,
                             const hd_compound *b, const hd_pose *pose_b, const hd_options *opt,
                             hd_compound_stats *stats)
{
    c->have = 0;
    c->best = 0.0;
    c->piece_a = c->piece_b = -1;
    c->verdict = HD_SEPARATED;
    hd_status st = hdi_compound_query_init(&c->q, a, pose_a, b, pose_b, opt);
    hdi_cvisit v = {HUGE_VAL, 0, visit_least, c};
    if (st == HD_OK) {
        st = hdi_compound_descend(a, b, &c->q.frame, &v, stats);
    }
    if (st == HD_OK && c->have && (c->q.opt.flags & HD_QUERY_GRADIENT)) {
        gradient_to_bodies(c, c->is_signed ? &c->signed_distance.gradient : &c->distance.gradient);
    }
    return st;
}

hd_status hd_compound_distance(const hd_compound *a, const hd_pose *pose_a, const hd_compound *b,
                               const hd_pose *pose_b, const hd_options *opt,
                               hd_compound_distance_result *out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    memset(out, 0, sizeof *out);
    hdi_cleast c;
    c.is_signed = 0;
    hd_status st = run_descent(&c, a, pose_a, b, pose_b, opt, &out->stats);
    out->verdict = c.verdict;
    out->distance = c.best;
    out->piece_a = c.piece_a;
    out->piece_b = c.piece_b;
    out->pair = c.distance;
    return st;
}

hd_status hd_compound_signed_distance(const hd_compound *a, const hd_pose *pose_a,
                                      const hd_compound *b, const hd_pose *pose_b,
                                      const hd_options *opt,
                                      hd_compound_signed_distance_result *out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    memset(out, 0, sizeof *out);
    hdi_cleast c;
    c.is_signed = 1;
    hd_status st = run_descent(&c, a, pose_a, b, pose_b, opt, &out->stats);
    out->signed_distance = c.best;
    out->piece_a = c.piece_a;
    out->piece_b = c.piece_b;
    out->pair = c.signed_distance;
    /* each pair has its own band: the least signed distance can be touching in a wide band while
     * a pair of a narrower band intersects; pruned pairs lie beyond the pad, so are not */
    if (deeper(c.verdict, out->pair.verdict)) {
        out->pair.verdict = c.verdict;
    }
    return st;
}

hd_status hd_compound_piece_pose(const hd_compound *compound, const hd_pose *body, int i,
                                 hd_pose *out)
{
    if (compound == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    if (i < 0 || i >= compound->count) {
        return HD_ERR_INVALID_ARG;
    }
    hd_pose id = hd_pose_identity();
    hdi_compound_world_pose(compound, body != NULL ? body : &id, i, out);
    return HD_OK;
}
