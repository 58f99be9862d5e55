/* Bounding boxes, the construction tolerance and the affine dimension of a point set. */
#include <math.h>

#include "core/math.h"
#include "polytope/build.h"

double hdi_poly_length_tol(double convex_rel, double extent, double max_abs)
{
    double rel = convex_rel * extent;
    double floor_len = HD_COORD_RESOLUTION * max_abs;
    return rel > floor_len ? rel : floor_len;
}

void hdi_points_bounds(const double *xyz, int count, double lo[3], double hi[3], double *extent,
                       double *max_abs)
{
    hdi_v3_copy(lo, xyz);
    hdi_v3_copy(hi, xyz);
    double m = 0.0;
    for (int i = 0; i < count; ++i) {
        const double *p = xyz + 3 * i;
        for (int k = 0; k < 3; ++k) {
            if (p[k] < lo[k]) {
                lo[k] = p[k];
            }
            if (p[k] > hi[k]) {
                hi[k] = p[k];
            }
        }
        double a = hdi_v3_max_abs(p);
        if (a > m) {
            m = a;
        }
    }
    double e = 0.0;
    for (int k = 0; k < 3; ++k) {
        if (hi[k] - lo[k] > e) {
            e = hi[k] - lo[k];
        }
    }
    *extent = e;
    *max_abs = m;
}

static int farthest_from_point(const double *xyz, int count, const double *q)
{
    int best = 0;
    double best_d = -1.0;
    for (int i = 0; i < count; ++i) {
        double d[3];
        hdi_v3_sub(d, xyz + 3 * i, q);
        double l2 = hdi_v3_len2(d);
        if (l2 > best_d) {
            best_d = l2;
            best = i;
        }
    }
    return best;
}

/* Distance from the line through o with unit direction u: |(p - o) x u|, which unlike
 * sqrt(|w|^2 - (w.u)^2) keeps its relative accuracy for points close to the line. */
static int farthest_from_line(const double *xyz, int count, const double *o, const double u[3],
                              double *dist)
{
    int best = 0;
    double best_d = -1.0;
    for (int i = 0; i < count; ++i) {
        double w[3], c[3];
        hdi_v3_sub(w, xyz + 3 * i, o);
        hdi_v3_cross(c, w, u);
        double l = hdi_v3_len(c);
        if (l > best_d) {
            best_d = l;
            best = i;
        }
    }
    *dist = best_d;
    return best;
}

/* The points spanning the plane (skip) lie in it exactly and are left out: with a nearly
 * degenerate triangle the computed normal is off by rounding over the triangle's sine, which would
 * otherwise show them, and three points with them, as off the plane. */
static int farthest_from_plane(const double *xyz, int count, const double *o, const double n[3],
                               const int skip[3], double *dist)
{
    int best = skip[0];
    double best_d = 0.0;
    for (int i = 0; i < count; ++i) {
        if (i == skip[0] || i == skip[1] || i == skip[2]) {
            continue;
        }
        double w[3];
        hdi_v3_sub(w, xyz + 3 * i, o);
        double l = fabs(hdi_v3_dot(w, n));
        if (l > best_d) {
            best_d = l;
            best = i;
        }
    }
    *dist = best_d;
    return best;
}

/* Affine dimension by successive farthest points. Start from the lowest point along the widest
 * box axis, take the point farthest from it, then the point farthest from that one (two sweeps of
 * the classical diameter heuristic: |p1 - p0| is at least half the diameter). The set is a point
 * when that length is within tol_len, a segment when every point is within tol_len of the line
 * p0 p1, flat when every point is within tol_len of the plane through p0, p1 and the farthest
 * point from the line. Each test measures a true distance of some input point from an affine hull
 * of input points, so a set reported as dimension d really leaves that (d-1)-flat by more than
 * tol_len, and Qhull's initial simplex is never degenerate at its own precision. */
void hdi_affine_frame(const double *xyz, int count, double tol_len, hdi_frame *frame)
{
    double lo[3], hi[3], extent, max_abs;
    hdi_points_bounds(xyz, count, lo, hi, &extent, &max_abs);
    int axis = 0;
    for (int k = 1; k < 3; ++k) {
        if (hi[k] - lo[k] > hi[axis] - lo[axis]) {
            axis = k;
        }
    }
    int start = 0;
    for (int i = 1; i < count; ++i) {
        if (xyz[3 * i + axis] < xyz[3 * start + axis]) {
            start = i;
        }
    }
    frame->dim = 0;
    frame->tol = tol_len;
    for (int k = 0; k < 4; ++k) {
        frame->p[k] = start;
    }
    hdi_v3_set(frame->axis, 0, 0, 0);
    hdi_v3_set(frame->normal, 0, 0, 0);
    hdi_v3_set(frame->width, 0, 0, 0);

    int b = farthest_from_point(xyz, count, xyz + 3 * start);
    int a = farthest_from_point(xyz, count, xyz + 3 * b);
    const double *pa = xyz + 3 * a;
    double u[3];
    hdi_v3_sub(u, xyz + 3 * b, pa);
    frame->width[0] = hdi_v3_normalize(u);
    frame->p[0] = a;
    frame->p[1] = b;
    if (!(frame->width[0] > tol_len)) {
        frame->p[1] = a;
        return;
    }
    frame->dim = 1;
    hdi_v3_copy(frame->axis, u);

    int c = farthest_from_line(xyz, count, pa, u, &frame->width[1]);
    if (!(frame->width[1] > tol_len)) {
        return;
    }
    frame->dim = 2;
    frame->p[2] = c;
    double w[3], n[3];
    hdi_v3_sub(w, xyz + 3 * c, pa);
    hdi_v3_cross(n, u, w);
    hdi_v3_normalize(n);
    hdi_v3_copy(frame->normal, n);

    const int spanning[3] = {a, b, c};
    int d = farthest_from_plane(xyz, count, pa, n, spanning, &frame->width[2]);
    if (!(frame->width[2] > tol_len)) {
        return;
    }
    frame->dim = 3;
    frame->p[3] = d;
}
