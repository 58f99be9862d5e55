/* Boxes of posed bodies. The tight box of a body is exact: along world axis k the posed shape
 * R v + t reaches t_k + max_v (row k of R) . v, the support of the shape in the direction of
 * row k, found by hill climbing from the vertex of the previous box (frame coherence makes that
 * a step or two; solids with a direction table answer in one lookup). The box is then widened so
 * that a pair the narrow phase could call touching is never cut by the boxes (sync.c). */
#include <float.h>
#include <math.h>

#include "core/math.h"
#include "core/tolerances.h"
#include "polytope/internal.h"
#include "scene/internal.h"
#include "support/support.h"

/* The widening of the boxes (core/tolerances.h, scene section). */
double hd_body_band_rel(const hd_tolerance *tol)
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
    return hd_v3_max_abs(c) + shape->sphere_radius;
}

hd_status hd_body_check_range(const hd_polytope *shape, const hd_pose *pose)
{
    double s = posed_scale(shape, pose) + hd_v3_max_abs(pose->t);
    if (!(s <= HD_MAX_COORD)) {
        return HD_ERR_RANGE;
    }
    double own = posed_scale(shape, pose);
    return own > 0.0 && own < HD_MIN_SCALE ? HD_ERR_RANGE : HD_OK;
}

void hd_body_box(hd_body *body, double band_rel, hd_box *out)
{
    const hd_polytope *shape = body->shape;
    const double *r = body->pose.r, *t = body->pose.t, *v = shape->verts;
    for (int k = 0; k < 3; ++k) {
        double d[3] = {r[3 * k], r[3 * k + 1], r[3 * k + 2]};
        double nd[3] = {-d[0], -d[1], -d[2]};
        int hi = hd_support_climb(shape, d, body->hint[2 * k]);
        int lo = hd_support_climb(shape, nd, body->hint[2 * k + 1]);
        body->hint[2 * k] = hi;
        body->hint[2 * k + 1] = lo;
        out->hi[k] = hd_v3_dot(d, v + 3 * hi) + t[k];
        out->lo[k] = hd_v3_dot(d, v + 3 * lo) + t[k];
    }
    double widen = band_rel * (posed_scale(shape, &body->pose) + hd_v3_max_abs(t));
    for (int k = 0; k < 3; ++k) {
        out->lo[k] -= widen;
        out->hi[k] += widen;
    }
}
