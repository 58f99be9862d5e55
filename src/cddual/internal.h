/* Internal interfaces of CD-Dual (Choi, Li, Wang, Cameron, "Collision Detection of Convex
 * Polyhedra Based on Duality Transformation"), shared by the files of cddual/ (each section below
 * names its file). The faces of M, the arc test, the supporting features and the location of a
 * point on a face are the kernel's (kernel/mface.h), shared with the contact queries;
 * kernel/plane_search.h is the planar simplex search that the location and the gap use. Everything
 * is in A's local frame (support/pair.h): P = A, Q = B, and M = A - B = A + (-B), the paper's P (+)
 * Q-bar. */
#ifndef HD_CDDUAL_INTERNAL_H
#define HD_CDDUAL_INTERNAL_H

#include <stdint.h>

#include "support/pair.h"
#include "kernel/mface.h"
#include "kernel/workspace.h"
#include "core/tolerances.h"

/* Candidate keys of the search map: kind in the top two bits, then two 31-bit indices. FV keys
 * hold the face of A, VF keys the face of B (the supporting vertex is a function of the face),
 * EE keys the two edges. */
enum { HD_KEY_FV = 1, HD_KEY_VF = 2, HD_KEY_EE = 3 };

static inline uint64_t hdi_key(unsigned kind, int a, int b)
{
    return ((uint64_t)kind << 62) | ((uint64_t)(uint32_t)a << 31) | (uint64_t)(uint32_t)b;
}

static inline unsigned hdi_key_kind(uint64_t key)
{
    return (unsigned)(key >> 62);
}

static inline int hdi_key_a(uint64_t key)
{
    return (int)((key >> 31) & 0x7fffffffu);
}

static inline int hdi_key_b(uint64_t key)
{
    return (int)(key & 0x7fffffffu);
}

/* cddual/visit.c: the face of a key (support vertex aux for FV / VF, as stored in the map): 0
 * when an EE key is not a face. */
int hdi_mface_of_key(const hdi_pair *pair, uint64_t key, int aux, hdi_mface *out);

/* cddual/search.c ---------------------------------------------------------------------------- */

/* The ray-shooting problem at the heart of CD-Dual: from a point c of M, along direction r,
 * find the face of M through which the ray leaves M. For a face with plane n.x = h the ray
 * c + t r meets the plane at t = (h - n.c) / (n.r); the exit face has the least positive t,
 * i.e. the largest
 *     psi(f) = (n.r) / (h - n.c)                          (the search's objective)
 * With r = o - c (o the origin) this is Eq. (1) up to an affine change: d(f) = (psi - 1) / |r|
 * (section 3.2); psi is used because it stays well conditioned when c is near o. */
typedef struct hdi_raysearch {
    /* input */
    const hdi_pair *pair;
    double c[3];
    double r[3];
    int stop_on_gap; /* intersection query: stop at the first face whose plane, checked with
                         both support mappings, has gap > eps (the early exit of section 3.3) */
    int start_face;  /* face of A to start SEARCH-FV from (frame coherence), -1: heuristic */
    int start_a;     /* hill-climbing starts of the support mappings (updated) */
    int start_b;
    int max_evals; /* cap on candidates evaluated */
    hdi_facemap *map;
    hd_stats *stats;
    /* output */
    hdi_mface best; /* the optimal face (or the separating face when separated) */
    double best_value;
    int best_slot;
    int separated;    /* stop_on_gap: best's plane separates with gap > eps: */
    double sep_max_a; /*   max_A n.a and min_B n.b over all vertices (support mappings) */
    double sep_min_b;
    /* internal */
    int phase; /* 0 SEARCH-FV, 1 SEARCH-VF, 2 SEARCH-EE */
    int evals;
    int done;    /* separated, or a face with psi = +inf (the ray leaves M at c) */
    int fv_face; /* where SEARCH-FV ended (face of A, supporting vertex of B), or -1 */
    int fv_vertex;
} hdi_raysearch;

/* Runs SEARCH-FV, SEARCH-VF and SEARCH-EE (sections 3.3.1-3.3.3) on rs. HD_OK with rs->best the
 * exit face (its psi in best_value), or rs->separated; HD_ERR_WORKSPACE_FULL,
 * HD_ERR_ITERATION_LIMIT. */
hd_status hdi_raysearch_run(hdi_raysearch *rs);

/* The objective of face m for the ray of rs. */
double hdi_raysearch_value(const hdi_raysearch *rs, const hdi_mface *m);

/* Evaluates a candidate (key) the first time it is met: its value goes into the map, the best
 * face and the separation test are updated, and it is pushed for expansion when it is at or
 * near the best. *slot_out: its map entry. HD_ERR_WORKSPACE_FULL, HD_ERR_ITERATION_LIMIT. */
hd_status hdi_raysearch_visit(hdi_raysearch *rs, uint64_t key, int *slot_out);

/* Whether v ties with the best value so far (HD_TIE_REL), and the record of a new optimum (the
 * path, when recorded); cddual/visit.c. */
int hdi_raysearch_near_best(const hdi_raysearch *rs, double v);
void hdi_raysearch_record_slot(hdi_raysearch *rs, int slot);

/* cddual/neighbours.c: visits every neighbour of the face in map entry `slot`. */
hd_status hdi_raysearch_expand(hdi_raysearch *rs, int slot);

/* cddual/cddual.c
 * ----------------------------------------------------------------------------------- */

/* The interior point c of M used by the intersection query (section 4.1): the difference of one
 * stored interior point of A and one of B, the pair farthest from the origin; R the sum of their
 * clearances (ball(c, R) lies in M). Writes which interior points were used. */
void hdi_cddual_interior(const hdi_pair *pair, double c[3], double *clearance, int *ia, int *ib);

/* cddual/gap.c
 * -------------------------------------------------------------------------------------- */

/* Section 6: the travel g from the origin to the exit face along the line through c, from the
 * dual distance d = d(f_opt) of Eq. (1) and L = |c| (d = +inf gives L). */
double hdi_cddual_gap_from_dual(double d, double length);

#endif
