/* Expanding polytope: bounds on the penetration depth of a posed pair, used by the contact
 * classifier (contact/classify.c) to place the signed distance against the touching band. */
#ifndef HD_EPA_H
#define HD_EPA_H

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
} hd_epa_result;

/* start: 1..4 points of M whose hull holds the origin or passes within rounding of it (the end
 * of a GJK run: HD_GJK_ENCLOSED or HD_GJK_ORIGIN). Expands an inner polytope of M towards its
 * boundary until the depth is placed against pair->eps. Support calls are counted in stats;
 * *start_a, *start_b are the climbing starts. max_steps caps the expansions
 * (HD_ERR_ITERATION_LIMIT). */
hd_status hd_epa_depth(const hd_pair *pair, const hd_simplex *start, int *start_a, int *start_b,
                       int max_steps, hd_stats *stats, hd_epa_result *out);

#endif
