/* The GJK simplex and its sub-simplex solver (signed volumes), shared by GJK (gjk/gjk.c), the
 * expanding polytope (kernel/epa.c) and the contact classifier (contact/classify.c).
 *
 * A simplex holds 1..4 points w_i of the Minkowski difference M = A - B, each the difference
 * w_i = a_{ia_i} - b_{ib_i} of a vertex of A and a vertex of B (B in A's frame), so that any
 * convex combination sum l_i w_i names the pair of points sum l_i a_{ia_i} on A and
 * sum l_i b_{ib_i} on B. */
#ifndef HD_GJK_SIMPLEX_H
#define HD_GJK_SIMPLEX_H

#include "support/pair.h"

typedef struct hdi_simplex {
    int count;
    double w[4][3];
    int ia[4];
    int ib[4];
    double lambda[4]; /* barycentric weights of the closest point, set by hdi_simplex_solve */
} hdi_simplex;

/* The answer of the sub-simplex solver before it is applied: the kept indices into the simplex's
 * points (increasing), their weights, the closest point v and |v|^2. */
typedef struct hdi_simplex_sub {
    int n;
    int idx[4];
    double l[4];
    double v[3];
    double d2;
} hdi_simplex_sub;

/* The solve of hdi_simplex_solve without touching s (GJK keeps the simplex when the answer makes
 * no progress), and its application to s (compaction and weights). */
void hdi_simplex_solve_sub(const hdi_simplex *s, hdi_simplex_sub *sub);
void hdi_simplex_commit(hdi_simplex *s, const hdi_simplex_sub *sub);

/* Replaces s by the smallest sub-simplex whose convex hull holds the point of conv(s) closest to
 * the origin, with that point's barycentric weights (all > 0, summing to 1), and writes the point
 * to v. A tetrahedron is kept whole only when the origin lies strictly inside it (v = 0): that is
 * the only case in which count is 4 on return. count must be 1..4. */
void hdi_simplex_solve(hdi_simplex *s, double v[3]);

/* The point of A and the point of B named by the weights: sum l_i a_i and sum l_i b_i, both in
 * A's frame. */
void hdi_simplex_witnesses(const hdi_simplex *s, const hdi_pair *pair, double on_a[3],
                           double on_b[3]);

/* The combinations of hull vertices of A and of B named by the weights, with repeated vertex
 * indices merged (weights renormalized to sum 1). */
void hdi_simplex_combinations(const hdi_simplex *s, hd_combination *on_a, hd_combination *on_b);

/* For a tetrahedron holding the origin: refines the weights so that sum l_j w_j is zero to the
 * rounding of the scale even when the tetrahedron is nearly flat (see kernel/simplex.c). Other
 * counts are left alone. */
void hdi_simplex_polish(hdi_simplex *s);

/* When the n barycentric weights l are all positive, divides them by their sum (so that they sum
 * to 1 up to rounding); otherwise leaves them alone. */
void hdi_weights_renormalize_positive(double *l, int n);

/* The convex combination of vertices index[0..count) with weights lambda (normalized here,
 * repeated indices merged, then clamped; count <= HD_COMBINATION_MAX distinct indices). */
void hdi_combination_from_weights(const double *lambda, const int *index, int count,
                                  hd_combination *out);

/* The convex combinations over A's and B's vertices of simplex points j = 0..count-1 with
 * weights lambda (normalized here; repeated vertex indices merged, then clamped): what the 3D and
 * 2D simplices both certify with. */
void hdi_combinations_from_weights(const double *lambda, const int *ia, const int *ib, int count,
                                   hd_combination *on_a, hd_combination *on_b);

/* For a tetrahedron (count 4) containing the origin: the smallest distance from the origin to
 * the planes of its four faces, a lower bound on the distance from the origin to the boundary of
 * any convex set containing the tetrahedron. Returns 0 when the origin is not strictly inside. */
double hdi_simplex_inner_depth(const hdi_simplex *s);

/* 1 when the pair (ia, ib) is already a point of the simplex (inline: GJK asks every step). */
static inline int hdi_simplex_has_pair(const hdi_simplex *s, int ia, int ib)
{
    for (int j = 0; j < s->count; ++j) {
        if (s->ia[j] == ia && s->ib[j] == ib) {
            return 1;
        }
    }
    return 0;
}

/* Barycentric coordinates of the origin in the tetrahedron p0..p3 by signed volumes:
 * l_j = vol(p with p_j replaced by 0) / vol(p). Returns the volume determinant (0 when flat, in
 * which case l is left undefined). */
double hdi_tetra_barycentric(const double p0[3], const double p1[3], const double p2[3],
                             const double p3[3], double l[4]);

/* The same weights by signed volumes alone, c_j / sum c (Cramer's rule: cheap, but their residual
 * grows with the tetrahedron's condition; hdi_simplex_inner_depth checks it and solves again when
 * it is too large). Returns the volume determinant, 0 (l undefined) when flat. */
double hdi_tetra_signed_weights(const double p0[3], const double p1[3], const double p2[3],
                                const double p3[3], double l[4]);

#endif
