/* The public API's argument checking: every bad input is a clear status, never a crash. The
 * expected statuses come from the header's documentation. And the result types' contract: one
 * per query, no sentinel values, on unit cubes whose answers are known in closed form. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

static hd_polytope *unit_cube(void)
{
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, xyz[24];
    hd_points_box(lo, hi, xyz);
    return hd_test_build(xyz, 8);
}

static void test_status_strings(void **state)
{
    (void)state;
    for (int s = 0; s < HD_STATUS_COUNT; ++s) {
        const char *text = hd_status_str((hd_status)s);
        assert_non_null(text);
        assert_true(strlen(text) > 1);
        assert_string_not_equal(text, "unknown status");
    }
    assert_string_equal(hd_status_str((hd_status)-1), "unknown status");
    assert_string_equal(hd_status_str(HD_STATUS_COUNT), "unknown status");
    assert_string_equal(hd_verdict_str(HD_TOUCHING), "touching");
    assert_string_equal(hd_algo_str(HD_ALGO_CDDUAL), "cddual");
    hd_algo algo;
    assert_int_equal(hd_algo_parse("lp", &algo), HD_OK);
    assert_int_equal(algo, HD_ALGO_LP);
    assert_int_equal(hd_algo_parse("LP ", &algo), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_algo_parse(NULL, &algo), HD_ERR_NULL);
}

static void test_version(void **state)
{
    (void)state;
    assert_string_equal(hd_version_string(), HD_VERSION_STRING);
}

static void test_pose_validation(void **state)
{
    (void)state;
    hd_pose p = hd_pose_identity();
    assert_int_equal(hd_pose_validate(&p, 0), HD_OK);
    p.r[0] = -1.0; /* a reflection: orthonormal but det = -1 */
    assert_int_equal(hd_pose_validate(&p, 0), HD_ERR_BAD_POSE);
    p = hd_pose_identity();
    p.r[4] = 2.0; /* a scaling */
    assert_int_equal(hd_pose_validate(&p, 0), HD_ERR_BAD_POSE);
    p = hd_pose_identity();
    p.r[1] = 1e-3; /* a shear beyond the tolerance */
    assert_int_equal(hd_pose_validate(&p, 0), HD_ERR_BAD_POSE);
    p = hd_pose_identity();
    p.t[2] = NAN;
    assert_int_equal(hd_pose_validate(&p, 0), HD_ERR_NONFINITE);
    p = hd_pose_identity();
    p.r[8] = INFINITY;
    assert_int_equal(hd_pose_validate(&p, 0), HD_ERR_NONFINITE);
    assert_int_equal(hd_pose_validate(NULL, 0), HD_ERR_NULL);
    double q0[4] = {0, 0, 0, 0}, qn[4] = {NAN, 0, 0, 1}, t[3] = {0, 0, 0};
    assert_int_equal(hd_pose_from_quaternion(q0, t, &p), HD_ERR_BAD_POSE);
    assert_int_equal(hd_pose_from_quaternion(qn, t, &p), HD_ERR_BAD_POSE);
    double q[4] = {1, 2, 3, 4};
    assert_int_equal(hd_pose_from_quaternion(q, t, &p), HD_OK);
    assert_int_equal(hd_pose_validate(&p, 1e-12), HD_OK);
}

static void test_tolerance_validation(void **state)
{
    (void)state;
    hd_tolerance tol = hd_tolerance_default();
    assert_int_equal(hd_tolerance_validate(&tol), HD_OK);
    tol.touch_rel = -1e-12;
    assert_int_equal(hd_tolerance_validate(&tol), HD_ERR_INVALID_ARG);
    tol = hd_tolerance_default();
    tol.touch_rel = NAN;
    assert_int_equal(hd_tolerance_validate(&tol), HD_ERR_INVALID_ARG);
    tol = hd_tolerance_default();
    tol.max_iterations = -5;
    assert_int_equal(hd_tolerance_validate(&tol), HD_ERR_INVALID_ARG);
}

static void test_build_bad_input(void **state)
{
    (void)state;
    hd_polytope *p = (hd_polytope *)&p; /* must be reset to NULL on error */
    double xyz[6] = {0, 0, 0, 1, NAN, 0};
    assert_int_equal(hd_polytope_build(NULL, 3, NULL, &p), HD_ERR_NULL);
    assert_int_equal(hd_polytope_build(xyz, 0, NULL, &p), HD_ERR_EMPTY);
    assert_null(p);
    assert_int_equal(hd_polytope_build(xyz, -1, NULL, &p), HD_ERR_EMPTY);
    assert_int_equal(hd_polytope_build(xyz, HD_MAX_POINTS + 1, NULL, &p), HD_ERR_TOO_LARGE);
    assert_int_equal(hd_polytope_build(xyz, 2, NULL, &p), HD_ERR_NONFINITE);
    assert_null(p);
    xyz[4] = INFINITY;
    assert_int_equal(hd_polytope_build(xyz, 2, NULL, &p), HD_ERR_NONFINITE);
    hd_polytope_destroy(NULL);
}

static void test_query_bad_input(void **state)
{
    (void)state;
    hd_polytope *c = unit_cube();
    assert_non_null(c);
    hd_collide_result r;
    hd_options opt = hd_options_default();
    assert_int_equal(hd_collide(NULL, NULL, c, NULL, NULL, &r), HD_ERR_NULL);
    assert_int_equal(hd_collide(c, NULL, NULL, NULL, NULL, &r), HD_ERR_NULL);
    assert_int_equal(hd_collide(c, NULL, c, NULL, NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_distance(c, NULL, c, NULL, NULL, NULL), HD_ERR_NULL);
    opt.algo = (hd_algo)17;
    assert_int_equal(hd_collide(c, NULL, c, NULL, &opt, &r), HD_ERR_INVALID_ARG);
    opt = hd_options_default();
    opt.tol.touch_rel = -1.0;
    assert_int_equal(hd_collide(c, NULL, c, NULL, &opt, &r), HD_ERR_INVALID_ARG);
    hd_pose bad = hd_pose_identity();
    bad.r[0] = 3.0;
    for (int a = 0; a < HD_ALGO_COUNT; ++a) {
        opt = hd_options_default();
        opt.algo = (hd_algo)a;
        assert_int_equal(hd_collide(c, &bad, c, NULL, &opt, &r), HD_ERR_BAD_POSE);
        assert_int_equal(hd_collide(c, NULL, c, &bad, &opt, &r), HD_ERR_BAD_POSE);
    }
    bad = hd_pose_identity();
    bad.t[0] = NAN;
    hd_distance_result d;
    assert_int_equal(hd_distance(c, NULL, c, &bad, NULL, &d), HD_ERR_NONFINITE);
    hd_gap_result g;
    double zero[3] = {0, 0, 0}, nan_dir[3] = {NAN, 1, 0};
    assert_int_equal(hd_gap(c, NULL, c, NULL, zero, NULL, &g), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_gap(c, NULL, c, NULL, nan_dir, NULL, &g), HD_ERR_NONFINITE);
    assert_int_equal(hd_gap(c, NULL, c, NULL, NULL, NULL, &g), HD_ERR_NULL);
    bool inside = 0;
    assert_int_equal(hd_contains(NULL, NULL, c, NULL, NULL, &inside), HD_ERR_NULL);
    assert_int_equal(hd_contains(c, NULL, c, NULL, NULL, NULL), HD_ERR_NULL);
    hd_verdict v;
    double nan_point[3] = {0, NAN, 0};
    assert_int_equal(hd_point_inside(c, NULL, nan_point, NULL, &v), HD_ERR_NONFINITE);
    assert_int_equal(hd_point_inside(c, NULL, NULL, NULL, &v), HD_ERR_NULL);
    assert_int_equal(hd_certificate_check(c, NULL, c, NULL, HD_SEPARATED, 0.0, NULL), HD_ERR_NULL);
    hd_polytope_destroy(c);
}

static void test_lp_bad_input(void **state)
{
    (void)state;
    double s[6] = {0, 0, 0, 1, 1, 1}, t[3] = {NAN, 0, 0};
    hd_lp_result r;
    assert_int_equal(hd_lp_intersect(0, s, 2, s, 2, NULL, &r, NULL, NULL), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_lp_intersect(HD_LP_MAX_DIM + 1, s, 1, s, 1, NULL, &r, NULL, NULL),
                     HD_ERR_INVALID_ARG);
    assert_int_equal(hd_lp_intersect(3, NULL, 2, s, 2, NULL, &r, NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_lp_intersect(3, s, 2, t, 1, NULL, &r, NULL, NULL), HD_ERR_NONFINITE);
    assert_int_equal(hd_lp_intersect(3, s, HD_MAX_POINTS + 1, s, 2, NULL, &r, NULL, NULL),
                     HD_ERR_TOO_LARGE);
    assert_int_equal(hd_lp_intersect(3, s, 2, s, 2, NULL, NULL, NULL, NULL), HD_ERR_NULL);
    /* empty sets never collide */
    assert_int_equal(hd_lp_intersect(3, NULL, 0, s, 2, NULL, &r, NULL, NULL), HD_OK);
    assert_int_equal(r.verdict, HD_SEPARATED);
}

/* Unit cubes with B at x = shift: apart by shift - 1, or overlapping by 1 - shift. */
static hd_pose shifted(double shift)
{
    hd_pose p = hd_pose_identity();
    p.t[0] = shift;
    return p;
}

static void test_collide_result_contract(void **state)
{
    (void)state;
    hd_polytope *c = unit_cube();
    hd_pose far = shifted(3.0);
    hd_options opt = hd_options_default();
    hd_collide_result r;
    hd_cddual_face none;
    memset(&none, 0, sizeof none);
    assert_int_equal(hd_collide(c, NULL, c, &far, &opt, &r), HD_OK);
    assert_int_equal(r.verdict, HD_SEPARATED);
    assert_true(r.cert.has_plane && !r.cert.has_point);
    assert_memory_equal(&r.cddual, &none, sizeof none); /* GJK answered: no CD-Dual face */
    opt.algo = HD_ALGO_CDDUAL;
    assert_int_equal(hd_collide(c, NULL, c, &far, &opt, &r), HD_OK);
    assert_int_equal(r.algo, HD_ALGO_CDDUAL);
    assert_int_not_equal(r.cddual.kind, HD_FACE_NONE);
    assert_true(r.cddual.dual_distance > 0.0); /* a separating face of A - B */
    assert_int_equal(hd_certificate_check(c, NULL, c, &far, r.verdict, r.eps, &r.cert), HD_OK);
    /* the same certificate under another verdict proves nothing */
    assert_int_equal(hd_certificate_check(c, NULL, c, &far, HD_INTERSECTING, r.eps, &r.cert),
                     HD_ERR_CERTIFICATE);
    hd_polytope_destroy(c);
}

static void test_distance_result_contract(void **state)
{
    (void)state;
    hd_polytope *c = unit_cube();
    hd_pose far = shifted(3.0), over = shifted(0.5);
    hd_distance_result d;
    assert_int_equal(hd_distance(c, NULL, c, &far, NULL, &d), HD_OK);
    assert_int_equal(d.verdict, HD_SEPARATED);
    assert_true(fabs(d.distance - 2.0) <= 1e-12);
    assert_true(fabs(d.witness_b[0] - d.witness_a[0] - 2.0) <= 1e-12);
    assert_int_equal(hd_certificate_check(c, NULL, c, &far, d.verdict, d.eps, &d.cert), HD_OK);
    assert_int_equal(hd_distance(c, NULL, c, &over, NULL, &d), HD_OK);
    assert_int_equal(d.verdict, HD_INTERSECTING);
    assert_true(d.distance == 0.0); /* 0, not a sentinel, when the pair overlaps */
    double apart = 0.0;
    for (int k = 0; k < 3; ++k) {
        apart += (d.witness_a[k] - d.witness_b[k]) * (d.witness_a[k] - d.witness_b[k]);
    }
    assert_true(sqrt(apart) <= d.eps);
    assert_int_equal(hd_certificate_check(c, NULL, c, &over, d.verdict, d.eps, &d.cert), HD_OK);
    hd_polytope_destroy(c);
}

/* lower <= signed distance <= upper in both regimes, with the closed forms 2 and -0.5 inside. */
static void test_signed_distance_bounds(void **state)
{
    (void)state;
    hd_polytope *c = unit_cube();
    hd_pose far = shifted(3.0), over = shifted(0.5);
    hd_signed_distance_result s;
    assert_int_equal(hd_signed_distance(c, NULL, c, &far, NULL, &s), HD_OK);
    assert_int_equal(s.verdict, HD_SEPARATED);
    assert_true(s.lower <= 2.0 && 2.0 <= s.upper && s.lower > s.eps);
    assert_true(s.lower <= s.signed_distance && s.signed_distance <= s.upper);
    assert_int_equal(hd_signed_distance(c, NULL, c, &over, NULL, &s), HD_OK);
    assert_int_equal(s.verdict, HD_INTERSECTING);
    assert_true(s.lower <= -0.5 && -0.5 <= s.upper && s.upper < -s.eps);
    assert_true(s.upper - s.lower <= 1e-12);
    bool inside = false;
    assert_int_equal(hd_contains(c, NULL, c, NULL, NULL, &inside), HD_OK);
    assert_true(inside);
    assert_int_equal(hd_contains(c, NULL, c, &over, NULL, &inside), HD_OK);
    assert_false(inside);
    hd_polytope_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_strings),   cmocka_unit_test(test_version),
        cmocka_unit_test(test_pose_validation),  cmocka_unit_test(test_tolerance_validation),
        cmocka_unit_test(test_build_bad_input),  cmocka_unit_test(test_query_bad_input),
        cmocka_unit_test(test_lp_bad_input),     cmocka_unit_test(test_collide_result_contract),
        cmocka_unit_test(test_distance_result_contract),
        cmocka_unit_test(test_signed_distance_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
