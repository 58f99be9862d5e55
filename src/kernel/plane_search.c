/* Planar simplex search (see kernel/plane_search.h).
 *
 * GJK (Gilbert, Johnson, Keerthi) in two dimensions: keep a simplex of at most three projected
 * support points; replace it by the sub-simplex nearest the origin, v its nearest point; ask the
 * support in direction -v for a new point w. Every point p of the projected set satisfies
 * v.p >= v.w, so v.w / |v| is a lower bound of the origin's distance to the set and |v| an upper
 * bound: stop when the lower bound exceeds tol (separated), when the new point brings no progress
 * (|v|^2 - v.w <= HD_PLANE_PROGRESS_REL |v|^2: v is the nearest point up to rounding), or when the
 * simplex is a triangle holding the origin strictly inside (kernel/simplex2d.c solves the
 * sub-simplex). A step whose solve does not decrease |v| although the bounds say it must (rounding
 * of a needle projection: a small shape against a long one 1e3 from the origin, |v| stuck at 5e-10
 * against tol 8e-10 until the cap; in exact arithmetic |v| decreases strictly) ends the search
 * when |v| is within tol: the simplex before the step then stands, a point of the set within tol
 * of the origin's projection. Above tol nothing is proven by |v| and the search goes on. */
#include <float.h>
#include <math.h>

#include "kernel/plane_search.h"
#include "kernel/simplex2d.h"
#include "core/math.h"
#include "core/tolerances.h"

void hdi_plane_basis(const double n[3], double e1[3], double e2[3])
{
    double axis[3] = {1.0, 0.0, 0.0};
    if (fabs(n[0]) > 0.6) {
        hdi_v3_set(axis, 0.0, 1.0, 0.0);
    }
    hdi_v3_cross(e1, n, axis);
    hdi_v3_normalize(e1);
    hdi_v3_cross(e2, n, e1);
}

/* The projected simplex is an hdi_simplex2d whose ia[k] names a slot of a side table holding the
 * 3D support point and its two indices; the kernel's 2D solver (kernel/simplex2d.c) reduces it. */
typedef struct plane_slot {
    double w[3];
    int ia;
    int ib;
} plane_slot;

/* A slot not used by the simplex's points (4 slots, at most 3 in use). */
static int free_slot(const hdi_simplex2d *s)
{
    for (int k = 0; k < 4; ++k) {
        int used = 0;
        for (int j = 0; j < s->count; ++j) {
            used |= s->ia[j] == k;
        }
        if (!used) {
            return k;
        }
    }
    return 0;
}

static void write_result(const hdi_simplex2d *s, const plane_slot *slots, const double v[2],
                         hdi_plane_result *out)
{
    out->count = s->count;
    for (int j = 0; j < s->count; ++j) {
        const plane_slot *slot = &slots[s->ia[j]];
        hdi_v3_copy(out->w[j], slot->w);
        out->ia[j] = slot->ia;
        out->ib[j] = slot->ib;
        out->lambda[j] = s->lambda[j];
    }
    out->distance = s->count == 3 ? 0.0 : sqrt(v[0] * v[0] + v[1] * v[1]);
}

hd_status hdi_plane_search(const double e1[3], const double e2[3], hdi_plane_support_fn support,
                           void *ctx, double tol, int max_iter, hdi_plane_result *out)
{
    hdi_simplex2d sx;
    plane_slot slots[4];
    sx.count = 0;
    out->separated = 0;
    double v[2] = {1.0, 0.0};
    for (int iter = 0; iter < max_iter; ++iter) {
        double d3[3], w[3];
        int ia, ib;
        for (int i = 0; i < 3; ++i) {
            d3[i] = -(v[0] * e1[i] + v[1] * e2[i]);
        }
        support(ctx, d3, w, &ia, &ib);
        double p[2] = {hdi_v3_dot(w, e1), hdi_v3_dot(w, e2)};
        double vv = v[0] * v[0] + v[1] * v[1];
        double vw = v[0] * p[0] + v[1] * p[1];
        if (sx.count > 0) {
            if (vw > tol * sqrt(vv)) {
                out->separated = 1;
                break;
            }
            if (vv - vw <= HD_PLANE_PROGRESS_REL * vv || vv == 0.0) {
                break;
            }
        }
        int k = free_slot(&sx);
        hdi_v3_copy(slots[k].w, w);
        slots[k].ia = ia;
        slots[k].ib = ib;
        sx.w[sx.count][0] = p[0];
        sx.w[sx.count][1] = p[1];
        sx.ia[sx.count] = k;
        sx.ib[sx.count] = 0;
        sx.count++;
        /* only a step from within tol can end in a stall: the state before it is kept then */
        int may_stall = sx.count > 1 && vv <= tol * tol;
        hdi_simplex2d before;
        if (may_stall) {
            before = sx;
        }
        double v_before[2] = {v[0], v[1]};
        hdi_simplex2d_solve(&sx, v);
        if (may_stall && sx.count < 3 && !(v[0] * v[0] + v[1] * v[1] < vv)) {
            before.count--; /* rounding stalled within tol: the simplex before the step stands */
            write_result(&before, slots, v_before, out);
            return HD_OK;
        }
        if (sx.count == 3) {
            break; /* the origin's projection lies strictly inside the triangle */
        }
        if (iter + 1 == max_iter) {
            return HD_ERR_ITERATION_LIMIT;
        }
    }
    write_result(&sx, slots, v, out);
    return HD_OK;
}
