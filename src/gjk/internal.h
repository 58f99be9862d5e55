/* Private pieces of the 2D GJK (gjk/gjk2d.c, gjk/gjk2d_query.c, gjk/gjk2d_contact.c): the same
 * algorithm as the 3D one (kernel/gjk_core.c, contact/classify.c) on raw point arrays in the plane.
 */
#ifndef HD_GJK_INTERNAL_H
#define HD_GJK_INTERNAL_H

#include "hedra/gjk2d.h"
#include "kernel/simplex2d.h"

/* The two point sets and the tolerances of one query. */
typedef struct hdi_pair2d {
    const double *a;
    const double *b;
    int na;
    int nb;
    double scale; /* largest absolute coordinate of either set */
    double eps;   /* touch_rel * scale */
    int max_iterations;
} hdi_pair2d;

typedef enum hdi_gjk2d_end {
    HD_GJK2D_RUNNING = 0,
    HD_GJK2D_SEPARATED,
    HD_GJK2D_ENCLOSED, /* a triangle holding the origin strictly inside */
    HD_GJK2D_ORIGIN,   /* |v| at rounding level */
    HD_GJK2D_CONVERGED
} hdi_gjk2d_end;

typedef struct hdi_gjk2d_state {
    hdi_simplex2d simplex;
    double v[2];
    double vv;         /* |v|^2, DBL_MAX while the simplex is empty */
    double lower;      /* best lower bound on the distance */
    double plane_n[2]; /* unit n (B towards A) with n.(a - b) >= lower everywhere */
    int plane_ia;
    int plane_ib;
    int iterations;
    hdi_gjk2d_end end;
} hdi_gjk2d_state;

/* Index of a point maximising d.p (lowest index among ties). */
int hdi_gjk2d_support(const double *pts, int n, const double d[2]);

/* Support point of M in direction d: w = a[S_A(d)] - b[S_B(-d)]; counts two support calls. */
void hdi_gjk2d_support_m(const hdi_pair2d *p, const double d[2], int *ia, int *ib, double w[2],
                         hd_stats *stats);

/* The GJK loop (as hdi_gjk_iterate) from st, which starts empty when st->iterations == 0 and
 * st->simplex.count == 0. */
void hdi_gjk2d_start(const hdi_pair2d *p, hdi_gjk2d_state *st);
hd_status hdi_gjk2d_iterate(const hdi_pair2d *p, double separation, hdi_gjk2d_state *st,
                            hd_stats *stats);

/* Certificates from the state: the line of the best lower bound, the point of a simplex. */
void hdi_gjk2d_line(const hdi_pair2d *p, const hdi_gjk2d_state *st, hd_certificate2d *cert);
void hdi_gjk2d_point(const hdi_pair2d *p, const hdi_simplex2d *s, hd_certificate2d *cert);
void hdi_gjk2d_witnesses(const hdi_pair2d *p, const hdi_simplex2d *s, double on_a[2],
                         double on_b[2]);

/* What hd_distance2d answers besides hd_collide2d's fields. */
typedef struct hdi_closest2d {
    double distance;
    double witness_a[2];
    double witness_b[2];
} hdi_closest2d;

/* The distance and witnesses of a decided pair (hdi_gjk2d_refine's, and GJK's own answers). */
void hdi_gjk2d_closest(const hdi_pair2d *p, const hdi_gjk2d_state *st,
                       const hd_collide2d_result *out, hdi_closest2d *closest);

/* The contact classifier in the plane (contact/classify.c's rules; the depth side by an expanding
 * polygon). Sets verdict, certificate, stop = HD_STOP_REFINED, refine_steps; with closest (NULL
 * for hd_collide2d) also the distance and witnesses. */
hd_status hdi_gjk2d_refine(const hdi_pair2d *p, hdi_gjk2d_state *st, hdi_closest2d *closest,
                           hd_collide2d_result *out);

#endif
