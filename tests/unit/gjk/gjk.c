/* GJK (hd_collide with HD_ALGO_GJK, hd_distance): verdicts, distances and witnesses against the
 * long-double brute force of tests/support/brute.c; certificates through hd_certificate_check;
 * touching contacts, lower-dimensional polytopes, scales, the failures reported for other GJK
 * libraries, warm start, the iteration cap and the recorded path. */
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

#define MAXV 64

static hd_rng rng;

/* Distance agreement with the exact value: within this many units of DBL_EPSILON * scale
 * ("a few ulps of the scale"; the poses' own rounding is part of it). */
#define DIST_ULPS 16.0

typedef struct shape {
    hd_polytope *p;
    hd_pose pose;
    int n;
    double w[3 * MAXV]; /* hull vertices in the world frame */
} shape;

static void shape_set(shape *s, const double *xyz, int n, const hd_pose *pose)
{
    s->p = hd_test_build(xyz, n);
    assert_non_null(s->p);
    s->pose = pose ? *pose : hd_pose_identity();
    s->n = hd_polytope_vertex_count(s->p);
    assert_true(s->n <= MAXV);
    hd_brute_posed_vertices(s->p, &s->pose, s->w);
}

static void shape_pose(shape *s, const hd_pose *pose)
{
    s->pose = *pose;
    hd_brute_posed_vertices(s->p, &s->pose, s->w);
}

static void shape_free(shape *s)
{
    hd_polytope_destroy(s->p);
    s->p = NULL;
}

static void dump(const char *tag, const shape *a, const shape *b)
{
    hd_test_dump_pair(tag, hd_polytope_vertices(a->p), a->n, &a->pose, hd_polytope_vertices(b->p),
                      b->n, &b->pose);
}

static double pair_scale(const shape *a, const shape *b)
{
    double s = 0;
    for (int i = 0; i < 3 * a->n; ++i)
        s = fmax(s, fabs(a->w[i]));
    for (int i = 0; i < 3 * b->n; ++i)
        s = fmax(s, fabs(b->w[i]));
    return s;
}

static hd_verdict expected_verdict(double sd, double eps)
{
    if (sd > eps)
        return HD_SEPARATED;
    if (sd < -eps)
        return HD_INTERSECTING;
    return HD_TOUCHING;
}

typedef struct check_counts {
    int pairs, sep, touch, inter, refined, max_iter;
    long support_calls;
    double max_ulps; /* largest distance error seen, in units of DBL_EPSILON * scale */
} check_counts;

static check_counts counts;

/* Runs hd_collide and hd_distance on a pair, checks verdicts against the brute-force signed
 * distance sd (NAN: compute it), certificates, distance and witnesses. Returns the verdict. */
static hd_verdict check_pair(const char *tag, const shape *a, const shape *b, double sd)
{
    if (isnan(sd))
        sd = hd_brute_signed_distance(a->w, a->n, b->w, b->n);
    hd_options opt = hd_options_default();
    hd_collide_result rc;
    hd_distance_result rd;
    hd_status st = hd_collide(a->p, &a->pose, b->p, &b->pose, &opt, &rc);
    if (st != HD_OK) {
        printf("%s: collide failed: %s\n", tag, hd_status_str(st));
        dump(tag, a, b);
    }
    assert_int_equal(st, HD_OK);
    st = hd_distance(a->p, &a->pose, b->p, &b->pose, &opt, &rd);
    assert_int_equal(st, HD_OK);
    double eps = rc.eps, scale = pair_scale(a, b);
    hd_verdict want = expected_verdict(sd, eps);
    int at_edge = fabs(fabs(sd) - eps) <= 1e-3 * eps + 64 * DBL_EPSILON * scale;
    if ((!at_edge && (rc.verdict != want || rd.verdict != want)) ||
        hd_certificate_check(a->p, &a->pose, b->p, &b->pose, rc.verdict, rc.eps, &rc.cert) != HD_OK ||
        hd_certificate_check(a->p, &a->pose, b->p, &b->pose, rd.verdict, rd.eps, &rd.cert) != HD_OK) {
        printf(
            "%s: sd=%.17g eps=%.3g want %s, collide %s (stop %d, cert %s), distance %s (cert %s)\n",
            tag, sd, eps, hd_verdict_str(want), hd_verdict_str(rc.verdict), rc.stop,
            hd_status_str(hd_certificate_check(a->p, &a->pose, b->p, &b->pose, rc.verdict, rc.eps, &rc.cert)),
            hd_verdict_str(rd.verdict),
            hd_status_str(hd_certificate_check(a->p, &a->pose, b->p, &b->pose, rd.verdict, rd.eps, &rd.cert)));
        for (int k = 0; k < 2; ++k) {
            const hd_certificate *c = k ? &rd.cert : &rc.cert;
            printf("  %s: gap %.17g depth_bound %.17g point (%.17g %.17g %.17g) on_a %d on_b %d\n",
                   k ? "distance" : "collide", c->gap, c->depth_bound, c->point[0], c->point[1],
                   c->point[2], c->on_a.count, c->on_b.count);
        }
        dump(tag, a, b);
        fail();
    }
    if (rd.verdict == HD_SEPARATED) {
        double err = fabs(rd.distance - sd);
        counts.max_ulps = fmax(counts.max_ulps, err / (DBL_EPSILON * scale));
        if (err > DIST_ULPS * DBL_EPSILON * scale) {
            printf("%s: distance %.17g, exact %.17g, error %.3g ulps of scale\n", tag, rd.distance,
                   sd, err / (DBL_EPSILON * scale));
            dump(tag, a, b);
            fail();
        }
        /* witnesses: on their polytopes and realising the distance */
        double tol = DIST_ULPS * DBL_EPSILON * scale;
        assert_true(hd_brute_distance(rd.witness_a, 1, a->w, a->n, NULL, NULL) <= tol);
        assert_true(hd_brute_distance(rd.witness_b, 1, b->w, b->n, NULL, NULL) <= tol);
        double dw[3] = {rd.witness_a[0] - rd.witness_b[0], rd.witness_a[1] - rd.witness_b[1],
                        rd.witness_a[2] - rd.witness_b[2]};
        assert_true(fabs(sqrt(dw[0] * dw[0] + dw[1] * dw[1] + dw[2] * dw[2]) - rd.distance) <= tol);
    } else {
        assert_true(rd.distance == 0.0);
    }
    if (rc.verdict == HD_INTERSECTING) { /* the proven depth bound is a lower bound */
        assert_true(rc.cert.depth_bound <= -sd + 64 * DBL_EPSILON * scale);
    }
    counts.pairs++;
    counts.sep += rc.verdict == HD_SEPARATED;
    counts.touch += rc.verdict == HD_TOUCHING;
    counts.inter += rc.verdict == HD_INTERSECTING;
    counts.refined += rc.stop == HD_STOP_REFINED;
    counts.max_iter = rc.stats.iterations > counts.max_iter ? rc.stats.iterations : counts.max_iter;
    counts.max_iter = rd.stats.iterations > counts.max_iter ? rd.stats.iterations : counts.max_iter;
    counts.support_calls += rc.stats.support_calls;
    return rc.verdict;
}

static void random_points(int kind, int n, double size, double *xyz)
{
    if (kind == 0) {
        hd_points_ellipsoid(&rng, n, size * hd_rng_uniform(&rng, 0.2, 1),
                            size * hd_rng_uniform(&rng, 0.2, 1),
                            size * hd_rng_uniform(&rng, 0.2, 1), xyz);
    } else if (kind == 1) {
        hd_points_cloud(&rng, n, size, size * hd_rng_uniform(&rng, 0.05, 1),
                        size * hd_rng_uniform(&rng, 0.2, 1), xyz);
    } else {
        double lo[3] = {-size, -size * hd_rng_uniform(&rng, 0.1, 1),
                        -size * hd_rng_uniform(&rng, 0.1, 1)};
        double hi[3] = {-lo[0], -lo[1], -lo[2]};
        hd_points_box(lo, hi, xyz);
    }
}

static int random_shape(shape *s, double size, const double centre[3])
{
    double xyz[3 * 40];
    int kind = hd_rng_int(&rng, 3);
    int n = kind == 2 ? 8 : 4 + hd_rng_int(&rng, 13);
    random_points(kind, n, size, xyz);
    hd_pose pose = hd_rng_pose(&rng, centre);
    shape_set(s, xyz, n, &pose);
    return kind;
}

/* Moves b along unit n so that min_B n.b - max_A n.a = gap (a separating plane when gap > 0). */
static void place_at_gap(const shape *a, shape *b, const double n[3], double gap)
{
    double ha = hd_brute_support_value(a->w, a->n, n, NULL);
    double m[3] = {-n[0], -n[1], -n[2]};
    double lb = -hd_brute_support_value(b->w, b->n, m, NULL);
    hd_pose pose = b->pose;
    for (int k = 0; k < 3; ++k)
        pose.t[k] += (ha - lb + gap) * n[k];
    shape_pose(b, &pose);
}

static void test_random_separated(void **state)
{
    (void)state;
    for (int i = 0; i < 1200; ++i) {
        double scale = pow(10.0, hd_rng_uniform(&rng, -6, 6));
        double zero[3] = {0, 0, 0}, off[3];
        for (int k = 0; k < 3; ++k)
            off[k] = scale * hd_rng_uniform(&rng, -20, 20);
        shape a, b;
        random_shape(&a, scale * hd_rng_uniform(&rng, 0.1, 2), off);
        random_shape(&b, scale * hd_rng_uniform(&rng, 0.1, 2), zero);
        double n[3];
        hd_rng_unit_vector(&rng, n);
        double gap = scale * pow(10.0, hd_rng_uniform(&rng, -9, 1));
        place_at_gap(&a, &b, n, gap);
        double d = hd_brute_distance(a.w, a.n, b.w, b.n, NULL, NULL);
        assert_true(d >= gap * (1 - 1e-9));
        assert_int_equal(check_pair("separated", &a, &b, d), HD_SEPARATED);
        shape_free(&a);
        shape_free(&b);
    }
}

/* Near-touching: gap 1e-9 of the size, answered separated with the exact distance. */
static void test_near_touching(void **state)
{
    (void)state;
    for (int i = 0; i < 600; ++i) {
        double size = pow(10.0, hd_rng_uniform(&rng, -5, 5));
        double zero[3] = {0, 0, 0};
        shape a, b;
        random_shape(&a, size, zero);
        random_shape(&b, size, zero);
        double n[3];
        hd_rng_unit_vector(&rng, n);
        place_at_gap(&a, &b, n, 1e-9 * size);
        double d = hd_brute_distance(a.w, a.n, b.w, b.n, NULL, NULL);
        assert_int_equal(check_pair("near-touching", &a, &b, d), HD_SEPARATED);
        shape_free(&a);
        shape_free(&b);
    }
}

/* The interior point of s (world frame) and its clearance. */
static double interior_world(const shape *s, double out[3])
{
    double local[3], clearance;
    hd_polytope_interior(s->p, 0, local, &clearance);
    hd_pose_apply(&s->pose, local, out);
    return clearance;
}

/* Translates b so that its interior point lands on a's. */
static void place_on_interior(const shape *a, shape *b)
{
    double ca[3], cb[3];
    interior_world(a, ca);
    interior_world(b, cb);
    hd_pose pose = b->pose;
    for (int k = 0; k < 3; ++k)
        pose.t[k] += ca[k] - cb[k];
    shape_pose(b, &pose);
}

/* Overlapping by construction: both contain a ball around the same point. */
static void test_random_overlapping(void **state)
{
    (void)state;
    for (int i = 0; i < 800; ++i) {
        double scale = pow(10.0, hd_rng_uniform(&rng, -6, 6));
        double c[3];
        for (int k = 0; k < 3; ++k)
            c[k] = scale * hd_rng_uniform(&rng, -10, 10);
        shape a, b;
        random_shape(&a, scale, c);
        random_shape(&b, scale * hd_rng_uniform(&rng, 0.05, 3), c);
        place_on_interior(&a, &b);
        double sd = hd_brute_signed_distance(a.w, a.n, b.w, b.n);
        assert_true(sd < 0);
        assert_int_equal(check_pair("overlapping", &a, &b, sd), HD_INTERSECTING);
        shape_free(&a);
        shape_free(&b);
    }
}

/* Unconstrained: random offsets around contact, every verdict, truth from brute force. */
static void test_random_mixed(void **state)
{
    (void)state;
    for (int i = 0; i < 1000; ++i) {
        double scale = pow(10.0, hd_rng_uniform(&rng, -3, 3));
        double zero[3] = {0, 0, 0}, off[3];
        for (int k = 0; k < 3; ++k)
            off[k] = scale * hd_rng_uniform(&rng, -2.5, 2.5);
        shape a, b;
        random_shape(&a, scale, zero);
        random_shape(&b, scale * hd_rng_uniform(&rng, 0.2, 1.5), off);
        check_pair("mixed", &a, &b, NAN);
        shape_free(&a);
        shape_free(&b);
    }
}

static void box_shape(shape *s, const double lo[3], const double hi[3], const hd_pose *pose)
{
    double xyz[24];
    hd_points_box(lo, hi, xyz);
    shape_set(s, xyz, 8, pose);
}

/* Exact contacts, built so that the touching is exact in doubles. */
static void test_touching_contacts(void **state)
{
    (void)state;
    static const double scales[] = {1e-6, 1e-3, 1, 1e3, 1e6};
    for (unsigned i = 0; i < sizeof scales / sizeof scales[0]; ++i) {
        double s = scales[i];
        double lo[3] = {-s, -s, -s}, hi[3] = {s, s, s};
        hd_pose id = hd_pose_identity();
        shape a, b;
        /* cubes stacked face to face (libccd reported a NaN direction here) */
        hd_pose ta = hd_pose_identity(), tb = hd_test_translation(0, 0, 2 * s);
        box_shape(&a, lo, hi, &ta);
        box_shape(&b, lo, hi, &tb);
        assert_int_equal(check_pair("stacked", &a, &b, 0.0), HD_TOUCHING);
        /* offset stacks: partial face overlap, edge on face, vertex on face, edge-edge */
        double offs[5][3] = {{0.5, 0.25, 2}, {2, 0, 0.5}, {2, 2, 0}, {2, 2, 2}, {0, 2, 2}};
        for (int k = 0; k < 5; ++k) {
            hd_pose t = hd_test_translation(offs[k][0] * s, offs[k][1] * s, offs[k][2] * s);
            shape_pose(&b, &t);
            assert_int_equal(check_pair("touch-offset", &a, &b, 0.0), HD_TOUCHING);
        }
        /* a tetrahedron's vertex on the cube's face, and its edge across an edge of the cube */
        double tet[12] = {0, 0, 0, 1, 1, 2, -1, 1, 2, 0, -1, 2};
        for (int k = 0; k < 12; ++k)
            tet[k] *= s;
        shape t;
        hd_pose tt = hd_test_translation(0.25 * s, -0.5 * s, s);
        shape_set(&t, tet, 4, &tt);
        assert_int_equal(check_pair("vertex-face", &a, &t, 0.0), HD_TOUCHING);
        /* crossing edges: the cube's edge {y = z = s} and the tetrahedron's edge through
         * (0, s, s) along (0, 1, -1); every other point has y + z > 2s >= the cube's y + z */
        double tet2[12] = {0, 1.5, 0.5, 0, 0.5, 1.5, 1, 2, 2, -1, 2, 2};
        for (int k = 0; k < 12; ++k)
            tet2[k] *= s;
        shape u;
        shape_set(&u, tet2, 4, &id);
        assert_int_equal(check_pair("edge-edge", &a, &u, 0.0), HD_TOUCHING);
        shape_free(&a);
        shape_free(&b);
        shape_free(&t);
        shape_free(&u);
    }
}

/* Identical polytopes, one inside the other, a polytope touching another from inside. */
static void test_identical_and_nested(void **state)
{
    (void)state;
    for (int i = 0; i < 200; ++i) {
        double scale = pow(10.0, hd_rng_uniform(&rng, -5, 5)), c[3];
        for (int k = 0; k < 3; ++k)
            c[k] = scale * hd_rng_uniform(&rng, -100, 100);
        shape a, b;
        random_shape(&a, scale, c);
        b = a;
        b.p = hd_test_build(hd_polytope_vertices(a.p), a.n);
        assert_int_equal(check_pair("identical", &a, &b, NAN), HD_INTERSECTING);
        hd_polytope_destroy(b.p);
        double inner[3 * 40], centre[3];
        double clearance = interior_world(&a, centre);
        random_points(0, 12, 0.5 * clearance, inner);
        hd_pose pose = hd_rng_pose(&rng, centre);
        shape_set(&b, inner, 12, &pose);
        assert_int_equal(check_pair("nested", &a, &b, NAN), HD_INTERSECTING);
        assert_int_equal(check_pair("nested-swapped", &b, &a, NAN), HD_INTERSECTING);
        shape_free(&a);
        shape_free(&b);
    }
    /* a small cube inside a big one, sharing part of a face: overlapping with depth 1 (its
     * height), and a box inside another sharing a whole face with a flat slab of no height */
    double lo[3] = {-2, -2, -2}, hi[3] = {2, 2, 2}, lo2[3] = {0, 0, 1}, hi2[3] = {1, 1, 2};
    hd_pose id = hd_pose_identity();
    shape a, b;
    box_shape(&a, lo, hi, &id);
    box_shape(&b, lo2, hi2, &id);
    assert_int_equal(check_pair("inner-face", &a, &b, -1.0), HD_INTERSECTING);
    shape_free(&b);
    double sq[12] = {0, 0, 2, 1, 0, 2, 1, 1, 2, 0, 1, 2};
    shape_set(&b, sq, 4, &id);
    assert_int_equal(check_pair("face-on-face", &a, &b, 0.0), HD_TOUCHING);
    shape_free(&a);
    shape_free(&b);
}

/* Every combination of point, segment, polygon and solid, touching, crossing and apart. */
static void test_lower_dimensions(void **state)
{
    (void)state;
    double pt[3] = {0, 0, 0};
    double seg[6] = {-1, 0, 0, 1, 0, 0};
    double sq[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    double cube[24];
    double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    hd_points_box(lo, hi, cube);
    const double *sets[4] = {pt, seg, sq, cube};
    const int counts_[4] = {1, 2, 4, 8};
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            for (int rep = 0; rep < 60; ++rep) {
                shape a, b;
                hd_pose pa = hd_pose_identity(), pb;
                double t[3];
                if (rep < 20) { /* random nearby poses */
                    for (int k = 0; k < 3; ++k)
                        t[k] = hd_rng_uniform(&rng, -2, 2);
                    pb = hd_rng_pose(&rng, t);
                } else if (rep < 40) { /* axis-aligned, on grid offsets: exact contacts */
                    pa = hd_test_translation(3, -2, 1);
                    pb = hd_test_translation(3 + hd_rng_int(&rng, 5) - 2,
                                             -2 + hd_rng_int(&rng, 5) - 2,
                                             1 + hd_rng_int(&rng, 5) - 2);
                } else { /* scaled grid contacts far from the origin */
                    double big = 1e5;
                    pa = hd_test_translation(big, -big, big);
                    pb = hd_test_translation(big + hd_rng_int(&rng, 5) - 2,
                                             -big + hd_rng_int(&rng, 5) - 2,
                                             big + hd_rng_int(&rng, 3) - 1);
                }
                shape_set(&a, sets[i], counts_[i], &pa);
                shape_set(&b, sets[j], counts_[j], &pb);
                check_pair("lowdim", &a, &b, NAN);
                shape_free(&a);
                shape_free(&b);
            }
        }
    }
}

/* Reported failures of other GJK implementations, as regression tests. */
static void test_peer_failures(void **state)
{
    (void)state;
    hd_pose id = hd_pose_identity();
    double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    shape a, b;
    box_shape(&a, lo, hi, &id);
    /* penetrating cubes, from every start the warm-start cache can give (openGJK missed some) */
    hd_pose tb = hd_test_translation(1.5, 0.3, -0.2);
    box_shape(&b, lo, hi, &tb);
    for (int sa = 0; sa < 8; ++sa) {
        for (int sb = 0; sb < 8; ++sb) {
            hd_cache cache = HD_CACHE_INIT;
            cache.valid = 1;
            cache.support_a = sa;
            cache.support_b = sb;
            cache.simplex_count = 1;
            cache.simplex_a[0] = sa;
            cache.simplex_b[0] = sb;
            hd_options opt = hd_options_default();
            opt.cache = &cache;
            hd_collide_result r;
            assert_int_equal(hd_collide(a.p, &a.pose, b.p, &b.pose, &opt, &r), HD_OK);
            assert_int_equal(r.verdict, HD_INTERSECTING);
            assert_int_equal(hd_certificate_check(a.p, &a.pose, b.p, &b.pose, r.verdict, r.eps, &r.cert), HD_OK);
        }
    }
    shape_free(&b);
    /* flat polygons (openGJK reported overlapping flat polygons as disjoint) */
    double sq[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    shape p, q;
    hd_pose tq = hd_test_translation(0.5, 0.5, 0);
    shape_set(&p, sq, 4, &id);
    shape_set(&q, sq, 4, &tq);
    assert_int_equal(check_pair("coplanar-squares", &p, &q, 0.0), HD_TOUCHING);
    double qa[4] = {cos(HD_PI / 4), sin(HD_PI / 4), 0, 0}; /* q rotated into the xz plane */
    hd_pose rq;
    double t0[3] = {0.25, 0.1, 0};
    hd_pose_from_quaternion(qa, t0, &rq);
    shape_pose(&q, &rq);
    assert_int_equal(check_pair("crossing-squares", &p, &q, NAN), HD_INTERSECTING);
    shape_free(&p);
    shape_free(&q);
    /* boxes near 1e5 */
    for (int i = 0; i < 200; ++i) {
        double c[3] = {1e5 + hd_rng_uniform(&rng, -1, 1), 1e5, -1e5};
        shape u, v;
        random_shape(&u, 1, c);
        random_shape(&v, 1, c);
        double n[3];
        hd_rng_unit_vector(&rng, n);
        place_at_gap(&u, &v, n, pow(10.0, hd_rng_uniform(&rng, -6, 0)));
        check_pair("near-1e5", &u, &v, NAN);
        shape_free(&u);
        shape_free(&v);
    }
    /* touching boxes slightly rotated (GJK and EPA disagreed in FCL): a face on a face */
    for (int i = 0; i < 100; ++i) {
        double ang = hd_rng_uniform(&rng, -1e-3, 1e-3);
        double qz[4] = {cos(ang / 2), 0, 0, sin(ang / 2)},
               t[3] = {hd_rng_uniform(&rng, -1, 1), hd_rng_uniform(&rng, -1, 1), 0};
        hd_pose pr;
        hd_pose_from_quaternion(qz, t, &pr);
        shape v;
        box_shape(&v, lo, hi, &pr);
        double n[3] = {0, 0, 1};
        place_at_gap(&a, &v, n, 0.0);
        check_pair("rotated-touch", &a, &v, NAN);
        shape_free(&v);
    }
    shape_free(&a);
}

/* Symmetric contacts: a tetrahedron whose lower edge lies over a cube's edge, symmetric about the
 * cube's diagonal plane, so that the origin projects onto a face diagonal of M, at gaps from
 * -1e-6 to 1e-6 of the size and at several scales (GJK once cycled here on a segment whose
 * closest point was rotated by rounding about the segment). */
static void test_symmetric_contacts(void **state)
{
    (void)state;
    static const double gaps[] = {-1e-6, -1e-9, -1e-12, 0, 1e-12, 1e-9, 1e-6};
    static const double scales[] = {1e-6, 1, 1e6};
    for (unsigned i = 0; i < sizeof scales / sizeof scales[0]; ++i) {
        for (unsigned j = 0; j < sizeof gaps / sizeof gaps[0]; ++j) {
            double s = scales[i], g = gaps[j];
            double lo[3] = {0, 0, 0}, hi[3] = {s, s, s}, cube[24];
            hd_points_box(lo, hi, cube);
            double tet[12] = {1.5 + g, 0.5, 0.5 + g, 0.5 + g, 0.5, 1.5 + g,
                              1.5 + g, 0.2, 1.5 + g, 1.5 + g, 0.8, 1.5 + g};
            for (int k = 0; k < 12; ++k)
                tet[k] *= s;
            shape a, b;
            shape_set(&a, cube, 8, NULL);
            shape_set(&b, tet, 4, NULL);
            check_pair("symmetric", &a, &b, NAN);
            check_pair("symmetric-swapped", &b, &a, NAN);
            for (int r = 0; r < 10; ++r) { /* the same under random rigid motions */
                double t[3] = {s * hd_rng_uniform(&rng, -5, 5), s * hd_rng_uniform(&rng, -5, 5),
                               s * hd_rng_uniform(&rng, -5, 5)};
                hd_pose pose = hd_rng_pose(&rng, t);
                shape_pose(&a, &pose);
                shape_pose(&b, &pose);
                check_pair("symmetric-moved", &a, &b, NAN);
            }
            shape_free(&a);
            shape_free(&b);
        }
    }
}

/* The same configuration at every scale gets the same verdict. */
static void test_scale_invariance(void **state)
{
    (void)state;
    for (int i = 0; i < 200; ++i) {
        double xa[3 * 12], xb[3 * 12];
        random_points(0, 12, 1, xa);
        random_points(1, 12, 1, xb);
        double t[3] = {hd_rng_uniform(&rng, -2, 2), hd_rng_uniform(&rng, -2, 2),
                       hd_rng_uniform(&rng, -2, 2)};
        hd_pose pb = hd_rng_pose(&rng, t);
        hd_verdict first = HD_SEPARATED;
        double d1 = -1;
        for (int e = -6; e <= 6; e += 3) {
            double s = pow(10.0, e), ya[3 * 12], yb[3 * 12];
            for (int k = 0; k < 36; ++k) {
                ya[k] = xa[k] * s;
                yb[k] = xb[k] * s;
            }
            hd_pose p = pb;
            for (int k = 0; k < 3; ++k)
                p.t[k] *= s;
            shape a, b;
            shape_set(&a, ya, 12, NULL);
            shape_set(&b, yb, 12, &p);
            hd_distance_result r;
            hd_options opt = hd_options_default();
            assert_int_equal(hd_distance(a.p, NULL, b.p, &b.pose, &opt, &r), HD_OK);
            if (e == -6) {
                first = r.verdict;
                d1 = r.distance / s;
            }
            assert_int_equal(r.verdict, first);
            assert_true(fabs(r.distance / s - d1) <= 1e-13 * (1 + d1));
            shape_free(&a);
            shape_free(&b);
        }
    }
}

/* Swapping A and B keeps the verdict and the distance. */
static void test_symmetry(void **state)
{
    (void)state;
    for (int i = 0; i < 300; ++i) {
        double zero[3] = {0, 0, 0}, off[3];
        for (int k = 0; k < 3; ++k)
            off[k] = hd_rng_uniform(&rng, -2.5, 2.5);
        shape a, b;
        random_shape(&a, 1, zero);
        random_shape(&b, 1, off);
        hd_distance_result r2;
        hd_distance_result r1;
        assert_int_equal(hd_distance(a.p, &a.pose, b.p, &b.pose, NULL, &r1), HD_OK);
        assert_int_equal(hd_distance(b.p, &b.pose, a.p, &a.pose, NULL, &r2), HD_OK);
        assert_int_equal(r1.verdict, r2.verdict);
        assert_true(fabs(r1.distance - r2.distance) <= 64 * DBL_EPSILON * 4);
        shape_free(&a);
        shape_free(&b);
    }
}

/* Warm start: a pair moving smoothly over 1000 frames; cold and warm give the same answers and
 * the warm run needs fewer support calls. Also: a cache holding garbage is harmless. */
static void test_warm_start(void **state)
{
    (void)state;
    double xa[3 * 200], xb[3 * 200];
    int n = 200;
    hd_points_ellipsoid(&rng, n, 1, 0.7, 0.5, xa);
    hd_points_ellipsoid(&rng, n, 0.8, 0.8, 0.4, xb);
    hd_polytope *a = hd_test_build(xa, n), *b = hd_test_build(xb, n);
    assert_non_null(a);
    assert_non_null(b);
    hd_cache cache = HD_CACHE_INIT;
    long cold_calls = 0, warm_calls = 0;
    int cold_iter = 0, warm_iter = 0;
    for (int f = 0; f < 1000; ++f) {
        double t = 0.01 * f;
        double q[4] = {cos(t), sin(t) * 0.6, sin(t) * 0.8, 0};
        double pos[3] = {2.2 * cos(0.7 * t), 1.3 * sin(t), 0.4 * sin(2.3 * t)};
        hd_pose pb;
        hd_pose_from_quaternion(q, pos, &pb);
        hd_options cold = hd_options_default(), warm = hd_options_default();
        warm.cache = &cache;
        hd_distance_result rw;
        hd_distance_result rc;
        assert_int_equal(hd_distance(a, NULL, b, &pb, &cold, &rc), HD_OK);
        assert_int_equal(hd_distance(a, NULL, b, &pb, &warm, &rw), HD_OK);
        assert_int_equal(rc.verdict, rw.verdict);
        assert_true(fabs(rc.distance - rw.distance) <= 64 * DBL_EPSILON * 4);
        cold_calls += rc.stats.support_calls;
        warm_calls += rw.stats.support_calls;
        cold_iter += rc.stats.iterations;
        warm_iter += rw.stats.iterations;
    }
    printf("warm start, 1000 frames, n=%d: support calls cold %ld warm %ld; iterations cold %d "
           "warm %d\n",
           n, cold_calls, warm_calls, cold_iter, warm_iter);
    assert_true(warm_calls < cold_calls);
    hd_cache junk = {1, 9, {-1, 5000, 3, 3}, {7, -8, 3, 3}, -4, 1 << 30, 99, {0.6, 0.8, 0.0}};
    hd_options opt = hd_options_default();
    opt.cache = &junk;
    hd_collide_result r, r0;
    hd_pose pb = hd_test_translation(0.5, 0.1, 0);
    assert_int_equal(hd_collide(a, NULL, b, &pb, &opt, &r), HD_OK);
    assert_int_equal(hd_collide(a, NULL, b, &pb, NULL, &r0), HD_OK);
    assert_int_equal(r.verdict, r0.verdict);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* The iteration cap is honoured (an error, never a guess), and never reached otherwise. */
static void test_iteration_cap(void **state)
{
    (void)state;
    double xa[3 * 300], xb[3 * 300];
    hd_points_ellipsoid(&rng, 300, 1, 1, 1, xa);
    hd_points_ellipsoid(&rng, 300, 1, 1, 1, xb);
    hd_polytope *a = hd_test_build(xa, 300), *b = hd_test_build(xb, 300);
    hd_pose pb = hd_test_translation(2.0001, 0.01, 0);
    hd_options opt = hd_options_default();
    opt.tol.max_iterations = 1;
    hd_distance_result r;
    assert_int_equal(hd_distance(a, NULL, b, &pb, &opt, &r), HD_ERR_ITERATION_LIMIT);
    opt.tol.max_iterations = 0;
    assert_int_equal(hd_distance(a, NULL, b, &pb, &opt, &r), HD_OK);
    printf("iteration cap test: %d iterations on 300-vertex ellipsoids near contact\n",
           r.stats.iterations);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    printf("pairs checked %d: separated %d touching %d intersecting %d, refined %d, "
           "max iterations %d, support calls (collide) %ld, largest distance error %.2f "
           "DBL_EPSILON * scale\n",
           counts.pairs, counts.sep, counts.touch, counts.inter, counts.refined, counts.max_iter,
           counts.support_calls, counts.max_ulps);
}

/* One recorded GJK step against the brute force: valid vertex pairs, closest at the distance
 * from the origin to the hull of the simplex's points (world frame), lower never above the
 * pair's distance. Returns |closest|. */
static double check_gjk_step(const hd_gjk_step *st, const double *wa, int na, const double *wb,
                             int nb, double scale, double distance)
{
    assert_true(st->count >= 0 && st->count <= 4);
    assert_true(st->support_a >= 0 && st->support_a < na && st->support_b >= 0 &&
                st->support_b < nb);
    double pts[12], origin[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < st->count; ++k) {
        assert_true(st->vertex_a[k] >= 0 && st->vertex_a[k] < na);
        assert_true(st->vertex_b[k] >= 0 && st->vertex_b[k] < nb);
        for (int c = 0; c < 3; ++c) {
            pts[3 * k + c] = wa[3 * st->vertex_a[k] + c] - wb[3 * st->vertex_b[k] + c];
        }
    }
    const double *v = st->closest;
    double upper = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (st->count > 0 && hd_brute_sat(pts, st->count, origin, 1, NULL) < 0.0) {
        double want = hd_brute_distance(pts, st->count, origin, 1, NULL, NULL);
        assert_true(fabs(upper - want) <= 1e-9 * scale);
    } else if (st->count > 0) {
        assert_true(upper <= 1e-9 * scale); /* the origin is in the simplex */
    }
    assert_true(!(st->lower > distance + 1e-9 * scale));
    return upper;
}

/* GJK's recorded path (HD_QUERY_RECORD_PATH, hd_workspace_gjk_path) on random ellipsoid pairs,
 * separated and overlapping: the same answer as without recording, one step per iteration, each
 * step checked by check_gjk_step, |closest| never increasing, lower bounds never decreasing; the
 * last step of a separated hd_distance at the brute-force distance. Without the flag or without
 * a workspace nothing is recorded, and a recording query resets CD-Dual's path too. */

/* hd_collide, or hd_distance (distance_query) with its verdict, stop, band, certificate and work
 * in *out, so that both queries' paths are compared the same way. */
static hd_status collide_or_distance(int distance_query, const hd_polytope *a, const hd_polytope *b,
                                     const hd_pose *pb, const hd_options *opt,
                                     hd_collide_result *out)
{
    if (!distance_query) {
        return hd_collide(a, NULL, b, pb, opt, out);
    }
    hd_distance_result d;
    hd_status st = hd_distance(a, NULL, b, pb, opt, &d);
    memset(out, 0, sizeof *out);
    out->verdict = d.verdict;
    out->stop = d.stop;
    out->eps = d.eps;
    out->cert = d.cert;
    out->stats = d.stats;
    return st;
}

static void test_recorded_path(void **state)
{
    (void)state;
    hd_workspace *ws = NULL;
    assert_int_equal(hd_workspace_create(64, &ws), HD_OK);
    int steps_checked = 0;
    for (int trial = 0; trial < 60; ++trial) {
        double xa[3 * 30], xb[3 * 30], wa[3 * 30], wb[3 * 30];
        hd_points_ellipsoid(&rng, 30, 1.0, 0.6, 0.4, xa);
        hd_points_ellipsoid(&rng, 30, 0.5, 0.8, 0.7, xb);
        hd_polytope *a = hd_test_build(xa, 30), *b = hd_test_build(xb, 30);
        double dir[3];
        hd_rng_unit_vector(&rng, dir);
        double r = hd_rng_uniform(&rng, 0.2, 2.5), t[3] = {r * dir[0], r * dir[1], r * dir[2]};
        hd_pose pb = hd_rng_pose(&rng, t);
        int na = hd_polytope_vertex_count(a), nb = hd_polytope_vertex_count(b);
        hd_brute_posed_vertices(a, NULL, wa);
        hd_brute_posed_vertices(b, &pb, wb);
        double sd = hd_brute_signed_distance(wa, na, wb, nb), scale = 4.0;
        hd_options plain = hd_options_default(), rec = plain;
        plain.flags |= HD_QUERY_NO_PORTAL; /* a recorded path is GJK's alone */
        rec.workspace = ws;
        rec.flags |= HD_QUERY_RECORD_PATH;
        hd_collide_result r0, r1;
        int distance_query = trial % 2;
        assert_int_equal(collide_or_distance(distance_query, a, b, &pb, &plain, &r0), HD_OK);
        assert_int_equal(collide_or_distance(distance_query, a, b, &pb, &rec, &r1), HD_OK);
        assert_int_equal(r0.verdict, r1.verdict);
        assert_int_equal(r0.stats.iterations, r1.stats.iterations);
        assert_memory_equal(&r0.cert, &r1.cert, sizeof r0.cert);
        const hd_gjk_step *steps = NULL;
        int n = hd_workspace_gjk_path(ws, &steps);
        assert_int_equal(n, r1.stats.iterations < HD_GJK_PATH_MAX ? r1.stats.iterations
                                                                  : HD_GJK_PATH_MAX);
        double distance = sd > 0.0 ? sd : 0.0, last = HUGE_VAL, lower = -HUGE_VAL;
        for (int i = 0; i < n; ++i) {
            double upper = check_gjk_step(&steps[i], wa, na, wb, nb, scale, distance);
            if (steps[i].count > 0) {
                assert_true(upper <= last * (1 + 1e-12) + 1e-12 * scale);
                last = upper;
            }
            assert_true(steps[i].lower >= lower);
            lower = steps[i].lower;
            ++steps_checked;
        }
        if (distance_query && r1.verdict == HD_SEPARATED && r1.stop == HD_STOP_CONVERGED) {
            assert_true(fabs(last - sd) <= 1e-9 * scale);
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    /* no flag: nothing recorded; no workspace: nothing to record into, no harm */
    double xa[24], lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    hd_points_box(lo, hi, xa);
    hd_polytope *box = hd_test_build(xa, 8);
    hd_pose pb = hd_test_translation(0.5, 0.2, 0.1);
    hd_options opt = hd_options_default();
    opt.workspace = ws;
    opt.flags = HD_QUERY_RECORD_PATH;
    opt.algo = HD_ALGO_CDDUAL;
    hd_collide_result r;
    assert_int_equal(hd_collide(box, NULL, box, &pb, &opt, &r), HD_OK);
    assert_true(hd_workspace_path(ws, NULL) > 0);
    opt.algo = HD_ALGO_GJK;
    assert_int_equal(hd_collide(box, NULL, box, &pb, &opt, &r), HD_OK);
    assert_int_equal(hd_workspace_path(ws, NULL), 0);
    assert_true(hd_workspace_gjk_path(ws, NULL) > 0);
    opt.flags = 0;
    assert_int_equal(hd_collide(box, NULL, box, &pb, &opt, &r), HD_OK);
    assert_true(hd_workspace_gjk_path(ws, NULL) > 0); /* untouched: not this query's */
    opt.flags = HD_QUERY_RECORD_PATH;
    opt.workspace = NULL;
    assert_int_equal(hd_collide(box, NULL, box, &pb, &opt, &r), HD_OK);
    assert_int_equal(hd_workspace_gjk_path(NULL, NULL), 0);
    printf("recorded GJK paths: %d steps checked on 60 pairs\n", steps_checked);
    hd_polytope_destroy(box);
    hd_workspace_destroy(ws);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("unit/gjk/gjk"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_separated),   cmocka_unit_test(test_near_touching),
        cmocka_unit_test(test_random_overlapping), cmocka_unit_test(test_random_mixed),
        cmocka_unit_test(test_touching_contacts),  cmocka_unit_test(test_identical_and_nested),
        cmocka_unit_test(test_lower_dimensions),   cmocka_unit_test(test_peer_failures),
        cmocka_unit_test(test_symmetric_contacts), cmocka_unit_test(test_scale_invariance),
        cmocka_unit_test(test_symmetry),           cmocka_unit_test(test_warm_start),
        cmocka_unit_test(test_iteration_cap),      cmocka_unit_test(test_recorded_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
