/* The layout of hd_polytope, shared by the library's modules (never installed).
 *
 * One allocation holds the struct and every array; nothing changes after construction.
 * Topology is index based (int arrays in CSR form: x_offset[i] .. x_offset[i+1]-1).
 *
 * Dimension 3 (solid): a closed convex polyhedron with true polygonal faces (coplanar facets
 *   merged), Euler V - E + F = 2.
 *   face f: normal (unit, outward), offset (n.x = offset on the face, n.x <= offset inside),
 *     loop face_verts[face_offset[f] .. face_offset[f+1]-1] counter-clockwise seen from outside;
 *     for k in that range, face_edges[k] is the edge from face_verts[k] to the next loop vertex
 *     and face_adj[k] the face across it.
 *   edge e: edge_verts[2e], edge_verts[2e+1] (v0 -> v1 runs counter-clockwise in face
 *     edge_faces[2e], so the face on its left seen from outside) and edge_faces[2e+1] on the other
 *     side; its Gaussian image is the arc from normal(edge_faces[2e]) to normal(edge_faces[2e+1]).
 *   vertex v: neighbours vert_adj[vert_offset[v] .. vert_offset[v+1]-1], and for the same k,
 *     vert_edges[k] is the edge joining v to vert_adj[k]; vert_face[v] is one incident face.
 * Dimension 2 (flat polygon): vertices in counter-clockwise order around plane_normal (vertex i
 *   joined to i+1 mod n); edges e = (e, e+1 mod n); two faces: 0 with normal +plane_normal,
 *   1 with -plane_normal (the loop reversed); every edge has faces {0, 1}. Adjacency as above.
 * Dimension 1 (segment): 2 vertices, 1 edge, no faces; dimension 0: 1 vertex, nothing else.
 * Support direction table (solids only; polytope/support_table.c, support/support.h): the
 * directions are split into the cells of a cube map, k x k per face of the cube [-1, 1]^3, and each
 * cell lists the vertices that can maximise d.v for a direction in it, so that a support query
 * reads one cell and a few vertices.
 */
#ifndef HD_POLYTOPE_INTERNAL_H
#define HD_POLYTOPE_INTERNAL_H

#include "hedra/polytope.h"

/* Ints per cell record of the support direction table. */
#define HD_SUPPORT_SLOTS 4

/* An interior point as a convex combination of at most 4 hull vertices, with its clearance
 * (distance to the nearest face plane; 0 below dimension 3). */
typedef struct hd_interior {
    double point[3];
    int count;
    int index[4];
    double weight[4];
    double clearance;
} hd_interior;

/* The fields every query reads come first, so that they share the block's first cache line (the
 * block is 64-byte aligned). */
struct hd_polytope {
    double sphere_centre[3];
    double sphere_radius;
    int vertex_count;
    int support_k; /* support direction table (polytope/support_table.c): 6 k^2 cells; 0: none */
    double *verts; /* 3 * vertex_count */
    int *support_cell; /* 6 support_k^2 records of HD_SUPPORT_SLOTS ints (16-byte aligned), one
                            per cell: its candidates (for every direction d of the cell one of
                            them maximises d.v) in increasing order, the unused slots repeating
                            the first; or all -1 - o when there are more, support_list[o] being
                            their number, their indices following */
    int *support_list; /* support_list_count */
    int support_list_count;
    int dim;
    int edge_count;
    int face_count;

    int *vert_offset; /* vertex_count + 1 */
    int *vert_adj;    /* 2 * edge_count */
    int *vert_edges;  /* 2 * edge_count */
    int *vert_face;   /* vertex_count (-1 below dimension 2) */

    int *edge_verts; /* 2 * edge_count */
    int *edge_faces; /* 2 * edge_count (-1 where none) */

    double *face_normal; /* 3 * face_count */
    double *face_dist;   /* face_count: offsets */
    int *face_offset;    /* face_count + 1 */
    int *face_verts;     /* face_offset[face_count] */
    int *face_edges;     /* same length */
    int *face_adj;       /* same length */

    double plane_normal[3]; /* dimension 2: the polygon's unit normal; else zero */
    double plane_dist;

    hd_interior interior[2];
    double aabb_lo[3];
    double aabb_hi[3];
    double max_abs; /* largest absolute coordinate of any vertex */
    double extent;  /* largest side of the bounding box */
};

#endif
