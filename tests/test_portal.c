/* The portal first try of the boolean query (kernel/mpr.c, docs/algorithms/gjk.md section 10):
 * on small solids at scales 1e-6 to 1e6, near and far from the origin, every verdict outside the
 * band agrees with the brute-force signed distance and with GJK alone (HD_QUERY_NO_PORTAL), every
 * certificate passes hd_certificate_check, and the portal's own evidence (hdi_mpr_run) never
 * contradicts the brute force; touching, concentric and coplanar pairs, which the portal leaves to
 * GJK, are answered as GJK alone answers them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "kernel/mpr.h"
#include "support/pair.h"
#include "brute.h"
#include "testutil.h"

static hd_rng rng;

typedef struct portal_count {
    int pairs;
    int separated;
    int enclosed;
    int undecided;
} portal_count;

/* hdi_mpr_run's evidence on the posed pair, checked against the signed distance sd: a separation
 * proves sd >= lower > eps, an enclosing tetrahedron that the origin is inside M (sd <= 0). */
static void check_portal_evidence(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                                  const hd_pose *pb, double sd, double scale, portal_count *count)
{
    hd_options opt = hd_options_default();
    hdi_pair pair;
    assert_int_equal(hdi_pair_init(&pair, a, pa, b, pb, &opt), HD_OK);
    assert_true(hdi_mpr_applies(&pair));
    hdi_mpr_state m;
    hdi_mpr_run(&pair, &m, NULL);
    count->pairs++;
    double slack = 1e-12 * scale;
    if (m.end == HD_MPR_SEPARATED) {
        count->separated++;
        assert_true(m.lower > pair.eps);
        assert_true(sd >= m.lower - slack);
    } else if (m.end == HD_MPR_ENCLOSED) {
        count->enclosed++;
        assert_int_equal(m.tetra.count, 4);
        assert_true(sd <= slack);
    } else {
        count->undecided++;
    }
}

/* hd_collide with and without the portal: the same verdict outside the band (4 eps from it, the
 * brute force's rounding kept far below), certificates accepted. */
static void check_queries(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                          const hd_pose *pb, double sd)
{
    hd_options with = hd_options_default(), without = with;
    without.flags |= HD_QUERY_NO_PORTAL;
    hd_collide_result r1, r0;
    assert_int_equal(hd_collide(a, pa, b, pb, &with, &r1), HD_OK);
    assert_int_equal(hd_collide(a, pa, b, pb, &without, &r0), HD_OK);
    assert_int_equal(hd_certificate_check(a, pa, b, pb, r1.verdict, r1.eps, &r1.cert), HD_OK);
    assert_int_equal(hd_certificate_check(a, pa, b, pb, r0.verdict, r0.eps, &r0.cert), HD_OK);
    double eps = r1.eps;
    if (sd > 4.0 * eps) {
        assert_int_equal(r1.verdict, HD_SEPARATED);
    } else if (sd < -4.0 * eps) {
        assert_int_equal(r1.verdict, HD_INTERSECTING);
    }
    if (fabs(sd) > 4.0 * eps) {
        assert_int_equal(r1.verdict, r0.verdict);
    }
}

/* Random hulls of 4 to 32 points (the sizes whose supports are scans) on ellipsoids and in boxes,
 * random poses, gaps from deep overlap to well apart, scales 1e-6 to 1e6, and the whole pair
 * moved 0, 1e3 or 1e6 sizes from the origin. */
static void test_portal_random(void **state)
{
    (void)state;
    portal_count count = {0, 0, 0, 0};
    for (int trial = 0; trial < 1000; ++trial) {
        int na = 4 + hd_rng_int(&rng, 29), nb = 4 + hd_rng_int(&rng, 29);
        double s = pow(10.0, hd_rng_uniform(&rng, -6.0, 6.0));
        double xa[3 * 32], xb[3 * 32], wa[3 * 32], wb[3 * 32];
        if (trial % 2) {
            hd_points_ellipsoid(&rng, na, 2.0 * s, s, s, xa);
            hd_points_ellipsoid(&rng, nb, s, 0.7 * s, 0.5 * s, xb);
        } else {
            hd_points_cloud(&rng, na, s, 0.6 * s, 0.9 * s, xa);
            hd_points_cloud(&rng, nb, 0.8 * s, s, 0.4 * s, xb);
        }
        hd_polytope *a = hd_test_build(xa, na), *b = hd_test_build(xb, nb);
        assert_non_null(a);
        assert_non_null(b);
        double far = (trial % 3 == 0 ? 0.0 : trial % 3 == 1 ? 1e3 : 1e6) * s;
        double dir[3], off[3];
        hd_rng_unit_vector(&rng, dir);
        hd_rng_unit_vector(&rng, off);
        double r = s * hd_rng_uniform(&rng, 0.0, 4.0);
        double ta[3] = {far * off[0], far * off[1], far * off[2]};
        double tb[3] = {ta[0] + r * dir[0], ta[1] + r * dir[1], ta[2] + r * dir[2]};
        hd_pose pa = hd_rng_pose(&rng, ta), pb = hd_rng_pose(&rng, tb);
        na = hd_polytope_vertex_count(a);
        nb = hd_polytope_vertex_count(b);
        hd_brute_posed_vertices(a, &pa, wa);
        hd_brute_posed_vertices(b, &pb, wb);
        double sd = hd_brute_signed_distance(wa, na, wb, nb);
        check_portal_evidence(a, &pa, b, &pb, sd, far + 4.0 * s, &count);
        check_queries(a, &pa, b, &pb, sd);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    printf("portal on %d pairs: separated %d, enclosed %d, left to GJK %d\n", count.pairs,
           count.separated, count.enclosed, count.undecided);
    /* the portal must actually answer most random pairs, or this suite tests GJK alone */
    assert_true(count.separated + count.enclosed >= count.pairs / 2);
    assert_true(count.separated > 0 && count.enclosed > 0);
}

/* Pairs the portal must leave alone or cannot decide: boxes stacked face to face and touching
 * along an edge (inside the band), identical concentric boxes (the interior point is the origin),
 * and boxes overlapping by a sliver thinner than the band. GJK alone answers each the same. */
static void test_portal_contacts(void **state)
{
    (void)state;
    const double lo[3] = {-1.0, -1.0, -1.0}, hi[3] = {1.0, 1.0, 1.0};
    double box[24];
    hd_points_box(lo, hi, box);
    hd_polytope *cube = hd_test_build(box, 8);
    assert_non_null(cube);
    const double shifts[][3] = {
        {0.0, 0.0, 2.0},         /* stacked, face to face */
        {2.0, 2.0, 0.0},         /* edge to edge */
        {2.0, 2.0, 2.0},         /* corner to corner */
        {0.0, 0.0, 0.0},         /* concentric */
        {0.3, -0.2, 2.0 - 1e-14} /* overlapping by less than the band */
    };
    for (size_t i = 0; i < sizeof shifts / sizeof shifts[0]; ++i) {
        for (int k = 0; k < 3; ++k) {
            double far = k == 0 ? 0.0 : k == 1 ? 1e4 : 1e9;
            hd_pose pa = hd_test_translation(far, far, far);
            hd_pose pb =
                hd_test_translation(far + shifts[i][0], far + shifts[i][1], far + shifts[i][2]);
            hd_options with = hd_options_default(), without = with;
            without.flags |= HD_QUERY_NO_PORTAL;
            hd_collide_result r1, r0;
            assert_int_equal(hd_collide(cube, &pa, cube, &pb, &with, &r1), HD_OK);
            assert_int_equal(hd_collide(cube, &pa, cube, &pb, &without, &r0), HD_OK);
            assert_int_equal(hd_certificate_check(cube, &pa, cube, &pb, r1.verdict, r1.eps, &r1.cert), HD_OK);
            assert_int_equal(r1.verdict, r0.verdict);
            hd_verdict want = i == 3 ? HD_INTERSECTING : HD_TOUCHING;
            assert_int_equal(r1.verdict, want);
        }
    }
    hd_polytope_destroy(cube);
}

/* A cache given to a cold query holds the portal's support pairs afterwards; the next query
 * starts GJK from them and answers the same. */
static void test_portal_cache(void **state)
{
    (void)state;
    for (int trial = 0; trial < 200; ++trial) {
        double xa[3 * 20], xb[3 * 20];
        hd_points_ellipsoid(&rng, 20, 1.0, 0.6, 0.4, xa);
        hd_points_ellipsoid(&rng, 20, 0.5, 0.8, 0.7, xb);
        hd_polytope *a = hd_test_build(xa, 20), *b = hd_test_build(xb, 20);
        double dir[3];
        hd_rng_unit_vector(&rng, dir);
        double r = hd_rng_uniform(&rng, 0.0, 2.5), t[3] = {r * dir[0], r * dir[1], r * dir[2]};
        hd_pose pb = hd_rng_pose(&rng, t);
        hd_cache cache = HD_CACHE_INIT;
        hd_options opt = hd_options_default();
        opt.cache = &cache;
        hd_collide_result first, second;
        assert_int_equal(hd_collide(a, NULL, b, &pb, &opt, &first), HD_OK);
        assert_true(cache.valid);
        assert_int_equal(hd_collide(a, NULL, b, &pb, &opt, &second), HD_OK);
        assert_int_equal(first.verdict, second.verdict);
        assert_int_equal(hd_certificate_check(a, NULL, b, &pb, second.verdict, second.eps, &second.cert), HD_OK);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("test_portal"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_portal_random),
        cmocka_unit_test(test_portal_contacts),
        cmocka_unit_test(test_portal_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
