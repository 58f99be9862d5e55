/* The warm fast paths of hd_collide (gjk/warm.c): a frame-coherent pair answered from last
 * frame's axis or tetrahedron, a cache from another pair, a stale cache, crafted axes at the band
 * edge. Every answer is judged by the exact GLPK oracle (the sign of the signed distance) with the
 * brute-force magnitude (hd_oracle_verdict_ok) and its certificate by hd_certificate_check. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "brute.h"
#include "oracle.h"
#include "testutil.h"

#include "hedra/hedra.h"

static hd_rng rng;

/* How the warm answers were reached, over a run. */
typedef struct warm_counts {
    int queries;
    int by_plane;  /* separated with one support pair: the cached axis */
    int by_tetra;  /* intersecting with no support call: the cached tetrahedron */
    int separated; /* verdicts */
    int touching;
    int intersecting;
} warm_counts;

/* The hull of n points on an ellipsoid, or at n = 8 a box 1 x 0.8 x 0.6 (half sides). */
static hd_polytope *make_hull(int n, double scale)
{
    double xyz[3 * 64];
    if (n == 8) {
        const double lo[3] = {-scale, -0.8 * scale, -0.6 * scale};
        const double hi[3] = {scale, 0.8 * scale, 0.6 * scale};
        hd_points_box(lo, hi, xyz);
    } else {
        hd_points_ellipsoid(&rng, n, scale, 0.8 * scale, 0.6 * scale, xyz);
    }
    hd_polytope *p = hd_test_build(xyz, n);
    assert_non_null(p);
    return p;
}

/* The answer r for (a, b at pose pb) against the oracles; prints the case when it fails. */
static void check_answer(const char *tag, const hd_polytope *a, const hd_polytope *b,
                         const hd_pose *pb, const hd_collide_result *r)
{
    double wa[3 * 64], wb[3 * 64];
    int na = hd_polytope_vertex_count(a), nb = hd_polytope_vertex_count(b);
    hd_brute_posed_vertices(a, NULL, wa);
    hd_brute_posed_vertices(b, pb, wb);
    int sign = hd_oracle_sign(wa, na, wb, nb);
    double mag = fabs(hd_brute_signed_distance(wa, na, wb, nb));
    int ok = sign != -2 && hd_oracle_verdict_ok(sign, mag, r->eps, 1.0, r->verdict);
    hd_status cert = hd_certificate_check(a, NULL, b, pb, r->verdict, r->eps, &r->cert);
    if (!ok || cert != HD_OK) {
        printf("%s: oracle sign %d |sd| %.17g eps %.3g, verdict %s, certificate %s\n", tag, sign,
               mag, r->eps, hd_verdict_str(r->verdict), hd_status_str(cert));
    }
    assert_true(ok);
    assert_int_equal(cert, HD_OK);
}

static void count_answer(const hd_collide_result *r, warm_counts *c)
{
    c->queries++;
    c->separated += r->verdict == HD_SEPARATED;
    c->touching += r->verdict == HD_TOUCHING;
    c->intersecting += r->verdict == HD_INTERSECTING;
    c->by_plane += r->verdict == HD_SEPARATED && r->stats.support_calls == 2;
    c->by_tetra += r->verdict == HD_INTERSECTING && r->stats.support_calls == 0;
}

/* B's pose at frame f: turning about a fixed axis while its centre runs in and out along a fixed
 * direction, through contact (speed: the turn and run per frame). */
static hd_pose frame_pose(int f, double speed, double scale)
{
    const double axis[3] = {0.48, 0.6, 0.64}, dir[3] = {0.8, -0.36, 0.48};
    double angle = 0.3 + 0.005 * speed * f, s = sin(0.5 * angle);
    double q[4] = {cos(0.5 * angle), s * axis[0], s * axis[1], s * axis[2]};
    double reach = scale * (1.6 + 0.6 * cos(2.0 * HD_PI * speed * f / 400.0));
    double t[3] = {reach * dir[0], reach * dir[1], reach * dir[2]};
    hd_pose p;
    hd_pose_from_quaternion(q, t, &p);
    return p;
}

static hd_collide_result warm_query(const hd_polytope *a, const hd_polytope *b, const hd_pose *pb,
                                    hd_cache *cache)
{
    hd_options opt = hd_options_default();
    opt.cache = cache;
    hd_collide_result r;
    assert_int_equal(hd_collide(a, NULL, b, pb, &opt, &r), HD_OK);
    return r;
}

/* A coherent motion through four contacts with one cache: every answer exact and certified, and
 * most of them from the cached axis or tetrahedron. */
static void test_coherent_motion(void **state)
{
    (void)state;
    static const int sizes[] = {8, 12, 16, 24};
    for (int k = 0; k < 4; ++k) {
        for (int s = 0; s < 2; ++s) {
            double scale = s == 0 ? 1.0 : 1e3;
            hd_polytope *a = make_hull(sizes[k], scale), *b = make_hull(sizes[k], scale);
            hd_cache cache = HD_CACHE_INIT;
            warm_counts c = {0};
            for (int f = 0; f < 400; ++f) {
                hd_pose pb = frame_pose(f, 1.0, scale);
                hd_collide_result r = warm_query(a, b, &pb, &cache);
                check_answer("coherent", a, b, &pb, &r);
                count_answer(&r, &c);
            }
            printf("coherent n=%d scale %g: %d queries, separated %d (by the axis %d), touching "
                   "%d, intersecting %d (by the tetrahedron %d)\n",
                   sizes[k], scale, c.queries, c.separated, c.by_plane, c.touching, c.intersecting,
                   c.by_tetra);
            assert_true(c.separated > 0 && c.intersecting > 0);
            assert_true(c.by_plane > 0);
            assert_true(c.by_tetra > 0);
            hd_polytope_destroy(a);
            hd_polytope_destroy(b);
        }
    }
}

/* The cache of one pair used for another (other hulls, other vertex counts), and a cache several
 * frames old (the pair moved by up to 15 % of its size since): still exact and certified. */
static void test_foreign_and_stale_cache(void **state)
{
    (void)state;
    hd_polytope *a = make_hull(12, 1.0), *b = make_hull(12, 1.0);
    hd_polytope *c = make_hull(16, 1.0), *d = make_hull(8, 1.0);
    hd_cache other = HD_CACHE_INIT, old = HD_CACHE_INIT;
    warm_counts foreign = {0}, stale = {0};
    for (int f = 0; f < 400; ++f) {
        hd_pose pb = frame_pose(f, 1.0, 1.0), pd = frame_pose(f + 37, 1.3, 1.0);
        hd_collide_result rd = warm_query(c, d, &pd, &other); /* the other pair's cache... */
        check_answer("other pair", c, d, &pd, &rd);
        hd_cache borrowed = other;
        hd_collide_result r = warm_query(a, b, &pb, &borrowed); /* ...used for this one */
        check_answer("foreign cache", a, b, &pb, &r);
        count_answer(&r, &foreign);
        if (f % 30 == 0) {
            hd_cache_reset(&old);
            (void)warm_query(a, b, &pb, &old); /* the cache of frame f... */
        }
        hd_pose later = frame_pose(f + 25, 1.0, 1.0);
        hd_cache aged = old;
        hd_collide_result rs = warm_query(a, b, &later, &aged); /* ...25 to 54 frames on */
        check_answer("stale cache", a, b, &later, &rs);
        count_answer(&rs, &stale);
    }
    printf("foreign cache: %d queries, separated %d (by the axis %d), intersecting %d (by the "
           "tetrahedron %d)\n",
           foreign.queries, foreign.separated, foreign.by_plane, foreign.intersecting,
           foreign.by_tetra);
    printf("stale cache: %d queries, separated %d (by the axis %d), intersecting %d (by the "
           "tetrahedron %d)\n",
           stale.queries, stale.separated, stale.by_plane, stale.intersecting, stale.by_tetra);
    assert_true(foreign.separated > 0 && foreign.intersecting > 0);
    assert_true(stale.separated > 0 && stale.intersecting > 0);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    hd_polytope_destroy(c);
    hd_polytope_destroy(d);
}

/* Two boxes face to face, B at x = 2 + g, with the exact separating axis cached: the axis answers
 * only beyond the band (g = 3 eps, 100 eps: one support pair); inside it (g = 0.5 eps, 0, -0.5 eps)
 * and beyond it on the overlapping side (g = -3 eps) GJK decides. The verdicts are the closed
 * form's: separated for g > eps, touching for |g| <= eps, intersecting below. */
static void test_axis_at_band_edge(void **state)
{
    (void)state;
    static const double gaps[] = {100.0, 3.0, 0.5, 0.0, -0.5, -3.0};
    const double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    double xyz[24];
    hd_points_box(lo, hi, xyz);
    hd_polytope *a = hd_test_build(xyz, 8), *b = hd_test_build(xyz, 8);
    hd_pose probe = hd_test_translation(2.0, 0.25, -0.125);
    double eps = warm_query(a, b, &probe, NULL).eps; /* the pair's band: the same for every g */
    for (int axis = 0; axis < 2; ++axis) {
        for (int k = 0; k < 6; ++k) {
            double g = gaps[k] * eps;
            hd_pose pb = hd_test_translation(2.0 + g, 0.25, -0.125);
            hd_cache cache = HD_CACHE_INIT;
            cache.valid = true;
            /* the exact axis, or one of length 2 (not a unit vector: ignored) */
            cache.axis[0] = axis == 0 ? 1.0 : 2.0;
            hd_collide_result r = warm_query(a, b, &pb, &cache);
            hd_verdict want = g > eps ? HD_SEPARATED : g >= -eps ? HD_TOUCHING : HD_INTERSECTING;
            printf("boxes at gap %g eps, axis length %d: %s, %d support calls\n", gaps[k], axis + 1,
                   hd_verdict_str(r.verdict), r.stats.support_calls);
            assert_int_equal(r.verdict, want);
            assert_int_equal(hd_certificate_check(a, NULL, b, &pb, r.verdict, r.eps, &r.cert),
                             HD_OK);
            if (axis == 0 && want == HD_SEPARATED) {
                assert_int_equal(r.stats.support_calls, 2); /* the axis alone */
            }
        }
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* A cached tetrahedron that no longer holds the origin, or holds it within the band, or is made
 * of repeated pairs, never answers by itself. */
static void test_tetra_cache(void **state)
{
    (void)state;
    const double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    double xyz[24];
    hd_points_box(lo, hi, xyz);
    hd_polytope *a = hd_test_build(xyz, 8), *b = hd_test_build(xyz, 8);
    static const double xs[] = {0.5, 1.999, 2.0, 2.5};
    for (int k = 0; k < 4; ++k) {
        hd_pose deep = hd_test_translation(0.5, 0.1, 0.0), pb = hd_test_translation(xs[k], 0.1, 0);
        hd_cache cache = HD_CACHE_INIT;
        hd_collide_result r0 = warm_query(a, b, &deep, &cache); /* a tetrahedron of the overlap */
        assert_int_equal(r0.verdict, HD_INTERSECTING);
        for (int repeat = 0; repeat < 2; ++repeat) {
            hd_cache c = cache;
            if (repeat) {
                c.simplex_count = 4; /* a flat tetrahedron: one pair four times */
                for (int j = 1; j < 4; ++j) {
                    c.simplex_a[j] = c.simplex_a[0];
                    c.simplex_b[j] = c.simplex_b[0];
                }
            }
            hd_collide_result r = warm_query(a, b, &pb, &c);
            check_answer("tetrahedron cache", a, b, &pb, &r);
        }
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("unit/gjk/warm"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coherent_motion),
        cmocka_unit_test(test_foreign_and_stale_cache),
        cmocka_unit_test(test_axis_at_band_edge),
        cmocka_unit_test(test_tetra_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
