/* The signed-area sub-simplex solver in the plane (simplex2d.c): the 2D counterpart of
 * kernel/simplex.h, used by the 2D GJK (gjk/gjk2d*.c). */
#ifndef HD_KERNEL_SIMPLEX2D_H
#define HD_KERNEL_SIMPLEX2D_H

/* Up to three points w_i = a[ia_i] - b[ib_i] of M = A - B and the weights of the closest point. */
typedef struct hdi_simplex2d {
    int count;
    double w[3][2];
    int ia[3];
    int ib[3];
    double lambda[3];
} hdi_simplex2d;

/* The signed-area sub-simplex solver (kernel/simplex.c in the plane): reduces s to the support set
 * of its point closest to the origin, with weights; a triangle survives only when the origin is
 * strictly inside (v = 0). */
void hdi_simplex2d_solve(hdi_simplex2d *s, double v[2]);

/* For a triangle holding the origin: the smallest distance from the origin to its edge lines. */
double hdi_simplex2d_inner_depth(const hdi_simplex2d *s);

int hdi_simplex2d_has_pair(const hdi_simplex2d *s, int ia, int ib);

/* Barycentric coordinates of the origin in triangle p0 p1 p2 (signed areas); returns the
 * doubled signed area (0: degenerate, l undefined). */
double hdi_tri2d_barycentric(const double p0[2], const double p1[2], const double p2[2],
                             double l[3]);

#endif
