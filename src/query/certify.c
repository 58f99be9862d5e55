/* Independent check of a result's certificate: brute force over the posed vertices, sharing no
 * code with the algorithms beyond the pose arithmetic. */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "core/math.h"
#include "polytope/internal.h"
#include "hedra/query.h"
#include "core/tolerances.h"

typedef struct hdi_check_frame {
    const hd_polytope *p;
    hd_pose pose;
} hdi_check_frame;

static void world_vertex(const hdi_check_frame *f, int i, double out[3])
{
    hd_pose_apply(&f->pose, f->p->verts + 3 * i, out);
}

/* max (sign = +1) or max of -n.x (sign = -1) over the posed vertices; also tracks |coordinates|. */
static double extreme(const hdi_check_frame *f, const double n[3], double sign, double *scale)
{
    double best = -INFINITY;
    for (int i = 0; i < f->p->vertex_count; ++i) {
        double w[3];
        world_vertex(f, i, w);
        double v = sign * hdi_v3_dot(n, w);
        if (v > best) {
            best = v;
        }
        double m = hdi_v3_max_abs(w);
        if (m > *scale) {
            *scale = m;
        }
    }
    return best;
}

/* The point of a convex combination, or HD_ERR_CERTIFICATE when the weights are not convex. */
static hd_status combination_point(const hdi_check_frame *f, const hd_combination *c, double out[3])
{
    if (c->count < 1 || c->count > HD_COMBINATION_MAX) {
        return HD_ERR_CERTIFICATE;
    }
    double sum = 0.0;
    hdi_v3_set(out, 0, 0, 0);
    for (int k = 0; k < c->count; ++k) {
        double w = c->weight[k];
        if (c->index[k] < 0 || c->index[k] >= f->p->vertex_count || !(w >= 0.0) || w > 1.0 + 1e-9) {
            return HD_ERR_CERTIFICATE;
        }
        double v[3];
        world_vertex(f, c->index[k], v);
        hdi_v3_madd(out, out, w, v);
        sum += w;
    }
    return fabs(sum - 1.0) <= 1e-9 ? HD_OK : HD_ERR_CERTIFICATE;
}

/* strict: the gap must exceed min_gap (separated); else reach it (touching: gap >= -eps). */
static hd_status check_plane(const hdi_check_frame *fa, const hdi_check_frame *fb,
                             const hd_certificate *c, double min_gap, int strict, double *scale)
{
    if (!c->has_plane || !hdi_v3_is_finite(c->normal) || !isfinite(c->offset) ||
        fabs(hdi_v3_len(c->normal) - 1.0) > 1e-9) {
        return HD_ERR_CERTIFICATE;
    }
    /* a rounded shape's support is its core's plus its radius */
    double hi_a = extreme(fa, c->normal, 1.0, scale) + fa->p->radius;
    double lo_b = -extreme(fb, c->normal, -1.0, scale) - fb->p->radius;
    double slack = HD_CHECK_ROUNDING_UNITS * DBL_EPSILON * *scale;
    double half = 0.5 * c->gap;
    /* the claimed gap must clear the verdict's threshold, and the plane must realise it:
     * n.a <= offset - gap/2 for every a in A, n.b >= offset + gap/2 for every b in B */
    int clears = strict ? c->gap > min_gap : c->gap >= min_gap;
    if (!isfinite(c->gap) || !clears || hi_a > c->offset - half + slack ||
        lo_b < c->offset + half - slack) {
        return HD_ERR_CERTIFICATE;
    }
    return HD_OK;
}

static hd_status check_point(const hdi_check_frame *fa, const hdi_check_frame *fb,
                             const hd_certificate *c, double eps, double scale)
{
    double pa[3], pb[3];
    if (!c->has_point || combination_point(fa, &c->on_a, pa) != HD_OK ||
        combination_point(fb, &c->on_b, pb) != HD_OK) {
        return HD_ERR_CERTIFICATE;
    }
    /* rounded shapes: the point lies within r_A (r_B) of the core point on A (on B); both
     * radii 0 keep the sharp test, the point on A within eps of the one on B */
    double slack = HD_CHECK_ROUNDING_UNITS * DBL_EPSILON * scale;
    double ra = fa->p->radius, rb = fb->p->radius;
    if (hdi_v3_dist(pa, pb) > (ra + rb) + eps + slack ||
        hdi_v3_dist(pa, c->point) > ra + eps + slack) {
        return HD_ERR_CERTIFICATE;
    }
    if (ra + rb > 0.0 && hdi_v3_dist(pb, c->point) > rb + eps + slack) {
        return HD_ERR_CERTIFICATE;
    }
    return HD_OK;
}

static double frame_scale(const hdi_check_frame *f)
{
    double c[3];
    hd_pose_apply(&f->pose, f->p->sphere_centre, c);
    return hdi_v3_max_abs(c) + (f->p->sphere_radius + f->p->radius);
}

hd_status hd_certificate_check(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                               const hd_pose *pose_b, hd_verdict verdict, double eps,
                               const hd_certificate *cert)
{
    if (a == NULL || b == NULL || cert == NULL) {
        return HD_ERR_NULL;
    }
    hd_status st;
    if ((pose_a != NULL && (st = hd_pose_validate(pose_a, 0.0)) != HD_OK) ||
        (pose_b != NULL && (st = hd_pose_validate(pose_b, 0.0)) != HD_OK)) {
        return st;
    }
    hdi_check_frame fa = {a, pose_a ? *pose_a : hd_pose_identity()};
    hdi_check_frame fb = {b, pose_b ? *pose_b : hd_pose_identity()};
    double scale = fmax(frame_scale(&fa), frame_scale(&fb));
    /* no valid tolerance gives a band wider than 1e-3 of the scale (hd_tolerance_validate) */
    if (!isfinite(eps) || eps < 0.0 || eps > HD_TOL_REL_MAX * scale) {
        return HD_ERR_CERTIFICATE;
    }
    switch (verdict) {
        case HD_SEPARATED:
            return check_plane(&fa, &fb, cert, eps, 1, &scale);
        case HD_TOUCHING:
            st = check_plane(&fa, &fb, cert, -eps, 0, &scale);
            return st != HD_OK ? st : check_point(&fa, &fb, cert, eps, scale);
        case HD_INTERSECTING: {
            if (!(cert->depth_bound > eps)) {
                return HD_ERR_CERTIFICATE;
            }
            return check_point(&fa, &fb, cert, eps, scale);
        }
        default:
            return HD_ERR_CERTIFICATE;
    }
}
