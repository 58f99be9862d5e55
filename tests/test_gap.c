/* Directional gap (hd_gap, CD-Dual section 6): the travel of B along +-s to first contact or to
 * separation, against an independent brute force: the chord [lo, hi] of the line {tau s} through
 * M = A - B, intersected from every candidate face plane of M (tests/support/mdiff.h), and the
 * distance between the projections of A and B along s when the line misses M. Also the relation
 * between the travel g and the dual distance d(f_opt) (section 6) against the geometric form,
 * analytic box configurations (parallel faces, sliding contact, grazing), lower dimensions and
 * argument errors. */
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
#include "families.h"
#include "cddual/internal.h"
#include "core/math.h"
#include "mdiff.h"
#include "testutil.h"

static hd_rng rng;

/* Travel agreement: relative to the scale of the pair (the coordinates' size). */
#define TRAVEL_REL 1e-9

/* g from d(f_opt) (the paper's formula, hdi_cddual_gap_from_dual) against the geometric form:
 * the line through o and c meets the plane n.x = h at x = tau c/|c| with tau = h / (n.c/|c|),
 * and the travel is tau (negative when x lies beyond o, the penetration of section 3.2). */
static void test_formula(void **state)
{
    (void)state;
    for (int i = 0; i < 10000; ++i) {
        double c[3], n[3];
        hd_rng_unit_vector(&rng, c);
        double len = pow(10.0, hd_rng_uniform(&rng, -3, 3));
        hdi_v3_scale(c, c, len);
        hd_rng_unit_vector(&rng, n);
        if (hdi_v3_dot(n, c) > 0) {
            hdi_v3_neg(n, n); /* front-facing for the ray from c towards o */
        }
        if (fabs(hdi_v3_dot(n, c)) < 1e-3 * len) {
            continue;
        }
        /* a plane with c strictly inside: h - n.c > 0 */
        double h = hdi_v3_dot(n, c) + hd_rng_uniform(&rng, 0.01, 3) * len;
        double psi = -hdi_v3_dot(n, c) / (h - hdi_v3_dot(n, c)); /* r = o - c */
        double d = (psi - 1.0) / len;                          /* Eq. (1) */
        double g = hdi_cddual_gap_from_dual(d, len);
        double tau = h / (hdi_v3_dot(n, c) / len);
        /* the exit point x = c + r / psi lies on the plane, at travel tau from o */
        assert_true(fabs(g - tau) <= 1e-12 * len * (1 + fabs(psi) + 1 / fabs(psi)));
    }
    assert_true(hdi_cddual_gap_from_dual(HUGE_VAL, 2.5) == 2.5);
}

typedef struct gap_tally {
    int queries, contact, miss, overlap, skipped;
} gap_tally;

static double scale_of(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                       const hd_pose *pb)
{
    double s = 0.0;
    const hd_polytope *p[2] = {a, b};
    const hd_pose *q[2] = {pa, pb};
    for (int k = 0; k < 2; ++k) {
        double c[3], r, w[3];
        hd_polytope_sphere(p[k], c, &r);
        if (q[k] != NULL) {
            hd_pose_apply(q[k], c, w);
        } else {
            memcpy(w, c, sizeof w);
        }
        s = fmax(s, fmax(fabs(w[0]), fmax(fabs(w[1]), fabs(w[2]))) + r);
    }
    return s;
}

/* Distance between the projections of A and B on the plane normal to unit s (the distance from
 * the line {tau s} to M when it misses M), brute force. */
static double projected_distance(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                                 const hd_pose *pb, const double s[3])
{
    int na = hd_polytope_vertex_count(a), nb = hd_polytope_vertex_count(b);
    double *wa = malloc(3 * sizeof(double) * (size_t)(na + nb));
    assert_non_null(wa);
    double *wb = wa + 3 * na;
    hd_brute_posed_vertices(a, pa, wa);
    hd_brute_posed_vertices(b, pb, wb);
    for (int i = 0; i < na + nb; ++i) {
        double *p = wa + 3 * i;
        double k = hdi_v3_dot(p, s);
        hdi_v3_madd(p, p, -k, s);
    }
    double d = hd_brute_distance(wa, na, wb, nb, NULL, NULL);
    free(wa);
    return d;
}

/* One gap query against the brute-force chord. */
static void check_gap(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                      const hd_pose *pb, const double s_in[3], hd_workspace *ws, gap_tally *t)
{
    hd_options opt = hd_options_default();
    opt.algo = HD_ALGO_CDDUAL;
    opt.workspace = ws;
    hd_gap_result g;
    hd_status st = hd_gap(a, pa, b, pb, s_in, &opt, &g);
    assert_int_equal(st, HD_OK);
    t->queries++;
    double s[3];
    hdi_v3_copy(s, s_in);
    hdi_v3_normalize(s);
    assert_true(fabs(hdi_v3_dot(g.direction, s) - 1.0) < 1e-12);
    double scale = scale_of(a, pa, b, pb);
    double clear = 1e-7 * scale, tol = TRAVEL_REL * scale;
    hd_mdiff m;
    assert_int_equal(hd_mdiff_build(&m, a, pa, b, pb), 0);
    long double lo, hi;
    int meets = hd_mdiff_chord(&m, s, &lo, &hi);
    hd_mdiff_free(&m);
    int ok = 1;
    if (!meets || hi - lo < clear) {
        double miss = meets ? 0.0 : projected_distance(a, pa, b, pb, s);
        if (miss <= clear) {
            t->skipped++; /* the line grazes M */
            return;
        }
        ok = g.contact == 0;
        t->miss++;
    } else if (fabsl(lo) < clear || fabsl(hi) < clear || g.verdict == HD_TOUCHING) {
        t->skipped++; /* contact at tau = 0: touching */
        return;
    } else if (lo > 0 || hi < 0) {
        double want = lo > 0 ? (double)lo : (double)-hi;
        ok = g.contact == 1 && g.verdict == HD_SEPARATED && g.s_sign == (lo > 0 ? 1 : -1) &&
             fabs(g.distance - want) <= tol;
        t->contact++;
    } else {
        if (fabsl(hi + lo) < clear) {
            t->skipped++; /* both ways out equally near */
            return;
        }
        double want = hi < -lo ? (double)hi : (double)-lo;
        ok = g.contact == 1 && g.verdict == HD_INTERSECTING && g.s_sign == (hi < -lo ? 1 : -1) &&
             fabs(g.distance - want) <= tol;
        t->overlap++;
    }
    if (!ok) {
        printf("gap: contact %d verdict %s sign %d distance %.17g; brute force chord [%.17Lg, "
               "%.17Lg] (meets %d), s = (%.17g %.17g %.17g)\n",
               g.contact, hd_verdict_str(g.verdict), g.s_sign, g.distance, lo, hi, meets, s[0],
               s[1], s[2]);
        int na = hd_polytope_vertex_count(a), nb = hd_polytope_vertex_count(b);
        double wa[3 * 128], wb[3 * 128];
        if (na <= 128 && nb <= 128) {
            hd_brute_posed_vertices(a, pa, wa);
            hd_brute_posed_vertices(b, pb, wb);
            hd_test_dump_pair("gap", wa, na, NULL, wb, nb, NULL);
        }
    }
    assert_true(ok);
}

static void gap_print(const char *name, const gap_tally *t)
{
    printf("%s: %d queries: %d reach contact, %d miss, %d overlap (separate), %d skipped at the "
           "band\n",
           name, t->queries, t->contact, t->miss, t->overlap, t->skipped);
}

static int random_points(double *xyz)
{
    switch (hd_rng_int(&rng, 4)) {
        case 0: {
            int n = 8 + hd_rng_int(&rng, 25);
            hd_points_ellipsoid(&rng, n, hd_rng_uniform(&rng, 0.5, 2), hd_rng_uniform(&rng, 0.5, 2),
                                hd_rng_uniform(&rng, 0.5, 2), xyz);
            return n;
        }
        case 1: {
            double hi[3] = {hd_rng_uniform(&rng, 0.2, 2), hd_rng_uniform(&rng, 0.2, 2),
                            hd_rng_uniform(&rng, 0.2, 2)};
            double lo[3] = {-hi[0], -hi[1], -hi[2]};
            hd_points_box(lo, hi, xyz);
            return 8;
        }
        case 2: {
            int n = 5 + hd_rng_int(&rng, 20);
            hd_points_cloud(&rng, n, 1, 1, 1, xyz);
            return n;
        }
        default: {
            int n = 10 + hd_rng_int(&rng, 20);
            hd_points_ellipsoid(&rng, n, 6, 1, 0.5, xyz);
            return n;
        }
    }
}

static void test_random(void **state)
{
    (void)state;
    gap_tally t;
    memset(&t, 0, sizeof t);
    hd_workspace *ws;
    assert_int_equal(hd_workspace_create(4096, &ws), HD_OK);
    double xa[3 * 40], xb[3 * 40];
    for (int i = 0; i < 1500; ++i) {
        int na = random_points(xa), nb = random_points(xb);
        hd_polytope *a = hd_test_build(xa, na), *b = hd_test_build(xb, nb);
        assert_non_null(a);
        assert_non_null(b);
        double dir[3], t3[3], s[3];
        hd_rng_unit_vector(&rng, dir);
        double dist = hd_rng_uniform(&rng, 0, 6);
        for (int k = 0; k < 3; ++k) {
            t3[k] = dist * dir[k];
        }
        /* s towards A half of the time (contact likely), random otherwise */
        if (i & 1) {
            hdi_v3_scale(s, dir, -hd_rng_uniform(&rng, 0.1, 10));
            double jitter[3];
            hd_rng_unit_vector(&rng, jitter);
            hdi_v3_madd(s, s, 0.3 * hdi_v3_len(s), jitter);
        } else {
            hd_rng_unit_vector(&rng, s);
        }
        hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, t3);
        check_gap(a, &pa, b, &pb, s, (i & 2) ? ws : NULL, &t);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    gap_print("random", &t);
    assert_true(t.contact > 100 && t.miss > 100 && t.overlap > 100);
    hd_workspace_destroy(ws);
}

/* A small shape (cube, tetrahedron or square of side 1e-9 to 0.1) against a long one (segment,
 * square or thin box of length 0.1 to 10), both turned and close together, in a random
 * direction: M is a needle, where the lift of the planar search in double missed the line by
 * 1e-7 (at eps = 2.6e-13) and the travel along it was wrong by up to a factor of 100, and where
 * CD-Dual's search cycled (docs/algorithms/cddual.md, section 8). Every query answers, with the
 * chord's travel within 1e-9 of the pair's size; chords whose ends lie within the band of 0
 * (touching, or two ways out equally near) are only required to answer. */
static void test_small_against_long(void **state)
{
    (void)state;
    int checked = 0, answered = 0;
    for (int i = 0; i < 2000; ++i) {
        hd_needle_pair np;
        hd_needle_pair_make(&rng, &np);
        hd_polytope *a = hd_test_build(np.xa, np.na), *b = hd_test_build(np.xb, np.nb);
        const hd_pose pa = np.pose_a, pb = np.pose_b;
        double dir[3];
        hd_rng_unit_vector(&rng, dir);
        hd_options opt = hd_options_default();
        hd_gap_result g;
        hd_status st = hd_gap(a, &pa, b, &pb, dir, &opt, &g);
        if (st == HD_ERR_UNSUPPORTED) { /* A - B flat: a square and a segment in its plane */
            hd_polytope_destroy(a);
            hd_polytope_destroy(b);
            continue;
        }
        if (st != HD_OK) {
            printf("pair %d: hd_gap %s\n", i, hd_status_str(st));
        }
        assert_int_equal(st, HD_OK);
        answered++;
        hd_mdiff m;
        assert_int_equal(hd_mdiff_build(&m, a, &pa, b, &pb), 0);
        long double lo, hi;
        int meets = hd_mdiff_chord(&m, dir, &lo, &hi);
        hd_mdiff_free(&m);
        hd_collide_result r;
        assert_int_equal(hd_collide(a, &pa, b, &pb, &opt, &r), HD_OK);
        assert_int_equal(g.verdict, r.verdict);
        double size = np.length + np.small, band = 4 * r.eps;
        if (meets && g.contact && fabsl(lo) > band && fabsl(hi) > band && fabsl(hi + lo) > band) {
            long double want = hd_mdiff_chord_travel(lo, hi);
            if (!(fabsl((long double)g.distance - want) <= 1e-9L * size)) {
                printf("pair %d: travel %.17g, brute force %.17Lg (chord [%.6Lg, %.6Lg])\n", i,
                       g.distance, want, lo, hi);
            }
            assert_true(fabsl((long double)g.distance - want) <= 1e-9L * size);
            checked++;
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    printf("small against long: %d gaps answered, %d travels checked against the chord\n", answered,
           checked);
    assert_true(checked > 500);
}

/* Replays pairs found by tests/stress.c (tests/support/families.h) and checks hd_gap along each
 * one's direction against the chord: the travel within 1e-9 of the size, where the chord's ends
 * lie outside four bands of 0. Returns how many travels were checked. */
static int check_gap_cases(const hd_needle_case *found, size_t count)
{
    int checked = 0;
    for (size_t k = 0; k < count; ++k) {
        hd_needle_pair np;
        double dir[3];
        hd_needle_replay(&found[k], &np, dir);
        hd_polytope *a = hd_test_build(np.xa, np.na), *b = hd_test_build(np.xb, np.nb);
        hd_options opt = hd_options_default();
        hd_gap_result g;
        hd_status st = hd_gap(a, &np.pose_a, b, &np.pose_b, dir, &opt, &g);
        if (st != HD_OK) {
            printf("pair %d: hd_gap %s\n", found[k].index, hd_status_str(st));
        }
        assert_int_equal(st, HD_OK);
        hd_collide_result r;
        assert_int_equal(hd_collide(a, &np.pose_a, b, &np.pose_b, &opt, &r), HD_OK);
        assert_int_equal(g.verdict, r.verdict);
        hd_signed_distance_result c;
        assert_int_equal(hd_signed_distance(a, &np.pose_a, b, &np.pose_b, &opt, &c), HD_OK);
        hd_mdiff m;
        assert_int_equal(hd_mdiff_build(&m, a, &np.pose_a, b, &np.pose_b), 0);
        long double lo, hi;
        int meets = hd_mdiff_chord(&m, dir, &lo, &hi);
        hd_mdiff_free(&m);
        double band = 4 * c.eps;
        if (meets && g.contact && r.verdict != HD_TOUCHING && fabsl(lo) > band &&
            fabsl(hi) > band && fabsl(hi + lo) > band) {
            long double want = hd_mdiff_chord_travel(lo, hi);
            long double tol = 1e-9L * c.size;
            if (!(fabsl((long double)g.distance - want) <= tol)) {
                printf("pair %d: travel %.17g, chord's %.17Lg\n", found[k].index, g.distance, want);
            }
            assert_true(fabsl((long double)g.distance - want) <= tol);
            checked++;
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    return checked;
}

/* Needle pairs moved 1e2 to 1e4 from the world origin (tests/support/families.h,
 * hd_needle_replay: the stress program's sequence; the direction is its last unit vector), 1.5 to
 * 11 eps apart, whose lines of travel pass within the band of M: the planar search's |v| stalled
 * there until its cap and hd_gap failed (kernel/plane_search.c). Every gap answers, with
 * hd_collide's verdict; where the chord gives a travel clear of the band, the travel agrees with
 * it to 1e-9 of the size. Fails on the code before the planar search's stall rule. */
static void test_far_needles(void **state)
{
    (void)state;
    static const hd_needle_case found[] = {{20, 2924, 1e2, 0},  {20, 85, 1e3, 0},
                                           {20, 365, 1e3, 0},   {20, 9486, 1e3, 0},
                                           {20, 19536, 1e3, 0}, {20, 17095, 1e4, 0}};
    int checked = check_gap_cases(found, sizeof found / sizeof found[0]);
    printf("far needles: %d travels checked against the chord\n", checked);
}

/* Needle pairs moved 1e6 from the world origin (tests/stress.c, seed 52), each with a travel
 * clear of the band: the travel agrees with the chord to 1e-9 of the size. A chord from world
 * vertices rounded to doubles (about 1e-10 at 1e6) was off by up to 1.6e-8 of the size on such
 * pairs, while the library, which works in A's frame, was right (docs/algorithms/cddual.md, section
 * 8); this fails with that reference. */
static void test_far_travels(void **state)
{
    (void)state;
    static const hd_needle_case found[] = {
        {52, 27, 1e6, 0},   {52, 102, 1e6, 0},  {52, 271, 1e6, 0},  {52, 487, 1e6, 0},
        {52, 1281, 1e6, 0}, {52, 2411, 1e6, 0}, {52, 3022, 1e6, 0}, {52, 3704, 1e6, 0}};
    int checked = check_gap_cases(found, sizeof found / sizeof found[0]);
    printf("far travels: %d travels checked against the chord\n", checked);
    assert_int_equal(checked, (int)(sizeof found / sizeof found[0]));
}

/* Boxes stacked with a tilt below the features' angle tolerance (tests/support/families.h,
 * HD_NEEDLE_STACK), separated by 8 to 70 eps, along directions nearly parallel to the contact:
 * CD-Dual's ray search took the two bottom and top faces for parallel, expanded the planar sum's
 * neighbours only, and stopped on A's face, whose plane passes through the origin; the travel
 * came out 0 instead of 1e-10 to 2e-6 (cddual/neighbours.c, expand_near_parallel). The last
 * case, 1e4 from the origin and 9.7 eps apart, travels with n.s = 8.7e-6: a chord from world
 * vertices rounded to doubles (1.1e-12 there) was off by 9.7e-8 (3.8e-9 of the size), and the
 * library's travel, from the pair in A's frame, was right (tests/support/mdiff.c). */
static void test_stacked_boxes(void **state)
{
    (void)state;
    static const hd_needle_case found[] = {{1, 6802, 0, 2}, {1, 6833, 0, 2},    {2, 183, 0, 2},
                                           {2, 1876, 0, 2}, {2, 2578, 0, 2},    {1, 3915, 1e2, 2},
                                           {2, 92, 1e2, 2}, {2, 12989, 1e4, 2}, {41, 5808, 1e4, 2}};
    int checked = check_gap_cases(found, sizeof found / sizeof found[0]);
    printf("stacked boxes: %d travels checked against the chord\n", checked);
    assert_int_equal(checked, (int)(sizeof found / sizeof found[0]));
}

static hd_polytope *box_poly(double hx, double hy, double hz)
{
    double lo[3] = {-hx, -hy, -hz}, hi[3] = {hx, hy, hz}, xyz[24];
    hd_points_box(lo, hi, xyz);
    hd_polytope *p = hd_test_build(xyz, 8);
    assert_non_null(p);
    return p;
}

/* Analytic: A = [-1, 1]^3, B = [-0.5, 0.5]^3 at (x, y, 0), s = -x (towards A). Faces parallel to
 * s slide along each other; |y| = 1.5 grazes (edge sliding on face: touching along the sweep),
 * beyond that the sweep misses. */
static void test_boxes(void **state)
{
    (void)state;
    hd_polytope *a = box_poly(1, 1, 1), *b = box_poly(0.5, 0.5, 0.5);
    static const double ys[] = {0.0, 0.7, 1.2, 1.6, 3.0};
    double s[3] = {-1, 0, 0};
    for (int i = 0; i < 5; ++i) {
        for (double x = 0.25; x < 6; x += 0.5) {
            hd_pose pb = hd_pose_identity();
            pb.t[0] = x;
            pb.t[1] = ys[i];
            hd_options opt = hd_options_default();
            hd_gap_result g;
            assert_int_equal(hd_gap(a, NULL, b, &pb, s, &opt, &g), HD_OK);
            if (ys[i] > 1.5) {
                /* separated in y: the sweep along x never touches */
                assert_int_equal(g.contact, 0);
                assert_int_equal(g.verdict, HD_SEPARATED);
            } else if (x > 1.5) {
                assert_int_equal(g.verdict, HD_SEPARATED);
                assert_int_equal(g.contact, 1);
                assert_int_equal(g.s_sign, 1); /* along s = -x */
                assert_true(fabs(g.distance - (x - 1.5)) < 1e-12);
            } else {
                /* overlapping: out along +x needs 1.5 - x, along -x needs 1.5 + x */
                assert_int_equal(g.verdict, HD_INTERSECTING);
                assert_int_equal(g.contact, 1);
                assert_int_equal(g.s_sign, -1);
                assert_true(fabs(g.distance - (1.5 - x)) < 1e-12);
            }
        }
    }
    /* the same with s not normalized and opposite */
    hd_pose pb = hd_pose_identity();
    pb.t[0] = 4.0;
    double s2[3] = {7.0, 0, 0};
    hd_options opt = hd_options_default();
    hd_gap_result g;
    assert_int_equal(hd_gap(a, NULL, b, &pb, s2, &opt, &g), HD_OK);
    assert_int_equal(g.contact, 1);
    assert_int_equal(g.s_sign, -1);
    assert_true(fabs(g.distance - 2.5) < 1e-12);
    assert_true(g.direction[0] == 1.0);
    /* argument errors */
    double zero[3] = {0, 0, 0}, bad[3] = {NAN, 0, 1};
    assert_int_equal(hd_gap(a, NULL, b, &pb, zero, &opt, &g), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_gap(a, NULL, b, &pb, bad, &opt, &g), HD_ERR_NONFINITE);
    assert_int_equal(hd_gap(a, NULL, b, &pb, NULL, &opt, &g), HD_ERR_NULL);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* A polygon, a segment or a point against a solid (both orders), and two polygons or a polygon
 * and a segment (M still solid), against the brute force; a flat M is not supported
 * (documented). */
static void test_lower_dimensions(void **state)
{
    (void)state;
    gap_tally t;
    memset(&t, 0, sizeof t);
    double xyz[3 * 40];
    hd_points_ellipsoid(&rng, 30, 1.0, 0.7, 0.5, xyz);
    hd_polytope *solid = hd_test_build(xyz, 30);
    double poly[3 * 6], seg[6] = {-1.2, 0.1, 0.0, 0.9, -0.3, 0.2}, pt[3] = {0.1, -0.2, 0.3};
    for (int i = 0; i < 6; ++i) {
        poly[3 * i] = cos(i * 1.0472) * 1.1;
        poly[3 * i + 1] = sin(i * 1.0472) * 0.8;
        poly[3 * i + 2] = 0.0;
    }
    hd_polytope *flat[3] = {hd_test_build(pt, 1), hd_test_build(seg, 2), hd_test_build(poly, 6)};
    for (int d = 0; d < 3; ++d) {
        assert_non_null(flat[d]);
        for (int i = 0; i < 200; ++i) {
            double dir[3], t3[3], s[3];
            hd_rng_unit_vector(&rng, dir);
            double dist = hd_rng_uniform(&rng, 0, 3);
            for (int k = 0; k < 3; ++k) {
                t3[k] = dist * dir[k];
            }
            if (i & 1) {
                hdi_v3_neg(s, dir);
                double jitter[3];
                hd_rng_unit_vector(&rng, jitter);
                hdi_v3_madd(s, s, 0.3, jitter);
            } else {
                hd_rng_unit_vector(&rng, s);
            }
            hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, t3);
            check_gap(flat[d], &pa, solid, &pb, s, NULL, &t);
            check_gap(solid, &pa, flat[d], &pb, s, NULL, &t);
        }
    }
    gap_print("lower dimension vs solid", &t);
    /* two lower-dimensional polytopes spanning a solid M: polygon x polygon, polygon x segment */
    gap_tally t2;
    memset(&t2, 0, sizeof t2);
    for (int i = 0; i < 300; ++i) {
        int other = (i & 1) ? 2 : 1;
        double t3[3] = {hd_rng_uniform(&rng, -1.5, 1.5), hd_rng_uniform(&rng, -1.5, 1.5),
                        hd_rng_uniform(&rng, -1.5, 1.5)};
        double s[3];
        hd_rng_unit_vector(&rng, s);
        hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, t3);
        if (i & 2) {
            check_gap(flat[2], &pa, flat[other], &pb, s, NULL, &t2);
        } else {
            check_gap(flat[other], &pa, flat[2], &pb, s, NULL, &t2);
        }
    }
    gap_print("polygon vs polygon or segment", &t2);
    /* a flat M is not supported: coplanar polygons, a point, two segments */
    hd_options opt = hd_options_default();
    hd_gap_result g;
    double s[3] = {0, 0, 1};
    assert_int_equal(hd_gap(flat[2], NULL, flat[2], NULL, s, &opt, &g), HD_ERR_UNSUPPORTED);
    assert_int_equal(hd_gap(flat[0], NULL, flat[2], NULL, s, &opt, &g), HD_ERR_UNSUPPORTED);
    assert_int_equal(hd_gap(flat[1], NULL, flat[1], NULL, s, &opt, &g), HD_ERR_UNSUPPORTED);
    for (int d = 0; d < 3; ++d) {
        hd_polytope_destroy(flat[d]);
    }
    hd_polytope_destroy(solid);
}

/* Large polytopes near contact: the travel along s equals the contact distance found by
 * bisection on hd_collide (GJK) along s, to the bisection's precision. */
static void test_large_bisection(void **state)
{
    (void)state;
    hd_polytope *a, *b;
    hd_test_ellipsoid_pair(&rng, 1000, &a, &b);
    assert_non_null(a);
    assert_non_null(b);
    int compared = 0;
    for (int i = 0; i < 40; ++i) {
        double dir[3], t3[3], s[3];
        hd_rng_unit_vector(&rng, dir);
        for (int k = 0; k < 3; ++k) {
            t3[k] = 500 * dir[k];
        }
        hdi_v3_neg(s, dir);
        double jitter[3];
        hd_rng_unit_vector(&rng, jitter);
        hdi_v3_madd(s, s, 0.2, jitter);
        hdi_v3_normalize(s);
        hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, t3);
        hd_options opt = hd_options_default();
        hd_gap_result g;
        assert_int_equal(hd_gap(a, &pa, b, &pb, s, &opt, &g), HD_OK);
        /* bisection on the GJK verdict along s */
        double lo = 0.0, hi = 1000.0;
        hd_pose q = pb;
        for (int k = 0; k < 60; ++k) {
            double mid = 0.5 * (lo + hi);
            for (int j = 0; j < 3; ++j) {
                q.t[j] = pb.t[j] + mid * s[j];
            }
            hd_collide_result res;
            assert_int_equal(hd_collide(a, &pa, b, &q, &opt, &res), HD_OK);
            if (res.verdict == HD_SEPARATED) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        if (hi >= 999.0) {
            assert_int_equal(g.contact, 0);
            continue;
        }
        assert_int_equal(g.contact, 1);
        assert_int_equal(g.s_sign, 1);
        assert_true(fabs(g.distance - hi) < 1e-8 * 700);
        compared++;
    }
    printf("large ellipsoids: %d of 40 travels compared with bisection\n", compared);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("test_gap"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formula),         cmocka_unit_test(test_random),
        cmocka_unit_test(test_boxes),           cmocka_unit_test(test_lower_dimensions),
        cmocka_unit_test(test_large_bisection), cmocka_unit_test(test_small_against_long),
        cmocka_unit_test(test_far_needles),     cmocka_unit_test(test_far_travels),
        cmocka_unit_test(test_stacked_boxes),
    };
    if (getenv("HEDRA_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("HEDRA_TEST_FILTER"));
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
