/* Minkowski portal refinement (Snethen, Game Programming Gems 7, 2008), written from its geometry:
 * the ray r from an interior point v0 of M = A - B through the origin leaves M somewhere; a
 * "portal" is a triangle of three support points that r crosses. Phase 1 finds one, each step
 * replacing the point whose side plane (through v0) has the origin outside it. Phase 2 refines it:
 * if the origin is on v0's side of the portal, the tetrahedron (v0, portal) holds it; otherwise the
 * support point along the portal's outward normal either falls short of the origin (a separating
 * plane) or makes a new portal, of the three triangles it forms with the portal's edges the one r
 * crosses. Only the proofs count here: a separating plane is a support plane measured from the
 * support pair, and an enclosing tetrahedron is handed to the caller, who proves the origin inside
 * it with depth to spare (kernel/simplex.c) before answering. Whatever falls within the band or
 * degenerates is left undecided. The source is silent on both: its MPR answers "intersect" or
 * "separate" on the first sign, so a touching pair comes out intersecting; here each answer needs
 * its margin beyond the band. docs/algorithms/gjk.md, section 10. */
#include <math.h>
#include <stddef.h>

#include "kernel/mpr.h"
#include "core/math.h"
#include "core/tolerances.h"

typedef struct mpr_point {
    double w[3];
    int ia;
    int ib;
} mpr_point;

int hdi_mpr_applies(const hdi_pair *pair)
{
    return pair->scan_both && pair->a->portal_vertex[0] >= 0 && pair->b->portal_vertex[0] >= 0;
}

/* The support point along n; 1 when it ends the search: it falls short of the origin
 * (n.w < 0, a separating direction), proven beyond the band (lower > eps: HD_MPR_SEPARATED) or
 * not (HD_MPR_UNDECIDED). The bound is compared on squares: no square root unless it is kept. */
static int support_ends(const hdi_pair *pair, const double n[3], int *start_a, int *start_b,
                        mpr_point *p, hdi_mpr_state *st, hd_stats *stats)
{
    hdi_pair_support_m_from(pair, n, start_a, start_b, NULL, NULL, 0, &p->ia, &p->ib, p->w, stats);
    double nw = hdi_v3_dot(n, p->w);
    if (!(nw < 0.0)) {
        return 0;
    }
    double nn = hdi_v3_len2(n);
    if (nw * nw > pair->eps * pair->eps * nn && nn > HD_GJK_PLAIN_NORM2_MIN) {
        double len = sqrt(nn);
        st->end = HD_MPR_SEPARATED;
        st->lower = -nw / len;
        hdi_v3_scale(st->plane_n, n, -1.0 / len);
        st->plane_ia = p->ia;
        st->plane_ib = p->ib;
    }
    return 1;
}

/* (q - p) x (r - p) */
static void triangle_normal(double n[3], const double p[3], const double q[3], const double r[3])
{
    double e1[3], e2[3];
    hdi_v3_sub(e1, q, p);
    hdi_v3_sub(e2, r, p);
    hdi_v3_cross(n, e1, e2);
}

/* The origin's side of the plane through 0, p and q, as the sign of (p x q).x. */
static double side(const double p[3], const double q[3], const double x[3])
{
    double c[3];
    hdi_v3_cross(c, p, q);
    return hdi_v3_dot(c, x);
}

/* The centroid of a solid's four portal vertices (its interior[0] point), in its own frame. */
static void centroid(const hd_polytope *p, double c[3])
{
    hdi_v3_set(c, 0.0, 0.0, 0.0);
    for (int k = 0; k < 4; ++k) {
        hdi_v3_madd(c, c, 0.25, p->verts + 3 * p->portal_vertex[k]);
    }
}

/* The interior point of M: the difference of the two centroids. */
static void interior_point(const hdi_pair *pair, mpr_point *v0)
{
    double ca[3], cb[3], pb[3];
    centroid(pair->a, ca);
    centroid(pair->b, cb);
    hdi_m3_mul_v(pb, pair->r, cb);
    hdi_v3_add(pb, pb, pair->t);
    hdi_v3_sub(v0->w, ca, pb);
    v0->ia = -1;
    v0->ib = -1;
}

/* Phase 1: a portal v[1..3] that the ray from v[0] through the origin crosses. 1 when found, 0
 * when the search ended (st->end set, or left undecided). */
static int discover_portal(const hdi_pair *pair, mpr_point v[4], int *sa, int *sb,
                           hdi_mpr_state *st, hd_stats *stats)
{
    double n[3];
    hdi_v3_neg(n, v[0].w);
    if (support_ends(pair, n, sa, sb, &v[1], st, stats)) {
        return 0;
    }
    hdi_v3_cross(n, v[1].w, v[0].w);
    if (!(hdi_v3_len2(n) > 0.0)) {
        return 0; /* v0, v1 and the origin on one line: the origin is on the segment v0 v1 */
    }
    if (support_ends(pair, n, sa, sb, &v[2], st, stats)) {
        return 0;
    }
    triangle_normal(n, v[0].w, v[1].w, v[2].w);
    if (hdi_v3_dot(n, v[0].w) > 0.0) {
        mpr_point t = v[1];
        v[1] = v[2];
        v[2] = t;
        hdi_v3_neg(n, n);
    }
    for (;;) {
        if (++st->iterations > pair->max_iterations) {
            return 0;
        }
        if (support_ends(pair, n, sa, sb, &v[3], st, stats)) {
            return 0;
        }
        if (side(v[1].w, v[3].w, v[0].w) < 0.0) {
            v[2] = v[3];
            triangle_normal(n, v[0].w, v[1].w, v[2].w);
        } else if (side(v[3].w, v[2].w, v[0].w) < 0.0) {
            v[1] = v[3];
            triangle_normal(n, v[0].w, v[1].w, v[2].w);
        } else {
            return 1;
        }
    }
}

static int same_pair(const mpr_point *p, const mpr_point *q)
{
    return p->ia == q->ia && p->ib == q->ib;
}

/* Phase 2. Returns with st->end set, or undecided. */
static void refine_portal(const hdi_pair *pair, mpr_point v[4], int *sa, int *sb, hdi_mpr_state *st,
                          hd_stats *stats)
{
    const double tol = HD_GJK_ABS_TOL * pair->scale;
    for (;;) {
        double n[3], away[3];
        triangle_normal(n, v[1].w, v[2].w, v[3].w);
        hdi_v3_sub(away, v[1].w, v[0].w);
        if (hdi_v3_dot(n, away) < 0.0) {
            hdi_v3_neg(n, n); /* outward: away from v0 */
        }
        if (hdi_v3_dot(n, v[1].w) >= 0.0) {
            st->end = HD_MPR_ENCLOSED;
            return;
        }
        if (++st->iterations > pair->max_iterations) {
            return;
        }
        mpr_point p;
        if (support_ends(pair, n, sa, sb, &p, st, stats)) {
            return;
        }
        /* no progress beyond the portal's plane: the origin is within the rounding of M's
         * boundary, where only the classifier decides */
        double gain = hdi_v3_dot(n, p.w) - hdi_v3_dot(n, v[1].w);
        if (!(gain > 0.0) || gain * gain <= tol * tol * hdi_v3_len2(n) || same_pair(&p, &v[1]) ||
            same_pair(&p, &v[2]) || same_pair(&p, &v[3])) {
            return;
        }
        /* of the triangles (p, v1, v2), (p, v2, v3), (p, v3, v1), the one the ray crosses: the
         * plane through 0, p and v0 tells on which side of it each portal point lies */
        double c[3];
        hdi_v3_cross(c, p.w, v[0].w);
        if (hdi_v3_dot(v[1].w, c) > 0.0) {
            v[hdi_v3_dot(v[2].w, c) > 0.0 ? 1 : 3] = p;
        } else {
            v[hdi_v3_dot(v[3].w, c) > 0.0 ? 2 : 1] = p;
        }
    }
}

void hdi_mpr_run(const hdi_pair *pair, hdi_mpr_state *st, hd_stats *stats)
{
    st->end = HD_MPR_UNDECIDED;
    st->iterations = 0;
    st->tetra.count = 0;
    mpr_point v[4];
    interior_point(pair, &v[0]);
    const double tol = HD_GJK_ABS_TOL * pair->scale;
    if (!(hdi_v3_len2(v[0].w) > tol * tol) || !hdi_v3_is_finite(v[0].w)) {
        return; /* the origin at the interior point: no ray to follow */
    }
    int sa = 0, sb = 0;
    if (!discover_portal(pair, v, &sa, &sb, st, stats)) {
        return;
    }
    refine_portal(pair, v, &sa, &sb, st, stats);
    if (st->end != HD_MPR_SEPARATED) {
        st->tetra.count = 4;
        for (int j = 0; j < 4; ++j) {
            hdi_v3_copy(st->tetra.w[j], v[j].w);
            st->tetra.ia[j] = v[j].ia;
            st->tetra.ib[j] = v[j].ib;
        }
    }
}
