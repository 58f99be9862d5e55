/* hd_contact_manifold: contact points of stacked and offset boxes derived by hand (positions,
 * separations, features), feature ids kept under small motions, one point for an edge-edge
 * contact, large faces through the workspace, and on random pairs every point in the overlap slab
 * along the normal (brute force in long double over the posed vertices). */
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
#include "depth_oracle.h"
#include "families.h"
#include "testutil.h"

static hd_rng rng;

static hd_polytope *box(double h)
{
    double lo[3] = {-h, -h, -h}, hi[3] = {h, h, h}, xyz[24];
    hd_points_box(lo, hi, xyz);
    hd_polytope *p = hd_test_build(xyz, 8);
    assert_non_null(p);
    return p;
}

static hd_manifold manifold(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                            const hd_pose *pb, hd_signed_distance_result *c)
{
    hd_manifold m;
    hd_status st = hd_contact_manifold(a, pa, b, pb, NULL, c, &m);
    if (st != HD_OK) {
        printf("hd_contact_manifold: %s\n", hd_status_str(st));
    }
    assert_int_equal(st, HD_OK);
    return m;
}

static hd_pose posed(const double q[4], const double t[3])
{
    hd_pose p;
    assert_int_equal(hd_pose_from_quaternion(q, t, &p), HD_OK);
    return p;
}

/* The face of p whose outward normal is d (local frame), or -1. */
static int face_along(const hd_polytope *p, const double d[3])
{
    for (int f = 0; f < hd_polytope_face_count(p); ++f) {
        double n[3], off;
        const int *loop;
        hd_polytope_face(p, f, n, &off, &loop);
        if (n[0] * d[0] + n[1] * d[1] + n[2] * d[2] > 1 - 1e-12) {
            return f;
        }
    }
    return -1;
}

/* The manifold point nearest to (x, y, z) within tol, or NULL. */
static const hd_contact_point *point_at(const hd_manifold *m, double x, double y, double z,
                                        double tol)
{
    for (int i = 0; i < m->count; ++i) {
        const double *p = m->points[i].point;
        if (fabs(p[0] - x) <= tol && fabs(p[1] - y) <= tol && fabs(p[2] - z) <= tol) {
            return &m->points[i];
        }
    }
    return NULL;
}

/* A half-size box resting in A's top face with overlap d: its four bottom corners, half-way
 * between them and A's face, with separation -d, each named (A's top face, B's corner). */
static void test_stacked_boxes(void **state)
{
    (void)state;
    hd_polytope *a = box(1), *b = box(0.5);
    static const double up[3] = {0, 0, 1}, down[3] = {0, 0, -1};
    int top = face_along(a, up);
    const double d = 0.01;
    hd_pose pb = hd_test_translation(0.2, -0.1, 1.5 - d);
    hd_signed_distance_result c;
    hd_manifold m = manifold(a, NULL, b, &pb, &c);
    assert_int_equal(m.count, 4);
    assert_true(fabs(m.normal[2] - 1) <= 1e-15);
    const double *vb = hd_polytope_vertices(b);
    for (int sx = -1; sx <= 1; sx += 2) {
        for (int sy = -1; sy <= 1; sy += 2) {
            const hd_contact_point *p =
                point_at(&m, 0.2 + 0.5 * sx, -0.1 + 0.5 * sy, 1 - d / 2, 1e-14);
            assert_non_null(p);
            assert_true(fabs(p->separation + d) <= 1e-14);
            assert_int_equal(p->feature_a.type, HD_FEATURE_FACE);
            assert_int_equal(p->feature_a.index, top);
            assert_int_equal(p->feature_b.type, HD_FEATURE_VERTEX);
            const double *v = vb + 3 * p->feature_b.index;
            assert_true(v[0] == 0.5 * sx && v[1] == 0.5 * sy && v[2] == -0.5);
        }
    }
    /* the same pair seen from B: the reference face is B's bottom face, normal -z */
    hd_pose pa = hd_test_translation(-0.2, 0.1, -1.5 + d);
    m = manifold(b, NULL, a, &pa, &c);
    assert_int_equal(m.count, 4);
    assert_true(fabs(m.normal[2] + 1) <= 1e-15);
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(m.points[i].feature_b.type, HD_FEATURE_FACE);
        assert_int_equal(m.points[i].feature_b.index, face_along(a, up));
        assert_int_equal(m.points[i].feature_a.type, HD_FEATURE_VERTEX);
        assert_true(fabs(m.points[i].separation + d) <= 1e-14);
    }
    (void)down;
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* Two equal boxes, B's bottom face over a quarter of A's top face: the overlap square [0, 1]^2 has
 * B's corner (0, 0) (A's face, B's vertex), A's corner (1, 1) (A's vertex, B's face) and two
 * crossings of an A edge with a B edge. */
static void test_offset_boxes(void **state)
{
    (void)state;
    hd_polytope *a = box(1);
    const double d = 0.02;
    hd_pose pb = hd_test_translation(1, 1, 2 - d);
    hd_signed_distance_result c;
    hd_manifold m = manifold(a, NULL, a, &pb, &c);
    assert_int_equal(m.count, 4);
    const hd_contact_point *p00 = point_at(&m, 0, 0, 1 - d / 2, 1e-14);
    const hd_contact_point *p11 = point_at(&m, 1, 1, 1 - d / 2, 1e-14);
    const hd_contact_point *p10 = point_at(&m, 1, 0, 1 - d / 2, 1e-14);
    const hd_contact_point *p01 = point_at(&m, 0, 1, 1 - d / 2, 1e-14);
    assert_non_null(p00);
    assert_non_null(p11);
    assert_non_null(p10);
    assert_non_null(p01);
    assert_int_equal(p00->feature_a.type, HD_FEATURE_FACE);
    assert_int_equal(p00->feature_b.type, HD_FEATURE_VERTEX);
    assert_int_equal(p11->feature_a.type, HD_FEATURE_VERTEX);
    assert_int_equal(p11->feature_b.type, HD_FEATURE_FACE);
    assert_int_equal(p10->feature_a.type, HD_FEATURE_EDGE);
    assert_int_equal(p10->feature_b.type, HD_FEATURE_EDGE);
    assert_int_equal(p01->feature_a.type, HD_FEATURE_EDGE);
    assert_int_equal(p01->feature_b.type, HD_FEATURE_EDGE);
    for (int i = 0; i < 4; ++i) {
        assert_true(fabs(m.points[i].separation + d) <= 1e-14);
    }
    hd_polytope_destroy(a);
}

/* The (feature_a, feature_b) pairs of a manifold, sorted, as one comparable key. */
static void id_key(const hd_manifold *m, long key[4])
{
    for (int i = 0; i < 4; ++i) {
        const hd_contact_point *p = &m->points[i];
        key[i] = i < m->count ? ((long)p->feature_a.type * 1000 + p->feature_a.index) * 10000 +
                                    p->feature_b.type * 1000 + p->feature_b.index
                              : -1;
    }
    for (int i = 1; i < 4; ++i) {
        for (int j = i; j > 0 && key[j] < key[j - 1]; --j) {
            long t = key[j];
            key[j] = key[j - 1];
            key[j - 1] = t;
        }
    }
}

/* Small motions of B (translations and turns of up to 1e-3) keep every point's feature ids, for a
 * box resting inside A's face and for the offset boxes of the test above. */
static void test_ids_persist(void **state)
{
    (void)state;
    hd_polytope *a = box(1), *b = box(0.5);
    const hd_polytope *bs[2] = {b, a};
    const double base[2][3] = {{0.2, -0.1, 1.49}, {1, 1, 1.98}};
    for (int k = 0; k < 2; ++k) {
        hd_pose p0 = hd_test_translation(base[k][0], base[k][1], base[k][2]);
        hd_signed_distance_result c;
        hd_manifold m0 = manifold(a, NULL, bs[k], &p0, &c);
        long key0[4], key[4];
        id_key(&m0, key0);
        for (int f = 0; f < 200; ++f) {
            double axis[3], t[3], angle = hd_rng_uniform(&rng, -1e-3, 1e-3);
            hd_rng_unit_vector(&rng, axis);
            for (int i = 0; i < 3; ++i) {
                t[i] = base[k][i] + hd_rng_uniform(&rng, -1e-3, 1e-3);
            }
            double q[4] = {cos(angle / 2), sin(angle / 2) * axis[0], sin(angle / 2) * axis[1],
                           sin(angle / 2) * axis[2]};
            hd_pose p;
            assert_int_equal(hd_pose_from_quaternion(q, t, &p), HD_OK);
            hd_manifold m = manifold(a, NULL, bs[k], &p, &c);
            if (m.count != m0.count) {
                printf("case %d frame %d: %d points instead of %d; features %s %d, %s %d, "
                       "normal %g %g %g\n",
                       k, f, m.count, m0.count, hd_feature_type_str(c.feature_a.type),
                       c.feature_a.index, hd_feature_type_str(c.feature_b.type), c.feature_b.index,
                       c.normal[0], c.normal[1], c.normal[2]);
            }
            assert_int_equal(m.count, m0.count);
            id_key(&m, key);
            assert_memory_equal(key, key0, sizeof key);
        }
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* A's top edge (A turned 45 degrees about x) across B's bottom edge (B turned 45 degrees about y):
 * one point, half-way between the edges where they cross, separation -d, two edges. */
static void test_edge_edge(void **state)
{
    (void)state;
    hd_polytope *a = box(1);
    const double d = 0.05, r2 = sqrt(2.0);
    double qa[4] = {cos(HD_PI / 8), sin(HD_PI / 8), 0, 0}, ta[3] = {0, 0, 0};
    double qb[4] = {cos(HD_PI / 8), 0, sin(HD_PI / 8), 0}, tb[3] = {0.1, 0.2, 2 * r2 - d};
    hd_pose pa = posed(qa, ta), pb = posed(qb, tb);
    hd_signed_distance_result c;
    hd_manifold m = manifold(a, &pa, a, &pb, &c);
    assert_true(fabs(-c.signed_distance - d) <= 1e-14);
    assert_int_equal(m.count, 1);
    assert_int_equal(m.points[0].feature_a.type, HD_FEATURE_EDGE);
    assert_int_equal(m.points[0].feature_b.type, HD_FEATURE_EDGE);
    assert_non_null(point_at(&m, 0.1, 0, r2 - d / 2, 1e-13));
    assert_true(fabs(m.points[0].separation + d) <= 1e-14);
    hd_polytope_destroy(a);
}

/* The depth attained by an edge-edge facet next to a nearly parallel face (A turned by alpha about
 * y, within the face-contact cosine; a long box B turned 45 degrees about x, its bottom edge along
 * x, lowered by d onto A's top edge): whichever face clips the manifold, its deepest point has the
 * signed distance as its separation (the edge-edge point), at the edges' crossing. */
static void test_edge_edge_beside_face(void **state)
{
    (void)state;
    double lo[3] = {-3, -0.5, -0.5}, hi[3] = {3, 0.5, 0.5}, xyz[24];
    hd_points_box(lo, hi, xyz);
    hd_polytope *a = box(1), *b = hd_test_build(xyz, 8);
    for (int i = 0; i < 6; ++i) {
        const double alpha = 0.005 + 0.007 * i, d = 0.01 * (i + 1), r2 = sqrt(2.0);
        double qa[4] = {cos(alpha / 2), 0, sin(alpha / 2), 0}, ta[3] = {0, 0, 0};
        /* A's top edge (the higher of the two along y) at height cos + sin, at x = cos - sin */
        double top = cos(alpha) + sin(alpha), ex = cos(alpha) - sin(alpha);
        double qb[4] = {cos(HD_PI / 8), sin(HD_PI / 8), 0, 0}, tb[3] = {ex, 0, top + r2 / 2 - d};
        hd_pose pa = posed(qa, ta), pb = posed(qb, tb);
        hd_signed_distance_result c;
        hd_manifold m = manifold(a, &pa, b, &pb, &c);
        assert_true(fabs(-c.signed_distance - d) <= 1e-12);
        double deepest = 0.0;
        for (int k = 0; k < m.count; ++k) {
            deepest = fmin(deepest, m.points[k].separation);
            assert_true(m.points[k].separation >= c.signed_distance - 1e-12);
        }
        printf("alpha %.3f: depth %.6f, %d points, deepest separation %.9f\n", alpha, d, m.count,
               deepest);
        assert_true(fabs(deepest - c.signed_distance) <= 1e-9 * c.size);
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* Random elongated hulls (Gaussian clouds of 6 to 29 points, axes 0.05 to 3) at random poses:
 * wherever the depth is attained by an edge-edge facet, the manifold's deepest point has the
 * signed distance as its separation, though a nearly parallel face may clip the others. */
static void test_edge_edge_depth_kept(void **state)
{
    (void)state;
    int edge_edge = 0, clipped = 0;
    double xyz[2][3 * 29];
    for (int it = 0; it < 6000; ++it) {
        hd_polytope *p[2];
        for (int s = 0; s < 2; ++s) {
            double ax[3] = {hd_rng_uniform(&rng, 0.05, 3), hd_rng_uniform(&rng, 0.05, 3),
                            hd_rng_uniform(&rng, 0.05, 3)};
            int n = 6 + hd_rng_int(&rng, 24);
            for (int i = 0; i < 3 * n; ++i) {
                xyz[s][i] = hd_rng_normal(&rng) * ax[i % 3];
            }
            p[s] = hd_test_build(xyz[s], n);
        }
        double t[3] = {0.5 * hd_rng_normal(&rng), 0.5 * hd_rng_normal(&rng),
                       0.5 * hd_rng_normal(&rng)};
        hd_pose pb = hd_rng_pose(&rng, t);
        hd_signed_distance_result c;
        hd_manifold m = manifold(p[0], NULL, p[1], &pb, &c);
        if (c.signed_distance < 0 && c.feature_a.type == HD_FEATURE_EDGE &&
            c.feature_b.type == HD_FEATURE_EDGE) {
            ++edge_edge;
            clipped += m.count > 1;
            double deepest = 0.0;
            for (int k = 0; k < m.count; ++k) {
                deepest = fmin(deepest, m.points[k].separation);
            }
            if (fabs(deepest - c.signed_distance) > 1e-9 * c.size) {
                printf("pair %d: signed distance %.17g, deepest of %d points %.17g\n", it,
                       c.signed_distance, m.count, deepest);
            }
            assert_true(fabs(deepest - c.signed_distance) <= 1e-9 * c.size);
        }
        hd_polytope_destroy(p[0]);
        hd_polytope_destroy(p[1]);
    }
    printf("edge-edge depths: %d, %d with several points\n", edge_edge, clipped);
    assert_true(clipped > 0);
}

/* Prisms over 64-gons stacked cap to cap: 128 polygon vertices need the workspace; with one of
 * hd_contact_workspace_capacity the manifold has four points on the rim, all at separation -d. */
static void test_large_faces(void **state)
{
    (void)state;
    double xyz[3 * 128];
    hd_points_prism(64, 0.5, xyz);
    hd_polytope *a = hd_test_build(xyz, 128);
    const double d = 1e-3;
    hd_pose pb = hd_test_translation(0.05, 0, 1 - d);
    hd_manifold m;
    hd_signed_distance_result c;
    assert_int_equal(hd_contact_manifold(a, NULL, a, &pb, NULL, &c, &m), HD_ERR_WORKSPACE_FULL);
    hd_options opt = hd_options_default();
    assert_int_equal(hd_workspace_create(hd_contact_workspace_capacity(a, a), &opt.workspace),
                     HD_OK);
    assert_int_equal(hd_contact_manifold(a, NULL, a, &pb, &opt, &c, &m), HD_OK);
    assert_int_equal(m.count, 4);
    for (int i = 0; i < 4; ++i) {
        const double *p = m.points[i].point;
        assert_true(fabs(m.points[i].separation + d) <= 1e-14);
        assert_true(fabs(p[2] - (0.5 - d / 2)) <= 1e-14);
        assert_true(p[0] * p[0] + p[1] * p[1] <= 1 + 1e-12);
    }
    hd_workspace_destroy(opt.workspace);
    hd_polytope_destroy(a);
}

/* Random overlapping and touching pairs: 1 to 4 points, each in the overlap slab along n
 * (min_B n.b <= n.p <= max_A n.a, to rounding), separations between -depth and eps; none when
 * separated. */
static void test_random_slab(void **state)
{
    (void)state;
    double xyz[3 * 30];
    int overlaps = 0, points = 0;
    for (int i = 0; i < 1000; ++i) {
        double s = pow(10.0, hd_rng_uniform(&rng, -6, 6));
        int na = 4 + hd_rng_int(&rng, 20), nb = 4 + hd_rng_int(&rng, 20);
        hd_points_cloud(&rng, na, s, s, s, xyz);
        hd_polytope *a = hd_test_build(xyz, na);
        hd_points_cloud(&rng, nb, s, 0.5 * s, s, xyz);
        hd_polytope *b = hd_test_build(xyz, nb);
        double t[3];
        hd_rng_unit_vector(&rng, t);
        for (int k = 0; k < 3; ++k) {
            t[k] *= s * hd_rng_uniform(&rng, 0, 2.5);
        }
        hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, t);
        hd_signed_distance_result c;
        hd_manifold m = manifold(a, &pa, b, &pb, &c);
        if (c.verdict == HD_SEPARATED) {
            assert_int_equal(m.count, 0);
        } else {
            overlaps++;
            points += m.count;
            assert_true(m.count >= 1 && m.count <= HD_MANIFOLD_MAX);
            double neg[3] = {-c.normal[0], -c.normal[1], -c.normal[2]};
            long double max_a = hd_oracle_extreme(a, &pa, c.normal);
            long double min_b = -hd_oracle_extreme(b, &pb, neg);
            long double tol = 1e-9L * c.size;
            long double lo = fminl(max_a, min_b) - tol, hi = fmaxl(max_a, min_b) + tol;
            for (int j = 0; j < m.count; ++j) {
                const hd_contact_point *p = &m.points[j];
                long double h = (long double)c.normal[0] * p->point[0] +
                                (long double)c.normal[1] * p->point[1] +
                                (long double)c.normal[2] * p->point[2];
                if (!(lo <= h && h <= hi)) {
                    printf("point %d at %.17Lg outside the slab [%.17Lg, %.17Lg]\n", j, h, lo, hi);
                }
                assert_true(lo <= h && h <= hi);
                assert_true(p->separation <= c.eps + tol);
                assert_true(p->separation >= c.signed_distance - tol);
            }
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    printf("random manifolds: %d touching or overlapping pairs, %.2f points on average\n", overlaps,
           overlaps ? (double)points / overlaps : 0.0);
    assert_true(overlaps > 200);
}

/* Pairs of the small-against-long family 1e6 from the origin (tests/support/families.h, found by
 * tests/cross/stress.c), touching with edge-edge facets: the band eps (7e-7) is there 30 to 100
 * times wider than the small shape, and a reference face tilted from the normal (within
 * HD_MANIFOLD_FACE_COS) was clipped with side planes widened by eps, so points outside it by
 * 4e-8 were kept, their separations below the signed distance by up to 4e-9 of the size. Every
 * separation must lie between the exact signed distance (long-double brute force, about A's
 * translation) and eps, to 1e-9 of the size. */
static void test_far_small_faces(void **state)
{
    (void)state;
    static const hd_needle_case found[] = {{1, 616, 1e6, 0}, {1, 1022, 1e6, 0}, {1, 2493, 1e6, 0}};
    for (size_t k = 0; k < sizeof found / sizeof found[0]; ++k) {
        hd_needle_pair np;
        hd_needle_replay(&found[k], &np, NULL);
        hd_polytope *a = hd_test_build(np.xa, np.na), *b = hd_test_build(np.xb, np.nb);
        double va[3 * 48], vb[3 * 48];
        hd_brute_posed_near(a, &np.pose_a, np.pose_a.t, va);
        hd_brute_posed_near(b, &np.pose_b, np.pose_a.t, vb);
        double exact = hd_brute_signed_distance(va, hd_polytope_vertex_count(a), vb,
                                                hd_polytope_vertex_count(b));
        hd_signed_distance_result c;
        hd_manifold m = manifold(a, &np.pose_a, b, &np.pose_b, &c);
        assert_true(m.count >= 1);
        double tol = 1e-9 * c.size;
        for (int j = 0; j < m.count; ++j) {
            double sep = m.points[j].separation;
            if (!(sep >= exact - tol && sep <= c.eps + tol)) {
                printf("pair %d point %d: separation %.17g, exact signed distance %.17g\n",
                       found[k].index, j, sep, exact);
            }
            assert_true(sep >= exact - tol && sep <= c.eps + tol);
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("unit/contact/manifold"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stacked_boxes),        cmocka_unit_test(test_offset_boxes),
        cmocka_unit_test(test_ids_persist),          cmocka_unit_test(test_edge_edge),
        cmocka_unit_test(test_large_faces),          cmocka_unit_test(test_random_slab),
        cmocka_unit_test(test_far_small_faces),      cmocka_unit_test(test_edge_edge_beside_face),
        cmocka_unit_test(test_edge_edge_depth_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
