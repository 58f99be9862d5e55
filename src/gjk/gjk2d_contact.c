/* The contact classifier in the plane (the rules of contact/classify.c) with an expanding polygon
 * for the depth side (kernel/epa.c in 2D): a convex polygon of support points of M,
 * counter-clockwise, whose edges all see the origin on their inner side proves depth >= the
 * smallest edge distance, and each support query along an edge normal n gives depth <= h_M(n) (a
 * line with gap -h_M(n)). The polygon is expanded at its edge nearest to the origin; vertices the
 * new point makes reflex are dropped, which keeps it convex. Capacity HD_EPA2D_MAX points on the
 * stack. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "gjk/internal.h"
#include "core/tolerances.h"
#include "kernel/gjk_core.h"

#define HD_EPA2D_MAX 128

typedef enum hdi_epa2d_outcome {
    HD_EPA2D_DEEP = 1,
    HD_EPA2D_SHALLOW,
    HD_EPA2D_EDGE
} hdi_epa2d_outcome;

typedef struct hdi_epa2d {
    const hdi_pair2d *p;
    hd_stats *stats;
    double tol;
    int n;
    double w[HD_EPA2D_MAX][2];
    int ia[HD_EPA2D_MAX];
    int ib[HD_EPA2D_MAX];
    hdi_epa2d_outcome outcome;
    double lower;
    double upper;
    double normal[2];
    int up_ia;
    int up_ib;
    int steps;
} hdi_epa2d;

static double cross2(const double a[2], const double b[2])
{
    return a[0] * b[1] - a[1] * b[0];
}

static double support(hdi_epa2d *e, const double n[2], int *ia, int *ib, double w[2])
{
    hdi_gjk2d_support_m(e->p, n, ia, ib, w, e->stats);
    double h = n[0] * w[0] + n[1] * w[1];
    e->steps++;
    if (h < e->upper) {
        e->upper = h;
        e->normal[0] = n[0];
        e->normal[1] = n[1];
        e->up_ia = *ia;
        e->up_ib = *ib;
    }
    return h;
}

static void put(hdi_epa2d *e, int k, const double w[2], int ia, int ib)
{
    e->w[k][0] = w[0];
    e->w[k][1] = w[1];
    e->ia[k] = ia;
    e->ib[k] = ib;
}

static int insert(hdi_epa2d *e, int i, const double w[2], int ia, int ib);

/* Segment w0 w1 (the origin on it, to rounding) -> quadrilateral w0, S(-n), w1, S(n) with n its
 * left normal. 1 when built; 0 when decided (SHALLOW) or degenerate (EDGE). */
static int build_from_segment(hdi_epa2d *e, double eps)
{
    double d[2] = {e->w[1][0] - e->w[0][0], e->w[1][1] - e->w[0][1]};
    double len = hypot(d[0], d[1]);
    if (!(len > 0.0)) {
        e->outcome = HD_EPA2D_EDGE;
        return 0;
    }
    double n[2] = {-d[1] / len, d[0] / len}, m[2] = {-n[0], -n[1]}, wp[2], wm[2];
    int ia[2], ib[2];
    double base = n[0] * e->w[0][0] + n[1] * e->w[0][1];
    double hp = support(e, n, &ia[0], &ib[0], wp);
    double hm = e->upper <= eps ? 0.0 : support(e, m, &ia[1], &ib[1], wm);
    if (e->upper <= eps) {
        e->outcome = HD_EPA2D_SHALLOW;
        return 0;
    }
    if (!(hp - base > e->tol) || !(hm + base > e->tol)) {
        e->outcome = HD_EPA2D_EDGE;
        return 0;
    }
    /* triangle w0, S(-n), w1 (counter-clockwise), then S(n) inserted after w1 with the reflex
     * test of the expansion: the quadrilateral is not convex when S(n) - S(-n) misses w0 w1 */
    put(e, 2, e->w[1], e->ia[1], e->ib[1]);
    put(e, 1, wm, ia[1], ib[1]);
    e->n = 3;
    return insert(e, 2, wp, ia[0], ib[0]);
}

static int build_initial(hdi_epa2d *e, const hdi_simplex2d *s, double eps)
{
    e->n = s->count;
    for (int j = 0; j < s->count; ++j) {
        put(e, j, s->w[j], s->ia[j], s->ib[j]);
    }
    if (e->n == 3) {
        double l[3];
        double det = hdi_tri2d_barycentric(e->w[0], e->w[1], e->w[2], l);
        if (det < 0.0) { /* make it counter-clockwise */
            double w[2] = {e->w[1][0], e->w[1][1]};
            int ia = e->ia[1], ib = e->ib[1];
            put(e, 1, e->w[2], e->ia[2], e->ib[2]);
            put(e, 2, w, ia, ib);
        }
        return 1;
    }
    if (e->n == 1) { /* grow to a segment along +x or -x */
        for (int side = 0; side < 2 && e->n == 1; ++side) {
            double n[2] = {side ? -1.0 : 1.0, 0.0}, w[2];
            int ia, ib;
            support(e, n, &ia, &ib, w);
            if (e->upper <= eps) {
                e->outcome = HD_EPA2D_SHALLOW;
                return 0;
            }
            if (hypot(w[0] - e->w[0][0], w[1] - e->w[0][1]) > e->tol) {
                put(e, 1, w, ia, ib);
                e->n = 2;
            }
        }
        if (e->n == 1) {
            e->outcome = HD_EPA2D_EDGE;
            return 0;
        }
    }
    return build_from_segment(e, eps);
}

/* Outward unit normal of edge i (from w[i] to w[i+1]) and its distance bound. */
static double edge_plane(const hdi_epa2d *e, int i, double n[2])
{
    const double *p = e->w[i], *q = e->w[(i + 1) % e->n];
    double d[2] = {q[0] - p[0], q[1] - p[1]};
    double len = hypot(d[0], d[1]);
    if (!(len > 0.0)) {
        n[0] = n[1] = 0.0;
        return 0.0;
    }
    n[0] = d[1] / len;
    n[1] = -d[0] / len;
    return fmin(n[0] * p[0] + n[1] * p[1], n[0] * q[0] + n[1] * q[1]);
}

static void remove_at(hdi_epa2d *e, int k)
{
    for (int i = k; i + 1 < e->n; ++i) {
        put(e, i, e->w[i + 1], e->ia[i + 1], e->ib[i + 1]);
    }
    e->n--;
}

/* Inserts w after vertex i and drops the neighbours it makes reflex. 0 when full. */
static int insert(hdi_epa2d *e, int i, const double w[2], int ia, int ib)
{
    if (e->n >= HD_EPA2D_MAX) {
        return 0;
    }
    for (int k = e->n; k > i + 1; --k) {
        put(e, k, e->w[k - 1], e->ia[k - 1], e->ib[k - 1]);
    }
    put(e, i + 1, w, ia, ib);
    e->n++;
    int k = i + 1;
    while (e->n > 3) { /* predecessor */
        int a = (k + e->n - 2) % e->n, b = (k + e->n - 1) % e->n;
        double u[2] = {e->w[b][0] - e->w[a][0], e->w[b][1] - e->w[a][1]};
        double v[2] = {e->w[k][0] - e->w[b][0], e->w[k][1] - e->w[b][1]};
        if (cross2(u, v) > 0.0) {
            break;
        }
        remove_at(e, b);
        k = b < k ? k - 1 : k;
    }
    while (e->n > 3) { /* successor */
        int b = (k + 1) % e->n, c = (k + 2) % e->n;
        double u[2] = {e->w[b][0] - e->w[k][0], e->w[b][1] - e->w[k][1]};
        double v[2] = {e->w[c][0] - e->w[b][0], e->w[c][1] - e->w[b][1]};
        if (cross2(u, v) > 0.0) {
            break;
        }
        remove_at(e, b);
        k = b < k ? k - 1 : k;
    }
    return 1;
}

/* DEEP: the fan triangle (w0, w_i, w_i+1) holding the origin, with clamped weights. */
static void inner_triangle(const hdi_epa2d *e, hdi_simplex2d *out)
{
    int best = 1;
    double best_score = -DBL_MAX, best_l[3] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    for (int i = 1; i + 1 < e->n; ++i) {
        double l[3];
        if (hdi_tri2d_barycentric(e->w[0], e->w[i], e->w[i + 1], l) == 0.0) {
            continue;
        }
        double score = fmin(l[0], fmin(l[1], l[2]));
        if (score > best_score) {
            best_score = score;
            best = i;
            memcpy(best_l, l, sizeof best_l);
        }
    }
    int idx[3] = {0, best, best + 1};
    double sum = 0.0;
    for (int j = 0; j < 3; ++j) {
        best_l[j] = fmax(best_l[j], 0.0);
        sum += best_l[j];
    }
    out->count = 3;
    for (int j = 0; j < 3; ++j) {
        out->w[j][0] = e->w[idx[j]][0];
        out->w[j][1] = e->w[idx[j]][1];
        out->ia[j] = e->ia[idx[j]];
        out->ib[j] = e->ib[idx[j]];
        out->lambda[j] = sum > 0.0 ? best_l[j] / sum : 1.0 / 3;
    }
}

static int has_pair(const hdi_epa2d *e, int ia, int ib)
{
    for (int i = 0; i < e->n; ++i) {
        if (e->ia[i] == ia && e->ib[i] == ib) {
            return 1;
        }
    }
    return 0;
}

static hd_status epa2d(hdi_epa2d *e, const hdi_simplex2d *start, double eps, int max_steps,
                       hdi_simplex2d *inner)
{
    if (!build_initial(e, start, eps)) {
        return HD_OK;
    }
    for (int steps = 0;; ++steps) {
        int f = 0;
        double fd = DBL_MAX, n[2];
        for (int i = 0; i < e->n; ++i) {
            double d = edge_plane(e, i, n);
            if (d < fd) {
                fd = d;
                f = i;
            }
        }
        e->lower = fmax(e->lower, fd > 0.0 ? fd : 0.0);
        if (e->lower > eps) {
            e->outcome = HD_EPA2D_DEEP;
            if (start->count == 3) {
                *inner = *start;
            } else {
                inner_triangle(e, inner);
            }
            return HD_OK;
        }
        if (steps >= max_steps) {
            return HD_ERR_ITERATION_LIMIT;
        }
        double w[2];
        int ia, ib;
        edge_plane(e, f, n);
        double h = support(e, n, &ia, &ib, w);
        if (e->upper <= eps) {
            e->outcome = HD_EPA2D_SHALLOW;
            return HD_OK;
        }
        if (has_pair(e, ia, ib) || h - fd <= e->tol) {
            e->outcome = HD_EPA2D_EDGE;
            return HD_OK;
        }
        if (!insert(e, f, w, ia, ib)) {
            return HD_ERR_ITERATION_LIMIT;
        }
    }
}

static void touching_from_gjk(const hdi_pair2d *p, const hdi_gjk2d_state *st,
                              hd_collide2d_result *out)
{
    out->verdict = HD_TOUCHING;
    hdi_gjk2d_line(p, st, &out->cert);
    hdi_gjk2d_point(p, &st->simplex, &out->cert);
}

static hd_status depth_side(const hdi_pair2d *p, hdi_gjk2d_state *st, hd_collide2d_result *out)
{
    hdi_epa2d e;
    memset(&e, 0, sizeof e);
    e.p = p;
    e.stats = &out->stats;
    e.tol = HD_GJK_ABS_TOL * p->scale;
    e.upper = DBL_MAX;
    e.outcome = HD_EPA2D_EDGE;
    hdi_simplex2d inner;
    inner.count = 0;
    hd_status status = epa2d(&e, &st->simplex, p->eps, p->max_iterations, &inner);
    out->stats.refine_steps += e.steps;
    if (status != HD_OK) {
        return status;
    }
    if (e.outcome == HD_EPA2D_DEEP ||
        (e.outcome == HD_EPA2D_EDGE && 0.5 * (e.lower + e.upper) > p->eps)) {
        out->verdict = HD_INTERSECTING;
        hdi_gjk2d_point(p, inner.count == 3 ? &inner : &st->simplex, &out->cert);
        out->cert.depth_bound = e.lower;
        return HD_OK;
    }
    out->verdict = HD_TOUCHING;
    const double *a = p->a + 2 * e.up_ia, *b = p->b + 2 * e.up_ib;
    double ha = e.normal[0] * a[0] + e.normal[1] * a[1],
           hb = e.normal[0] * b[0] + e.normal[1] * b[1];
    out->cert.has_line = true;
    out->cert.normal[0] = e.normal[0];
    out->cert.normal[1] = e.normal[1];
    out->cert.gap = hb - ha;
    out->cert.offset = 0.5 * (ha + hb);
    hdi_gjk2d_point(p, &st->simplex, &out->cert);
    return HD_OK;
}

/* The distance and witnesses of a decided pair: the closest points (a point pair within eps when
 * touching), the common point when intersecting. */
void hdi_gjk2d_closest(const hdi_pair2d *p, const hdi_gjk2d_state *st,
                       const hd_collide2d_result *out, hdi_closest2d *closest)
{
    if (out->verdict == HD_INTERSECTING) {
        closest->distance = 0.0;
        memcpy(closest->witness_a, out->cert.point, sizeof closest->witness_a);
        memcpy(closest->witness_b, out->cert.point, sizeof closest->witness_b);
    } else {
        closest->distance = out->verdict == HD_SEPARATED ? sqrt(st->vv) : 0.0;
        hdi_gjk2d_witnesses(p, &st->simplex, closest->witness_a, closest->witness_b);
    }
}

hd_status hdi_gjk2d_refine(const hdi_pair2d *p, hdi_gjk2d_state *st, hdi_closest2d *closest,
                           hd_collide2d_result *out)
{
    const double eps = p->eps;
    int iterations = st->iterations;
    hd_status status = HD_OK;
    if (st->end == HD_GJK2D_RUNNING || (st->end == HD_GJK2D_SEPARATED && closest != NULL)) {
        st->end = HD_GJK2D_RUNNING;
        status = hdi_gjk2d_iterate(p, closest != NULL ? DBL_MAX : eps, st, &out->stats);
    }
    out->stats.refine_steps += st->iterations - iterations;
    if (status != HD_OK) {
        return status;
    }
    double upper = st->end == HD_GJK2D_ENCLOSED ? 0.0 : sqrt(st->vv);
    if (st->lower > eps || (upper > eps && 0.5 * (upper + st->lower) > eps)) {
        out->verdict = HD_SEPARATED;
        hdi_gjk2d_line(p, st, &out->cert);
    } else if (upper > eps || st->lower >= -eps) {
        touching_from_gjk(p, st, out);
    } else {
        status = depth_side(p, st, out);
        if (status != HD_OK) {
            return status;
        }
    }
    out->stop = HD_STOP_REFINED;
    if (closest != NULL) {
        hdi_gjk2d_closest(p, st, out, closest);
    }
    return HD_OK;
}
