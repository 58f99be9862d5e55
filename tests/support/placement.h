/* Placement of a benchmark pair at a chosen gap l along a direction u (CD-Dual section 5), computed
 * independently of every algorithm under test: a linear program solved by GLPK (glp_simplex) for
 * its optimal basis, whose basic system is then re-solved in extended precision, and whose answer
 * is checked by brute force on the vertex sets.
 *
 * A is fixed; B is rotated (vertices Rb) and translated by t u. Then
 *     A and B + t u meet  <=>  t u in M = A - RB  <=>  t in [t_lo, t_hi],
 * where t_hi = max { t : t u in M } and t_lo = min { t : t u in M } are the two ends of the chord of
 * M along the line R u (two LPs in the convex weights of the vertices). Placing B at t = t_hi + l:
 *   l > 0: B must move back by l along u to touch A (separated);
 *   l = 0: B touches A;
 *   l < 0 (and t > t_lo): B must move by |l| along u to separate (intersecting).
 * Certificates, checked in O(n) by hd_pl_check:
 *   - the dual of the t_hi program is a plane normal d with d.u > 0 and h_A(d) + h_RB(-d) = t_hi d.u,
 *     so for l > 0 the plane d separates A and B + t u with gap l (d.u) / |d|;
 *   - the primal weights of the two programs, interpolated, give a common point for l <= 0.
 * Depends on GLPK only; the benchmark places its pairs with it too (bench/ uses tests/support/,
 * never the other way). */
#ifndef HD_TEST_PLACEMENT_H
#define HD_TEST_PLACEMENT_H

#ifdef __cplusplus
extern "C" {
#endif

/* At most 5 basic variables among the weights (3 coordinate rows + 2 convexity rows). */
#define HD_PL_MAX_SUPPORT 6

typedef struct hd_pl_weights {
    int count_a, count_b;
    int index_a[HD_PL_MAX_SUPPORT], index_b[HD_PL_MAX_SUPPORT];
    double weight_a[HD_PL_MAX_SUPPORT], weight_b[HD_PL_MAX_SUPPORT];
} hd_pl_weights;

typedef struct hd_pl_ray {
    double u[3];          /* unit direction of B's translation */
    double t_hi, t_lo;    /* the chord [t_lo, t_hi] of M along u */
    double normal_hi[3];  /* unit d from the dual at t_hi, d.u > 0 */
    double cos_hi;        /* d.u: l * cos_hi is the separating gap at l > 0 */
    double bracket;       /* verified error bound of both ends: |plane bound - basic point| plus
                             the basic point's residual (length units); HUGE_VAL if unverified */
    hd_pl_weights w_hi, w_lo; /* primal weights: sum wa a - sum wb Rb = t u */
} hd_pl_ray;

/* Solves the two LPs for A (na points) and the rotated B (rb: nb points R b, not translated).
 * Returns 0, or -1 with a message when the line t u misses M (no contact along u) or GLPK fails. */
int hd_pl_ray_solve(const double *a, int na, const double *rb, int nb, const double u[3],
                    hd_pl_ray *out, char *err, int err_size);

/* Checks the placement t = t_hi + l by brute force on the vertex sets (b: B's vertices posed at
 * t u, i.e. rb + t u). Returns the evidence: for l > 0 the gap of the plane normal_hi (must be
 * > 0), for l <= 0 the residual |x_A - x_B| of the interpolated common point (must be ~0).
 * *ok = 1 when the evidence agrees with the sign of l within tol (absolute length). */
double hd_pl_check(const hd_pl_ray *ray, double l, const double *a, int na, const double *b,
                   int nb, double tol, int *ok);

#ifdef __cplusplus
}
#endif

#endif
