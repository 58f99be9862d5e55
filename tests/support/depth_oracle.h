/* Independent penetration depth by brute-force separating axes, for the contact tests.
 *
 * For two polytopes whose Minkowski difference M = A - B contains the origin, the penetration
 * depth is the least support value h_M(u) = max_A u.a - min_B u.b over the facet normals u of M,
 * and every facet normal of M is a face normal of A, a negated face normal of B, or the cross
 * product of an edge of A with an edge of B. The oracle takes all of those axes (both signs of the
 * cross products), each computed in long double from the posed vertices (face normals by Newell's
 * method over the face loop), and h_M(u) by a scan of every vertex, also in long double. It uses
 * the polytopes' vertex lists and face / edge topology only, none of the library's algorithms.
 * O((F_A + F_B + E_A E_B) (V_A + V_B)): for polytopes of a few dozen vertices. */
#ifndef HD_TEST_DEPTH_ORACLE_H
#define HD_TEST_DEPTH_ORACLE_H

#include "hedra/hedra.h"

/* min over the candidate axes of h_M(u), in long double, and the axis attaining it (axis may be
 * NULL). When the origin lies in M this is the penetration depth (>= 0); a negative value says
 * the pair is separated (its opposite is then a lower bound on the distance). A pair without any
 * axis (points, parallel segments) gives +infinity. */
long double hd_oracle_depth(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                            const hd_pose *pb, double axis[3]);

/* A bound on the oracle's own rounding: 16 units of long double rounding times the largest
 * absolute posed coordinate (the posed vertices carry it; far from the origin it exceeds the
 * library's rounding in A's frame). */
long double hd_oracle_error(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                            const hd_pose *pb);

/* h_M(u) for the unit vector u (normalised here in long double). */
long double hd_oracle_support(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                              const hd_pose *pb, const double u[3]);

/* max over the posed vertices of p of u.v (long double). */
long double hd_oracle_extreme(const hd_polytope *p, const hd_pose *pose, const double u[3]);

/* Largest signed distance of point x beyond the face planes of polytope p under pose (long
 * double, Newell normals): <= 0 inside, the distance outside a face for a solid. For a polytope
 * of dimension below 3, the distance from x to p computed by brute force instead. */
long double hd_oracle_outside(const hd_polytope *p, const hd_pose *pose, const double x[3]);

#endif
