/* The shared contact classifier (hdi_contact_classify), called directly on a prepared pair as
 * CD-Dual and LP call it: the band edges on both sides (distance and depth of a fraction or a
 * multiple of eps), flat and lower-dimensional Minkowski differences, and near-contacts between
 * large polytopes where the expanding polytope must find the exact face of M. Truth comes from
 * analytic constructions and from tests/support/brute.c; certificates from hd_certificate_check
 * (pose A is the identity, so A's frame is the world frame). */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "contact/classify.h"
#include "gjk/gjk.h"
#include "brute.h"
#include "testutil.h"

static hd_rng rng;

/* Classifies (a, identity) against (b, pose) from scratch and checks the certificate. */
static hd_verdict classify(const hd_polytope *a, const hd_polytope *b, const hd_pose *pose,
                           hd_collide_result *out)
{
    hd_options opt = hd_options_default();
    hdi_pair pair;
    assert_int_equal(hdi_pair_init(&pair, a, NULL, b, pose, &opt), HD_OK);
    memset(out, 0, sizeof *out);
    out->eps = pair.eps;
    hd_status st = hdi_contact_classify(&pair, &opt, out);
    if (st != HD_OK) {
        printf("classify: %s\n", hd_status_str(st));
    }
    assert_int_equal(st, HD_OK);
    assert_int_equal(out->stop, HD_STOP_REFINED);
    hd_status check = hd_certificate_check(a, NULL, b, pose, out->verdict, out->eps, &out->cert);
    if (check != HD_OK) {
        printf("certificate rejected: verdict %s gap %.17g depth %.17g eps %.3g\n",
               hd_verdict_str(out->verdict), out->cert.gap, out->cert.depth_bound, out->eps);
        hd_test_dump_pair("contact", hd_polytope_vertices(a), hd_polytope_vertex_count(a), NULL,
                          hd_polytope_vertices(b), hd_polytope_vertex_count(b), pose);
    }
    assert_int_equal(check, HD_OK);
    return out->verdict;
}

static hd_polytope *cube(double h)
{
    double lo[3] = {-h, -h, -h}, hi[3] = {h, h, h}, xyz[24];
    hd_points_box(lo, hi, xyz);
    hd_polytope *p = hd_test_build(xyz, 8);
    assert_non_null(p);
    return p;
}

static hd_pose shifted(double x, double y, double z)
{
    hd_pose p = hd_pose_identity();
    p.t[0] = x;
    p.t[1] = y;
    p.t[2] = z;
    return p;
}

/* Two unit cubes side by side at signed distance k * eps (k from -20 to 20), across the faces,
 * the edges and the corners: the verdict follows k against +-1 exactly. */
static void test_band_edges(void **state)
{
    (void)state;
    static const double ks[] = {-20, -2, -1.25, -0.75, -0.3, 0, 0.3, 0.75, 1.25, 2, 20};
    hd_polytope *a = cube(1), *b = cube(1);
    for (int dir = 0; dir < 3; ++dir) {
        for (unsigned i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
            /* the touching offset and eps for that pose */
            double axis[3] = {2, dir >= 1 ? 2 : 0.5, dir >= 2 ? 2 : 0.25};
            hd_pose p0 = shifted(axis[0], axis[1], axis[2]);
            hd_options opt = hd_options_default();
            hdi_pair pair;
            hdi_pair_init(&pair, a, NULL, b, &p0, &opt);
            double eps = pair.eps;
            hd_pose p = shifted(axis[0] + ks[i] * eps, axis[1], axis[2]);
            double sd = p.t[0] - 2.0; /* exact: the offset after rounding */
            hd_collide_result r;
            hd_verdict v = classify(a, b, &p, &r);
            hd_verdict want = sd > eps ? HD_SEPARATED : sd < -eps ? HD_INTERSECTING : HD_TOUCHING;
            if (dir > 0 && sd < 0) {
                /* across an edge or a corner the y-faces still touch exactly: the common part
                 * is flat, the depth 0, whatever the x-overlap */
                want = HD_TOUCHING;
            }
            if (v != want) {
                printf("dir %d k %g: sd %.3g eps %.3g got %s want %s\n", dir, ks[i], sd, eps,
                       hd_verdict_str(v), hd_verdict_str(want));
            }
            assert_int_equal(v, want);
        }
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* Minkowski differences without interior: depth 0, so touching whenever they hold the origin. */
static void test_flat_differences(void **state)
{
    (void)state;
    double sq[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    double seg_x[6] = {-1, 0, 0, 1, 0, 0}, seg_y[6] = {0, -1, 0, 0, 1, 0}, pt[3] = {0, 0, 0};
    hd_polytope *s = hd_test_build(sq, 4), *sx = hd_test_build(seg_x, 2),
                *sy = hd_test_build(seg_y, 2), *p = hd_test_build(pt, 1);
    hd_polytope *c = cube(1);
    hd_collide_result r;
    hd_pose id = hd_pose_identity(), half = shifted(0.5, 0.25, 0), lift = shifted(0.2, 0.1, 1e-3);
    assert_int_equal(classify(s, s, &half, &r), HD_TOUCHING);  /* coplanar squares */
    assert_int_equal(classify(s, sx, &half, &r), HD_TOUCHING); /* segment in the square */
    assert_int_equal(classify(sx, sy, &id, &r), HD_TOUCHING);  /* crossing segments */
    hd_pose along = shifted(0.5, 0, 0);
    assert_int_equal(classify(sx, sx, &along, &r), HD_TOUCHING); /* collinear segments */
    assert_int_equal(classify(s, p, &half, &r), HD_TOUCHING);    /* point in the square */
    double pt2[3] = {0.3, 0.2, 0.1}; /* off the origin: two points at 0 have scale 0, eps 0 */
    hd_polytope *p2 = hd_test_build(pt2, 1);
    assert_int_equal(classify(p2, p2, &id, &r), HD_TOUCHING); /* coincident points */
    hd_polytope_destroy(p2);
    assert_int_equal(classify(s, s, &lift, &r), HD_SEPARATED);    /* parallel squares apart */
    assert_int_equal(classify(c, p, &half, &r), HD_INTERSECTING); /* point deep in a cube */
    assert_true(r.cert.depth_bound > r.eps && r.cert.depth_bound <= 0.75 + 1e-12);
    assert_int_equal(classify(c, sx, &half, &r), HD_INTERSECTING); /* segment through a cube */
    hd_pose on_face = shifted(0.3, -0.2, 1);
    assert_int_equal(classify(c, s, &on_face, &r), HD_TOUCHING); /* square on the cube's face */
    assert_int_equal(classify(c, p, &on_face, &r), HD_TOUCHING); /* point on the cube's face */
    hd_polytope_destroy(s);
    hd_polytope_destroy(sx);
    hd_polytope_destroy(sy);
    hd_polytope_destroy(p);
    hd_polytope_destroy(c);
}

/* Large ellipsoids (many faces on M near the contact). The vertex of B extreme along -n is put
 * at signed distance k eps from the centroid of a face of A with normal n, inside A for k < 0:
 * the signed distance is then exactly k eps (the cap of B below the face is tiny and the face is
 * wide), so the verdict is known on both sides of the band. The expanding polytope must reach
 * that face of M. */
static void test_near_contact_large(void **state)
{
    (void)state;
    static const int sizes[] = {20, 200, 1000};
    static const double ks[] = {-5, -0.5, 0, 0.5, 5};
    int refined = 0, total = 0, max_steps = 0;
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        int n = sizes[s];
        double *xa = malloc(sizeof(double) * 3 * (size_t)n),
               *xb = malloc(sizeof(double) * 3 * (size_t)n);
        hd_points_ellipsoid(&rng, n, 1, 0.8, 0.6, xa);
        hd_points_ellipsoid(&rng, n, 0.7, 0.9, 0.5, xb);
        hd_polytope *a = hd_test_build(xa, n), *b = hd_test_build(xb, n);
        int nb = hd_polytope_vertex_count(b);
        double *wb = malloc(sizeof(double) * 3 * (size_t)nb);
        for (int rep = 0; rep < 40; ++rep) {
            int f = hd_rng_int(&rng, hd_polytope_face_count(a));
            double nf[3], off, c[3] = {0, 0, 0}, zero[3] = {0, 0, 0};
            const int *loop;
            int len = hd_polytope_face(a, f, nf, &off, &loop);
            for (int j = 0; j < len; ++j) {
                for (int k = 0; k < 3; ++k)
                    c[k] += hd_polytope_vertices(a)[3 * loop[j] + k] / len;
            }
            hd_pose pose = hd_rng_pose(&rng, zero);
            hd_brute_posed_vertices(b, &pose, wb);
            double mn[3] = {-nf[0], -nf[1], -nf[2]};
            int vb;
            hd_brute_support_value(wb, nb, mn, &vb);
            hd_options opt = hd_options_default();
            hdi_pair pair;
            hdi_pair_init(&pair, a, NULL, b, &pose, &opt);
            double eps = pair.eps;
            for (unsigned i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
                hd_pose p = pose;
                for (int k = 0; k < 3; ++k)
                    p.t[k] = c[k] + ks[i] * eps * nf[k] - wb[3 * vb + k];
                hd_collide_result r;
                hd_verdict v = classify(a, b, &p, &r);
                hd_verdict want = ks[i] > 1    ? HD_SEPARATED
                                  : ks[i] < -1 ? HD_INTERSECTING
                                               : HD_TOUCHING;
                if (v != want) {
                    printf("n=%d face %d k=%g: %s (want %s), refine steps %d\n", n, f, ks[i],
                           hd_verdict_str(v), hd_verdict_str(want), r.stats.refine_steps);
                }
                assert_int_equal(v, want);
                refined += r.stats.refine_steps > 0;
                max_steps = r.stats.refine_steps > max_steps ? r.stats.refine_steps : max_steps;
                total++;
                /* the same along a random direction (vertex against vertex): the truth is only
                 * known to be "not intersecting" for k >= -0.5 and "separated" for k = 5 */
                double u[3];
                hd_rng_unit_vector(&rng, u);
                double ha = hd_brute_support_value(hd_polytope_vertices(a),
                                                   hd_polytope_vertex_count(a), u, NULL);
                double mu[3] = {-u[0], -u[1], -u[2]};
                double lb = -hd_brute_support_value(wb, nb, mu, NULL);
                for (int k = 0; k < 3; ++k)
                    p.t[k] = (ha - lb + ks[i] * eps) * u[k];
                v = classify(a, b, &p, &r);
                if (ks[i] > 1)
                    assert_int_equal(v, HD_SEPARATED);
                if (ks[i] > -1)
                    assert_true(v != HD_INTERSECTING);
            }
        }
        free(wb);
        free(xa);
        free(xb);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    printf("face contacts classified: %d (%d refined), at most %d classifier steps (GJK + EPA)\n",
           total, refined, max_steps);
}

/* Random pairs, any verdict: the classifier agrees with brute force away from the band edges. */
static void test_random_against_brute(void **state)
{
    (void)state;
    for (int i = 0; i < 1500; ++i) {
        double xa[3 * 12], xb[3 * 12];
        int na = 4 + hd_rng_int(&rng, 9), nb = 4 + hd_rng_int(&rng, 9);
        hd_points_cloud(&rng, na, 1, hd_rng_uniform(&rng, 0.01, 1), 0.7, xa);
        hd_points_ellipsoid(&rng, nb, 0.8, 0.5, hd_rng_uniform(&rng, 0.01, 1), xb);
        hd_polytope *a = hd_test_build(xa, na), *b = hd_test_build(xb, nb);
        double t[3] = {hd_rng_uniform(&rng, -2, 2), hd_rng_uniform(&rng, -2, 2),
                       hd_rng_uniform(&rng, -1, 1)};
        hd_pose pose = hd_rng_pose(&rng, t);
        double wa[3 * 12], wb[3 * 12];
        int ma = hd_polytope_vertex_count(a), mb = hd_polytope_vertex_count(b);
        hd_brute_posed_vertices(a, NULL, wa);
        hd_brute_posed_vertices(b, &pose, wb);
        double sd = hd_brute_signed_distance(wa, ma, wb, mb);
        hd_collide_result r;
        hd_verdict v = classify(a, b, &pose, &r);
        double eps = r.eps;
        if (fabs(fabs(sd) - eps) > 1e-3 * eps) {
            hd_verdict want = sd > eps ? HD_SEPARATED : sd < -eps ? HD_INTERSECTING : HD_TOUCHING;
            assert_int_equal(v, want);
        }
        if (v == HD_INTERSECTING) {
            assert_true(r.cert.depth_bound <= -sd + 1e-12);
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
}

/* One random pair of a few vertices at scale s: a cloud, an ellipsoid's points, a flat polygon or
 * a segment each (n points before the hull). */
static hd_polytope *random_shape(double s)
{
    double xyz[3 * 12];
    int kind = hd_rng_int(&rng, 4), n = 4 + hd_rng_int(&rng, 9);
    if (kind == 0) {
        hd_points_cloud(&rng, n, s, 0.8 * s, 0.6 * s, xyz);
    } else if (kind == 1) {
        hd_points_ellipsoid(&rng, n, s, 0.5 * s, hd_rng_uniform(&rng, 0.01, 1) * s, xyz);
    } else {
        hd_points_cloud(&rng, n, s, s, s, xyz);
        for (int i = 0; i < n; ++i) {
            xyz[3 * i + 2] = 0.0; /* a polygon in z = 0 */
            if (kind == 3) {
                xyz[3 * i + 1] = 0.0; /* a segment on the x axis */
            }
        }
    }
    return hd_test_build(xyz, n);
}

/* The overlap proof's depth bound (contact/overlap.c) on random pairs of few vertices, solid,
 * flat and segments, at scales 1e-3 to 1e3 and up to 1e3 from the origin, against the brute
 * force's depth: never above it (to the brute force's own rounding), within 1e-9 of the size
 * below it when it proves an overlap, and given for every solid pair overlapping clearly beyond
 * the band; a proven overlap's certificate passes hd_certificate_check. */
static void test_overlap_proof_random(void **state)
{
    (void)state;
    int proven = 0, overlapping = 0;
    for (int i = 0; i < 800; ++i) {
        double s = pow(10.0, hd_rng_uniform(&rng, -3, 3));
        double far = hd_rng_int(&rng, 2) ? 0.0 : pow(10.0, hd_rng_uniform(&rng, 0, 3));
        hd_polytope *a = random_shape(s), *b = random_shape(s);
        double ta[3], tb[3];
        for (int k = 0; k < 3; ++k) {
            ta[k] = hd_rng_uniform(&rng, -far, far);
            tb[k] = ta[k] + hd_rng_uniform(&rng, -s, s);
        }
        hd_pose pa = hd_rng_pose(&rng, ta), pb = hd_rng_pose(&rng, tb);
        double wa[3 * 12], wb[3 * 12];
        int ma = hd_polytope_vertex_count(a), mb = hd_polytope_vertex_count(b);
        hd_brute_posed_near(a, &pa, pa.t, wa);
        hd_brute_posed_near(b, &pb, pa.t, wb);
        double depth = -hd_brute_signed_distance(wa, ma, wb, mb);
        hd_options opt = hd_options_default();
        hdi_pair pair;
        assert_int_equal(hdi_pair_init(&pair, a, &pa, b, &pb, &opt), HD_OK);
        double bound;
        int ok = hdi_overlap_depth_bound(&pair, &bound);
        double size = 4.0 * s, rounding = 1e-12 * size;
        overlapping += depth > 0.0;
        if (ok) {
            proven++;
            assert_true(bound > pair.eps && bound <= depth + rounding);
            assert_true(bound >= depth - 1e-9 * size);
            hd_collide_result r;
            memset(&r, 0, sizeof r);
            r.eps = pair.eps;
            if (hdi_overlap_prove(&pair, &r)) {
                hd_pose relative = hdi_pair_relative_pose(&pair); /* the certificate's frame */
                assert_int_equal(r.verdict, HD_INTERSECTING);
                assert_int_equal(hd_certificate_check(a, NULL, b, &relative, r.verdict, r.eps, &r.cert), HD_OK);
            }
        } else if (hd_polytope_dimension(a) == 3 && hd_polytope_dimension(b) == 3) {
            /* a solid pair clearly beyond the band is proven, barring parallel edges */
            assert_false(depth > 2.0 * pair.eps + 1e-9 * size);
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    printf("overlap proof: %d of %d overlapping pairs proven\n", proven, overlapping);
    assert_true(proven > 0);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("test_contact"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_band_edges),           cmocka_unit_test(test_flat_differences),
        cmocka_unit_test(test_near_contact_large),   cmocka_unit_test(test_random_against_brute),
        cmocka_unit_test(test_overlap_proof_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
