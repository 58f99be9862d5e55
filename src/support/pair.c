/* Preparation of a posed pair and the support mappings every algorithm shares. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "core/math.h"
#include "support/pair.h"
#include "support/support.h"

static const hd_pose identity_pose = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};

/* Whether a pose is exactly the identity (the common case of a fixed A): such a pose needs no
 * check and no composition, a visible share of a query on small polytopes. */
static int is_identity(const hd_pose *pose)
{
    const double *eye = identity_pose.r;
    int same = (pose->t[0] == 0.0) & (pose->t[1] == 0.0) & (pose->t[2] == 0.0);
    for (int i = 0; i < 9; ++i) {
        same &= pose->r[i] == eye[i]; /* no early exit: twelve comparisons, no branch */
    }
    return same;
}

/* hd_pose_validate's answer, its common case (a valid pose, tol in its range) inline. The
 * identity passes too: callers skip it for A's pose only, whose identity test they need anyway. */
static hd_status check_pose(const hd_pose *pose, double tol)
{
    if (pose == NULL ||
        (tol > 0.0 && tol <= HD_TOL_REL_MAX && hdi_pose_passes(pose->r, pose->t, tol))) {
        return HD_OK;
    }
    return hd_pose_validate(pose, tol);
}

/* B's pose relative to A: x_A = R_A^T (R_B x_B + t_B - t_A). */
static void relative_pose(hdi_pair *pair, const hd_pose *pa, const hd_pose *pb)
{
    if (pa == NULL) {
        for (int i = 0; i < 9; ++i) {
            pair->r[i] = pb->r[i];
        }
        hdi_v3_copy(pair->t, pb->t);
        return;
    }
    double dt[3];
    hdi_v3_sub(dt, pb->t, pa->t);
    hdi_m3_tmul_m(pair->r, pa->r, pb->r);
    hdi_m3_tmul_v(pair->t, pa->r, dt);
}

/* Largest |coordinate| of a polytope's bounding sphere under a pose: |R c + t| + radius, the
 * radius of the rounded shape (the core's plus the rounding radius). */
static double posed_scale(const hd_polytope *p, const hd_pose *pose)
{
    double c[3];
    hdi_v3_copy(c, p->sphere_centre);
    if (pose != NULL) {
        hd_pose_apply(pose, p->sphere_centre, c);
    }
    return hdi_v3_max_abs(c) + (p->sphere_radius + p->radius);
}

hd_status hdi_pair_init(hdi_pair *pair, const hd_polytope *a, const hd_pose *pose_a,
                        const hd_polytope *b, const hd_pose *pose_b, const hd_options *opt)
{
    if (pair == NULL || a == NULL || b == NULL || opt == NULL) {
        return HD_ERR_NULL;
    }
    hd_status st = hd_tolerance_validate(&opt->tol);
    if (st != HD_OK) {
        return st;
    }
    double ptol = opt->tol.pose_tol > 0.0 ? opt->tol.pose_tol : HD_DEFAULT_POSE_TOL;
    const hd_pose *pa = pose_a != NULL && !is_identity(pose_a) ? pose_a : NULL; /* NULL: identity */
    if ((st = check_pose(pa, ptol)) != HD_OK || (st = check_pose(pose_b, ptol)) != HD_OK) {
        return st;
    }
    const hd_pose *pb = pose_b ? pose_b : &identity_pose;
    relative_pose(pair, pa, pb);
    const hd_pose *pw = pa != NULL ? pa : &identity_pose;
    for (int i = 0; i < 9; ++i) {
        pair->pose_a[i] = pw->r[i];
    }
    hdi_v3_copy(pair->pose_at, pw->t);
    pair->a = a;
    pair->b = b;
    double sa = posed_scale(a, pa);
    double sb = posed_scale(b, pb);
    pair->scale = sa > sb ? sa : sb;
    if (!(pair->scale <= HD_MAX_COORD) || (pair->scale > 0.0 && pair->scale < HD_MIN_SCALE)) {
        return HD_ERR_RANGE;
    }
    pair->eps = opt->tol.touch_rel * pair->scale;
    pair->brute = (opt->flags & HD_QUERY_BRUTE_SUPPORT) != 0;
    pair->scan_both = hdi_support_scans(a) && hdi_support_scans(b);
    pair->max_iterations =
        opt->tol.max_iterations > 0 ? opt->tol.max_iterations : hdi_pair_default_iterations(pair);
    return HD_OK;
}

double hdi_pair_local_magnitude(const hdi_pair *pair)
{
    const hd_polytope *b = pair->b;
    double c[3];
    hdi_m3_mul_v(c, pair->r, b->sphere_centre);
    hdi_v3_add(c, c, pair->t);
    double mb = hdi_v3_max_abs(c) + b->sphere_radius;
    double ma = pair->a->max_abs;
    return hdi_max(hdi_max(ma, mb), hdi_v3_max_abs(pair->t));
}

double hdi_pair_local_scale(const hdi_pair *pair)
{
    return hdi_min(pair->scale, hdi_pair_local_magnitude(pair));
}

hd_pose hdi_pair_relative_pose(const hdi_pair *pair)
{
    hd_pose p;
    memcpy(p.r, pair->r, sizeof p.r);
    memcpy(p.t, pair->t, sizeof p.t);
    return p;
}

int hdi_pair_default_iterations(const hdi_pair *pair)
{
    return hdi_pair_iterations_for(pair->a->vertex_count, pair->b->vertex_count);
}

int hdi_pair_iterations_for(int vertices_a, int vertices_b)
{
    long n = (long)vertices_a + (long)vertices_b;
    long cap = 64 + 4 * n;
    return cap > 1000000000L ? 1000000000 : (int)cap;
}

void hdi_pair_b_vertex(const hdi_pair *pair, int vb, double out[3])
{
    double q[3];
    hdi_m3_mul_v(q, pair->r, pair->b->verts + 3 * vb);
    hdi_v3_add(out, q, pair->t);
}

void hdi_pair_vertices(const hdi_pair *pair, const int *ia, const int *ib, int count,
                       double (*a)[3], double (*b)[3])
{
    for (int j = 0; j < count; ++j) {
        hdi_v3_copy(a[j], pair->a->verts + 3 * ia[j]);
        hdi_pair_b_vertex(pair, ib[j], b[j]);
    }
}

void hdi_pair_dir_to_b(const hdi_pair *pair, const double d[3], double out[3])
{
    hdi_m3_tmul_v(out, pair->r, d);
}

static int support_of(const hd_polytope *p, const double d[3], int *start, int brute)
{
    int s = (start != NULL) ? *start : 0;
    int v = brute ? hdi_support_brute(p, d) : hdi_support_climb(p, d, s);
    if (start != NULL) {
        *start = v;
    }
    return v;
}

int hdi_pair_support_a(const hdi_pair *pair, const double d[3], int *start, hd_stats *stats)
{
    if (stats != NULL) {
        stats->support_calls++;
    }
    return support_of(pair->a, d, start, pair->brute);
}

int hdi_pair_support_b(const hdi_pair *pair, const double d[3], int *start, hd_stats *stats)
{
    double db[3];
    hdi_pair_dir_to_b(pair, d, db);
    if (stats != NULL) {
        stats->support_calls++;
    }
    return support_of(pair->b, db, start, pair->brute);
}

void hdi_pair_support_m(const hdi_pair *pair, const double d[3], int *start_a, int *start_b,
                        int *ia, int *ib, double w[3], hd_stats *stats)
{
    hdi_pair_support_m_from(pair, d, start_a, start_b, NULL, NULL, 0, ia, ib, w, stats);
}

void hdi_pair_point_to_world(const hdi_pair *pair, const double p[3], double out[3])
{
    double q[3];
    hdi_m3_mul_v(q, pair->pose_a, p);
    hdi_v3_add(out, q, pair->pose_at);
}

void hdi_pair_dir_to_world(const hdi_pair *pair, const double d[3], double out[3])
{
    hdi_m3_mul_v(out, pair->pose_a, d);
}

int hdi_pair_spans_volume(const hdi_pair *pair, double sine)
{
    const hd_polytope *a = pair->a, *b = pair->b;
    if (a->dim == 3 || b->dim == 3) {
        return 1;
    }
    double nb[3], d[3], x[3];
    if (a->dim == 2 && b->dim == 2) {
        hdi_m3_mul_v(nb, pair->r, b->plane_normal);
        hdi_v3_cross(x, a->plane_normal, nb);
        return hdi_v3_len(x) > sine;
    }
    if (a->dim + b->dim == 3) { /* a polygon and a segment: the segment must cross the plane */
        double n[3];
        if (a->dim == 2) {
            hdi_v3_copy(n, a->plane_normal);
            hdi_v3_sub(x, b->verts + 3, b->verts);
            hdi_m3_mul_v(d, pair->r, x);
        } else {
            hdi_m3_mul_v(n, pair->r, b->plane_normal);
            hdi_v3_sub(d, a->verts + 3, a->verts);
        }
        return fabs(hdi_v3_dot(d, n)) > sine * hdi_v3_len(d);
    }
    return 0;
}
