/* Containment and point-inside queries: hd_lp_contains / hd_lp_point_inside on raw arrays in
 * dimensions 2..4, and hd_contains / hd_point_inside on posed polytopes of dimensions 0..3 (face
 * planes in 3D, exact distances below, the LP near the boundary). Expectations come from tables
 * of cases whose answer is known by construction (cubes, their faces, edges, vertices, points
 * 1e-9 inside or outside) and from the exact GLPK oracle on random inputs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "oracle.h"
#include "testutil.h"

static uint64_t g_seed;

static int cube(int d, double h, double *out)
{
    int n = 1 << d;
    for (int i = 0; i < n; ++i) {
        for (int k = 0; k < d; ++k) {
            out[i * d + k] = (i >> k) & 1 ? h : -h;
        }
    }
    return n;
}

static double quantized(double x, int bits)
{
    return ldexp(nearbyint(ldexp(x, bits)), -bits);
}

/* ---------- raw arrays ---------- */

typedef struct point_case {
    const char *what;
    double p[4];   /* first coordinates; the rest are `fill` */
    double fill;
    hd_verdict want;
} point_case;

/* The cube [-1, 1]^d against points whose answer is known: depth / distance 1e-9 is far outside
 * the band (eps = 1e-12 * largest coordinate), 1e-14 is inside it. */
static void test_raw_point_table(void **state)
{
    (void)state;
    static const point_case cases[] = {
        {"centre", {0, 0, 0, 0}, 0.0, HD_INTERSECTING},
        {"vertex", {1, 1, 1, 1}, 1.0, HD_TOUCHING},
        {"face centre", {1, 0, 0, 0}, 0.0, HD_TOUCHING},
        {"edge midpoint", {1, 1, 0, 0}, 0.0, HD_TOUCHING},
        {"1e-9 outside a face", {1 + 1e-9, 0, 0, 0}, 0.0, HD_SEPARATED},
        {"1e-9 inside a face", {1 - 1e-9, 0, 0, 0}, 0.0, HD_INTERSECTING},
        {"1e-9 inside a corner", {1 - 1e-9, 1 - 1e-9, 1 - 1e-9, 1 - 1e-9}, 1 - 1e-9,
         HD_INTERSECTING},
        {"beyond a vertex", {1 + 1e-9, 1 + 1e-9, 1 + 1e-9, 1 + 1e-9}, 1 + 1e-9, HD_SEPARATED},
        {"1e-14 outside a face (band)", {1 + 1e-14, 0, 0, 0}, 0.0, HD_TOUCHING},
        {"1e-14 inside a face (band)", {1 - 1e-14, 0.5, 0, 0}, 0.0, HD_TOUCHING},
        {"far away", {-7, 3, 2, 1}, 5.0, HD_SEPARATED},
    };
    double s[16 * 4];
    for (int d = 2; d <= 4; ++d) {
        int n = cube(d, 1.0, s);
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            double p[4];
            for (int k = 0; k < d; ++k) {
                p[k] = k < 4 ? cases[c].p[k] : cases[c].fill;
            }
            hd_verdict v;
            assert_int_equal(hd_lp_point_inside(d, s, n, p, NULL, &v), HD_OK);
            if (v != cases[c].want) {
                printf("dim %d, %s: got %s\n", d, cases[c].what, hd_verdict_str(v));
            }
            assert_int_equal(v, cases[c].want);
        }
    }
    hd_verdict v;
    double p[3] = {0, 0, 0};
    assert_int_equal(hd_lp_point_inside(3, NULL, 0, p, NULL, &v), HD_OK);
    assert_int_equal(v, HD_SEPARATED);
    assert_int_equal(hd_lp_point_inside(3, s, 8, NULL, NULL, &v), HD_ERR_NULL);
    assert_int_equal(hd_lp_point_inside(0, s, 8, p, NULL, &v), HD_ERR_INVALID_ARG);
}

/* The source's IsSubsetOf rules and a table of containments of cubes in cubes. */
static void test_raw_contains_table(void **state)
{
    (void)state;
    double big[64], small[64], shifted[64], out1[64 + 4];
    bool inside = -1;
    for (int d = 2; d <= 4; ++d) {
        int n = cube(d, 1.0, big);
        cube(d, 0.5, small);
        cube(d, 1.0, shifted);
        for (int i = 0; i < n; ++i) {
            shifted[i * d] += 1e-9;
        }
        assert_int_equal(hd_lp_contains(d, big, n, small, n, NULL, &inside), HD_OK);
        assert_int_equal(inside, 1);
        assert_int_equal(hd_lp_contains(d, big, n, big, n, NULL, &inside), HD_OK);
        assert_int_equal(inside, 1); /* the boundary counts as inside */
        assert_int_equal(hd_lp_contains(d, small, n, big, n, NULL, &inside), HD_OK);
        assert_int_equal(inside, 0);
        assert_int_equal(hd_lp_contains(d, big, n, shifted, n, NULL, &inside), HD_OK);
        assert_int_equal(inside, 0);
        /* inner points plus one just outside */
        memcpy(out1, small, sizeof(double) * (size_t)(n * d));
        for (int k = 0; k < d; ++k) {
            out1[n * d + k] = k == d - 1 ? 1 + 1e-9 : 0.0;
        }
        assert_int_equal(hd_lp_contains(d, big, n, out1, n + 1, NULL, &inside), HD_OK);
        assert_int_equal(inside, 0);
        out1[n * d + d - 1] = 1.0;
        assert_int_equal(hd_lp_contains(d, big, n, out1, n + 1, NULL, &inside), HD_OK);
        assert_int_equal(inside, 1);
    }
    /* empty sets: empty T is inside anything (also the empty S); nothing is inside empty S */
    assert_int_equal(hd_lp_contains(3, big, 8, NULL, 0, NULL, &inside), HD_OK);
    assert_int_equal(inside, 1);
    assert_int_equal(hd_lp_contains(3, NULL, 0, NULL, 0, NULL, &inside), HD_OK);
    assert_int_equal(inside, 1);
    assert_int_equal(hd_lp_contains(3, NULL, 0, big, 1, NULL, &inside), HD_OK);
    assert_int_equal(inside, 0);
    assert_int_equal(hd_lp_contains(3, big, 8, big, 8, NULL, NULL), HD_ERR_NULL);
}

/* Random clouds and points: each point's verdict is the oracle's exact sign; containment holds
 * iff the oracle puts every point of T in conv(S). */
static void test_raw_random_vs_oracle(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed);
    double s[40 * 4], t[6 * 4];
    for (int it = 0; it < 150; ++it) {
        int d = 2 + it % 3, ns = d + 1 + hd_rng_int(&rng, 30), nt = 1 + hd_rng_int(&rng, 6);
        for (int i = 0; i < ns * d; ++i) {
            s[i] = quantized(hd_rng_normal(&rng), 24);
        }
        for (int i = 0; i < nt * d; ++i) {
            t[i] = quantized(0.8 * hd_rng_normal(&rng), 24);
        }
        int all_in = 1;
        for (int j = 0; j < nt; ++j) {
            hd_verdict v;
            assert_int_equal(hd_lp_point_inside(d, s, ns, t + j * d, NULL, &v), HD_OK);
            int sign = hd_oracle_sign_dim(d, s, ns, t + j * d, 1, NULL);
            hd_verdict want = sign > 0 ? HD_SEPARATED : (sign < 0 ? HD_INTERSECTING : HD_TOUCHING);
            assert_int_equal(v, want);
            all_in &= sign <= 0;
        }
        bool inside = -1;
        assert_int_equal(hd_lp_contains(d, s, ns, t, nt, NULL, &inside), HD_OK);
        assert_int_equal(inside, all_in);
    }
}

/* Points at a few multiples of eps outside and inside a face of a box, for boxes that are not
 * centred on the origin, in dimensions 2..4, at three scales and two touching bands. The oracle
 * is the box's exact geometry: with the other coordinates at the box's centre, the point's
 * signed distance (depth, negated) is exactly its offset from the face plane, which is computed
 * without rounding (Sterbenz: the point is within a factor 2 of the face coordinate). The raw
 * API's documented band: separated beyond eps sqrt(d), intersecting below -eps sqrt(d),
 * touching within [-eps, eps]; eps = touch_rel * (largest absolute coordinate of the box and the
 * point). hd_lp_contains of the point alone must agree (inside unless separated). */
static void test_raw_box_face_band(void **state)
{
    (void)state;
    static const double mult[] = {-4000, -2000, -100, -25, -5, -2.5, -0.75, -0.25, 0.0,
                                  0.25,  0.75,  2.5,  5,   25, 100,  2000, 4000};
    static const double scales[] = {1e-3, 1.0, 1e3};
    static const double rels[] = {1e-12, 1e-9};
    int checked = 0;
    for (int d = 2; d <= 4; ++d) {
        for (size_t si = 0; si < 3; ++si) {
            double lo[4], hi[4], box[16 * 4], big = 0.0;
            for (int k = 0; k < d; ++k) {
                lo[k] = scales[si] * (1.5 + 0.25 * k);
                hi[k] = scales[si] * (2.0 + 0.5 * k);
            }
            for (int i = 0; i < (1 << d); ++i) {
                for (int k = 0; k < d; ++k) {
                    box[i * d + k] = (i >> k) & 1 ? hi[k] : lo[k];
                    big = fmax(big, fabs(box[i * d + k]));
                }
            }
            for (size_t ri = 0; ri < 2; ++ri) {
                hd_tolerance tol = hd_tolerance_default();
                tol.touch_rel = rels[ri];
                for (int axis = 0; axis < d; ++axis) {
                    for (int side = 0; side < 2; ++side) {
                        for (size_t mi = 0; mi < sizeof mult / sizeof mult[0]; ++mi) {
                            double p[4], face = side ? hi[axis] : lo[axis];
                            for (int k = 0; k < d; ++k) {
                                p[k] = 0.5 * (lo[k] + hi[k]);
                            }
                            double step = mult[mi] * rels[ri] * big;
                            p[axis] = side ? face + step : face - step;
                            double off = side ? p[axis] - face : face - p[axis]; /* exact */
                            double eps = rels[ri] * fmax(big, fabs(p[axis]));
                            hd_verdict want;
                            if (off > eps * sqrt((double)d)) {
                                want = HD_SEPARATED;
                            } else if (off < -eps * sqrt((double)d)) {
                                want = HD_INTERSECTING;
                            } else if (fabs(off) <= eps) {
                                want = HD_TOUCHING;
                            } else {
                                continue; /* between eps and eps sqrt(d): either is allowed */
                            }
                            hd_verdict v;
                            bool inside = -1;
                            assert_int_equal(hd_lp_point_inside(d, box, 1 << d, p, &tol, &v),
                                             HD_OK);
                            assert_int_equal(hd_lp_contains(d, box, 1 << d, p, 1, &tol, &inside),
                                             HD_OK);
                            if (v != want || inside != (want != HD_SEPARATED)) {
                                printf("dim %d scale %g rel %g axis %d side %d offset %g eps: "
                                       "got %s (contains %d), want %s\n",
                                       d, scales[si], rels[ri], axis, side, off / eps,
                                       hd_verdict_str(v), inside, hd_verdict_str(want));
                            }
                            assert_int_equal(v, want);
                            assert_int_equal(inside, want != HD_SEPARATED);
                            checked++;
                        }
                    }
                }
            }
        }
    }
    assert_true(checked > 1000);
}

/* ---------- polytopes ---------- */

static void world_of(const hd_pose *pose, const double local[3], double out[3])
{
    hd_pose_apply(pose, local, out);
}

/* A posed box against points given in its local frame (mapped to the world): the face-plane
 * fast path, and the LP near the boundary (within the facet-merging tolerance). */
static void test_poly_point_table(void **state)
{
    (void)state;
    static const struct {
        double p[3];
        hd_verdict want;
    } cases[] = {
        {{0, 0, 0}, HD_INTERSECTING},
        {{1, 0.5, 0.25}, HD_TOUCHING},          /* vertex */
        {{1, 0, 0}, HD_TOUCHING},               /* face centre */
        {{1, 0.5, 0}, HD_TOUCHING},             /* edge midpoint */
        {{1 + 1e-9, 0, 0}, HD_SEPARATED},       /* 1e-9 outside a face (LP zone) */
        {{1 - 1e-9, 0, 0}, HD_INTERSECTING},    /* 1e-9 inside a face (LP zone) */
        {{1 + 1e-6, 0, 0}, HD_SEPARATED},       /* outside, fast path */
        {{1 - 1e-6, 0, 0}, HD_INTERSECTING},    /* inside, fast path */
        {{1 + 1e-9, 0.5 + 1e-9, 0.25}, HD_SEPARATED},
        {{3, 3, 3}, HD_SEPARATED},
    };
    double lo[3] = {-1, -0.5, -0.25}, hi[3] = {1, 0.5, 0.25}, box[24];
    hd_points_box(lo, hi, box);
    hd_polytope *a = hd_test_build(box, 8);
    assert_non_null(a);
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 1);
    for (int it = 0; it < 20; ++it) {
        double t[3] = {hd_rng_uniform(&rng, -3, 3), hd_rng_uniform(&rng, -3, 3), 0.5};
        hd_pose pose = it == 0 ? hd_pose_identity() : hd_rng_pose(&rng, t);
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            double w[3];
            world_of(&pose, cases[c].p, w);
            hd_verdict v;
            assert_int_equal(hd_point_inside(a, &pose, w, NULL, &v), HD_OK);
            /* posing rounds the point by ~1e-16: the 1e-9 cases keep their side */
            if (v != cases[c].want) {
                printf("pose %d case %zu: got %s\n", it, c, hd_verdict_str(v));
            }
            assert_int_equal(v, cases[c].want);
        }
    }
    double nan3[3] = {0, NAN, 0};
    hd_verdict v;
    assert_int_equal(hd_point_inside(a, NULL, nan3, NULL, &v), HD_ERR_NONFINITE);
    assert_int_equal(hd_point_inside(NULL, NULL, lo, NULL, &v), HD_ERR_NULL);
    hd_pose bad = hd_pose_identity();
    bad.r[0] = 2.0;
    assert_int_equal(hd_point_inside(a, &bad, lo, NULL, &v), HD_ERR_BAD_POSE);
    hd_polytope_destroy(a);
}

/* Polytopes of dimension 0, 1 and 2 (a point, a segment, a flat polygon) under a pose: a point
 * on them is touching (they have no interior), 1e-9 off is separated. */
static void test_poly_low_dimensions(void **state)
{
    (void)state;
    double pt[3] = {0.25, -0.5, 1.0};
    double seg[6] = {-1, 0, 0, 1, 0, 0};
    double quad[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    hd_polytope *p0 = hd_test_build(pt, 1), *p1 = hd_test_build(seg, 2),
                *p2 = hd_test_build(quad, 4);
    assert_non_null(p0);
    assert_non_null(p1);
    assert_non_null(p2);
    assert_int_equal(hd_polytope_dimension(p0), 0);
    assert_int_equal(hd_polytope_dimension(p1), 1);
    assert_int_equal(hd_polytope_dimension(p2), 2);
    static const struct {
        int which;
        double p[3];
        hd_verdict want;
    } cases[] = {
        {0, {0.25, -0.5, 1.0}, HD_TOUCHING},
        {0, {0.25 + 1e-9, -0.5, 1.0}, HD_SEPARATED},
        {1, {0.3, 0, 0}, HD_TOUCHING},
        {1, {1, 0, 0}, HD_TOUCHING},
        {1, {0.3, 1e-9, 0}, HD_SEPARATED},
        {1, {1 + 1e-9, 0, 0}, HD_SEPARATED},
        {2, {0.2, 0.3, 0}, HD_TOUCHING},
        {2, {1, 1, 0}, HD_TOUCHING},
        {2, {0.2, 0.3, 1e-9}, HD_SEPARATED},
        {2, {1 + 1e-9, 0.3, 0}, HD_SEPARATED},
        {2, {0.2, 0.3, 1e-6}, HD_SEPARATED},
    };
    hd_polytope *polys[3] = {p0, p1, p2};
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 2);
    for (int it = 0; it < 10; ++it) {
        double t[3] = {hd_rng_uniform(&rng, -2, 2), 0.1, 0.2};
        hd_pose pose = it == 0 ? hd_pose_identity() : hd_rng_pose(&rng, t);
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            double w[3];
            world_of(&pose, cases[c].p, w);
            hd_verdict v;
            assert_int_equal(hd_point_inside(polys[cases[c].which], &pose, w, NULL, &v), HD_OK);
            if (v != cases[c].want) {
                printf("pose %d case %zu: got %s\n", it, c, hd_verdict_str(v));
            }
            assert_int_equal(v, cases[c].want);
        }
    }
    for (int i = 0; i < 3; ++i) {
        hd_polytope_destroy(polys[i]);
    }
}

/* hd_contains on posed polytopes: known containments (a box in a larger box under one motion,
 * a box in itself, a shifted copy, flat and lower-dimensional pieces). */
static void test_poly_contains_table(void **state)
{
    (void)state;
    double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1}, lo2[3] = {-0.5, -0.4, -0.3},
           hi2[3] = {0.5, 0.4, 0.3}, big[24], small[24];
    hd_points_box(lo, hi, big);
    hd_points_box(lo2, hi2, small);
    double quad[12] = {-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0};
    double seg[6] = {-0.2, 0.1, 0, 0.3, -0.1, 0};
    double pt[3] = {0.9, 0.9, 0.9};
    hd_polytope *a = hd_test_build(big, 8), *b = hd_test_build(small, 8),
                *q = hd_test_build(quad, 4), *s = hd_test_build(seg, 2),
                *p = hd_test_build(pt, 1);
    assert_true(a && b && q && s && p);
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 3);
    for (int it = 0; it < 10; ++it) {
        double t[3] = {hd_rng_uniform(&rng, -5, 5), hd_rng_uniform(&rng, -5, 5), 1.0};
        hd_pose m = it == 0 ? hd_pose_identity() : hd_rng_pose(&rng, t);
        hd_pose shifted = m;
        for (int k = 0; k < 3; ++k) {
            shifted.t[k] += 1e-9 * m.r[3 * k]; /* by 1e-9 along A's local x */
        }
        bool in = -1;
        assert_int_equal(hd_contains(a, &m, b, &m, NULL, &in), HD_OK);
        assert_int_equal(in, 1);
        assert_int_equal(hd_contains(b, &m, a, &m, NULL, &in), HD_OK);
        assert_int_equal(in, 0);
        assert_int_equal(hd_contains(a, &m, a, &m, NULL, &in), HD_OK);
        assert_int_equal(in, 1);
        assert_int_equal(hd_contains(a, &m, a, &shifted, NULL, &in), HD_OK);
        assert_int_equal(in, 0);
        assert_int_equal(hd_contains(a, &m, q, &m, NULL, &in), HD_OK);
        assert_int_equal(in, 1);
        assert_int_equal(hd_contains(q, &m, s, &m, NULL, &in), HD_OK);
        assert_int_equal(in, 1);
        assert_int_equal(hd_contains(q, &m, b, &m, NULL, &in), HD_OK);
        assert_int_equal(in, 0);
        assert_int_equal(hd_contains(a, &m, p, &m, NULL, &in), HD_OK);
        assert_int_equal(in, 1);
        assert_int_equal(hd_contains(p, &m, p, &m, NULL, &in), HD_OK);
        assert_int_equal(in, 1);
        assert_int_equal(hd_contains(s, &m, p, &m, NULL, &in), HD_OK);
        assert_int_equal(in, 0);
    }
    bool in = -1;
    assert_int_equal(hd_contains(a, NULL, b, NULL, NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_contains(NULL, NULL, b, NULL, NULL, &in), HD_ERR_NULL);
    hd_polytope *all[5] = {a, b, q, s, p};
    for (int i = 0; i < 5; ++i) {
        hd_polytope_destroy(all[i]);
    }
}

/* Random posed polytopes: hd_point_inside agrees with the oracle's exact sign for the posed
 * hull vertices (point vs hull), and hd_contains with "every posed vertex of B meets A". */
static void test_poly_random_vs_oracle(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 4);
    static double pa[60 * 3], pb[12 * 3], wa[60 * 3], wb[12 * 3];
    for (int it = 0; it < 60; ++it) {
        int na = 8 + hd_rng_int(&rng, 50), nb = 4 + hd_rng_int(&rng, 8);
        hd_points_ellipsoid(&rng, na, 1.0, 0.8, 0.6, pa);
        hd_points_cloud(&rng, nb, 0.3, 0.3, 0.3, pb);
        for (int i = 0; i < 3 * na; ++i) pa[i] = quantized(pa[i], 24);
        for (int i = 0; i < 3 * nb; ++i) pb[i] = quantized(pb[i], 24);
        hd_polytope *a = hd_test_build(pa, na), *b = hd_test_build(pb, nb);
        assert_true(a && b);
        double ta[3] = {0.5, -0.5, 0.25}, tb[3];
        for (int k = 0; k < 3; ++k) {
            tb[k] = ta[k] + hd_rng_uniform(&rng, -0.9, 0.9);
        }
        hd_pose posea = hd_rng_pose(&rng, ta), poseb = hd_rng_pose(&rng, tb);
        int va = hd_polytope_vertex_count(a), vb = hd_polytope_vertex_count(b);
        for (int i = 0; i < va; ++i) world_of(&posea, hd_polytope_vertices(a) + 3 * i, wa + 3 * i);
        for (int j = 0; j < vb; ++j) world_of(&poseb, hd_polytope_vertices(b) + 3 * j, wb + 3 * j);
        int all_in = 1;
        for (int j = 0; j < vb; ++j) {
            hd_verdict v;
            assert_int_equal(hd_point_inside(a, &posea, wb + 3 * j, NULL, &v), HD_OK);
            int sign = hd_oracle_sign(wa, va, wb + 3 * j, 1);
            hd_verdict want = sign > 0 ? HD_SEPARATED : (sign < 0 ? HD_INTERSECTING : HD_TOUCHING);
            assert_int_equal(v, want);
            all_in &= sign <= 0;
        }
        bool in = -1;
        assert_int_equal(hd_contains(a, &posea, b, &poseb, NULL, &in), HD_OK);
        assert_int_equal(in, all_in);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
}

int main(void)
{
    g_seed = hd_test_seed("test_contain");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_point_table),
        cmocka_unit_test(test_raw_contains_table),
        cmocka_unit_test(test_raw_random_vs_oracle),
        cmocka_unit_test(test_raw_box_face_band),
        cmocka_unit_test(test_poly_point_table),
        cmocka_unit_test(test_poly_low_dimensions),
        cmocka_unit_test(test_poly_contains_table),
        cmocka_unit_test(test_poly_random_vs_oracle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
