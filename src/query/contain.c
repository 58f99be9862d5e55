/* Containment and point-inside queries on polytopes (IsSubsetOf of Kreuzer's LP article, and point
 * inside): a point is classified against A by exact distance below dimension 2, by A's face planes
 * where they decide, and near the boundary by GJK and the contact classifier on the pair (A, {p}).
 * docs/algorithms/lp.md, section 4. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "gjk/gjk.h"
#include "query/query_internal.h"
#include "core/math.h"

/* delta: four times the facet-merging tolerance, convex_rel * (largest coordinate + extent). */
static double face_delta(const hd_polytope *a, const hd_options *opt)
{
    double rel = fmax(opt->tol.convex_rel, HD_DEFAULT_CONVEX_REL);
    return 4.0 * rel * (a->max_abs + a->extent);
}

static double segment_distance(const double a[3], const double b[3], const double p[3])
{
    double ab[3], ap[3], q[3];
    hdi_v3_sub(ab, b, a);
    hdi_v3_sub(ap, p, a);
    double len2 = hdi_v3_len2(ab);
    double s = len2 > 0.0 ? hdi_v3_dot(ap, ab) / len2 : 0.0;
    s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
    hdi_v3_madd(q, a, s, ab);
    return hdi_v3_dist(p, q);
}

/* Largest excess of p over the polygon's supporting planes: its plane (both sides) and the
 * in-plane outward normals of its edges (vertices counter-clockwise around plane_normal). */
static double polygon_excess(const hd_polytope *a, const double p[3])
{
    double m = fabs(hdi_v3_dot(a->plane_normal, p) - a->plane_dist);
    int n = a->vertex_count;
    for (int i = 0; i < n; ++i) {
        const double *v0 = a->verts + 3 * i, *v1 = a->verts + 3 * ((i + 1) % n);
        double e[3], out[3], vp[3];
        hdi_v3_sub(e, v1, v0);
        hdi_v3_cross(out, e, a->plane_normal);
        if (hdi_v3_normalize(out) > 0.0) {
            hdi_v3_sub(vp, p, v0);
            m = fmax(m, hdi_v3_dot(out, vp));
        }
    }
    return m;
}

static double solid_excess(const hd_polytope *a, const double p[3])
{
    double m = -INFINITY;
    for (int f = 0; f < a->face_count; ++f) {
        m = fmax(m, hdi_v3_dot(a->face_normal + 3 * f, p) - a->face_dist[f]);
    }
    return m;
}

/* A single-vertex polytope on the stack, standing for the point p (no allocation). */
typedef struct hdi_point_polytope {
    hd_polytope poly;
    double xyz[3];
    int offsets[2];
    int face[1];
} hdi_point_polytope;

static void point_polytope(hdi_point_polytope *pt, const double p[3])
{
    memset(pt, 0, sizeof *pt);
    hdi_v3_copy(pt->xyz, p);
    pt->face[0] = -1;
    hd_polytope *q = &pt->poly;
    q->vertex_count = 1;
    q->verts = pt->xyz;
    q->vert_offset = pt->offsets;
    q->vert_face = pt->face;
    for (int k = 0; k < 2; ++k) {
        hdi_v3_copy(q->interior[k].point, p);
        q->interior[k].count = 1;
        q->interior[k].weight[0] = 1.0;
    }
    hdi_v3_copy(q->aabb_lo, p);
    hdi_v3_copy(q->aabb_hi, p);
    hdi_v3_copy(q->sphere_centre, p);
    q->max_abs = hdi_v3_max_abs(p);
}

/* The pair (A, {p}) for GJK with the caller's eps, and its empty result. With closest NULL,
 * GJK's verdict (and the shared contact classifier's near the band); else also the distance. */
static hd_status point_pair_gjk(const hd_polytope *a, const double p[3], double eps,
                                const hd_options *opt, hd_verdict *verdict, hdi_closest *closest)
{
    hdi_point_polytope pt;
    point_polytope(&pt, p);
    hd_options gjk = *opt;
    gjk.algo = HD_ALGO_GJK;
    gjk.cache = NULL;
    hdi_pair pair;
    hd_status st = hdi_pair_init(&pair, a, NULL, &pt.poly, NULL, &gjk);
    if (st != HD_OK) {
        return st;
    }
    pair.eps = eps;
    hd_collide_result res;
    memset(&res, 0, sizeof res);
    res.algo = HD_ALGO_GJK;
    res.eps = eps;
    st = closest == NULL ? hdi_gjk_collide(&pair, &gjk, &res)
                         : hdi_gjk_distance(&pair, &gjk, &res, closest);
    *verdict = res.verdict;
    return st;
}

/* Near the boundary the face planes cannot decide (merged planes are exact only to delta): the
 * point is then classified as a pair (A, {p}) by GJK and the shared contact classifier, whose
 * distance and depth bounds are exact to a few rounding units, with the caller's eps. */
static hd_status pair_fallback(const hd_polytope *a, const double p[3], double eps,
                               const hd_options *opt, hd_verdict *out)
{
    return point_pair_gjk(a, p, eps, opt, out, NULL);
}

hd_status hdi_point_core_distance(const hd_polytope *a, const double p[3], double eps,
                                  const hd_options *opt, double *signed_distance, double closest[3])
{
    if (a->dim == 3) {
        double m = solid_excess(a, p);
        if (m <= 0.0) {
            *signed_distance = m;
            hdi_v3_copy(closest, p);
            return HD_OK;
        }
    }
    hdi_closest near;
    hd_verdict verdict;
    memset(&near, 0, sizeof near);
    hd_status st = point_pair_gjk(a, p, eps, opt, &verdict, &near);
    *signed_distance = near.distance;
    hdi_v3_copy(closest, near.witness_a);
    return st;
}

/* Verdict of p (A's frame) against A. Dimension 0, 1: the exact distance (no interior). Dimension
 * 3: m = max_f (n_f.p - d_f) bounds the distance from below outside and is minus the depth inside
 * (the nearest boundary point lies on a facet plane); dimension 2: the same with the polygon's
 * plane and edges (never intersecting). The planes decide only when |m| > eps + delta. */
static hd_status classify_point(const hd_polytope *a, const double p[3], double eps,
                                const hd_options *opt, hd_verdict *out)
{
    if (a->radius > 0.0) { /* the rounded shape: the core's signed distance less r */
        double d;
        double c[3];
        hd_status st = hdi_point_core_distance(a, p, eps, opt, &d, c);
        d -= a->radius;
        *out = d > eps ? HD_SEPARATED : d < -eps ? HD_INTERSECTING : HD_TOUCHING;
        return st;
    }
    if (a->dim <= 1) {
        double dist =
            a->dim == 0 ? hdi_v3_dist(p, a->verts) : segment_distance(a->verts, a->verts + 3, p);
        *out = dist > eps ? HD_SEPARATED : HD_TOUCHING;
        return HD_OK;
    }
    double delta = face_delta(a, opt);
    double m = a->dim == 2 ? polygon_excess(a, p) : solid_excess(a, p);
    if (m - delta > eps) {
        *out = HD_SEPARATED;
        return HD_OK;
    }
    if (a->dim == 3 && -m - delta > eps) {
        *out = HD_INTERSECTING;
        return HD_OK;
    }
    return pair_fallback(a, p, eps, opt, out);
}

/* Rounded shapes: core_B + B(r_B) lies in core_A + B(r_A) exactly when every vertex v of core_B
 * has a signed distance to core_A of at most r_A - r_B (for r_A >= r_B, v within r_A - r_B of
 * core_A; else a ball of r_B - r_A around v inside core_A: the cancellation law of Minkowski
 * sums of convex sets), within the band. */
static hd_status contains_rounded(const hdi_pair *pair, const hd_options *opt, bool *inside)
{
    double slack = pair->a->radius - pair->b->radius;
    for (int v = 0; v < pair->b->vertex_count; ++v) {
        double p[3], d;
        hdi_pair_b_vertex(pair, v, p);
        double c[3];
        hd_status st = hdi_point_core_distance(pair->a, p, pair->eps, opt, &d, c);
        if (st != HD_OK) {
            return st;
        }
        if (d - slack > pair->eps) {
            *inside = false;
            return HD_OK;
        }
    }
    *inside = true;
    return HD_OK;
}

hd_status hd_contains(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                      const hd_pose *pose_b, const hd_options *opt, bool *inside)
{
    if (inside == NULL) {
        return HD_ERR_NULL;
    }
    hd_options def = hd_options_default();
    if (opt == NULL) {
        opt = &def;
    }
    if ((int)opt->algo < 0 || opt->algo >= HD_ALGO_COUNT) {
        return HD_ERR_INVALID_ARG;
    }
    hdi_pair pair;
    hd_status st = hdi_pair_init(&pair, a, pose_a, b, pose_b, opt);
    if (st != HD_OK) {
        return st;
    }
    if (a->radius > 0.0 || b->radius > 0.0) {
        return contains_rounded(&pair, opt, inside);
    }
    for (int v = 0; v < b->vertex_count; ++v) {
        double p[3];
        hd_verdict verdict;
        hdi_pair_b_vertex(&pair, v, p);
        if ((st = classify_point(a, p, pair.eps, opt, &verdict)) != HD_OK) {
            return st;
        }
        if (verdict == HD_SEPARATED) {
            *inside = false;
            return HD_OK;
        }
    }
    *inside = true;
    return HD_OK;
}

/* The query's scale: the larger of A's posed bounding-sphere extent |R c + t|_inf + r and the
 * point's largest absolute coordinate (core.h's scale with the point as the second object). */
hd_status hd_point_inside(const hd_polytope *a, const hd_pose *pose_a, const double point[3],
                          const hd_options *opt, hd_verdict *out)
{
    if (a == NULL || point == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    hd_options def = hd_options_default();
    if (opt == NULL) {
        opt = &def;
    }
    hd_status st = hd_tolerance_validate(&opt->tol);
    if (st != HD_OK) {
        return st;
    }
    if ((int)opt->algo < 0 || opt->algo >= HD_ALGO_COUNT) {
        return HD_ERR_INVALID_ARG;
    }
    if (!hdi_v3_is_finite(point)) {
        return HD_ERR_NONFINITE;
    }
    hd_pose pose = hd_pose_identity();
    if (pose_a != NULL) {
        double ptol = opt->tol.pose_tol > 0.0 ? opt->tol.pose_tol : HD_DEFAULT_POSE_TOL;
        if ((st = hd_pose_validate(pose_a, ptol)) != HD_OK) {
            return st;
        }
        pose = *pose_a;
    }
    double c[3], d[3], local[3];
    hd_pose_apply(&pose, a->sphere_centre, c);
    double scale = fmax(hdi_v3_max_abs(c) + (a->sphere_radius + a->radius), hdi_v3_max_abs(point));
    if (!(scale <= HD_MAX_COORD) || (scale > 0.0 && scale < HD_MIN_SCALE)) {
        return HD_ERR_RANGE;
    }
    hdi_v3_sub(d, point, pose.t);
    hdi_m3_tmul_v(local, pose.r, d);
    return classify_point(a, local, opt->tol.touch_rel * scale, opt, out);
}
