/* hedra polytopes: immutable convex hulls of point sets, with the topology the queries need. */
#ifndef HEDRA_POLYTOPE_H
#define HEDRA_POLYTOPE_H

#include "hedra/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque, immutable after construction, safe to share between threads. Free with
 * hd_polytope_destroy. Vertex indices used anywhere in the API (certificates, caches, features)
 * index the hull vertex array returned by hd_polytope_vertices, not the input points. */
typedef struct hd_polytope hd_polytope;

/* Builds the convex hull of count points (xyz[3*i .. 3*i+2]), in any order, with duplicates and
 * interior points allowed. The hull is exact to the coordinates' resolution r = 512 DBL_EPSILON
 * times the largest absolute coordinate: every input point lies within 2 r of the polytope, every
 * vertex is an input point, and only points within r of a face or edge of the exact hull are
 * left out (tol->convex_rel plays no part here). The affine dimension is detected first (a set
 * within r of a plane, line or point is that flat):
 *   0: a single point (all points coincide),      1: a segment (collinear points),
 *   2: a flat convex polygon (coplanar points),    3: a solid polyhedron (Qhull's hull).
 * Each is a valid polytope that every query answers for. tol may be NULL (defaults).
 * Errors: HD_ERR_NULL, HD_ERR_EMPTY (count <= 0), HD_ERR_TOO_LARGE (count > HD_MAX_POINTS),
 * HD_ERR_NONFINITE, HD_ERR_RANGE (a coordinate beyond HD_MAX_COORD), HD_ERR_INVALID_ARG (an
 * invalid tolerance), HD_ERR_HULL, HD_ERR_NO_MEMORY. *out is NULL on error. */
HD_API hd_status hd_polytope_build(const double *xyz, int count, const hd_tolerance *tol,
                                   hd_polytope **out);

/* A rounded polytope: the hull of the points (built as by hd_polytope_build, its core) plus a ball
 * of radius r >= 0, i.e. the Minkowski sum hull(points) + B(0, r): every point within r of the
 * hull. The hull stays as given (nothing is shrunk): a box of half extents h rounded by r reaches
 * h + r. radius = 0 is hd_polytope_build exactly, answered bit for bit as before. Every query
 * answers for rounded shapes (docs/algorithms/rounded.md): a 1-point core is a sphere, a 2-point
 * one a capsule. The query scale (hd_tolerance) includes r, through the bounding sphere.
 * Errors: those of hd_polytope_build, and HD_ERR_NONFINITE (radius NaN or infinite),
 * HD_ERR_INVALID_ARG (radius < 0), HD_ERR_RANGE (the hull's largest absolute coordinate plus r
 * beyond HD_MAX_COORD). *out is NULL on error. */
HD_API hd_status hd_polytope_build_rounded(const double *xyz, int count, double radius,
                                           const hd_tolerance *tol, hd_polytope **out);

/* The rounding radius r (0 for a sharp polytope and for NULL). Vertices, edges, faces and the
 * interior points below are those of the core (the hull); bounds and sphere include r. */
HD_API double hd_polytope_radius(const hd_polytope *poly);

/* Where an explicit mesh failed its convexity check. */
typedef struct hd_mesh_violation {
    int face;      /* offending face, or -1 */
    int vertex;    /* offending vertex, or -1 */
    double excess; /* how far the vertex lies outside the face plane (length units) */
} hd_mesh_violation;

/* Builds a solid from an explicit mesh: vertex_count points and face_count faces, face f having
 * face_sizes[f] >= 3 vertex indices in face_indices (concatenated), counter-clockwise seen from
 * outside. The mesh must be a closed 2-manifold (every edge in exactly two faces with opposite
 * orientations) and convex: no vertex more than tol->convex_rel * scale outside any face plane,
 * and the face's own vertices on its plane to the same tolerance. The first violation found is
 * written to *violation when it is not NULL. Coplanar neighbouring faces are merged.
 * Errors: as hd_polytope_build, plus HD_ERR_BAD_MESH, HD_ERR_NOT_CONVEX, HD_ERR_INVALID_ARG. */
HD_API hd_status hd_polytope_from_mesh(const double *xyz, int vertex_count, const int *face_sizes,
                                       const int *face_indices, int face_count,
                                       const hd_tolerance *tol, hd_polytope **out,
                                       hd_mesh_violation *violation);

/* Frees a polytope; NULL is ignored. */
HD_API void hd_polytope_destroy(hd_polytope *poly);

/* Affine dimension 0..3. */
HD_API int hd_polytope_dimension(const hd_polytope *poly);

/* Counts of the hull's vertices, edges and faces. For dimension 2 the faces are the polygon's two
 * sides (2); for dimensions 0 and 1 there are no faces; a segment has 1 edge. */
HD_API int hd_polytope_vertex_count(const hd_polytope *poly);
HD_API int hd_polytope_edge_count(const hd_polytope *poly);
HD_API int hd_polytope_face_count(const hd_polytope *poly);

/* The hull vertices, 3 doubles each, in the polytope's own (local) frame. */
HD_API const double *hd_polytope_vertices(const hd_polytope *poly);

/* Face f: its unit outward normal and offset (the plane n.x = offset), and its vertex loop,
 * counter-clockwise seen from outside. Returns the loop length, 0 for an invalid f. */
HD_API int hd_polytope_face(const hd_polytope *poly, int f, double normal[3], double *offset,
                            const int **loop);

/* Edge e: its two end vertices and two adjacent faces (-1 where a lower-dimensional polytope
 * has none). Returns HD_ERR_INVALID_ARG for an invalid e. */
HD_API hd_status hd_polytope_edge(const hd_polytope *poly, int e, int vertices[2], int faces[2]);

/* Axis-aligned box and bounding sphere (local frame) of the shape: for a rounded polytope they
 * enclose the rounded shape (the core's box grown by r on every side, the core's sphere radius
 * plus r), so that a scene's boxes grow by the radius. */
HD_API void hd_polytope_bounds(const hd_polytope *poly, double lo[3], double hi[3]);
HD_API void hd_polytope_sphere(const hd_polytope *poly, double centre[3], double *radius);

/* Two distinct points in the relative interior (distinct unless the polytope is a point), and
 * each one's clearance: the distance from it to the nearest face plane (0 below dimension 3). */
HD_API void hd_polytope_interior(const hd_polytope *poly, int which, double point[3],
                                 double *clearance);

/* Full structural check (expensive, O(V F)): Euler's formula, closed manifold, outward unit
 * normals, every vertex on or inside every face plane, adjacency symmetric. HD_OK or
 * HD_ERR_BAD_MESH / HD_ERR_NOT_CONVEX. */
HD_API hd_status hd_polytope_validate(const hd_polytope *poly, const hd_tolerance *tol);

#ifdef __cplusplus
}
#endif

#endif
