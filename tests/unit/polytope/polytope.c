/* Polytope construction from point clouds. Every expectation comes from an independent fact:
 * known hulls (cubes, Platonic solids, boxes under a known rotation), the exact GLPK oracle for
 * "is this input point a vertex of the hull" (a point is a hull vertex iff it is not a convex
 * combination of the other points), brute-force containment of every input point, and strict
 * extremality certificates for every reported vertex. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno */

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "oracle.h"
#include "polytope/internal.h"
#include "testutil.h"

static uint64_t g_seed;

/* ---------- independent references ---------- */

static double extent_of(const double *xyz, int n)
{
    double e = 0.0;
    for (int k = 0; k < 3; ++k) {
        double lo = xyz[k], hi = xyz[k];
        for (int i = 1; i < n; ++i) {
            if (xyz[3 * i + k] < lo) lo = xyz[3 * i + k];
            if (xyz[3 * i + k] > hi) hi = xyz[3 * i + k];
        }
        if (hi - lo > e) e = hi - lo;
    }
    return e;
}

/* How far a hull may sit from the exact hull of its input points: the builder's coordinate
 * resolution (512 DBL_EPSILON times the largest absolute coordinate, polytope/build.h), doubled
 * for the rounding of the plane test that measures it. Nothing like the old 1e-9 of the size. */
static double hull_tol(const double *xyz, int n)
{
    double m = 0.0;
    for (int i = 0; i < 3 * n; ++i) m = fmax(m, fabs(xyz[i]));
    return 1024.0 * DBL_EPSILON * fmax(m, extent_of(xyz, n));
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static int same_point(const double *a, const double *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* Index of the first input point equal to v, or -1. */
static int find_input(const double *v, const double *xyz, int n)
{
    for (int i = 0; i < n; ++i) {
        if (same_point(v, xyz + 3 * i)) return i;
    }
    return -1;
}

/* Exact oracle: is point i a convex combination of the input points that differ from it? The
 * suite's oracle (support/oracle.h: glp_exact on exactly scaled integers, so raw doubles are not
 * rounded to nearby fractions) on the others and the single point. */
static int in_hull_of_others(const double *xyz, int n, int i)
{
    double *others = malloc(sizeof(double) * 3 * (size_t)n);
    assert_non_null(others);
    int m = 0;
    for (int j = 0; j < n; ++j) {
        if (same_point(xyz + 3 * j, xyz + 3 * i)) continue;
        memcpy(others + 3 * m++, xyz + 3 * j, 3 * sizeof(double));
    }
    int meet = m > 0 ? hd_oracle_intersect(others, m, xyz + 3 * i, 1) : 0;
    free(others);
    assert_true(meet == 0 || meet == 1);
    return meet;
}

/* The hull vertices are exactly the input points the oracle calls extreme (as sets of points). */
static void check_vertex_set_exact(const hd_polytope *p, const double *xyz, int n)
{
    int extreme = 0;
    for (int i = 0; i < n; ++i) {
        if (find_input(xyz + 3 * i, xyz, n) != i) continue; /* count each distinct point once */
        int is_extreme = !in_hull_of_others(xyz, n, i);
        int found = find_input(xyz + 3 * i, p->verts, p->vertex_count) >= 0;
        if (is_extreme != found) print_message("point %d extreme=%d reported=%d\n", i, is_extreme, found);
        assert_int_equal(is_extreme, found);
        extreme += is_extreme;
    }
    assert_int_equal(extreme, p->vertex_count);
}

/* The documented contract near the coordinates' resolution: every hull vertex is extreme (the
 * oracle finds it outside the hull of the others), and an extreme point may be left out only
 * when it lies within the resolution of the hull (check_solid bounds every input point's excess
 * over every face plane). Returns the number of extreme points left out. */
static int check_vertex_set_contract(const hd_polytope *p, const double *xyz, int n)
{
    int left_out = 0;
    for (int v = 0; v < p->vertex_count; ++v) {
        int i = find_input(p->verts + 3 * v, xyz, n);
        assert_true(i >= 0);
        assert_false(in_hull_of_others(xyz, n, i));
    }
    for (int i = 0; i < n; ++i) {
        if (find_input(xyz + 3 * i, xyz, n) != i) continue;
        int found = find_input(xyz + 3 * i, p->verts, p->vertex_count) >= 0;
        if (!found && !in_hull_of_others(xyz, n, i)) ++left_out;
    }
    return left_out;
}

/* ---------- structural checks written against the documented layout ---------- */

static int loop_has_step(const hd_polytope *p, int f, int a, int b)
{
    int s = p->face_offset[f], e = p->face_offset[f + 1];
    for (int k = s; k < e; ++k) {
        int next = p->face_verts[k + 1 < e ? k + 1 : s];
        if (p->face_verts[k] == a && next == b) return 1;
    }
    return 0;
}

static void check_adjacency(const hd_polytope *p)
{
    for (int v = 0; v < p->vertex_count; ++v) {
        for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
            int w = p->vert_adj[k], e = p->vert_edges[k], back = 0;
            int ev[2], ef[2];
            assert_int_equal(hd_polytope_edge(p, e, ev, ef), HD_OK);
            assert_true((ev[0] == v && ev[1] == w) || (ev[0] == w && ev[1] == v));
            for (int j = p->vert_offset[w]; j < p->vert_offset[w + 1]; ++j) back += p->vert_adj[j] == v;
            assert_int_equal(back, 1);
        }
    }
}

/* Edges run counter-clockwise in their first face and clockwise in the second; face_edges and
 * face_adj are aligned with loop positions. */
static void check_edges_and_faces(const hd_polytope *p)
{
    for (int e = 0; e < p->edge_count; ++e) {
        int ev[2], ef[2];
        assert_int_equal(hd_polytope_edge(p, e, ev, ef), HD_OK);
        assert_int_not_equal(ev[0], ev[1]);
        assert_int_not_equal(ef[0], ef[1]);
        assert_true(loop_has_step(p, ef[0], ev[0], ev[1]));
        assert_true(loop_has_step(p, ef[1], ev[1], ev[0]));
    }
    for (int f = 0; f < p->face_count; ++f) {
        int s = p->face_offset[f], end = p->face_offset[f + 1];
        for (int k = s; k < end; ++k) {
            int ev[2], ef[2];
            int a = p->face_verts[k], b = p->face_verts[k + 1 < end ? k + 1 : s];
            assert_int_equal(hd_polytope_edge(p, p->face_edges[k], ev, ef), HD_OK);
            assert_true((ev[0] == a && ev[1] == b) || (ev[0] == b && ev[1] == a));
            int other = ef[0] == f ? ef[1] : ef[0];
            assert_true(ef[0] == f || ef[1] == f);
            assert_int_equal(p->face_adj[k], other);
        }
    }
    assert_int_equal(hd_polytope_edge(p, -1, NULL, NULL), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_polytope_edge(p, p->edge_count, NULL, NULL), HD_ERR_INVALID_ARG);
}

/* The face in which the loop steps from a to b, found through the edge joining them (the edge
 * runs counter-clockwise, v0 -> v1, in its first face), and confirmed in that face's loop. */
static int face_of_step(const hd_polytope *p, int e, int a, int b)
{
    int ev[2], ef[2];
    assert_int_equal(hd_polytope_edge(p, e, ev, ef), HD_OK);
    int f = ev[0] == a ? ef[0] : ef[1];
    assert_true(loop_has_step(p, f, a, b));
    return f;
}

/* Every reported vertex is extreme: it maximises, over all input points other than its copies,
 * the sum d of the normals of its faces, strictly up to tol (a face whose facets were merged at
 * the coordinates' resolution carries its seed facet's normal, off the exact one by about that
 * much; check_vertex_set_contract proves extremality exactly). Its neighbours are listed
 * counter-clockwise seen from outside: consecutive neighbours w0, w1 bound one face f at v (w0
 * follows v in f's loop, w1 precedes it) and turn counter-clockwise around f's normal (convex
 * faces: v is not more than tol outside the chord w0 w1). */
static void check_extreme_certificates(const hd_polytope *p, const double *xyz, int n, double tol)
{
    for (int v = 0; v < p->vertex_count; ++v) {
        int b = p->vert_offset[v], deg = p->vert_offset[v + 1] - b;
        assert_true(deg >= 3);
        const double *pv = p->verts + 3 * v;
        double d[3] = {0, 0, 0};
        for (int k = 0; k < deg; ++k) {
            int i0 = p->vert_adj[b + k], i1 = p->vert_adj[b + (k + 1) % deg];
            int face = face_of_step(p, p->vert_edges[b + k], v, i0);
            assert_true(loop_has_step(p, face, i1, v));
            const double *nf = p->face_normal + 3 * face;
            for (int c = 0; c < 3; ++c) d[c] += nf[c];
            const double *w0 = p->verts + 3 * i0, *w1 = p->verts + 3 * i1;
            double a0[3], a1[3];
            for (int c = 0; c < 3; ++c) {
                a0[c] = w0[c] - pv[c];
                a1[c] = w1[c] - pv[c];
            }
            double x[3] = {a0[1] * a1[2] - a0[2] * a1[1], a0[2] * a1[0] - a0[0] * a1[2],
                           a0[0] * a1[1] - a0[1] * a1[0]};
            double chord[3] = {w0[0] - w1[0], w0[1] - w1[1], w0[2] - w1[2]};
            assert_true(dot3(x, nf) > -tol * sqrt(dot3(chord, chord)));
        }
        for (int i = 0; i < n; ++i) {
            if (same_point(xyz + 3 * i, pv)) continue;
            assert_true(dot3(d, xyz + 3 * i) < dot3(d, pv) + sqrt(dot3(d, d)) * tol);
        }
    }
}

static void check_bounds_and_sphere(const hd_polytope *p, const double *xyz, int n, double tol)
{
    double lo[3], hi[3], c[3], r;
    hd_polytope_bounds(p, lo, hi);
    hd_polytope_sphere(p, c, &r);
    for (int k = 0; k < 3; ++k) {
        double mn = INFINITY, mx = -INFINITY;
        for (int v = 0; v < p->vertex_count; ++v) {
            if (p->verts[3 * v + k] < mn) mn = p->verts[3 * v + k];
            if (p->verts[3 * v + k] > mx) mx = p->verts[3 * v + k];
        }
        assert_true(lo[k] == mn && hi[k] == mx);
    }
    double half_diag = 0.5 * sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                                  (hi[2] - lo[2]) * (hi[2] - lo[2]));
    assert_true(r <= half_diag * (1 + 1e-12));
    for (int i = 0; i < n; ++i) {
        const double *x = xyz + 3 * i;
        double dd = sqrt((x[0] - c[0]) * (x[0] - c[0]) + (x[1] - c[1]) * (x[1] - c[1]) +
                         (x[2] - c[2]) * (x[2] - c[2]));
        assert_true(dd <= r + tol);
    }
}

/* Vertices are input points; every input point lies inside every face plane (within tol); face
 * loops lie on their plane; normals are unit; interior points strictly inside; V - E + F = 2. */
static void check_solid(const hd_polytope *p, const double *xyz, int n)
{
    double tol = hull_tol(xyz, n);
    assert_int_equal(hd_polytope_dimension(p), 3);
    assert_int_equal(p->vertex_count - p->edge_count + p->face_count, 2);
    assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
    for (int v = 0; v < p->vertex_count; ++v) assert_true(find_input(p->verts + 3 * v, xyz, n) >= 0);
    for (int f = 0; f < p->face_count; ++f) {
        double nrm[3], d;
        const int *loop;
        int m = hd_polytope_face(p, f, nrm, &d, &loop);
        assert_true(m >= 3);
        assert_true(fabs(sqrt(dot3(nrm, nrm)) - 1.0) < 1e-14);
        for (int i = 0; i < n; ++i) assert_true(dot3(nrm, xyz + 3 * i) <= d + tol);
        for (int k = 0; k < m; ++k) assert_true(dot3(nrm, p->verts + 3 * loop[k]) >= d - tol);
    }
    for (int w = 0; w < 2; ++w) {
        double pt[3], clearance, least = INFINITY;
        hd_polytope_interior(p, w, pt, &clearance);
        for (int f = 0; f < p->face_count; ++f) {
            double s = p->face_dist[f] - dot3(p->face_normal + 3 * f, pt);
            assert_true(s > 0.0);
            if (s < least) least = s;
        }
        assert_true(fabs(least - clearance) <= 1e-12 * extent_of(xyz, n));
    }
    double a[3], b[3];
    hd_polytope_interior(p, 0, a, NULL);
    hd_polytope_interior(p, 1, b, NULL);
    assert_false(same_point(a, b));
    check_adjacency(p);
    check_edges_and_faces(p);
    check_extreme_certificates(p, xyz, n, tol);
    check_bounds_and_sphere(p, xyz, n, tol);
}

static hd_polytope *build_ok(const double *xyz, int n)
{
    hd_polytope *p = NULL;
    hd_status st = hd_polytope_build(xyz, n, NULL, &p);
    if (st != HD_OK) print_message("build failed: %s\n", hd_status_str(st));
    assert_int_equal(st, HD_OK);
    assert_non_null(p);
    return p;
}

static void shuffle_points(hd_rng *rng, double *xyz, int n)
{
    for (int i = n - 1; i > 0; --i) {
        int j = hd_rng_int(rng, i + 1);
        for (int k = 0; k < 3; ++k) {
            double t = xyz[3 * i + k];
            xyz[3 * i + k] = xyz[3 * j + k];
            xyz[3 * j + k] = t;
        }
    }
}

/* ---------- solids with known hulls ---------- */

static void check_box_faces(const hd_polytope *p, const double axes[9])
{
    /* axes: rows are the box's unit axes; each face normal is one signed axis, each once */
    int seen[6] = {0};
    assert_int_equal(p->vertex_count, 8);
    assert_int_equal(p->edge_count, 12);
    assert_int_equal(p->face_count, 6);
    for (int f = 0; f < 6; ++f) {
        assert_int_equal(p->face_offset[f + 1] - p->face_offset[f], 4);
        int match = -1;
        for (int s = 0; s < 6; ++s) {
            double sign = s < 3 ? 1.0 : -1.0;
            const double *ax = axes + 3 * (s % 3);
            double diff = 0.0;
            for (int c = 0; c < 3; ++c) diff += fabs(p->face_normal[3 * f + c] - sign * ax[c]);
            if (diff < 1e-12) match = s;
        }
        assert_true(match >= 0);
        seen[match]++;
    }
    for (int s = 0; s < 6; ++s) assert_int_equal(seen[s], 1);
}

/* A sliver triangle whose two close corners are 7.6e-6 apart: three points are at most a triangle
 * whatever rounding does to the normal of their plane (a Python property test drew it; it used to
 * be sent to Qhull as a solid and fail). */
static void test_sliver_triangle_of_three_points(void **state)
{
    (void)state;
    const double pts[9] = {0.0, -0.125, 0.0, 0.125, 0.0, -0.75, 7.62939453125e-06, -0.125, 0.0};
    hd_polytope *p = NULL;
    assert_int_equal(hd_polytope_build(pts, 3, NULL, &p), HD_OK);
    assert_int_equal(hd_polytope_dimension(p), 2);
    assert_int_equal(hd_polytope_vertex_count(p), 3);
    hd_polytope_destroy(p);
}

static void test_cube(void **state)
{
    (void)state;
    double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1}, xyz[24];
    hd_points_box(lo, hi, xyz);
    hd_polytope *p = build_ok(xyz, 8);
    static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    check_box_faces(p, identity);
    for (int f = 0; f < 6; ++f) assert_true(p->face_dist[f] == 1.0);
    check_solid(p, xyz, 8);
    hd_polytope_destroy(p);
}

/* Corners, face grids, edge midpoints, interior points and duplicates, shuffled: the hull is
 * still the cube, 8 vertices that are exactly the corners. */
static void test_cube_with_extra_points(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 1);
    double *xyz = malloc(sizeof(double) * 3 * 2000);
    int n = 0;
    for (int i = 0; i < 8; ++i) {
        for (int rep = 0; rep < 3; ++rep) {
            for (int k = 0; k < 3; ++k) xyz[3 * n + k] = (i >> k) & 1 ? 2.0 : -2.0;
            ++n;
        }
    }
    for (int axis = 0; axis < 3; ++axis) {
        for (int side = 0; side < 2; ++side) {
            for (int u = 0; u <= 4; ++u) {
                for (int v = 0; v <= 4; ++v) {
                    xyz[3 * n + axis] = side ? 2.0 : -2.0;
                    xyz[3 * n + (axis + 1) % 3] = -2.0 + u;
                    xyz[3 * n + (axis + 2) % 3] = -2.0 + v;
                    ++n;
                }
            }
        }
    }
    for (int i = 0; i < 300; ++i, ++n) {
        for (int k = 0; k < 3; ++k) xyz[3 * n + k] = hd_rng_uniform(&rng, -1.999, 1.999);
    }
    shuffle_points(&rng, xyz, n);
    hd_polytope *p = build_ok(xyz, n);
    static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    check_box_faces(p, identity);
    for (int v = 0; v < 8; ++v) {
        for (int k = 0; k < 3; ++k) assert_true(fabs(p->verts[3 * v + k]) == 2.0);
    }
    check_solid(p, xyz, n);
    hd_polytope_destroy(p);
    free(xyz);
}

/* Boxes under random rotations: the corners' rounding leaves each face's four corners coplanar
 * only to within rounding, yet the hull must have six quadrilaterals whose normals are the
 * rotated axes (the rows of R^T, i.e. the columns of R). */
static void test_rotated_boxes(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 2);
    for (int trial = 0; trial < 50; ++trial) {
        double h[3], t[3], lo[3], hi[3], box[24], xyz[24], axes[9];
        for (int k = 0; k < 3; ++k) {
            h[k] = hd_rng_uniform(&rng, 0.1, 3.0);
            lo[k] = -h[k];
            hi[k] = h[k];
            t[k] = hd_rng_uniform(&rng, -5, 5);
        }
        hd_points_box(lo, hi, box);
        hd_pose pose = hd_rng_pose(&rng, t);
        for (int i = 0; i < 8; ++i) hd_pose_apply(&pose, box + 3 * i, xyz + 3 * i);
        for (int a = 0; a < 3; ++a) {
            for (int c = 0; c < 3; ++c) axes[3 * a + c] = pose.r[3 * c + a];
        }
        hd_polytope *p = build_ok(xyz, 8);
        check_box_faces(p, axes);
        check_solid(p, xyz, 8);
        hd_polytope_destroy(p);
    }
}

static void check_counts(const hd_polytope *p, int v, int e, int f, int face_size)
{
    assert_int_equal(p->vertex_count, v);
    assert_int_equal(p->edge_count, e);
    assert_int_equal(p->face_count, f);
    for (int i = 0; i < f; ++i) assert_int_equal(p->face_offset[i + 1] - p->face_offset[i], face_size);
}

/* The Platonic solids (irrational coordinates for the last two: their faces are planar only to
 * rounding, so the pentagons of the dodecahedron must be merged). */
static void test_platonic_solids(void **state)
{
    (void)state;
    const double g = (1.0 + sqrt(5.0)) / 2.0, ig = 1.0 / g;
    double tet[12] = {1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1};
    double oct[18] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
    double ico[36], dod[60];
    int n = 0;
    for (int a = 0; a < 3; ++a) {
        for (int s = 0; s < 4; ++s) {
            double c[3];
            c[a] = 0.0;
            c[(a + 1) % 3] = (s & 1) ? 1.0 : -1.0;
            c[(a + 2) % 3] = (s & 2) ? g : -g;
            memcpy(ico + 3 * n++, c, sizeof c);
        }
    }
    n = 0;
    for (int i = 0; i < 8; ++i, ++n) {
        for (int k = 0; k < 3; ++k) dod[3 * n + k] = (i >> k) & 1 ? 1.0 : -1.0;
    }
    for (int a = 0; a < 3; ++a) {
        for (int s = 0; s < 4; ++s, ++n) {
            dod[3 * n + a] = 0.0;
            dod[3 * n + (a + 1) % 3] = (s & 1) ? ig : -ig;
            dod[3 * n + (a + 2) % 3] = (s & 2) ? g : -g;
        }
    }
    hd_polytope *p = build_ok(tet, 4);
    check_counts(p, 4, 6, 4, 3);
    check_solid(p, tet, 4);
    hd_polytope_destroy(p);
    p = build_ok(oct, 6);
    check_counts(p, 6, 12, 8, 3);
    check_solid(p, oct, 6);
    hd_polytope_destroy(p);
    p = build_ok(ico, 12);
    check_counts(p, 12, 30, 20, 3);
    check_solid(p, ico, 12);
    hd_polytope_destroy(p);
    p = build_ok(dod, 20);
    check_counts(p, 20, 30, 12, 5);
    check_solid(p, dod, 20);
    hd_polytope_destroy(p);
}

/* ---------- random clouds ---------- */

/* Uniform clouds (general position: every face a triangle, so F = 2V - 4), checked against the
 * exact extreme-point oracle. */
static void test_random_clouds(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 3);
    double xyz[3 * 80];
    for (int trial = 0; trial < 60; ++trial) {
        int n = 4 + hd_rng_int(&rng, 77);
        hd_points_cloud(&rng, n, hd_rng_uniform(&rng, 0.1, 10), hd_rng_uniform(&rng, 0.1, 10),
                        hd_rng_uniform(&rng, 0.1, 10), xyz);
        hd_polytope *p = build_ok(xyz, n);
        check_solid(p, xyz, n);
        check_vertex_set_exact(p, xyz, n);
        assert_int_equal(p->face_count, 2 * p->vertex_count - 4);
        hd_polytope_destroy(p);
    }
}

/* Points on an ellipsoid are all extreme (a strictly convex surface): V = n, E = 3n - 6,
 * F = 2n - 4, for 12 to 5000 points. */
static void test_ellipsoid_clouds(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 4);
    static const int sizes[] = {12, 20, 50, 100, 500, 1000, 2000, 5000};
    double *xyz = malloc(sizeof(double) * 3 * 5000);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        int n = sizes[s];
        hd_points_ellipsoid(&rng, n, 1.0, hd_rng_uniform(&rng, 0.3, 1.0),
                            hd_rng_uniform(&rng, 0.1, 1.0), xyz);
        clock_t t0 = clock();
        hd_polytope *p = build_ok(xyz, n);
        double ms = 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC;
        print_message("ellipsoid n=%d: build %.2f ms\n", n, ms);
        assert_int_equal(p->vertex_count, n);
        assert_int_equal(p->edge_count, 3 * n - 6);
        assert_int_equal(p->face_count, 2 * n - 4);
        check_solid(p, xyz, n);
        if (n <= 50) check_vertex_set_exact(p, xyz, n);
        hd_polytope_destroy(p);
    }
    free(xyz);
}

/* Every point three times, shuffled: the same vertex set as the plain cloud. */
static void test_duplicates(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 5);
    double base[3 * 40], xyz[3 * 120];
    for (int trial = 0; trial < 20; ++trial) {
        hd_points_cloud(&rng, 40, 1, 2, 3, base);
        for (int r = 0; r < 3; ++r) memcpy(xyz + 3 * 40 * r, base, sizeof base);
        shuffle_points(&rng, xyz, 120);
        hd_polytope *a = build_ok(base, 40), *b = build_ok(xyz, 120);
        assert_int_equal(a->vertex_count, b->vertex_count);
        assert_int_equal(a->face_count, b->face_count);
        for (int v = 0; v < b->vertex_count; ++v) assert_true(find_input(b->verts + 3 * v, base, 40) >= 0);
        for (int v = 0; v < a->vertex_count; ++v) assert_true(find_input(a->verts + 3 * v, b->verts, b->vertex_count) >= 0);
        check_solid(b, xyz, 120);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
}

/* Canonical combinatorial hull: each face as its loop of input indices, rotated to start at its
 * smallest index, faces sorted. */
static int cmp_face(const void *a, const void *b)
{
    const int *x = a, *y = b;
    for (int i = 0; i < 8; ++i) {
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return 0;
}

static int *canonical_faces(const hd_polytope *p, const double *xyz, int n)
{
    int *faces = calloc((size_t)p->face_count * 8, sizeof(int));
    for (int f = 0; f < p->face_count; ++f) {
        const int *loop;
        int m = hd_polytope_face(p, f, NULL, NULL, &loop);
        assert_true(m < 8);
        int ids[8], start = 0;
        for (int k = 0; k < m; ++k) {
            ids[k] = find_input(p->verts + 3 * loop[k], xyz, n);
            if (ids[k] < ids[start]) start = k;
        }
        faces[8 * f] = m;
        for (int k = 0; k < m; ++k) faces[8 * f + 1 + k] = ids[(start + k) % m];
    }
    qsort(faces, (size_t)p->face_count, 8 * sizeof(int), cmp_face);
    return faces;
}

/* The same cloud scaled by 1e-6 and 1e6 has the same combinatorial hull as at scale 1, and so
 * do the extreme magnitudes 1e+-200 and 1e+-300 (whose squared lengths would overflow or
 * underflow; checked by validate and the exact vertex mapping only, since this test's own
 * distance computations would overflow there). */
static void test_scale_invariance(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 6);
    static const double scales[] = {1e-6, 1e6, 1e-3, 1e9, 1e-200, 1e200, 1e-300, 1e300};
    double base[3 * 300], xyz[3 * 300];
    for (int trial = 0; trial < 10; ++trial) {
        int n = 20 + hd_rng_int(&rng, 280);
        if (trial % 2) {
            hd_points_cloud(&rng, n, 1, 2, 0.5, base);
        } else {
            hd_points_ellipsoid(&rng, n, 1, 0.7, 0.4, base);
        }
        hd_polytope *ref = build_ok(base, n);
        int *rf = canonical_faces(ref, base, n);
        for (size_t s = 0; s < sizeof scales / sizeof scales[0]; ++s) {
            for (int i = 0; i < 3 * n; ++i) xyz[i] = base[i] * scales[s];
            if (scales[s] > HD_MAX_COORD) { /* refused: beyond the supported range (core.h) */
                hd_polytope *q = NULL;
                assert_int_equal(hd_polytope_build(xyz, n, NULL, &q), HD_ERR_RANGE);
                assert_null(q);
                continue;
            }
            hd_polytope *p = build_ok(xyz, n);
            assert_int_equal(p->face_count, ref->face_count);
            int *pf = canonical_faces(p, xyz, n);
            assert_memory_equal(pf, rf, sizeof(int) * 8 * (size_t)ref->face_count);
            assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
            if (s < 4) check_solid(p, xyz, n);
            free(pf);
            hd_polytope_destroy(p);
        }
        free(rf);
        hd_polytope_destroy(ref);
    }
}

/* ---------- near-coplanar merging ---------- */

/* A cube whose face centres are raised by h. Below the coordinates' resolution (h = 1e-14 of the
 * size) they merge into the faces (8 vertices, 6 quads); at h = 1e-12, far inside the old 1e-9
 * merging tolerance, and at h = 1e-4 they are true apexes of 4-triangle pyramids (14 vertices,
 * 24 faces, 36 edges): the hull is the exact hull of the points, not one within a tolerance. */
static void test_near_coplanar_merge(void **state)
{
    (void)state;
    static const double heights[3] = {1e-14, 1e-12, 1e-4};
    for (int c = 0; c < 3; ++c) {
        double xyz[3 * 14], lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
        hd_points_box(lo, hi, xyz);
        for (int f = 0; f < 6; ++f) {
            double *q = xyz + 3 * (8 + f);
            q[0] = q[1] = q[2] = 0.0;
            q[f % 3] = (f < 3 ? 1.0 : -1.0) * (1.0 + heights[c]);
        }
        hd_polytope *p = build_ok(xyz, 14);
        if (c == 0) {
            static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
            check_box_faces(p, identity);
            assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
        } else {
            check_counts(p, 14, 36, 24, 3);
            check_solid(p, xyz, 14);
        }
        hd_polytope_destroy(p);
    }
}

/* Points scattered over the faces of a rotated box and pushed off their face by h/2 to h, out or
 * in: from h = 1e-12 of the size (ten times the coordinates' resolution) up to 1e-8, through the
 * 1e-9 within which hulls used to be merged. Every vertex is a point the exact oracle calls
 * extreme, every point lies inside every face plane to the resolution (check_solid), and the
 * extreme points left out (only those within the resolution of the others' hull may be) are
 * counted and printed. The merged hulls of old failed here: they left out points up to 1e-9
 * outside, which check_solid rejects. */
static void test_near_coplanar_exact(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 12);
    static const double heights[] = {1e-12, 1e-11, 1e-10, 1e-9, 1e-8};
    double local[3 * 40], xyz[3 * 40];
    for (size_t h = 0; h < sizeof heights / sizeof heights[0]; ++h) {
        int left_out = 0, extreme_vertices = 0;
        for (int trial = 0; trial < 6; ++trial) {
            int n = 40;
            double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
            hd_points_box(lo, hi, local); /* the corners keep the box */
            for (int i = 8; i < n; ++i) {
                double *q = local + 3 * i;
                int axis = hd_rng_int(&rng, 3), side = hd_rng_int(&rng, 2);
                for (int k = 0; k < 3; ++k) q[k] = hd_rng_uniform(&rng, -0.9, 0.9);
                double push = heights[h] * hd_rng_uniform(&rng, 0.5, 1.0);
                q[axis] = (side ? 1.0 : -1.0) * (1.0 + (hd_rng_int(&rng, 2) ? push : -push));
            }
            double t[3] = {hd_rng_uniform(&rng, -2, 2), hd_rng_uniform(&rng, -2, 2), 0.5};
            hd_pose pose = hd_rng_pose(&rng, t);
            for (int i = 0; i < n; ++i) hd_pose_apply(&pose, local + 3 * i, xyz + 3 * i);
            hd_polytope *p = build_ok(xyz, n);
            check_solid(p, xyz, n);
            left_out += check_vertex_set_contract(p, xyz, n);
            extreme_vertices += p->vertex_count;
            hd_polytope_destroy(p);
        }
        print_message("h = %g: %d vertices, %d extreme points within the resolution left out\n",
                      heights[h], extreme_vertices, left_out);
    }
}

/* A randomly rotated cube with every face subdivided into a 6 x 6 grid of points: Qhull sees
 * many nearly coplanar facets; the result must be the 8 corners and 6 quadrilaterals. */
static void test_rotated_grid_cube(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 7);
    double grid[3 * 216], xyz[3 * 216];
    int n = 0;
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {
            for (int k = 0; k < 6; ++k) {
                if (i % 5 && j % 5 && k % 5) continue; /* surface points only */
                grid[3 * n] = -1.0 + 0.4 * i;
                grid[3 * n + 1] = -1.0 + 0.4 * j;
                grid[3 * n + 2] = -1.0 + 0.4 * k;
                ++n;
            }
        }
    }
    for (int trial = 0; trial < 20; ++trial) {
        double t[3] = {hd_rng_uniform(&rng, -3, 3), hd_rng_uniform(&rng, -3, 3), 0.5};
        hd_pose pose = hd_rng_pose(&rng, t);
        double axes[9];
        for (int i = 0; i < n; ++i) hd_pose_apply(&pose, grid + 3 * i, xyz + 3 * i);
        for (int a = 0; a < 3; ++a) {
            for (int c = 0; c < 3; ++c) axes[3 * a + c] = pose.r[3 * c + a];
        }
        hd_polytope *p = build_ok(xyz, n);
        check_box_faces(p, axes);
        assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
        for (int i = 0; i < n; ++i) {
            for (int f = 0; f < 6; ++f) {
                assert_true(dot3(p->face_normal + 3 * f, xyz + 3 * i) <= p->face_dist[f] + 1e-9);
            }
        }
        hd_polytope_destroy(p);
    }
}

/* ---------- lower dimensions ---------- */

/* In-plane checks of a polygon: vertices counter-clockwise around plane_normal (strict left
 * turns), every input point within tol of the plane and inside every edge line. */
static void check_polygon(const hd_polytope *p, const double *xyz, int n)
{
    double tol = hull_tol(xyz, n);
    int m = p->vertex_count;
    assert_int_equal(hd_polytope_dimension(p), 2);
    assert_int_equal(p->edge_count, m);
    assert_int_equal(p->face_count, 2);
    assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
    const double *pn = p->plane_normal;
    assert_true(fabs(sqrt(dot3(pn, pn)) - 1.0) < 1e-14);
    for (int k = 0; k < 3; ++k) {
        assert_true(p->face_normal[k] == pn[k] && p->face_normal[3 + k] == -pn[k]);
    }
    for (int v = 0; v < m; ++v) {
        assert_true(find_input(p->verts + 3 * v, xyz, n) >= 0);
        const double *a = p->verts + 3 * v, *b = p->verts + 3 * ((v + 1) % m);
        const double *c = p->verts + 3 * ((v + 2) % m);
        double ab[3], bc[3], x[3];
        for (int k = 0; k < 3; ++k) {
            ab[k] = b[k] - a[k];
            bc[k] = c[k] - b[k];
        }
        x[0] = ab[1] * bc[2] - ab[2] * bc[1];
        x[1] = ab[2] * bc[0] - ab[0] * bc[2];
        x[2] = ab[0] * bc[1] - ab[1] * bc[0];
        if (!(dot3(x, pn) > 0.0)) print_message("turn %g at v=%d of %d, n=%d\n", dot3(x, pn), v, m, n);
        assert_true(dot3(x, pn) > 0.0);
        double out[3] = {ab[1] * pn[2] - ab[2] * pn[1], ab[2] * pn[0] - ab[0] * pn[2],
                         ab[0] * pn[1] - ab[1] * pn[0]};
        double len = sqrt(dot3(out, out));
        for (int i = 0; i < n; ++i) {
            double w[3] = {xyz[3 * i] - a[0], xyz[3 * i + 1] - a[1], xyz[3 * i + 2] - a[2]};
            assert_true(dot3(out, w) / len <= tol);
        }
    }
    for (int i = 0; i < n; ++i) assert_true(fabs(dot3(pn, xyz + 3 * i) - p->plane_dist) <= tol);
    for (int e = 0; e < m; ++e) {
        int ev[2], ef[2];
        assert_int_equal(hd_polytope_edge(p, e, ev, ef), HD_OK);
        assert_true(ev[0] == e && ev[1] == (e + 1) % m && ef[0] == 0 && ef[1] == 1);
    }
    check_adjacency(p);
    check_edges_and_faces(p);
    double a[3], b[3], ca, cb;
    hd_polytope_interior(p, 0, a, &ca);
    hd_polytope_interior(p, 1, b, &cb);
    assert_false(same_point(a, b));
    assert_true(ca == 0.0 && cb == 0.0);
}

/* Exactly coplanar sets (z = const, and the tilted plane z = x, both exact in doubles), checked
 * against the exact oracle; a 5 x 5 grid has only its 4 corners as vertices; a rotated plane
 * (coplanar to rounding) gives a valid polygon. */
static void test_coplanar(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 8);
    double xyz[3 * 60];
    for (int trial = 0; trial < 30; ++trial) {
        int n = 3 + hd_rng_int(&rng, 50);
        for (int i = 0; i < n; ++i) {
            double x = hd_rng_uniform(&rng, -1, 1), y = hd_rng_uniform(&rng, -2, 2);
            xyz[3 * i] = x;
            xyz[3 * i + 1] = y;
            xyz[3 * i + 2] = trial % 2 ? x : 0.25;
        }
        hd_polytope *p = build_ok(xyz, n);
        check_polygon(p, xyz, n);
        check_vertex_set_exact(p, xyz, n);
        hd_polytope_destroy(p);
    }
    int n = 0;
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j, ++n) {
            xyz[3 * n] = i;
            xyz[3 * n + 1] = 2 * j;
            xyz[3 * n + 2] = 3.0;
        }
    }
    hd_polytope *p = build_ok(xyz, n);
    check_polygon(p, xyz, n);
    assert_int_equal(p->vertex_count, 4);
    hd_polytope_destroy(p);
    for (int trial = 0; trial < 20; ++trial) {
        double flat[3 * 40];
        n = 3 + hd_rng_int(&rng, 37);
        for (int i = 0; i < n; ++i) {
            flat[3 * i] = hd_rng_uniform(&rng, -1, 1);
            flat[3 * i + 1] = hd_rng_uniform(&rng, -1, 1);
            flat[3 * i + 2] = 0.0;
        }
        double t[3] = {1, 2, 3};
        hd_pose pose = hd_rng_pose(&rng, t);
        for (int i = 0; i < n; ++i) hd_pose_apply(&pose, flat + 3 * i, xyz + 3 * i);
        p = build_ok(xyz, n);
        check_polygon(p, xyz, n);
        hd_polytope_destroy(p);
    }
}

/* Collinear points: the segment between the points of smallest and largest parameter. */
static void test_collinear(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 9);
    double xyz[3 * 50];
    for (int trial = 0; trial < 30; ++trial) {
        int n = 2 + hd_rng_int(&rng, 48);
        double o[3], u[3];
        for (int k = 0; k < 3; ++k) o[k] = hd_rng_uniform(&rng, -10, 10);
        hd_rng_unit_vector(&rng, u);
        int imin = 0, imax = 0;
        double tmin = INFINITY, tmax = -INFINITY;
        for (int i = 0; i < n; ++i) {
            double t = hd_rng_uniform(&rng, -5, 5);
            if (t < tmin) { tmin = t; imin = i; }
            if (t > tmax) { tmax = t; imax = i; }
            for (int k = 0; k < 3; ++k) xyz[3 * i + k] = o[k] + t * u[k];
        }
        hd_polytope *p = build_ok(xyz, n);
        assert_int_equal(hd_polytope_dimension(p), 1);
        assert_int_equal(p->vertex_count, 2);
        assert_int_equal(p->edge_count, 1);
        assert_int_equal(p->face_count, 0);
        int a = find_input(p->verts, xyz, n), b = find_input(p->verts + 3, xyz, n);
        assert_true((a == imin && b == imax) || (a == imax && b == imin));
        int ev[2], ef[2];
        assert_int_equal(hd_polytope_edge(p, 0, ev, ef), HD_OK);
        assert_true(ev[0] == 0 && ev[1] == 1 && ef[0] == -1 && ef[1] == -1);
        assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
        check_adjacency(p);
        double x0[3], x1[3], c;
        hd_polytope_interior(p, 0, x0, &c);
        hd_polytope_interior(p, 1, x1, NULL);
        assert_false(same_point(x0, x1));
        assert_true(c == 0.0);
        hd_polytope_destroy(p);
    }
}

static void test_single_point(void **state)
{
    (void)state;
    double xyz[3 * 20];
    for (int i = 0; i < 20; ++i) {
        xyz[3 * i] = 1.5;
        xyz[3 * i + 1] = -2.25;
        xyz[3 * i + 2] = 1e6;
    }
    for (int n = 1; n <= 20; n += 19) {
        hd_polytope *p = build_ok(xyz, n);
        assert_int_equal(hd_polytope_dimension(p), 0);
        assert_int_equal(p->vertex_count, 1);
        assert_int_equal(p->edge_count, 0);
        assert_int_equal(p->face_count, 0);
        assert_true(same_point(p->verts, xyz));
        double a[3], b[3], r, c[3];
        hd_polytope_interior(p, 0, a, NULL);
        hd_polytope_interior(p, 1, b, NULL);
        assert_true(same_point(a, xyz) && same_point(b, xyz));
        hd_polytope_sphere(p, c, &r);
        assert_true(same_point(c, xyz) && r == 0.0);
        assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
        assert_int_equal(hd_polytope_edge(p, 0, NULL, NULL), HD_ERR_INVALID_ARG);
        assert_int_equal(hd_polytope_face(p, 0, NULL, NULL, NULL), 0);
        hd_polytope_destroy(p);
    }
}

/* A slab of thickness h: below the coordinates' resolution (512 DBL_EPSILON of the size) it is a
 * polygon, above it a solid with valid topology whose faces hold every point to that resolution;
 * with convex_rel = 0 (it plays no part in hulls) the same holds near the resolution itself. */
static void test_thin_slabs(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 10);
    static const double thickness[] = {1e-15, 1e-14, 1e-12, 1e-10, 1e-8, 1e-6, 1e-3};
    double xyz[3 * 40];
    for (size_t s = 0; s < sizeof thickness / sizeof thickness[0]; ++s) {
        hd_points_cloud(&rng, 40, 1, 1, 0, xyz);
        for (int i = 0; i < 40; ++i) xyz[3 * i + 2] = (i % 2) ? thickness[s] : 0.0;
        hd_polytope *p = build_ok(xyz, 40);
        if (thickness[s] < 512 * DBL_EPSILON) {
            check_polygon(p, xyz, 40);
        } else {
            check_solid(p, xyz, 40);
        }
        hd_polytope_destroy(p);
    }
    hd_tolerance tol = hd_tolerance_default();
    tol.convex_rel = 0.0;
    static const double tiny[] = {1e-15, 1e-14, 1e-13, 3e-13, 1e-12};
    for (size_t s = 0; s < sizeof tiny / sizeof tiny[0]; ++s) {
        hd_points_cloud(&rng, 40, 1, 1, 0, xyz);
        for (int i = 0; i < 40; ++i) xyz[3 * i + 2] = (i % 3 == 0) ? tiny[s] : 0.0;
        hd_polytope *p = NULL;
        assert_int_equal(hd_polytope_build(xyz, 40, &tol, &p), HD_OK);
        assert_true(p->dim == 2 || p->dim == 3);
        assert_int_equal(hd_polytope_validate(p, &tol), HD_OK);
        hd_polytope_destroy(p);
    }
}

/* ---------- errors, silence, accessors ---------- */

static void test_bad_inputs(void **state)
{
    (void)state;
    double xyz[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    hd_polytope *p = (hd_polytope *)&p; /* must be reset to NULL on error */
    assert_int_equal(hd_polytope_build(NULL, 4, NULL, &p), HD_ERR_NULL);
    assert_null(p);
    assert_int_equal(hd_polytope_build(xyz, 4, NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_polytope_build(xyz, 0, NULL, &p), HD_ERR_EMPTY);
    assert_int_equal(hd_polytope_build(xyz, -3, NULL, &p), HD_ERR_EMPTY);
    /* checked before anything is read or allocated: the array is far smaller than the count */
    assert_int_equal(hd_polytope_build(xyz, HD_MAX_POINTS + 1, NULL, &p), HD_ERR_TOO_LARGE);
    assert_null(p);
    static const double bad_values[3] = {NAN, INFINITY, -INFINITY};
    for (int b = 0; b < 3; ++b) {
        for (int i = 0; i < 12; i += 5) {
            double copy[12];
            memcpy(copy, xyz, sizeof copy);
            copy[i] = bad_values[b];
            assert_int_equal(hd_polytope_build(copy, 4, NULL, &p), HD_ERR_NONFINITE);
            assert_null(p);
        }
    }
    hd_tolerance tol = hd_tolerance_default();
    tol.convex_rel = -1.0;
    assert_int_not_equal(hd_polytope_build(xyz, 4, &tol, &p), HD_OK);
    assert_null(p);
    tol.convex_rel = NAN;
    assert_int_not_equal(hd_polytope_build(xyz, 4, &tol, &p), HD_OK);
    assert_null(p);
    assert_int_equal(hd_polytope_validate(NULL, NULL), HD_ERR_NULL);
    hd_polytope_destroy(NULL);
}

/* The library never prints: both standard streams are redirected to a file around builds of
 * inputs that make Qhull talk (flat, nearly flat, degenerate), and the file must stay empty. */
static void test_never_prints(void **state)
{
    (void)state;
    FILE *sink = tmpfile();
    assert_non_null(sink);
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(1), saved_err = dup(2);
    dup2(fileno(sink), 1);
    dup2(fileno(sink), 2);
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 11);
    double xyz[3 * 50];
    hd_tolerance tol = hd_tolerance_default();
    tol.convex_rel = 0.0;
    for (int trial = 0; trial < 40; ++trial) {
        hd_points_cloud(&rng, 50, 1, 1, 1, xyz);
        double h = pow(10.0, -8.0 - trial % 9);
        for (int i = 0; i < 50; ++i) xyz[3 * i + 2] = (i % 4 == 0) ? h : 0.0;
        hd_polytope *p = NULL;
        hd_polytope_build(xyz, 50, &tol, &p);
        hd_polytope_destroy(p);
        hd_polytope_build(xyz, 50, NULL, &p);
        hd_polytope_destroy(p);
    }
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    long size = (fseek(sink, 0, SEEK_END) == 0) ? ftell(sink) : -1;
    fclose(sink);
    assert_int_equal(size, 0);
}

static void test_accessors(void **state)
{
    (void)state;
    double tet[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    hd_polytope *p = build_ok(tet, 4);
    assert_int_equal(hd_polytope_vertex_count(p), 4);
    assert_int_equal(hd_polytope_edge_count(p), 6);
    assert_int_equal(hd_polytope_face_count(p), 4);
    assert_non_null(hd_polytope_vertices(p));
    assert_int_equal(hd_polytope_face(p, -1, NULL, NULL, NULL), 0);
    assert_int_equal(hd_polytope_face(p, 4, NULL, NULL, NULL), 0);
    assert_int_equal(hd_polytope_face(p, 3, NULL, NULL, NULL), 3);
    assert_int_equal(hd_polytope_edge(NULL, 0, NULL, NULL), HD_ERR_NULL);
    /* the slanted face x + y + z = 1 has normal (1,1,1)/sqrt(3) and offset 1/sqrt(3) */
    int slanted = 0;
    for (int f = 0; f < 4; ++f) {
        double n[3], d;
        hd_polytope_face(p, f, n, &d, NULL);
        if (n[0] > 0.5 && n[1] > 0.5 && n[2] > 0.5) {
            ++slanted;
            for (int k = 0; k < 3; ++k) assert_true(fabs(n[k] - 1.0 / sqrt(3.0)) < 1e-15);
            assert_true(fabs(d - 1.0 / sqrt(3.0)) < 1e-15);
        }
    }
    assert_int_equal(slanted, 1);
    hd_polytope_destroy(p);
}

/* hd_polytope_validate must be able to fail: corrupt a built polytope in several ways. */
static void test_validate_detects_corruption(void **state)
{
    (void)state;
    double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 3}, xyz[24];
    hd_points_box(lo, hi, xyz);
    hd_polytope *p = build_ok(xyz, 8);
    assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);

    double saved = p->face_normal[0];
    p->face_normal[0] = -saved + (saved == 0.0 ? 0.5 : 0.0);
    assert_int_not_equal(hd_polytope_validate(p, NULL), HD_OK);
    p->face_normal[0] = saved;

    saved = p->face_dist[2];
    p->face_dist[2] = saved - 0.01; /* a vertex now outside */
    assert_int_equal(hd_polytope_validate(p, NULL), HD_ERR_NOT_CONVEX);
    p->face_dist[2] = saved;

    int adj = p->vert_adj[0];
    p->vert_adj[0] = (adj + 1) % 8 == 0 ? 1 : (adj + 1) % 8;
    assert_int_equal(hd_polytope_validate(p, NULL), HD_ERR_BAD_MESH);
    p->vert_adj[0] = adj;

    int fa = p->face_adj[0];
    p->face_adj[0] = (fa + 1) % 6;
    assert_int_equal(hd_polytope_validate(p, NULL), HD_ERR_BAD_MESH);
    p->face_adj[0] = fa;

    int ev = p->edge_verts[0];
    p->edge_verts[0] = p->edge_verts[1];
    p->edge_verts[1] = ev;
    assert_int_equal(hd_polytope_validate(p, NULL), HD_ERR_BAD_MESH);
    p->edge_verts[1] = p->edge_verts[0];
    p->edge_verts[0] = ev;

    int w = p->interior[0].index[0];
    p->interior[0].index[0] = 99;
    assert_int_equal(hd_polytope_validate(p, NULL), HD_ERR_BAD_MESH);
    p->interior[0].index[0] = w;

    assert_int_equal(hd_polytope_validate(p, NULL), HD_OK);
    hd_polytope_destroy(p);
}

/* ---------- data files ---------- */

/* tests/data point sets named for what they show; each is built and checked as a solid. */
static int read_xyz(const char *name, double *xyz, int cap)
{
    const char *dir = getenv("HEDRA_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", name);
    FILE *fp = fopen(path, "r");
    if (fp == NULL) return -1;
    int n = 0;
    char line[512];
    while (n < cap && fgets(line, sizeof line, fp) != NULL) {
        if (line[0] == '#') continue;
        if (sscanf(line, "%lf %lf %lf", xyz + 3 * n, xyz + 3 * n + 1, xyz + 3 * n + 2) == 3) ++n;
    }
    fclose(fp);
    return n;
}

static void test_data_files(void **state)
{
    (void)state;
    double xyz[3 * 512];
    int n = read_xyz("sliver_tetrahedra.xyz", xyz, 512);
    if (n < 0) {
        print_message("HEDRA_DATA not set or file missing; skipped\n");
        skip();
    }
    hd_polytope *p = build_ok(xyz, n);
    check_solid(p, xyz, n);
    check_vertex_set_exact(p, xyz, n);
    hd_polytope_destroy(p);
    n = read_xyz("cube_grid_with_interior.xyz", xyz, 512);
    assert_true(n > 8);
    p = build_ok(xyz, n);
    static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    check_box_faces(p, identity);
    check_solid(p, xyz, n);
    hd_polytope_destroy(p);
}

int main(void)
{
    g_seed = hd_test_seed("unit/polytope/polytope");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube),
        cmocka_unit_test(test_sliver_triangle_of_three_points),
        cmocka_unit_test(test_cube_with_extra_points),
        cmocka_unit_test(test_rotated_boxes),
        cmocka_unit_test(test_platonic_solids),
        cmocka_unit_test(test_random_clouds),
        cmocka_unit_test(test_ellipsoid_clouds),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_scale_invariance),
        cmocka_unit_test(test_near_coplanar_merge),
        cmocka_unit_test(test_near_coplanar_exact),
        cmocka_unit_test(test_rotated_grid_cube),
        cmocka_unit_test(test_coplanar),
        cmocka_unit_test(test_collinear),
        cmocka_unit_test(test_single_point),
        cmocka_unit_test(test_thin_slabs),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_never_prints),
        cmocka_unit_test(test_accessors),
        cmocka_unit_test(test_validate_detects_corruption),
        cmocka_unit_test(test_data_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
