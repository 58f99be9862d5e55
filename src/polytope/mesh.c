/* A solid from an explicit mesh: argument checks, closed 2-manifold checks, convexity check,
 * then the shared assembly (coplanar merge, topology, planes, interior points). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "polytope/build.h"

/* Face sizes and indices: sizes >= 3, indices in range, total bounded so no count overflows
 * (a polytope with V vertices has at most 6V - 12 loop entries). */
static hd_status mesh_check_indices(int vertex_count, const int *face_sizes,
                                    const int *face_indices, int face_count, int *total)
{
    int64_t sum = 0;
    for (int f = 0; f < face_count; ++f) {
        if (face_sizes[f] < 3) {
            return HD_ERR_INVALID_ARG;
        }
        sum += face_sizes[f];
        if (sum > 6 * (int64_t)HD_MAX_POINTS) {
            return HD_ERR_TOO_LARGE;
        }
    }
    for (int64_t k = 0; k < sum; ++k) {
        if (face_indices[k] < 0 || face_indices[k] >= vertex_count) {
            return HD_ERR_INVALID_ARG;
        }
    }
    *total = (int)sum;
    return HD_OK;
}

static hd_status mesh_check_args(const double *xyz, int vertex_count, const int *face_sizes,
                                 const int *face_indices, int face_count, int *total)
{
    if (face_sizes == NULL || face_indices == NULL) {
        return HD_ERR_NULL;
    }
    hd_status st = hdi_poly_check_points(xyz, vertex_count);
    if (st != HD_OK) {
        return st;
    }
    if (face_count <= 0) {
        return HD_ERR_EMPTY;
    }
    if (face_count > 2 * HD_MAX_POINTS) {
        return HD_ERR_TOO_LARGE;
    }
    return mesh_check_indices(vertex_count, face_sizes, face_indices, face_count, total);
}

/* Every vertex referenced, no vertex twice in one loop (stamp per face). */
static hd_status mesh_check_references(const hdi_loops *loops, int vertex_count)
{
    int *stamp = calloc((size_t)vertex_count, sizeof(int));
    if (stamp == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    hd_status st = HD_OK;
    for (int f = 0; f < loops->face_count && st == HD_OK; ++f) {
        for (int k = loops->offset[f]; k < loops->offset[f + 1]; ++k) {
            int v = loops->verts[k];
            if (stamp[v] == f + 1) {
                st = HD_ERR_BAD_MESH;
                break;
            }
            stamp[v] = f + 1;
        }
    }
    for (int v = 0; v < vertex_count && st == HD_OK; ++v) {
        if (stamp[v] == 0) {
            st = HD_ERR_BAD_MESH;
        }
    }
    free(stamp);
    return st;
}

/* Plane of a mesh face: Newell's area vector for the normal (see polytope/geometry.c), offset
 * through the vertex average. Returns twice the area. */
static double mesh_face_plane(const double *xyz, const int *loop, int m, double n[3], double *d)
{
    double c[3] = {0, 0, 0};
    for (int i = 0; i < m; ++i) {
        hdi_v3_add(c, c, xyz + 3 * loop[i]);
    }
    hdi_v3_scale(c, c, 1.0 / m);
    hdi_v3_set(n, 0, 0, 0);
    for (int i = 0; i < m; ++i) {
        double a[3], b[3], x[3];
        hdi_v3_sub(a, xyz + 3 * loop[i], c);
        hdi_v3_sub(b, xyz + 3 * loop[(i + 1) % m], c);
        hdi_v3_cross(x, a, b);
        hdi_v3_add(n, n, x);
    }
    double len = hdi_v3_normalize(n);
    *d = hdi_v3_dot(n, c);
    return len;
}

/* Signed volume of the closed surface (divergence theorem: sum over faces of c_f . A_f / 3 with
 * A_f the area vector); positive when the loops run counter-clockwise seen from outside. */
static double mesh_volume(const double *xyz, const hdi_loops *loops)
{
    double vol = 0.0;
    for (int f = 0; f < loops->face_count; ++f) {
        const int *loop = loops->verts + loops->offset[f];
        int m = loops->offset[f + 1] - loops->offset[f];
        double n[3], d;
        double twice_area = mesh_face_plane(xyz, loop, m, n, &d);
        vol += d * twice_area / 6.0;
    }
    return vol;
}

static void violation_set(hd_mesh_violation *out, int face, int vertex, double excess)
{
    if (out != NULL) {
        out->face = face;
        out->vertex = vertex;
        out->excess = excess;
    }
}

/* Convexity (header contract): each face's vertices within tol of its plane, every vertex at
 * most tol outside every face plane. O(V F): the check is the definition, applied directly. */
static hd_status mesh_check_convex(const double *xyz, int vertex_count, const hdi_loops *loops,
                                   double tol, hd_mesh_violation *violation)
{
    for (int f = 0; f < loops->face_count; ++f) {
        const int *loop = loops->verts + loops->offset[f];
        int m = loops->offset[f + 1] - loops->offset[f];
        double n[3], d;
        if (!(mesh_face_plane(xyz, loop, m, n, &d) > 0.0)) {
            violation_set(violation, f, -1, 0.0);
            return HD_ERR_BAD_MESH;
        }
        for (int i = 0; i < m; ++i) {
            double x = hdi_v3_dot(n, xyz + 3 * loop[i]) - d;
            if (x > tol || -x > tol) {
                violation_set(violation, f, loop[i], x > 0 ? x : -x);
                return HD_ERR_NOT_CONVEX;
            }
        }
        for (int v = 0; v < vertex_count; ++v) {
            double x = hdi_v3_dot(n, xyz + 3 * v) - d;
            if (x > tol) {
                violation_set(violation, f, v, x);
                return HD_ERR_NOT_CONVEX;
            }
        }
    }
    return HD_OK;
}

/* The mesh's topology: references, closed 2-manifold (pairing and fans), one sphere (Euler),
 * outward orientation. */
static hd_status mesh_check_surface(const double *xyz, int vertex_count, const hdi_loops *loops)
{
    hd_status st = mesh_check_references(loops, vertex_count);
    if (st != HD_OK) {
        return st;
    }
    hdi_halfedges he;
    st = hdi_halfedges_build(loops, vertex_count, &he);
    if (st != HD_OK) {
        return st;
    }
    int edges = he.count / 2;
    hdi_halfedges_free(&he);
    if (vertex_count - edges + loops->face_count != 2) {
        return HD_ERR_BAD_MESH;
    }
    if (!(mesh_volume(xyz, loops) > 0.0)) {
        return HD_ERR_BAD_MESH;
    }
    return HD_OK;
}

static hd_status mesh_build(const double *xyz, int vertex_count, const hdi_loops *loops,
                            double tol_len, hd_polytope **out, hd_mesh_violation *violation)
{
    hdi_frame frame;
    hdi_affine_frame(xyz, vertex_count, tol_len, &frame);
    if (frame.dim < 3) {
        return HD_ERR_BAD_MESH; /* a flat or thinner set bounds no solid */
    }
    hd_status st = mesh_check_surface(xyz, vertex_count, loops);
    if (st == HD_OK) {
        st = mesh_check_convex(xyz, vertex_count, loops, tol_len, violation);
    }
    if (st == HD_OK) {
        st = hdi_solid_assemble(xyz, vertex_count, loops, tol_len, out);
    }
    return st;
}

hd_status hd_polytope_from_mesh(const double *xyz, int vertex_count, const int *face_sizes,
                                const int *face_indices, int face_count, const hd_tolerance *tol,
                                hd_polytope **out, hd_mesh_violation *violation)
{
    violation_set(violation, -1, -1, 0.0);
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    *out = NULL;
    int total = 0;
    hd_tolerance t;
    hd_status st = mesh_check_args(xyz, vertex_count, face_sizes, face_indices, face_count, &total);
    if (st == HD_OK) {
        st = hdi_poly_check_tolerance(tol, &t);
    }
    if (st != HD_OK) {
        return st;
    }
    hdi_loops loops;
    st = hdi_loops_alloc(&loops, face_count, total);
    if (st != HD_OK) {
        return st;
    }
    for (int f = 0; f < face_count; ++f) {
        loops.offset[f + 1] = loops.offset[f] + face_sizes[f];
    }
    memcpy(loops.verts, face_indices, (size_t)total * sizeof(int));
    double *xs;
    int e;
    st = hdi_poly_scaled_copy(xyz, vertex_count, &xs, &e);
    if (st == HD_OK) {
        double lo[3], hi[3], extent, max_abs;
        hdi_points_bounds(xs, vertex_count, lo, hi, &extent, &max_abs);
        double tol_len = hdi_poly_length_tol(t.convex_rel, extent, max_abs);
        st = mesh_build(xs, vertex_count, &loops, tol_len, out, violation);
        if (st == HD_OK) {
            hdi_poly_unscale(*out, e);
        }
        if (violation != NULL && e != 0) {
            violation->excess = ldexp(violation->excess, e);
        }
        if (xs != xyz) {
            free(xs);
        }
    }
    hdi_loops_free(&loops);
    return st;
}
