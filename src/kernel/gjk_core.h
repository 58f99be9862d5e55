/* The GJK iteration on a posed pair, shared by the GJK queries (gjk/gjk.c) and the contact
 * classifier (contact/classify.c). Works in A's frame on M = A - B. */
#ifndef HD_GJK_CORE_H
#define HD_GJK_CORE_H

#include <float.h>

#include "kernel/simplex.h"
#include "kernel/workspace.h"
#include "core/tolerances.h"

/* Why the loop stopped. */
typedef enum hdi_gjk_end {
    HD_GJK_RUNNING = 0,
    HD_GJK_SEPARATED, /* lower > the caller's separation threshold (early exit) */
    HD_GJK_ENCLOSED,  /* the simplex is a tetrahedron holding the origin strictly inside */
    HD_GJK_ORIGIN,    /* |v| at rounding level, or a stuck step with |v| <= eps: the origin lies
                         on the simplex or within the touching band of it */
    HD_GJK_CONVERGED  /* upper and lower bounds met (tolerance, repeated pair or no progress) */
} hdi_gjk_end;

/* What hd_distance answers besides hd_collide's fields: filled in A's frame by gjk/gjk.c and the
 * contact classifier, mapped to the world frame by query/query.c. */
typedef struct hdi_closest {
    double distance;
    double witness_a[3];
    double witness_b[3];
} hdi_closest;

typedef struct hdi_gjk_state {
    hdi_simplex simplex;
    double v[3];       /* the point of conv(simplex) closest to the origin (A's frame) */
    double vv;         /* |v|^2; DBL_MAX while the simplex is empty */
    double lower;      /* best lower bound on the distance found so far; only bounds >= -eps
                           are kept (-DBL_MAX when none: they certify nothing) */
    double plane_n[3]; /* unit n with n.(a - b) >= lower for all a in A, b in B */
    int plane_ia;      /* the support pair that attains it: a vertex of A minimising n.a, */
    int plane_ib;      /* and a vertex of B maximising n.b */
    int start_a;       /* hill-climbing starts */
    int start_b;
    int iterations;
    hdi_gjk_end end;
    hdi_gjk_trace *trace; /* NULL unless the path is recorded (HD_QUERY_RECORD_PATH) */
} hdi_gjk_state;

/* Initial state: the cached simplex (indices validated, points recomputed for the current pose)
 * and climbing starts when cache is valid, else an empty simplex with the direction between the
 * bounding-sphere centres. cache may be NULL. No path is recorded unless the caller then sets
 * st->trace. */
void hdi_gjk_start(const hdi_pair *pair, const hd_cache *cache, hdi_gjk_state *st);

/* Runs GJK until one of the ends above. separation: stop (HD_GJK_SEPARATED) as soon as
 * lower > separation (DBL_MAX never stops early). Counts iterations in st and support calls in
 * stats (may be NULL). HD_ERR_ITERATION_LIMIT when st->iterations reaches pair->max_iterations. */
hd_status hdi_gjk_iterate(const hdi_pair *pair, double separation, hdi_gjk_state *st,
                          hd_stats *stats);

/* A separated state whose bounds GJK left apart (a simplex thin against its distance from the
 * origin: the double solve loses the digits of its short edges) polished: the simplex solved in
 * double-double from the vertices of A and B (hdi_simplex_nearest_precise), a support query along
 * the new v, repeated until the bounds meet within HD_GJK_STALL_FACTOR tolerances or the support
 * pair is already in the simplex, at most HD_GJK_POLISH_STEPS times (within
 * HD_CONTACT_ROUNDING_UNITS units of 2^-53 scale where a further point allows it). Updates st's
 * simplex (weights included), v, vv and lower; returns 1 when the bounds met, 0 otherwise (st
 * still consistent). A tetrahedron whose double-double solve holds the origin strictly inside
 * ends the polish with vv = 0 and its four points kept (returning 0: there is no distance to
 * polish). */
int hdi_gjk_polish(const hdi_pair *pair, hdi_gjk_state *st, hd_stats *stats);

/* Whether the double solve of simplex s may be off by more than an eighth of the band: its
 * rounding, about DBL_EPSILON max|w|^2 / width (the width: a segment's length, else the smallest
 * height of its triangles, whose normals are formed from edges rounded to DBL_EPSILON max|w|),
 * times HD_NEEDLE_ROUNDING_UNITS, above pair->eps / 8. */
int hdi_simplex_is_needle(const hdi_pair *pair, const hdi_simplex *s);

/* Whether a distance d and a proven lower bound agree to GJK's stopping tolerance:
 * d - lower <= HD_GJK_STALL_FACTOR max(HD_GJK_REL_TOL d, HD_GJK_ABS_TOL scale) plus
 * HD_CONTACT_ROUNDING_UNITS units of DBL_EPSILON scale (what a stall or a band-edge answer of the
 * classifier allows). */
int hdi_gjk_bounds_agree(const hdi_pair *pair, double d, double lower);

/* Stores the simplex pairs and the climbing starts in cache (may be NULL). */
void hdi_gjk_save(const hdi_gjk_state *st, hd_cache *cache);

/* The separating plane certificate of a unit plane_n with n.(a - b) >= lower for all a in A, b in
 * B (from B towards A, in A's frame) and the support pair (ia, ib) attaining it. */
void hdi_support_plane(const hdi_pair *pair, const double plane_n[3], int ia, int ib,
                       hd_certificate *cert);

/* The separating plane certificate of st (normal from A towards B, in A's frame): fills
 * has_plane, normal, offset and gap from the support pair of the best lower bound. */
void hdi_gjk_plane(const hdi_pair *pair, const hdi_gjk_state *st, hd_certificate *cert);

/* The point certificate of a simplex: point (on A), on_a, on_b. */
void hdi_gjk_point(const hdi_pair *pair, const hdi_simplex *s, hd_certificate *cert);

/* The point pair of a certificate's combinations, on A and on B (A's frame): for a touching
 * or intersecting answer, the points the classifier proved within eps (or the depth bound) of
 * each other. The simplex's own weights can be far off on a badly conditioned simplex (a needle
 * tetrahedron: 3e7 apart at eps = 56, a fuzz finding). */
void hdi_certificate_point_pair(const hdi_pair *pair, const hd_certificate *cert, double on_a[3],
                                double on_b[3]);

/* The point certificate of a simplex with its weights solved again in double-double from the
 * vertices of A and B (hdi_simplex_nearest_precise): for a needle, whose double weights can put
 * the point pair far apart (a tetrahedron of length 0.7 and width 1e-8 holding the origin: the
 * two points 3e-9 apart, its depth bound 1.7e-9). 0 when the solve fails (cert untouched). */
int hdi_gjk_point_precise(const hdi_pair *pair, const hdi_simplex *s, hd_certificate *cert);

#endif
