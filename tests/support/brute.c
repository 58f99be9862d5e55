/* Brute-force references, in long double; see brute.h. */
#include <math.h>
#include <stddef.h>

#include "brute.h"

typedef long double hd_lv[3];

static void lv_load(hd_lv out, const double p[3])
{
    out[0] = p[0];
    out[1] = p[1];
    out[2] = p[2];
}

static void lv_sub(hd_lv out, const hd_lv a, const hd_lv b)
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

static long double lv_dot(const hd_lv a, const hd_lv b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void lv_cross(hd_lv out, const hd_lv a, const hd_lv b)
{
    long double x = a[1] * b[2] - a[2] * b[1];
    long double y = a[2] * b[0] - a[0] * b[2];
    long double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static void lv_madd(hd_lv out, const hd_lv a, long double s, const hd_lv b)
{
    out[0] = a[0] + s * b[0];
    out[1] = a[1] + s * b[1];
    out[2] = a[2] + s * b[2];
}

static long double lv_dist(const hd_lv a, const hd_lv b)
{
    hd_lv d;
    lv_sub(d, a, b);
    return sqrtl(lv_dot(d, d));
}

/* Closest point on segment a b to p. */
static void closest_on_segment(const hd_lv p, const hd_lv a, const hd_lv b, hd_lv out)
{
    hd_lv d, r;
    lv_sub(d, b, a);
    lv_sub(r, p, a);
    long double dd = lv_dot(d, d);
    long double t = dd > 0 ? lv_dot(r, d) / dd : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    lv_madd(out, a, t, d);
}

/* Closest point on triangle a b c to p: the projection when it falls inside, else an edge's. */
static void closest_on_triangle(const hd_lv p, const hd_lv a, const hd_lv b, const hd_lv c,
                                hd_lv out)
{
    hd_lv e1, e2, n, pa, pb, pc, x;
    lv_sub(e1, b, a);
    lv_sub(e2, c, a);
    lv_cross(n, e1, e2);
    long double nn = lv_dot(n, n);
    if (nn > 0) {
        lv_sub(pa, a, p);
        lv_sub(pb, b, p);
        lv_sub(pc, c, p);
        lv_cross(x, pb, pc);
        long double u = lv_dot(n, x);
        lv_cross(x, pc, pa);
        long double v = lv_dot(n, x);
        lv_cross(x, pa, pb);
        long double w = lv_dot(n, x);
        if (u >= 0 && v >= 0 && w >= 0) {
            hd_lv r;
            lv_sub(r, p, a);
            lv_madd(out, p, -lv_dot(n, r) / nn, n);
            return;
        }
    }
    const long double *corner[3] = {a, b, c};
    long double best = INFINITY;
    for (int k = 0; k < 3; ++k) {
        hd_lv q;
        closest_on_segment(p, corner[k], corner[(k + 1) % 3], q);
        long double d = lv_dist(p, q);
        if (d < best) {
            best = d;
            out[0] = q[0];
            out[1] = q[1];
            out[2] = q[2];
        }
    }
}

long double hd_brute_point_segment(const double p[3], const double a[3], const double b[3])
{
    hd_lv lp, la, lb, q;
    lv_load(lp, p);
    lv_load(la, a);
    lv_load(lb, b);
    closest_on_segment(lp, la, lb, q);
    return lv_dist(lp, q);
}

long double hd_brute_point_triangle(const double p[3], const double a[3], const double b[3],
                                    const double c[3])
{
    hd_lv lp, la, lb, lc, q;
    lv_load(lp, p);
    lv_load(la, a);
    lv_load(lb, b);
    lv_load(lc, c);
    closest_on_triangle(lp, la, lb, lc, q);
    return lv_dist(lp, q);
}

typedef struct hd_best {
    long double d;
    hd_lv pa;
    hd_lv pb;
} hd_best;

static void keep(hd_best *best, const hd_lv pa, const hd_lv pb)
{
    long double d = lv_dist(pa, pb);
    if (d < best->d) {
        best->d = d;
        for (int i = 0; i < 3; ++i) {
            best->pa[i] = pa[i];
            best->pb[i] = pb[i];
        }
    }
}

/* Segment p1 q1 against segment p2 q2: the interior critical point when it lies in both
 * segments; the endpoint cases are covered by the point-segment pairs. */
static void segment_segment(const hd_lv p1, const hd_lv q1, const hd_lv p2, const hd_lv q2,
                            hd_best *best)
{
    hd_lv d1, d2, r;
    lv_sub(d1, q1, p1);
    lv_sub(d2, q2, p2);
    lv_sub(r, p1, p2);
    long double a = lv_dot(d1, d1), e = lv_dot(d2, d2), b = lv_dot(d1, d2);
    long double c = lv_dot(d1, r), f = lv_dot(d2, r);
    long double denom = a * e - b * b;
    if (denom > 0) {
        long double s = (b * f - c * e) / denom, t = (a * f - b * c) / denom;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
            hd_lv x, y;
            lv_madd(x, p1, s, d1);
            lv_madd(y, p2, t, d2);
            keep(best, x, y);
        }
    }
}

/* Every point of s against every point, segment and triangle of t (swap: t's points first). */
static void points_against(const double *s, int ns, const double *t, int nt, int swap,
                           hd_best *best)
{
    for (int i = 0; i < ns; ++i) {
        hd_lv p, q, u, v, w;
        lv_load(p, s + 3 * i);
        for (int j = 0; j < nt; ++j) {
            lv_load(u, t + 3 * j);
            swap ? keep(best, u, p) : keep(best, p, u);
            for (int k = j + 1; k < nt; ++k) {
                lv_load(v, t + 3 * k);
                closest_on_segment(p, u, v, q);
                swap ? keep(best, q, p) : keep(best, p, q);
                for (int l = k + 1; l < nt; ++l) {
                    lv_load(w, t + 3 * l);
                    closest_on_triangle(p, u, v, w, q);
                    swap ? keep(best, q, p) : keep(best, p, q);
                }
            }
        }
    }
}

double hd_brute_distance(const double *a, int na, const double *b, int nb, double wa[3],
                         double wb[3])
{
    hd_best best;
    best.d = INFINITY;
    points_against(a, na, b, nb, 0, &best);
    points_against(b, nb, a, na, 1, &best);
    for (int i = 0; i < na; ++i) {
        for (int j = i + 1; j < na; ++j) {
            hd_lv p1, q1;
            lv_load(p1, a + 3 * i);
            lv_load(q1, a + 3 * j);
            for (int k = 0; k < nb; ++k) {
                for (int l = k + 1; l < nb; ++l) {
                    hd_lv p2, q2;
                    lv_load(p2, b + 3 * k);
                    lv_load(q2, b + 3 * l);
                    segment_segment(p1, q1, p2, q2, &best);
                }
            }
        }
    }
    for (int i = 0; i < 3; ++i) {
        if (wa != NULL)
            wa[i] = (double)best.pa[i];
        if (wb != NULL)
            wb[i] = (double)best.pb[i];
    }
    return (double)best.d;
}

/* h_M(n) for unit n: max_a n.a - min_b n.b; tracks the minimum over candidates (both signs). */
typedef struct hd_sat {
    const double *a, *b;
    int na, nb;
    long double m;
    hd_lv normal;
} hd_sat;

static long double extreme(const double *pts, int n, const hd_lv d, int sign)
{
    long double best = -INFINITY;
    for (int i = 0; i < n; ++i) {
        hd_lv p;
        lv_load(p, pts + 3 * i);
        long double x = sign * lv_dot(p, d);
        if (x > best)
            best = x;
    }
    return best;
}

static void try_axis(hd_sat *s, const hd_lv axis)
{
    long double len = sqrtl(lv_dot(axis, axis));
    if (!(len > 0))
        return;
    for (int sign = -1; sign <= 1; sign += 2) {
        hd_lv n = {sign * axis[0] / len, sign * axis[1] / len, sign * axis[2] / len};
        long double h = extreme(s->a, s->na, n, 1) + extreme(s->b, s->nb, n, -1);
        if (h < s->m) {
            s->m = h;
            s->normal[0] = n[0];
            s->normal[1] = n[1];
            s->normal[2] = n[2];
        }
    }
}

/* Triangle normals of a set, and (flat or thin sets) their crosses with the set's segments. */
static void triangle_axes(hd_sat *s, const double *p, int n)
{
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            for (int k = j + 1; k < n; ++k) {
                hd_lv a, b, c, e1, e2, nn, x;
                lv_load(a, p + 3 * i);
                lv_load(b, p + 3 * j);
                lv_load(c, p + 3 * k);
                lv_sub(e1, b, a);
                lv_sub(e2, c, a);
                lv_cross(nn, e1, e2);
                try_axis(s, nn);
                lv_cross(x, e1, nn); /* in-plane normals of the triangle's edges */
                try_axis(s, x);
                lv_cross(x, e2, nn);
                try_axis(s, x);
            }
        }
    }
}

/* Directions normal to segment d: its crosses with the three axes (a segment-like Minkowski
 * difference has depth 0 across it). */
static void normal_axes(hd_sat *s, const hd_lv d)
{
    for (int k = 0; k < 3; ++k) {
        hd_lv e = {0, 0, 0}, x;
        e[k] = 1;
        lv_cross(x, d, e);
        try_axis(s, x);
    }
}

static void segment_normals(hd_sat *s, const double *p, int n)
{
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            hd_lv u, v, d;
            lv_load(u, p + 3 * i);
            lv_load(v, p + 3 * j);
            lv_sub(d, v, u);
            normal_axes(s, d);
        }
    }
}

/* Segment directions of a against those of b, and normals of every segment (for sets of
 * dimension 1, whose Minkowski difference can be a parallelogram or a segment). */
static void edge_axes(hd_sat *s)
{
    for (int i = 0; i < s->na; ++i) {
        for (int j = i + 1; j < s->na; ++j) {
            hd_lv p, q, d1;
            lv_load(p, s->a + 3 * i);
            lv_load(q, s->a + 3 * j);
            lv_sub(d1, q, p);
            for (int k = 0; k < s->nb; ++k) {
                for (int l = k + 1; l < s->nb; ++l) {
                    hd_lv u, v, d2, x;
                    lv_load(u, s->b + 3 * k);
                    lv_load(v, s->b + 3 * l);
                    lv_sub(d2, v, u);
                    lv_cross(x, d1, d2);
                    try_axis(s, x);
                    hd_lv r, y; /* the common normal plane of parallel segments */
                    lv_sub(r, u, p);
                    lv_cross(y, d1, r);
                    lv_cross(x, d1, y);
                    try_axis(s, x);
                }
            }
        }
    }
}

double hd_brute_sat(const double *a, int na, const double *b, int nb, double normal[3])
{
    hd_sat s = {a, b, na, nb, INFINITY, {1, 0, 0}};
    for (int k = 0; k < 3; ++k) { /* the axes: enough for two points */
        hd_lv e = {0, 0, 0};
        e[k] = 1;
        try_axis(&s, e);
    }
    triangle_axes(&s, a, na);
    triangle_axes(&s, b, nb);
    edge_axes(&s);
    segment_normals(&s, a, na);
    segment_normals(&s, b, nb);
    double wa[3], wb[3];
    double d = hd_brute_distance(a, na, b, nb, wa, wb);
    if (d > 0.0) {
        hd_lv x = {(long double)wa[0] - wb[0], (long double)wa[1] - wb[1],
                   (long double)wa[2] - wb[2]};
        try_axis(&s, x);
    }
    for (int i = 0; i < na; ++i) {
        for (int j = 0; j < nb; ++j) {
            hd_lv x = {(long double)a[3 * i] - b[3 * j], (long double)a[3 * i + 1] - b[3 * j + 1],
                       (long double)a[3 * i + 2] - b[3 * j + 2]};
            try_axis(&s, x);
        }
    }
    if (normal != NULL) {
        for (int i = 0; i < 3; ++i)
            normal[i] = (double)s.normal[i];
    }
    return (double)s.m;
}

double hd_brute_signed_distance(const double *a, int na, const double *b, int nb)
{
    double m = hd_brute_sat(a, na, b, nb, NULL);
    if (m < 0.0) {
        return hd_brute_distance(a, na, b, nb, NULL, NULL);
    }
    return -m;
}

double hd_brute_support_value(const double *pts, int n, const double d[3], int *index)
{
    long double best = -INFINITY;
    int bi = 0;
    for (int i = 0; i < n; ++i) {
        long double x = (long double)pts[3 * i] * d[0] + (long double)pts[3 * i + 1] * d[1] +
                        (long double)pts[3 * i + 2] * d[2];
        if (x > best) {
            best = x;
            bi = i;
        }
    }
    if (index != NULL)
        *index = bi;
    return (double)best;
}

void hd_brute_posed_near(const hd_polytope *p, const hd_pose *pose, const double origin[3],
                         double *out)
{
    const double *v = hd_polytope_vertices(p);
    for (int i = 0; i < hd_polytope_vertex_count(p); ++i) {
        for (int k = 0; k < 3; ++k) {
            long double x = (long double)pose->t[k] - origin[k];
            for (int j = 0; j < 3; ++j) {
                x += (long double)pose->r[3 * k + j] * v[3 * i + j];
            }
            out[3 * i + k] = (double)x;
        }
    }
}

void hd_brute_posed_vertices(const hd_polytope *p, const hd_pose *pose, double *out)
{
    int n = hd_polytope_vertex_count(p);
    const double *v = hd_polytope_vertices(p);
    for (int i = 0; i < n; ++i) {
        if (pose != NULL) {
            hd_pose_apply(pose, v + 3 * i, out + 3 * i);
        } else {
            out[3 * i] = v[3 * i];
            out[3 * i + 1] = v[3 * i + 1];
            out[3 * i + 2] = v[3 * i + 2];
        }
    }
}

/* 2D: distance from p to segment u v, in long double. */
static long double point_segment2(const double *p, const double *u, const double *v)
{
    long double d0 = (long double)v[0] - u[0], d1 = (long double)v[1] - u[1];
    long double r0 = (long double)p[0] - u[0], r1 = (long double)p[1] - u[1];
    long double dd = d0 * d0 + d1 * d1;
    long double t = dd > 0 ? (r0 * d0 + r1 * d1) / dd : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    long double x = r0 - t * d0, y = r1 - t * d1;
    return sqrtl(x * x + y * y);
}

static long double points_against2(const double *s, int ns, const double *t, int nt)
{
    long double best = INFINITY;
    for (int i = 0; i < ns; ++i) {
        for (int j = 0; j < nt; ++j) {
            for (int k = j; k < nt; ++k) {
                long double d = point_segment2(s + 2 * i, t + 2 * j, t + 2 * k);
                if (d < best)
                    best = d;
            }
        }
    }
    return best;
}

double hd_brute2d_distance(const double *a, int na, const double *b, int nb)
{
    long double x = points_against2(a, na, b, nb), y = points_against2(b, nb, a, na);
    return (double)(x < y ? x : y);
}

static long double extreme2(const double *p, int n, long double nx, long double ny, int sign)
{
    long double best = -INFINITY;
    for (int i = 0; i < n; ++i) {
        long double x = sign * (nx * p[2 * i] + ny * p[2 * i + 1]);
        if (x > best)
            best = x;
    }
    return best;
}

static void try_axis2(const double *a, int na, const double *b, int nb, long double x,
                      long double y, long double *m)
{
    long double len = sqrtl(x * x + y * y);
    if (!(len > 0))
        return;
    for (int sign = -1; sign <= 1; sign += 2) {
        long double nx = sign * x / len, ny = sign * y / len;
        long double h = extreme2(a, na, nx, ny, 1) + extreme2(b, nb, nx, ny, -1);
        if (h < *m)
            *m = h;
    }
}

static void segment_axes2(const double *p, int n, const double *a, int na, const double *b, int nb,
                          long double *m)
{
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            long double dx = (long double)p[2 * j] - p[2 * i],
                        dy = (long double)p[2 * j + 1] - p[2 * i + 1];
            try_axis2(a, na, b, nb, -dy, dx, m);
            try_axis2(a, na, b, nb, dx, dy, m);
        }
    }
}

double hd_brute2d_sat(const double *a, int na, const double *b, int nb)
{
    long double m = INFINITY;
    try_axis2(a, na, b, nb, 1, 0, &m);
    try_axis2(a, na, b, nb, 0, 1, &m);
    segment_axes2(a, na, a, na, b, nb, &m);
    segment_axes2(b, nb, a, na, b, nb, &m);
    for (int i = 0; i < na; ++i) {
        for (int j = 0; j < nb; ++j) {
            try_axis2(a, na, b, nb, (long double)a[2 * i] - b[2 * j],
                      (long double)a[2 * i + 1] - b[2 * j + 1], &m);
        }
    }
    return (double)m;
}

double hd_brute2d_signed_distance(const double *a, int na, const double *b, int nb)
{
    double m = hd_brute2d_sat(a, na, b, nb);
    return m < 0.0 ? hd_brute2d_distance(a, na, b, nb) : -m;
}
