/* Planar simplex search (see cddual_plane.h).
 *
 * GJK (Gilbert, Johnson, Keerthi) in two dimensions: keep a simplex of at most three projected
 * support points; replace it by the sub-simplex nearest the origin, v its nearest point; ask the
 * support in direction -v for a new point w. Every point p of the projected set satisfies
 * v.p >= v.w, so v.w / |v| is a lower bound of the origin's distance to the set and |v| an upper
 * bound: stop when the lower bound exceeds tol (separated), when the new point brings no progress
 * (|v|^2 - v.w <= 1e-14 |v|^2: v is the nearest point up to rounding), or when the simplex is a
 * triangle containing the origin (found, with its barycentric coordinates from signed areas). */
#include <float.h>
#include <math.h>

#include "cddual_plane.h"
#include "hd_math.h"

void hd_plane_basis(const double n[3], double e1[3], double e2[3])
{
    double axis[3] = {1.0, 0.0, 0.0};
    if (fabs(n[0]) > 0.6) {
        hd_v3_set(axis, 0.0, 1.0, 0.0);
    }
    hd_v3_cross(e1, n, axis);
    hd_v3_normalize(e1);
    hd_v3_cross(e2, n, e1);
}

typedef struct hd_simplex2 {
    int n;
    double p[3][2];
    hd_plane_result *r; /* w, ia, ib, lambda live in the result */
} hd_simplex2;

static double cross2(const double a[2], const double b[2], const double c[2])
{
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/* Keeps points i (and j >= 0) in that order. */
static void keep(hd_simplex2 *s, int i, int j)
{
    int idx[2] = {i, j};
    int n = j < 0 ? 1 : 2;
    double p[2][2], w[2][3];
    int ia[2], ib[2];
    for (int k = 0; k < n; ++k) {
        p[k][0] = s->p[idx[k]][0];
        p[k][1] = s->p[idx[k]][1];
        hd_v3_copy(w[k], s->r->w[idx[k]]);
        ia[k] = s->r->ia[idx[k]];
        ib[k] = s->r->ib[idx[k]];
    }
    for (int k = 0; k < n; ++k) {
        s->p[k][0] = p[k][0];
        s->p[k][1] = p[k][1];
        hd_v3_copy(s->r->w[k], w[k]);
        s->r->ia[k] = ia[k];
        s->r->ib[k] = ib[k];
    }
    s->n = n;
}

/* Segment p0 p1: the nearest point to the origin at parameter t, clamped to a vertex. */
static void nearest_segment(hd_simplex2 *s)
{
    double d[2] = {s->p[1][0] - s->p[0][0], s->p[1][1] - s->p[0][1]};
    double dd = d[0] * d[0] + d[1] * d[1];
    double t = dd > 0.0 ? -(s->p[0][0] * d[0] + s->p[0][1] * d[1]) / dd : 0.0;
    if (t <= 0.0) {
        keep(s, 0, -1);
        s->r->lambda[0] = 1.0;
    } else if (t >= 1.0) {
        keep(s, 1, -1);
        s->r->lambda[0] = 1.0;
    } else {
        s->r->lambda[0] = 1.0 - t;
        s->r->lambda[1] = t;
    }
}

static double nearest_norm2(const hd_simplex2 *s)
{
    double v[2] = {0.0, 0.0};
    for (int i = 0; i < s->n; ++i) {
        v[0] += s->r->lambda[i] * s->p[i][0];
        v[1] += s->r->lambda[i] * s->p[i][1];
    }
    return v[0] * v[0] + v[1] * v[1];
}

/* Triangle: 1 when the origin lies in it (closed), with barycentric weights from the signed
 * areas; else the simplex becomes the nearest of its edges' sub-simplices. */
static int nearest_triangle(hd_simplex2 *s)
{
    static const double o[2] = {0.0, 0.0};
    double area = cross2(s->p[0], s->p[1], s->p[2]);
    double a0 = cross2(o, s->p[1], s->p[2]);
    double a1 = cross2(s->p[0], o, s->p[2]);
    double a2 = cross2(s->p[0], s->p[1], o);
    if (area != 0.0 && a0 * area >= 0.0 && a1 * area >= 0.0 && a2 * area >= 0.0) {
        s->r->lambda[0] = a0 / area;
        s->r->lambda[1] = a1 / area;
        s->r->lambda[2] = a2 / area;
        return 1;
    }
    static const int pairs[3][2] = {{0, 1}, {1, 2}, {0, 2}};
    hd_plane_result saved = *s->r, best_r = *s->r;
    hd_simplex2 best = *s;
    double best_d = HUGE_VAL;
    for (int k = 0; k < 3; ++k) {
        hd_plane_result tr = saved;
        hd_simplex2 t = *s;
        t.r = &tr;
        keep(&t, pairs[k][0], pairs[k][1]);
        nearest_segment(&t);
        double d = nearest_norm2(&t);
        if (d < best_d) {
            best_d = d;
            best = t;
            best_r = tr;
        }
    }
    *s->r = best_r;
    best.r = s->r;
    *s = best;
    return 0;
}

hd_status hd_plane_search(const double e1[3], const double e2[3], hd_plane_support_fn support,
                          void *ctx, double tol, int max_iter, hd_plane_result *out)
{
    hd_simplex2 sx;
    sx.n = 0;
    sx.r = out;
    out->separated = 0;
    double v[2] = {1.0, 0.0};
    for (int iter = 0; iter < max_iter; ++iter) {
        double d3[3], w[3];
        int ia, ib;
        for (int i = 0; i < 3; ++i) {
            d3[i] = -(v[0] * e1[i] + v[1] * e2[i]);
        }
        support(ctx, d3, w, &ia, &ib);
        double p[2] = {hd_v3_dot(w, e1), hd_v3_dot(w, e2)};
        double vv = v[0] * v[0] + v[1] * v[1];
        double vw = v[0] * p[0] + v[1] * p[1];
        if (sx.n > 0) {
            double vlen = sqrt(vv);
            if (vw > tol * vlen) {
                out->separated = 1;
                break;
            }
            if (vv - vw <= 1e-14 * vv || vv == 0.0) {
                break;
            }
        }
        sx.p[sx.n][0] = p[0];
        sx.p[sx.n][1] = p[1];
        hd_v3_copy(out->w[sx.n], w);
        out->ia[sx.n] = ia;
        out->ib[sx.n] = ib;
        sx.n++;
        if (sx.n == 1) {
            out->lambda[0] = 1.0;
        } else if (sx.n == 2) {
            nearest_segment(&sx);
        } else if (nearest_triangle(&sx)) {
            out->count = 3;
            out->distance = 0.0;
            return HD_OK;
        }
        v[0] = v[1] = 0.0;
        for (int i = 0; i < sx.n; ++i) {
            v[0] += out->lambda[i] * sx.p[i][0];
            v[1] += out->lambda[i] * sx.p[i][1];
        }
        if (iter + 1 == max_iter) {
            return HD_ERR_ITERATION_LIMIT;
        }
    }
    out->count = sx.n;
    out->distance = sqrt(v[0] * v[0] + v[1] * v[1]);
    return HD_OK;
}
