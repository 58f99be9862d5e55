/* The pose gradient of hd_signed_distance (HD_QUERY_GRADIENT) against central finite differences
 * of an independent signed distance: the brute-force reference of tests/support/brute.c (long
 * double, every triangle and segment of the raw vertices, no hull and none of the library's
 * algorithms). Random pairs of every size from 1e-6 to 1e6, separated and overlapping, where the
 * gradient is unique; at the kinks (faces or edges in contact, identical centred shapes, touching
 * corners, flat and point shapes), finite, flagged, and between the one-sided differences along
 * random directions. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "brute.h"
#include "depth_oracle.h"
#include "testutil.h"

static hd_rng rng;

#define MAX_VERTS 8

/* The agreement the issue asks of a unique gradient, relative to 1 for the translation parts and
 * to the lever arm for the rotation parts. */
#define AGREEMENT 1e-6

/* A posed pair: the polytopes and the 12 pose coordinates the gradient refers to. */
typedef struct posed_pair {
    const hd_polytope *a, *b;
    hd_pose pa, pb;
} posed_pair;

/* R' = Rot(angle about world axis k) R: the pose turned about its own origin in world axes. */
static void turn(hd_pose *p, int k, double angle)
{
    double c = cos(angle), s = sin(angle), q[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, r[9];
    int i = (k + 1) % 3, j = (k + 2) % 3;
    q[3 * i + i] = c;
    q[3 * i + j] = -s;
    q[3 * j + i] = s;
    q[3 * j + j] = c;
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 3; ++col) {
            r[3 * row + col] = q[3 * row] * p->r[col] + q[3 * row + 1] * p->r[3 + col] +
                               q[3 * row + 2] * p->r[6 + col];
        }
    }
    memcpy(p->r, r, sizeof r);
}

/* The pair moved by step times the 12-vector d (A's translation, A's rotation, then B's), the
 * rotation applied as three successive turns (second order in the step, as the difference is). */
static posed_pair moved(const posed_pair *p, const double d[12], double step)
{
    posed_pair q = *p;
    hd_pose *poses[2] = {&q.pa, &q.pb};
    for (int body = 0; body < 2; ++body) {
        for (int k = 0; k < 3; ++k) {
            poses[body]->t[k] += step * d[6 * body + k];
        }
        for (int k = 0; k < 3; ++k) {
            if (d[6 * body + 3 + k] != 0.0) {
                turn(poses[body], k, step * d[6 * body + 3 + k]);
            }
        }
    }
    return q;
}

/* The independent signed distance of the pair: the brute-force distance when the separating axes
 * of tests/support/depth_oracle.c say separated, else minus their depth (the same as
 * hd_brute_signed_distance for solids, at a fraction of its cost: the axes are the hulls' own). */
static double oracle(const posed_pair *p)
{
    double va[3 * MAX_VERTS], vb[3 * MAX_VERTS];
    long double depth = hd_oracle_depth(p->a, &p->pa, p->b, &p->pb, NULL);
    if (depth >= 0.0L && isfinite((double)depth)) {
        return -(double)depth;
    }
    hd_brute_posed_vertices(p->a, &p->pa, va);
    hd_brute_posed_vertices(p->b, &p->pb, vb);
    return hd_brute_signed_distance(va, hd_polytope_vertex_count(p->a), vb,
                                    hd_polytope_vertex_count(p->b));
}

/* The one-sided differences of the oracle along d with step h: forward and backward. */
static void one_sided(const posed_pair *p, const double d[12], double h, double *fwd, double *bwd)
{
    posed_pair plus = moved(p, d, h), minus = moved(p, d, -h);
    double at = oracle(p);
    *fwd = (oracle(&plus) - at) / h;
    *bwd = (at - oracle(&minus)) / h;
}

static double along(const hd_pose_gradient *g, const double d[12])
{
    double s = 0.0;
    for (int k = 0; k < 6; ++k) {
        s += g->a[k] * d[k] + g->b[k] * d[6 + k];
    }
    return s;
}

static int gradient_finite(const hd_pose_gradient *g)
{
    for (int k = 0; k < 6; ++k) {
        if (!isfinite(g->a[k]) || !isfinite(g->b[k])) {
            return 0;
        }
    }
    return 1;
}

static hd_status query(const posed_pair *p, hd_signed_distance_result *c)
{
    hd_options opt = hd_options_default();
    opt.flags |= HD_QUERY_GRADIENT;
    return hd_signed_distance(p->a, &p->pa, p->b, &p->pb, &opt, c);
}

/* Unit 12-vector along coordinate k. */
static void coordinate(int k, double d[12])
{
    memset(d, 0, 12 * sizeof d[0]);
    d[k] = 1.0;
}

/* A random hull of 5 to MAX_VERTS points on an ellipsoid of semi-axes up to size. */
static hd_polytope *random_hull(double size)
{
    double xyz[3 * MAX_VERTS];
    int n = 5 + hd_rng_int(&rng, MAX_VERTS - 4);
    hd_points_ellipsoid(&rng, n, size * hd_rng_uniform(&rng, 0.3, 1.0),
                        size * hd_rng_uniform(&rng, 0.3, 1.0),
                        size * hd_rng_uniform(&rng, 0.3, 1.0), xyz);
    return hd_test_build(xyz, n);
}

typedef struct fd_tally {
    int compared, separated, kinked, not_unique;
    double worst;
} fd_tally;

/* Compares the 12 components of a unique gradient with central differences; a pair whose
 * one-sided differences disagree has a kink within the step (a feature change) and is counted,
 * not compared. */
static void compare_with_differences(const posed_pair *p, const hd_signed_distance_result *c,
                                     fd_tally *t)
{
    double size = c->size, ht = 1e-6 * size, hr = 1e-6;
    double arm_a = hypot(hypot(c->witness_a[0] - p->pa.t[0], c->witness_a[1] - p->pa.t[1]),
                         c->witness_a[2] - p->pa.t[2]);
    double arm_b = hypot(hypot(c->witness_b[0] - p->pb.t[0], c->witness_b[1] - p->pb.t[1]),
                         c->witness_b[2] - p->pb.t[2]);
    double fd[12], lib[12], d[12];
    for (int k = 0; k < 12; ++k) {
        int rotation = (k % 6) >= 3;
        double h = rotation ? hr : ht;
        double fwd, bwd;
        coordinate(k, d);
        one_sided(p, d, h, &fwd, &bwd);
        double unit = rotation ? fmax(size, k < 6 ? arm_a : arm_b) : 1.0;
        if (fabs(fwd - bwd) > 1e-4 * unit) {
            ++t->kinked;
            return;
        }
        fd[k] = 0.5 * (fwd + bwd) / unit;
        lib[k] = (k < 6 ? c->gradient.a[k] : c->gradient.b[k - 6]) / unit;
    }
    double worst = 0.0;
    for (int k = 0; k < 12; ++k) {
        worst = fmax(worst, fabs(fd[k] - lib[k]));
    }
    if (worst > AGREEMENT) {
        printf("gradient off by %.3g: delta %.17g size %.3g features %s/%s\n", worst,
               c->signed_distance, size, hd_feature_type_str(c->feature_a.type),
               hd_feature_type_str(c->feature_b.type));
        for (int k = 0; k < 12; ++k) {
            printf("  %2d lib %.12g fd %.12g\n", k, lib[k], fd[k]);
        }
    }
    assert_true(worst <= AGREEMENT);
    t->worst = fmax(t->worst, worst);
    ++t->compared;
    t->separated += c->signed_distance > 0.0;
}

/* Random pairs of one size: separated and overlapping, B's origin 0 to 2.5 sizes from A's. */
static void random_pairs_at(double size, int count, fd_tally *t)
{
    for (int i = 0; i < count; ++i) {
        hd_polytope *a = random_hull(size), *b = random_hull(size);
        assert_non_null(a);
        assert_non_null(b);
        double ta[3], dir[3], tb[3];
        for (int k = 0; k < 3; ++k) {
            ta[k] = hd_rng_uniform(&rng, -size, size);
        }
        hd_rng_unit_vector(&rng, dir);
        double reach = hd_rng_uniform(&rng, 0.0, 2.5) * size;
        for (int k = 0; k < 3; ++k) {
            tb[k] = ta[k] + reach * dir[k];
        }
        posed_pair p = {a, b, hd_rng_pose(&rng, ta), hd_rng_pose(&rng, tb)};
        hd_signed_distance_result c;
        assert_int_equal(query(&p, &c), HD_OK);
        assert_true(gradient_finite(&c.gradient));
        if (!c.gradient.unique) {
            ++t->not_unique;
        } else if (fabs(c.signed_distance) > 1e-4 * c.size) {
            compare_with_differences(&p, &c, t);
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
}

static void test_random_pairs_match_differences(void **state)
{
    (void)state;
    fd_tally t = {0};
    int per_size = 120, sizes = 0;
    for (int e = -6; e <= 6; e += 1) {
        random_pairs_at(pow(10.0, e) * hd_rng_uniform(&rng, 1.0, 10.0), per_size, &t);
        ++sizes;
    }
    int total = per_size * sizes;
    printf("random pairs: %d, compared %d (%d separated, %d overlapping), %d with a kink within "
           "the step, %d flagged not unique; worst difference %.3g\n",
           total, t.compared, t.separated, t.compared - t.separated, t.kinked, t.not_unique,
           t.worst);
    /* random poses are generic: kinks within a step of 1e-6 and ties are rare */
    assert_true(t.compared >= total * 9 / 10);
    assert_true(t.separated >= total / 5 && t.compared - t.separated >= total / 5);
}

/* hd_distance's gradient (HD_QUERY_GRADIENT): against the differences of the oracle where the
 * pair is separated (where the distance is the signed distance), zero and unique where it
 * overlaps beyond the differences' reach (the distance is 0 all around), zero without the flag. */
static void distance_pairs_at(double size, int count, fd_tally *t, int *overlapping)
{
    hd_options opt = hd_options_default();
    opt.flags |= HD_QUERY_GRADIENT;
    for (int i = 0; i < count; ++i) {
        hd_polytope *a = random_hull(size), *b = random_hull(size);
        assert_non_null(a);
        assert_non_null(b);
        double ta[3] = {0, 0, 0}, dir[3], tb[3];
        hd_rng_unit_vector(&rng, dir);
        double reach = hd_rng_uniform(&rng, 0.0, 2.5) * size;
        for (int k = 0; k < 3; ++k) {
            tb[k] = reach * dir[k];
        }
        posed_pair p = {a, b, hd_rng_pose(&rng, ta), hd_rng_pose(&rng, tb)};
        hd_distance_result r, plain;
        assert_int_equal(hd_distance(a, &p.pa, b, &p.pb, &opt, &r), HD_OK);
        assert_int_equal(hd_distance(a, &p.pa, b, &p.pb, NULL, &plain), HD_OK);
        assert_false(plain.gradient.unique);
        assert_true(gradient_finite(&r.gradient));
        double delta = oracle(&p), scale = 2.0 * size;
        if (delta < -1e-4 * scale) {
            assert_int_equal(r.verdict, HD_INTERSECTING);
            assert_true(r.gradient.unique);
            for (int k = 0; k < 6; ++k) {
                assert_true(r.gradient.a[k] == 0.0 && r.gradient.b[k] == 0.0);
                assert_true(plain.gradient.a[k] == 0.0 && plain.gradient.b[k] == 0.0);
            }
            ++*overlapping;
        } else if (delta > 1e-4 * scale && r.gradient.unique) {
            hd_signed_distance_result c;
            memset(&c, 0, sizeof c);
            c.signed_distance = r.distance;
            c.size = scale;
            memcpy(c.witness_a, r.witness_a, sizeof c.witness_a);
            memcpy(c.witness_b, r.witness_b, sizeof c.witness_b);
            c.gradient = r.gradient;
            compare_with_differences(&p, &c, t);
        } else if (delta > 1e-4 * scale) {
            ++t->not_unique;
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
}

static void test_distance_gradient(void **state)
{
    (void)state;
    fd_tally t = {0};
    int overlapping = 0, per_size = 60, total = 0;
    for (int e = -6; e <= 6; e += 2) {
        distance_pairs_at(pow(10.0, e) * hd_rng_uniform(&rng, 1.0, 10.0), per_size, &t,
                          &overlapping);
        total += per_size;
    }
    printf("distance gradient: %d pairs, %d separated compared (worst %.3g), %d with a kink "
           "within the step, %d flagged not unique, %d overlapping (zero, unique)\n",
           total, t.compared, t.worst, t.kinked, t.not_unique, overlapping);
    assert_true(t.compared >= total / 3 && overlapping >= total / 10);
}

/* The difference quotient (f(y + t d) - f(y)) / t at a pose y near the pair's. */
static double quotient(const posed_pair *y, const double d[12], double t)
{
    posed_pair ahead = moved(y, d, t);
    return (oracle(&ahead) - oracle(y)) / t;
}

/* A random 12-vector, its rotation parts scaled by 1 / size so that both halves move the points
 * alike. */
static void random_direction(double size, double d[12])
{
    for (int k = 0; k < 12; ++k) {
        d[k] = hd_rng_normal(&rng) * ((k % 6) >= 3 ? 1.0 / size : 1.0);
    }
}

#define NEAR_SAMPLES 48

/* At a kink: finite, flagged (when expect_kink), and a Clarke subgradient: for a direction d,
 * -f°(x; -d) <= g . d <= f°(x; d), where f°(x; d) is the limit superior of the difference quotients
 * (f(y + t d) - f(y)) / t over y near x. The quotients at the pair's pose (both senses) and at
 * NEAR_SAMPLES poses within 1e-4 size of it (where each smooth piece meeting here is active on a
 * cone) bound g . d from both sides, to the quotients' own error. */
static void check_subgradient(const posed_pair *p, int expect_kink, const char *name)
{
    hd_signed_distance_result c;
    assert_int_equal(query(p, &c), HD_OK);
    assert_true(gradient_finite(&c.gradient));
    if (expect_kink && c.gradient.unique) {
        printf("%s: flagged unique at a kink (features %s/%s, delta %.17g)\n", name,
               hd_feature_type_str(c.feature_a.type), hd_feature_type_str(c.feature_b.type),
               c.signed_distance);
    }
    if (expect_kink) {
        assert_false(c.gradient.unique);
    }
    posed_pair near[NEAR_SAMPLES];
    for (int i = 0; i < NEAR_SAMPLES; ++i) {
        double e[12];
        random_direction(c.size, e);
        near[i] = moved(p, e, hd_rng_uniform(&rng, 0.0, 1e-4 * c.size));
    }
    double t = 1e-8 * c.size, slack = 1e-5 * c.size;
    for (int trial = 0; trial < 8; ++trial) {
        double d[12], g, lo, hi;
        random_direction(c.size, d);
        g = along(&c.gradient, d);
        lo = hi = quotient(p, d, t);
        double back = -quotient(p, d, -t);
        lo = fmin(lo, back);
        hi = fmax(hi, back);
        for (int i = 0; i < NEAR_SAMPLES; ++i) {
            double q = quotient(&near[i], d, t);
            lo = fmin(lo, q);
            hi = fmax(hi, q);
        }
        int ok = g >= lo - slack && g <= hi + slack;
        if (!ok) {
            printf("%s: gradient %.12g outside [%.12g, %.12g] along trial %d\n", name, g, lo, hi,
                   trial);
        }
        assert_true(ok);
    }
}

static hd_polytope *box(double hx, double hy, double hz)
{
    double lo[3] = {-hx, -hy, -hz}, hi[3] = {hx, hy, hz}, xyz[24];
    hd_points_box(lo, hi, xyz);
    return hd_test_build(xyz, 8);
}

/* A unit cube B over a unit cube A, face on face: separated, touching, overlapping; then turned
 * 45 degrees about x so that an edge of B lies along A's top face. */
static void test_face_and_edge_contacts(void **state)
{
    (void)state;
    hd_polytope *a = box(1, 1, 1), *b = box(0.5, 0.5, 0.5);
    double gaps[3] = {0.1, 0.0, -0.1};
    for (int i = 0; i < 3; ++i) {
        posed_pair p = {a, b, hd_pose_identity(), hd_test_translation(0.2, -0.1, 1.5 + gaps[i])};
        check_subgradient(&p, 1, "face on face");
        hd_pose edge = hd_test_translation(0.2, -0.1, 1.0 + sqrt(0.5) + gaps[i]);
        turn(&edge, 0, 0.25 * HD_PI);
        posed_pair q = {a, b, hd_pose_identity(), edge};
        check_subgradient(&q, 1, "edge on face");
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* A shape against itself at the same pose: every facet of M = A - A is tied with its opposite. */
static void test_identical_centred_shapes(void **state)
{
    (void)state;
    hd_polytope *cube = box(1, 1, 1);
    double t[3] = {3.0, -2.0, 1.0};
    hd_pose pose = hd_rng_pose(&rng, t);
    posed_pair p = {cube, cube, pose, pose};
    check_subgradient(&p, 1, "identical cubes");
    for (int i = 0; i < 8; ++i) {
        hd_polytope *h = random_hull(1.0);
        posed_pair q = {h, h, pose, pose};
        check_subgradient(&q, 1, "identical hulls");
        hd_polytope_destroy(h);
    }
    hd_polytope_destroy(cube);
}

/* Two cubes touching at a corner (the origin on a vertex of M) and along an edge. */
static void test_touching_corners(void **state)
{
    (void)state;
    hd_polytope *a = box(1, 1, 1);
    posed_pair corner = {a, a, hd_pose_identity(), hd_test_translation(2, 2, 2)};
    check_subgradient(&corner, 1, "corner on corner");
    posed_pair edge = {a, a, hd_pose_identity(), hd_test_translation(2, 2, 0.3)};
    check_subgradient(&edge, 1, "edge along edge");
    hd_polytope_destroy(a);
}

/* Flat and point shapes: coplanar squares overlapping and a segment crossing a square in its plane
 * (M flat, the origin in it: not unique); a point inside a cube, nearest to one face (a vertex
 * against a face: differentiable). */
static void test_flat_and_point_shapes(void **state)
{
    (void)state;
    double square[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    double segment[6] = {-2, 0.1, 0, 2, 0.3, 0};
    double point[3] = {0, 0, 0};
    hd_polytope *sq = hd_test_build(square, 4), *seg = hd_test_build(segment, 2);
    hd_polytope *pt = hd_test_build(point, 1), *cube = box(1, 1, 1);
    assert_non_null(sq);
    assert_non_null(seg);
    assert_non_null(pt);
    posed_pair squares = {sq, sq, hd_pose_identity(), hd_test_translation(0.5, 0.3, 0)};
    check_subgradient(&squares, 1, "coplanar squares");
    posed_pair crossing = {sq, seg, hd_pose_identity(), hd_pose_identity()};
    check_subgradient(&crossing, 1, "segment in a square's plane");
    posed_pair inside = {cube, pt, hd_pose_identity(), hd_test_translation(0.2, 0.1, 0.7)};
    check_subgradient(&inside, 0, "point in a cube");
    hd_signed_distance_result c;
    assert_int_equal(query(&inside, &c), HD_OK);
    assert_true(c.gradient.unique);
    fd_tally t = {0};
    compare_with_differences(&inside, &c, &t);
    assert_int_equal(t.compared, 1);
    hd_polytope_destroy(sq);
    hd_polytope_destroy(seg);
    hd_polytope_destroy(pt);
    hd_polytope_destroy(cube);
}

/* Without the flag the gradient is left zero; with it, the closed form at a vertex-face pair:
 * B's corner 0.5 above A's top face, both frames turned, the normal A's face normal. */
static void test_flag_and_closed_form(void **state)
{
    (void)state;
    hd_polytope *a = box(1, 1, 1), *b = box(0.5, 0.5, 0.5);
    hd_pose pb = hd_test_translation(0.3, 0.2, 1.5 + 0.5 * sqrt(3.0));
    /* B's diagonal (-1,-1,-1)/sqrt(3) turned onto -z: its lowest corner is unique */
    double q[4] = {0.8880738339771153, 0.3250575836718682, -0.3250575836718682, 0.0};
    assert_int_equal(hd_pose_from_quaternion(q, pb.t, &pb), HD_OK);
    posed_pair p = {a, b, hd_pose_identity(), pb};
    hd_signed_distance_result plain;
    assert_int_equal(hd_signed_distance(a, &p.pa, b, &p.pb, NULL, &plain), HD_OK);
    for (int k = 0; k < 6; ++k) {
        assert_true(plain.gradient.a[k] == 0.0 && plain.gradient.b[k] == 0.0);
    }
    assert_false(plain.gradient.unique);
    hd_signed_distance_result c;
    assert_int_equal(query(&p, &c), HD_OK);
    assert_true(c.gradient.unique);
    /* d delta / d tau_B = n = +z; rotation: (corner - t_B) x n with the corner below t_B */
    double corner[3], n[3] = {0, 0, 1}, arm[3], expect[3];
    double low[3] = {-0.5, -0.5, -0.5};
    hd_pose_apply(&pb, low, corner);
    for (int k = 0; k < 3; ++k) {
        arm[k] = corner[k] - pb.t[k];
    }
    expect[0] = arm[1] * n[2] - arm[2] * n[1];
    expect[1] = arm[2] * n[0] - arm[0] * n[2];
    expect[2] = arm[0] * n[1] - arm[1] * n[0];
    for (int k = 0; k < 3; ++k) {
        assert_true(fabs(c.gradient.b[k] - n[k]) <= 1e-12);
        assert_true(fabs(c.gradient.a[k] + n[k]) <= 1e-12);
        assert_true(fabs(c.gradient.b[3 + k] - expect[k]) <= 1e-9);
        /* A's origin at the world origin: -(corner x n) */
    }
    assert_true(fabs(c.gradient.a[3] + (corner[1] * n[2] - corner[2] * n[1])) <= 1e-9);
    assert_true(fabs(c.gradient.a[4] + (corner[2] * n[0] - corner[0] * n[2])) <= 1e-9);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* The oracle's contact at a pose: the normal and witnesses of the brute-force closest pair when
 * separated; for an overlap the brute-force depth axis, and the witnesses of a vertex-face or
 * face-vertex facet from the supporting vertex of the vertex side (mode 1: B's vertex, 2: A's). */
typedef struct oracle_contact {
    double delta, n[3], wa[3], wb[3];
} oracle_contact;

static void oracle_contact_at(const posed_pair *p, int mode, oracle_contact *o)
{
    double va[3 * MAX_VERTS], vb[3 * MAX_VERTS], neg[3];
    int na = hd_polytope_vertex_count(p->a), nb = hd_polytope_vertex_count(p->b), k;
    hd_brute_posed_vertices(p->a, &p->pa, va);
    hd_brute_posed_vertices(p->b, &p->pb, vb);
    o->delta = hd_brute_signed_distance(va, na, vb, nb);
    if (o->delta > 0.0) {
        hd_brute_distance(va, na, vb, nb, o->wa, o->wb);
        for (k = 0; k < 3; ++k) {
            o->n[k] = (o->wb[k] - o->wa[k]) / o->delta;
        }
        return;
    }
    hd_oracle_depth(p->a, &p->pa, p->b, &p->pb, o->n);
    double len = sqrt(o->n[0] * o->n[0] + o->n[1] * o->n[1] + o->n[2] * o->n[2]);
    for (k = 0; k < 3; ++k) {
        o->n[k] /= len;
        neg[k] = -o->n[k];
    }
    int ia, ib;
    hd_brute_support_value(va, na, o->n, &ia);
    hd_brute_support_value(vb, nb, neg, &ib);
    for (k = 0; k < 3; ++k) {
        o->wb[k] = mode == 1 ? vb[3 * ib + k] : va[3 * ia + k] + o->delta * o->n[k];
        o->wa[k] = mode == 1 ? vb[3 * ib + k] - o->delta * o->n[k] : va[3 * ia + k];
    }
}

/* Central differences of the oracle's contact along d; 0 when the one-sided ones disagree (a
 * feature change within the step). */
static int contact_differences(const posed_pair *p, const double d[12], double h, int mode,
                               int with_witnesses, oracle_contact *rate)
{
    oracle_contact at, plus, minus;
    posed_pair pp = moved(p, d, h), pm = moved(p, d, -h);
    oracle_contact_at(p, mode, &at);
    oracle_contact_at(&pp, mode, &plus);
    oracle_contact_at(&pm, mode, &minus);
    double *r[4] = {&rate->delta, rate->n, rate->wa, rate->wb};
    const double *f[4] = {&plus.delta, plus.n, plus.wa, plus.wb};
    const double *m[4] = {&minus.delta, minus.n, minus.wa, minus.wb};
    const double *c[4] = {&at.delta, at.n, at.wa, at.wb};
    for (int v = 0; v < (with_witnesses ? 4 : 2); ++v) {
        for (int k = 0; k < (v == 0 ? 1 : 3); ++k) {
            double fwd = (f[v][k] - c[v][k]) / h, bwd = (c[v][k] - m[v][k]) / h;
            if (fabs(fwd - bwd) > 1e-3 * fmax(1.0, fabs(fwd))) {
                return 0;
            }
            r[v][k] = 0.5 * (fwd + bwd);
        }
    }
    return 1;
}

static double rate_error(const double *lib, const double *fd, int count)
{
    double worst = 0.0;
    for (int k = 0; k < count; ++k) {
        worst = fmax(worst, fabs(lib[k] - fd[k]) / fmax(1.0, fabs(fd[k])));
    }
    return worst;
}

/* hd_signed_distance_rates against central differences of the oracle's normal and witnesses on
 * random pairs of every size: the normal and both witnesses when separated, the normal and the
 * signed distance of every overlap, and the witnesses of vertex-face and face-vertex overlaps. */
static void test_rates_match_differences(void **state)
{
    (void)state;
    int compared = 0, kinked = 0, witnesses = 0;
    double worst = 0.0;
    for (int e = -6; e <= 6; e += 2) {
        double size = pow(10.0, e) * hd_rng_uniform(&rng, 1.0, 10.0);
        for (int i = 0; i < 40; ++i) {
            hd_polytope *a = random_hull(size), *b = random_hull(size);
            double ta[3] = {0, 0, 0}, tb[3];
            hd_rng_unit_vector(&rng, tb);
            double reach = hd_rng_uniform(&rng, 0.0, 2.5) * size;
            for (int k = 0; k < 3; ++k) {
                tb[k] *= reach;
            }
            posed_pair p = {a, b, hd_rng_pose(&rng, ta), hd_rng_pose(&rng, tb)};
            hd_signed_distance_result c;
            assert_int_equal(query(&p, &c), HD_OK);
            double d[12];
            random_direction(c.size, d);
            hd_contact_rates r;
            int mode = c.feature_a.type == HD_FEATURE_FACE ? 1 : 2;
            oracle_contact fd;
            if (c.gradient.unique && fabs(c.signed_distance) > 1e-4 * c.size) {
                assert_int_equal(hd_signed_distance_rates(a, &p.pa, b, &p.pb, &c, d, &r), HD_OK);
                int with_witnesses =
                    c.signed_distance > 0.0 || c.feature_a.type != c.feature_b.type;
                if (!contact_differences(&p, d, 1e-6 * c.size, mode, with_witnesses, &fd)) {
                    ++kinked;
                } else {
                    double err = fmax(rate_error(&r.signed_distance, &fd.delta, 1),
                                      rate_error(r.normal, fd.n, 3) * c.size);
                    if (with_witnesses) {
                        err = fmax(err, fmax(rate_error(r.witness_a, fd.wa, 3),
                                             rate_error(r.witness_b, fd.wb, 3)));
                        ++witnesses;
                    }
                    if (err > 1e-5) {
                        printf("rates off by %.3g (delta %.6g size %.3g, %s/%s)\n", err,
                               c.signed_distance, c.size, hd_feature_type_str(c.feature_a.type),
                               hd_feature_type_str(c.feature_b.type));
                    }
                    assert_true(err <= 1e-5);
                    worst = fmax(worst, err);
                    ++compared;
                }
            }
            hd_polytope_destroy(a);
            hd_polytope_destroy(b);
        }
    }
    printf("rates: compared %d (%d with witnesses), %d with a feature change within the step; "
           "worst %.3g\n",
           compared, witnesses, kinked, worst);
    assert_true(compared >= 200);
}

/* The rates' argument checks: NULL, a non-finite motion, features that do not meet once. */
static void test_rates_bad_input(void **state)
{
    (void)state;
    hd_polytope *a = box(1, 1, 1);
    posed_pair p = {a, a, hd_pose_identity(), hd_test_translation(0.3, 0.2, 2.5)};
    hd_signed_distance_result c;
    hd_contact_rates r;
    double d[12] = {0};
    assert_int_equal(query(&p, &c), HD_OK);
    assert_int_equal(hd_signed_distance_rates(NULL, NULL, a, NULL, &c, d, &r), HD_ERR_NULL);
    assert_int_equal(hd_signed_distance_rates(a, NULL, a, NULL, &c, d, NULL), HD_ERR_NULL);
    /* face on face */
    assert_int_equal(hd_signed_distance_rates(a, &p.pa, a, &p.pb, &c, d, &r), HD_ERR_INVALID_ARG);
    c.feature_a.type = HD_FEATURE_VERTEX;
    c.feature_a.index = 99;
    c.feature_b.type = HD_FEATURE_FACE;
    assert_int_equal(hd_signed_distance_rates(a, &p.pa, a, &p.pb, &c, d, &r), HD_ERR_INVALID_ARG);
    c.feature_a.index = 0;
    d[4] = NAN;
    assert_int_equal(hd_signed_distance_rates(a, &p.pa, a, &p.pb, &c, d, &r), HD_ERR_NONFINITE);
    hd_polytope_destroy(a);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("test_gradient"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flag_and_closed_form),
        cmocka_unit_test(test_random_pairs_match_differences),
        cmocka_unit_test(test_distance_gradient),
        cmocka_unit_test(test_face_and_edge_contacts),
        cmocka_unit_test(test_identical_centred_shapes),
        cmocka_unit_test(test_touching_corners),
        cmocka_unit_test(test_flat_and_point_shapes),
        cmocka_unit_test(test_rates_match_differences),
        cmocka_unit_test(test_rates_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
