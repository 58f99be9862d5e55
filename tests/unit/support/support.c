/* Support mapping: hill climbing must return a true maximiser (to rounding) on every polytope,
 * compared with a long-double brute-force scan of the vertices; brute force must return the
 * lowest-index maximiser. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "brute.h"
#include "polytope/internal.h"
#include "polytope/support_table.h"
#include "support/support.h"
#include "testutil.h"


static hd_rng rng;

/* Checks one support answer against the exact maximum for direction d. */
static void check_answer(const hd_polytope *p, const double d[3], int start, int v)
{
    int n = p->vertex_count;
    double best = hd_brute_support_value(p->verts, n, d, NULL);
    assert_true(v >= 0 && v < n);
    long double got = (long double)p->verts[3 * v] * d[0] +
                      (long double)p->verts[3 * v + 1] * d[1] +
                      (long double)p->verts[3 * v + 2] * d[2];
    double dl = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double allowed = 8.0 * DBL_EPSILON * dl * (p->max_abs > 0 ? p->max_abs : 1.0);
    if ((double)(best - got) > allowed) {
        printf("climb short by %.3g (allowed %.3g): n=%d dim=%d start=%d d=(%.17g %.17g %.17g)\n",
               (double)(best - got), allowed, n, p->dim, start, d[0], d[1], d[2]);
    }
    assert_true((double)(best - got) <= allowed);
}

/* Checks hdi_support_climb (the direction table of a solid above HD_SUPPORT_SCAN_MAX vertices, else
 * a scan or a walk) and, on solids with a table, also the hill climb itself, run on a copy of the
 * polytope's header without the table. */
static void check_direction(const hd_polytope *p, const double d[3], int start)
{
    check_answer(p, d, start, hdi_support_climb(p, d, start));
    if (p->support_k > 0) {
        hd_polytope walk = *p;
        walk.support_k = 0;
        check_answer(&walk, d, start, hdi_support_climb(&walk, d, start));
    }
}

static void check_table_layout(const hd_polytope *p);

/* Random directions, axis directions, the face normals (exact plateaus), from random starts. */
static void check_polytope(const hd_polytope *p, int random_dirs)
{
    check_table_layout(p);
    int n = p->vertex_count;
    for (int i = 0; i < random_dirs; ++i) {
        double d[3];
        hd_rng_unit_vector(&rng, d);
        check_direction(p, d, hd_rng_int(&rng, n));
    }
    for (int axis = 0; axis < 6; ++axis) {
        double d[3] = {0, 0, 0};
        d[axis % 3] = axis < 3 ? 1.0 : -1.0;
        for (int s = 0; s < n && s < 16; ++s) {
            check_direction(p, d, s);
        }
    }
    for (int f = 0; f < p->face_count; ++f) {
        const double *nf = p->face_normal + 3 * f;
        check_direction(p, nf, hd_rng_int(&rng, n));
        double neg[3] = {-nf[0], -nf[1], -nf[2]};
        check_direction(p, neg, hd_rng_int(&rng, n));
    }
    /* out-of-range starts fall back to vertex 0 */
    double d[3] = {0.3, -0.2, 0.9};
    check_direction(p, d, -5);
    check_direction(p, d, n + 7);
}

static hd_polytope *build(const double *xyz, int n)
{
    hd_polytope *p = hd_test_build(xyz, n);
    assert_non_null(p);
    return p;
}

/* The climbing start and the walk on solids of fewer than 8 vertices (the sample's stride would
 * round to 0): they end, on a vertex of greatest d.v. hdi_support_from scans such solids, so only a
 * direct call reaches this. */
static void test_climb_few_vertices(void **state)
{
    (void)state;
    double tetra[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    hd_polytope *p = build(tetra, 4);
    for (int rep = 0; rep < 50; ++rep) {
        double d[3] = {hd_rng_uniform(&rng, -1, 1), hd_rng_uniform(&rng, -1, 1),
                       hd_rng_uniform(&rng, -1, 1)};
        int from = hdi_support_climb_start(p, d, rep % 4, NULL, 0);
        assert_true(from >= 0 && from < 4);
        int v = hdi_support_walk(p, d, from);
        assert_true(hdi_v3_dot(p->verts + 3 * v, d) ==
                    hdi_v3_dot(p->verts + 3 * hdi_support_brute(p, d), d));
    }
    hd_polytope_destroy(p);
}

static void test_brute_lowest_index(void **state)
{
    (void)state;
    double sq[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    hd_polytope *p = build(sq, 4);
    double d[3] = {0, 0, 1}; /* every vertex ties */
    int v = hdi_support_brute(p, d);
    assert_int_equal(v, 0);
    double e[3] = {1, 0, 0};
    v = hdi_support_brute(p, e);
    const double *x = p->verts + 3 * v;
    assert_true(x[0] == 1.0);
    for (int i = 0; i < v; ++i) {
        assert_true(p->verts[3 * i] < 1.0);
    }
    hd_polytope_destroy(p);
}

static void test_random_clouds(void **state)
{
    (void)state;
    static const int sizes[] = {4, 5, 8, 12, 30, 100, 300, 1000};
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        for (int rep = 0; rep < 6; ++rep) {
            int n = sizes[s];
            double *xyz = malloc(sizeof(double) * 3 * (size_t)n);
            if (rep % 2 == 0) {
                hd_points_ellipsoid(&rng, n, hd_rng_uniform(&rng, 0.1, 3),
                                    hd_rng_uniform(&rng, 0.1, 3), hd_rng_uniform(&rng, 0.1, 3),
                                    xyz);
            } else {
                hd_points_cloud(&rng, n, 1, hd_rng_uniform(&rng, 0.01, 2), 0.5, xyz);
            }
            double scale = pow(10.0, hd_rng_uniform(&rng, -6, 6));
            for (int i = 0; i < 3 * n; ++i) xyz[i] *= scale;
            hd_polytope *p = build(xyz, n);
            check_polytope(p, 400);
            hd_polytope_destroy(p);
            free(xyz);
        }
    }
}

/* The fused scan of two vertex sets (hdi_support_scan_pair, GJK's support step on small solids)
 * answers exactly as two separate scans: sets of 1 to 40 points, either longer, integer grid
 * points and directions among them so that ties (the lowest index wins) are frequent. */
static void test_scan_pair(void **state)
{
    (void)state;
    double xa[3 * 40], xb[3 * 40];
    for (int rep = 0; rep < 400; ++rep) {
        int na = 1 + (int)hd_rng_uniform(&rng, 0, 40), nb = 1 + (int)hd_rng_uniform(&rng, 0, 40);
        int grid = rep % 2 == 0;
        for (int i = 0; i < 3 * 40; ++i) {
            xa[i] = grid ? floor(hd_rng_uniform(&rng, -2, 2)) : hd_rng_uniform(&rng, -1, 1);
            xb[i] = grid ? floor(hd_rng_uniform(&rng, -2, 2)) : hd_rng_uniform(&rng, -1, 1);
        }
        double da[3], db[3];
        for (int k = 0; k < 3; ++k) {
            da[k] = grid ? floor(hd_rng_uniform(&rng, -1, 2)) : hd_rng_uniform(&rng, -1, 1);
            db[k] = grid ? floor(hd_rng_uniform(&rng, -1, 2)) : hd_rng_uniform(&rng, -1, 1);
        }
        int ia = -1, ib = -1;
        hdi_support_scan_pair(xa, na, da, xb, nb, db, &ia, &ib);
        assert_int_equal(ia, hdi_support_scan(xa, na, da));
        assert_int_equal(ib, hdi_support_scan(xb, nb, db));
    }
}

/* Regular k-gon prisms: two big (merged) caps and quad sides; directions exactly along the face
 * normals make plateaus of k or 4 equal vertices. */
static void test_prisms_and_cubes(void **state)
{
    (void)state;
    static const int ks[] = {3, 4, 6, 17, 64, 200};
    for (unsigned i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
        int k = ks[i];
        double *xyz = malloc(sizeof(double) * 6 * (size_t)k);
        hd_points_prism(k, 0.5, xyz);
        hd_polytope *p = build(xyz, 2 * k);
        check_polytope(p, 300);
        for (int j = 0; j < k; ++j) { /* side normals, analytically */
            double t = 2 * HD_PI * (j + 0.5) / k;
            double d[3] = {cos(t), sin(t), 0};
            check_direction(p, d, hd_rng_int(&rng, 2 * k));
        }
        hd_polytope_destroy(p);
        free(xyz);
    }
    double lo[3] = {-1, -2, -3}, hi[3] = {1, 2, 3}, box[24];
    hd_points_box(lo, hi, box);
    hd_polytope *p = build(box, 8);
    check_polytope(p, 1000);
    hd_polytope_destroy(p);
}

/* A frustum whose top is a 300-gon lifted randomly by up to lift, on a square base; merged says
 * whether its cap must be one face. Support checked from every start vertex along the cap's
 * normal and in 3000 directions within 1e-10 of it. */
static void check_lifted_frustum(double lift, int merged)
{
    int g = 300, count = 0;
    double *pts = malloc(sizeof(double) * 3 * (size_t)(g + 4));
    for (int i = 0; i < g; ++i) {
        double t = 2 * HD_PI * i / g, *q = pts + 3 * count++;
        q[0] = cos(t);
        q[1] = sin(t);
        q[2] = 1 + lift * hd_rng_uniform(&rng, -1, 1);
    }
    double base[12] = {-2, -2, -1, 2, -2, -1, 2, 2, -1, -2, 2, -1};
    for (int i = 0; i < 12; ++i) pts[3 * count + i] = base[i];
    count += 4;
    hd_polytope *p = build(pts, count);
    int big = 0;
    for (int f = 0; f < p->face_count; ++f) {
        int len = p->face_offset[f + 1] - p->face_offset[f];
        big = len > big ? len : big;
    }
    if (merged) {
        assert_true(big >= g);
    } else {
        assert_true(big < g);
    }
    check_polytope(p, 3000);
    double up[3] = {0, 0, 1};
    for (int s = 0; s < p->vertex_count; ++s) {
        check_direction(p, up, s);
    }
    for (int i = 0; i < 3000; ++i) {
        double d[3] = {hd_rng_uniform(&rng, -1e-10, 1e-10), hd_rng_uniform(&rng, -1e-10, 1e-10), 1};
        check_direction(p, d, hd_rng_int(&rng, p->vertex_count));
    }
    hd_polytope_destroy(p);
    free(pts);
}

/* A cone: apex of degree k, a k-gon base; and a near-coplanar face (below). */
static void test_high_degree_and_near_coplanar(void **state)
{
    (void)state;
    int k = 500;
    double *xyz = malloc(sizeof(double) * 3 * (size_t)(k + 1));
    for (int j = 0; j < k; ++j) {
        double t = 2 * HD_PI * j / k;
        xyz[3 * j] = cos(t);
        xyz[3 * j + 1] = sin(t);
        xyz[3 * j + 2] = 0;
    }
    xyz[3 * k] = 0.1;
    xyz[3 * k + 1] = 0;
    xyz[3 * k + 2] = 2;
    hd_polytope *p = build(xyz, k + 1);
    check_polytope(p, 2000);
    hd_polytope_destroy(p);
    free(xyz);

    /* a frustum whose top is a 300-gon lifted randomly: by up to 1e-14 (below the coordinates'
     * resolution) it is merged into one face; by up to 1e-11 it stays a fan of nearly coplanar
     * facets with the lifted points as vertices. Either way the support must be exact. */
    static const double lifts[2] = {1e-14, 1e-11};
    for (int c = 0; c < 2; ++c) {
        check_lifted_frustum(lifts[c], c == 0);
    }
}

/* Lower-dimensional polytopes: a point, a segment, polygons (also not exactly planar). */
static void test_lower_dimensions(void **state)
{
    (void)state;
    double pt[3] = {1, 2, 3};
    hd_polytope *p = build(pt, 1);
    check_polytope(p, 20);
    hd_polytope_destroy(p);
    double seg[9] = {0, 0, 0, 1, 1, 1, 0.5, 0.5, 0.5};
    p = build(seg, 3);
    assert_int_equal(p->dim, 1);
    check_polytope(p, 100);
    hd_polytope_destroy(p);
    for (int rep = 0; rep < 20; ++rep) {
        int n = 3 + hd_rng_int(&rng, 200);
        double *xyz = malloc(sizeof(double) * 3 * (size_t)n);
        hd_pose pose = hd_rng_pose(&rng, NULL);
        for (int i = 0; i < n; ++i) {
            double t = hd_rng_uniform(&rng, 0, 2 * HD_PI);
            double q[3] = {cos(t), 0.3 * sin(t), rep % 2 ? 1e-14 * hd_rng_uniform(&rng, -1, 1) : 0};
            hd_pose_apply(&pose, q, xyz + 3 * i);
        }
        p = build(xyz, n);
        assert_int_equal(p->dim, 2);
        check_polytope(p, 300);
        double d[3] = {pose.r[2], pose.r[5], pose.r[8]}; /* the plane's normal */
        for (int s = 0; s < p->vertex_count && s < 50; ++s) {
            check_direction(p, d, s);
        }
        hd_polytope_destroy(p);
        free(xyz);
    }
}

/* The table's layout: present exactly on solids above HD_SUPPORT_SCAN_MAX vertices, every record
 * naming valid vertices, every list a valid count of valid vertices. */
static void check_table_layout(const hd_polytope *p)
{
    if (p->dim != 3 || p->vertex_count <= HD_SUPPORT_SCAN_MAX) {
        assert_int_equal(p->support_k, 0);
        return;
    }
    int k = p->support_k;
    assert_true(k > 0);
    assert_int_equal(k, hdi_support_table_resolution(p->vertex_count));
    for (int c = 0; c < 6 * k * k; ++c) {
        const int *rec = p->support_cell + HD_SUPPORT_SLOTS * c;
        if (rec[0] >= 0) {
            for (int j = 0; j < HD_SUPPORT_SLOTS; ++j) {
                assert_true(rec[j] >= 0 && rec[j] < p->vertex_count);
            }
            continue;
        }
        int o = -1 - rec[0];
        assert_true(o >= 0 && o < p->support_list_count);
        int count = p->support_list[o];
        assert_true(count > HD_SUPPORT_SLOTS && o + count < p->support_list_count);
        for (int j = 1; j <= count; ++j) {
            assert_true(p->support_list[o + j] >= 0 && p->support_list[o + j] < p->vertex_count);
        }
    }
}

/* Directions on and next to the table's cell edges (p or q = -1 + 2 i / k, and one ulp to either
 * side) and cube edges and corners (|d_a| = |d_b|), at several magnitudes of d: the query's cell
 * may then be the neighbour of the exact one, and the widened cells must still list a maximiser. */
static void check_cell_edges(const hd_polytope *p)
{
    int k = p->support_k > 0 ? p->support_k : 4;
    static const double mags[] = {1e-120, 1.0, 3e90};
    for (int a = 0; a < 3; ++a) {
        for (int i = 0; i <= k; ++i) {
            double edge = -1.0 + 2.0 * i / k;
            double near[3] = {edge, nextafter(edge, -2.0), nextafter(edge, 2.0)};
            for (int e = 0; e < 3; ++e) {
                for (int t = 0; t < 3; ++t) {
                    double q = t == 0 ? hd_rng_uniform(&rng, -1, 1) : t == 1 ? near[e] : 1.0;
                    double pq = near[e] < -1.0 ? -1.0 : near[e] > 1.0 ? 1.0 : near[e];
                    double d[3];
                    d[a] = (i + e + t) % 2 ? 1.0 : -1.0;
                    d[(a + 1) % 3] = pq;
                    d[(a + 2) % 3] = q;
                    /* keep |d| max|v| well inside the normal range of doubles */
                    double m = mags[(i + t) % 3], big = p->max_abs > 0 ? p->max_abs : 1.0;
                    m = m * big > 1e280 ? 1e280 / big : m * big < 1e-280 ? 1e-280 / big : m;
                    for (int c = 0; c < 3; ++c) d[c] *= m;
                    check_direction(p, d, hd_rng_int(&rng, p->vertex_count));
                }
            }
        }
    }
    static const double corner[][3] = {{1, 1, 0}, {1, -1, 0}, {0, 1, 1}, {1, 0, -1}, {1, 1, 1},
                                       {-1, 1, -1}, {1, -1, -1}, {-1, -1, -1}};
    for (unsigned c = 0; c < sizeof corner / sizeof corner[0]; ++c) {
        check_direction(p, corner[c], 0);
    }
    double zero[3] = {0, 0, 0};
    int v = hdi_support_climb(p, zero, 0);
    assert_true(v >= 0 && v < p->vertex_count);
}

/* The direction table on ellipsoid clouds at the ends of the coordinate range (the table holds
 * indices only) and on a cylinder with merged caps: layout, cell edges, random directions. */
static void test_direction_table(void **state)
{
    (void)state;
    static const int sizes[] = {20, 33, 64, 250, 1000, 5000};
    static const double scales[] = {1.0, 1e-25, 1e25, 3e-7};
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        int n = sizes[s];
        double *xyz = malloc(sizeof(double) * 3 * (size_t)n);
        hd_points_ellipsoid(&rng, n, 200, 100, hd_rng_uniform(&rng, 10, 100), xyz);
        double scale = scales[s % 4];
        for (int i = 0; i < 3 * n; ++i) xyz[i] *= scale;
        hd_polytope *p = build(xyz, n);
        check_table_layout(p);
        check_cell_edges(p);
        check_polytope(p, 500);
        assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
        hd_polytope_destroy(p);
        free(xyz);
    }
    /* a cylinder: two merged 48-gon caps, exact plateaus of 48 and of 4 vertices */
    int g = 48;
    double *cyl = malloc(sizeof(double) * 6 * (size_t)g);
    hd_points_prism(g, 1.0, cyl);
    hd_polytope *p = build(cyl, 2 * g);
    check_table_layout(p);
    check_cell_edges(p);
    check_polytope(p, 500);
    hd_polytope_destroy(p);
    free(cyl);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("unit/support/support"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brute_lowest_index),
        cmocka_unit_test(test_climb_few_vertices),
        cmocka_unit_test(test_scan_pair),
        cmocka_unit_test(test_random_clouds),
        cmocka_unit_test(test_prisms_and_cubes),
        cmocka_unit_test(test_high_degree_and_near_coplanar),
        cmocka_unit_test(test_lower_dimensions),
        cmocka_unit_test(test_direction_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
