/* The exact intersection oracle of the test suite: GLPK's rational simplex (glp_exact) on the
 * vertex LP
 *     sum_i lambda_i a_i - sum_j mu_j b_j = shift,  sum lambda = 1,  sum mu = 1,  lambda, mu >= 0.
 *
 * glp_exact converts a non-integral double to the simplest fraction within about 1e-9 of it
 * (GLPK's set_d_eps), so it does not see raw doubles exactly (it takes 1 + 2^-34 for 1). Integral
 * doubles are converted exactly (mpq_set_d, any magnitude). The oracle therefore multiplies
 * every coordinate by one common power of two 2^K that makes all of them integers -- an exact
 * scaling that does not change the answer -- before handing them to GLPK. K is the smallest such
 * exponent; if some scaled coordinate would overflow (coordinates whose binary exponents span more
 * than about 1000), the oracle reports failure (-2) instead of guessing.
 *
 * All functions take points in world coordinates, dim doubles each (row-major), and silence
 * GLPK's terminal output. They are slow (rational arithmetic): keep the sets small (<= ~100). */
#ifndef HD_ORACLE_H
#define HD_ORACLE_H

#include "hedra/query.h"

/* 1 when conv(a) and conv(b) + shift have a common point, 0 when they do not, -2 on failure.
 * shift: dim doubles, or NULL for zero. */
int hd_oracle_meet_dim(int dim, const double *a, int na, const double *b, int nb,
                       const double *shift);

/* The same in 3D without shift. */
int hd_oracle_intersect(const double *a, int na, const double *b, int nb);

/* 1 / 0 / -2 as above, any dimension 1..16, no shift. */
int hd_oracle_intersect_dim(int dim, const double *a, int na, const double *b, int nb);

/* The exact sign of the signed distance delta between conv(a) and conv(b) + shift:
 *   +1: disjoint (delta > 0);
 *    0: they meet but their interiors do not overlap (delta = 0: touching, or a flat overlap);
 *   -1: the origin is interior to conv(a) - conv(b) - shift (delta < 0);
 *   -2: failure.
 * The overlap test asks, for each of the 2 dim rays +-e_k from the origin, whether it stays in
 * the Minkowski difference for a positive length (max rho with rho (+-e_k) in M, exactly): all
 * 2 dim positive iff the origin is interior (the cross-polytope they span is in M). */
int hd_oracle_sign_dim(int dim, const double *a, int na, const double *b, int nb,
                       const double *shift);

/* 3D, no shift. */
int hd_oracle_sign(const double *a, int na, const double *b, int nb);

/* Whether verdict v is consistent with the exact sign of delta and its magnitude |delta| as the
 * test constructed it (approximately: a nominal gap or depth), for the touching band eps:
 *   sign 0 -> HD_TOUCHING;  sign +1 -> HD_SEPARATED when magnitude > 2 eps, HD_TOUCHING when
 *   magnitude < eps / 2, either in between;  sign -1 likewise with HD_INTERSECTING.
 * band_factor >= 1 widens the "either" zone to [eps / 2, 2 eps band_factor] (sqrt(dim) for the
 * raw LP API's conservative band). Returns 1 when consistent. */
int hd_oracle_verdict_ok(int sign, double magnitude, double eps, double band_factor,
                         hd_verdict v);

#endif
