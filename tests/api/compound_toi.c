/* hd_compound_toi against independent references: the closed-form first contact of two spheres
 * on a turning arm against a sphere, and of translating sphere compounds (roots of a quadratic
 * per pair); on random compounds of 1 to 16 pieces the dense sampling of the motion with
 * hd_compound_signed_distance at poses from hd_motion_pose (no sample before lo may show an
 * overlap; at hi the pair touches), and beside it the least bracket of hd_toi over all piece
 * pairs; the pruning counted on two 64-piece grids passing at a corner; the scene's sweep and
 * continuous step with a compound body; bad input. Randomized tests print their seed. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

static hd_rng rng;

#define MAX_PIECES 16
#define SAMPLES 400

typedef struct piece_set {
    int count;
    hd_polytope *poly[64];
    hd_pose local[64];
    hd_compound *c;
} piece_set;

static void set_free(piece_set *p)
{
    hd_compound_destroy(p->c);
    for (int i = 0; i < p->count; ++i) {
        hd_polytope_destroy(p->poly[i]);
    }
    memset(p, 0, sizeof *p);
}

static void spheres(piece_set *p, int count, const double *centres, const double *radii)
{
    p->count = count;
    for (int i = 0; i < count; ++i) {
        assert_int_equal(hd_shape_sphere(radii[i], NULL, &p->poly[i]), HD_OK);
        p->local[i] = hd_test_translation(centres[3 * i], centres[3 * i + 1], centres[3 * i + 2]);
    }
    assert_int_equal(hd_compound_build((const hd_polytope *const *)p->poly, p->local, count, &p->c),
                     HD_OK);
}

static hd_motion turning(double wz, const double t0[3], const double v[3])
{
    hd_motion m;
    memset(&m, 0, sizeof m);
    m.pose0 = hd_test_translation(t0[0], t0[1], t0[2]);
    memcpy(m.c, t0, sizeof m.c);
    memcpy(m.v, v, sizeof m.v);
    m.w[2] = wz;
    return m;
}

/* Two spheres of radius r on an arm of half-length L turning at omega about z, against a sphere
 * of radius r at distance L from the axis at angle phi: sphere 0 (at angle omega t) first meets
 * it at omega t = phi - delta, cos delta = 1 - 2 r^2 / L^2 (the law of cosines at distance 2r);
 * sphere 1 (at angle pi + omega t) only after a further half turn. */
static void test_rotating_arm(void **state)
{
    (void)state;
    const double L = 2.0, r = 0.3, phi = 1.0, omega = 2.0;
    double arm[6] = {L, 0, 0, -L, 0, 0}, radii[2] = {r, r};
    double target[3] = {L * cos(phi), L * sin(phi), 0}, one_r[1] = {r}, zero[3] = {0, 0, 0};
    piece_set a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    spheres(&a, 2, arm, radii);
    spheres(&b, 1, target, one_r);
    double delta = acos(1.0 - 2.0 * r * r / (L * L));
    double expect = (phi - delta) / omega;
    hd_motion ma = turning(omega, zero, zero), mb = turning(0.0, zero, zero);
    hd_compound_toi_result res;
    assert_int_equal(hd_compound_toi(a.c, &ma, b.c, &mb, NULL, &res), HD_OK);
    printf("arm: toi %.15g expected %.15g, [%.15g, %.15g], pieces %d %d, %lld hd_toi calls\n",
           res.toi.toi, expect, res.toi.lo, res.toi.hi, res.piece_a, res.piece_b,
           res.stats.piece_pairs);
    assert_true(res.toi.hit);
    assert_int_equal(res.piece_a, 0);
    assert_int_equal(res.piece_b, 0);
    assert_true(res.toi.lo <= expect + 1e-12);
    /* at hi the gap is at most the band: hi is within band / speed of the contact */
    assert_true(fabs(res.toi.hi - expect) <= 1e-7);
    /* the same pair the other way round: B turning against A at rest */
    hd_compound_toi_result back;
    assert_int_equal(hd_compound_toi(b.c, &mb, a.c, &ma, NULL, &back), HD_OK);
    assert_true(back.toi.hit && back.piece_a == 0 && back.piece_b == 0);
    assert_true(fabs(back.toi.hi - expect) <= 1e-7 && back.toi.lo <= expect + 1e-12);
    set_free(&a);
    set_free(&b);
}

/* The first t in [0, 1] with |d + t u| = s (d the offset, u the relative velocity): HUGE_VAL
 * when none; 0 when already |d| <= s. */
static double quadratic_contact(const double d[3], const double u[3], double s)
{
    double aa = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    double bb = 2.0 * (d[0] * u[0] + d[1] * u[1] + d[2] * u[2]);
    double cc = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - s * s;
    if (cc <= 0.0) {
        return 0.0;
    }
    double disc = bb * bb - 4.0 * aa * cc;
    if (aa == 0.0 || disc < 0.0) {
        return HUGE_VAL;
    }
    double t = (-bb - sqrt(disc)) / (2.0 * aa);
    return t >= 0.0 && t <= 1.0 ? t : HUGE_VAL;
}

/* Random compounds of spheres, B translating against A at rest: the closed-form first contact
 * over every pair of spheres. */
static void test_translating_spheres(void **state)
{
    (void)state;
    int hits = 0, calls = 0, pairs = 0;
    for (int round = 0; round < 60; ++round) {
        int na = 1 + hd_rng_int(&rng, MAX_PIECES), nb = 1 + hd_rng_int(&rng, MAX_PIECES);
        double ca[3 * MAX_PIECES], cb[3 * MAX_PIECES], ra[MAX_PIECES], rb[MAX_PIECES];
        for (int i = 0; i < 3 * MAX_PIECES; ++i) {
            ca[i] = hd_rng_uniform(&rng, -1.5, 1.5);
            cb[i] = hd_rng_uniform(&rng, -1.5, 1.5);
        }
        for (int i = 0; i < MAX_PIECES; ++i) {
            ra[i] = hd_rng_uniform(&rng, 0.1, 0.5);
            rb[i] = hd_rng_uniform(&rng, 0.1, 0.5);
        }
        piece_set a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        spheres(&a, na, ca, ra);
        spheres(&b, nb, cb, rb);
        double start[3] = {hd_rng_uniform(&rng, 4, 6), hd_rng_uniform(&rng, -2, 2),
                           hd_rng_uniform(&rng, -2, 2)};
        double v[3] = {hd_rng_uniform(&rng, -9, -3), hd_rng_uniform(&rng, -3, 3),
                       hd_rng_uniform(&rng, -3, 3)};
        double zero[3] = {0, 0, 0};
        hd_motion ma = turning(0.0, zero, zero), mb = turning(0.0, start, v);
        double expect = HUGE_VAL;
        int ei = -1, ej = -1;
        for (int i = 0; i < na; ++i) {
            for (int j = 0; j < nb; ++j) {
                double d[3];
                for (int k = 0; k < 3; ++k) {
                    d[k] = start[k] + cb[3 * j + k] - ca[3 * i + k];
                }
                double t = quadratic_contact(d, v, ra[i] + rb[j]);
                if (t < expect) {
                    expect = t;
                    ei = i;
                    ej = j;
                }
            }
        }
        hd_compound_toi_result res;
        assert_int_equal(hd_compound_toi(a.c, &ma, b.c, &mb, NULL, &res), HD_OK);
        calls += (int)res.stats.piece_pairs;
        pairs += na * nb;
        if (expect == HUGE_VAL) {
            assert_false(res.toi.hit);
            assert_int_equal(res.piece_a, -1);
        } else {
            ++hits;
            if (!res.toi.hit || fabs(res.toi.hi - expect) > 1e-7 || res.toi.lo > expect + 1e-12) {
                fail_msg("round %d: toi %d [%.17g, %.17g] expected %.17g (pieces %d %d, got %d %d)",
                         round, res.toi.hit, res.toi.lo, res.toi.hi, expect, ei, ej, res.piece_a,
                         res.piece_b);
            }
        }
        set_free(&a);
        set_free(&b);
    }
    printf("translating spheres: %d hits of 60, %d hd_toi calls for %d piece pairs\n", hits, calls,
           pairs);
    assert_true(hits > 10 && hits < 60);
}

/* A random convex piece: a cloud of 8 points about a random centre. */
static void random_compound(piece_set *p, int count)
{
    p->count = count;
    for (int i = 0; i < count; ++i) {
        double xyz[24];
        hd_points_cloud(&rng, 8, 0.4, 0.3, 0.35, xyz);
        p->poly[i] = hd_test_build(xyz, 8);
        assert_non_null(p->poly[i]);
        double t[3] = {hd_rng_uniform(&rng, -1, 1), hd_rng_uniform(&rng, -1, 1),
                       hd_rng_uniform(&rng, -1, 1)};
        p->local[i] = hd_rng_pose(&rng, t);
    }
    assert_int_equal(hd_compound_build((const hd_polytope *const *)p->poly, p->local, count, &p->c),
                     HD_OK);
}

static hd_motion random_motion(const double centre[3], double speed, double turn)
{
    hd_motion m;
    memset(&m, 0, sizeof m);
    m.pose0 = hd_rng_pose(&rng, centre);
    memcpy(m.c, centre, sizeof m.c);
    for (int k = 0; k < 3; ++k) {
        m.v[k] = hd_rng_uniform(&rng, -speed, speed);
        m.w[k] = hd_rng_uniform(&rng, -turn, turn);
    }
    return m;
}

/* The signed distance of the compounds at t, posed by hd_motion_pose. */
static double sd_at(const piece_set *a, const hd_motion *ma, const piece_set *b,
                    const hd_motion *mb, double t)
{
    hd_pose pa, pb;
    assert_int_equal(hd_motion_pose(ma, t, &pa), HD_OK);
    assert_int_equal(hd_motion_pose(mb, t, &pb), HD_OK);
    hd_compound_signed_distance_result r;
    assert_int_equal(hd_compound_signed_distance(a->c, &pa, b->c, &pb, NULL, &r), HD_OK);
    return r.signed_distance;
}

/* The least bracket over every pair of pieces by hd_toi on the whole motion (a consistency check
 * beside the sampling): *lo_min, *hi_min the least lo and hi among the hits; 0 when none hits. */
static int all_pairs(const piece_set *a, const hd_motion *ma, const piece_set *b,
                     const hd_motion *mb, double *lo_min, double *hi_min)
{
    int hit = 0;
    *lo_min = *hi_min = HUGE_VAL;
    for (int i = 0; i < hd_compound_piece_count(a->c); ++i) {
        for (int j = 0; j < hd_compound_piece_count(b->c); ++j) {
            hd_motion pa = *ma, pb = *mb;
            assert_int_equal(hd_compound_piece_pose(a->c, &ma->pose0, i, &pa.pose0), HD_OK);
            assert_int_equal(hd_compound_piece_pose(b->c, &mb->pose0, j, &pb.pose0), HD_OK);
            hd_toi_result r;
            assert_int_equal(hd_toi(hd_compound_piece(a->c, i, NULL), &pa,
                                    hd_compound_piece(b->c, j, NULL), &pb, NULL, &r),
                             HD_OK);
            if (r.hit) {
                hit = 1;
                *lo_min = fmin(*lo_min, r.lo);
                *hi_min = fmin(*hi_min, r.hi);
            }
        }
    }
    return hit;
}

/* Safety and contact on random compounds of 1 to 16 pieces, by dense sampling: every sample
 * before lo is apart (above minus a rounding margin), a miss has no overlapping sample, and at
 * hi the compounds are within the band. */
static void test_random_sampled(void **state)
{
    (void)state;
    int hits = 0, calls = 0, pairs = 0;
    for (int round = 0; round < 40; ++round) {
        piece_set a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        random_compound(&a, 1 + hd_rng_int(&rng, MAX_PIECES));
        random_compound(&b, 1 + hd_rng_int(&rng, MAX_PIECES));
        double ca[3] = {0, 0, 0}, cb[3] = {hd_rng_uniform(&rng, 3.5, 5), 0, 0};
        hd_motion ma = random_motion(ca, 1.0, 1.5), mb = random_motion(cb, 1.0, 1.5);
        mb.v[0] -= hd_rng_uniform(&rng, 1.0, 4.0);
        hd_compound_toi_result res;
        assert_int_equal(hd_compound_toi(a.c, &ma, b.c, &mb, NULL, &res), HD_OK);
        calls += (int)res.stats.piece_pairs;
        pairs += a.count * b.count;
        double lo_min, hi_min;
        int any = all_pairs(&a, &ma, &b, &mb, &lo_min, &hi_min);
        if (any != (int)res.toi.hit ||
            (any && (res.toi.lo > hi_min + 1e-12 || lo_min > res.toi.hi + 3e-9))) {
            fail_msg("round %d: all pairs %d [%.17g, %.17g], compound %d [%.17g, %.17g]", round,
                     any, lo_min, hi_min, res.toi.hit, res.toi.lo, res.toi.hi);
        }
        double margin = 1e-9, first = HUGE_VAL;
        for (int k = 0; k <= SAMPLES; ++k) {
            double t = (double)k / SAMPLES, d = sd_at(&a, &ma, &b, &mb, t);
            if (d < -margin && first == HUGE_VAL) {
                first = t;
            }
        }
        if (first < HUGE_VAL) {
            if (!res.toi.hit || res.toi.lo > first) {
                fail_msg("round %d: sampled overlap at %.17g, toi %d lo %.17g", round, first,
                         res.toi.hit, res.toi.lo);
            }
        }
        if (res.toi.hit) {
            ++hits;
            /* the sampling between 0 and lo: no overlap there */
            for (int k = 0; k < 50; ++k) {
                double t = res.toi.lo * k / 50.0;
                assert_true(sd_at(&a, &ma, &b, &mb, t) > -margin);
            }
            assert_true(sd_at(&a, &ma, &b, &mb, res.toi.hi) <= res.toi.eps + margin);
            assert_true(res.toi.hi - res.toi.lo <= 1e-9 + 1e-15);
            assert_true(res.piece_a >= 0 && res.piece_a < a.count);
            assert_true(res.piece_b >= 0 && res.piece_b < b.count);
        }
        set_free(&a);
        set_free(&b);
    }
    printf("random compounds: %d hits of 40, %d hd_toi calls for %d piece pairs\n", hits, calls,
           pairs);
    assert_true(hits > 5);
}

/* 4 x 4 x 4 cubes of side 0.9 at spacing 1 (piece 0 at the origin corner, 63 at the far one). */
static void grid(piece_set *p)
{
    double lo[3] = {0, 0, 0}, hi[3] = {0.9, 0.9, 0.9}, xyz[24];
    hd_points_box(lo, hi, xyz);
    p->count = 1;
    p->poly[0] = hd_test_build(xyz, 8);
    const hd_polytope *pieces[64];
    hd_pose poses[64];
    for (int i = 0; i < 64; ++i) {
        pieces[i] = p->poly[0];
        poses[i] = hd_test_translation(i % 4, (i / 4) % 4, i / 16);
    }
    assert_int_equal(hd_compound_build(pieces, poses, 64, &p->c), HD_OK);
}

/* B's corner cube [5, 5.9]^3 moving by -1.2 along every axis meets A's [3, 3.9]^3 when the gap
 * of 1.1 along each axis closes: t = 1.1 / 1.2; the swept boxes leave out most of the 4096
 * pairs. A pass beside the corner (x, y gaps stay 1.1) runs none. */
static void test_grids_corner(void **state)
{
    (void)state;
    piece_set a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    grid(&a);
    grid(&b);
    double zero[3] = {0, 0, 0}, start[3] = {5, 5, 5}, v[3] = {-1.2, -1.2, -1.2};
    hd_motion ma = turning(0.0, zero, zero), mb = turning(0.0, start, v);
    hd_compound_toi_result res, again;
    assert_int_equal(hd_compound_toi(a.c, &ma, b.c, &mb, NULL, &res), HD_OK);
    printf("grids at a corner: toi %.15g, %lld hd_toi calls of 4096, %lld node pairs\n",
           res.toi.toi, res.stats.piece_pairs, res.stats.node_pairs);
    assert_true(res.toi.hit);
    assert_int_equal(res.piece_a, 63);
    assert_int_equal(res.piece_b, 0);
    assert_true(fabs(res.toi.hi - 1.1 / 1.2) <= 1e-8 && res.toi.lo <= 1.1 / 1.2 + 1e-12);
    assert_true(res.stats.piece_pairs <= 64);
    assert_int_equal(hd_compound_toi(a.c, &ma, b.c, &mb, NULL, &again), HD_OK);
    assert_memory_equal(&res, &again, sizeof res); /* the same bits on every run */

    double beside[3] = {0, 0, -12};
    mb = turning(0.0, start, beside);
    assert_int_equal(hd_compound_toi(a.c, &ma, b.c, &mb, NULL, &res), HD_OK);
    printf("grids passing beside: %lld hd_toi calls\n", res.stats.piece_pairs);
    assert_false(res.toi.hit);
    assert_true(res.toi.lo == 1.0 && res.toi.hi == 1.0 && res.piece_a == -1);
    assert_true(res.stats.piece_pairs == 0);
    set_free(&a);
    set_free(&b);
}

/* Two spheres of B equally far from A's sphere meet it at the same time: the smaller index. */
static void test_tie_by_index(void **state)
{
    (void)state;
    double ca[3] = {0, 0, 0}, cb[6] = {0, 1, 0, 0, -1, 0}, ra[1] = {0.75}, rb[2] = {0.75, 0.75};
    piece_set a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    spheres(&a, 1, ca, ra);
    spheres(&b, 2, cb, rb);
    double zero[3] = {0, 0, 0}, start[3] = {3, 0, 0}, v[3] = {-4, 0, 0};
    hd_motion ma = turning(0.0, zero, zero), mb = turning(0.0, start, v);
    hd_compound_toi_result res;
    assert_int_equal(hd_compound_toi(a.c, &ma, b.c, &mb, NULL, &res), HD_OK);
    /* |(3 - 4t, +-1)| = 1.5: t = (3 - sqrt(1.25)) / 4 for both */
    printf("tie: [%.17g, %.17g] pieces %d %d, %lld hd_toi calls\n", res.toi.lo, res.toi.hi,
           res.piece_a, res.piece_b, res.stats.piece_pairs);
    assert_true(res.toi.hit && fabs(res.toi.hi - (3.0 - sqrt(1.25)) / 4.0) <= 1e-7);
    assert_int_equal(res.piece_b, 0);
    set_free(&a);
    set_free(&b);
}

/* hd_scene_sweep with compound bodies: the turning arm of test_rotating_arm as a compound body
 * (twist about its origin), the target sphere a plain body and a far one that the swept boxes
 * leave out; the closed-form contact time, with both broad phases. */
static void test_scene_sweep(void **state)
{
    (void)state;
    const double L = 2.0, r = 0.3, phi = 1.0, omega = 2.0;
    double arm[6] = {L, 0, 0, -L, 0, 0}, radii[2] = {r, r};
    piece_set a;
    memset(&a, 0, sizeof a);
    spheres(&a, 2, arm, radii);
    hd_polytope *ball = NULL;
    assert_int_equal(hd_shape_sphere(r, NULL, &ball), HD_OK);
    double expect = (phi - acos(1.0 - 2.0 * r * r / (L * L))) / omega;
    hd_broadphase kinds[2] = {HD_BROADPHASE_TREE, HD_BROADPHASE_SAP};
    for (int k = 0; k < 2; ++k) {
        hd_scene *sc = hd_test_scene(kinds[k]);
        assert_non_null(sc);
        int ia, ib, ifar;
        hd_pose at = hd_test_translation(L * cos(phi), L * sin(phi), 0),
                far = hd_test_translation(0, 0, 30);
        assert_int_equal(hd_scene_add_compound(sc, a.c, NULL, NULL, &ia), HD_OK);
        assert_int_equal(hd_scene_add(sc, ball, &at, NULL, &ib), HD_OK);
        assert_int_equal(hd_scene_add(sc, ball, &far, NULL, &ifar), HD_OK);
        hd_body_twist tw = {ia, {0, 0, 0}, {0, 0, omega}, {0, 0, 0}};
        hd_scene_toi hits[4];
        int found = -1;
        assert_int_equal(hd_scene_sweep(sc, &tw, 1, 0.0, NULL, hits, 4, &found), HD_OK);
        assert_int_equal(found, 1);
        assert_int_equal(hits[0].a, ia < ib ? ia : ib);
        assert_int_equal(hits[0].b, ia < ib ? ib : ia);
        assert_true(hits[0].toi.hit && fabs(hits[0].toi.hi - expect) <= 1e-7);
        assert_true(hits[0].toi.lo <= expect + 1e-12);
        hd_scene_destroy(sc);
    }
    hd_polytope_destroy(ball);
    set_free(&a);
}

/* The continuous step with the arm as a swept compound body (hd_scene_set_velocity, twist about
 * its frame origin): the contact carries the closed-form time and the arm's piece 0. */
static void test_scene_step(void **state)
{
    (void)state;
    const double L = 2.0, r = 0.3, phi = 1.0, omega = 2.0;
    double arm[6] = {L, 0, 0, -L, 0, 0}, radii[2] = {r, r};
    piece_set a;
    memset(&a, 0, sizeof a);
    spheres(&a, 2, arm, radii);
    hd_polytope *ball = NULL;
    assert_int_equal(hd_shape_sphere(r, NULL, &ball), HD_OK);
    double expect = (phi - acos(1.0 - 2.0 * r * r / (L * L))) / omega;
    hd_scene_options so = hd_scene_options_default();
    so.threads = 1;
    so.sweep_threshold = 0.0;
    hd_scene *sc = NULL;
    assert_int_equal(hd_scene_create(&so, &sc), HD_OK);
    int ia, ib;
    hd_pose at = hd_test_translation(L * cos(phi), L * sin(phi), 0);
    assert_int_equal(hd_scene_add_compound(sc, a.c, NULL, NULL, &ia), HD_OK);
    assert_int_equal(hd_scene_add(sc, ball, &at, NULL, &ib), HD_OK);
    double v[3] = {0, 0, 0}, w[3] = {0, 0, omega};
    assert_int_equal(hd_scene_set_velocity(sc, ia, v, w), HD_OK);
    const hd_scene_contact *c = NULL;
    int n = 0;
    assert_int_equal(hd_scene_step(sc, &c, &n, NULL), HD_OK);
    assert_int_equal(n, 1);
    printf("step: toi %.15g expected %.15g, pieces %d %d\n", c[0].toi, expect, c[0].piece_a,
           c[0].piece_b);
    assert_true(fabs(c[0].toi - expect) <= 1e-7);
    assert_int_equal(ia < ib ? c[0].piece_a : c[0].piece_b, 0);
    hd_scene_destroy(sc);
    hd_polytope_destroy(ball);
    set_free(&a);
}

static void test_bad_input(void **state)
{
    (void)state;
    double c0[3] = {0, 0, 0}, r0[1] = {0.5};
    piece_set a;
    memset(&a, 0, sizeof a);
    spheres(&a, 1, c0, r0);
    hd_motion m = turning(0.0, c0, c0), bad = m;
    hd_compound_toi_result res;
    assert_int_equal(hd_compound_toi(NULL, &m, a.c, &m, NULL, &res), HD_ERR_NULL);
    assert_int_equal(hd_compound_toi(a.c, NULL, a.c, &m, NULL, &res), HD_ERR_NULL);
    assert_int_equal(hd_compound_toi(a.c, &m, NULL, &m, NULL, &res), HD_ERR_NULL);
    assert_int_equal(hd_compound_toi(a.c, &m, a.c, NULL, NULL, &res), HD_ERR_NULL);
    assert_int_equal(hd_compound_toi(a.c, &m, a.c, &m, NULL, NULL), HD_ERR_NULL);
    bad.v[1] = NAN;
    assert_int_equal(hd_compound_toi(a.c, &m, a.c, &bad, NULL, &res), HD_ERR_NONFINITE);
    assert_false(res.toi.hit);
    assert_int_equal(res.piece_a, -1);
    bad = m;
    bad.w[0] = INFINITY;
    assert_int_equal(hd_compound_toi(a.c, &bad, a.c, &m, NULL, &res), HD_ERR_NONFINITE);
    bad = m;
    bad.pose0.r[0] = 2.0; /* not a rotation */
    assert_int_equal(hd_compound_toi(a.c, &bad, a.c, &m, NULL, &res), HD_ERR_BAD_POSE);
    hd_toi_options o = hd_toi_options_default();
    o.time_tol = NAN;
    assert_int_equal(hd_compound_toi(a.c, &m, a.c, &m, &o, &res), HD_ERR_INVALID_ARG);
    o = hd_toi_options_default();
    o.query.tol.touch_rel = -1.0;
    assert_int_equal(hd_compound_toi(a.c, &m, a.c, &m, &o, &res), HD_ERR_INVALID_ARG);
    bad = m;
    bad.v[0] = 1e300; /* beyond HD_MAX_COORD */
    assert_int_equal(hd_compound_toi(a.c, &m, a.c, &bad, NULL, &res), HD_ERR_RANGE);
    /* an empty compound cannot be built */
    hd_compound *empty = (hd_compound *)&a;
    assert_int_equal(hd_compound_build((const hd_polytope *const *)a.poly, NULL, 0, &empty),
                     HD_ERR_EMPTY);
    assert_null(empty);
    /* in contact at t = 0: toi 0 */
    assert_int_equal(hd_compound_toi(a.c, &m, a.c, &m, NULL, &res), HD_OK);
    assert_true(res.toi.hit && res.toi.toi == 0.0 && res.toi.lo == 0.0);
    set_free(&a);
}

int main(void)
{
    uint64_t seed = hd_test_seed("api_compound_toi");
    hd_rng_init(&rng, seed);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rotating_arm),   cmocka_unit_test(test_translating_spheres),
        cmocka_unit_test(test_random_sampled), cmocka_unit_test(test_grids_corner),
        cmocka_unit_test(test_tie_by_index),   cmocka_unit_test(test_scene_sweep),
        cmocka_unit_test(test_scene_step),     cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
