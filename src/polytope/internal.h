/* The layout of hd_polytope, shared by the library's modules (never installed). One allocation
 * holds the struct and every array; nothing changes after construction. Topology is index based
 * (int arrays in CSR form: x_offset[i] .. x_offset[i+1]-1). Solids have true polygonal faces
 * (coplanar facets merged); a polygon (dimension 2) has faces 0 (+plane_normal) and 1 (reversed);
 * a segment 1 edge and no face; a point nothing. The layout per dimension in full:
 * docs/algorithms/polytope.md, section 3. */
#ifndef HD_POLYTOPE_INTERNAL_H
#define HD_POLYTOPE_INTERNAL_H

#include <stdint.h>
#include "hedra/polytope.h"

/* Ints per cell record of the support direction table. */
#define HD_SUPPORT_SLOTS 4

/* The scan a polytope's supports use, chosen once at build for the running CPU (polytope/blocks.c);
 * every kernel returns the vertex of the plain scan (support/kernels.h). */
typedef enum hdi_scan_kernel {
    HDI_SCAN_PLAIN = 0, /* the scalar scan of verts (hdi_support_scan) */
    HDI_SCAN_SSE2,
    HDI_SCAN_AVX2,
    HDI_SCAN_AVX512,
    HDI_SCAN_KERNELS /* their number */
} hdi_scan_kernel;

/* The vector kernels need GCC's or Clang's target attributes and CPU tests, on x86-64. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HD_SCAN_X86 1
#else
#define HD_SCAN_X86 0
#endif

/* Vertices per structure-of-arrays block, and doubles per block (x[4], y[4], z[4]). */
#define HD_BLOCK_VERTS 4
#define HD_BLOCK_DOUBLES (3 * HD_BLOCK_VERTS)

/* An interior point as a convex combination of at most 4 hull vertices, with its clearance
 * (distance to the nearest face plane; 0 below dimension 3). */
typedef struct hdi_interior {
    double point[3];
    int count;
    int index[4];
    double weight[4];
    double clearance;
} hdi_interior;

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
    /* the rounding radius r >= 0 (hd_polytope_build_rounded): the shape is the hull plus a ball of
     * radius r; every other field describes the hull (the core) alone, the public bounds and
     * sphere add r. Early in the second line, beside dim, which the queries read too */
    double radius;
    /* a solid's interior[0] is the centroid of four hull vertices (weights 1/4); their indices
     * are kept here too, early in the second cache line (the first is full, and this line's
     * address needs nothing from the first, so both load together), for the portal search on
     * small solids (kernel/mpr.c), which reads nothing else of the block but the vertices; -1
     * when the polytope is not a solid or has more vertices than an int16_t holds */
    int16_t portal_vertex[4];
    /* at most HD_SCAN_BLOCKS_MAX vertices: the vertices again in ceil(n / 4) blocks x[4], y[4],
     * z[4] (64-byte aligned), unused lanes copies of vertex 0, for the vector scans; else NULL */
    double *blocks;
    int scan_kernel; /* hdi_scan_kernel; HDI_SCAN_PLAIN when blocks is NULL */
    int edge_count;
    int face_count;

    int *vert_offset; /* vertex_count + 1 */
    int *vert_adj;    /* 2 * edge_count: neighbours, counter-clockwise seen from outside */
    int *vert_edges;  /* 2 * edge_count: [k] the edge joining v to vert_adj[k] */
    int *vert_face;   /* vertex_count: one incident face (-1 below dimension 2) */

    int *edge_verts; /* 2 * edge_count: v0 -> v1 runs counter-clockwise in edge_faces[2e] */
    int *edge_faces; /* 2 * edge_count: left, right seen from outside (-1 where none) */

    double *face_normal;      /* 3 * face_count: unit, outward */
    double *face_dist;        /* face_count: offsets, n.x <= offset inside */
    int *face_offset;         /* face_count + 1 */
    int *face_verts;          /* face_offset[face_count]: loops, counter-clockwise from outside */
    int *face_edges;          /* same length: [k] the edge from face_verts[k] to the next */
    int *face_adj;            /* same length: [k] the face across face_edges[k] */
    unsigned char *face_thin; /* face_count: 1 for a needle or sliver face (hdi_face_widest_triple),
                                 whose stored normal may turn by far more than 2^-53 */

    double plane_normal[3]; /* dimension 2: the polygon's unit normal; else zero */
    double plane_dist;

    hdi_interior interior[2];
    double aabb_lo[3];
    double aabb_hi[3];
    double max_abs; /* largest absolute coordinate of any vertex */
    double extent;  /* largest side of the bounding box */
};

/* Whether the running CPU (and its operating system) executes kernel k; HDI_SCAN_PLAIN always. */
int hdi_scan_kernel_available(int kernel);

/* The kernel polytopes with blocks are built with on this CPU (polytope/blocks.c says which). */
int hdi_scan_kernel_default(void);

/* Three vertices of face f of p spanning it as widely as the face allows: its first vertex v0, the
 * vertex v1 farthest from v0, the vertex v2 farthest from the line v0 v1. Returns whether the face
 * is badly shaped, |(v1 - v0) x (v2 - v0)| <= HD_PLAIN_NORMAL_SINE |v1 - v0|^2: the stored normal
 * (Newell's sum of products of offsets of size d, polytope/geometry.c) rounds by about 2^-53 d^2
 * against a length of twice the area, so it is accurate to a few units over that ratio. Built
 * into face_thin once; the contact queries ask for the triple of a thin face (kernel/mface.c). */
int hdi_face_widest_triple(const hd_polytope *p, int f, int tri[3]);

#endif
