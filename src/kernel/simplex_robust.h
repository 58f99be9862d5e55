/* Accurate kernels for badly shaped simplices of M = A - B (needles, slivers and caps whose
 * vertices lie many orders of magnitude further from the origin than the simplex is wide), used
 * where a certificate is built from them: the barycentric weights of the common point of an
 * intersecting pair and the face normals behind a proven depth bound (kernel/simplex.c,
 * kernel/epa.c). */
#ifndef HD_SIMPLEX_ROBUST_H
#define HD_SIMPLEX_ROBUST_H

/* Weights l (summing to 1, not clamped) with sum l_j w_j = 0 for the tetrahedron w[0..3], solved
 * backward stably: the residual |sum l_j w_j| is a few units of 2^-53 max |w| however thin the
 * tetrahedron is (signed volumes by Cramer's rule are not: their residual grows with the
 * tetrahedron's condition). Returns 0 (l untouched) when the system is singular to working
 * precision or not finite. */
int hd_tetra_weights_robust(const double (*w)[3], double l[4]);

/* The unit normal (y - x) x (z - x) of the triangle x y z, from a cross product evaluated in
 * double-double arithmetic: its direction is right to a few units of 2^-53 even for triangles
 * far thinner than their distance from the origin. Returns 0 (n untouched) when the triangle is
 * degenerate (zero normal) or the input is not finite. */
int hd_triangle_unit_normal(const double x[3], const double y[3], const double z[3], double n[3]);

#endif
