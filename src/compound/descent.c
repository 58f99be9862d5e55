/* The simultaneous descent of two compounds' trees (docs/algorithms/compound.md, section 3):
 * B's boxes are carried into A's body frame (a box turned by R is held by the box of half-widths
 * |R| h), and a pair of nodes is opened only when the signed distance of the two boxes, a lower
 * bound of every signed distance between pieces inside them, lies below the visitor's bound. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "compound/internal.h"
#include "core/math.h"
#include "core/tolerances.h"

void hdi_compound_world_pose(const hd_compound *c, const hd_pose *body, int i, hd_pose *out)
{
    const hd_pose *p = &c->pieces[i].pose;
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 3; ++col) {
            out->r[3 * row + col] = body->r[3 * row] * p->r[col] +
                                    body->r[3 * row + 1] * p->r[3 + col] +
                                    body->r[3 * row + 2] * p->r[6 + col];
        }
    }
    hd_pose_apply(body, p->t, out->t);
}

/* The box lo, hi moved by r, t: centre and half-widths. */
static void turned_box(const double r[9], const double t[3], const double lo[3], const double hi[3],
                       double c[3], double h[3])
{
    double mid[3], half[3];
    for (int k = 0; k < 3; ++k) {
        mid[k] = 0.5 * (lo[k] + hi[k]);
        half[k] = 0.5 * (hi[k] - lo[k]);
    }
    hdi_m3_mul_v(c, r, mid);
    hdi_v3_add(c, c, t);
    for (int k = 0; k < 3; ++k) {
        h[k] =
            fabs(r[3 * k]) * half[0] + fabs(r[3 * k + 1]) * half[1] + fabs(r[3 * k + 2]) * half[2];
    }
}

/* The largest absolute coordinate of a box given by centre and half-widths. */
static double box_magnitude(const double c[3], const double h[3])
{
    double m = 0.0;
    for (int k = 0; k < 3; ++k) {
        m = fmax(m, fabs(c[k]) + h[k]);
    }
    return m;
}

static double root_magnitude(const hd_compound *c, const double r[9], const double t[3])
{
    double mid[3], half[3];
    turned_box(r, t, c->nodes[0].lo, c->nodes[0].hi, mid, half);
    return box_magnitude(mid, half);
}

hd_status hdi_compound_frame(const hd_compound *a, const hd_pose *pose_a, const hd_compound *b,
                             const hd_pose *pose_b, const hd_tolerance *tol, hdi_cframe *out)
{
    out->pa = pose_a != NULL ? *pose_a : hd_pose_identity();
    out->pb = pose_b != NULL ? *pose_b : hd_pose_identity();
    hd_status st = hd_pose_validate(&out->pa, tol->pose_tol);
    if (st == HD_OK) {
        st = hd_pose_validate(&out->pb, tol->pose_tol);
    }
    if (st != HD_OK) {
        return st;
    }
    /* x_A = Ra^T (Rb x_B + tb - ta) */
    double d[3], id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, zero[3] = {0, 0, 0};
    hdi_m3_tmul_m(out->r, out->pa.r, out->pb.r);
    hdi_v3_sub(d, out->pb.t, out->pa.t);
    hdi_m3_tmul_v(out->t, out->pa.r, d);
    double m = fmax(root_magnitude(a, id, zero), root_magnitude(b, id, zero));
    m = fmax(
        m, fmax(root_magnitude(a, out->pa.r, out->pa.t), root_magnitude(b, out->pb.r, out->pb.t)));
    m = fmax(m, root_magnitude(b, out->r, out->t));
    out->pad =
        (HD_COMPOUND_SCALE_FACTOR * tol->touch_rel + HD_COMPOUND_BOX_ROUNDING_UNITS * DBL_EPSILON) *
        m;
    return HD_OK;
}

/* The signed distance of two boxes (centre, half-widths): their distance when apart, minus the
 * least overlap along an axis when they overlap (the depth of two boxes). */
static double box_signed_distance(const double ca[3], const double ha[3], const double cb[3],
                                  const double hb[3])
{
    double sum = 0.0, most = -HUGE_VAL;
    for (int k = 0; k < 3; ++k) {
        double gap = fabs(ca[k] - cb[k]) - ha[k] - hb[k];
        most = fmax(most, gap);
        sum += gap > 0.0 ? gap * gap : 0.0;
    }
    return most > 0.0 ? sqrt(sum) : most;
}

/* A pair of nodes waiting on the descent's stack, with its boxes' signed distance. */
typedef struct hdi_centry {
    int a;
    int b;
    double sd;
} hdi_centry;

typedef struct hdi_cdescent {
    const hd_compound *a;
    const hd_compound *b;
    const hdi_cframe *f;
    hdi_centry stack[HDI_COMPOUND_STACK];
    int top;
} hdi_cdescent;

static double node_pair_sd(const hdi_cdescent *d, int na, int nb, double *size_a, double *size_b)
{
    const hdi_cnode *x = &d->a->nodes[na], *y = &d->b->nodes[nb];
    double ca[3], ha[3], cb[3], hb[3], id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, zero[3] = {0, 0, 0};
    turned_box(id, zero, x->lo, x->hi, ca, ha);
    turned_box(d->f->r, d->f->t, y->lo, y->hi, cb, hb);
    if (size_a != NULL) {
        *size_a = ha[0] + ha[1] + ha[2];
        *size_b = hb[0] + hb[1] + hb[2];
    }
    return box_signed_distance(ca, ha, cb, hb);
}

/* Whether a node pair may hold a pair of pieces below the bound: only boxes farther than the
 * bound by more than the pad are left out (at the bound itself a pair may touch, and the pad is
 * 0 for shapes that are all at the origin). */
static int within(const hdi_centry *e, const hdi_cvisit *v, const hdi_cframe *f)
{
    return e->sd <= v->bound + f->pad;
}

/* Pushes the two children pairs (a0, b0) and (a1, b1), the farther first so that the nearer is
 * opened first; those already beyond the bound are left out. */
static void push_children(hdi_cdescent *d, const hdi_cvisit *v, int a0, int b0, int a1, int b1)
{
    hdi_centry e0 = {a0, b0, node_pair_sd(d, a0, b0, NULL, NULL)};
    hdi_centry e1 = {a1, b1, node_pair_sd(d, a1, b1, NULL, NULL)};
    if (e1.sd < e0.sd) {
        hdi_centry tmp = e0;
        e0 = e1;
        e1 = tmp;
    }
    if (within(&e1, v, d->f)) {
        d->stack[d->top++] = e1;
    }
    if (within(&e0, v, d->f)) {
        d->stack[d->top++] = e0;
    }
}

/* Opens a node pair: the larger inner node is split (a leaf against an inner node splits the
 * inner one). */
static void open_pair(hdi_cdescent *d, const hdi_cvisit *v, const hdi_centry *e)
{
    const hdi_cnode *x = &d->a->nodes[e->a], *y = &d->b->nodes[e->b];
    double size_a = 0.0, size_b = 0.0;
    node_pair_sd(d, e->a, e->b, &size_a, &size_b);
    int split_a = y->piece >= 0 || (x->piece < 0 && size_a >= size_b);
    if (split_a) {
        push_children(d, v, x->left, e->b, x->right, e->b);
    } else {
        push_children(d, v, e->a, y->left, e->a, y->right);
    }
}

hd_status hdi_compound_descend(const hd_compound *a, const hd_compound *b, const hdi_cframe *f,
                               hdi_cvisit *v, hd_compound_stats *stats)
{
    hdi_cdescent d;
    d.a = a;
    d.b = b;
    d.f = f;
    d.top = 0;
    hdi_centry root = {0, 0, node_pair_sd(&d, 0, 0, NULL, NULL)};
    if (within(&root, v, f)) {
        d.stack[d.top++] = root;
    }
    while (d.top > 0 && !v->stop) {
        hdi_centry e = d.stack[--d.top];
        if (!within(&e, v, f)) {
            continue; /* the bound has improved since it was pushed */
        }
        stats->node_pairs++;
        int pa = a->nodes[e.a].piece, pb = b->nodes[e.b].piece;
        if (pa < 0 || pb < 0) {
            open_pair(&d, v, &e);
            continue;
        }
        stats->piece_pairs++;
        hd_status st = v->visit(v, pa, pb);
        if (st != HD_OK) {
            return st;
        }
    }
    return HD_OK;
}
