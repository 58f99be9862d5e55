/* Bad input across the whole public API, as one table: each row names a case, a call and the
 * set of statuses the headers allow for it. A call must return one of them -- never crash, hang,
 * read out of bounds (the suite also runs under AddressSanitizer) or return a wrong answer.
 * Where a header names no status for a case, the row expects the one the header's conventions
 * imply (core.h's status list) and carries the comment "silent".
 *
 * Rows whose call checks more than the status (an output left NULL on error, nothing written, a
 * verdict that must be right when an iteration cap still lets the query finish) return
 * HD_BAD_POSTCONDITION when that extra check fails. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"

/* Not a status of the library: the call returned the expected status but broke a promise made
 * alongside it (see the file comment). */
#define HD_BAD_POSTCONDITION ((hd_status)(HD_STATUS_COUNT + 1))

#define ONE(s) (1u << (s))
#define EITHER(s, t) (ONE(s) | ONE(t))

/* ---------------------------------------------------------------------------------------------
 * Fixtures, reset before every row */

static hd_polytope *g_cube, *g_tet, *g_far_tet, *g_big; /* g_big: 400 points on a sphere */
static double g_cube_pts[24], g_tet_pts[12], g_big_pts[3 * 400];
static double g_nan_pts[24], g_inf_pts[24], g_ninf_pts[24];
static double g_sq2d[8], g_tri2d[6], g_nan2d[8];
static int g_sentinel_storage;
#define HD_SENTINEL ((void *)&g_sentinel_storage)

static hd_polytope *g_out;
static hd_mesh_violation g_violation;
static hd_collide_result g_res;
static hd_distance_result g_dist;
static hd_gap_result g_gap;
static hd_toi_result g_toi;
static hd_ray_result g_ray;
static hd_motion g_motion;
static hd_lp_result g_lp;
static hd_collide2d_result g_r2;
static hd_distance2d_result g_d2;
static hd_options g_opt;
static hd_tolerance g_tol;
static hd_cache g_cache;
static hd_workspace *g_ws, *g_ws_out, *g_ws_small;
static bool g_inside;
static hd_verdict g_verdict;
static hd_algo g_algo;
static hd_pose g_pose, g_id;
static hd_points g_points;
static hd_parse_error g_err;
static hd_pair_reader *g_reader;
static hd_pair_data g_pair;
static bool g_done;
static double g_dir[3], g_point[3];
static char g_buf[64];

/* Files written once by the group setup into a private directory. */
static char g_tmp[256];
static char g_path_ok_xyz[300], g_path_ok_pair[300], g_path_bad_pair[300], g_path_dir_xyz[300];
static char g_path_dir_pair[300], g_path_missing[300], g_path_empty_xyz[300], g_path_noext[300];
static char g_path_nan_xyz[300], g_path_huge_off[300], g_path_trunc_obj[300], g_path_empty_pair[300];

static const int g_cube_face_sizes[6] = {4, 4, 4, 4, 4, 4};
/* the unit cube of hd_points_box (vertex i has x = i&1, y = i&2, z = i&4), faces
 * counter-clockwise seen from outside */
static const int g_cube_faces[24] = {0, 2, 3, 1, 4, 5, 7, 6, 0, 1, 5, 4,
                                     2, 6, 7, 3, 0, 4, 6, 2, 1, 3, 7, 5};
static const int g_cube_faces_open[20] = {0, 2, 3, 1, 4, 5, 7, 6, 0, 1, 5, 4, 2, 6, 7, 3, 0, 4, 6, 2};
static const int g_cube_faces_flipped[24] = {0, 1, 3, 2, 4, 6, 7, 5, 0, 4, 5, 1,
                                             2, 3, 7, 6, 0, 2, 6, 4, 1, 5, 7, 3};
static const int g_cube_faces_bad_index[24] = {0, 2, 3, 1, 4, 5, 7, 6, 0, 1, 5, 4,
                                               2, 6, 7, 3, 0, 4, 6, 2, 1, 3, 7, 8};
static const int g_cube_faces_negative[24] = {0, 2, 3, 1, 4, 5, 7, 6, 0, 1, 5, 4,
                                              2, 6, 7, 3, 0, 4, 6, 2, 1, 3, 7, -1};
static const int g_sizes_two[6] = {4, 4, 4, 4, 4, 2};
static const int g_sizes_huge[6] = {INT_MAX, INT_MAX, 4, 4, 4, 4};
static double g_dented_pts[24]; /* the cube with vertex 7 pushed inwards: not convex */

static void reset(void)
{
    g_out = HD_SENTINEL;
    memset(&g_violation, 0x5a, sizeof g_violation);
    memset(&g_res, 0, sizeof g_res);
    memset(&g_gap, 0, sizeof g_gap);
    memset(&g_toi, 0, sizeof g_toi);
    memset(&g_ray, 0, sizeof g_ray);
    memset(&g_motion, 0, sizeof g_motion);
    g_motion.pose0 = hd_pose_identity();
    memset(&g_lp, 0, sizeof g_lp);
    memset(&g_r2, 0, sizeof g_r2);
    memset(&g_dist, 0, sizeof g_dist);
    memset(&g_d2, 0, sizeof g_d2);
    g_opt = hd_options_default();
    g_tol = hd_tolerance_default();
    hd_cache_reset(&g_cache);
    g_ws_out = HD_SENTINEL;
    g_inside = false;
    g_verdict = (hd_verdict)-7;
    g_algo = (hd_algo)-7;
    g_id = hd_pose_identity();
    g_pose = hd_pose_identity();
    g_points.count = 99;
    g_points.xyz = HD_SENTINEL;
    memset(&g_err, 0, sizeof g_err);
    g_reader = HD_SENTINEL;
    memset(&g_pair, 0, sizeof g_pair);
    g_done = true;
    g_dir[0] = 1.0;
    g_dir[1] = g_dir[2] = 0.0;
    g_point[0] = g_point[1] = g_point[2] = 0.5;
    memset(g_buf, 'x', sizeof g_buf);
}

/* ---------------------------------------------------------------------------------------------
 * Helpers of the rows: a bad value planted in a fixture, then the call */

static hd_status poly_null_on_error(hd_status st)
{
    if (st == HD_OK) {
        hd_polytope_destroy(g_out);
        return HD_OK;
    }
    return g_out == NULL ? st : HD_BAD_POSTCONDITION;
}

static hd_status build(const double *xyz, int count, const hd_tolerance *tol)
{
    return poly_null_on_error(hd_polytope_build(xyz, count, tol, &g_out));
}

static hd_status mesh(const double *xyz, int nv, const int *sizes, const int *idx, int nf)
{
    return poly_null_on_error(hd_polytope_from_mesh(xyz, nv, sizes, idx, nf, NULL, &g_out,
                                                    &g_violation));
}

static hd_status mesh_bad_tol(double touch, double convex)
{
    g_tol.touch_rel = touch;
    g_tol.convex_rel = convex;
    return poly_null_on_error(hd_polytope_from_mesh(g_cube_pts, 8, g_cube_face_sizes,
                                                    g_cube_faces, 6, &g_tol, &g_out, NULL));
}

static hd_status build_bad_tol(double touch, double convex, double pose, int iters)
{
    g_tol.touch_rel = touch;
    g_tol.convex_rel = convex;
    g_tol.pose_tol = pose;
    g_tol.max_iterations = iters;
    return build(g_cube_pts, 8, &g_tol);
}

/* Poses that are not rotations, or not finite. */
enum { P_SCALED, P_SHEARED, P_REFLECTED, P_ZERO, P_NAN_R, P_INF_R, P_NAN_T, P_INF_T, P_ALMOST };

static const hd_pose *bad_pose(int kind)
{
    g_pose = hd_pose_identity();
    switch (kind) {
    case P_SCALED:
        for (int i = 0; i < 9; i += 4) {
            g_pose.r[i] = 2.0;
        }
        break;
    case P_SHEARED:
        g_pose.r[1] = 0.5;
        break;
    case P_REFLECTED:
        g_pose.r[8] = -1.0;
        break;
    case P_ZERO:
        memset(g_pose.r, 0, sizeof g_pose.r);
        break;
    case P_NAN_R:
        g_pose.r[4] = NAN;
        break;
    case P_INF_R:
        g_pose.r[0] = INFINITY;
        break;
    case P_NAN_T:
        g_pose.t[1] = NAN;
        break;
    case P_INF_T:
        g_pose.t[2] = -INFINITY;
        break;
    default: /* a rotation scaled by 1 + 1e-6: far outside the default pose tolerance */
        for (int i = 0; i < 9; i += 4) {
            g_pose.r[i] = 1.0 + 1e-6;
        }
        break;
    }
    return &g_pose;
}

static hd_status collide_pose(int side, int kind)
{
    const hd_pose *p = bad_pose(kind);
    return hd_collide(g_cube, side == 0 ? p : NULL, g_tet, side == 1 ? p : NULL, NULL, &g_res);
}

static hd_status distance_pose(int kind)
{
    return hd_distance(g_cube, NULL, g_tet, bad_pose(kind), NULL, &g_dist);
}

static hd_status gap_pose(int kind)
{
    return hd_gap(g_cube, bad_pose(kind), g_tet, NULL, g_dir, NULL, &g_gap);
}

static hd_status contains_pose(int side, int kind)
{
    const hd_pose *p = bad_pose(kind);
    return hd_contains(g_cube, side == 0 ? p : NULL, g_tet, side == 1 ? p : NULL, NULL,
                       &g_inside);
}

static hd_status inside_pose(int kind)
{
    return hd_point_inside(g_cube, bad_pose(kind), g_point, NULL, &g_verdict);
}

/* Options with one bad tolerance field or algorithm, for each query. */
enum { T_TOUCH_NAN, T_TOUCH_NEG, T_TOUCH_BIG, T_TOUCH_INF, T_CONVEX_NEG, T_CONVEX_NAN, T_POSE_NAN,
       T_POSE_NEG, T_ITER_NEG, A_NEG, A_COUNT, A_HUGE };

static const hd_options *bad_opt(int kind)
{
    g_opt = hd_options_default();
    switch (kind) {
    case T_TOUCH_NAN: g_opt.tol.touch_rel = NAN; break;
    case T_TOUCH_NEG: g_opt.tol.touch_rel = -1e-12; break;
    case T_TOUCH_BIG: g_opt.tol.touch_rel = 1e-3; break; /* documented bound: < 1e-3 */
    case T_TOUCH_INF: g_opt.tol.touch_rel = INFINITY; break;
    case T_CONVEX_NEG: g_opt.tol.convex_rel = -1e-9; break;
    case T_CONVEX_NAN: g_opt.tol.convex_rel = NAN; break;
    case T_POSE_NAN: g_opt.tol.pose_tol = NAN; break;
    case T_POSE_NEG: g_opt.tol.pose_tol = -1.0; break;
    case T_ITER_NEG: g_opt.tol.max_iterations = -1; break;
    case A_NEG: g_opt.algo = (hd_algo)-1; break;
    case A_COUNT: g_opt.algo = HD_ALGO_COUNT; break;
    default: g_opt.algo = (hd_algo)12345; break;
    }
    return &g_opt;
}

static hd_status collide_opt(int kind)
{
    return hd_collide(g_cube, NULL, g_tet, NULL, bad_opt(kind), &g_res);
}

static hd_status distance_opt(int kind)
{
    return hd_distance(g_cube, NULL, g_tet, NULL, bad_opt(kind), &g_dist);
}

static hd_status gap_opt(int kind)
{
    return hd_gap(g_cube, NULL, g_tet, NULL, g_dir, bad_opt(kind), &g_gap);
}

static hd_status contains_opt(int kind)
{
    return hd_contains(g_cube, NULL, g_tet, NULL, bad_opt(kind), &g_inside);
}

static hd_status inside_opt(int kind)
{
    return hd_point_inside(g_cube, NULL, g_point, bad_opt(kind), &g_verdict);
}

static hd_status tol_validate(int kind)
{
    return hd_tolerance_validate(&bad_opt(kind)->tol);
}

/* Iteration cap 1 / a tiny workspace / a corrupt cache: the query may stop with the documented
 * status, but when it answers, the answer must be right (g_tet is separated from g_cube by 1,
 * g_big overlaps it). */
static hd_status verdict_or(hd_status st, hd_verdict want, hd_status allowed)
{
    if (st == allowed) {
        return st;
    }
    return st != HD_OK || g_res.verdict == want ? st : HD_BAD_POSTCONDITION;
}

static hd_status capped(hd_algo algo, const hd_polytope *b, hd_verdict want)
{
    g_opt.algo = algo;
    g_opt.tol.max_iterations = 1;
    return verdict_or(hd_collide(g_big, NULL, b, NULL, &g_opt, &g_res), want,
                      HD_ERR_ITERATION_LIMIT);
}

static hd_status capped_distance(void)
{
    g_opt.tol.max_iterations = 1;
    return verdict_or(hd_distance(g_big, NULL, g_far_tet, NULL, &g_opt, &g_dist), HD_SEPARATED,
                      HD_ERR_ITERATION_LIMIT);
}

static hd_status small_workspace(const hd_polytope *b, hd_verdict want)
{
    g_opt.algo = HD_ALGO_CDDUAL;
    g_opt.workspace = g_ws_small;
    g_opt.flags = HD_QUERY_RECORD_PATH;
    hd_status st = verdict_or(hd_collide(g_big, NULL, b, NULL, &g_opt, &g_res), want,
                              HD_ERR_WORKSPACE_FULL);
    const hd_path_step *steps = HD_SENTINEL;
    int n = hd_workspace_path(g_ws_small, &steps);
    return n < 0 || (n > 0 && steps == NULL) ? HD_BAD_POSTCONDITION : st;
}

/* hd_gap has no fallback: a workspace too small is its documented status. */
static hd_status gap_small_workspace(void)
{
    static const double s[3] = {1, 0.25, 0};
    g_opt.workspace = g_ws_small;
    hd_gap_result g;
    return hd_gap(g_big, NULL, g_tet, NULL, s, &g_opt, &g);
}

static hd_status corrupt_cache(hd_algo algo, const hd_polytope *b, hd_verdict want)
{
    hd_cache c = {1,       1000,   {-5, 1 << 30, INT_MAX, INT_MIN}, {INT_MIN, -1, 400, 9999}, -42,
                  1 << 28, 123456, {NAN, HUGE_VAL, -0.0}};
    g_cache = c;
    g_opt.algo = algo;
    g_opt.cache = &g_cache;
    hd_status st = hd_collide(g_big, NULL, b, NULL, &g_opt, &g_res);
    if (st != HD_OK || g_res.verdict != want ||
        hd_certificate_check(g_big, NULL, b, NULL, g_res.verdict, g_res.eps, &g_res.cert) != HD_OK) {
        return st != HD_OK ? st : HD_BAD_POSTCONDITION;
    }
    st = hd_distance(g_big, NULL, b, NULL, &g_opt, &g_dist); /* the cache as the last query left it */
    return st == HD_OK && g_dist.verdict != want ? HD_BAD_POSTCONDITION : st;
}

static hd_status unknown_flags(hd_algo algo)
{
    g_opt.algo = algo;
    g_opt.flags = 0xfff0u | HD_QUERY_RECORD_PATH; /* unknown bits; path without a workspace */
    return verdict_or(hd_collide(g_cube, NULL, g_tet, NULL, &g_opt, &g_res), HD_SEPARATED,
                      HD_OK);
}

/* Queries on unit cubes scaled by s (finite, however extreme): the cube against a copy moved by
 * 2 s (apart by s) and by s / 2 (overlapping by s / 2). Every query either returns an error
 * status or the right verdict with a certificate that checks, and the right distance to 1e-9.
 * The documents bound no coordinate except by finiteness. */
static hd_status extreme_query(const hd_polytope *p, const hd_polytope *q, double shift, double s)
{
    hd_verdict want = shift > 1.0 ? HD_SEPARATED : HD_INTERSECTING;
    for (int algo = 0; algo < HD_ALGO_COUNT; ++algo) {
        g_opt.algo = (hd_algo)algo;
        hd_status st = hd_collide(p, NULL, q, NULL, &g_opt, &g_res);
        if (st == HD_OK && (g_res.verdict != want ||
                            hd_certificate_check(p, NULL, q, NULL, g_res.verdict, g_res.eps, &g_res.cert) != HD_OK)) {
            printf("  scale %g, shift %g s: %s answers %s\n", s, shift,
                   hd_algo_str((hd_algo)algo), hd_verdict_str(g_res.verdict));
            return HD_BAD_POSTCONDITION;
        }
    }
    hd_status st = hd_distance(p, NULL, q, NULL, NULL, &g_dist);
    double want_d = shift > 1.0 ? (shift - 1.0) * s : 0.0;
    if (st == HD_OK && !(fabs(g_dist.distance - want_d) <= 1e-9 * s)) {
        printf("  scale %g, shift %g s: distance %g, expected %g\n", s, shift, g_dist.distance,
               want_d);
        return HD_BAD_POSTCONDITION;
    }
    return HD_OK;
}

static hd_status extreme_scale(double s)
{
    double x[24], y[24];
    for (int i = 0; i < 24; ++i) {
        x[i] = g_cube_pts[i] * s;
    }
    hd_polytope *p = NULL, *q = NULL;
    hd_status st = hd_polytope_build(x, 8, NULL, &p);
    for (int k = 0; k < 2 && st == HD_OK; ++k) {
        double shift = k ? 2.0 : 0.5;
        for (int i = 0; i < 24; ++i) {
            y[i] = x[i] + (i % 3 == 0 ? shift * s : i % 3 == 1 ? 0.25 * s : -0.125 * s);
        }
        st = hd_polytope_build(y, 8, NULL, &q);
        if (st == HD_OK) {
            st = extreme_query(p, q, shift, s);
        }
        hd_polytope_destroy(q);
    }
    hd_polytope_destroy(p);
    return st == HD_BAD_POSTCONDITION ? st : HD_OK; /* an error status is an answer */
}

/* Finite points of very different magnitudes: the build answers with an error status or with
 * a polytope that passes its own full check and keeps the extreme points. */
static hd_status build_mixed(double big, double tiny)
{
    double x[9] = {0, 0, 0, big, 0, 0, 0, tiny, 0};
    hd_polytope *p = NULL;
    hd_status st = hd_polytope_build(x, 3, NULL, &p);
    if (st != HD_OK) {
        return HD_OK; /* an error status is an answer */
    }
    double lo[3], hi[3];
    hd_polytope_bounds(p, lo, hi);
    int ok = hd_polytope_validate(p, NULL) == HD_OK && hi[0] == big && lo[0] == 0.0;
    hd_polytope_destroy(p);
    return ok ? HD_OK : HD_BAD_POSTCONDITION;
}

static hd_status gap_direction(double x, double y, double z)
{
    g_dir[0] = x;
    g_dir[1] = y;
    g_dir[2] = z;
    return hd_gap(g_cube, NULL, g_far_tet, NULL, g_dir, NULL, &g_gap);
}

/* A tiny or huge but finite direction is a direction: normalized, the answer as for (1, 0, 0). */
static hd_status gap_scaled_direction(double len)
{
    hd_gap_result ref;
    hd_status st = gap_direction(1.0, 0.0, 0.0);
    ref = g_gap;
    if (st != HD_OK) {
        return st;
    }
    st = gap_direction(len, 0.0, 0.0);
    if (st == HD_OK && (g_gap.contact != ref.contact || g_gap.distance != ref.distance ||
                        g_gap.direction[0] != 1.0)) {
        return HD_BAD_POSTCONDITION;
    }
    return st;
}

static hd_status inside_point(double x, double y, double z)
{
    g_point[0] = x;
    g_point[1] = y;
    g_point[2] = z;
    return hd_point_inside(g_cube, NULL, g_point, NULL, &g_verdict);
}

static hd_status quaternion(double w, double x, double y, double z, double t)
{
    double q[4] = {w, x, y, z}, tt[3] = {t, 0, 0};
    return hd_pose_from_quaternion(q, tt, &g_pose);
}

/* A nonzero finite quaternion is normalized whatever its magnitude: the identity rotation. */
static hd_status quaternion_magnitude(double w)
{
    hd_status st = quaternion(w, 0, 0, 0, 0);
    if (st == HD_OK && (g_pose.r[0] != 1.0 || g_pose.r[4] != 1.0 || g_pose.r[8] != 1.0)) {
        return HD_BAD_POSTCONDITION;
    }
    return st;
}

static hd_status pose_validate(int kind)
{
    return hd_pose_validate(bad_pose(kind), 0.0);
}

static hd_status pose_validate_tol(double tol)
{
    double c = cos(0.3), s = sin(0.3);
    hd_pose p = {{c, -s, 0, s, c, 0, 0, 0, 1}, {1, 2, 3}};
    return hd_pose_validate(&p, tol); /* a true rotation: any tolerance (or the default) takes it */
}

/* Certificates: a genuine result (cube vs far tetrahedron: separated) with one field forged. */
enum { C_VERDICT, C_EPS_NAN, C_EPS_NEG, C_EPS_HUGE, C_NORMAL_ZERO, C_NORMAL_NAN, C_NORMAL_LONG,
       C_GAP_NAN, C_GAP_INF, C_GAP_SMALL, C_OFFSET_WRONG, C_FLIP };

static hd_status forged_separated(int kind)
{
    hd_status st = hd_collide(g_cube, NULL, g_far_tet, NULL, NULL, &g_res);
    if (st != HD_OK || g_res.verdict != HD_SEPARATED) {
        return HD_BAD_POSTCONDITION;
    }
    hd_certificate *c = &g_res.cert;
    switch (kind) {
    case C_VERDICT: g_res.verdict = (hd_verdict)7; break;
    case C_EPS_NAN: g_res.eps = NAN; break;
    case C_EPS_NEG: g_res.eps = -1.0; break;
    case C_EPS_HUGE: /* claims a band wider than any valid touch_rel (< 1e-3) allows */
        g_res.eps = 1e300;
        g_res.verdict = HD_TOUCHING;
        c->has_point = 1;
        c->on_a.count = c->on_b.count = 1;
        c->on_a.index[0] = c->on_b.index[0] = 0;
        c->on_a.weight[0] = c->on_b.weight[0] = 1.0;
        break;
    case C_NORMAL_ZERO: c->normal[0] = c->normal[1] = c->normal[2] = 0.0; break;
    case C_NORMAL_NAN: c->normal[1] = NAN; break;
    case C_NORMAL_LONG: for (int k = 0; k < 3; ++k) c->normal[k] *= 3.0; break;
    case C_GAP_NAN: c->gap = NAN; break;
    case C_GAP_INF: c->gap = INFINITY; break;
    case C_GAP_SMALL: c->gap = 0.0; break;
    case C_OFFSET_WRONG: c->offset += 0.75; break;
    default: /* the plane reversed: A on the wrong side */
        for (int k = 0; k < 3; ++k) c->normal[k] = -c->normal[k];
        c->offset = -c->offset;
        break;
    }
    return hd_certificate_check(g_cube, NULL, g_far_tet, NULL, g_res.verdict, g_res.eps, &g_res.cert);
}

enum { W_COUNT0, W_COUNT9, W_INDEX_NEG, W_INDEX_BIG, W_WEIGHT_NEG, W_WEIGHT_NAN, W_SUM, W_DEPTH,
       W_DEPTH_NAN, W_POINT_FAR, W_NO_POINT };

static hd_status forged_intersecting(int kind)
{
    hd_status st = hd_collide(g_big, NULL, g_tet, NULL, NULL, &g_res);
    if (st != HD_OK || g_res.verdict != HD_INTERSECTING) {
        return HD_BAD_POSTCONDITION;
    }
    hd_certificate *c = &g_res.cert;
    switch (kind) {
    case W_COUNT0: c->on_a.count = 0; break;
    case W_COUNT9: c->on_b.count = HD_COMBINATION_MAX + 1; break;
    case W_INDEX_NEG: c->on_a.index[0] = -1; break;
    case W_INDEX_BIG: c->on_b.index[0] = 4; break;
    case W_WEIGHT_NEG: c->on_a.weight[0] = -0.25; break;
    case W_WEIGHT_NAN: c->on_b.weight[0] = NAN; break;
    case W_SUM: for (int k = 0; k < c->on_a.count; ++k) c->on_a.weight[k] *= 0.5; break;
    case W_DEPTH: c->depth_bound = 0.0; break;
    case W_DEPTH_NAN: c->depth_bound = NAN; break;
    case W_POINT_FAR: c->point[0] += 0.5; break;
    default: c->has_point = 0; break;
    }
    return hd_certificate_check(g_big, NULL, g_tet, NULL, g_res.verdict, g_res.eps, &g_res.cert);
}

static hd_status certificate_genuine(void)
{
    hd_status st = hd_collide(g_cube, NULL, g_far_tet, NULL, NULL, &g_res);
    return st != HD_OK ? HD_BAD_POSTCONDITION
                       : hd_certificate_check(g_cube, NULL, g_far_tet, NULL, g_res.verdict, g_res.eps, &g_res.cert);
}

/* A genuine certificate checked against poses that are not finite: it cannot hold. */
static hd_status certificate_bad_pose(int kind)
{
    hd_status st = hd_collide(g_cube, NULL, g_far_tet, NULL, NULL, &g_res);
    if (st != HD_OK) {
        return HD_BAD_POSTCONDITION;
    }
    return hd_certificate_check(g_cube, NULL, g_far_tet, bad_pose(kind), g_res.verdict, g_res.eps, &g_res.cert);
}

/* 2D certificates: a genuine separated result for the square and a far triangle, forged. */
static hd_status forged2d(int kind)
{
    hd_status st = hd_collide2d(g_sq2d, 4, g_tri2d, 3, NULL, &g_r2);
    if (st != HD_OK || g_r2.verdict != HD_SEPARATED) {
        return HD_BAD_POSTCONDITION;
    }
    switch (kind) {
    case C_VERDICT: g_r2.verdict = (hd_verdict)-3; break;
    case C_EPS_NAN: g_r2.eps = NAN; break;
    case C_NORMAL_ZERO: g_r2.cert.normal[0] = g_r2.cert.normal[1] = 0.0; break;
    case C_GAP_SMALL: g_r2.cert.gap = -1.0; break;
    case C_FLIP: g_r2.cert.normal[0] = -g_r2.cert.normal[0]; break;
    default: g_r2.eps = 1e300; g_r2.verdict = HD_TOUCHING; g_r2.cert.has_point = 1;
        g_r2.cert.on_a.count = g_r2.cert.on_b.count = 1;
        g_r2.cert.on_a.index[0] = g_r2.cert.on_b.index[0] = 0;
        g_r2.cert.on_a.weight[0] = g_r2.cert.on_b.weight[0] = 1.0;
        break;
    }
    return hd_certificate_check2d(g_sq2d, 4, g_tri2d, 3, g_r2.verdict, g_r2.eps, &g_r2.cert);
}

/* The genuine 2D certificate against points one of which is NaN: it cannot hold. */
static hd_status certificate2d_nan_points(void)
{
    hd_status st = hd_collide2d(g_sq2d, 4, g_tri2d, 3, NULL, &g_r2);
    if (st != HD_OK) {
        return HD_BAD_POSTCONDITION;
    }
    return hd_certificate_check2d(g_nan2d, 4, g_tri2d, 3, g_r2.verdict, g_r2.eps, &g_r2.cert);
}

static hd_status tol2d(int kind)
{
    return hd_collide2d(g_sq2d, 4, g_tri2d, 3, &bad_opt(kind)->tol, &g_r2);
}

static hd_status capped2d(void)
{
    g_tol.max_iterations = 1;
    hd_status st = hd_distance2d(g_sq2d, 4, g_tri2d, 3, &g_tol, &g_d2);
    return st == HD_OK && g_d2.verdict != HD_SEPARATED ? HD_BAD_POSTCONDITION : st;
}

/* LP raw arrays. */
static hd_status lp(int dim, const double *s, int ns, const double *t, int nt)
{
    return hd_lp_intersect(dim, s, ns, t, nt, NULL, &g_lp, NULL, NULL);
}

static hd_status lp_tol(int kind)
{
    return hd_lp_intersect(3, g_cube_pts, 8, g_tet_pts, 4, &bad_opt(kind)->tol, &g_lp, NULL,
                           NULL);
}

/* Empty sets never collide: separated, no plane, infinite gap. */
static hd_status lp_empty(const double *s, int ns, const double *t, int nt)
{
    hd_status st = lp(3, s, ns, t, nt);
    if (st == HD_OK && (g_lp.verdict != HD_SEPARATED || !isinf(g_lp.gap) || !isinf(g_lp.f_min))) {
        return HD_BAD_POSTCONDITION;
    }
    return st;
}

static hd_status lp_capped(void)
{
    g_tol.max_iterations = 1;
    hd_status st = hd_lp_intersect(3, g_big_pts, 400, g_tet_pts, 4, &g_tol, &g_lp, NULL, NULL);
    return st == HD_OK && g_lp.verdict != HD_INTERSECTING ? HD_BAD_POSTCONDITION : st;
}

static hd_status lp_contains(int dim, const double *s, int ns, const double *t, int nt)
{
    return hd_lp_contains(dim, s, ns, t, nt, NULL, &g_inside);
}

static hd_status lp_contains_empty(const double *s, int ns, const double *t, int nt, int want)
{
    hd_status st = lp_contains(3, s, ns, t, nt);
    return st == HD_OK && g_inside != want ? HD_BAD_POSTCONDITION : st;
}

static hd_status lp_inside(int dim, const double *s, int ns, const double *p)
{
    return hd_lp_point_inside(dim, s, ns, p, NULL, &g_verdict);
}

static hd_status lp_inside_empty(void)
{
    hd_status st = lp_inside(3, NULL, 0, g_point);
    return st == HD_OK && g_verdict != HD_SEPARATED ? HD_BAD_POSTCONDITION : st;
}

/* Workspaces. */
static hd_status workspace(int capacity)
{
    hd_status st = hd_workspace_create(capacity, &g_ws_out);
    if (st == HD_OK) {
        hd_workspace_destroy(g_ws_out);
        return st;
    }
    return g_ws_out == NULL ? st : HD_BAD_POSTCONDITION;
}

/* hd_workspace_capacity_for / hd_workspace_create_for: NULL polytopes or a bad tolerance give the
 * status and leave *capacity 0 and *out NULL; a valid call gives a usable size. */
static hd_status capacity_for(const hd_polytope *a, const hd_polytope *b, int bad_tol)
{
    hd_tolerance tol = hd_tolerance_default();
    tol.touch_rel = bad_tol ? -1.0 : tol.touch_rel;
    int capacity = 7;
    hd_status st = hd_workspace_capacity_for(a, b, &tol, &capacity);
    if ((st == HD_OK) != (capacity >= 16) || (st != HD_OK && capacity != 0)) {
        return HD_BAD_POSTCONDITION;
    }
    hd_status st2 = hd_workspace_create_for(a, b, &tol, &g_ws_out);
    int made = g_ws_out != NULL && hd_workspace_capacity(g_ws_out) == capacity;
    hd_workspace_destroy(g_ws_out);
    g_ws_out = NULL;
    return st2 != st || (st == HD_OK) != made ? HD_BAD_POSTCONDITION : st;
}

static hd_status workspace_path_null(void)
{
    const hd_path_step *steps = HD_SENTINEL;
    int n = hd_workspace_path(NULL, &steps);
    int m = hd_workspace_path(g_ws, NULL);
    return n == 0 && steps == NULL && m >= 0 ? HD_OK : HD_BAD_POSTCONDITION;
}

/* Functions without a status: NULL must be harmless and give the documented neutral value. */
static hd_status null_no_status(void)
{
    double v[3] = {7, 7, 7}, r = 7;
    hd_polytope_destroy(NULL);
    hd_workspace_destroy(NULL);
    if (hd_workspace_capacity(NULL) != 0) {
        return HD_BAD_POSTCONDITION;
    }
    hd_pair_reader_close(NULL);
    hd_points_free(NULL);
    hd_cache_reset(NULL);
    hd_polytope_bounds(NULL, v, v);
    hd_polytope_sphere(NULL, v, &r);
    hd_polytope_interior(NULL, 0, v, &r);
    int ok = hd_polytope_vertex_count(NULL) == 0 && hd_polytope_edge_count(NULL) == 0 &&
             hd_polytope_face_count(NULL) == 0 && hd_polytope_vertices(NULL) == NULL &&
             hd_polytope_face(NULL, 0, v, &r, NULL) == 0 && v[0] == 7 && r == 7;
    return ok ? HD_OK : HD_BAD_POSTCONDITION;
}

/* Accessors given NULL output pointers or out-of-range indices. */
static hd_status accessor_ranges(void)
{
    double n[3], off;
    const int *loop = HD_SENTINEL;
    int vf[2];
    int ok = hd_polytope_face(g_cube, -1, n, &off, &loop) == 0 &&
             hd_polytope_face(g_cube, hd_polytope_face_count(g_cube), n, &off, &loop) == 0 &&
             hd_polytope_face(g_cube, INT_MAX, NULL, NULL, NULL) == 0 &&
             hd_polytope_face(g_cube, 0, NULL, NULL, NULL) >= 3 &&
             hd_polytope_edge(g_cube, -1, vf, vf) == HD_ERR_INVALID_ARG &&
             hd_polytope_edge(g_cube, hd_polytope_edge_count(g_cube), vf, vf) == HD_ERR_INVALID_ARG &&
             hd_polytope_edge(g_cube, INT_MIN, vf, vf) == HD_ERR_INVALID_ARG &&
             hd_polytope_edge(g_cube, 0, NULL, NULL) == HD_OK;
    hd_polytope_bounds(g_cube, NULL, NULL);
    hd_polytope_sphere(g_cube, NULL, NULL);
    hd_polytope_interior(g_cube, INT_MIN, NULL, NULL);
    hd_polytope_interior(g_cube, INT_MAX, n, &off);
    ok = ok && off >= 0.0 && n[0] > 0.0 && n[0] < 1.0; /* an interior point of the unit cube */
    return ok ? HD_OK : HD_BAD_POSTCONDITION;
}

static hd_status strings_out_of_range(void)
{
    const char *s[] = {hd_status_str((hd_status)-1), hd_status_str(HD_STATUS_COUNT),
                       hd_status_str((hd_status)INT_MAX), hd_verdict_str((hd_verdict)-1),
                       hd_verdict_str((hd_verdict)3), hd_verdict_str((hd_verdict)INT_MAX),
                       hd_algo_str((hd_algo)-1), hd_algo_str(HD_ALGO_COUNT),
                       hd_algo_str((hd_algo)INT_MIN), hd_version_string()};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; ++i) {
        if (s[i] == NULL || s[i][0] == '\0') {
            return HD_BAD_POSTCONDITION;
        }
    }
    return HD_OK;
}

static hd_status algo_parse(const char *name)
{
    hd_status st = hd_algo_parse(name, &g_algo);
    return st != HD_OK && g_algo != (hd_algo)-7 ? HD_BAD_POSTCONDITION : st;
}

/* hd_parse_error_format: NULL error, NULL or tiny buffers, fields never NUL-terminated. */
static hd_status error_format(int kind)
{
    hd_parse_error e;
    memset(&e, 'y', sizeof e);
    e.line = kind == 3 ? INT_MIN : 12;
    switch (kind) {
    case 0: hd_parse_error_format(NULL, g_buf, (int)sizeof g_buf); break;
    case 1: hd_parse_error_format(&e, NULL, 10); return HD_OK;
    case 2: hd_parse_error_format(&e, g_buf, 0); return g_buf[0] == 'x' ? HD_OK : HD_BAD_POSTCONDITION;
    case 4: hd_parse_error_format(&e, g_buf, -5); return g_buf[0] == 'x' ? HD_OK : HD_BAD_POSTCONDITION;
    case 5: hd_parse_error_format(&e, g_buf, 1); break;
    default: hd_parse_error_format(&e, g_buf, (int)sizeof g_buf); break;
    }
    return memchr(g_buf, '\0', sizeof g_buf) != NULL ? HD_OK : HD_BAD_POSTCONDITION;
}

/* I/O: points are {0, NULL} after every error and err names the file. */
static hd_status read_points(const char *path, hd_format format)
{
    hd_status st = hd_read_points(path, format, &g_points, &g_err);
    if (st == HD_OK) {
        hd_points_free(&g_points);
        return st;
    }
    if (g_points.count != 0 || g_points.xyz != NULL) {
        return HD_BAD_POSTCONDITION;
    }
    if (path != NULL && strcmp(path, "-") != 0 && strstr(g_err.file, "hedra-bad") == NULL) {
        return HD_BAD_POSTCONDITION; /* the message must name the file */
    }
    return st;
}

static hd_status read_points_null_out(void)
{
    return hd_read_points(g_path_ok_xyz, HD_FORMAT_AUTO, NULL, &g_err);
}

static hd_status read_points_null_err(const char *path)
{
    hd_status st = hd_read_points(path, HD_FORMAT_AUTO, &g_points, NULL);
    hd_points_free(&g_points);
    return st;
}

static hd_status read_stream(FILE *fp, const char *name, hd_format format, int null_out)
{
    hd_status st = hd_read_points_stream(fp, name, format, null_out ? NULL : &g_points, &g_err);
    if (st == HD_OK) {
        hd_points_free(&g_points);
    } else if (!null_out && (g_points.count != 0 || g_points.xyz != NULL)) {
        return HD_BAD_POSTCONDITION;
    }
    return st;
}

static hd_status read_stream_text(const char *text, const char *name, hd_format format)
{
    FILE *fp = tmpfile();
    if (fp == NULL) {
        return HD_BAD_POSTCONDITION;
    }
    fputs(text, fp);
    rewind(fp);
    hd_status st = read_stream(fp, name, format, 0);
    fclose(fp);
    return st;
}

/* Writing to a stream opened for reading only, or to /dev/full. */
static hd_status write_off_to(const char *path, const char *mode)
{
    FILE *fp = fopen(path, mode);
    if (fp == NULL) {
        return HD_BAD_POSTCONDITION;
    }
    setvbuf(fp, NULL, _IONBF, 0); /* errors show at the write, not at a later flush */
    hd_status st = hd_write_off(fp, g_cube);
    if (fflush(fp) != 0 && st == HD_OK) {
        st = HD_BAD_POSTCONDITION; /* the error was only visible at the flush: not reported */
    }
    fclose(fp);
    return st;
}

static hd_status write_pair(const char *name, const double *a, int na, const double *b, int nb)
{
    FILE *fp = tmpfile();
    if (fp == NULL) {
        return HD_BAD_POSTCONDITION;
    }
    hd_status st = hd_write_pair(fp, name, a, na, b, nb);
    long written = ftell(fp);
    fclose(fp);
    return st != HD_OK && written != 0 ? HD_BAD_POSTCONDITION : st; /* nothing written on error */
}

static hd_status write_pair_null_fp(void)
{
    return hd_write_pair(NULL, "x", g_cube_pts, 8, g_tet_pts, 4);
}

static hd_status write_pair_to_full(void)
{
    FILE *fp = fopen("/dev/full", "w");
    if (fp == NULL) {
        return HD_BAD_POSTCONDITION;
    }
    setvbuf(fp, NULL, _IONBF, 0);
    hd_status st = hd_write_pair(fp, "full", g_cube_pts, 8, g_tet_pts, 4);
    fclose(fp);
    return st;
}

static char g_name_long[HD_PAIR_NAME_MAX + 2], g_name_max[HD_PAIR_NAME_MAX + 1];

/* Pair reader. */
static hd_status reader_open(const char *path, int null_out)
{
    hd_status st = hd_pair_reader_open(path, null_out ? NULL : &g_reader, &g_err);
    if (st == HD_OK) {
        hd_pair_reader_close(g_reader);
        return st;
    }
    return null_out || g_reader == NULL ? st : HD_BAD_POSTCONDITION;
}

/* Opens path, reads every pair; the first error (or HD_OK at a clean end). A second call after
 * an error must repeat it (sticky). */
static hd_status reader_all(const char *path)
{
    hd_pair_reader *r = NULL;
    hd_status st = hd_pair_reader_open(path, &r, &g_err);
    if (st != HD_OK) {
        return r == NULL ? st : HD_BAD_POSTCONDITION;
    }
    bool done = false;
    int guard = 0;
    while (st == HD_OK && !done && guard++ < 1000) {
        st = hd_pair_reader_next(r, &g_pair, &done, &g_err);
    }
    if (st != HD_OK) {
        bool again_done = true;
        hd_status again = hd_pair_reader_next(r, &g_pair, &again_done, NULL);
        if (again != st || again_done != 0 || g_pair.name != NULL || g_err.file[0] == '\0') {
            st = HD_BAD_POSTCONDITION;
        }
    } else if (!done) {
        st = HD_BAD_POSTCONDITION; /* more than 1000 pairs from a three-pair file */
    }
    hd_pair_reader_close(r);
    return st;
}

static hd_status reader_next_null(int which)
{
    hd_pair_reader *r = NULL;
    if (hd_pair_reader_open(g_path_ok_pair, &r, NULL) != HD_OK) {
        return HD_BAD_POSTCONDITION;
    }
    hd_status st = hd_pair_reader_next(which == 0 ? NULL : r, which == 1 ? NULL : &g_pair,
                                       which == 2 ? NULL : &g_done, &g_err);
    hd_pair_reader_close(r);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * motion.h: time of impact, shape cast, ray cast; scene.h's ray query */

/* A body at rest at the identity. */
static hd_motion still_motion(void)
{
    hd_motion m;
    memset(&m, 0, sizeof m);
    m.pose0 = hd_pose_identity();
    return m;
}

static hd_status toi_pose(int side, int kind)
{
    hd_motion good = still_motion(), bad = still_motion();
    bad.pose0 = *bad_pose(kind);
    return hd_toi(g_cube, side == 0 ? &bad : &good, g_tet, side == 1 ? &bad : &good, NULL,
                  &g_toi);
}

/* A twist field not finite: 0 v, 1 w, 2 c. */
static hd_status toi_twist(int field, double value)
{
    hd_motion good = still_motion(), bad = still_motion();
    double *f = field == 0 ? bad.v : field == 1 ? bad.w : bad.c;
    f[1] = value;
    return hd_toi(g_cube, &good, g_tet, &bad, NULL, &g_toi);
}

static hd_status toi_opt(int kind)
{
    hd_toi_options o = hd_toi_options_default();
    o.query = *bad_opt(kind);
    hd_motion m = still_motion();
    return hd_toi(g_cube, &m, g_tet, &m, &o, &g_toi);
}

static hd_status toi_time_tol(double tol)
{
    hd_toi_options o = hd_toi_options_default();
    o.time_tol = tol;
    hd_motion m = still_motion();
    return hd_toi(g_cube, &m, g_tet, &m, &o, &g_toi);
}

/* The cap reached: a spinning approach with one query allowed; lo must stay in [0, 1). */
static hd_status toi_capped(void)
{
    hd_toi_options o = hd_toi_options_default();
    o.max_iterations = 1;
    hd_motion a = still_motion(), b = still_motion();
    b.pose0.t[0] = b.c[0] = 5.0;
    b.v[0] = -4.0;
    b.w[2] = 40.0;
    hd_status st = hd_toi(g_cube, &a, g_tet, &b, &o, &g_toi);
    if (st == HD_ERR_ITERATION_LIMIT && !(g_toi.lo >= 0.0 && g_toi.lo < 1.0 && !g_toi.hit)) {
        return HD_BAD_POSTCONDITION;
    }
    return st;
}

static hd_status toi_far(void)
{
    hd_motion m = still_motion(), far = still_motion();
    far.v[0] = 1e300;
    far.c[0] = 1e300;
    return hd_toi(g_cube, &m, g_tet, &far, NULL, &g_toi);
}

static hd_status cast_translation(double x)
{
    double t[3] = {x, 0.0, 0.0};
    return hd_shape_cast(g_cube, NULL, g_tet, NULL, t, NULL, &g_toi);
}

static hd_status motion_from_bad_pose(int kind)
{
    hd_pose id = hd_pose_identity();
    return hd_motion_from_poses(&id, bad_pose(kind), &g_motion);
}

static hd_status motion_pose_at(double t)
{
    hd_motion m = still_motion();
    hd_pose p;
    return hd_motion_pose(&m, t, &p);
}

static hd_status ray_args(double ox, double dx, double length)
{
    double o[3] = {ox, 0.5, 0.5}, d[3] = {dx, 0.0, 0.0};
    return hd_ray_cast(g_cube, NULL, o, d, length, NULL, &g_ray);
}

static hd_status ray_pose(int kind)
{
    double o[3] = {5, 0.5, 0.5}, d[3] = {-1, 0, 0};
    return hd_ray_cast(g_cube, bad_pose(kind), o, d, HUGE_VAL, NULL, &g_ray);
}

static hd_status ray_opt(int kind)
{
    double o[3] = {5, 0.5, 0.5}, d[3] = {-1, 0, 0};
    return hd_ray_cast(g_cube, NULL, o, d, HUGE_VAL, bad_opt(kind), &g_ray);
}

static hd_status ray_segment(void)
{
    double seg[6] = {0, 0, 0, 1, 0, 0}, o[3] = {0.5, 1, 0}, d[3] = {0, -1, 0};
    hd_polytope *s = hd_test_build(seg, 2);
    hd_status st = hd_ray_cast(s, NULL, o, d, HUGE_VAL, NULL, &g_ray);
    hd_polytope_destroy(s);
    return st;
}

static hd_status scene_ray(double dx, double length, int capacity)
{
    hd_scene *sc = NULL;
    hd_status st = hd_scene_create(NULL, &sc);
    int id, count = -1;
    double o[3] = {5, 0.5, 0.5}, d[3] = {dx, 0, 0};
    if (st == HD_OK) {
        st = hd_scene_add(sc, g_cube, NULL, NULL, &id);
    }
    if (st == HD_OK) {
        st = hd_scene_raycast(sc, o, d, length, true, NULL, capacity, &count);
    }
    if (st == HD_OK && count != 1) {
        st = HD_BAD_POSTCONDITION;
    }
    hd_scene_destroy(sc);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * The table */

#define HD_BAD_CASES(X)                                                                          \
    /* core.h: strings, poses, tolerances */                                                     \
    X(strings_out_of_range, ONE(HD_OK), strings_out_of_range())                                  \
    X(algo_parse_null_name, ONE(HD_ERR_NULL), algo_parse(NULL))                                  \
    X(algo_parse_null_out, ONE(HD_ERR_NULL), hd_algo_parse("gjk", NULL))                         \
    X(algo_parse_empty, ONE(HD_ERR_INVALID_ARG), algo_parse(""))                                 \
    X(algo_parse_upper_case, ONE(HD_ERR_INVALID_ARG), algo_parse("GJK"))                         \
    X(algo_parse_prefix, ONE(HD_ERR_INVALID_ARG), algo_parse("gj"))                              \
    X(algo_parse_trailing, ONE(HD_ERR_INVALID_ARG), algo_parse("lp\n"))                          \
    X(quat_null_q, ONE(HD_ERR_NULL), hd_pose_from_quaternion(NULL, g_dir, &g_pose))              \
    X(quat_null_t, ONE(HD_ERR_NULL), hd_pose_from_quaternion(g_cube_pts, NULL, &g_pose))              \
    X(quat_null_out, ONE(HD_ERR_NULL), hd_pose_from_quaternion(g_cube_pts, g_dir, NULL))         \
    X(quat_zero, ONE(HD_ERR_BAD_POSE), quaternion(0, 0, 0, 0, 0))                                \
    X(quat_nan, ONE(HD_ERR_BAD_POSE), quaternion(1, NAN, 0, 0, 0))                               \
    X(quat_inf, ONE(HD_ERR_BAD_POSE), quaternion(INFINITY, 0, 0, 0, 0))                          \
    X(quat_nan_translation, ONE(HD_ERR_NONFINITE), quaternion(1, 0, 0, 0, NAN))                   \
    X(quat_inf_translation, ONE(HD_ERR_NONFINITE), quaternion(1, 0, 0, 0, -INFINITY))             \
    X(quat_tiny_nonzero, ONE(HD_OK), quaternion_magnitude(1e-170))                               \
    X(quat_huge_finite, ONE(HD_OK), quaternion_magnitude(1e170))                                 \
    X(pose_validate_null, ONE(HD_ERR_NULL), hd_pose_validate(NULL, 0))                           \
    X(pose_validate_scaled, ONE(HD_ERR_BAD_POSE), pose_validate(P_SCALED))                       \
    X(pose_validate_sheared, ONE(HD_ERR_BAD_POSE), pose_validate(P_SHEARED))                     \
    X(pose_validate_reflected, ONE(HD_ERR_BAD_POSE), pose_validate(P_REFLECTED))                 \
    X(pose_validate_zero, ONE(HD_ERR_BAD_POSE), pose_validate(P_ZERO))                           \
    X(pose_validate_almost, ONE(HD_ERR_BAD_POSE), pose_validate(P_ALMOST))                       \
    X(pose_validate_nan_r, ONE(HD_ERR_NONFINITE), pose_validate(P_NAN_R))                        \
    X(pose_validate_inf_r, ONE(HD_ERR_NONFINITE), pose_validate(P_INF_R))                        \
    X(pose_validate_nan_t, ONE(HD_ERR_NONFINITE), pose_validate(P_NAN_T))                        \
    X(pose_validate_inf_t, ONE(HD_ERR_NONFINITE), pose_validate(P_INF_T))                        \
    X(pose_validate_tol_nan, ONE(HD_OK), pose_validate_tol(NAN)) /* silent: default */           \
    X(pose_validate_tol_neg, ONE(HD_OK), pose_validate_tol(-1.0))                                \
    X(tolerance_null, ONE(HD_ERR_NULL), hd_tolerance_validate(NULL))                             \
    X(tolerance_touch_nan, ONE(HD_ERR_INVALID_ARG), tol_validate(T_TOUCH_NAN))                   \
    X(tolerance_touch_negative, ONE(HD_ERR_INVALID_ARG), tol_validate(T_TOUCH_NEG))              \
    X(tolerance_touch_1em3, ONE(HD_ERR_INVALID_ARG), tol_validate(T_TOUCH_BIG))                  \
    X(tolerance_touch_inf, ONE(HD_ERR_INVALID_ARG), tol_validate(T_TOUCH_INF))                   \
    X(tolerance_convex_negative, ONE(HD_ERR_INVALID_ARG), tol_validate(T_CONVEX_NEG))            \
    X(tolerance_convex_nan, ONE(HD_ERR_INVALID_ARG), tol_validate(T_CONVEX_NAN))                 \
    X(tolerance_pose_nan, ONE(HD_ERR_INVALID_ARG), tol_validate(T_POSE_NAN))                     \
    X(tolerance_pose_negative, ONE(HD_ERR_INVALID_ARG), tol_validate(T_POSE_NEG))                \
    X(tolerance_iterations_negative, ONE(HD_ERR_INVALID_ARG), tol_validate(T_ITER_NEG))          \
    /* polytope.h: construction */                                                               \
    X(build_null_points, ONE(HD_ERR_NULL), build(NULL, 8, NULL))                                 \
    X(build_null_out, ONE(HD_ERR_NULL), hd_polytope_build(g_cube_pts, 8, NULL, NULL))            \
    X(build_count_zero, ONE(HD_ERR_EMPTY), build(g_cube_pts, 0, NULL))                           \
    X(build_count_negative, ONE(HD_ERR_EMPTY), build(g_cube_pts, -1, NULL))                      \
    X(build_count_int_min, ONE(HD_ERR_EMPTY), build(g_cube_pts, INT_MIN, NULL))                  \
    X(build_count_max_plus_1, ONE(HD_ERR_TOO_LARGE), build(g_cube_pts, HD_MAX_POINTS + 1, NULL)) \
    X(build_count_int_max, ONE(HD_ERR_TOO_LARGE), build(g_cube_pts, INT_MAX, NULL))              \
    X(build_nan, ONE(HD_ERR_NONFINITE), build(g_nan_pts, 8, NULL))                               \
    X(build_inf, ONE(HD_ERR_NONFINITE), build(g_inf_pts, 8, NULL))                               \
    X(build_minus_inf, ONE(HD_ERR_NONFINITE), build(g_ninf_pts, 8, NULL))                        \
    X(build_tol_touch_nan, ONE(HD_ERR_INVALID_ARG), build_bad_tol(NAN, 1e-9, 1e-9, 0))           \
    X(build_tol_convex_negative, ONE(HD_ERR_INVALID_ARG), build_bad_tol(1e-12, -1, 1e-9, 0))     \
    X(build_tol_convex_1, ONE(HD_ERR_INVALID_ARG), build_bad_tol(1e-12, 1.0, 1e-9, 0))           \
    X(build_tol_convex_inf, ONE(HD_ERR_INVALID_ARG), build_bad_tol(1e-12, INFINITY, 1e-9, 0))    \
    X(build_tol_iterations_negative, ONE(HD_ERR_INVALID_ARG), build_bad_tol(1e-12, 1e-9, 1e-9, -5)) \
    X(scale_1em40, ONE(HD_OK), extreme_scale(1e-40))                                            \
    X(scale_1e40, ONE(HD_OK), extreme_scale(1e40))                                              \
    X(scale_1e60, ONE(HD_OK), extreme_scale(1e60))                                              \
    X(scale_1em60, ONE(HD_OK), extreme_scale(1e-60))                                            \
    X(scale_1e100, ONE(HD_OK), extreme_scale(1e100))                                            \
    X(scale_1em100, ONE(HD_OK), extreme_scale(1e-100))                                          \
    X(scale_1e155, ONE(HD_OK), extreme_scale(1e155))                                            \
    X(scale_1e300, ONE(HD_OK), extreme_scale(1e300))                                            \
    X(scale_1em300, ONE(HD_OK), extreme_scale(1e-300))                                          \
    X(build_mixed_1e200_1em200, ONE(HD_OK), build_mixed(1e200, 1e-200))                         \
    X(build_mixed_1e100_1em100, ONE(HD_OK), build_mixed(1e100, 1e-100))                         \
    X(mesh_null_points, ONE(HD_ERR_NULL), mesh(NULL, 8, g_cube_face_sizes, g_cube_faces, 6))     \
    X(mesh_null_sizes, ONE(HD_ERR_NULL), mesh(g_cube_pts, 8, NULL, g_cube_faces, 6))             \
    X(mesh_null_indices, ONE(HD_ERR_NULL), mesh(g_cube_pts, 8, g_cube_face_sizes, NULL, 6))      \
    X(mesh_null_out, ONE(HD_ERR_NULL), hd_polytope_from_mesh(g_cube_pts, 8, g_cube_face_sizes, g_cube_faces, 6, NULL, NULL, NULL)) \
    X(mesh_vertex_count_zero, ONE(HD_ERR_EMPTY), mesh(g_cube_pts, 0, g_cube_face_sizes, g_cube_faces, 6)) \
    X(mesh_vertex_count_negative, ONE(HD_ERR_EMPTY), mesh(g_cube_pts, -8, g_cube_face_sizes, g_cube_faces, 6)) \
    X(mesh_vertex_count_int_max, ONE(HD_ERR_TOO_LARGE), mesh(g_cube_pts, INT_MAX, g_cube_face_sizes, g_cube_faces, 6)) \
    X(mesh_face_count_zero, ONE(HD_ERR_EMPTY), mesh(g_cube_pts, 8, g_cube_face_sizes, g_cube_faces, 0)) /* silent */ \
    X(mesh_face_count_negative, ONE(HD_ERR_EMPTY), mesh(g_cube_pts, 8, g_cube_face_sizes, g_cube_faces, -6)) /* silent */ \
    X(mesh_face_count_int_max, ONE(HD_ERR_TOO_LARGE), mesh(g_cube_pts, 8, g_cube_face_sizes, g_cube_faces, INT_MAX)) \
    X(mesh_face_size_two, ONE(HD_ERR_INVALID_ARG), mesh(g_cube_pts, 8, g_sizes_two, g_cube_faces, 6)) \
    X(mesh_face_sizes_overflow, ONE(HD_ERR_TOO_LARGE), mesh(g_cube_pts, 8, g_sizes_huge, g_cube_faces, 6)) \
    X(mesh_index_out_of_range, ONE(HD_ERR_INVALID_ARG), mesh(g_cube_pts, 8, g_cube_face_sizes, g_cube_faces_bad_index, 6)) \
    X(mesh_index_negative, ONE(HD_ERR_INVALID_ARG), mesh(g_cube_pts, 8, g_cube_face_sizes, g_cube_faces_negative, 6)) \
    X(mesh_nan, ONE(HD_ERR_NONFINITE), mesh(g_nan_pts, 8, g_cube_face_sizes, g_cube_faces, 6))   \
    X(mesh_open, ONE(HD_ERR_BAD_MESH), mesh(g_cube_pts, 8, g_cube_face_sizes, g_cube_faces_open, 5)) \
    X(mesh_inside_out, ONE(HD_ERR_BAD_MESH), mesh(g_cube_pts, 8, g_cube_face_sizes, g_cube_faces_flipped, 6)) \
    X(mesh_not_convex, ONE(HD_ERR_NOT_CONVEX), mesh(g_dented_pts, 8, g_cube_face_sizes, g_cube_faces, 6)) \
    X(mesh_tol_nan, ONE(HD_ERR_INVALID_ARG), mesh_bad_tol(NAN, 1e-9))                           \
    X(mesh_tol_convex_big, ONE(HD_ERR_INVALID_ARG), mesh_bad_tol(1e-12, 0.5))                   \
    X(null_pointers_without_status, ONE(HD_OK), null_no_status())                                \
    X(accessor_ranges, ONE(HD_OK), accessor_ranges())                                            \
    X(polytope_edge_null, ONE(HD_ERR_NULL), hd_polytope_edge(NULL, 0, NULL, NULL)) /* silent */  \
    X(polytope_dimension_null, ONE(HD_OK), hd_polytope_dimension(NULL) < 0 ? HD_OK : HD_BAD_POSTCONDITION) /* silent */ \
    X(validate_null, ONE(HD_ERR_NULL), hd_polytope_validate(NULL, NULL)) /* silent */            \
    X(validate_bad_tol, ONE(HD_ERR_INVALID_ARG), hd_polytope_validate(g_cube, &bad_opt(T_CONVEX_NAN)->tol)) /* silent */ \
    /* query.h: hd_collide */                                                                    \
    X(collide_null_a, ONE(HD_ERR_NULL), hd_collide(NULL, NULL, g_tet, NULL, NULL, &g_res))       \
    X(collide_null_b, ONE(HD_ERR_NULL), hd_collide(g_cube, NULL, NULL, NULL, NULL, &g_res))      \
    X(collide_null_out, ONE(HD_ERR_NULL), hd_collide(g_cube, NULL, g_tet, NULL, NULL, NULL))     \
    X(collide_pose_a_scaled, ONE(HD_ERR_BAD_POSE), collide_pose(0, P_SCALED))                    \
    X(collide_pose_a_sheared, ONE(HD_ERR_BAD_POSE), collide_pose(0, P_SHEARED))                  \
    X(collide_pose_a_reflected, ONE(HD_ERR_BAD_POSE), collide_pose(0, P_REFLECTED))              \
    X(collide_pose_a_zero, ONE(HD_ERR_BAD_POSE), collide_pose(0, P_ZERO))                        \
    X(collide_pose_a_nan, ONE(HD_ERR_NONFINITE), collide_pose(0, P_NAN_R))                       \
    X(collide_pose_b_scaled, ONE(HD_ERR_BAD_POSE), collide_pose(1, P_SCALED))                    \
    X(collide_pose_b_sheared, ONE(HD_ERR_BAD_POSE), collide_pose(1, P_SHEARED))                  \
    X(collide_pose_b_reflected, ONE(HD_ERR_BAD_POSE), collide_pose(1, P_REFLECTED))              \
    X(collide_pose_b_almost, ONE(HD_ERR_BAD_POSE), collide_pose(1, P_ALMOST))                    \
    X(collide_pose_b_nan_r, ONE(HD_ERR_NONFINITE), collide_pose(1, P_NAN_R))                     \
    X(collide_pose_b_inf_r, ONE(HD_ERR_NONFINITE), collide_pose(1, P_INF_R))                     \
    X(collide_pose_b_nan_t, ONE(HD_ERR_NONFINITE), collide_pose(1, P_NAN_T))                     \
    X(collide_pose_b_inf_t, ONE(HD_ERR_NONFINITE), collide_pose(1, P_INF_T))                     \
    X(collide_touch_nan, ONE(HD_ERR_INVALID_ARG), collide_opt(T_TOUCH_NAN))                      \
    X(collide_touch_negative, ONE(HD_ERR_INVALID_ARG), collide_opt(T_TOUCH_NEG))                 \
    X(collide_touch_1em3, ONE(HD_ERR_INVALID_ARG), collide_opt(T_TOUCH_BIG))                     \
    X(collide_touch_inf, ONE(HD_ERR_INVALID_ARG), collide_opt(T_TOUCH_INF))                      \
    X(collide_convex_negative, ONE(HD_ERR_INVALID_ARG), collide_opt(T_CONVEX_NEG))               \
    X(collide_convex_nan, ONE(HD_ERR_INVALID_ARG), collide_opt(T_CONVEX_NAN))                    \
    X(collide_pose_tol_nan, ONE(HD_ERR_INVALID_ARG), collide_opt(T_POSE_NAN))                    \
    X(collide_pose_tol_negative, ONE(HD_ERR_INVALID_ARG), collide_opt(T_POSE_NEG))               \
    X(collide_iterations_negative, ONE(HD_ERR_INVALID_ARG), collide_opt(T_ITER_NEG))             \
    X(collide_algo_negative, ONE(HD_ERR_INVALID_ARG), collide_opt(A_NEG))                        \
    X(collide_algo_count, ONE(HD_ERR_INVALID_ARG), collide_opt(A_COUNT))                         \
    X(collide_algo_huge, ONE(HD_ERR_INVALID_ARG), collide_opt(A_HUGE))                           \
    X(collide_gjk_cap_1_overlap, EITHER(HD_OK, HD_ERR_ITERATION_LIMIT), capped(HD_ALGO_GJK, g_tet, HD_INTERSECTING)) \
    X(collide_gjk_cap_1_apart, EITHER(HD_OK, HD_ERR_ITERATION_LIMIT), capped(HD_ALGO_GJK, g_far_tet, HD_SEPARATED)) \
    X(collide_cddual_cap_1_overlap, EITHER(HD_OK, HD_ERR_ITERATION_LIMIT), capped(HD_ALGO_CDDUAL, g_tet, HD_INTERSECTING)) \
    X(collide_cddual_cap_1_apart, EITHER(HD_OK, HD_ERR_ITERATION_LIMIT), capped(HD_ALGO_CDDUAL, g_far_tet, HD_SEPARATED)) \
    X(collide_lp_cap_1_overlap, EITHER(HD_OK, HD_ERR_ITERATION_LIMIT), capped(HD_ALGO_LP, g_tet, HD_INTERSECTING)) \
    X(collide_lp_cap_1_apart, EITHER(HD_OK, HD_ERR_ITERATION_LIMIT), capped(HD_ALGO_LP, g_far_tet, HD_SEPARATED)) \
    X(collide_small_workspace_overlap, ONE(HD_OK), small_workspace(g_tet, HD_INTERSECTING)) \
    X(collide_small_workspace_apart, ONE(HD_OK), small_workspace(g_far_tet, HD_SEPARATED)) \
    X(gap_small_workspace, EITHER(HD_OK, HD_ERR_WORKSPACE_FULL), gap_small_workspace())           \
    X(collide_gjk_corrupt_cache, ONE(HD_OK), corrupt_cache(HD_ALGO_GJK, g_tet, HD_INTERSECTING)) \
    X(collide_cddual_corrupt_cache, ONE(HD_OK), corrupt_cache(HD_ALGO_CDDUAL, g_far_tet, HD_SEPARATED)) \
    X(collide_lp_corrupt_cache, ONE(HD_OK), corrupt_cache(HD_ALGO_LP, g_tet, HD_INTERSECTING))   \
    X(collide_gjk_unknown_flags, ONE(HD_OK), unknown_flags(HD_ALGO_GJK)) /* silent: ignored */   \
    X(collide_cddual_unknown_flags, ONE(HD_OK), unknown_flags(HD_ALGO_CDDUAL))                   \
    X(collide_lp_unknown_flags, ONE(HD_OK), unknown_flags(HD_ALGO_LP))                           \
    /* hd_distance */                                                                            \
    X(distance_null_a, ONE(HD_ERR_NULL), hd_distance(NULL, NULL, g_tet, NULL, NULL, &g_dist))     \
    X(distance_null_b, ONE(HD_ERR_NULL), hd_distance(g_cube, NULL, NULL, NULL, NULL, &g_dist))    \
    X(distance_null_out, ONE(HD_ERR_NULL), hd_distance(g_cube, NULL, g_tet, NULL, NULL, NULL))   \
    X(distance_pose_scaled, ONE(HD_ERR_BAD_POSE), distance_pose(P_SCALED))                       \
    X(distance_pose_reflected, ONE(HD_ERR_BAD_POSE), distance_pose(P_REFLECTED))                 \
    X(distance_pose_nan, ONE(HD_ERR_NONFINITE), distance_pose(P_NAN_T))                          \
    X(distance_touch_nan, ONE(HD_ERR_INVALID_ARG), distance_opt(T_TOUCH_NAN))                    \
    X(distance_iterations_negative, ONE(HD_ERR_INVALID_ARG), distance_opt(T_ITER_NEG))           \
    X(distance_algo_huge, ONE(HD_ERR_INVALID_ARG), distance_opt(A_HUGE))                         \
    X(distance_cap_1, EITHER(HD_OK, HD_ERR_ITERATION_LIMIT), capped_distance())                  \
    /* hd_gap */                                                                                 \
    X(gap_null_a, ONE(HD_ERR_NULL), hd_gap(NULL, NULL, g_tet, NULL, g_dir, NULL, &g_gap))        \
    X(gap_null_b, ONE(HD_ERR_NULL), hd_gap(g_cube, NULL, NULL, NULL, g_dir, NULL, &g_gap))       \
    X(gap_null_direction, ONE(HD_ERR_NULL), hd_gap(g_cube, NULL, g_tet, NULL, NULL, NULL, &g_gap)) \
    X(gap_null_out, ONE(HD_ERR_NULL), hd_gap(g_cube, NULL, g_tet, NULL, g_dir, NULL, NULL))      \
    X(gap_zero_direction, ONE(HD_ERR_INVALID_ARG), gap_direction(0, 0, 0)) /* silent */          \
    X(gap_minus_zero_direction, ONE(HD_ERR_INVALID_ARG), gap_direction(-0.0, 0, -0.0))           \
    X(gap_nan_direction, ONE(HD_ERR_NONFINITE), gap_direction(NAN, 1, 0))                        \
    X(gap_inf_direction, ONE(HD_ERR_NONFINITE), gap_direction(INFINITY, 0, 0))                   \
    X(gap_subnormal_direction, ONE(HD_OK), gap_scaled_direction(4.9e-324))                       \
    X(gap_huge_direction, ONE(HD_OK), gap_scaled_direction(DBL_MAX))                             \
    X(gap_pose_sheared, ONE(HD_ERR_BAD_POSE), gap_pose(P_SHEARED))                               \
    X(gap_pose_inf, ONE(HD_ERR_NONFINITE), gap_pose(P_INF_R))                                    \
    X(gap_touch_negative, ONE(HD_ERR_INVALID_ARG), gap_opt(T_TOUCH_NEG))                         \
    X(gap_algo_count, ONE(HD_ERR_INVALID_ARG), gap_opt(A_COUNT))                                 \
    /* hd_contains, hd_point_inside */                                                           \
    X(contains_null_a, ONE(HD_ERR_NULL), hd_contains(NULL, NULL, g_tet, NULL, NULL, &g_inside))  \
    X(contains_null_b, ONE(HD_ERR_NULL), hd_contains(g_cube, NULL, NULL, NULL, NULL, &g_inside)) \
    X(contains_null_out, ONE(HD_ERR_NULL), hd_contains(g_cube, NULL, g_tet, NULL, NULL, NULL))   \
    X(contains_pose_a_reflected, ONE(HD_ERR_BAD_POSE), contains_pose(0, P_REFLECTED)) /* silent */ \
    X(contains_pose_b_scaled, ONE(HD_ERR_BAD_POSE), contains_pose(1, P_SCALED))                  \
    X(contains_pose_b_nan, ONE(HD_ERR_NONFINITE), contains_pose(1, P_NAN_R))                     \
    X(contains_touch_nan, ONE(HD_ERR_INVALID_ARG), contains_opt(T_TOUCH_NAN))                    \
    X(contains_convex_negative, ONE(HD_ERR_INVALID_ARG), contains_opt(T_CONVEX_NEG))             \
    X(contains_iterations_negative, ONE(HD_ERR_INVALID_ARG), contains_opt(T_ITER_NEG))           \
    X(contains_algo_huge, ONE(HD_ERR_INVALID_ARG), contains_opt(A_HUGE)) /* silent */            \
    X(inside_null_a, ONE(HD_ERR_NULL), hd_point_inside(NULL, NULL, g_point, NULL, &g_verdict))   \
    X(inside_null_point, ONE(HD_ERR_NULL), hd_point_inside(g_cube, NULL, NULL, NULL, &g_verdict)) \
    X(inside_null_out, ONE(HD_ERR_NULL), hd_point_inside(g_cube, NULL, g_point, NULL, NULL))     \
    X(inside_nan_point, ONE(HD_ERR_NONFINITE), inside_point(0.5, NAN, 0.5)) /* silent */         \
    X(inside_inf_point, ONE(HD_ERR_NONFINITE), inside_point(-INFINITY, 0.5, 0.5))                \
    X(inside_pose_sheared, ONE(HD_ERR_BAD_POSE), inside_pose(P_SHEARED))                         \
    X(inside_pose_nan, ONE(HD_ERR_NONFINITE), inside_pose(P_NAN_T))                              \
    X(inside_touch_inf, ONE(HD_ERR_INVALID_ARG), inside_opt(T_TOUCH_INF))                        \
    X(inside_algo_negative, ONE(HD_ERR_INVALID_ARG), inside_opt(A_NEG)) /* silent */             \
    /* hd_certificate_check */                                                                   \
    X(cert_null_a, ONE(HD_ERR_NULL), hd_certificate_check(NULL, NULL, g_tet, NULL, g_res.verdict, g_res.eps, &g_res.cert))      \
    X(cert_null_b, ONE(HD_ERR_NULL), hd_certificate_check(g_cube, NULL, NULL, NULL, g_res.verdict, g_res.eps, &g_res.cert))     \
    X(cert_null_result, ONE(HD_ERR_NULL), hd_certificate_check(g_cube, NULL, g_tet, NULL, HD_SEPARATED, 0.0, NULL)) \
    X(cert_genuine, ONE(HD_OK), certificate_genuine())                                          \
    X(cert_bad_verdict, ONE(HD_ERR_CERTIFICATE), forged_separated(C_VERDICT))                    \
    X(cert_eps_nan, ONE(HD_ERR_CERTIFICATE), forged_separated(C_EPS_NAN))                        \
    X(cert_eps_negative, ONE(HD_ERR_CERTIFICATE), forged_separated(C_EPS_NEG))                   \
    X(cert_normal_zero, ONE(HD_ERR_CERTIFICATE), forged_separated(C_NORMAL_ZERO))                \
    X(cert_normal_nan, ONE(HD_ERR_CERTIFICATE), forged_separated(C_NORMAL_NAN))                  \
    X(cert_normal_not_unit, ONE(HD_ERR_CERTIFICATE), forged_separated(C_NORMAL_LONG))            \
    X(cert_gap_nan, ONE(HD_ERR_CERTIFICATE), forged_separated(C_GAP_NAN))                        \
    X(cert_gap_inf, ONE(HD_ERR_CERTIFICATE), forged_separated(C_GAP_INF))                        \
    X(cert_gap_not_above_eps, ONE(HD_ERR_CERTIFICATE), forged_separated(C_GAP_SMALL))            \
    X(cert_offset_wrong, ONE(HD_ERR_CERTIFICATE), forged_separated(C_OFFSET_WRONG))              \
    X(cert_plane_flipped, ONE(HD_ERR_CERTIFICATE), forged_separated(C_FLIP))                     \
    X(cert_combination_empty, ONE(HD_ERR_CERTIFICATE), forged_intersecting(W_COUNT0))            \
    X(cert_combination_too_long, ONE(HD_ERR_CERTIFICATE), forged_intersecting(W_COUNT9))         \
    X(cert_index_negative, ONE(HD_ERR_CERTIFICATE), forged_intersecting(W_INDEX_NEG))            \
    X(cert_index_out_of_range, ONE(HD_ERR_CERTIFICATE), forged_intersecting(W_INDEX_BIG))        \
    X(cert_weight_negative, ONE(HD_ERR_CERTIFICATE), forged_intersecting(W_WEIGHT_NEG))          \
    X(cert_weight_nan, ONE(HD_ERR_CERTIFICATE), forged_intersecting(W_WEIGHT_NAN))               \
    X(cert_weights_not_convex, ONE(HD_ERR_CERTIFICATE), forged_intersecting(W_SUM))              \
    X(cert_depth_not_above_eps, ONE(HD_ERR_CERTIFICATE), forged_intersecting(W_DEPTH))           \
    X(cert_depth_nan, ONE(HD_ERR_CERTIFICATE), forged_intersecting(W_DEPTH_NAN))                 \
    X(cert_point_elsewhere, ONE(HD_ERR_CERTIFICATE), forged_intersecting(W_POINT_FAR))           \
    X(cert_no_point, ONE(HD_ERR_CERTIFICATE), forged_intersecting(W_NO_POINT))                   \
    X(cert_pose_nan_t, ONE(HD_ERR_NONFINITE), certificate_bad_pose(P_NAN_T))                    \
    X(cert_pose_inf_r, ONE(HD_ERR_NONFINITE), certificate_bad_pose(P_INF_R))                     \
    X(cert_eps_beyond_any_band, ONE(HD_ERR_CERTIFICATE), forged_separated(C_EPS_HUGE))           \
    /* hd_workspace */                                                                           \
    X(workspace_null_out, ONE(HD_ERR_NULL), hd_workspace_create(64, NULL))                       \
    X(workspace_capacity_15, ONE(HD_ERR_INVALID_ARG), workspace(15))                             \
    X(workspace_capacity_zero, ONE(HD_ERR_INVALID_ARG), workspace(0))                            \
    X(workspace_capacity_negative, ONE(HD_ERR_INVALID_ARG), workspace(-1))                       \
    X(workspace_capacity_int_min, ONE(HD_ERR_INVALID_ARG), workspace(INT_MIN))                   \
    X(workspace_capacity_int_max, ONE(HD_ERR_TOO_LARGE), workspace(INT_MAX)) /* silent */        \
    X(workspace_capacity_16, ONE(HD_OK), workspace(16))                                          \
    X(workspace_path_null, ONE(HD_OK), workspace_path_null())                                    \
    X(capacity_for_null_a, ONE(HD_ERR_NULL), capacity_for(NULL, g_tet, 0))                        \
    X(capacity_for_null_b, ONE(HD_ERR_NULL), capacity_for(g_cube, NULL, 0))                       \
    X(capacity_for_bad_tol, ONE(HD_ERR_INVALID_ARG), capacity_for(g_cube, g_tet, 1))               \
    X(capacity_for_ok, ONE(HD_OK), capacity_for(g_cube, g_tet, 0))                                \
    X(capacity_for_null_out, ONE(HD_ERR_NULL), hd_workspace_capacity_for(g_cube, g_tet, NULL, NULL)) \
    X(create_for_null_out, ONE(HD_ERR_NULL), hd_workspace_create_for(g_cube, g_tet, NULL, NULL))  \
    /* lp.h */                                                                                   \
    X(lp_null_out, ONE(HD_ERR_NULL), hd_lp_intersect(3, g_cube_pts, 8, g_tet_pts, 4, NULL, NULL, NULL, NULL)) \
    X(lp_null_s, ONE(HD_ERR_NULL), lp(3, NULL, 8, g_tet_pts, 4))                                 \
    X(lp_null_t, ONE(HD_ERR_NULL), lp(3, g_cube_pts, 8, NULL, 4))                                \
    X(lp_dim_zero, ONE(HD_ERR_INVALID_ARG), lp(0, g_cube_pts, 8, g_tet_pts, 4))                  \
    X(lp_dim_negative, ONE(HD_ERR_INVALID_ARG), lp(-3, g_cube_pts, 8, g_tet_pts, 4))             \
    X(lp_dim_17, ONE(HD_ERR_INVALID_ARG), lp(HD_LP_MAX_DIM + 1, g_cube_pts, 1, g_tet_pts, 1))    \
    X(lp_dim_int_max, ONE(HD_ERR_INVALID_ARG), lp(INT_MAX, g_cube_pts, 1, g_tet_pts, 1))         \
    X(lp_dim_int_min, ONE(HD_ERR_INVALID_ARG), lp(INT_MIN, g_cube_pts, 1, g_tet_pts, 1))         \
    X(lp_count_negative, ONE(HD_ERR_INVALID_ARG), lp(3, g_cube_pts, -1, g_tet_pts, 4))           \
    X(lp_count_int_min, ONE(HD_ERR_INVALID_ARG), lp(3, g_cube_pts, 8, g_tet_pts, INT_MIN))       \
    X(lp_count_max_plus_1, ONE(HD_ERR_TOO_LARGE), lp(3, g_cube_pts, HD_MAX_POINTS + 1, g_tet_pts, 4)) \
    X(lp_count_int_max, ONE(HD_ERR_TOO_LARGE), lp(3, g_cube_pts, 8, g_tet_pts, INT_MAX))         \
    X(lp_nan, ONE(HD_ERR_NONFINITE), lp(3, g_nan_pts, 8, g_tet_pts, 4))                          \
    X(lp_inf, ONE(HD_ERR_NONFINITE), lp(3, g_cube_pts, 8, g_inf_pts, 8))                         \
    X(lp_nan_in_higher_dim, ONE(HD_ERR_NONFINITE), lp(12, g_nan_pts, 2, g_cube_pts, 2))          \
    X(lp_empty_s, ONE(HD_OK), lp_empty(NULL, 0, g_tet_pts, 4))                                   \
    X(lp_empty_t, ONE(HD_OK), lp_empty(g_cube_pts, 8, NULL, 0))                                  \
    X(lp_empty_both, ONE(HD_OK), lp_empty(NULL, 0, NULL, 0))                                     \
    X(lp_touch_nan, ONE(HD_ERR_INVALID_ARG), lp_tol(T_TOUCH_NAN))                                \
    X(lp_touch_1em3, ONE(HD_ERR_INVALID_ARG), lp_tol(T_TOUCH_BIG))                               \
    X(lp_iterations_negative, ONE(HD_ERR_INVALID_ARG), lp_tol(T_ITER_NEG))                       \
    X(lp_cap_1, EITHER(HD_OK, HD_ERR_ITERATION_LIMIT), lp_capped())                              \
    X(lp_contains_null_out, ONE(HD_ERR_NULL), hd_lp_contains(3, g_cube_pts, 8, g_tet_pts, 4, NULL, NULL)) \
    X(lp_contains_null_s, ONE(HD_ERR_NULL), lp_contains(3, NULL, 8, g_tet_pts, 4))               \
    X(lp_contains_dim_17, ONE(HD_ERR_INVALID_ARG), lp_contains(17, g_cube_pts, 1, g_tet_pts, 1)) \
    X(lp_contains_count_negative, ONE(HD_ERR_INVALID_ARG), lp_contains(3, g_cube_pts, 8, g_tet_pts, -4)) \
    X(lp_contains_count_int_max, ONE(HD_ERR_TOO_LARGE), lp_contains(3, g_cube_pts, INT_MAX, g_tet_pts, 4)) \
    X(lp_contains_nan, ONE(HD_ERR_NONFINITE), lp_contains(3, g_cube_pts, 8, g_nan_pts, 8))       \
    X(lp_contains_empty_t, ONE(HD_OK), lp_contains_empty(g_cube_pts, 8, NULL, 0, 1))             \
    X(lp_contains_empty_s, ONE(HD_OK), lp_contains_empty(NULL, 0, g_tet_pts, 4, 0))              \
    X(lp_inside_null_out, ONE(HD_ERR_NULL), hd_lp_point_inside(3, g_cube_pts, 8, g_point, NULL, NULL)) \
    X(lp_inside_null_point, ONE(HD_ERR_NULL), lp_inside(3, g_cube_pts, 8, NULL))                 \
    X(lp_inside_null_s, ONE(HD_ERR_NULL), lp_inside(3, NULL, 8, g_point))                        \
    X(lp_inside_dim_zero, ONE(HD_ERR_INVALID_ARG), lp_inside(0, g_cube_pts, 8, g_point))         \
    X(lp_inside_dim_17, ONE(HD_ERR_INVALID_ARG), lp_inside(17, g_cube_pts, 1, g_cube_pts))       \
    X(lp_inside_count_negative, ONE(HD_ERR_INVALID_ARG), lp_inside(3, g_cube_pts, -8, g_point))  \
    X(lp_inside_count_int_max, ONE(HD_ERR_TOO_LARGE), lp_inside(3, g_cube_pts, INT_MAX, g_point)) \
    X(lp_inside_nan_point, ONE(HD_ERR_NONFINITE), lp_inside(3, g_cube_pts, 8, g_nan_pts + 12))        \
    X(lp_inside_empty_s, ONE(HD_OK), lp_inside_empty())                                          \
    /* gjk2d.h */                                                                                \
    X(collide2d_null_a, ONE(HD_ERR_NULL), hd_collide2d(NULL, 4, g_tri2d, 3, NULL, &g_r2))        \
    X(collide2d_null_b, ONE(HD_ERR_NULL), hd_collide2d(g_sq2d, 4, NULL, 3, NULL, &g_r2))         \
    X(collide2d_null_out, ONE(HD_ERR_NULL), hd_collide2d(g_sq2d, 4, g_tri2d, 3, NULL, NULL))     \
    X(collide2d_count_zero, ONE(HD_ERR_EMPTY), hd_collide2d(g_sq2d, 0, g_tri2d, 3, NULL, &g_r2)) \
    X(collide2d_count_negative, ONE(HD_ERR_INVALID_ARG), hd_collide2d(g_sq2d, 4, g_tri2d, -3, NULL, &g_r2)) \
    X(collide2d_count_int_min, ONE(HD_ERR_INVALID_ARG), hd_collide2d(g_sq2d, INT_MIN, g_tri2d, 3, NULL, &g_r2)) \
    X(collide2d_count_max_plus_1, ONE(HD_ERR_TOO_LARGE), hd_collide2d(g_sq2d, HD_MAX_POINTS + 1, g_tri2d, 3, NULL, &g_r2)) \
    X(collide2d_count_int_max, ONE(HD_ERR_TOO_LARGE), hd_collide2d(g_sq2d, 4, g_tri2d, INT_MAX, NULL, &g_r2)) \
    X(collide2d_nan, ONE(HD_ERR_NONFINITE), hd_collide2d(g_nan2d, 4, g_tri2d, 3, NULL, &g_r2))   \
    X(collide2d_inf, ONE(HD_ERR_NONFINITE), hd_collide2d(g_sq2d, 4, g_inf_pts, 3, NULL, &g_r2))  \
    X(collide2d_touch_nan, ONE(HD_ERR_INVALID_ARG), tol2d(T_TOUCH_NAN))                          \
    X(collide2d_touch_1em3, ONE(HD_ERR_INVALID_ARG), tol2d(T_TOUCH_BIG))                         \
    X(collide2d_iterations_negative, ONE(HD_ERR_INVALID_ARG), tol2d(T_ITER_NEG))                 \
    X(distance2d_null_out, ONE(HD_ERR_NULL), hd_distance2d(g_sq2d, 4, g_tri2d, 3, NULL, NULL))   \
    X(distance2d_count_zero, ONE(HD_ERR_EMPTY), hd_distance2d(g_sq2d, 4, g_tri2d, 0, NULL, &g_d2)) \
    X(distance2d_nan, ONE(HD_ERR_NONFINITE), hd_distance2d(g_sq2d, 4, g_nan2d, 4, NULL, &g_d2))  \
    X(distance2d_cap_1, EITHER(HD_OK, HD_ERR_ITERATION_LIMIT), capped2d())                       \
    X(cert2d_null_a, ONE(HD_ERR_NULL), hd_certificate_check2d(NULL, 4, g_tri2d, 3, g_r2.verdict, g_r2.eps, &g_r2.cert)) /* silent */ \
    X(cert2d_null_result, ONE(HD_ERR_NULL), hd_certificate_check2d(g_sq2d, 4, g_tri2d, 3, HD_SEPARATED, 0.0, NULL)) \
    X(cert2d_count_zero, ONE(HD_ERR_CERTIFICATE), hd_certificate_check2d(g_sq2d, 0, g_tri2d, 3, g_r2.verdict, g_r2.eps, &g_r2.cert)) \
    X(cert2d_count_negative, ONE(HD_ERR_CERTIFICATE), hd_certificate_check2d(g_sq2d, 4, g_tri2d, -1, g_r2.verdict, g_r2.eps, &g_r2.cert)) \
    X(cert2d_bad_verdict, ONE(HD_ERR_CERTIFICATE), forged2d(C_VERDICT))                          \
    X(cert2d_eps_nan, ONE(HD_ERR_CERTIFICATE), forged2d(C_EPS_NAN))                              \
    X(cert2d_normal_zero, ONE(HD_ERR_CERTIFICATE), forged2d(C_NORMAL_ZERO))                      \
    X(cert2d_gap_negative, ONE(HD_ERR_CERTIFICATE), forged2d(C_GAP_SMALL))                       \
    X(cert2d_normal_flipped, ONE(HD_ERR_CERTIFICATE), forged2d(C_FLIP))                          \
    X(cert2d_eps_beyond_any_band, ONE(HD_ERR_CERTIFICATE), forged2d(C_EPS_HUGE))                 \
    X(cert2d_nan_points, ONE(HD_ERR_CERTIFICATE), certificate2d_nan_points()) /* silent */       \
    /* io.h */                                                                                   \
    X(error_format_null_error, ONE(HD_OK), error_format(0))                                      \
    X(error_format_null_buffer, ONE(HD_OK), error_format(1))                                     \
    X(error_format_size_zero, ONE(HD_OK), error_format(2))                                       \
    X(error_format_size_negative, ONE(HD_OK), error_format(4))                                   \
    X(error_format_size_one, ONE(HD_OK), error_format(5))                                        \
    X(error_format_unterminated_fields, ONE(HD_OK), error_format(6))                             \
    X(error_format_line_int_min, ONE(HD_OK), error_format(3))                                    \
    X(read_null_path, ONE(HD_ERR_NULL), read_points(NULL, HD_FORMAT_AUTO))                       \
    X(read_null_out, ONE(HD_ERR_NULL), read_points_null_out())                                   \
    X(read_missing_file, ONE(HD_ERR_IO), read_points(g_path_missing, HD_FORMAT_AUTO))            \
    X(read_missing_file_null_err, ONE(HD_ERR_IO), read_points_null_err(g_path_missing))          \
    X(read_directory, ONE(HD_ERR_IO), read_points(g_path_dir_xyz, HD_FORMAT_AUTO))               \
    X(read_directory_explicit_format, ONE(HD_ERR_IO), read_points(g_path_dir_xyz, HD_FORMAT_OFF)) \
    X(read_no_extension, ONE(HD_ERR_INVALID_ARG), read_points(g_path_noext, HD_FORMAT_AUTO))     \
    X(read_format_negative, ONE(HD_ERR_INVALID_ARG), read_points(g_path_ok_xyz, (hd_format)-1))  \
    X(read_format_huge, ONE(HD_ERR_INVALID_ARG), read_points(g_path_ok_xyz, (hd_format)77))      \
    X(read_stdin_auto, ONE(HD_ERR_INVALID_ARG), read_points("-", HD_FORMAT_AUTO))                \
    X(read_empty_xyz, ONE(HD_ERR_EMPTY), read_points(g_path_empty_xyz, HD_FORMAT_AUTO))          \
    X(read_nan_xyz, ONE(HD_ERR_NONFINITE), read_points(g_path_nan_xyz, HD_FORMAT_AUTO))          \
    X(read_absurd_off_header, ONE(HD_ERR_TOO_LARGE), read_points(g_path_huge_off, HD_FORMAT_AUTO)) \
    X(read_truncated_obj, ONE(HD_ERR_PARSE), read_points(g_path_trunc_obj, HD_FORMAT_AUTO))      \
    X(read_xyz_as_off, ONE(HD_ERR_EMPTY), read_points(g_path_ok_xyz, HD_FORMAT_OFF)) /* '0 0 0': counts */             \
    X(stream_null_fp, ONE(HD_ERR_NULL), read_stream(NULL, "x.xyz", HD_FORMAT_XYZ, 0))            \
    X(stream_null_out, ONE(HD_ERR_NULL), read_stream(stdin, "x.xyz", HD_FORMAT_XYZ, 1))          \
    X(stream_null_name_auto, ONE(HD_ERR_INVALID_ARG), read_stream_text("0 0 0\n", NULL, HD_FORMAT_AUTO)) \
    X(stream_null_name_xyz, ONE(HD_OK), read_stream_text("0 0 0\n", NULL, HD_FORMAT_XYZ))        \
    X(stream_format_huge, ONE(HD_ERR_INVALID_ARG), read_stream_text("0 0 0\n", "x.xyz", (hd_format)9)) \
    X(stream_garbage, ONE(HD_ERR_PARSE), read_stream_text("\x7f" "ELF\x01\x02", "x.xyz", HD_FORMAT_AUTO)) \
    X(stream_off_negative_count, ONE(HD_ERR_PARSE), read_stream_text("OFF\n-1 0 0\n", "x.off", HD_FORMAT_AUTO)) \
    X(stream_off_count_int_overflow, ONE(HD_ERR_TOO_LARGE), read_stream_text("OFF\n4294967297 0 0\n0 0 0\n", "x.off", HD_FORMAT_AUTO)) \
    X(stream_obj_face_before_vertices, ONE(HD_ERR_PARSE), read_stream_text("f 1 2 3\nv 0 0 0\n", "x.obj", HD_FORMAT_AUTO)) \
    X(stream_xyz_overflow, ONE(HD_ERR_NONFINITE), read_stream_text("1e999 0 0\n", "x.xyz", HD_FORMAT_AUTO)) \
    X(write_off_null_fp, ONE(HD_ERR_NULL), hd_write_off(NULL, g_cube))                           \
    X(write_off_null_poly, ONE(HD_ERR_NULL), hd_write_off(stdout, NULL))                         \
    X(write_off_read_only_stream, ONE(HD_ERR_IO), write_off_to(g_path_ok_xyz, "r"))              \
    X(write_off_device_full, ONE(HD_ERR_IO), write_off_to("/dev/full", "w"))                     \
    X(write_pair_null_fp, ONE(HD_ERR_NULL), write_pair_null_fp())                                \
    X(write_pair_null_name, ONE(HD_ERR_NULL), write_pair(NULL, g_cube_pts, 8, g_tet_pts, 4))     \
    X(write_pair_null_a, ONE(HD_ERR_NULL), write_pair("x", NULL, 8, g_tet_pts, 4))               \
    X(write_pair_null_b, ONE(HD_ERR_NULL), write_pair("x", g_cube_pts, 8, NULL, 4))              \
    X(write_pair_empty_sets, ONE(HD_OK), write_pair("x", NULL, 0, NULL, 0))                      \
    X(write_pair_empty_name, ONE(HD_ERR_INVALID_ARG), write_pair("", g_cube_pts, 8, g_tet_pts, 4)) \
    X(write_pair_name_space, ONE(HD_ERR_INVALID_ARG), write_pair("a b", g_cube_pts, 8, g_tet_pts, 4)) \
    X(write_pair_name_hash, ONE(HD_ERR_INVALID_ARG), write_pair("a#b", g_cube_pts, 8, g_tet_pts, 4)) \
    X(write_pair_name_newline, ONE(HD_ERR_INVALID_ARG), write_pair("a\nB 0", g_cube_pts, 8, g_tet_pts, 4)) \
    X(write_pair_name_too_long, ONE(HD_ERR_INVALID_ARG), write_pair(g_name_long, g_cube_pts, 8, g_tet_pts, 4)) \
    X(write_pair_name_longest, ONE(HD_OK), write_pair(g_name_max, g_cube_pts, 8, g_tet_pts, 4))  \
    X(write_pair_count_negative, ONE(HD_ERR_INVALID_ARG), write_pair("x", g_cube_pts, -8, g_tet_pts, 4)) \
    X(write_pair_count_int_max, ONE(HD_ERR_TOO_LARGE), write_pair("x", g_cube_pts, 8, g_tet_pts, INT_MAX)) \
    X(write_pair_nan, ONE(HD_ERR_NONFINITE), write_pair("x", g_cube_pts, 8, g_nan_pts, 8))       \
    X(write_pair_device_full, ONE(HD_ERR_IO), write_pair_to_full())                              \
    X(reader_null_path, ONE(HD_ERR_NULL), reader_open(NULL, 0))                                  \
    X(reader_null_out, ONE(HD_ERR_NULL), reader_open(g_path_ok_pair, 1))                         \
    X(reader_missing_file, ONE(HD_ERR_IO), reader_open(g_path_missing, 0))                       \
    X(reader_directory, ONE(HD_ERR_IO), reader_all(g_path_dir_pair))                             \
    X(reader_next_null_reader, ONE(HD_ERR_NULL), reader_next_null(0))                            \
    X(reader_next_null_pair, ONE(HD_ERR_NULL), reader_next_null(1))                              \
    X(reader_next_null_done, ONE(HD_ERR_NULL), reader_next_null(2))                              \
    X(reader_good_file, ONE(HD_OK), reader_all(g_path_ok_pair))                                  \
    X(reader_empty_file, ONE(HD_OK), reader_all(g_path_empty_pair))                              \
    X(reader_error_is_sticky, ONE(HD_ERR_PARSE), reader_all(g_path_bad_pair))                   \
    /* motion.h, scene.h's ray query */                                                          \
    X(toi_null_a, ONE(HD_ERR_NULL), hd_toi(NULL, &g_motion, g_tet, &g_motion, NULL, &g_toi))     \
    X(toi_null_motion, ONE(HD_ERR_NULL), hd_toi(g_cube, NULL, g_tet, &g_motion, NULL, &g_toi))   \
    X(toi_null_out, ONE(HD_ERR_NULL), hd_toi(g_cube, &g_motion, g_tet, &g_motion, NULL, NULL))   \
    X(toi_pose_a_sheared, ONE(HD_ERR_BAD_POSE), toi_pose(0, P_SHEARED))                          \
    X(toi_pose_b_reflected, ONE(HD_ERR_BAD_POSE), toi_pose(1, P_REFLECTED))                      \
    X(toi_pose_b_almost, ONE(HD_ERR_BAD_POSE), toi_pose(1, P_ALMOST))                            \
    X(toi_pose_b_nan, ONE(HD_ERR_NONFINITE), toi_pose(1, P_NAN_T))                               \
    X(toi_velocity_nan, ONE(HD_ERR_NONFINITE), toi_twist(0, NAN))                                \
    X(toi_spin_inf, ONE(HD_ERR_NONFINITE), toi_twist(1, INFINITY))                               \
    X(toi_centre_nan, ONE(HD_ERR_NONFINITE), toi_twist(2, NAN))                                  \
    X(toi_touch_nan, ONE(HD_ERR_INVALID_ARG), toi_opt(T_TOUCH_NAN))                              \
    X(toi_iterations_negative, ONE(HD_ERR_INVALID_ARG), toi_opt(T_ITER_NEG))                     \
    X(toi_algo_huge, ONE(HD_ERR_INVALID_ARG), toi_opt(A_HUGE))                                   \
    X(toi_time_tol_nan, ONE(HD_ERR_INVALID_ARG), toi_time_tol(NAN))                              \
    X(toi_time_tol_negative, ONE(HD_OK), toi_time_tol(-1.0)) /* the default */                   \
    X(toi_capped, ONE(HD_ERR_ITERATION_LIMIT), toi_capped())                                     \
    X(toi_far, ONE(HD_ERR_RANGE), toi_far())                                                     \
    X(cast_null_translation, ONE(HD_ERR_NULL), hd_shape_cast(g_cube, NULL, g_tet, NULL, NULL, NULL, &g_toi)) \
    X(cast_nan_translation, ONE(HD_ERR_NONFINITE), cast_translation(NAN))                        \
    X(cast_good, ONE(HD_OK), cast_translation(-1.0))                                             \
    X(motion_from_null, ONE(HD_ERR_NULL), hd_motion_from_poses(NULL, &g_id, &g_motion))          \
    X(motion_from_scaled, ONE(HD_ERR_BAD_POSE), motion_from_bad_pose(P_SCALED))                  \
    X(motion_from_inf, ONE(HD_ERR_NONFINITE), motion_from_bad_pose(P_INF_R))                     \
    X(motion_translation_null, ONE(HD_ERR_NULL), hd_motion_translation(NULL, NULL, &g_motion))   \
    X(motion_pose_nan_t, ONE(HD_ERR_NONFINITE), motion_pose_at(NAN))                             \
    X(motion_pose_null, ONE(HD_ERR_NULL), hd_motion_pose(NULL, 0.0, &g_pose))                    \
    X(ray_null_a, ONE(HD_ERR_NULL), hd_ray_cast(NULL, NULL, g_point, g_dir, 1.0, NULL, &g_ray))  \
    X(ray_null_out, ONE(HD_ERR_NULL), hd_ray_cast(g_cube, NULL, g_point, g_dir, 1.0, NULL, NULL)) \
    X(ray_origin_nan, ONE(HD_ERR_NONFINITE), ray_args(NAN, -1.0, 1.0))                           \
    X(ray_dir_inf, ONE(HD_ERR_NONFINITE), ray_args(5.0, -INFINITY, 1.0))                         \
    X(ray_dir_zero, ONE(HD_ERR_INVALID_ARG), ray_args(5.0, 0.0, 1.0))                            \
    X(ray_length_nan, ONE(HD_ERR_INVALID_ARG), ray_args(5.0, -1.0, NAN))                         \
    X(ray_length_negative, ONE(HD_ERR_INVALID_ARG), ray_args(5.0, -1.0, -1.0))                   \
    X(ray_pose_zero, ONE(HD_ERR_BAD_POSE), ray_pose(P_ZERO))                                     \
    X(ray_pose_inf, ONE(HD_ERR_NONFINITE), ray_pose(P_INF_T))                                    \
    X(ray_touch_big, ONE(HD_ERR_INVALID_ARG), ray_opt(T_TOUCH_BIG))                              \
    X(ray_segment, ONE(HD_ERR_UNSUPPORTED), ray_segment())                                       \
    X(scene_ray_good, ONE(HD_OK), scene_ray(-1.0, HUGE_VAL, 0))                                  \
    X(scene_ray_dir_zero, ONE(HD_ERR_INVALID_ARG), scene_ray(0.0, 1.0, 0))                       \
    X(scene_ray_length_nan, ONE(HD_ERR_INVALID_ARG), scene_ray(-1.0, NAN, 0))                    \
    X(scene_ray_null_hits, ONE(HD_ERR_NULL), scene_ray(-1.0, 1.0, 1))

#define HD_BAD_DEFINE(name, allowed, call)                                                       \
    static hd_status hd_bad_##name(void)                                                         \
    {                                                                                            \
        return (call);                                                                           \
    }
#define HD_BAD_ROW(name, allowed, call) {#name, hd_bad_##name, allowed},

HD_BAD_CASES(HD_BAD_DEFINE)

typedef struct hd_bad_case {
    const char *name;
    hd_status (*call)(void);
    unsigned allowed; /* bit s set: status s is accepted */
} hd_bad_case;

static const hd_bad_case hd_bad_cases[] = {HD_BAD_CASES(HD_BAD_ROW)};
#define HD_BAD_NCASES ((int)(sizeof hd_bad_cases / sizeof hd_bad_cases[0]))

/* ---------------------------------------------------------------------------------------------
 * Setup and the driver */

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static void make_files(void)
{
    const char *dir = getenv("TMPDIR");
    snprintf(g_tmp, sizeof g_tmp, "%s/hedra-bad-XXXXXX", dir ? dir : "/tmp");
    assert_non_null(mkdtemp(g_tmp));
    snprintf(g_path_ok_xyz, sizeof g_path_ok_xyz, "%s/ok.xyz", g_tmp);
    snprintf(g_path_ok_pair, sizeof g_path_ok_pair, "%s/ok.pair", g_tmp);
    snprintf(g_path_bad_pair, sizeof g_path_bad_pair, "%s/bad.pair", g_tmp);
    snprintf(g_path_empty_pair, sizeof g_path_empty_pair, "%s/empty.pair", g_tmp);
    snprintf(g_path_dir_xyz, sizeof g_path_dir_xyz, "%s/dir.xyz", g_tmp);
    snprintf(g_path_dir_pair, sizeof g_path_dir_pair, "%s/dir.pair", g_tmp);
    snprintf(g_path_missing, sizeof g_path_missing, "%s/missing.xyz", g_tmp);
    snprintf(g_path_empty_xyz, sizeof g_path_empty_xyz, "%s/empty.xyz", g_tmp);
    snprintf(g_path_noext, sizeof g_path_noext, "%s/points", g_tmp);
    snprintf(g_path_nan_xyz, sizeof g_path_nan_xyz, "%s/nan.xyz", g_tmp);
    snprintf(g_path_huge_off, sizeof g_path_huge_off, "%s/huge.off", g_tmp);
    snprintf(g_path_trunc_obj, sizeof g_path_trunc_obj, "%s/trunc.obj", g_tmp);
    write_text(g_path_ok_xyz, "0 0 0\n1 0 0\n0 1 0\n0 0 1\n");
    write_text(g_path_noext, "0 0 0\n1 0 0\n0 1 0\n0 0 1\n");
    write_text(g_path_ok_pair, "pair one\nA 1\n0 0 0\nB 1\n1 1 1\npair two\nA 0\nB 0\n"
                               "pair three\nA 2\n0 0 0\n1 0 0\nB 1\n0 0 0\n");
    write_text(g_path_bad_pair, "pair one\nA 1\n0 0 0\nB 1\n1 1 1\npair two\nA 2\n0 0 0\n");
    write_text(g_path_empty_pair, "");
    write_text(g_path_empty_xyz, "# nothing here\n\n");
    write_text(g_path_nan_xyz, "0 0 0\n1 nan 0\n");
    write_text(g_path_huge_off, "OFF\n999999999999 1 0\n0 0 0\n");
    write_text(g_path_trunc_obj, "v 0 0 0\nv 1 0 0\nv 0 1");
    assert_int_equal(mkdir(g_path_dir_xyz, 0700), 0);
    assert_int_equal(mkdir(g_path_dir_pair, 0700), 0);
}

static void remove_files(void)
{
    const char *files[] = {g_path_ok_xyz, g_path_ok_pair, g_path_bad_pair, g_path_empty_pair,
                           g_path_empty_xyz, g_path_noext, g_path_nan_xyz, g_path_huge_off,
                           g_path_trunc_obj};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        remove(files[i]);
    }
    rmdir(g_path_dir_xyz);
    rmdir(g_path_dir_pair);
    rmdir(g_tmp);
}

static int setup(void **state)
{
    (void)state;
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    hd_points_box(lo, hi, g_cube_pts);
    const double tet[12] = {0.25, 0.25, 0.25, 2, 0, 0, 0, 2, 0, 0, 0, 2};
    memcpy(g_tet_pts, tet, sizeof tet);
    const double far_tet[12] = {2, 0, 0, 3, 0, 0, 2, 1, 0, 2, 0, 1};
    for (int i = 0; i < 24; ++i) {
        g_nan_pts[i] = g_inf_pts[i] = g_ninf_pts[i] = g_dented_pts[i] = g_cube_pts[i];
    }
    g_nan_pts[13] = NAN;
    g_inf_pts[2] = INFINITY;
    g_ninf_pts[23] = -INFINITY;
    g_dented_pts[21] = g_dented_pts[22] = g_dented_pts[23] = 0.6;
    hd_rng rng;
    hd_rng_init(&rng, 77);
    hd_points_ellipsoid(&rng, 400, 1.5, 1.5, 1.5, g_big_pts);
    const double sq[8] = {0, 0, 1, 0, 1, 1, 0, 1}, tri[6] = {3, 0, 4, 0, 3, 1};
    memcpy(g_sq2d, sq, sizeof sq);
    memcpy(g_tri2d, tri, sizeof tri);
    memcpy(g_nan2d, sq, sizeof sq);
    g_nan2d[5] = NAN;
    g_cube = hd_test_build(g_cube_pts, 8);
    g_tet = hd_test_build(g_tet_pts, 4);
    g_far_tet = hd_test_build(far_tet, 4);
    g_big = hd_test_build(g_big_pts, 400);
    assert_non_null(g_cube);
    assert_non_null(g_tet);
    assert_non_null(g_far_tet);
    assert_non_null(g_big);
    assert_int_equal(hd_workspace_create(64, &g_ws), HD_OK);
    assert_int_equal(hd_workspace_create(16, &g_ws_small), HD_OK);
    memset(g_name_long, 'n', sizeof g_name_long - 1);
    memset(g_name_max, 'm', sizeof g_name_max - 1);
    make_files();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    hd_polytope_destroy(g_cube);
    hd_polytope_destroy(g_tet);
    hd_polytope_destroy(g_far_tet);
    hd_polytope_destroy(g_big);
    hd_workspace_destroy(g_ws);
    hd_workspace_destroy(g_ws_small);
    remove_files();
    return 0;
}

static const char *status_name(hd_status s)
{
    return s == HD_BAD_POSTCONDITION ? "(postcondition broken)" : hd_status_str(s);
}

static void test_table(void **state)
{
    (void)state;
    int failures = 0;
    for (int i = 0; i < HD_BAD_NCASES; ++i) {
        const hd_bad_case *c = &hd_bad_cases[i];
        reset();
        hd_status st = c->call();
        int ok = (int)st >= 0 && (int)st < 32 && (c->allowed & ONE(st)) != 0;
        if (!ok) {
            printf("FAIL %-40s got %s, allowed:", c->name, status_name(st));
            for (int s = 0; s < HD_STATUS_COUNT; ++s) {
                if (c->allowed & ONE(s)) {
                    printf(" [%s]", hd_status_str((hd_status)s));
                }
            }
            printf("\n");
            failures++;
        }
    }
    printf("bad input: %d cases, %d failures\n", HD_BAD_NCASES, failures);
    assert_int_equal(failures, 0);
}

/* The table must cover every documented status of the argument checks at least once. */
static void test_coverage(void **state)
{
    (void)state;
    unsigned seen = 0;
    for (int i = 0; i < HD_BAD_NCASES; ++i) {
        seen |= hd_bad_cases[i].allowed;
    }
    const hd_status needed[] = {HD_ERR_NULL, HD_ERR_INVALID_ARG, HD_ERR_EMPTY, HD_ERR_NONFINITE,
                                HD_ERR_TOO_LARGE, HD_ERR_BAD_POSE, HD_ERR_NOT_CONVEX,
                                HD_ERR_BAD_MESH, HD_ERR_ITERATION_LIMIT, HD_ERR_WORKSPACE_FULL,
                                HD_ERR_CERTIFICATE, HD_ERR_IO, HD_ERR_PARSE};
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; ++i) {
        assert_true((seen & ONE(needed[i])) != 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_coverage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
