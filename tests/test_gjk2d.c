/* 2D GJK on point arrays (hd_collide2d, hd_distance2d): verdicts and distances against the
 * long-double brute force of tests/support/brute.c, certificates by hd_certificate_check2d and
 * by an independent check here, touching contacts, degenerate inputs, scales, argument errors. */
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
#include "testutil.h"

#define MAXP 64

static hd_rng rng;

typedef struct tally {
    int pairs, sep, touch, inter, refined, max_iter;
    double max_ulps;
} tally;

static tally counts;

static double max_abs(const double *p, int n)
{
    double m = 0;
    for (int i = 0; i < 2 * n; ++i)
        m = fmax(m, fabs(p[i]));
    return m;
}

/* An independent look at the certificate (the library's check is used as well). */
static void check_certificate(const double *a, int na, const double *b, int nb,
                              hd_verdict verdict, double eps, const hd_certificate2d *c)
{
    double scale = fmax(max_abs(a, na), max_abs(b, nb)), slack = 64 * DBL_EPSILON * scale;
    if (verdict != HD_INTERSECTING) {
        assert_true(c->has_line);
        double lo_b = INFINITY, hi_a = -INFINITY;
        for (int i = 0; i < na; ++i)
            hi_a = fmax(hi_a, c->normal[0] * a[2 * i] + c->normal[1] * a[2 * i + 1]);
        for (int i = 0; i < nb; ++i)
            lo_b = fmin(lo_b, c->normal[0] * b[2 * i] + c->normal[1] * b[2 * i + 1]);
        assert_true(lo_b - hi_a >= c->gap - slack);
        assert_true(verdict == HD_SEPARATED ? c->gap > eps : c->gap >= -eps);
    }
    if (verdict != HD_SEPARATED) {
        assert_true(c->has_point);
        double pa[2] = {0, 0}, pb[2] = {0, 0};
        for (int k = 0; k < c->on_a.count; ++k) {
            pa[0] += c->on_a.weight[k] * a[2 * c->on_a.index[k]];
            pa[1] += c->on_a.weight[k] * a[2 * c->on_a.index[k] + 1];
        }
        for (int k = 0; k < c->on_b.count; ++k) {
            pb[0] += c->on_b.weight[k] * b[2 * c->on_b.index[k]];
            pb[1] += c->on_b.weight[k] * b[2 * c->on_b.index[k] + 1];
        }
        assert_true(hypot(pa[0] - pb[0], pa[1] - pb[1]) <= eps + slack);
    }
    assert_int_equal(hd_certificate_check2d(a, na, b, nb, verdict, eps, c), HD_OK);
}

/* Both queries on a pair; sd: the signed distance (NAN: from brute force). */
static hd_verdict check_pair(const char *tag, const double *a, int na, const double *b, int nb,
                             double sd)
{
    if (isnan(sd))
        sd = hd_brute2d_signed_distance(a, na, b, nb);
    hd_collide2d_result rc;
    hd_distance2d_result rd;
    assert_int_equal(hd_collide2d(a, na, b, nb, NULL, &rc), HD_OK);
    assert_int_equal(hd_distance2d(a, na, b, nb, NULL, &rd), HD_OK);
    double eps = rc.eps, scale = fmax(max_abs(a, na), max_abs(b, nb));
    hd_verdict want = sd > eps ? HD_SEPARATED : sd < -eps ? HD_INTERSECTING : HD_TOUCHING;
    int at_edge = fabs(fabs(sd) - eps) <= 1e-3 * eps + 64 * DBL_EPSILON * scale;
    if (!at_edge && (rc.verdict != want || rd.verdict != want)) {
        printf("%s: sd %.17g eps %.3g want %s got %s / %s\n", tag, sd, eps, hd_verdict_str(want),
               hd_verdict_str(rc.verdict), hd_verdict_str(rd.verdict));
        fail();
    }
    check_certificate(a, na, b, nb, rc.verdict, rc.eps, &rc.cert);
    check_certificate(a, na, b, nb, rd.verdict, rd.eps, &rd.cert);
    if (rd.verdict == HD_SEPARATED) {
        double err = fabs(rd.distance - sd);
        counts.max_ulps = fmax(counts.max_ulps, err / (DBL_EPSILON * scale));
        if (err > 16 * DBL_EPSILON * scale) {
            printf("%s: distance %.17g exact %.17g (%.1f ulps of scale)\n", tag, rd.distance, sd,
                   err / (DBL_EPSILON * scale));
            fail();
        }
        double wa[2] = {rd.witness_a[0], rd.witness_a[1]},
               wb[2] = {rd.witness_b[0], rd.witness_b[1]};
        assert_true(fabs(hypot(wa[0] - wb[0], wa[1] - wb[1]) - rd.distance) <=
                    16 * DBL_EPSILON * scale);
        assert_true(hd_brute2d_distance(wa, 1, a, na) <= 16 * DBL_EPSILON * scale);
        assert_true(hd_brute2d_distance(wb, 1, b, nb) <= 16 * DBL_EPSILON * scale);
    } else {
        assert_true(rd.distance == 0.0);
    }
    if (rc.verdict == HD_INTERSECTING) {
        assert_true(rc.cert.depth_bound <= -sd + 64 * DBL_EPSILON * scale);
    }
    counts.pairs++;
    counts.sep += rc.verdict == HD_SEPARATED;
    counts.touch += rc.verdict == HD_TOUCHING;
    counts.inter += rc.verdict == HD_INTERSECTING;
    counts.refined += rc.stop == HD_STOP_REFINED;
    counts.max_iter = rc.stats.iterations > counts.max_iter ? rc.stats.iterations : counts.max_iter;
    return rc.verdict;
}

/* n random points: on an ellipse (kind 0), in a box (1), or a few on a line with repeats (2). */
static void random_set(int kind, int n, double size, double cx, double cy, double *p)
{
    double ang = hd_rng_uniform(&rng, 0, 2 * HD_PI), c = cos(ang), s = sin(ang);
    double ax = size * hd_rng_uniform(&rng, 0.2, 1), ay = size * hd_rng_uniform(&rng, 0.05, 1);
    for (int i = 0; i < n; ++i) {
        double x, y;
        if (kind == 0) {
            double t = hd_rng_uniform(&rng, 0, 2 * HD_PI);
            x = ax * cos(t);
            y = ay * sin(t);
        } else if (kind == 1) {
            x = hd_rng_uniform(&rng, -ax, ax);
            y = hd_rng_uniform(&rng, -ay, ay);
        } else {
            x = ax * (hd_rng_int(&rng, 5) - 2) / 2.0;
            y = 0;
        }
        p[2 * i] = cx + c * x - s * y;
        p[2 * i + 1] = cy + s * x + c * y;
    }
}

/* Moves b along unit (ux, uy) so that min_B u.b - max_A u.a = gap. */
static void place_at_gap(const double *a, int na, double *b, int nb, double ux, double uy,
                         double gap)
{
    double ha = -INFINITY, lb = INFINITY;
    for (int i = 0; i < na; ++i)
        ha = fmax(ha, ux * a[2 * i] + uy * a[2 * i + 1]);
    for (int i = 0; i < nb; ++i)
        lb = fmin(lb, ux * b[2 * i] + uy * b[2 * i + 1]);
    for (int i = 0; i < nb; ++i) {
        b[2 * i] += (ha - lb + gap) * ux;
        b[2 * i + 1] += (ha - lb + gap) * uy;
    }
}

static void test_random_separated(void **state)
{
    (void)state;
    for (int i = 0; i < 3000; ++i) {
        double a[2 * MAXP], b[2 * MAXP];
        double scale = pow(10.0, hd_rng_uniform(&rng, -6, 6));
        int na = 1 + hd_rng_int(&rng, 20), nb = 1 + hd_rng_int(&rng, 20);
        random_set(hd_rng_int(&rng, 3), na, scale, scale * hd_rng_uniform(&rng, -50, 50), 0, a);
        random_set(hd_rng_int(&rng, 3), nb, scale * hd_rng_uniform(&rng, 0.1, 3), 0, 0, b);
        double t = hd_rng_uniform(&rng, 0, 2 * HD_PI);
        double gap = scale * pow(10.0, hd_rng_uniform(&rng, -9, 1));
        place_at_gap(a, na, b, nb, cos(t), sin(t), gap);
        assert_int_equal(check_pair("separated", a, na, b, nb, NAN), HD_SEPARATED);
    }
}

static void test_random_mixed(void **state)
{
    (void)state;
    for (int i = 0; i < 3000; ++i) {
        double a[2 * MAXP], b[2 * MAXP];
        double scale = pow(10.0, hd_rng_uniform(&rng, -4, 4));
        int na = 1 + hd_rng_int(&rng, 16), nb = 1 + hd_rng_int(&rng, 16);
        random_set(hd_rng_int(&rng, 3), na, scale, 0, 0, a);
        random_set(hd_rng_int(&rng, 3), nb, scale, scale * hd_rng_uniform(&rng, -2, 2),
                   scale * hd_rng_uniform(&rng, -2, 2), b);
        check_pair("mixed", a, na, b, nb, NAN);
    }
}

/* Both contain a disc around the same point: intersecting. */
static void test_overlapping(void **state)
{
    (void)state;
    for (int i = 0; i < 1000; ++i) {
        double a[2 * MAXP], b[2 * MAXP];
        double scale = pow(10.0, hd_rng_uniform(&rng, -6, 6));
        double cx = scale * hd_rng_uniform(&rng, -100, 100),
               cy = scale * hd_rng_uniform(&rng, -100, 100);
        int na = 3 + hd_rng_int(&rng, 20), nb = 3 + hd_rng_int(&rng, 20);
        random_set(0, na, scale, cx, cy, a);
        random_set(0, nb, scale * hd_rng_uniform(&rng, 0.1, 3), cx, cy, b);
        a[0] = cx + scale; /* make sure each hull has the centre strictly inside */
        a[1] = cy;
        a[2] = cx - scale * 0.5;
        a[3] = cy + scale * 0.8;
        a[4] = cx - scale * 0.5;
        a[5] = cy - scale * 0.8;
        double r = scale * 0.2;
        b[0] = cx + r;
        b[1] = cy;
        b[2] = cx - r * 0.5;
        b[3] = cy + r * 0.8;
        b[4] = cx - r * 0.5;
        b[5] = cy - r * 0.8;
        assert_int_equal(check_pair("overlapping", a, na, b, nb, NAN), HD_INTERSECTING);
    }
}

static void test_near_touching(void **state)
{
    (void)state;
    for (int i = 0; i < 2000; ++i) {
        double a[2 * MAXP], b[2 * MAXP];
        double size = pow(10.0, hd_rng_uniform(&rng, -5, 5));
        int na = 2 + hd_rng_int(&rng, 20), nb = 2 + hd_rng_int(&rng, 20);
        random_set(hd_rng_int(&rng, 2), na, size, 0, 0, a);
        random_set(hd_rng_int(&rng, 2), nb, size, 0, 0, b);
        double t = hd_rng_uniform(&rng, 0, 2 * HD_PI);
        place_at_gap(a, na, b, nb, cos(t), sin(t), 1e-9 * size);
        assert_int_equal(check_pair("near-touching", a, na, b, nb, NAN), HD_SEPARATED);
    }
}

/* Exact contacts at every scale: squares sharing an edge, a corner, a corner on an edge,
 * collinear segments, a point on a segment, coincident points; and squares overlapping by
 * k eps across the band edge. */
static void test_touching(void **state)
{
    (void)state;
    static const double scales[] = {1e-6, 1e-3, 1, 1e3, 1e6};
    for (unsigned i = 0; i < sizeof scales / sizeof scales[0]; ++i) {
        double s = scales[i];
        double sq[8] = {-s, -s, s, -s, s, s, -s, s};
        static const double offs[4][2] = {{2, 0}, {2, 2}, {2, 0.5}, {0.5, 2}};
        for (int k = 0; k < 4; ++k) {
            double t[8];
            for (int j = 0; j < 4; ++j) {
                t[2 * j] = sq[2 * j] + offs[k][0] * s;
                t[2 * j + 1] = sq[2 * j + 1] + offs[k][1] * s;
            }
            assert_int_equal(check_pair("squares", sq, 4, t, 4, 0.0), HD_TOUCHING);
        }
        double seg1[4] = {-s, s, s, s}, seg2[4] = {s, s, 3 * s, s}, pt[2] = {0.25 * s, s};
        assert_int_equal(check_pair("collinear", seg1, 2, seg2, 2, 0.0), HD_TOUCHING);
        assert_int_equal(check_pair("point-on-segment", seg1, 2, pt, 1, 0.0), HD_TOUCHING);
        assert_int_equal(check_pair("point-on-edge", sq, 4, pt, 1, 0.0), HD_TOUCHING);
        assert_int_equal(check_pair("coincident", pt, 1, pt, 1, 0.0), HD_TOUCHING);
        assert_int_equal(check_pair("segment-on-edge", sq, 4, seg1, 2, 0.0), HD_TOUCHING);
        double cross[4] = {0, -2 * s, 0, 2 * s}, flat[4] = {-2 * s, 0, 2 * s, 0};
        /* in the plane, crossing segments have a full-dimensional M (a square): depth 2s */
        assert_int_equal(check_pair("crossing-segments", cross, 2, flat, 2, NAN), HD_INTERSECTING);
        assert_int_equal(check_pair("segment-through-square", sq, 4, flat, 2, NAN),
                         HD_INTERSECTING);
        /* band edges: B shifted from touching by k eps */
        static const double ks[] = {-10, -1.5, -0.5, 0.5, 1.5, 10};
        for (unsigned j = 0; j < sizeof ks / sizeof ks[0]; ++j) {
            hd_collide2d_result r;
            double t[8];
            for (int q = 0; q < 8; ++q)
                t[q] = sq[q] + (q % 2 == 0 ? 2 * s : 0.3 * s);
            hd_collide2d(sq, 4, t, 4, NULL, &r);
            double eps = r.eps;
            for (int q = 0; q < 8; q += 2)
                t[q] = sq[q] + 2 * s + ks[j] * eps;
            double sd = t[0] - s; /* exact after rounding: B's left edge minus A's right edge */
            assert_int_equal(check_pair("band", sq, 4, t, 4, sd), sd > eps    ? HD_SEPARATED
                                                                  : sd < -eps ? HD_INTERSECTING
                                                                              : HD_TOUCHING);
        }
    }
}

/* A small square (side 1e-9 to 0.1) against a long segment or thin rectangle (length 0.1 to 10),
 * both turned, crossing or nearly touching: the Minkowski differences are needles far from the
 * origin, where the 3D solver needed its double-double polish (docs/algorithms/gjk.md, 4). */
static void test_small_against_long(void **state)
{
    (void)state;
    static const double square[8] = {-1, -1, 1, -1, 1, 1, -1, 1}, segment[4] = {-1, 0, 1, 0};
    for (int i = 0; i < 2000; ++i) {
        double s = pow(10.0, hd_rng_uniform(&rng, -9.0, -1.0));
        double len = pow(10.0, hd_rng_uniform(&rng, -1.0, 1.0));
        int thin = hd_rng_int(&rng, 2), nb = thin ? 4 : 2;
        double a[8], b[8], ta = hd_rng_uniform(&rng, 0, 2 * HD_PI);
        double tb = hd_rng_uniform(&rng, 0, 2 * HD_PI);
        double tx = s * hd_rng_uniform(&rng, -1, 1), ty = s * hd_rng_uniform(&rng, -1, 1);
        for (int j = 0; j < 4; ++j) {
            double x = s * square[2 * j], y = s * square[2 * j + 1];
            a[2 * j] = cos(ta) * x - sin(ta) * y + tx;
            a[2 * j + 1] = sin(ta) * x + cos(ta) * y + ty;
        }
        for (int j = 0; j < nb; ++j) {
            double x = len * (thin ? square[2 * j] : segment[2 * j]);
            double y = thin ? s * square[2 * j + 1] : 0.0;
            b[2 * j] = cos(tb) * x - sin(tb) * y;
            b[2 * j + 1] = sin(tb) * x + cos(tb) * y;
        }
        char tag[48];
        snprintf(tag, sizeof tag, "small against long %d", i);
        check_pair(tag, a, 4, b, nb, NAN);
    }
}

/* Interior points, duplicates, all points equal, collinear sets. */
static void test_degenerate_sets(void **state)
{
    (void)state;
    double sq[16] = {0, 0, 1, 0, 1, 1, 0, 1, 0.5, 0.5, 1, 1, 0, 0, 0.2, 0.7};
    double same[6] = {3, 3, 3, 3, 3, 3};
    double line[8] = {2, 0, 3, 0, 2.5, 0, 3, 0};
    assert_int_equal(check_pair("interior-duplicates", sq, 8, same, 3, NAN), HD_SEPARATED);
    assert_int_equal(check_pair("line-vs-square", sq, 8, line, 4, NAN), HD_SEPARATED);
    double line2[4] = {-1, 0.5, 2, 0.5};
    assert_int_equal(check_pair("line-through", sq, 8, line2, 2, NAN), HD_INTERSECTING);
    assert_int_equal(check_pair("same", same, 3, same, 3, 0.0), HD_TOUCHING);
}

static void test_errors(void **state)
{
    (void)state;
    double a[4] = {0, 0, 1, 0}, bad[2] = {NAN, 0};
    hd_collide2d_result rc;
    hd_distance2d_result r;
    assert_int_equal(hd_collide2d(NULL, 1, a, 2, NULL, &rc), HD_ERR_NULL);
    assert_int_equal(hd_collide2d(a, 2, a, 2, NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_collide2d(a, 0, a, 2, NULL, &rc), HD_ERR_EMPTY);
    assert_int_equal(hd_distance2d(a, 2, a, -1, NULL, &r), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_distance2d(a, 2, bad, 1, NULL, &r), HD_ERR_NONFINITE);
    assert_int_equal(hd_collide2d(a, HD_MAX_POINTS + 1, a, 2, NULL, &rc), HD_ERR_TOO_LARGE);
    hd_tolerance tol = hd_tolerance_default();
    tol.touch_rel = -1;
    assert_int_equal(hd_collide2d(a, 2, a, 2, &tol, &rc), HD_ERR_INVALID_ARG);
    tol = hd_tolerance_default();
    tol.max_iterations = 1;
    double c[8] = {0, 0, 1, 0, 1, 1, 0, 1}, d[8] = {0.5, 0.5, 1.5, 0.5, 1.5, 1.5, 0.5, 1.5};
    assert_int_equal(hd_distance2d(c, 4, d, 4, &tol, &r), HD_ERR_ITERATION_LIMIT);
    /* a forged certificate is rejected */
    assert_int_equal(hd_distance2d(c, 4, d, 4, NULL, &r), HD_OK);
    assert_int_equal(r.verdict, HD_INTERSECTING);
    r.cert.depth_bound = 0;
    assert_int_equal(hd_certificate_check2d(c, 4, d, 4, r.verdict, r.eps, &r.cert), HD_ERR_CERTIFICATE);
    printf("2D pairs checked %d: separated %d touching %d intersecting %d, refined %d, "
           "max iterations %d, largest distance error %.2f DBL_EPSILON * scale\n",
           counts.pairs, counts.sep, counts.touch, counts.inter, counts.refined, counts.max_iter,
           counts.max_ulps);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("test_gjk2d"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_separated), cmocka_unit_test(test_random_mixed),
        cmocka_unit_test(test_overlapping),      cmocka_unit_test(test_near_touching),
        cmocka_unit_test(test_touching),         cmocka_unit_test(test_small_against_long),
        cmocka_unit_test(test_degenerate_sets),  cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
