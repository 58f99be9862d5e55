/* hd_write_off: hulls of known shapes written as OFF and read back. The text is checked against
 * counts known in advance (a cube has 8 vertices, 12 edges and 6 faces...), every written face is
 * checked geometrically (planar, outward counter-clockwise loop, all vertices behind it), and
 * the reader must give back the hull's vertices bit for bit. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hedra/hedra.h"
#include "testutil.h"

static hd_polytope *build_hull(const double *xyz, int n)
{
    hd_polytope *p = NULL;
    hd_status st = hd_polytope_build(xyz, n, NULL, &p);
    assert_int_equal(st, HD_OK);
    assert_non_null(p);
    return p;
}

typedef struct off_text {
    int nv, nf, ne;
    double *xyz;
    int *face_size;
    int *face_index; /* face f's indices at face_index[f * 64 ...] */
} off_text;

/* An independent minimal parser for the writer's output (its exact layout is known). */
static void parse_written(FILE *fp, off_text *t)
{
    char word[8];
    rewind(fp);
    assert_int_equal(fscanf(fp, "%7s %d %d %d", word, &t->nv, &t->nf, &t->ne), 4);
    assert_string_equal(word, "OFF");
    t->xyz = malloc(sizeof(double) * 3 * (size_t)t->nv);
    t->face_size = malloc(sizeof(int) * (size_t)(t->nf + 1));
    t->face_index = malloc(sizeof(int) * 64 * (size_t)(t->nf + 1));
    for (int i = 0; i < 3 * t->nv; ++i) {
        assert_int_equal(fscanf(fp, "%lf", &t->xyz[i]), 1);
    }
    for (int f = 0; f < t->nf; ++f) {
        assert_int_equal(fscanf(fp, "%d", &t->face_size[f]), 1);
        assert_in_range(t->face_size[f], 3, 64);
        for (int j = 0; j < t->face_size[f]; ++j) {
            assert_int_equal(fscanf(fp, "%d", &t->face_index[64 * f + j]), 1);
            assert_in_range(t->face_index[64 * f + j], 0, t->nv - 1);
        }
    }
    int extra = 0;
    assert_int_equal(fscanf(fp, "%d", &extra), EOF);
}

static void free_text(off_text *t)
{
    free(t->xyz);
    free(t->face_size);
    free(t->face_index);
}

/* Face f: Newell's normal of its loop must point away from the centroid of all vertices; every
 * loop vertex lies on the plane and every vertex behind it (tolerances relative to size 1). */
static void check_face(const off_text *t, int f, const double centroid[3])
{
    const int *loop = &t->face_index[64 * f];
    int k = t->face_size[f];
    double n[3] = {0, 0, 0}, c[3] = {0, 0, 0};
    for (int j = 0; j < k; ++j) {
        const double *p = &t->xyz[3 * loop[j]], *q = &t->xyz[3 * loop[(j + 1) % k]];
        n[0] += (p[1] - q[1]) * (p[2] + q[2]);
        n[1] += (p[2] - q[2]) * (p[0] + q[0]);
        n[2] += (p[0] - q[0]) * (p[1] + q[1]);
        for (int i = 0; i < 3; ++i) {
            c[i] += p[i] / k;
        }
    }
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    assert_true(len > 1e-9);
    double offset = (n[0] * c[0] + n[1] * c[1] + n[2] * c[2]) / len;
    double inside = (n[0] * centroid[0] + n[1] * centroid[1] + n[2] * centroid[2]) / len;
    if (t->nf > 1) {
        assert_true(inside < offset - 1e-6); /* outward normal, counter-clockwise loop */
    }
    for (int v = 0; v < t->nv; ++v) {
        const double *p = &t->xyz[3 * v];
        double h = (n[0] * p[0] + n[1] * p[1] + n[2] * p[2]) / len - offset;
        assert_true(h <= 1e-8);
    }
    for (int j = 0; j < k; ++j) {
        const double *p = &t->xyz[3 * loop[j]];
        double h = (n[0] * p[0] + n[1] * p[1] + n[2] * p[2]) / len - offset;
        assert_true(fabs(h) <= 1e-8);
    }
}

/* Writes poly, checks the counts and faces, and reads the vertices back through the reader. */
static void round_trip(hd_polytope *poly, int nv, int nf, int ne)
{
    FILE *fp = tmpfile();
    assert_non_null(fp);
    assert_int_equal(hd_write_off(fp, poly), HD_OK);
    off_text t;
    parse_written(fp, &t);
    assert_int_equal(t.nv, nv);
    assert_int_equal(t.nf, nf);
    assert_int_equal(t.ne, ne);
    double centroid[3] = {0, 0, 0};
    for (int v = 0; v < nv; ++v) {
        for (int i = 0; i < 3; ++i) {
            centroid[i] += t.xyz[3 * v + i] / nv;
        }
    }
    for (int f = 0; f < nf; ++f) {
        check_face(&t, f, centroid);
    }
    if (nf > 1) {
        assert_int_equal(nv - ne + nf, 2); /* Euler */
    }
    free_text(&t);

    rewind(fp);
    hd_points pts = {0, NULL};
    hd_parse_error err;
    assert_int_equal(hd_read_points_stream(fp, "written.off", HD_FORMAT_AUTO, &pts, &err), HD_OK);
    fclose(fp);
    assert_int_equal(pts.count, hd_polytope_vertex_count(poly));
    assert_memory_equal(pts.xyz, hd_polytope_vertices(poly), sizeof(double) * 3 * (size_t)nv);
    hd_points_free(&pts);
}

static void test_cube(void **state)
{
    (void)state;
    double xyz[3 * 10];
    const double lo[3] = {-1, -2, -3}, hi[3] = {1, 2, 3};
    hd_points_box(lo, hi, xyz);
    const double interior[6] = {0, 0, 0, 0.5, -1, 2}; /* not hull vertices */
    memcpy(xyz + 24, interior, sizeof interior);
    hd_polytope *p = build_hull(xyz, 10);
    round_trip(p, 8, 6, 12);
    hd_polytope_destroy(p);
}

static void test_tetrahedron_and_octahedron(void **state)
{
    (void)state;
    const double tet[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    hd_polytope *p = build_hull(tet, 4);
    round_trip(p, 4, 4, 6);
    hd_polytope_destroy(p);
    const double oct[] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
    p = build_hull(oct, 6);
    round_trip(p, 6, 8, 12);
    hd_polytope_destroy(p);
}

static void test_lower_dimensions(void **state)
{
    (void)state;
    /* A square with its centre: one face of 4 vertices, 4 edges. */
    const double square[] = {0, 0, 1, 2, 0, 1, 2, 2, 1, 0, 2, 1, 1, 1, 1};
    hd_polytope *p = build_hull(square, 5);
    round_trip(p, 4, 1, 4);
    hd_polytope_destroy(p);
    /* A segment (three collinear points): 2 vertices, 1 edge, no face. */
    const double seg[] = {0, 0, 0, 1, 1, 1, 3, 3, 3};
    p = build_hull(seg, 3);
    round_trip(p, 2, 0, 1);
    hd_polytope_destroy(p);
    /* A point (repeated): 1 vertex. */
    const double pt[] = {4, 5, 6, 4, 5, 6};
    p = build_hull(pt, 2);
    round_trip(p, 1, 0, 0);
    hd_polytope_destroy(p);
}

/* A random ellipsoid hull: counts are not known in advance, so only the face geometry, Euler's
 * formula and the exact vertex round trip are checked. */
static void test_ellipsoid(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, hd_test_seed("unit/io/write"));
    enum { N = 60 };
    double xyz[3 * N];
    hd_points_ellipsoid(&rng, N, 2, 1, 1, xyz);
    hd_polytope *p = build_hull(xyz, N);
    round_trip(p, hd_polytope_vertex_count(p), hd_polytope_face_count(p),
               hd_polytope_edge_count(p));
    hd_polytope_destroy(p);
}

static void test_write_errors(void **state)
{
    (void)state;
    const double tet[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    assert_int_equal(hd_write_off(stdout, NULL), HD_ERR_NULL);
    hd_polytope *p = build_hull(tet, 4);
    assert_int_equal(hd_write_off(NULL, p), HD_ERR_NULL);
    FILE *full = fopen("/dev/full", "w");
    if (full != NULL) {
        setvbuf(full, NULL, _IONBF, 0);
        assert_int_equal(hd_write_off(full, p), HD_ERR_IO);
        const double a[] = {1, 2, 3};
        assert_int_equal(hd_write_pair(full, "x", a, 1, a, 1), HD_ERR_IO);
        fclose(full);
    }
    hd_polytope_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube),
        cmocka_unit_test(test_tetrahedron_and_octahedron),
        cmocka_unit_test(test_lower_dimensions),
        cmocka_unit_test(test_ellipsoid),
        cmocka_unit_test(test_write_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
