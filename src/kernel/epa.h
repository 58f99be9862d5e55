/* Expanding polytope: bounds on the penetration depth of a posed pair. Two uses: the contact
 * classifier (contact/classify.c) places the signed distance against the touching band
 * (hdi_epa_depth), and the signed-distance query runs it to convergence (hdi_epa_converge). */
#ifndef HD_EPA_H
#define HD_EPA_H

#include <stddef.h>

#include "kernel/mface.h"
#include "kernel/simplex.h"

/* Fixed capacity, on the stack: an inner polytope of HD_EPA_MAX_VERTS vertices, all on the
 * boundary of M and each a new support point, has at most 2V - 4 triangular faces (Euler's
 * formula for a closed triangulated sphere). The classifier only needs the depth placed against
 * eps, which is usually settled after a handful of expansions; 128 vertices (about 20 KB of
 * stack) leave a wide margin. Running out returns HD_ERR_ITERATION_LIMIT. */
#define HD_EPA_MAX_VERTS 128
#define HD_EPA_MAX_FACES (2 * HD_EPA_MAX_VERTS - 4)

typedef enum hdi_epa_outcome {
    HD_EPA_DEEP = 1,    /* lower > eps: the pair overlaps by more than eps */
    HD_EPA_SHALLOW = 2, /* upper <= eps: the pair overlaps by at most eps */
    HD_EPA_EDGE = 3     /* converged with lower <= eps < upper: within rounding of the band edge */
} hdi_epa_outcome;

typedef struct hdi_epa_result {
    hdi_epa_outcome outcome;
    double lower;     /* proven lower bound on the depth (0 when the origin is not enclosed) */
    double upper;     /* min over the unit directions n tried of h_M(n) = max n.(a - b) */
    double normal[3]; /* the n attaining upper */
    int upper_ia;     /* its support pair: vertex of A maximising n.a, of B minimising n.b */
    int upper_ib;
    hdi_simplex inner; /* DEEP: a tetrahedron of inner-polytope points holding the origin, with
                          its barycentric weights (a common point of A and B) */
    int steps;         /* expansions plus the support queries of the set-up */
    int face_count;    /* hdi_epa_converge: 1 when the nearest face below is set, else 0 */
    double face_n[3];  /* the inner polytope's face nearest to the origin at the end: its unit */
    double face_dist;  /* outward normal, its distance (min over its corners of n.w) and its */
    int face_ia[3];    /* three support pairs */
    int face_ib[3];
    int vertices;     /* vertices of the inner polytope at the end */
    hdi_mface landed; /* hdi_epa_converge with a landing: the facet of M the run stopped on (its
                        plane n.x = h attains lower to within rounding); kind HD_FACE_NONE when
                        the run stopped otherwise */
    double next_dist; /* with the landing's next_window > 0, a landed run and the origin inside
                         P: the least distance of P's faces not on the landed facet (a face is on
                         it when its support pairs are points of the facet's features; those
                         farther than lower + next_window count at their distance untested;
                         DBL_MAX: none); -DBL_MAX when not computed */
    /* when next_dist was computed (landed_features 1): the landed facet's features
     * (hdi_mface_features), kept so that the caller does not find them a second time */
    int landed_features;
    hdi_feature landed_fa;
    hdi_feature landed_fb;
} hdi_epa_result;

/* The landing of a converged run (contact/facet.c): given the three support pairs of the inner
 * polytope's nearest face, returns 1 with the facet of M they name (unit normal n, h = h_M(n) by
 * the support mappings, sa and sb its support pair), 0 when they name none. */
typedef struct hdi_epa_land {
    int (*fn)(void *ctx, const int ia[3], const int ib[3], hd_stats *stats, hdi_mface *out);
    void *ctx;
    double next_window; /* > 0: record next_dist (the gradient's tie test), else 0 */
} hdi_epa_land;

/* start: 1..4 points of M whose hull holds the origin or passes within rounding of it (the end
 * of a GJK run: HD_GJK_ENCLOSED or HD_GJK_ORIGIN). Expands an inner polytope of M towards its
 * boundary until the depth is placed against pair->eps. Support calls are counted in stats;
 * *start_a, *start_b are the climbing starts. max_steps caps the expansions
 * (HD_ERR_ITERATION_LIMIT). */
hd_status hdi_epa_depth(const hdi_pair *pair, const hdi_simplex *start, int *start_a, int *start_b,
                        int max_steps, hd_stats *stats, hdi_epa_result *out);

/* Bytes of caller storage hdi_epa_converge needs for an inner polytope of max_verts vertices
 * (>= 8): at most HD_EPA_BYTES_PER_VERTEX per vertex; 0 when max_verts is out of range. */
#define HD_EPA_BYTES_PER_VERTEX 256
size_t hdi_epa_storage_bytes(int max_verts);

/* The same expansion run to convergence: it stops when upper - lower <= target, when the support
 * point along the nearest face's normal lies within rounding of that face (the face is on the
 * boundary of M: lower and upper have met), when that point is already a vertex of the inner
 * polytope, or when the set-up finds M flat (no interior: depth 0 along its normal). outcome is
 * HD_EPA_EDGE and lower <= depth <= upper up to rounding in every case; upper - lower may exceed
 * target only when the inner polytope could not be built or expanded (degenerate, or full:
 * max_verts reached), which the caller must check. storage: hdi_epa_storage_bytes(max_verts) bytes,
 * 16-byte aligned. HD_ERR_ITERATION_LIMIT after max_steps expansions.
 * land (may be NULL): when the nearest face's support pairs have the pattern of a facet of M (one B
 * vertex, one A vertex, or two of each), the landing is asked for that facet instead of the
 * support mapping along the face's normal: its support pair is the step's support point (a point
 * of M along the facet normal, which is the face's normal up to rounding), and the run stops on
 * it (out->landed) when h is within rounding of the face, i.e. of the lower bound. */
hd_status hdi_epa_converge(const hdi_pair *pair, const hdi_simplex *start, int *start_a,
                           int *start_b, double target, int max_steps, void *storage, int max_verts,
                           const hdi_epa_land *land, hd_stats *stats, hdi_epa_result *out);

#endif
