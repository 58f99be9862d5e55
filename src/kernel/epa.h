/* Expanding polytope: bounds on the penetration depth of a posed pair. Two uses: the contact
 * classifier (contact/classify.c) places the signed distance against the touching band
 * (hd_epa_depth), and the signed-distance query runs it to convergence (hd_epa_converge). */
#ifndef HD_EPA_H
#define HD_EPA_H

#include <stddef.h>

#include "kernel/simplex.h"

/* Fixed capacity, on the stack: an inner polytope of HD_EPA_MAX_VERTS vertices, all on the
 * boundary of M and each a new support point, has at most 2V - 4 triangular faces (Euler's
 * formula for a closed triangulated sphere). The classifier only needs the depth placed against
 * eps, which is usually settled after a handful of expansions; 128 vertices (about 20 KB of
 * stack) leave a wide margin. Running out returns HD_ERR_ITERATION_LIMIT. */
#define HD_EPA_MAX_VERTS 128
#define HD_EPA_MAX_FACES (2 * HD_EPA_MAX_VERTS - 4)

typedef enum hd_epa_outcome {
    HD_EPA_DEEP = 1,    /* lower > eps: the pair overlaps by more than eps */
    HD_EPA_SHALLOW = 2, /* upper <= eps: the pair overlaps by at most eps */
    HD_EPA_EDGE = 3     /* converged with lower <= eps < upper: within rounding of the band edge */
} hd_epa_outcome;

typedef struct hd_epa_result {
    hd_epa_outcome outcome;
    double lower;     /* proven lower bound on the depth (0 when the origin is not enclosed) */
    double upper;     /* min over the unit directions n tried of h_M(n) = max n.(a - b) */
    double normal[3]; /* the n attaining upper */
    int upper_ia;     /* its support pair: vertex of A maximising n.a, of B minimising n.b */
    int upper_ib;
    hd_simplex inner; /* DEEP: a tetrahedron of inner-polytope points holding the origin, with
                          its barycentric weights (a common point of A and B) */
    int steps;        /* expansions plus the support queries of the set-up */
    int face_count;   /* hd_epa_converge: 1 when the nearest face below is set, else 0 */
    double face_n[3]; /* the inner polytope's face nearest to the origin at the end: its unit */
    double face_dist; /* outward normal, its distance (min over its corners of n.w) and its */
    int face_ia[3];   /* three support pairs */
    int face_ib[3];
    int vertices; /* vertices of the inner polytope at the end */
} hd_epa_result;

/* start: 1..4 points of M whose hull holds the origin or passes within rounding of it (the end
 * of a GJK run: HD_GJK_ENCLOSED or HD_GJK_ORIGIN). Expands an inner polytope of M towards its
 * boundary until the depth is placed against pair->eps. Support calls are counted in stats;
 * *start_a, *start_b are the climbing starts. max_steps caps the expansions
 * (HD_ERR_ITERATION_LIMIT). */
hd_status hd_epa_depth(const hd_pair *pair, const hd_simplex *start, int *start_a, int *start_b,
                       int max_steps, hd_stats *stats, hd_epa_result *out);

/* Bytes of caller storage hd_epa_converge needs for an inner polytope of max_verts vertices
 * (>= 8): at most HD_EPA_BYTES_PER_VERTEX per vertex; 0 when max_verts is out of range. */
#define HD_EPA_BYTES_PER_VERTEX 256
size_t hd_epa_storage_bytes(int max_verts);

/* The same expansion run to convergence: it stops when upper - lower <= target, when the support
 * point along the nearest face's normal lies within rounding of that face (the face is on the
 * boundary of M: lower and upper have met), when that point is already a vertex of the inner
 * polytope, or when the set-up finds M flat (no interior: depth 0 along its normal). outcome is
 * HD_EPA_EDGE and lower <= depth <= upper up to rounding in every case; upper - lower may exceed
 * target only when the inner polytope could not be built or expanded (degenerate, or full:
 * max_verts reached), which the caller must check. storage: hd_epa_storage_bytes(max_verts) bytes,
 * 16-byte aligned. HD_ERR_ITERATION_LIMIT after max_steps expansions. */
hd_status hd_epa_converge(const hd_pair *pair, const hd_simplex *start, int *start_a, int *start_b,
                          double target, int max_steps, void *storage, int max_verts,
                          hd_stats *stats, hd_epa_result *out);

#endif
