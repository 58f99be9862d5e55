/* Public entry points of the polytope module: construction from points, argument checks,
 * accessors. The construction pipeline is described in polytope/build.h. */
#include <math.h>
#include <stdlib.h>

#include "core/math.h"
#include "polytope/build.h"

hd_status hdi_poly_check_tolerance(const hd_tolerance *tol, hd_tolerance *resolved)
{
    if (tol == NULL) {
        *resolved = hd_tolerance_default();
        return HD_OK;
    }
    hd_status st = hd_tolerance_validate(tol);
    if (st != HD_OK) {
        return st;
    }
    *resolved = *tol;
    return HD_OK;
}

hd_status hdi_poly_check_points(const double *xyz, int count)
{
    if (xyz == NULL) {
        return HD_ERR_NULL;
    }
    if (count <= 0) {
        return HD_ERR_EMPTY; /* the header's list for build has no INVALID_ARG */
    }
    if (count > HD_MAX_POINTS) {
        return HD_ERR_TOO_LARGE;
    }
    int out_of_range = 0;
    for (long i = 0; i < 3L * count; ++i) {
        if (!isfinite(xyz[i])) {
            return HD_ERR_NONFINITE;
        }
        out_of_range |= fabs(xyz[i]) > HD_MAX_COORD;
    }
    return out_of_range ? HD_ERR_RANGE : HD_OK;
}

/* Qhull's verdict "flat" (its initial simplex is singular at its precision) on a set our frame
 * found thicker than tol_len can only come from a sliver close to that limit: the set is then
 * built as the polygon of the frame's plane. */
static hd_status build_solid(const double *xyz, int count, const hdi_frame *frame, double tol_len,
                             hd_polytope **out)
{
    hdi_loops faces;
    int flat = 0;
    hd_status st = hdi_hull_qhull(xyz, count, &faces, &flat);
    if (st != HD_OK) {
        return st;
    }
    if (flat) {
        hdi_frame plane = *frame;
        plane.dim = 2;
        return hdi_flat_build(xyz, count, &plane, out);
    }
    st = hdi_solid_assemble(xyz, count, &faces, tol_len, out);
    hdi_loops_free(&faces);
    return st == HD_ERR_BAD_MESH ? HD_ERR_HULL : st;
}

hd_status hd_polytope_build(const double *xyz, int count, const hd_tolerance *tol,
                            hd_polytope **out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    *out = NULL;
    hd_tolerance t;
    hd_status st = hdi_poly_check_points(xyz, count);
    if (st == HD_OK) {
        st = hdi_poly_check_tolerance(tol, &t);
    }
    if (st != HD_OK) {
        return st;
    }
    double *xs;
    int e;
    st = hdi_poly_scaled_copy(xyz, count, &xs, &e);
    if (st != HD_OK) {
        return st;
    }
    double lo[3], hi[3], extent, max_abs;
    hdi_points_bounds(xs, count, lo, hi, &extent, &max_abs);
    /* a hull is exact: dimension, merging and dropped boundary points at the coordinates'
     * resolution only; convex_rel is a mesh tolerance (a hull built within it could lose a
     * point, and with it the verdict, by up to 1e-9 of the size) */
    double tol_len = hdi_poly_length_tol(0.0, extent, max_abs);
    hdi_frame frame;
    hdi_affine_frame(xs, count, tol_len, &frame);
    if (frame.dim < 3) {
        st = hdi_flat_build(xs, count, &frame, out);
    } else {
        st = build_solid(xs, count, &frame, tol_len, out);
    }
    if (st == HD_OK) {
        hdi_poly_unscale(*out, e);
    }
    if (xs != xyz) {
        free(xs);
    }
    return st;
}

/* HD_OK for a finite radius r >= 0 that keeps the rounded shape's largest coordinate within
 * HD_MAX_COORD. */
static hd_status check_radius(double radius, double max_abs)
{
    if (isnan(radius) || isinf(radius)) {
        return HD_ERR_NONFINITE;
    }
    if (radius < 0.0) {
        return HD_ERR_INVALID_ARG;
    }
    return max_abs + radius <= HD_MAX_COORD ? HD_OK : HD_ERR_RANGE;
}

hd_status hd_polytope_build_rounded(const double *xyz, int count, double radius,
                                    const hd_tolerance *tol, hd_polytope **out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    *out = NULL;
    hd_status st = check_radius(radius, 0.0);
    if (st == HD_OK) {
        st = hd_polytope_build(xyz, count, tol, out);
    }
    if (st != HD_OK) {
        return st;
    }
    st = check_radius(radius, (*out)->max_abs);
    if (st != HD_OK) {
        hd_polytope_destroy(*out);
        *out = NULL;
        return st;
    }
    (*out)->radius = radius; /* still private to the builder: immutable once returned */
    return HD_OK;
}

void hd_polytope_destroy(hd_polytope *poly)
{
    free(poly);
}

int hd_polytope_dimension(const hd_polytope *poly)
{
    return poly ? poly->dim : -1;
}

int hd_polytope_vertex_count(const hd_polytope *poly)
{
    return poly ? poly->vertex_count : 0;
}

int hd_polytope_edge_count(const hd_polytope *poly)
{
    return poly ? poly->edge_count : 0;
}

int hd_polytope_face_count(const hd_polytope *poly)
{
    return poly ? poly->face_count : 0;
}

const double *hd_polytope_vertices(const hd_polytope *poly)
{
    return poly ? poly->verts : NULL;
}

int hd_polytope_face(const hd_polytope *poly, int f, double normal[3], double *offset,
                     const int **loop)
{
    if (poly == NULL || f < 0 || f >= poly->face_count) {
        return 0;
    }
    if (normal != NULL) {
        hdi_v3_copy(normal, poly->face_normal + 3 * f);
    }
    if (offset != NULL) {
        *offset = poly->face_dist[f];
    }
    if (loop != NULL) {
        *loop = poly->face_verts + poly->face_offset[f];
    }
    return poly->face_offset[f + 1] - poly->face_offset[f];
}

hd_status hd_polytope_edge(const hd_polytope *poly, int e, int vertices[2], int faces[2])
{
    if (poly == NULL) {
        return HD_ERR_NULL;
    }
    if (e < 0 || e >= poly->edge_count) {
        return HD_ERR_INVALID_ARG;
    }
    if (vertices != NULL) {
        vertices[0] = poly->edge_verts[2 * e];
        vertices[1] = poly->edge_verts[2 * e + 1];
    }
    if (faces != NULL) {
        faces[0] = poly->edge_faces[2 * e];
        faces[1] = poly->edge_faces[2 * e + 1];
    }
    return HD_OK;
}

void hd_polytope_bounds(const hd_polytope *poly, double lo[3], double hi[3])
{
    if (poly == NULL) {
        return;
    }
    for (int k = 0; k < 3; ++k) {
        if (lo != NULL) {
            lo[k] = poly->aabb_lo[k] - poly->radius;
        }
        if (hi != NULL) {
            hi[k] = poly->aabb_hi[k] + poly->radius;
        }
    }
}

void hd_polytope_sphere(const hd_polytope *poly, double centre[3], double *radius)
{
    if (poly == NULL) {
        return;
    }
    if (centre != NULL) {
        hdi_v3_copy(centre, poly->sphere_centre);
    }
    if (radius != NULL) {
        *radius = poly->sphere_radius + poly->radius;
    }
}

double hd_polytope_radius(const hd_polytope *poly)
{
    return poly ? poly->radius : 0.0;
}

void hd_polytope_interior(const hd_polytope *poly, int which, double point[3], double *clearance)
{
    if (poly == NULL) {
        return;
    }
    const hdi_interior *in = &poly->interior[which > 0 ? 1 : 0];
    if (point != NULL) {
        hdi_v3_copy(point, in->point);
    }
    if (clearance != NULL) {
        *clearance = in->clearance;
    }
}
