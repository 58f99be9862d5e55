/* Ray cast against one posed polytope: the linear program min t s.t. o + t d in A, solved on
 * A's face planes (the slab method of Kay and Kajiya 1986, "Ray tracing complex scenes", over
 * the polytope's own faces), in A's frame (docs/algorithms/motion.md, section 5). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/math.h"
#include "core/tolerances.h"
#include "motion/twist.h"
#include "query/query_internal.h"

/* The ray in A's frame and the interval of t still inside every plane met so far. */
typedef struct ray_clip {
    double o[3], d[3];
    double t_in, t_out;
    int face_in; /* -1 while no plane has raised t_in */
    bool outside;
} ray_clip;

/* One plane n.x <= off: h = n.o - off > 0 means the origin is outside it; a ray going in
 * (n.d < 0) crosses it at h / -(n.d), one going out (n.d > 0) at -h / (n.d). */
static void clip_plane(ray_clip *c, const double n[3], double off, int face)
{
    double h = hdi_v3_dot(n, c->o) - off;
    double den = hdi_v3_dot(n, c->d);
    c->outside = c->outside || h > 0.0;
    if (den < 0.0) {
        double t = h / -den;
        /* t may round to the t_in of 0 for an origin just outside: the plane still names the
         * face entered */
        if (t > c->t_in || (c->face_in < 0 && h > 0.0)) {
            c->t_in = t;
            c->face_in = face;
        }
    } else if (den > 0.0) {
        /* outside and going out: never in (-h / den may round to -0, which would not end it) */
        c->t_out = h > 0.0 ? -HUGE_VAL : hdi_min(c->t_out, -h / den);
    } else if (h > 0.0) {
        c->t_out = -HUGE_VAL; /* parallel and outside: no point of the line is in */
    }
}

/* The edge of A joining vertices i and j (-1 when none does). */
static int edge_between(const hd_polytope *a, int i, int j)
{
    int m = hd_polytope_edge_count(a);
    for (int e = 0; e < m; ++e) {
        int v[2], f[2];
        hd_polytope_edge(a, e, v, f);
        if ((v[0] == i && v[1] == j) || (v[0] == j && v[1] == i)) {
            return e;
        }
    }
    return -1;
}

/* The feature of face f at the local point x: one of its vertices or edges when x lies within
 * the coordinates' resolution of it, else the face. */
static hd_feature_id feature_at(const hd_polytope *a, int f, const double x[3])
{
    double n[3], off;
    const int *loop;
    int k = hd_polytope_face(a, f, n, &off, &loop);
    const double *v = hd_polytope_vertices(a);
    double lo[3], hi[3];
    hd_polytope_bounds(a, lo, hi);
    double res = HD_COORD_RESOLUTION * hdi_max(hdi_v3_max_abs(lo), hdi_v3_max_abs(hi));
    for (int i = 0; i < k; ++i) {
        if (hdi_v3_dist(x, v + 3 * loop[i]) <= res) {
            return (hd_feature_id){HD_FEATURE_VERTEX, loop[i]};
        }
    }
    for (int i = 0; i < k; ++i) {
        const double *p = v + 3 * loop[i], *q = v + 3 * loop[(i + 1) % k];
        double e[3], w[3], cr[3];
        hdi_v3_sub(e, q, p);
        hdi_v3_sub(w, x, p);
        hdi_v3_cross(cr, e, w);
        double len = hdi_v3_len(e);
        if (len > 0.0 && hdi_v3_len(cr) <= res * len) {
            return (hd_feature_id){HD_FEATURE_EDGE, edge_between(a, loop[i], loop[(i + 1) % k])};
        }
    }
    return (hd_feature_id){HD_FEATURE_FACE, f};
}

/* A polygon's two faces give t_in = t_out at the crossing of its plane; the crossing must also
 * lie inside every side of the polygon (the side's in-plane outward normal e x n). */
static bool inside_polygon(const hd_polytope *a, const double x[3])
{
    double n[3], off;
    const int *loop;
    int k = hd_polytope_face(a, 0, n, &off, &loop);
    const double *v = hd_polytope_vertices(a);
    for (int i = 0; i < k; ++i) {
        const double *p = v + 3 * loop[i], *q = v + 3 * loop[(i + 1) % k];
        double e[3], m[3], w[3];
        hdi_v3_sub(e, q, p);
        hdi_v3_cross(m, e, n);
        hdi_v3_sub(w, x, p);
        if (hdi_v3_dot(m, w) > 0.0) {
            return false;
        }
    }
    return true;
}

/* A ray in the plane of a polygon (a two-dimensional problem the face planes cannot answer: the
 * polygon's sides answer it, below). */
static bool in_plane(const hd_polytope *a, const ray_clip *c)
{
    double n[3], off;
    const int *loop;
    hd_polytope_face(a, 0, n, &off, &loop);
    return hdi_v3_dot(n, c->d) == 0.0 && hdi_v3_dot(n, c->o) == off;
}

/* The side i of a polygon: its unit in-plane outward normal m = e x n and offset m.p. */
static void polygon_side(const hd_polytope *a, int i, double m[3], double *off, int ends[2])
{
    double n[3], fo;
    const int *loop;
    int k = hd_polytope_face(a, 0, n, &fo, &loop);
    const double *v = hd_polytope_vertices(a);
    ends[0] = loop[i];
    ends[1] = loop[(i + 1) % k];
    double e[3];
    hdi_v3_sub(e, v + 3 * ends[1], v + 3 * ends[0]);
    hdi_v3_cross(m, e, n);
    hdi_v3_normalize(m);
    *off = hdi_v3_dot(m, v + 3 * ends[0]);
}

/* A ray in a polygon's plane: the slab method on the polygon's sides; the feature is the side's
 * edge entered (or its end vertex within the resolution), the normal the side's. */
static void cast_in_plane(const hd_polytope *a, const hd_pose *pose, const double origin[3],
                          const double dir[3], ray_clip *c, hd_ray_result *out)
{
    double n[3], off;
    const int *loop;
    int k = hd_polytope_face(a, 0, n, &off, &loop);
    c->outside = false;
    for (int i = 0; i < k; ++i) {
        double m[3], mo;
        int ends[2];
        polygon_side(a, i, m, &mo, ends);
        clip_plane(c, m, mo, i);
    }
    if (c->t_in > c->t_out) {
        return;
    }
    out->hit = true;
    out->t = c->t_in;
    hdi_v3_madd(out->point, origin, c->t_in, dir);
    if (!c->outside) {
        out->inside = true;
        return;
    }
    double m[3], mo, x[3];
    int ends[2];
    polygon_side(a, c->face_in, m, &mo, ends);
    hdi_m3_mul_v(out->normal, pose->r, m);
    hdi_v3_madd(x, c->o, c->t_in, c->d);
    out->feature = (hd_feature_id){HD_FEATURE_EDGE, edge_between(a, ends[0], ends[1])};
    double lo[3], hi[3];
    hd_polytope_bounds(a, lo, hi);
    double res = HD_COORD_RESOLUTION * hdi_max(hdi_v3_max_abs(lo), hdi_v3_max_abs(hi));
    const double *v = hd_polytope_vertices(a);
    for (int j = 0; j < 2; ++j) {
        if (hdi_v3_dist(x, v + 3 * ends[j]) <= res) {
            out->feature = (hd_feature_id){HD_FEATURE_VERTEX, ends[j]};
        }
    }
}

static hd_status check_ray(const hd_polytope *a, const hd_pose *pose_a, const double origin[3],
                           const double dir[3], double length, const hd_options *opt)
{
    if (a == NULL || origin == NULL || dir == NULL) {
        return HD_ERR_NULL;
    }
    if (!hdi_v3_is_finite(origin) || !hdi_v3_is_finite(dir)) {
        return HD_ERR_NONFINITE;
    }
    if (hdi_v3_is_zero(dir) || !(length >= 0.0)) {
        return HD_ERR_INVALID_ARG;
    }
    if (opt != NULL && hd_tolerance_validate(&opt->tol) != HD_OK) {
        return HD_ERR_INVALID_ARG;
    }
    if (hd_polytope_dimension(a) < 2 && hd_polytope_radius(a) == 0.0) {
        return HD_ERR_UNSUPPORTED;
    }
    return pose_a != NULL ? hd_pose_validate(pose_a, 0.0) : HD_OK;
}

static void clip_all_reset(ray_clip *c, double length)
{
    c->t_in = 0.0;
    c->t_out = length;
    c->face_in = -1;
    c->outside = false;
}

/* The ray clipped by every face plane of A, in A's frame. */
static void clip_all(const hd_polytope *a, const hd_pose *pose, const double origin[3],
                     const double dir[3], double length, ray_clip *c)
{
    double rel[3];
    hdi_v3_sub(rel, origin, pose->t);
    hdi_m3_tmul_v(c->o, pose->r, rel);
    hdi_m3_tmul_v(c->d, pose->r, dir);
    clip_all_reset(c, length);
    int nf = hd_polytope_face_count(a);
    for (int f = 0; f < nf; ++f) {
        double n[3], off;
        const int *loop;
        hd_polytope_face(a, f, n, &off, &loop);
        clip_plane(c, n, off, f);
    }
}

/* The core's feature at its point c (A's frame): a vertex within the coordinates' resolution, else
 * an edge whose segment passes within it, else the face whose plane does (nearest first). */
static hd_feature_id core_feature(const hd_polytope *a, const double c[3])
{
    double lo[3], hi[3];
    hd_polytope_bounds(a, lo, hi);
    double res = 4.0 * HD_COORD_RESOLUTION * hdi_max(hdi_v3_max_abs(lo), hdi_v3_max_abs(hi));
    const double *v = hd_polytope_vertices(a);
    for (int i = 0; i < hd_polytope_vertex_count(a); ++i) {
        if (hdi_v3_dist(c, v + 3 * i) <= res) {
            return (hd_feature_id){HD_FEATURE_VERTEX, i};
        }
    }
    for (int e = 0; e < hd_polytope_edge_count(a); ++e) {
        int ends[2], faces[2];
        hd_polytope_edge(a, e, ends, faces);
        double ab[3], ac[3], cross[3];
        hdi_v3_sub(ab, v + 3 * ends[1], v + 3 * ends[0]);
        hdi_v3_sub(ac, c, v + 3 * ends[0]);
        hdi_v3_cross(cross, ab, ac);
        if (hdi_v3_len(cross) <= res * hdi_v3_len(ab)) {
            return (hd_feature_id){HD_FEATURE_EDGE, e};
        }
    }
    int best = 0;
    double best_gap = HUGE_VAL;
    for (int f = 0; f < hd_polytope_face_count(a); ++f) {
        double n[3], off;
        const int *loop;
        hd_polytope_face(a, f, n, &off, &loop);
        double gap = fabs(hdi_v3_dot(n, c) - off);
        if (gap < best_gap) {
            best_gap = gap;
            best = f;
        }
    }
    return (hd_feature_id){HD_FEATURE_FACE, best};
}

/* A rounded polytope X = C + B(r): the first t with dist(o + t d, C) <= r. At a point x outside X
 * with nearest core point c, the plane through c + r n, n = (x - c) / |x - c|, supports X (it
 * supports C at c); the ray is outside X until it enters that half-space, at t + (|x - c| - r) /
 * -(n.d), or never when n.d >= 0 (the ray leaves it). Stepping from plane to plane never passes
 * the first hit (van den Bergen 2004, "Ray casting against general convex objects", section 3,
 * with the ball's support added), and stops once x is within the band of the surface. */
static hd_status cast_rounded(const hd_polytope *a, const hd_pose *pose, const double origin[3],
                              const double dir[3], double length, const hd_options *opt,
                              hd_ray_result *out)
{
    hd_options def = hd_options_default();
    opt = opt != NULL ? opt : &def;
    double rel[3], o[3], d[3], centre[3], sphere;
    hdi_v3_sub(rel, origin, pose->t);
    hdi_m3_tmul_v(o, pose->r, rel);
    hdi_m3_tmul_v(d, pose->r, dir);
    hd_polytope_sphere(a, centre, &sphere);
    hd_pose_apply(pose, centre, centre);
    double scale = hdi_max(hdi_v3_max_abs(centre) + sphere, hdi_v3_max_abs(origin));
    double eps = opt->tol.touch_rel * scale, r = hd_polytope_radius(a), t = 0.0;
    for (int it = 0; it < HD_RAY_ROUNDED_ITERATIONS; ++it) {
        double x[3], c[3], s;
        hdi_v3_madd(x, o, t, d);
        hd_status st = hdi_point_core_distance(a, x, eps, opt, &s, c);
        if (st != HD_OK) {
            return st;
        }
        if (s - r <= eps) {
            out->hit = true;
            out->t = t;
            hdi_v3_madd(out->point, origin, t, dir);
            out->inside = t == 0.0 && s - r < -eps;
            if (!out->inside && s > 0.0) {
                double n[3];
                hdi_v3_sub(n, x, c);
                hdi_v3_scale(n, n, 1.0 / s);
                hdi_m3_mul_v(out->normal, pose->r, n);
                out->feature = core_feature(a, c);
            }
            return HD_OK;
        }
        double n[3];
        hdi_v3_sub(n, x, c);
        double nd = hdi_v3_dot(n, d) / s;
        if (!(nd < 0.0)) {
            return HD_OK; /* leaving a half-space that holds X: no hit */
        }
        t += (s - r) / -nd;
        if (t > length) {
            return HD_OK;
        }
    }
    return HD_ERR_ITERATION_LIMIT;
}

hd_status hd_ray_cast(const hd_polytope *a, const hd_pose *pose_a, const double origin[3],
                      const double dir[3], double length, const hd_options *opt, hd_ray_result *out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    memset(out, 0, sizeof *out);
    out->feature.index = -1;
    hd_status st = check_ray(a, pose_a, origin, dir, length, opt);
    if (st != HD_OK) {
        return st;
    }
    hd_pose id = hd_pose_identity();
    const hd_pose *pose = pose_a != NULL ? pose_a : &id;
    if (hd_polytope_radius(a) > 0.0) {
        return cast_rounded(a, pose, origin, dir, length, opt, out);
    }
    ray_clip c;
    clip_all(a, pose, origin, dir, length, &c);
    bool flat = hd_polytope_dimension(a) == 2;
    if (flat && in_plane(a, &c)) {
        clip_all_reset(&c, length);
        cast_in_plane(a, pose, origin, dir, &c, out);
        return HD_OK;
    }
    double x[3];
    hdi_v3_madd(x, c.o, c.t_in, c.d);
    if (c.t_in > c.t_out || (flat && !inside_polygon(a, x))) {
        return HD_OK;
    }
    out->hit = true;
    out->t = c.t_in;
    hdi_v3_madd(out->point, origin, c.t_in, dir);
    if (!c.outside) {
        out->inside = true;
        return HD_OK;
    }
    double n[3], off;
    const int *loop;
    hd_polytope_face(a, c.face_in, n, &off, &loop);
    hdi_m3_mul_v(out->normal, pose->r, n);
    out->feature = feature_at(a, c.face_in, x);
    return HD_OK;
}
