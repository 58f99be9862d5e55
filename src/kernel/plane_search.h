/* A planar simplex search (GJK restricted to a plane) on a convex set given by its support
 * mapping, projected onto the plane spanned by two orthonormal vectors e1, e2. It decides whether
 * the origin's projection lies in the projection of the set and writes it (or the nearest point
 * of the projection) as a convex combination of at most three support points, each tagged with
 * two indices by the support function. Used by the directional gap (the projection of M along s,
 * CD-Dual section 6) and by the location of a point on a face of M (kernel/feature.c). */
#ifndef HD_CDDUAL_PLANE_H
#define HD_CDDUAL_PLANE_H

#include "hedra/core.h"

/* Support point w (3D) of the set in direction d (3D, in the plane), with two indices (for
 * example a vertex of A and one of B). */
typedef void (*hdi_plane_support_fn)(void *ctx, const double d[3], double w[3], int *ia, int *ib);

typedef struct hdi_plane_result {
    int count;        /* support points in the combination, 1..3 */
    double lambda[3]; /* convex weights */
    double w[3][3];   /* the support points (3D) */
    int ia[3];
    int ib[3];
    double distance; /* in-plane distance from the origin to the projected set, 0 inside */
    int separated;   /* the search stopped on a separating line farther than tol */
} hdi_plane_result;

/* tol: stop with separated = 1 as soon as a line of the plane separates the origin from the
 * projection by more than tol (a lower bound); otherwise run to the nearest point (distance an
 * upper bound within rounding). max_iter caps the iterations (HD_ERR_ITERATION_LIMIT). */
hd_status hdi_plane_search(const double e1[3], const double e2[3], hdi_plane_support_fn support,
                           void *ctx, double tol, int max_iter, hdi_plane_result *out);

/* An orthonormal pair e1, e2 spanning the plane normal to the unit vector n. */
void hdi_plane_basis(const double n[3], double e1[3], double e2[3]);

#endif
