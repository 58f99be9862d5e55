/* Support mapping: hill climbing must return a true maximiser (to rounding) on every polytope,
 * compared with a long-double brute-force scan of the vertices; brute force must return the
 * lowest-index maximiser. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "brute.h"
#include "polytope_internal.h"
#include "support.h"
#include "testutil.h"

#define HD_PI 3.14159265358979323846

static hd_rng rng;

/* Checks climb (from every given start) against the exact maximum for direction d. */
static void check_direction(const hd_polytope *p, const double d[3], int start)
{
    int n = p->vertex_count;
    double best = hd_brute_support_value(p->verts, n, d, NULL);
    int v = hd_support_climb(p, d, start);
    assert_true(v >= 0 && v < n);
    long double got = (long double)p->verts[3 * v] * d[0] +
                      (long double)p->verts[3 * v + 1] * d[1] +
                      (long double)p->verts[3 * v + 2] * d[2];
    double dl = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double allowed = 8.0 * DBL_EPSILON * dl * (p->max_abs > 0 ? p->max_abs : 1.0);
    if ((double)(best - got) > allowed) {
        printf("climb short by %.3g (allowed %.3g): n=%d dim=%d start=%d d=(%.17g %.17g %.17g)\n",
               (double)(best - got), allowed, n, p->dim, start, d[0], d[1], d[2]);
    }
    assert_true((double)(best - got) <= allowed);
}

/* Random directions, axis directions, the face normals (exact plateaus), from random starts. */
static void check_polytope(const hd_polytope *p, int random_dirs)
{
    int n = p->vertex_count;
    for (int i = 0; i < random_dirs; ++i) {
        double d[3];
        hd_rng_unit_vector(&rng, d);
        check_direction(p, d, hd_rng_int(&rng, n));
    }
    for (int axis = 0; axis < 6; ++axis) {
        double d[3] = {0, 0, 0};
        d[axis % 3] = axis < 3 ? 1.0 : -1.0;
        for (int s = 0; s < n && s < 16; ++s) {
            check_direction(p, d, s);
        }
    }
    for (int f = 0; f < p->face_count; ++f) {
        const double *nf = p->face_normal + 3 * f;
        check_direction(p, nf, hd_rng_int(&rng, n));
        double neg[3] = {-nf[0], -nf[1], -nf[2]};
        check_direction(p, neg, hd_rng_int(&rng, n));
    }
    /* out-of-range starts fall back to vertex 0 */
    double d[3] = {0.3, -0.2, 0.9};
    check_direction(p, d, -5);
    check_direction(p, d, n + 7);
}

static hd_polytope *build(const double *xyz, int n)
{
    hd_polytope *p = hd_test_build(xyz, n);
    assert_non_null(p);
    return p;
}

static void test_brute_lowest_index(void **state)
{
    (void)state;
    double sq[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    hd_polytope *p = build(sq, 4);
    double d[3] = {0, 0, 1}; /* every vertex ties */
    int v = hd_support_brute(p, d);
    assert_int_equal(v, 0);
    double e[3] = {1, 0, 0};
    v = hd_support_brute(p, e);
    const double *x = p->verts + 3 * v;
    assert_true(x[0] == 1.0);
    for (int i = 0; i < v; ++i) {
        assert_true(p->verts[3 * i] < 1.0);
    }
    hd_polytope_destroy(p);
}

static void test_random_clouds(void **state)
{
    (void)state;
    static const int sizes[] = {4, 5, 8, 12, 30, 100, 300, 1000};
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        for (int rep = 0; rep < 6; ++rep) {
            int n = sizes[s];
            double *xyz = malloc(sizeof(double) * 3 * (size_t)n);
            if (rep % 2 == 0) {
                hd_points_ellipsoid(&rng, n, hd_rng_uniform(&rng, 0.1, 3),
                                    hd_rng_uniform(&rng, 0.1, 3), hd_rng_uniform(&rng, 0.1, 3),
                                    xyz);
            } else {
                hd_points_cloud(&rng, n, 1, hd_rng_uniform(&rng, 0.01, 2), 0.5, xyz);
            }
            double scale = pow(10.0, hd_rng_uniform(&rng, -6, 6));
            for (int i = 0; i < 3 * n; ++i) xyz[i] *= scale;
            hd_polytope *p = build(xyz, n);
            check_polytope(p, 400);
            hd_polytope_destroy(p);
            free(xyz);
        }
    }
}

/* Regular k-gon prisms: two big (merged) caps and quad sides; directions exactly along the face
 * normals make plateaus of k or 4 equal vertices. */
static void test_prisms_and_cubes(void **state)
{
    (void)state;
    static const int ks[] = {3, 4, 6, 17, 64, 200};
    for (unsigned i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
        int k = ks[i];
        double *xyz = malloc(sizeof(double) * 6 * (size_t)k);
        for (int j = 0; j < k; ++j) {
            double t = 2 * HD_PI * j / k;
            for (int z = 0; z < 2; ++z) {
                double *p = xyz + 3 * (2 * j + z);
                p[0] = cos(t);
                p[1] = sin(t);
                p[2] = z ? 0.5 : -0.5;
            }
        }
        hd_polytope *p = build(xyz, 2 * k);
        check_polytope(p, 300);
        for (int j = 0; j < k; ++j) { /* side normals, analytically */
            double t = 2 * HD_PI * (j + 0.5) / k;
            double d[3] = {cos(t), sin(t), 0};
            check_direction(p, d, hd_rng_int(&rng, 2 * k));
        }
        hd_polytope_destroy(p);
        free(xyz);
    }
    double lo[3] = {-1, -2, -3}, hi[3] = {1, 2, 3}, box[24];
    hd_points_box(lo, hi, box);
    hd_polytope *p = build(box, 8);
    check_polytope(p, 1000);
    hd_polytope_destroy(p);
}

/* A cone: apex of degree k, a k-gon base; and a near-coplanar face (below). */
static void test_high_degree_and_near_coplanar(void **state)
{
    (void)state;
    int k = 500;
    double *xyz = malloc(sizeof(double) * 3 * (size_t)(k + 1));
    for (int j = 0; j < k; ++j) {
        double t = 2 * HD_PI * j / k;
        xyz[3 * j] = cos(t);
        xyz[3 * j + 1] = sin(t);
        xyz[3 * j + 2] = 0;
    }
    xyz[3 * k] = 0.1;
    xyz[3 * k + 1] = 0;
    xyz[3 * k + 2] = 2;
    hd_polytope *p = build(xyz, k + 1);
    check_polytope(p, 2000);
    hd_polytope_destroy(p);
    free(xyz);

    /* a frustum whose top is a 300-gon lifted randomly by up to 1e-11: merged into one face */
    int g = 300, count = 0;
    double *pts = malloc(sizeof(double) * 3 * (size_t)(g + 4));
    for (int i = 0; i < g; ++i) {
        double t = 2 * HD_PI * i / g, *q = pts + 3 * count++;
        q[0] = cos(t);
        q[1] = sin(t);
        q[2] = 1 + 1e-11 * hd_rng_uniform(&rng, -1, 1);
    }
    double base[12] = {-2, -2, -1, 2, -2, -1, 2, 2, -1, -2, 2, -1};
    for (int i = 0; i < 12; ++i) pts[3 * count + i] = base[i];
    count += 4;
    p = build(pts, count);
    int big = 0;
    for (int f = 0; f < p->face_count; ++f) {
        int len = p->face_offset[f + 1] - p->face_offset[f];
        big = len > big ? len : big;
    }
    assert_true(big >= g); /* the cap was merged */
    check_polytope(p, 3000);
    double up[3] = {0, 0, 1};
    for (int s = 0; s < p->vertex_count; ++s) {
        check_direction(p, up, s);
    }
    for (int i = 0; i < 3000; ++i) { /* directions near the cap's normal */
        double d[3] = {hd_rng_uniform(&rng, -1e-10, 1e-10), hd_rng_uniform(&rng, -1e-10, 1e-10), 1};
        check_direction(p, d, hd_rng_int(&rng, p->vertex_count));
    }
    hd_polytope_destroy(p);
    free(pts);
}

/* Lower-dimensional polytopes: a point, a segment, polygons (also not exactly planar). */
static void test_lower_dimensions(void **state)
{
    (void)state;
    double pt[3] = {1, 2, 3};
    hd_polytope *p = build(pt, 1);
    check_polytope(p, 20);
    hd_polytope_destroy(p);
    double seg[9] = {0, 0, 0, 1, 1, 1, 0.5, 0.5, 0.5};
    p = build(seg, 3);
    assert_int_equal(p->dim, 1);
    check_polytope(p, 100);
    hd_polytope_destroy(p);
    for (int rep = 0; rep < 20; ++rep) {
        int n = 3 + hd_rng_int(&rng, 200);
        double *xyz = malloc(sizeof(double) * 3 * (size_t)n);
        hd_pose pose = hd_rng_pose(&rng, NULL);
        for (int i = 0; i < n; ++i) {
            double t = hd_rng_uniform(&rng, 0, 2 * HD_PI);
            double q[3] = {cos(t), 0.3 * sin(t), rep % 2 ? 1e-12 * hd_rng_uniform(&rng, -1, 1) : 0};
            hd_pose_apply(&pose, q, xyz + 3 * i);
        }
        p = build(xyz, n);
        assert_int_equal(p->dim, 2);
        check_polytope(p, 300);
        double d[3] = {pose.r[2], pose.r[5], pose.r[8]}; /* the plane's normal */
        for (int s = 0; s < p->vertex_count && s < 50; ++s) {
            check_direction(p, d, s);
        }
        hd_polytope_destroy(p);
        free(xyz);
    }
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("test_support"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brute_lowest_index),
        cmocka_unit_test(test_random_clouds),
        cmocka_unit_test(test_prisms_and_cubes),
        cmocka_unit_test(test_high_degree_and_near_coplanar),
        cmocka_unit_test(test_lower_dimensions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
