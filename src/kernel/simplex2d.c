/* The sub-simplex solver of the 2D GJK by signed areas: the planar case of Montanari, Petrinic,
 * Barbieri, "Improving the GJK algorithm for faster and more reliable distance queries between
 * convex objects", ACM TOG 36(3), 2017 (their S2D without the projection step, since the
 * triangle already lies in the plane). See kernel/simplex.c for the rules. */
#include <float.h>
#include <math.h>

#include "kernel/simplex2d.h"
#include "kernel/simplex.h" /* hdi_weights_renormalize_positive */

typedef struct hdi_sub2d {
    int n;
    int idx[3];
    double l[3];
    double v[2];
    double d2;
} hdi_sub2d;

static int same_sign(double a, double b)
{
    return (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0);
}

static double cross2(const double a[2], const double b[2])
{
    return a[0] * b[1] - a[1] * b[0];
}

static void sub_point(const double (*w)[2], int i, hdi_sub2d *out)
{
    out->n = 1;
    out->idx[0] = i;
    out->l[0] = 1.0;
    out->v[0] = w[i][0];
    out->v[1] = w[i][1];
    out->d2 = out->v[0] * out->v[0] + out->v[1] * out->v[1];
}

/* Segment p q: weights q.d (for p) and -p.d (for q) over their sum d.d. */
static void solve_segment(const double (*w)[2], int i0, int i1, hdi_sub2d *out)
{
    const double *p = w[i0], *q = w[i1];
    double d[2] = {q[0] - p[0], q[1] - p[1]};
    double lq = -(p[0] * d[0] + p[1] * d[1]);
    double lp = q[0] * d[0] + q[1] * d[1];
    if (lq <= 0.0 || !(d[0] * d[0] + d[1] * d[1] > 0.0)) {
        sub_point(w, i0, out);
        return;
    }
    if (lp <= 0.0) {
        sub_point(w, i1, out);
        return;
    }
    double t = lq / (lp + lq);
    out->n = 2;
    out->idx[0] = i0;
    out->idx[1] = i1;
    out->l[0] = 1.0 - t;
    out->l[1] = t;
    /* along the exact normal (-d_y, d_x) rather than p + t d, whose direction cancels when the
     * origin is close to the segment (see project_along in kernel/simplex.c) */
    double m[2] = {-d[1], d[0]};
    double s = (m[0] * p[0] + m[1] * p[1]) / (m[0] * m[0] + m[1] * m[1]);
    out->v[0] = s * m[0];
    out->v[1] = s * m[1];
    out->d2 = out->v[0] * out->v[0] + out->v[1] * out->v[1];
}

double hdi_tri2d_barycentric(const double p0[2], const double p1[2], const double p2[2],
                             double l[3])
{
    double d1[2] = {p1[0] - p0[0], p1[1] - p0[1]};
    double d2[2] = {p2[0] - p0[0], p2[1] - p0[1]};
    double m0[2] = {-p0[0], -p0[1]};
    double det = cross2(d1, d2);
    if (det == 0.0) {
        return 0.0;
    }
    double c[3] = {cross2(p1, p2), cross2(m0, d2), cross2(d1, m0)};
    for (int j = 0; j < 3; ++j) {
        l[j] = c[j] / det;
    }
    hdi_weights_renormalize_positive(l, 3);
    return det;
}

static void solve_triangle(const double (*w)[2], hdi_sub2d *out)
{
    double l[3];
    double det = hdi_tri2d_barycentric(w[0], w[1], w[2], l);
    if (det != 0.0 && l[0] > 0.0 && l[1] > 0.0 && l[2] > 0.0) {
        out->n = 3;
        for (int j = 0; j < 3; ++j) {
            out->idx[j] = j;
            out->l[j] = l[j];
        }
        out->v[0] = out->v[1] = 0.0;
        out->d2 = 0.0;
        return;
    }
    out->d2 = DBL_MAX;
    for (int j = 0; j < 3; ++j) {
        if (det == 0.0 || !same_sign(l[j], 1.0)) {
            hdi_sub2d cand;
            solve_segment(w, (j + 1) % 3, (j + 2) % 3, &cand);
            if (cand.d2 < out->d2) {
                *out = cand;
            }
        }
    }
}

void hdi_simplex2d_solve(hdi_simplex2d *s, double v[2])
{
    hdi_sub2d sub;
    const double(*w)[2] = (const double(*)[2])s->w;
    if (s->count == 1) {
        sub_point(w, 0, &sub);
    } else if (s->count == 2) {
        solve_segment(w, 0, 1, &sub);
    } else {
        solve_triangle(w, &sub);
    }
    hdi_simplex2d in = *s;
    s->count = sub.n;
    for (int j = 0; j < sub.n; ++j) {
        int i = sub.idx[j];
        s->w[j][0] = in.w[i][0];
        s->w[j][1] = in.w[i][1];
        s->ia[j] = in.ia[i];
        s->ib[j] = in.ib[i];
        s->lambda[j] = sub.l[j];
    }
    v[0] = sub.v[0];
    v[1] = sub.v[1];
}

double hdi_simplex2d_inner_depth(const hdi_simplex2d *s)
{
    if (s->count != 3) {
        return 0.0;
    }
    double depth = DBL_MAX;
    for (int j = 0; j < 3; ++j) {
        const double *x = s->w[(j + 1) % 3], *y = s->w[(j + 2) % 3], *z = s->w[j];
        double n[2] = {y[1] - x[1], x[0] - y[0]};
        double len = sqrt(n[0] * n[0] + n[1] * n[1]);
        if (!(len > 0.0)) {
            return 0.0;
        }
        n[0] /= len;
        n[1] /= len;
        if (n[0] * (z[0] - x[0]) + n[1] * (z[1] - x[1]) > 0.0) {
            n[0] = -n[0]; /* outward: away from the opposite vertex */
            n[1] = -n[1];
        }
        double d = fmin(n[0] * x[0] + n[1] * x[1], n[0] * y[0] + n[1] * y[1]);
        if (!(d > 0.0)) {
            return 0.0;
        }
        depth = fmin(depth, d);
    }
    return depth;
}

int hdi_simplex2d_has_pair(const hdi_simplex2d *s, int ia, int ib)
{
    for (int j = 0; j < s->count; ++j) {
        if (s->ia[j] == ia && s->ib[j] == ib) {
            return 1;
        }
    }
    return 0;
}
