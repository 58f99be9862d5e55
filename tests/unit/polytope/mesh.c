/* Polytopes from explicit meshes: success cases (checked against the known solid) and every
 * documented failure kind, with the violation report checked against a plane computed here. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "polytope/internal.h"
#include "testutil.h"

/* The unit cube [0,1]^3, vertex i = (i & 1, (i >> 1) & 1, (i >> 2) & 1); faces counter-clockwise
 * seen from outside (each loop's (b - a) x (c - b) points along the face's outward axis). */
static const int cube_quads[24] = {
    0, 2, 3, 1, /* z = 0 */
    4, 5, 7, 6, /* z = 1 */
    0, 4, 6, 2, /* x = 0 */
    1, 3, 7, 5, /* x = 1 */
    0, 1, 5, 4, /* y = 0 */
    2, 6, 7, 3, /* y = 1 */
};
static const int quad_sizes[6] = {4, 4, 4, 4, 4, 4};
static const int tri_sizes[12] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};

static void cube_points(double xyz[24])
{
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    hd_points_box(lo, hi, xyz);
}

/* Each quad (a b c d) split into (a b c) and (a c d). */
static void cube_triangles(int tris[36])
{
    for (int f = 0; f < 6; ++f) {
        const int *q = cube_quads + 4 * f;
        int t[6] = {q[0], q[1], q[2], q[0], q[2], q[3]};
        memcpy(tris + 6 * f, t, sizeof t);
    }
}

static void check_unit_cube(const hd_polytope *p)
{
    assert_int_equal(hd_polytope_dimension(p), 3);
    assert_int_equal(p->vertex_count, 8);
    assert_int_equal(p->edge_count, 12);
    assert_int_equal(p->face_count, 6);
    assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
    int seen[6] = {0};
    for (int f = 0; f < 6; ++f) {
        double n[3], d;
        assert_int_equal(hd_polytope_face(p, f, n, &d, NULL), 4);
        int axis = -1;
        for (int k = 0; k < 3; ++k) {
            if (fabs(fabs(n[k]) - 1.0) < 1e-12) axis = k;
        }
        assert_true(axis >= 0);
        int positive = n[axis] > 0;
        assert_true(fabs(d - (positive ? 1.0 : 0.0)) < 1e-12);
        seen[2 * axis + positive]++;
    }
    for (int s = 0; s < 6; ++s) assert_int_equal(seen[s], 1);
}

static void test_cube_quads(void **state)
{
    (void)state;
    double xyz[24];
    cube_points(xyz);
    hd_polytope *p = NULL;
    hd_mesh_violation viol = {5, 5, 5.0};
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, cube_quads, 6, NULL, &p, &viol), HD_OK);
    assert_int_equal(viol.face, -1);
    assert_int_equal(viol.vertex, -1);
    check_unit_cube(p);
    hd_polytope_destroy(p);
}

/* Twelve triangles: coplanar pairs are merged into the six squares. */
static void test_cube_triangles_merged(void **state)
{
    (void)state;
    double xyz[24];
    int tris[36];
    cube_points(xyz);
    cube_triangles(tris);
    hd_polytope *p = NULL;
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, tri_sizes, tris, 12, NULL, &p, NULL), HD_OK);
    check_unit_cube(p);
    hd_polytope_destroy(p);
}

/* A vertex moved by 1e-12 (within the tolerance) keeps the cube's combinatorics. */
static void test_cube_within_tolerance(void **state)
{
    (void)state;
    double xyz[24];
    int tris[36];
    cube_points(xyz);
    cube_triangles(tris);
    xyz[3 * 7 + 2] += 1e-12;
    hd_polytope *p = NULL;
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, tri_sizes, tris, 12, NULL, &p, NULL), HD_OK);
    assert_int_equal(p->face_count, 6);
    assert_int_equal(p->edge_count, 12);
    assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
    hd_polytope_destroy(p);
}

static void test_tetrahedron_and_rotated_box(void **state)
{
    (void)state;
    double tet[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    /* counter-clockwise seen from outside: the face opposite vertex i */
    int faces[12] = {1, 2, 3, 0, 2, 1, 0, 3, 2, 0, 1, 3};
    int sizes[4] = {3, 3, 3, 3};
    hd_polytope *p = NULL;
    assert_int_equal(hd_polytope_from_mesh(tet, 4, sizes, faces, 4, NULL, &p, NULL), HD_OK);
    assert_int_equal(p->vertex_count, 4);
    assert_int_equal(p->face_count, 4);
    assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
    double c[3];
    hd_polytope_interior(p, 0, c, NULL);
    assert_true(c[0] > 0 && c[1] > 0 && c[2] > 0 && c[0] + c[1] + c[2] < 1);
    hd_polytope_destroy(p);

    hd_rng rng;
    hd_rng_init(&rng, hd_test_seed("unit/polytope/mesh"));
    for (int trial = 0; trial < 20; ++trial) {
        double xyz[24], moved[24], t[3] = {1, -2, 3};
        int tris[36];
        cube_points(xyz);
        cube_triangles(tris);
        hd_pose pose = hd_rng_pose(&rng, t);
        for (int i = 0; i < 8; ++i) hd_pose_apply(&pose, xyz + 3 * i, moved + 3 * i);
        assert_int_equal(hd_polytope_from_mesh(moved, 8, tri_sizes, tris, 12, NULL, &p, NULL), HD_OK);
        assert_int_equal(p->face_count, 6);
        assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
        hd_polytope_destroy(p);
    }
}

/* Distance of x above the plane of triangle (a, b, c), normal (b - a) x (c - a). */
static double above_triangle(const double *a, const double *b, const double *c, const double *x)
{
    double u[3], v[3], n[3];
    for (int k = 0; k < 3; ++k) {
        u[k] = b[k] - a[k];
        v[k] = c[k] - a[k];
    }
    n[0] = u[1] * v[2] - u[2] * v[1];
    n[1] = u[2] * v[0] - u[0] * v[2];
    n[2] = u[0] * v[1] - u[1] * v[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    return ((x[0] - a[0]) * n[0] + (x[1] - a[1]) * n[1] + (x[2] - a[2]) * n[2]) / len;
}

/* Vertex 7 pushed into the cube: a dent. The first violation reported must be a real one: the
 * named vertex lies above the named triangle's plane by the reported excess. */
static void test_dented_cube_not_convex(void **state)
{
    (void)state;
    double xyz[24];
    int tris[36];
    cube_points(xyz);
    cube_triangles(tris);
    xyz[21] = xyz[22] = xyz[23] = 0.6;
    hd_polytope *p = (hd_polytope *)&p;
    hd_mesh_violation viol;
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, tri_sizes, tris, 12, NULL, &p, &viol),
                     HD_ERR_NOT_CONVEX);
    assert_null(p);
    assert_true(viol.face >= 0 && viol.face < 12);
    assert_true(viol.vertex >= 0 && viol.vertex < 8);
    const int *t = tris + 3 * viol.face;
    double h = above_triangle(xyz + 3 * t[0], xyz + 3 * t[1], xyz + 3 * t[2], xyz + 3 * viol.vertex);
    assert_true(h > 1e-3);
    assert_true(fabs(h - viol.excess) < 1e-12);
    /* a dent of 1e-4 is still far beyond the tolerance */
    cube_points(xyz);
    xyz[23] = 1.0 - 1e-4;
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, tri_sizes, tris, 12, NULL, &p, &viol),
                     HD_ERR_NOT_CONVEX);
    assert_true(viol.excess > 1e-5);
}

/* A quad face bent out of its plane: its own vertices are not on one plane. */
static void test_bent_face_not_convex(void **state)
{
    (void)state;
    double xyz[24];
    cube_points(xyz);
    xyz[3 * 7 + 0] += 1e-3; /* vertex 7 pushed outward across the x = 1 face only */
    hd_polytope *p = NULL;
    hd_mesh_violation viol;
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, cube_quads, 6, NULL, &p, &viol),
                     HD_ERR_NOT_CONVEX);
    assert_null(p);
    assert_true(viol.face >= 0 && viol.excess > 1e-5);
}

static void test_topology_failures(void **state)
{
    (void)state;
    double xyz[27];
    cube_points(xyz);
    hd_polytope *p = NULL;
    int quads[24];

    /* open: a face missing */
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, cube_quads, 5, NULL, &p, NULL),
                     HD_ERR_BAD_MESH);
    /* one face flipped: a directed edge twice */
    memcpy(quads, cube_quads, sizeof quads);
    int t = quads[1];
    quads[1] = quads[3];
    quads[3] = t;
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, quads, 6, NULL, &p, NULL),
                     HD_ERR_BAD_MESH);
    /* every face flipped: a closed manifold, but inside out */
    for (int f = 0; f < 6; ++f) {
        for (int k = 0; k < 4; ++k) quads[4 * f + k] = cube_quads[4 * f + 3 - k];
    }
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, quads, 6, NULL, &p, NULL),
                     HD_ERR_BAD_MESH);
    /* an unreferenced ninth vertex */
    xyz[24] = xyz[25] = xyz[26] = 0.5;
    assert_int_equal(hd_polytope_from_mesh(xyz, 9, quad_sizes, cube_quads, 6, NULL, &p, NULL),
                     HD_ERR_BAD_MESH);
    /* the same face twice */
    int doubled[28];
    int sizes7[7] = {4, 4, 4, 4, 4, 4, 4};
    memcpy(doubled, cube_quads, sizeof cube_quads);
    memcpy(doubled + 24, cube_quads, 4 * sizeof(int));
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, sizes7, doubled, 7, NULL, &p, NULL),
                     HD_ERR_BAD_MESH);
    /* a repeated vertex inside one loop */
    memcpy(quads, cube_quads, sizeof quads);
    quads[2] = quads[0];
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, quads, 6, NULL, &p, NULL),
                     HD_ERR_BAD_MESH);
    assert_null(p);
}

/* Two disjoint tetrahedra: each closed, together not one sphere (V - E + F = 4). Two tetrahedra
 * sharing one vertex: the faces around it form two fans. */
static void test_two_components(void **state)
{
    (void)state;
    double xyz[24] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 0, 0, 6, 0, 0, 5, 1, 0, 5, 0, 1};
    int faces[24] = {1, 2, 3, 0, 2, 1, 0, 3, 2, 0, 1, 3, 5, 6, 7, 4, 6, 5, 4, 7, 6, 4, 5, 7};
    int sizes[8] = {3, 3, 3, 3, 3, 3, 3, 3};
    hd_polytope *p = NULL;
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, sizes, faces, 8, NULL, &p, NULL),
                     HD_ERR_BAD_MESH);
    double shared[21] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, -1, 0, 0, 0, -1, 0, 0, 0, -1};
    int faces2[24] = {1, 2, 3, 0, 2, 1, 0, 3, 2, 0, 1, 3, 4, 6, 5, 0, 4, 5, 0, 5, 6, 0, 6, 4};
    assert_int_equal(hd_polytope_from_mesh(shared, 7, sizes, faces2, 8, NULL, &p, NULL),
                     HD_ERR_BAD_MESH);
    assert_null(p);
}

/* Every argument error, with the header's statuses. */
static void test_argument_errors(void **state)
{
    (void)state;
    double xyz[24];
    cube_points(xyz);
    hd_polytope *p = (hd_polytope *)&p;
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, cube_quads, 6, NULL, NULL, NULL),
                     HD_ERR_NULL);
    assert_int_equal(hd_polytope_from_mesh(NULL, 8, quad_sizes, cube_quads, 6, NULL, &p, NULL),
                     HD_ERR_NULL);
    assert_null(p);
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, NULL, cube_quads, 6, NULL, &p, NULL), HD_ERR_NULL);
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, NULL, 6, NULL, &p, NULL), HD_ERR_NULL);
    assert_int_equal(hd_polytope_from_mesh(xyz, 0, quad_sizes, cube_quads, 6, NULL, &p, NULL),
                     HD_ERR_EMPTY);
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, cube_quads, 0, NULL, &p, NULL),
                     HD_ERR_EMPTY);
    assert_int_equal(hd_polytope_from_mesh(xyz, -1, quad_sizes, cube_quads, 6, NULL, &p, NULL),
                     HD_ERR_EMPTY);
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, cube_quads, -6, NULL, &p, NULL),
                     HD_ERR_EMPTY);
    assert_int_equal(hd_polytope_from_mesh(xyz, HD_MAX_POINTS + 1, quad_sizes, cube_quads, 6, NULL,
                                           &p, NULL),
                     HD_ERR_TOO_LARGE);
    int quads[24];
    memcpy(quads, cube_quads, sizeof quads);
    quads[5] = 8;
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, quads, 6, NULL, &p, NULL),
                     HD_ERR_INVALID_ARG);
    quads[5] = -1;
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, quads, 6, NULL, &p, NULL),
                     HD_ERR_INVALID_ARG);
    int small[6] = {4, 4, 2, 4, 4, 4};
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, small, cube_quads, 6, NULL, &p, NULL),
                     HD_ERR_INVALID_ARG);
    xyz[4] = NAN;
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, cube_quads, 6, NULL, &p, NULL),
                     HD_ERR_NONFINITE);
    cube_points(xyz);
    hd_tolerance tol = hd_tolerance_default();
    tol.convex_rel = -1;
    assert_int_not_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, cube_quads, 6, &tol, &p, NULL),
                         HD_OK);
    assert_null(p);
}

/* Extreme magnitudes (squared lengths overflow or underflow): the same answers, the vertices
 * bit for bit, the violation's excess in the input's units. */
static void test_extreme_scales(void **state)
{
    (void)state;
    static const double scales[] = {1e-300, 1e-200, 1e200, 1e300};
    int tris[36];
    cube_triangles(tris);
    for (int s = 0; s < 4; ++s) {
        double xyz[24];
        cube_points(xyz);
        for (int i = 0; i < 24; ++i) xyz[i] *= scales[s];
        hd_polytope *p = NULL;
        if (scales[s] > HD_MAX_COORD) { /* refused: beyond the supported range (core.h) */
            assert_int_equal(hd_polytope_from_mesh(xyz, 8, tri_sizes, tris, 12, NULL, &p, NULL),
                             HD_ERR_RANGE);
            assert_null(p);
            continue;
        }
        assert_int_equal(hd_polytope_from_mesh(xyz, 8, tri_sizes, tris, 12, NULL, &p, NULL), HD_OK);
        assert_int_equal(p->face_count, 6);
        assert_int_equal(p->edge_count, 12);
        assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
        for (int v = 0; v < 8; ++v) {
            int found = 0;
            for (int i = 0; i < 8; ++i) found += memcmp(p->verts + 3 * v, xyz + 3 * i, 3 * sizeof(double)) == 0;
            assert_int_equal(found, 1);
        }
        hd_polytope_destroy(p);
        /* the dented cube: vertex 7 at 0.6 of the size, 0.4 of the size inside its old corner */
        xyz[21] = xyz[22] = xyz[23] = 0.6 * scales[s];
        hd_mesh_violation viol;
        assert_int_equal(hd_polytope_from_mesh(xyz, 8, tri_sizes, tris, 12, NULL, &p, &viol),
                         HD_ERR_NOT_CONVEX);
        assert_true(viol.excess > 1e-3 * scales[s] && viol.excess < 2.0 * scales[s]);
    }
}

/* A flat "pillow" (two triangles back to back, or a flat box of zero height) bounds no solid. */
static void test_flat_mesh(void **state)
{
    (void)state;
    double xyz[24];
    cube_points(xyz);
    for (int i = 0; i < 8; ++i) xyz[3 * i + 2] = 0.0;
    hd_polytope *p = NULL;
    assert_int_equal(hd_polytope_from_mesh(xyz, 8, quad_sizes, cube_quads, 6, NULL, &p, NULL),
                     HD_ERR_BAD_MESH);
    double tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    int faces[6] = {0, 1, 2, 0, 2, 1};
    int sizes[2] = {3, 3};
    assert_int_equal(hd_polytope_from_mesh(tri, 3, sizes, faces, 2, NULL, &p, NULL), HD_ERR_BAD_MESH);
    assert_null(p);
}

/* An OFF mesh from the data directory: a triangulated octagonal prism whose rectangles were
 * split into triangles; it must come back with 8 rectangles and 2 octagons. */
static void test_data_prism(void **state)
{
    (void)state;
    const char *dir = getenv("HEDRA_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/octagonal_prism_triangulated.off", dir ? dir : "tests/data");
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        print_message("%s missing; skipped\n", path);
        skip();
    }
    char magic[8];
    int nv, nf, ne;
    assert_int_equal(fscanf(fp, "%7s %d %d %d", magic, &nv, &nf, &ne), 4);
    assert_string_equal(magic, "OFF");
    assert_true(nv <= 64 && nf <= 64);
    double xyz[3 * 64];
    int sizes[64], idx[64 * 8], at = 0;
    for (int i = 0; i < 3 * nv; ++i) assert_int_equal(fscanf(fp, "%lf", xyz + i), 1);
    for (int f = 0; f < nf; ++f) {
        assert_int_equal(fscanf(fp, "%d", sizes + f), 1);
        for (int k = 0; k < sizes[f]; ++k) assert_int_equal(fscanf(fp, "%d", idx + at++), 1);
    }
    fclose(fp);
    hd_polytope *p = NULL;
    assert_int_equal(hd_polytope_from_mesh(xyz, nv, sizes, idx, nf, NULL, &p, NULL), HD_OK);
    assert_int_equal(p->vertex_count, 16);
    assert_int_equal(p->face_count, 10);
    assert_int_equal(p->edge_count, 24);
    int quads = 0, octagons = 0;
    for (int f = 0; f < 10; ++f) {
        int m = hd_polytope_face(p, f, NULL, NULL, NULL);
        quads += m == 4;
        octagons += m == 8;
    }
    assert_int_equal(quads, 8);
    assert_int_equal(octagons, 2);
    assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
    hd_polytope_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube_quads),
        cmocka_unit_test(test_cube_triangles_merged),
        cmocka_unit_test(test_cube_within_tolerance),
        cmocka_unit_test(test_tetrahedron_and_rotated_box),
        cmocka_unit_test(test_dented_cube_not_convex),
        cmocka_unit_test(test_bent_face_not_convex),
        cmocka_unit_test(test_topology_failures),
        cmocka_unit_test(test_two_components),
        cmocka_unit_test(test_argument_errors),
        cmocka_unit_test(test_flat_mesh),
        cmocka_unit_test(test_extreme_scales),
        cmocka_unit_test(test_data_prism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
