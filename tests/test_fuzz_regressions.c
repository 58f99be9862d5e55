/* Replays every input of fuzz/corpus/fuzz_query/ (the seed corpus and the inputs that once made
 * the fuzzer fail, named regress-*) through the fuzz target itself: it aborts when a certificate
 * is rejected, and the sanitizer builds catch memory errors. Also checks the kernels behind the
 * needle findings (kernel/simplex_robust.c) on needle tetrahedra with analytic weights and depth.
 */
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernel/simplex.h"
#include "core/math.h"
#include "brute.h"
#include "testutil.h"
#include "hedra/gjk2d.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        return 0;
    }
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    LLVMFuzzerTestOneInput(buf, n);
    return 1;
}

static void test_corpus(void **state)
{
    (void)state;
    const char *root = getenv("HEDRA_SOURCE");
    assert_non_null(root);
    char dir[1024], path[2048];
    snprintf(dir, sizeof dir, "%s/fuzz/corpus/fuzz_query", root);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int count = 0, regressions = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        count += replay(path);
        regressions += strncmp(e->d_name, "regress-", 8) == 0;
    }
    closedir(d);
    printf("replayed %d inputs (%d regressions)\n", count, regressions);
    assert_true(count >= 5);
    assert_true(regressions >= 2);
}

/* A needle tetrahedron through the origin: w0 = -L e, and w1..w3 = L e + h (-1,-1), (2,-1),
 * (-1,2) in the plane normal to e, whose centroid is L e. The origin is the midpoint of w0 and
 * that centroid: weights (1/2, 1/6, 1/6, 1/6). The section through the origin is the right
 * triangle with legs 1.5 h, and the origin is its centroid, a third of each altitude away from
 * each side: the nearest is the hypotenuse, at 1.5 h / sqrt(2) / 3 = h / (2 sqrt 2). The faces
 * lean by about h / L, so that is the depth of the origin to a relative (h / L)^2. A random
 * rotation (rounding of 2^-53 L per coordinate, far below h) hides the axes. With L / h = 1e10,
 * signed volumes (Cramer's rule in double) lose every digit of the weights. */
static void needle(hd_rng *rng, double L, double h, hdi_simplex *s)
{
    static const double sec[3][2] = {{-1.0, -1.0}, {2.0, -1.0}, {-1.0, 2.0}};
    hd_pose rot = hd_rng_pose(rng, NULL);
    double local[4][3] = {{-L, 0.0, 0.0}};
    for (int j = 0; j < 3; ++j) {
        hdi_v3_set(local[j + 1], L, sec[j][0] * h, sec[j][1] * h);
    }
    s->count = 4;
    for (int j = 0; j < 4; ++j) {
        hd_pose_apply(&rot, local[j], s->w[j]);
        s->ia[j] = s->ib[j] = j;
        s->lambda[j] = 0.25; /* deliberately wrong: polish must replace them */
    }
}

static void test_needle_kernels(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, hd_test_seed("test_fuzz_regressions"));
    const double expect[4] = {0.5, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0};
    for (int trial = 0; trial < 200; ++trial) {
        double L = pow(10.0, hd_rng_uniform(&rng, 0.0, 14.0));
        double h = L * pow(10.0, -hd_rng_uniform(&rng, 2.0, 11.0));
        hdi_simplex s;
        needle(&rng, L, h, &s);
        hdi_simplex_polish(&s);
        double r[3] = {0.0, 0.0, 0.0};
        for (int j = 0; j < 4; ++j) {
            hdi_v3_madd(r, r, s.lambda[j], s.w[j]);
            /* the weights themselves are determined to about 2^-53 L / h */
            assert_true(fabs(s.lambda[j] - expect[j]) <= 1e-6 + 1e-12 * L / h);
        }
        assert_true(hdi_v3_len(r) <= 64.0 * DBL_EPSILON * L);
        double depth = h / (2.0 * sqrt(2.0));
        double got = hdi_simplex_inner_depth(&s);
        double rel = 1e-9 + 4.0 * (h / L) * (h / L);
        assert_true(got <= depth * (1.0 + rel) + 64.0 * DBL_EPSILON * L);
        assert_true(got >= depth * (1.0 - rel) - 64.0 * DBL_EPSILON * L);
    }
}

/* A fuzz finding on which GJK's main loop stalls (needle triangles of M with coordinates from
 * subnormals to 4e13: rounding keeps |v| from decreasing while the bounds disagree) and reaches
 * its iteration cap. hd_collide must still answer, through the LP method (stop =
 * HD_STOP_FALLBACK); every algorithm's certificate must check and the verdicts must agree. */
static void test_gjk_stall_falls_back(void **state)
{
    (void)state;
    static const double xa[] = {-570425344.0,
                                -595821443.5137254,
                                6.9533558102856e-310,
                                0.0,
                                0.0,
                                0.0,
                                0.0,
                                0.0,
                                8.487983164e-314,
                                3.0355e-320,
                                -595821443.5137254,
                                -595821443.5137254,
                                -595821443.5137254,
                                -595821443.5137254,
                                -595821463.5137254,
                                1.606059559e-314,
                                0.0,
                                2.98405658e-315,
                                -595821056.0,
                                -595821443.5137254,
                                -595821443.5137254,
                                -41255400997763.51,
                                -41255400998277.516,
                                -41255400998277.516};
    static const double xb[] = {-41255400998277.516,
                                -41255400998277.516,
                                -41255400998277.516,
                                -41255400998277.516,
                                -41255400998277.516,
                                -595821957.5215685,
                                -595821443.5137254,
                                -595821443.5137254,
                                -864256899.5137254,
                                6.27367e-317,
                                -131072.00000005236,
                                4.842602741019312e-305,
                                1.35807731507e-312,
                                0.0,
                                0.0,
                                0.0,
                                0.0,
                                0.0,
                                0.0,
                                0.0,
                                0.0,
                                0.0,
                                0.0,
                                0.0};
    hd_polytope *a = NULL, *b = NULL;
    assert_int_equal(hd_polytope_build(xa, 8, NULL, &a), HD_OK);
    assert_int_equal(hd_polytope_build(xb, 8, NULL, &b), HD_OK);
    hd_verdict verdicts[HD_ALGO_COUNT];
    for (int algo = 0; algo < HD_ALGO_COUNT; ++algo) {
        hd_options opt = hd_options_default();
        opt.algo = (hd_algo)algo;
        hd_collide_result r;
        assert_int_equal(hd_collide(a, NULL, b, NULL, &opt, &r), HD_OK);
        assert_int_equal(hd_certificate_check(a, NULL, b, NULL, r.verdict, r.eps, &r.cert), HD_OK);
        verdicts[algo] = r.verdict;
        printf("%s: %s, stop %d\n", hd_algo_str(opt.algo), hd_verdict_str(r.verdict), (int)r.stop);
    }
    assert_int_equal(verdicts[HD_ALGO_GJK], verdicts[HD_ALGO_LP]);
    assert_int_equal(verdicts[HD_ALGO_GJK], verdicts[HD_ALGO_CDDUAL]);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* The fuzz finding regress-contact-gjk-bad-closest-point: a triangle of M with a 1e16-long edge
 * and a 6e8-short one, the origin 4.2e8 beyond the short edge. The solver took the short edge's
 * clearly negative area for rounding of the long one's size, kept the triangle and returned its
 * plane's closest point, |v| = 2. The answer must be the short edge's closest point, checked
 * against the long-double brute force. */
static void test_needle_triangle_solve(void **state)
{
    (void)state;
    hdi_simplex s;
    memset(&s, 0, sizeof s);
    s.count = 3;
    hdi_v3_set(s.w[0], 1.2338789709326767e-178, -2.0004863739190575, -595821443.5137254);
    hdi_v3_set(s.w[1], -10843962051529226.0, 131096.21960783945, -3.8186704651413743e-152);
    hdi_v3_set(s.w[2], -595821443.5137254, -2.0004863739190575, 0.0);
    double w[3][3], zero[3] = {0.0, 0.0, 0.0}, v[3];
    memcpy(w, s.w, sizeof w);
    double ref = (double)hd_brute_point_triangle(zero, w[0], w[1], w[2]);
    hdi_simplex_solve(&s, v);
    double len = hdi_v3_len(v);
    printf("triangle: |v| %.17g, brute force %.17g, kept %d points\n", len, ref, s.count);
    assert_true(fabs(len - ref) <= 1e-9 * ref);
    assert_int_equal(s.count, 2); /* the short edge */
}

/* The same finding through the queries: hd_distance (GJK), CD-Dual's separating plane and the
 * planar projections (hd_distance2d) against the brute force over the hull vertices. */
static void test_needle_distance(void **state)
{
    (void)state;
    static const double xa[] = {-570425344.0,
                                -595821443.5137254,
                                6.9533558102856193e-310,
                                -595821443.5137254,
                                0.0,
                                0.0,
                                3.1829936864479085e-313,
                                0.0,
                                -595821443.5137254,
                                -32250908.109803919,
                                -39047754122115.508,
                                -41255400998277.516,
                                -41255400998277.516,
                                -41255400998277.516,
                                -41255400998277.516,
                                -41255400998277.516,
                                -41255400998277.516,
                                5.7766261782210498e-275,
                                -41248866828288.0,
                                -595821443.51372552,
                                -595821443.5137254,
                                -595821443.5137254,
                                5.0573223812119122e-305,
                                5.7865327226227428e-275};
    static const double xb[] = {10843961446891534.0,
                                10843961460426374.0,
                                10843385930090118.0,
                                2710990363926945.5,
                                10843961455707782.0,
                                10843961455707782.0,
                                10843961455707782.0,
                                -131096.21960783945,
                                3.8186704651413743e-152,
                                -1.2338789709326767e-178,
                                2.0004863739190575,
                                0.0,
                                0.0,
                                0.0,
                                0.0};
    hd_polytope *a = NULL, *b = NULL;
    assert_int_equal(hd_polytope_build(xa, 8, NULL, &a), HD_OK);
    assert_int_equal(hd_polytope_build(xb, 5, NULL, &b), HD_OK);
    double ref = hd_brute_distance(xa, 8, xb, 5, NULL, NULL);
    double tol = 256.0 * DBL_EPSILON * 1.1e16;
    hd_distance_result r;
    assert_int_equal(hd_distance(a, NULL, b, NULL, NULL, &r), HD_OK);
    assert_int_equal(hd_certificate_check(a, NULL, b, NULL, r.verdict, r.eps, &r.cert), HD_OK);
    printf("distance %.17g, brute force %.17g\n", r.distance, ref);
    assert_int_equal(r.verdict, HD_SEPARATED);
    assert_true(fabs(r.distance - ref) <= tol);
    assert_true(fabs(hdi_v3_dist(r.witness_a, r.witness_b) - ref) <= tol);
    hd_options opt = hd_options_default();
    opt.algo = HD_ALGO_CDDUAL;
    hd_collide_result rc;
    assert_int_equal(hd_collide(a, NULL, b, NULL, &opt, &rc), HD_OK);
    assert_true(rc.cert.gap <= ref + tol && rc.cert.gap >= ref - tol);
    for (int x = 0; x < 3; ++x) {
        double a2[16], b2[10];
        for (int i = 0; i < 8; ++i) {
            a2[2 * i] = xa[3 * i + x];
            a2[2 * i + 1] = xa[3 * i + (x + 1) % 3];
        }
        for (int i = 0; i < 5; ++i) {
            b2[2 * i] = xb[3 * i + x];
            b2[2 * i + 1] = xb[3 * i + (x + 1) % 3];
        }
        hd_distance2d_result r2;
        assert_int_equal(hd_distance2d(a2, 8, b2, 5, NULL, &r2), HD_OK);
        double ref2 = r2.verdict == HD_SEPARATED ? hd_brute2d_distance(a2, 8, b2, 5) : 0.0;
        printf("plane %d: distance2d %.17g, brute force %.17g\n", x, r2.distance, ref2);
        assert_true(fabs(r2.distance - ref2) <= tol);
        assert_true(r2.verdict == HD_SEPARATED || hd_brute2d_sat(a2, 8, b2, 5) >= -tol);
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* A fuzz finding: a pair within the band (signed distance 0.7, eps = 56) whose GJK simplex is a
 * needle tetrahedron; hd_distance reported "touching" with witnesses 3e7 apart, from the simplex's
 * own weights. The witnesses must be the certificate's point pair, within eps of each other, and
 * the brute-force signed distance must be inside the band. */
/* Two needle-like sets at 4e13 whose hulls touch (found by fuzzing). */
static const double needle_touch_a[] = {5.7293983366840045e-313,
                                        -595821443.5137254,
                                        -1.6060595590625211e-314,
                                        0.0,
                                        0.0,
                                        0.0,
                                        0.0,
                                        0.0,
                                        0.0,
                                        -595724288.0,
                                        3.3143667957510388e-300,
                                        -221184.0,
                                        -595821443.5137254,
                                        -595821443.5137254,
                                        -595821443.51372659,
                                        9.5354669647360583e-322,
                                        0.0,
                                        0.0,
                                        -595821443.51370239,
                                        -595821443.5137254,
                                        -595821443.5137254,
                                        -41255400998277.516,
                                        -41255400997969.516,
                                        -41255400998277.516};
static const double needle_touch_b[] = {-41255400998276.477,
                                        -41255400998277.516,
                                        -41255400998277.516,
                                        4.1328156455844485e-312,
                                        0.0,
                                        0.0,
                                        4.5236639959429208e-312,
                                        3.4732827106519577e-310,
                                        -595722240.0,
                                        1.0001847809436273,
                                        9.7727242955431037e-309,
                                        1.7506465275463497e-313};

static void build_needle_touch(hd_polytope **a, hd_polytope **b)
{
    assert_int_equal(hd_polytope_build(needle_touch_a, 8, NULL, a), HD_OK);
    assert_int_equal(hd_polytope_build(needle_touch_b, 4, NULL, b), HD_OK);
}

static void test_touching_witnesses(void **state)
{
    (void)state;
    hd_polytope *a = NULL, *b = NULL;
    build_needle_touch(&a, &b);
    hd_distance_result r;
    assert_int_equal(hd_distance(a, NULL, b, NULL, NULL, &r), HD_OK);
    assert_int_equal(hd_certificate_check(a, NULL, b, NULL, r.verdict, r.eps, &r.cert), HD_OK);
    double ref = hd_brute_signed_distance(needle_touch_a, 8, needle_touch_b, 4);
    double gap = hdi_v3_dist(r.witness_a, r.witness_b);
    printf("%s, witnesses %.17g apart, eps %.17g, brute-force signed distance %.17g\n",
           hd_verdict_str(r.verdict), gap, r.eps, ref);
    assert_int_equal(r.verdict, HD_TOUCHING);
    assert_true(fabs(ref) <= r.eps);
    assert_true(gap <= 1.01 * r.eps);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* The same pair's contact: hd_signed_distance's bounds contain its value (the enclosure that the
 * overlap path started from was rounded past its margin, and the facet found the origin outside),
 * and no direction proves a larger signed distance than the upper bound: for the normal n,
 * delta >= -h_M(n) by brute-force supports over the built hulls' vertices. */
static void test_touching_contact_bounds(void **state)
{
    (void)state;
    hd_polytope *a = NULL, *b = NULL;
    build_needle_touch(&a, &b);
    hd_signed_distance_result c;
    assert_int_equal(hd_signed_distance(a, NULL, b, NULL, NULL, &c), HD_OK);
    double va[3 * 8], vb[3 * 4], minus_n[3] = {-c.normal[0], -c.normal[1], -c.normal[2]};
    int na = hd_polytope_vertex_count(a), nb = hd_polytope_vertex_count(b);
    hd_brute_posed_vertices(a, NULL, va);
    hd_brute_posed_vertices(b, NULL, vb);
    double gap = -hd_brute_support_value(vb, nb, minus_n, NULL) -
                 hd_brute_support_value(va, na, c.normal, NULL);
    printf("signed distance %.17g in [%.17g, %.17g], brute gap along n %.17g, eps %.17g\n",
           c.signed_distance, -(-c.lower), -(-c.upper), gap, c.eps);
    assert_true((-c.upper) <= -c.signed_distance && -c.signed_distance <= (-c.lower));
    assert_true(-(-c.upper) >= gap - 1e-3);
    assert_int_equal(c.verdict, HD_TOUCHING);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_corpus),
                                       cmocka_unit_test(test_needle_kernels),
                                       cmocka_unit_test(test_gjk_stall_falls_back),
                                       cmocka_unit_test(test_needle_triangle_solve),
                                       cmocka_unit_test(test_needle_distance),
                                       cmocka_unit_test(test_touching_witnesses),
                                       cmocka_unit_test(test_touching_contact_bounds)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
