/* Minkowski portal refinement (Snethen, "XenoCollide: complex collision made simple", Game
 * Programming Gems 7, 2008) on a posed pair of solids, as a fast first try of the boolean query
 * (gjk/gjk.c): it either finds a direction whose support plane separates the origin from
 * M = A - B, or a tetrahedron of M holding the origin (an interior point of M and a portal of
 * three support points), or gives up near the boundary of M, where GJK and the contact classifier
 * take over. Derivation, certificates and measurements: docs/algorithms/gjk.md, section 10. */
#ifndef HD_MPR_H
#define HD_MPR_H

#include "kernel/simplex.h"
#include "hedra/query.h"

typedef enum hdi_mpr_end {
    HD_MPR_UNDECIDED = 0, /* near the boundary of M, degenerate, or at the iteration cap */
    HD_MPR_SEPARATED,     /* plane_n, lower: the origin lies beyond a support plane of M */
    HD_MPR_ENCLOSED       /* tetra: the interior point and the portal; the origin inside */
} hdi_mpr_end;

typedef struct hdi_mpr_state {
    hdi_mpr_end end;
    /* count 4 once a portal was found and the search did not end separated (HD_MPR_ENCLOSED, or
     * undecided near the boundary: GJK then starts from the portal): w[0] the interior point of
     * M (ia[0], ib[0] = -1: the difference of the centroids of the polytopes' portal vertices),
     * w[1..3] the last portal; lambda unset. count 0 otherwise. */
    hdi_simplex tetra;
    double plane_n[3]; /* HD_MPR_SEPARATED: unit n with n.(a - b) >= lower for all a, b */
    double lower;
    int plane_ia; /* the support pair attaining it */
    int plane_ib;
    int iterations;
} hdi_mpr_state;

/* 1 when the pair qualifies: two solids (with portal vertices: polytope/internal.h) whose
 * supports are scans (pair->scan_both: small vertex counts, where the portal's cheap steps pay;
 * with direction tables each support point costs cache misses, and GJK needs fewer of them). */
int hdi_mpr_applies(const hdi_pair *pair);

/* Runs the portal search; separations are reported only when lower > pair->eps. Counts support
 * calls in stats (may be NULL). */
void hdi_mpr_run(const hdi_pair *pair, hdi_mpr_state *st, hd_stats *stats);

#endif
