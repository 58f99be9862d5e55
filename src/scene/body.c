/* Boxes of posed bodies. The tight box of a body is exact: along world axis k the posed shape
 * R v + t reaches t_k + max_v (row k of R) . v, the support of the shape in the direction of
 * row k. Small shapes are scanned once for all six extremes; larger ones look each support up in
 * their direction table, or, without one (flat shapes), climb to it from the vertex of the
 * previous box (frame coherence makes that a step or two). The box is then widened so that a
 * pair the narrow phase could call touching is never cut by the boxes (core/tolerances.h). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/math.h"
#include "core/tolerances.h"
#include "polytope/internal.h"
#include "scene/internal.h"
#include "support/support.h"

/* The widening of the boxes (core/tolerances.h, scene section). */
double hdi_body_band_rel(const hd_tolerance *tol)
{
    double pose_tol = tol->pose_tol > 0.0 ? tol->pose_tol : HD_DEFAULT_POSE_TOL;
    pose_tol = pose_tol < 1e-3 ? pose_tol : 1e-3;
    return tol->touch_rel + HD_SCENE_POSE_FACTOR * pose_tol + HD_SCENE_ROUNDING * DBL_EPSILON;
}

/* |R c + t|_max + radius, as hd_collide's scale. */
static double posed_scale(const hd_polytope *shape, const hd_pose *pose)
{
    double c[3];
    hd_pose_apply(pose, shape->sphere_centre, c);
    return hdi_v3_max_abs(c) + (shape->sphere_radius + shape->radius);
}

double hdi_body_reach(const hd_polytope *shape)
{
    return hdi_v3_len(shape->sphere_centre) + (shape->sphere_radius + shape->radius);
}

hd_status hdi_body_check_range(const hd_polytope *shape, double reach, int tiny,
                               const hd_pose *pose)
{
    if (!(hdi_v3_max_abs(pose->t) + reach <= HD_MAX_COORD)) {
        return HD_ERR_RANGE;
    }
    double own = tiny ? posed_scale(shape, pose) : HD_MIN_SCALE;
    return own > 0.0 && own < HD_MIN_SCALE ? HD_ERR_RANGE : HD_OK;
}

/* The extent of R v over every vertex, in one pass (six independent running extremes): cheaper
 * than six scans for the small shapes that hdi_support_climb would scan anyway. */
static void scan_extent(const hd_polytope *shape, const double *r, double lo[3], double hi[3])
{
    const double *v = shape->verts;
    for (int k = 0; k < 3; ++k) {
        lo[k] = hi[k] = r[3 * k] * v[0] + r[3 * k + 1] * v[1] + r[3 * k + 2] * v[2];
    }
    for (int i = 1; i < shape->vertex_count; ++i) {
        const double *p = v + 3 * i;
        for (int k = 0; k < 3; ++k) {
            double x = r[3 * k] * p[0] + r[3 * k + 1] * p[1] + r[3 * k + 2] * p[2];
            lo[k] = hdi_min(lo[k], x);
            hi[k] = hdi_max(hi[k], x);
        }
    }
}

/* The extent along each row of R: supports from the direction table when the shape has one (a
 * cell and a few candidates, fewer evaluations than a climb), else by climbs from the previous
 * box's vertices. */
static void support_extent(hdi_body *body, const double *r, double lo[3], double hi[3])
{
    const hd_polytope *shape = body->shape;
    const double *v = shape->verts;
    for (int k = 0; k < 3; ++k) {
        double d[3] = {r[3 * k], r[3 * k + 1], r[3 * k + 2]};
        double nd[3] = {-d[0], -d[1], -d[2]};
        int top, bottom;
        if (shape->support_k > 0) {
            top = hdi_support_lookup(shape, d);
            bottom = hdi_support_lookup(shape, nd);
        } else { /* the climbs start where the last box's ended */
            top = body->hint[2 * k] = hdi_support_walk(shape, d, body->hint[2 * k]);
            bottom = body->hint[2 * k + 1] = hdi_support_walk(shape, nd, body->hint[2 * k + 1]);
        }
        hi[k] = hdi_v3_dot(d, v + 3 * top);
        lo[k] = hdi_v3_dot(d, v + 3 * bottom);
    }
}

/* The tight box of one convex shape at a pose, widened by the band and the rounding. */
static void shape_box(hdi_body *body, double band_rel, hdi_box *out)
{
    const double *r = body->pose.r, *t = body->pose.t;
    if (body->shape->vertex_count <= HD_SUPPORT_SCAN_MAX) {
        scan_extent(body->shape, r, out->lo, out->hi);
    } else {
        support_extent(body, r, out->lo, out->hi);
    }
    /* a rounded shape's box is its core's grown by the radius */
    double widen = band_rel * (posed_scale(body->shape, &body->pose) + hdi_v3_max_abs(t)) +
                   body->shape->radius;
    for (int k = 0; k < 3; ++k) {
        out->lo[k] += t[k] - widen;
        out->hi[k] += t[k] + widen;
    }
}

/* A compound's box: the union of its pieces' boxes, each widened by its own band (the band of a
 * pair of pieces is that of hd_collide on them). */
static void compound_box(const hd_compound *c, const hd_pose *pose, double band_rel, hdi_box *out)
{
    int n = hd_compound_piece_count(c);
    for (int i = 0; i < n; ++i) {
        hdi_body probe;
        memset(&probe, 0, sizeof probe);
        probe.shape = hd_compound_piece(c, i, NULL);
        hd_compound_piece_pose(c, pose, i, &probe.pose);
        hdi_box piece;
        shape_box(&probe, band_rel, &piece);
        if (i == 0) {
            *out = piece;
        } else {
            hdi_box_union(out->lo, out->hi, out->lo, out->hi, piece.lo, piece.hi);
        }
    }
}

/* The box at the body's pose, or at pose when it is not NULL. */
static void box_at(hdi_body *body, const hd_pose *pose, double band_rel, hdi_box *out)
{
    if (body->compound != NULL) {
        compound_box(body->compound, pose != NULL ? pose : &body->pose, band_rel, out);
    } else if (pose == NULL) {
        shape_box(body, band_rel, out);
    } else {
        hdi_body probe = *body;
        probe.pose = *pose;
        shape_box(&probe, band_rel, out);
    }
}

void hdi_body_motion(const hdi_body *body, hd_motion *out)
{
    out->pose0 = body->pose;
    for (int k = 0; k < 3; ++k) {
        out->v[k] = body->v[k];
        out->w[k] = body->w[k];
        out->c[k] = body->pose.t[k];
    }
}

/* A swept body's box. A point's path is p(t) = L(t) + h(t): L the chord from p(0) to p(1),
 * within the union of the boxes at t = 0 and t = 1, and h(t) = exp(t [w]x) q - (1 - t) q - t R q
 * (q = p - c, |q| <= reach about c). h(0) = h(1) = 0 and |h''| <= theta^2 |q| (theta = |w|), so
 * the error of linear interpolation gives |h(t)| <= t (1 - t) theta^2 |q| / 2 <= theta^2 |q| / 8
 * (and |h| <= 2 |q| always): that union grown by reach min(theta^2 / 8, 2) holds the whole
 * motion (docs/algorithms/scene.md). The reach about c is at most the body's reach about its
 * frame origin plus |T0 - c|. out holds the box at t = 0 and is grown to the swept box. */
static void grow_to_sweep(const hdi_body *body, const hd_motion *m, double band_rel, hdi_box *out)
{
    hd_pose end;
    if (hd_motion_pose(m, 1.0, &end) != HD_OK) {
        return; /* finite twists (hd_scene_set_velocity, hd_scene_sweep's checks): never */
    }
    hdi_body probe = *body;
    hdi_box last;
    box_at(&probe, &end, band_rel, &last);
    hdi_box_union(out->lo, out->hi, out->lo, out->hi, last.lo, last.hi);
    double off[3];
    hdi_v3_sub(off, m->pose0.t, m->c);
    double theta = hdi_v3_len(m->w);
    double dev = hdi_min(0.125 * theta * theta, 2.0);
    double grow = (body->reach + hdi_v3_len(off)) * dev * (1.0 + HD_SCENE_ROUNDING * DBL_EPSILON) +
                  band_rel * hdi_v3_max_abs(end.t);
    for (int k = 0; k < 3; ++k) {
        out->lo[k] -= grow;
        out->hi[k] += grow;
    }
}

void hdi_body_swept_box(const hdi_body *body, const hd_motion *m, double band_rel, hdi_box *out)
{
    hdi_body probe = *body;
    box_at(&probe, &m->pose0, band_rel, out);
    grow_to_sweep(body, m, band_rel, out);
}

void hdi_body_box(hdi_body *body, double band_rel, double grow, hdi_box *out)
{
    box_at(body, NULL, band_rel, out);
    if (body->swept) {
        hd_motion m;
        hdi_body_motion(body, &m);
        grow_to_sweep(body, &m, band_rel, out);
    }
    for (int k = 0; k < 3; ++k) { /* and by half the proximity */
        out->lo[k] -= grow;
        out->hi[k] += grow;
    }
}
