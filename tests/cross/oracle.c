/* The exact GLPK oracle (tests/support/oracle.c) against cases whose answer is known by
 * construction: the traps of glp_exact's double -> rational conversion (1 + 2^-34 read as 1,
 * integers beyond 2^53, mixed exponents), touching / overlapping / disjoint cubes in several
 * dimensions, shifts, and the verdict-consistency helper. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "oracle.h"
#include "testutil.h"

/* The 2^dim corners of [lo, hi]^dim, shifted by off along axis 0. */
static int cube_corners(int dim, double lo, double hi, double off, double *out)
{
    int n = 1 << dim;
    for (int i = 0; i < n; ++i) {
        for (int k = 0; k < dim; ++k) {
            out[i * dim + k] = ((i >> k) & 1 ? hi : lo) + (k == 0 ? off : 0.0);
        }
    }
    return n;
}

/* 1 + 2^-34 is within GLPK's approximation tolerance of 1: fed raw, glp_exact would call
 * {1 + 2^-34} and {1} the same point. The oracle must see them apart. */
static void test_non_integral_trap(void **state)
{
    (void)state;
    double a[1] = {1.0 + ldexp(1.0, -34)}, b[1] = {1.0};
    assert_int_equal(hd_oracle_intersect_dim(1, a, 1, b, 1), 0);
    assert_int_equal(hd_oracle_sign_dim(1, a, 1, b, 1, NULL), 1);
    assert_int_equal(hd_oracle_intersect_dim(1, b, 1, b, 1), 1);
    /* The same gap inside a 3D configuration: a unit cube and one shifted by 1 + 2^-34. */
    double c[24], d[24];
    cube_corners(3, 0.0, 1.0, 0.0, c);
    cube_corners(3, 0.0, 1.0, 1.0 + ldexp(1.0, -34), d);
    assert_int_equal(hd_oracle_intersect(c, 8, d, 8), 0);
    cube_corners(3, 0.0, 1.0, 1.0, d);
    assert_int_equal(hd_oracle_intersect(c, 8, d, 8), 1);
    assert_int_equal(hd_oracle_sign(c, 8, d, 8), 0);
    cube_corners(3, 0.0, 1.0, 1.0 - ldexp(1.0, -34), d);
    assert_int_equal(hd_oracle_sign(c, 8, d, 8), -1);
}

/* Coordinates whose exponents differ widely: the common scaling makes integers far above 2^53
 * (exact as doubles, exact for GLPK's mpq_set_d). */
static void test_wide_exponents(void **state)
{
    (void)state;
    double big = ldexp(1.0, 60);
    /* 1D: [2^-40, 2^60] against {2^60 + 2^8}: disjoint; against {2^60}: touching. */
    double a[2] = {ldexp(1.0, -40), big}, b[1] = {big + 256.0}, c[1] = {big};
    assert_int_equal(hd_oracle_sign_dim(1, a, 2, b, 1, NULL), 1);
    assert_int_equal(hd_oracle_sign_dim(1, a, 2, c, 1, NULL), 0);
    /* A point 2^-40 inside the left end. */
    double e[1] = {ldexp(1.0, -39)};
    assert_int_equal(hd_oracle_sign_dim(1, a, 2, e, 1, NULL), -1);
    double f[1] = {ldexp(1.0, -41)};
    assert_int_equal(hd_oracle_sign_dim(1, a, 2, f, 1, NULL), 1);
    /* Exponents spanning more than the double range cannot be scaled: failure, not a guess. */
    double g[2] = {ldexp(1.0, -1000), ldexp(1.0, 1000)}, h[1] = {0.0};
    assert_int_equal(hd_oracle_intersect_dim(1, g, 2, h, 1), -2);
}

static void test_cubes_all_dimensions(void **state)
{
    (void)state;
    static const int dims[] = {1, 2, 3, 4, 6};
    for (size_t t = 0; t < sizeof dims / sizeof dims[0]; ++t) {
        int dim = dims[t];
        double a[64 * 6], b[64 * 6];
        int n = cube_corners(dim, -1.0, 1.0, 0.0, a);
        cube_corners(dim, -1.0, 1.0, 3.0, b);
        assert_int_equal(hd_oracle_sign_dim(dim, a, n, b, n, NULL), 1);
        cube_corners(dim, -1.0, 1.0, 2.0, b);
        assert_int_equal(hd_oracle_sign_dim(dim, a, n, b, n, NULL), 0);
        cube_corners(dim, -1.0, 1.0, 1.5, b);
        assert_int_equal(hd_oracle_sign_dim(dim, a, n, b, n, NULL), -1);
        /* shift: B + (0.5, 0, ..) overlaps, B + (1, 0, ..) with B at 1.5 is disjoint */
        double s[6] = {0.5, 0, 0, 0, 0, 0}, u[6] = {1.0, 0, 0, 0, 0, 0};
        assert_int_equal(hd_oracle_sign_dim(dim, a, n, b, n, s), 0);
        assert_int_equal(hd_oracle_sign_dim(dim, a, n, b, n, u), 1);
    }
}

/* Lower-dimensional sets: overlapping coplanar squares in 3D meet but have no interior overlap
 * (sign 0); a segment through a cube's centre overlaps its interior only with the cube. */
static void test_flat_sets(void **state)
{
    (void)state;
    double sq1[12] = {0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0};
    double sq2[12] = {1, 1, 0, 3, 1, 0, 3, 3, 0, 1, 3, 0};
    assert_int_equal(hd_oracle_sign(sq1, 4, sq2, 4), 0);
    double seg[6] = {-2, 0.1, 0.2, 2, 0.1, 0.2};
    double cube[24];
    cube_corners(3, -1.0, 1.0, 0.0, cube);
    assert_int_equal(hd_oracle_sign(cube, 8, seg, 2), -1);
    assert_int_equal(hd_oracle_sign(sq1, 4, seg, 2), 1);
    double pt[3] = {1, 1, 0};
    assert_int_equal(hd_oracle_sign(sq1, 4, pt, 1), 0);
    assert_int_equal(hd_oracle_intersect(sq1, 4, pt, 1), 1);
}

/* Random pairs: the oracle is symmetric and agrees with a separating plane built by hand. */
static void test_random_planes(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, hd_test_seed("cross/oracle"));
    for (int it = 0; it < 60; ++it) {
        double a[3 * 10], b[3 * 10], u[3];
        hd_points_cloud(&rng, 10, 1, 1, 1, a);
        hd_points_cloud(&rng, 10, 1, 1, 1, b);
        hd_rng_unit_vector(&rng, u);
        double ha = -INFINITY, hb = INFINITY;
        for (int i = 0; i < 10; ++i) {
            ha = fmax(ha, u[0] * a[3 * i] + u[1] * a[3 * i + 1] + u[2] * a[3 * i + 2]);
            hb = fmin(hb, u[0] * b[3 * i] + u[1] * b[3 * i + 1] + u[2] * b[3 * i + 2]);
        }
        double g = ha - hb + ldexp(1.0, -20); /* B moved to leave a gap of 2^-20 along u */
        for (int i = 0; i < 10; ++i) {
            for (int k = 0; k < 3; ++k) {
                b[3 * i + k] += g * u[k];
            }
        }
        assert_int_equal(hd_oracle_intersect(a, 10, b, 10), 0);
        assert_int_equal(hd_oracle_intersect(b, 10, a, 10), 0);
        assert_int_equal(hd_oracle_intersect(a, 10, a, 10), 1);
    }
}

static void test_verdict_helper(void **state)
{
    (void)state;
    double eps = 1e-12;
    assert_true(hd_oracle_verdict_ok(0, 0.0, eps, 1.0, HD_TOUCHING));
    assert_false(hd_oracle_verdict_ok(0, 0.0, eps, 1.0, HD_SEPARATED));
    assert_true(hd_oracle_verdict_ok(1, 1e-9, eps, 1.0, HD_SEPARATED));
    assert_false(hd_oracle_verdict_ok(1, 1e-9, eps, 1.0, HD_TOUCHING));
    assert_true(hd_oracle_verdict_ok(1, 1e-13, eps, 1.0, HD_TOUCHING));
    assert_false(hd_oracle_verdict_ok(1, 1e-13, eps, 1.0, HD_SEPARATED));
    assert_true(hd_oracle_verdict_ok(1, 1.5e-12, eps, 1.0, HD_TOUCHING));
    assert_true(hd_oracle_verdict_ok(-1, 3e-12, eps, 2.0, HD_TOUCHING));
    assert_false(hd_oracle_verdict_ok(-1, 3e-12, eps, 1.0, HD_TOUCHING));
    assert_false(hd_oracle_verdict_ok(-1, 1e-9, eps, 1.0, HD_SEPARATED));
    assert_false(hd_oracle_verdict_ok(-2, 1e-9, eps, 1.0, HD_SEPARATED));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_non_integral_trap),
        cmocka_unit_test(test_wide_exponents),
        cmocka_unit_test(test_cubes_all_dimensions),
        cmocka_unit_test(test_flat_sets),
        cmocka_unit_test(test_random_planes),
        cmocka_unit_test(test_verdict_helper),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
