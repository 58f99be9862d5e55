/* Accurate kernels for badly shaped simplices of M = A - B (needles, slivers and caps whose
 * vertices lie many orders of magnitude further from the origin than the simplex is wide), used
 * where a certificate is built from them: the barycentric weights of the common point of an
 * intersecting pair and the face normals behind a proven depth bound (kernel/simplex.c,
 * kernel/epa.c), and the normals of badly shaped facets of M (kernel/mface.c). */
#ifndef HD_SIMPLEX_ROBUST_H
#define HD_SIMPLEX_ROBUST_H

/* Weights l (summing to 1, not clamped) with sum l_j w_j = 0 for the tetrahedron w[0..3], solved
 * backward stably: the residual |sum l_j w_j| is a few units of 2^-53 max |w| however thin the
 * tetrahedron is (signed volumes by Cramer's rule are not: their residual grows with the
 * tetrahedron's condition). Returns 0 (l untouched) when the system is singular to working
 * precision or not finite. */
int hdi_tetra_weights_robust(const double (*w)[3], double l[4]);

/* The unit normal (y - x) x (z - x) of the triangle x y z, from a cross product evaluated in
 * double-double arithmetic: its direction is right to a few units of 2^-53 even for triangles
 * far thinner than their distance from the origin. Returns 0 (n untouched) when the triangle is
 * degenerate (zero normal) or the input is not finite. */
int hdi_triangle_unit_normal(const double x[3], const double y[3], const double z[3], double n[3]);

/* The same unit normal, in double when the triangle is well shaped (the sine of its angle at x
 * above HD_PLAIN_NORMAL_SINE, where the cross product of the two edges, scaled to unit size first,
 * has a relative error of a few units of 2^-53 over the sine), else by hdi_triangle_unit_normal.
 * Bounds of the form min over the corners of n.x stay valid with any unit n; this one keeps them
 * tight to about 2^-53 / HD_PLAIN_NORMAL_SINE of the corners' magnitude. Returns 0 as above. */
int hdi_triangle_normal_fast(const double x[3], const double y[3], const double z[3], double n[3]);

/* The same unit normal with no scaling of the edges when their squared lengths lie in
 * [HD_EPA_PLAIN_EDGE2_MIN, HD_EPA_PLAIN_EDGE2_MAX] (every product then far from under- and
 * overflow, so as accurate as the scaled one) and the triangle is well shaped; else
 * hdi_triangle_normal_fast. One square root and one division. Returns 0 as above. */
int hdi_triangle_normal_plain(const double x[3], const double y[3], const double z[3], double n[3]);

/* The unit normal of p x (r q), p = p1 - p0 and q = q1 - q0 (r a rotation, row-major: q is an
 * edge of B and r B's rotation into A's frame), in double-double from the exact differences: right
 * to a few units of 2^-53 however nearly parallel the edges are. The edges are scaled by powers of
 * two first, so any finite coordinates will do. Returns 0 (n untouched) when the edges are parallel
 * or the input is not finite. */
int hdi_edge_pair_unit_normal(const double p0[3], const double p1[3], const double q0[3],
                              const double q1[3], const double r[9], double n[3]);

/* hdi_triangle_unit_normal and hdi_edge_pair_unit_normal with, in *sine, the sine of the angle
 * between the two edges, to a few units of 2^-53 relative (from the exact edges, so however far
 * the vertices lie from their origin; 0 when an edge is zero): the normal's direction is right to
 * a few units of 2^-53 while the sine is far above 2^-100. */
int hdi_triangle_normal_sine(const double x[3], const double y[3], const double z[3], double n[3],
                             double *sine);
int hdi_edge_pair_normal_sine(const double p0[3], const double p1[3], const double q0[3],
                              const double q1[3], const double r[9], double n[3], double *sine);

/* The point v of conv(w_0 .. w_{count-1}) nearest the origin (count 1 to 4; v = 0 for a
 * tetrahedron holding the origin strictly inside), w_j = a_j - b_j taken exactly as pairs of
 * doubles, every sub-simplex's projection solved in double-double: right to a few units of 2^-53
 * |v| however thin the simplex, where the double solve of kernel/simplex.c loses the digits of an
 * edge much shorter than its points' distance from the origin (w_j rounded before the edges are
 * formed). l receives the weights (0 for the points left out). Returns 0 when no candidate is
 * finite. For the rare separated answers whose bounds the double solve cannot bring together
 * (gjk_core.c, hdi_gjk_polish). */
int hdi_simplex_nearest_precise(const double (*a)[3], const double (*b)[3], int count, double v[3],
                                double l[4]);

/* The lift c = sum l_j w_j of a planar search's answer (kernel/plane_search.h): w_j = a_j - b_j
 * (count 1 to 3) taken exactly as pairs of doubles, their projections on the orthonormal e1, e2
 * and the weights l (barycentric for a triangle holding the origin's projection, the nearest
 * point's for a segment) solved in double-double, c rounded once. The lift in double,
 * sum l_j w_j with the search's weights, can miss the line {tau s} (s normal to e1, e2) by
 * far more than the band when the projected triangle is a needle (a square of side 1e-8 against
 * a segment of 17: 1.3e-7 off, at eps = 2.6e-13), and the directional gap measured along it was
 * wrong. Returns 0 (c undefined) when the projection is degenerate or c not finite. */
int hdi_plane_lift_precise(const double (*a)[3], const double (*b)[3], int count,
                           const double e1[3], const double e2[3], double c[3]);

#endif
