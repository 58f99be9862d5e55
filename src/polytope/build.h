/* Private interfaces between the files that construct a polytope (polytope/polytope.c and
 * polytope/mesh.c are the entry points); polytope/internal.h is the layout they produce. Points go
 * through rescaling, the affine frame, then hdi_flat_build (dimension < 3) or Qhull and
 * hdi_solid_assemble (topology, coplanar merge, planes, interior points, support table). The
 * pipeline: docs/algorithms/polytope.md, section 1. */
#ifndef HD_POLYTOPE_BUILD_H
#define HD_POLYTOPE_BUILD_H

#include <stddef.h>

#include "polytope/internal.h"
#include "core/tolerances.h"

/* The construction length tolerance, shared by dimension detection, the coplanar merge and the
 * mesh convexity check:
 *     tol_len = max(convex_rel * extent, HD_COORD_RESOLUTION * max_abs (core/tolerances.h))
 * where extent is the largest side of the points' bounding box and max_abs their largest
 * absolute coordinate. The first term is the documented mesh tolerance (core.h, convex_rel);
 * hulls of point sets pass convex_rel = 0 and are exact to the second term. The second
 * is a floor: coordinates of magnitude max_abs are only known to about 2^-52 * max_abs, so a set
 * thinner than a few hundred units of that cannot define a direction (Qhull reports sets of
 * relative thickness 1e-13 as flat). Both terms scale with the input, so the same cloud
 * scaled by 1e-6 or 1e6 gets the same decisions. */
double hdi_poly_length_tol(double convex_rel, double extent, double max_abs);

/* Argument checks shared by the constructors (polytope/polytope.c): NULL, count range, finiteness;
 * and the tolerance (NULL selects the defaults). */
hd_status hdi_poly_check_points(const double *xyz, int count);
hd_status hdi_poly_check_tolerance(const hd_tolerance *tol, hd_tolerance *resolved);

/* Exact rescaling for extreme magnitudes (polytope/scale.c). Squared lengths of coordinates
 * above about 1e154 overflow and below about 1e-154 underflow, which would wreck every distance
 * test of the construction. When the largest coordinate is outside [2^-HD_SCALE_RANGE,
 * 2^HD_SCALE_RANGE], the construction runs on a copy multiplied by 2^-e (e the exponent of the
 * largest coordinate), which is exact; hdi_poly_unscale multiplies every length of the result by
 * 2^e, exactly again, so the vertices are the input points bit for bit. If some coordinate would
 * lose bits (it would fall into the subnormal range), no scaling is done. *scaled is xyz itself
 * when no scaling is done, else a copy the caller frees. */
hd_status hdi_poly_scaled_copy(const double *xyz, int count, double **scaled, int *exponent);
void hdi_poly_unscale(hd_polytope *poly, int exponent);

/* A copy of poly with every length multiplied by 2^exponent (for hd_polytope_validate on extreme
 * magnitudes); NULL when out of memory. */
hd_polytope *hdi_poly_clone_scaled(const hd_polytope *poly, int exponent);

/* Face loops over some vertex index space: face f is verts[offset[f] .. offset[f+1]-1]. */
typedef struct hdi_loops {
    int face_count;
    int *offset;    /* face_count + 1 entries */
    int *verts;     /* offset[face_count] entries */
    double *normal; /* NULL, or 3 per face: the normal chosen by the coplanar merge */
} hdi_loops;

/* Allocates loops for face_count faces and total loop entries; offset[0] = 0, normal NULL. */
hd_status hdi_loops_alloc(hdi_loops *loops, int face_count, int total);
void hdi_loops_free(hdi_loops *loops);

/* The affine frame of a point set, found by the farthest-point construction (polytope/frame.c):
 * p[0], p[1] the ends of a long diameter candidate, p[2] the point farthest from line p0 p1,
 * p[3] the point farthest from plane p0 p1 p2. dim counts how many of these steps found a point
 * farther than tol_len. axis is the unit direction p0 -> p1 (dim >= 1), normal the unit normal of
 * plane p0 p1 p2 (dim >= 2). */
typedef struct hdi_frame {
    int dim;
    int p[4];
    double axis[3];
    double normal[3];
    double width[3]; /* |p1 - p0|, distance of p2 from the line, of p3 from the plane */
    double tol;      /* the tol_len it was computed with */
} hdi_frame;

void hdi_affine_frame(const double *xyz, int count, double tol_len, hdi_frame *frame);

/* Bounding box of count points: lo, hi, the largest side and the largest absolute coordinate. */
void hdi_points_bounds(const double *xyz, int count, double lo[3], double hi[3], double *extent,
                       double *max_abs);

/* Lower-dimensional polytopes (dimension frame->dim <= 2) from the input points. */
hd_status hdi_flat_build(const double *xyz, int count, const hdi_frame *frame, hd_polytope **out);

/* Runs Qhull on the points (dimension 3) and returns its facets as loops of input indices,
 * counter-clockwise seen from outside. *flat is set when Qhull found the input flat (the caller
 * then builds a polygon). Errors: HD_ERR_HULL, HD_ERR_NO_MEMORY. */
hd_status hdi_hull_qhull(const double *xyz, int count, hdi_loops *faces, int *flat);

/* Builds a solid from face loops over the input points (a closed, convex, consistently oriented
 * surface). Neighbouring faces whose planes agree within merge_tol are merged into one face
 * (merge_tol < 0 disables merging). Errors: HD_ERR_BAD_MESH when the loops are not a closed
 * 2-manifold of genus 0, HD_ERR_HULL when no interior point with positive clearance exists,
 * HD_ERR_NO_MEMORY. */
hd_status hdi_solid_assemble(const double *xyz, int count, const hdi_loops *faces, double merge_tol,
                             hd_polytope **out);

/* Half-edge pairing over loops on vertex_count vertices (polytope/topology.c). For loop entry k
 * (the half-edge from verts[k] to the next loop vertex): face[k], next[k] (entry of the next
 * half-edge in the same loop) and twin[k] (the entry of the opposite half-edge). Also the
 * outgoing half-edges of every vertex in CSR form: out_offset (vertex_count + 1), out_he.
 * HD_ERR_BAD_MESH unless every directed edge occurs once and its reverse once, and every
 * vertex's faces form a single fan. */
typedef struct hdi_halfedges {
    int count;
    int vertex_count;
    int *face;
    int *next;
    int *twin;
    int *out_offset;
    int *out_he;
} hdi_halfedges;

hd_status hdi_halfedges_build(const hdi_loops *loops, int vertex_count, hdi_halfedges *he);
void hdi_halfedges_free(hdi_halfedges *he);

/* Merges neighbouring faces whose vertices lie within tol of one plane (polytope/merge.c) into
 * out, loops over the same vertex indices (vertices inside merged faces or in the middle of merged
 * edges are no longer referenced), with out->normal set to each face's normal (the seed face's).
 * *merged says whether anything changed. HD_ERR_BAD_MESH when
 * the merged loops would not form a polytope surface (the caller keeps the unmerged faces). */
hd_status hdi_merge_coplanar(const double *pts, int nv, const hdi_loops *loops,
                             const hdi_halfedges *he, double tol, hdi_loops *out, int *merged);

/* Allocates a polytope with every array in the same block (zeroed, aligned to HD_POLY_ALIGN
 * bytes; free() releases it) and sets the array pointers. NULL when the allocation fails.
 * hdi_poly_alloc_table also reserves a support direction table of table_cells cell records and
 * table_list list entries (support_k is left 0 for the caller to set). */
#define HD_POLY_ALIGN 64
hd_polytope *hdi_poly_alloc(int dim, int vertex_count, int edge_count, int face_count,
                            int loop_total);
hd_polytope *hdi_poly_alloc_table(int dim, int vertex_count, int edge_count, int face_count,
                                  int loop_total, int table_cells, int table_list);

/* Copies every array and field of src into p, allocated with the same counts (the table only when
 * p has room for it). */
void hdi_poly_copy(hd_polytope *p, const hd_polytope *src);

/* Replaces *poly (a solid) by a copy that carries its support direction table
 * (polytope/support_table.c); keeps *poly as it is when no table applies. HD_ERR_NO_MEMORY. */
hd_status hdi_poly_attach_support_table(hd_polytope **poly);

/* Fills the CSR topology (vertex adjacency, edges, face_edges, face_adj, vert_face) of a solid
 * whose face loops (face_offset, face_verts) are in place, from their half-edge pairing he. Each
 * vertex's neighbours are listed counter-clockwise seen from outside. */
void hdi_poly_fill_topology(hd_polytope *poly, const hdi_halfedges *he);

/* Axis-aligned box, extent, max_abs and bounding sphere from the vertices; the vertex blocks too
 * (hdi_poly_fill_blocks). */
void hdi_poly_fill_bounds(hd_polytope *poly);

/* Bytes of the structure-of-arrays blocks of a polytope of vertex_count vertices (0 above
 * HD_SCAN_BLOCKS_MAX), carved by hdi_poly_alloc_table (polytope/blocks.c). */
size_t hdi_poly_blocks_bytes(int vertex_count);

/* The blocks from verts, and the scan kernel for this CPU (polytope/blocks.c): wherever verts get
 * their final values (construction, copies, rescaling). */
void hdi_poly_fill_blocks(hd_polytope *poly);

/* Newell's area vector of the loop pts[loop[0..m-1]], normalized into n; returns its length
 * (twice the polygon's area; 0 for a loop of zero area). */
double hdi_loop_newell(const double *pts, const int *loop, int m, double n[3]);

/* Face normals and supporting offsets (needs the topology): Newell's area vector of each loop,
 * or the given normal (3 per face, may be NULL) where that one keeps the face's vertices within
 * tol of the plane and Newell's does not. HD_ERR_BAD_MESH for a face of zero area. */
hd_status hdi_poly_fill_planes(hd_polytope *poly, const double *normals, double tol);

/* Two interior points of a solid (polytope/geometry.c). HD_ERR_HULL when no point with positive
 * clearance is found. */
hd_status hdi_poly_fill_interior_solid(hd_polytope *poly);

/* Sets interior point `which` to the combination of the given vertices and weights. */
void hdi_interior_set(hd_polytope *poly, int which, int count, const int *index,
                      const double *weight);

#endif
