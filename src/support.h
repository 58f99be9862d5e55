/* Support mapping of one polytope in its own frame. */
#ifndef HD_SUPPORT_H
#define HD_SUPPORT_H

#include "polytope_internal.h"

/* Index of a vertex maximising d.v, by scanning every vertex (lowest index among ties). */
int hd_support_brute(const hd_polytope *poly, const double d[3]);

/* Index of a vertex maximising d.v, by hill climbing over the vertex adjacency from start (any
 * index; out-of-range starts at 0). Returns a true maximiser on every convex polytope (to the
 * rounding of the dot products). Polytopes of at most HD_SUPPORT_SCAN_MAX vertices are scanned
 * as by hd_support_brute, which is faster than walking at that size. */
#define HD_SUPPORT_SCAN_MAX 32
int hd_support_climb(const hd_polytope *poly, const double d[3], int start);

#endif
