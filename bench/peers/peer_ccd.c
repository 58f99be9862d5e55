/* libccd peer: GJK and MPR intersection (ccdGJKIntersect, ccdMPRIntersect) and penetration
 * (ccdGJKPenetration: GJK + EPA, ccdMPRPenetration) on a vertex-list convex shape through libccd's
 * support-callback interface, set up as libccd's README shows (CCD_INIT, support1/support2
 * callbacks, max_iterations = 100, MPR's center callbacks, the default EPA and MPR tolerances).
 * libccd 2.x has no separation-distance routine, so it appears in the boolean and depth
 * experiments only. Its penetration direction is the translation of obj2 (B) that separates the
 * pair: the depth experiment's normal as it is. */
#include <ccd/ccd.h>
#include <string.h>

#include "peers/peers.h"

typedef hd_bench_point_set hd_ccd_shape;

/* What libccd's callbacks receive: a shape and its pose. */
typedef struct hd_ccd_object {
    const hd_ccd_shape *shape;
    const hd_bench_pose *pose;
} hd_ccd_object;

static void hd_ccd_to_world(const hd_bench_pose *p, const double *v, ccd_vec3_t *out)
{
    for (int k = 0; k < 3; ++k) {
        out->v[k] = p->r[3 * k] * v[0] + p->r[3 * k + 1] * v[1] + p->r[3 * k + 2] * v[2] + p->t[k];
    }
}

/* Support in a world direction: rotate the direction into the shape's frame (R^T d), take the
 * vertex of largest dot product by brute force, and pose it. */
static void hd_ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out)
{
    const hd_ccd_object *o = obj;
    const double *r = o->pose->r;
    double d[3];
    for (int k = 0; k < 3; ++k) {
        d[k] = r[k] * dir->v[0] + r[3 + k] * dir->v[1] + r[6 + k] * dir->v[2];
    }
    const double *xyz = o->shape->xyz;
    int best = 0;
    double best_dot = d[0] * xyz[0] + d[1] * xyz[1] + d[2] * xyz[2];
    for (int i = 1; i < o->shape->n; ++i) {
        double v = d[0] * xyz[3 * i] + d[1] * xyz[3 * i + 1] + d[2] * xyz[3 * i + 2];
        if (v > best_dot) {
            best_dot = v;
            best = i;
        }
    }
    hd_ccd_to_world(o->pose, xyz + 3 * best, out);
}

static void hd_ccd_center(const void *obj, ccd_vec3_t *center)
{
    const hd_ccd_object *o = obj;
    hd_ccd_to_world(o->pose, o->shape->centroid, center);
}

static void hd_ccd_setup(ccd_t *ccd)
{
    CCD_INIT(ccd);
    ccd->support1 = hd_ccd_support;
    ccd->support2 = hd_ccd_support;
    ccd->center1 = hd_ccd_center;
    ccd->center2 = hd_ccd_center;
    ccd->max_iterations = 100;
}

static int hd_ccd_query(const void *a, const hd_bench_pose *pa, const void *b,
                        const hd_bench_pose *pb, hd_bench_answer *out, int mpr)
{
    hd_ccd_object oa = {a, pa}, ob = {b, pb};
    ccd_t ccd;
    hd_ccd_setup(&ccd);
    int hit = mpr ? ccdMPRIntersect(&oa, &ob, &ccd) : ccdGJKIntersect(&oa, &ob, &ccd);
    memset(out, 0, sizeof *out);
    out->verdict = hit ? 2 : 0;
    out->distance = -1.0;
    out->iterations = out->support_calls = -1;
    return HD_BENCH_OK;
}

static int hd_ccd_gjk(const void *a, const hd_bench_pose *pa, const void *b,
                      const hd_bench_pose *pb, hd_bench_answer *out)
{
    return hd_ccd_query(a, pa, b, pb, out, 0);
}

static int hd_ccd_mpr(const void *a, const hd_bench_pose *pa, const void *b,
                      const hd_bench_pose *pb, hd_bench_answer *out)
{
    return hd_ccd_query(a, pa, b, pb, out, 1);
}

/* Penetration depth and direction: 0 from libccd when the pair penetrates, -1 when not (depth 0). */
static int hd_ccd_depth(const void *a, const hd_bench_pose *pa, const void *b,
                        const hd_bench_pose *pb, hd_bench_answer *out, int mpr)
{
    hd_ccd_object oa = {a, pa}, ob = {b, pb};
    ccd_t ccd;
    hd_ccd_setup(&ccd);
    ccd_real_t depth = 0;
    ccd_vec3_t dir, pos;
    int rc = mpr ? ccdMPRPenetration(&oa, &ob, &ccd, &depth, &dir, &pos)
                 : ccdGJKPenetration(&oa, &ob, &ccd, &depth, &dir, &pos);
    memset(out, 0, sizeof *out);
    out->verdict = rc == 0 ? 2 : 0;
    out->distance = -1.0;
    out->iterations = out->support_calls = -1;
    out->depth = rc == 0 ? depth : 0.0;
    for (int k = 0; k < 3; ++k) {
        out->normal[k] = rc == 0 ? dir.v[k] : 0.0;
    }
    return HD_BENCH_OK;
}

static int hd_ccd_gjk_pen(const void *a, const hd_bench_pose *pa, const void *b,
                          const hd_bench_pose *pb, hd_bench_answer *out)
{
    return hd_ccd_depth(a, pa, b, pb, out, 0);
}

static int hd_ccd_mpr_pen(const void *a, const hd_bench_pose *pa, const void *b,
                          const hd_bench_pose *pb, hd_bench_answer *out)
{
    return hd_ccd_depth(a, pa, b, pb, out, 1);
}

int hd_bench_ccd_methods(hd_bench_method *list, int capacity)
{
    if (capacity < 4) {
        return 0;
    }
    memset(list, 0, 4 * sizeof *list);
    list[0].name = "ccd_gjk";
    list[0].library = "libccd (GJK)";
    list[0].kind = HD_BENCH_BOOLEAN;
    list[0].create = hd_bench_point_set_create;
    list[0].destroy = hd_bench_point_set_destroy;
    list[0].query = hd_ccd_gjk;
    list[1] = list[0];
    list[1].name = "ccd_mpr";
    list[1].library = "libccd (MPR)";
    list[1].query = hd_ccd_mpr;
    list[2] = list[0];
    list[2].name = "ccd_gjk_pen";
    list[2].library = "libccd (GJK+EPA penetration)";
    list[2].kind = HD_BENCH_DEPTH;
    list[2].query = hd_ccd_gjk_pen;
    list[3] = list[2];
    list[3].name = "ccd_mpr_pen";
    list[3].library = "libccd (MPR penetration)";
    list[3].query = hd_ccd_mpr_pen;
    return 4;
}
