/* Time of impact of two compounds: branch and bound over the two piece trees on a lower bound of
 * each node pair's first contact time (distance over the speed bound: Mirtich 1996, section 2.3,
 * applied to boxes), then hd_toi on the surviving piece pairs on [0, best], best the earliest
 * contact proven so far (docs/algorithms/motion.md, section 8). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "compound/internal.h"
#include "core/math.h"
#include "core/tolerances.h"
#include "motion/twist.h"

/* One body of the query: its compound, its motion, and the pad of every box test. */
typedef struct ctoi_body {
    const hd_compound *c;
    const hd_motion *m;
    double speed_lin; /* |v| */
    double omega;     /* |w| */
} ctoi_body;

typedef struct ctoi_entry {
    int a;
    int b;
    double t_lo;   /* no pair of pieces inside meets before it */
    double size_a; /* the nodes' box sizes at t = 0, which decide the split */
    double size_b;
} ctoi_entry;

typedef struct ctoi_search {
    ctoi_body A, B;
    hd_toi_options opt;
    double pad; /* the widest band of a piece pair and the boxes' rounding */
    double best_hi;
    int found;
    hd_compound_toi_result *out;
    ctoi_entry stack[HDI_COMPOUND_STACK];
    int top;
} ctoi_search;

/* The world box at t = 0 of node n (centre, half-widths) and its reach about the motion's
 * centre: every point of the node is within reach of c. */
static double node_world_box(const ctoi_body *bd, int n, double ctr[3], double half[3])
{
    const hdi_cnode *node = &bd->c->nodes[n];
    const hd_pose *p = &bd->m->pose0;
    double mid[3], h[3];
    for (int k = 0; k < 3; ++k) {
        mid[k] = 0.5 * (node->lo[k] + node->hi[k]);
        h[k] = 0.5 * (node->hi[k] - node->lo[k]);
    }
    hd_pose_apply(p, mid, ctr);
    for (int k = 0; k < 3; ++k) {
        half[k] =
            fabs(p->r[3 * k]) * h[0] + fabs(p->r[3 * k + 1]) * h[1] + fabs(p->r[3 * k + 2]) * h[2];
    }
    double d[3];
    hdi_v3_sub(d, ctr, bd->m->c);
    return hdi_v3_len(d) + hdi_v3_len(half);
}

/* The distance of two boxes given by centres and half-widths, B's shifted by [lo, hi] of its
 * relative translation along each axis (the box of the swept boxes' gap; 0 when they meet). */
static double swept_gap(const double ca[3], const double ha[3], const double cb[3],
                        const double hb[3], const double lo[3], const double hi[3])
{
    double sum = 0.0;
    for (int k = 0; k < 3; ++k) {
        double below = (ca[k] - ha[k]) - (cb[k] + hb[k] + hi[k]); /* B below A */
        double above = (cb[k] - hb[k] + lo[k]) - (ca[k] + ha[k]); /* B above A */
        double g = hdi_max(below, above);
        sum += g > 0.0 ? g * g : 0.0;
    }
    return sqrt(sum);
}

/* A lower bound of the first contact time of any piece pair under nodes na, nb over [0, T]:
 * HUGE_VAL when their swept boxes do not meet (each t = 0 box moved along T v, the swept box of
 * a translation, and grown by min(T |w|, 2) reach, the turn's displacement bound), else the box
 * distance at t = 0 less the pad over the two speed bounds |v| + |w| reach (no point pair closes
 * faster). */
static double node_pair_time(const ctoi_search *s, int na, int nb, double T, double *size_a,
                             double *size_b)
{
    double ca[3], ha[3], cb[3], hb[3], lo[3], hi[3], zero[3] = {0, 0, 0};
    double ra = node_world_box(&s->A, na, ca, ha), rb = node_world_box(&s->B, nb, cb, hb);
    *size_a = ha[0] + ha[1] + ha[2];
    *size_b = hb[0] + hb[1] + hb[2];
    double turn = hdi_min(T * s->A.omega, 2.0) * ra + hdi_min(T * s->B.omega, 2.0) * rb;
    for (int k = 0; k < 3; ++k) { /* B's translation relative to A's over [0, T] */
        double rel = T * (s->B.m->v[k] - s->A.m->v[k]);
        lo[k] = hdi_min(rel, 0.0);
        hi[k] = hdi_max(rel, 0.0);
    }
    double grow = HD_MOTION_SPEED_UNITS * DBL_EPSILON;
    if (swept_gap(ca, ha, cb, hb, lo, hi) > turn * (1.0 + grow) + s->pad) {
        return HUGE_VAL;
    }
    double gap = swept_gap(ca, ha, cb, hb, zero, zero) - s->pad;
    double speed =
        (s->A.speed_lin + s->A.omega * ra + s->B.speed_lin + s->B.omega * rb) * (1.0 + grow);
    if (!(gap > 0.0)) {
        return 0.0;
    }
    return speed > 0.0 ? gap / speed : HUGE_VAL;
}

/* A hit of (pa, pb) on [lo, hi] against the best: 1 when earlier (hi below the best's lo by more
 * than time_tol), 2 when the two brackets overlap or lie within time_tol (the brackets' resolution;
 * the interval's scaling rounds too) and (pa, pb) is the smaller pair (a tie, decided by the
 * indices so that the answer does not depend on the descent's order), 3 for an overlap the best
 * keeps, 0 when later. */
static int compare_hit(const ctoi_search *s, double lo, double hi, int pa, int pb)
{
    const hd_compound_toi_result *o = s->out;
    double tol = s->opt.time_tol;
    if (!s->found || hi < o->toi.lo - tol) {
        return 1;
    }
    if (lo > o->toi.hi + tol) {
        return 0;
    }
    return pa < o->piece_a || (pa == o->piece_a && pb < o->piece_b) ? 2 : 3;
}

/* The end of the interval still open: 1 before the first hit, then the best time and time_tol
 * (a contact at the best time itself, a tie, then lies inside the interval, not at its end). */
static double horizon(const ctoi_search *s)
{
    return s->found ? hdi_min(1.0, s->best_hi + s->opt.time_tol) : 1.0;
}

/* A piece's motion: the body's twist from the piece's world pose at t = 0; over [0, T] (T > 0:
 * time_tol > 0) the twist scaled by T (the same path, run in unit time). */
static hd_motion piece_motion(const ctoi_body *bd, int piece, double T)
{
    hd_motion m = *bd->m;
    hdi_compound_world_pose(bd->c, &bd->m->pose0, piece, &m.pose0);
    hdi_v3_scale(m.v, m.v, T);
    hdi_v3_scale(m.w, m.w, T);
    return m;
}

/* hd_toi on pieces pa, pb over [0, horizon]; a hit replaces the best when it is earlier. */
static hd_status visit_pieces(ctoi_search *s, int pa, int pb)
{
    double T = horizon(s);
    hd_motion ma = piece_motion(&s->A, pa, T), mb = piece_motion(&s->B, pb, T);
    hd_toi_options o = s->opt;
    o.time_tol = s->opt.time_tol / T;
    hd_toi_result r;
    s->out->stats.piece_pairs++;
    hd_status st = hd_toi(s->A.c->pieces[pa].poly, &ma, s->B.c->pieces[pb].poly, &mb, &o, &r);
    s->out->toi.iterations += r.iterations;
    if (st != HD_OK || !r.hit) {
        return st;
    }
    r.lo *= T;
    r.hi *= T;
    r.toi = r.hi;
    int verdict = compare_hit(s, r.lo, r.hi, pa, pb);
    double lo = verdict >= 2 ? hdi_min(r.lo, s->out->toi.lo) : r.lo; /* both pairs' proofs */
    if (verdict == 1 || verdict == 2) {
        int iterations = s->out->toi.iterations;
        s->out->toi = r;
        s->out->toi.iterations = iterations;
        s->out->piece_a = pa;
        s->out->piece_b = pb;
        s->best_hi = r.hi;
        s->found = 1;
    }
    s->out->toi.lo = verdict != 0 ? lo : s->out->toi.lo;
    return HD_OK;
}

/* Whether a node pair can still hold a contact no later than the best. */
static int worth(const ctoi_search *s, double t_lo)
{
    return t_lo <= horizon(s);
}

/* The entry of node pair (a, b) over the current horizon: its time bound and its boxes' sizes. */
static ctoi_entry make_entry(const ctoi_search *s, int a, int b)
{
    ctoi_entry e = {a, b, 0.0, 0.0, 0.0};
    e.t_lo = node_pair_time(s, a, b, horizon(s), &e.size_a, &e.size_b);
    return e;
}

static void push(ctoi_search *s, const ctoi_entry *e)
{
    if (worth(s, e->t_lo)) {
        s->stack[s->top++] = *e;
    }
}

/* Opens a node pair: the larger inner node is split; the child pair with the later bound is
 * pushed first so that the earlier one is opened first (ties: the left child first). */
static void open_pair(ctoi_search *s, const ctoi_entry *e)
{
    const hdi_cnode *x = &s->A.c->nodes[e->a], *y = &s->B.c->nodes[e->b];
    int split_a = y->piece >= 0 || (x->piece < 0 && e->size_a >= e->size_b);
    int a0 = split_a ? x->left : e->a, a1 = split_a ? x->right : e->a;
    int b0 = split_a ? e->b : y->left, b1 = split_a ? e->b : y->right;
    ctoi_entry first = make_entry(s, a0, b0), second = make_entry(s, a1, b1);
    if (second.t_lo < first.t_lo) {
        push(s, &first);
        push(s, &second);
    } else {
        push(s, &second);
        push(s, &first);
    }
}

static hd_status descend(ctoi_search *s)
{
    s->top = 0;
    ctoi_entry root = make_entry(s, 0, 0);
    push(s, &root);
    while (s->top > 0) {
        ctoi_entry e = s->stack[--s->top];
        if (!worth(s, e.t_lo)) {
            continue; /* the best has improved since it was pushed */
        }
        s->out->stats.node_pairs++;
        int pa = s->A.c->nodes[e.a].piece, pb = s->B.c->nodes[e.b].piece;
        if (pa < 0 || pb < 0) {
            open_pair(s, &e);
            continue;
        }
        hd_status st = visit_pieces(s, pa, pb);
        if (st != HD_OK) {
            return st;
        }
    }
    return HD_OK;
}

static hd_status read_options(const hd_toi_options *opt, hd_toi_options *o)
{
    *o = opt != NULL ? *opt : hd_toi_options_default();
    if (!isfinite(o->time_tol)) {
        return HD_ERR_INVALID_ARG;
    }
    o->time_tol = o->time_tol > 0.0 ? o->time_tol : HD_TOI_DEFAULT_TIME_TOL;
    o->query.cache = NULL; /* a cache belongs to one pair of polytopes */
    hd_status st = hd_tolerance_validate(&o->query.tol);
    if (st == HD_OK && ((int)o->query.algo < 0 || o->query.algo >= HD_ALGO_COUNT)) {
        st = HD_ERR_INVALID_ARG;
    }
    return st;
}

/* The body's scale over the motion, |c| + |v| + the root's reach: no piece pair's band (hd_toi's)
 * is wider than rel times the larger of the two. */
static double body_scale(const ctoi_body *bd)
{
    double ctr[3], half[3];
    double reach = node_world_box(bd, 0, ctr, half);
    return hdi_v3_len(bd->m->c) + hdi_v3_len(bd->m->v) + reach;
}

static void init_body(ctoi_body *bd, const hd_compound *c, const hd_motion *m)
{
    bd->c = c;
    bd->m = m;
    bd->speed_lin = hdi_v3_len(m->v);
    bd->omega = hdi_v3_len(m->w);
}

static void no_hit(hd_compound_toi_result *out, double eps)
{
    out->toi.hit = false;
    out->toi.lo = out->toi.hi = out->toi.toi = 1.0;
    out->toi.eps = eps;
    out->piece_a = out->piece_b = -1;
}

hd_status hd_compound_toi(const hd_compound *a, const hd_motion *motion_a, const hd_compound *b,
                          const hd_motion *motion_b, const hd_toi_options *opt,
                          hd_compound_toi_result *out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    memset(out, 0, sizeof *out);
    out->piece_a = out->piece_b = -1;
    if (a == NULL || b == NULL || motion_a == NULL || motion_b == NULL) {
        return HD_ERR_NULL;
    }
    ctoi_search s;
    hd_status st = hdi_motion_validate(motion_a);
    if (st == HD_OK) {
        st = hdi_motion_validate(motion_b);
    }
    if (st == HD_OK) {
        st = read_options(opt, &s.opt);
    }
    if (st != HD_OK) {
        return st;
    }
    init_body(&s.A, a, motion_a);
    init_body(&s.B, b, motion_b);
    double scale = hdi_max(body_scale(&s.A), body_scale(&s.B));
    if (!(scale <= HD_MAX_COORD)) {
        return HD_ERR_RANGE;
    }
    double rel = hdi_max(s.opt.query.tol.touch_rel, HD_TOI_MIN_BAND_REL);
    s.pad = (rel + HD_COMPOUND_BOX_ROUNDING_UNITS * DBL_EPSILON) * scale;
    s.best_hi = 1.0;
    s.found = 0;
    s.out = out;
    st = descend(&s);
    if (st != HD_OK) {
        hd_compound_stats stats = out->stats;
        memset(out, 0, sizeof *out);
        out->piece_a = out->piece_b = -1;
        out->stats = stats;
        return st;
    }
    if (!s.found) {
        no_hit(out, rel * scale);
    }
    return HD_OK;
}
