/* Brute-force face planes of the Minkowski difference M = A - B of two posed polytopes, for the
 * CD-Dual tests. Every facet of M has as normal a face normal of A, the negated face normal of B,
 * or +-(d_a x d_b) for an edge d_a of A and an edge d_b of B (CD-Dual section 2.1); the candidate
 * set holds all of them, each with h(n) = max_A n.a - min_B n.b computed over the world vertices in
 * long double. A candidate that is not a facet still gives a supporting plane of M, so
 *   - the intersection of the candidates' half-spaces n.x <= h(n) is exactly M;
 *   - the largest psi(n) = n.r / (h(n) - n.c) over the candidates is the one of the facet through
 *     which the ray c + t r (c inside M) leaves M, at t = 1 / psi (CD-Dual section 3.2).
 * Nothing here uses the library's algorithms: only the polytopes' vertices, faces and edges.
 * O((F_A + F_B + E_A E_B) (V_A + V_B)): for small polytopes. */
#ifndef HD_TEST_MDIFF_H
#define HD_TEST_MDIFF_H

#include "hedra/hedra.h"

typedef struct hd_mdiff {
    int count;
    double *n;      /* 3 per candidate: unit normal, world frame */
    long double *h; /* support value of M along n */
} hd_mdiff;

/* 0 on success, -1 when memory runs out. Poses may be NULL. */
int hd_mdiff_build(hd_mdiff *m, const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                   const hd_pose *pb);
void hd_mdiff_free(hd_mdiff *m);

/* Largest psi over the candidates with h(n) - n.c > 0 (which is all of them when c is inside M),
 * and (which may be NULL) the candidate attaining it. */
long double hd_mdiff_exit(const hd_mdiff *m, const double c[3], const double r[3], int *which);

/* The least h(n) over the candidates: the origin lies in M iff it is >= 0, and it is then the
 * penetration depth (M's facets are among the candidates); when negative, its opposite is a lower
 * bound of the distance between A and B. */
long double hd_mdiff_sat(const hd_mdiff *m);

/* The interval [lo, hi] of tau with tau s in M; 0 when the line misses M. */
int hd_mdiff_chord(const hd_mdiff *m, const double s[3], long double *lo, long double *hi);

/* The travel of hd_gap from a chord [lo, hi] of the line: along s to first contact (lo > 0),
 * along -s to separate (hi < 0), or the nearer way out of an overlap. */
long double hd_mdiff_chord_travel(long double lo, long double hi);

/* The interior points of M that CD-Dual may use (its section 4.1): of the four differences of
 * the stored interior points of A and B (hd_polytope_interior), those within a relative 1e-9 of
 * the farthest from the origin (the library breaks near-ties by its own rounding); world frame.
 * Returns how many (1..4), written to c[0..]. */
int hd_mdiff_interior(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                      const hd_pose *pb, double c[4][3]);

#endif
