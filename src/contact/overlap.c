/* The proof of an overlap that every algorithm left undecided (docs/algorithms/gjk.md, section 5:
 * a needle M = A - B about as wide as the band, overlapping by a little more than eps, where no
 * polytope inside M proves a depth beyond the band in double).
 *
 * The depth bound comes from the facets of M, not from a polytope inside it. The depth is
 * min over unit n of h_M(n), attained at a facet normal of M, and h_M(n) >= depth for every unit
 * n; so the least h_M over any set of unit vectors that holds every facet normal is the depth.
 * A facet of M = A + (-B) is a 2-face of A plus a face of -B, a face of A plus a 2-face of -B, or
 * the sum of an edge of each (Minkowski sums of polytopes; Ziegler, "Lectures on Polytopes",
 * section 7.1). Every 2-face holds three vertices that are not collinear, and every edge is a
 * vertex pair, so the candidates below are such a set whatever faces the hull merged: the normals
 * (both signs) of every vertex triple of A and of B, and of the cross product of every vertex
 * pair of A with every vertex pair of B. Each normal is taken from exact edge differences in
 * double-double (kernel/simplex_robust.c) and is then right to a few units of 2^-53; a candidate
 * whose two edges are parallel to within HD_OVERLAP_SINE_MIN (where that could fail) ends the
 * attempt without a proof. The computed min(h_M(n), h_M(-n)) of each candidate, less
 * HD_OVERLAP_ROUNDING_UNITS units of 2^-53 (|a| + |b| + |t|), bounds the depth from below.
 *
 * The point certificate is GJK's: its simplex when it stopped (on these pairs a step it cannot
 * take, |v| within eps), weighted in double-double (hdi_gjk_point_precise), kept when its two
 * convex combinations are within eps of each other, which is what hd_certificate_check asks of
 * an intersecting verdict's point; the depth bound is what proves the overlap. The query layer
 * checks the whole certificate with hd_certificate_check before it answers. The candidates number
 * O(V_A^3 + V_B^3 + V_A^2 V_B^2), so the proof is tried on small pairs only (HD_OVERLAP_WORK_MAX).
 */
#include <float.h>
#include <math.h>

#include "contact/classify.h"
#include "core/math.h"
#include "core/tolerances.h"
#include "kernel/simplex_robust.h"
#include "polytope/internal.h"

typedef struct hdi_overlap_bound {
    const hdi_pair *pair;
    double allowance; /* the rounding allowance of one candidate's bound */
    double least;     /* the least bound so far; DBL_MAX until a candidate is offered */
    int failed;       /* a candidate whose normal cannot be trusted: no proof */
} hdi_overlap_bound;

/* min(h_M(n), h_M(-n)) for M = A - (R B + t), n in A's frame. */
static double both_sides(const hdi_pair *pair, const double n[3])
{
    const hd_polytope *a = pair->a, *b = pair->b;
    double amax = -DBL_MAX, amin = DBL_MAX, bmax = -DBL_MAX, bmin = DBL_MAX;
    for (int i = 0; i < a->vertex_count; ++i) {
        double x = hdi_v3_dot(n, a->verts + 3 * i);
        amax = hdi_max(amax, x);
        amin = hdi_min(amin, x);
    }
    double m[3];
    hdi_pair_dir_to_b(pair, n, m);
    for (int j = 0; j < b->vertex_count; ++j) {
        double y = hdi_v3_dot(m, b->verts + 3 * j);
        bmax = hdi_max(bmax, y);
        bmin = hdi_min(bmin, y);
    }
    double tn = hdi_v3_dot(n, pair->t);
    return hdi_min(amax - (bmin + tn), (bmax + tn) - amin);
}

static void offer(hdi_overlap_bound *o, int has_normal, const double n[3], double sine)
{
    if (!has_normal || !(sine >= HD_OVERLAP_SINE_MIN)) {
        o->failed = 1;
        return;
    }
    o->least = hdi_min(o->least, both_sides(o->pair, n) - o->allowance);
}

/* Whether to go on: no failure, and the bound can still clear the band. */
static int going(const hdi_overlap_bound *o)
{
    return !o->failed && o->least > o->pair->eps;
}

/* The normals of the vertex triples of p, found in p's frame and turned into A's by r (NULL: p
 * is A). */
static void offer_triples(hdi_overlap_bound *o, const hd_polytope *p, const double *r)
{
    const double *v = p->verts;
    int n = p->vertex_count;
    for (int i = 0; i < n && going(o); ++i) {
        for (int j = i + 1; j < n && going(o); ++j) {
            for (int k = j + 1; k < n && going(o); ++k) {
                double local[3] = {0.0, 0.0, 0.0}, u[3], sine;
                int ok = hdi_triangle_normal_sine(v + 3 * i, v + 3 * j, v + 3 * k, local, &sine);
                if (r != NULL) {
                    hdi_m3_mul_v(u, r, local);
                } else {
                    hdi_v3_copy(u, local);
                }
                offer(o, ok, u, sine);
            }
        }
    }
}

/* The cross products of A's vertex pairs with B's (B's edges turned into A's frame). */
static void offer_edge_pairs(hdi_overlap_bound *o)
{
    const hdi_pair *pair = o->pair;
    const double *va = pair->a->verts, *vb = pair->b->verts;
    int na = pair->a->vertex_count, nb = pair->b->vertex_count;
    for (int i = 0; i < na && going(o); ++i) {
        for (int j = i + 1; j < na && going(o); ++j) {
            for (int k = 0; k < nb && going(o); ++k) {
                for (int l = k + 1; l < nb && going(o); ++l) {
                    double u[3], sine;
                    int ok = hdi_edge_pair_normal_sine(va + 3 * i, va + 3 * j, vb + 3 * k,
                                                       vb + 3 * l, pair->r, u, &sine);
                    offer(o, ok, u, sine);
                }
            }
        }
    }
}

static double largest_norm(const hd_polytope *p)
{
    double r = 0.0;
    for (int i = 0; i < p->vertex_count; ++i) {
        r = hdi_max(r, hdi_v3_len(p->verts + 3 * i));
    }
    return r;
}

/* Candidates times vertices, in double (no overflow for any vertex count). */
static double work(const hdi_pair *pair)
{
    double na = pair->a->vertex_count, nb = pair->b->vertex_count;
    double triples = na * (na - 1) * (na - 2) / 6.0 + nb * (nb - 1) * (nb - 2) / 6.0;
    double pairs = na * (na - 1) / 2.0 * (nb * (nb - 1) / 2.0);
    return (triples + pairs) * (na + nb);
}

int hdi_overlap_depth_bound(const hdi_pair *pair, double *depth)
{
    if (!(work(pair) <= HD_OVERLAP_WORK_MAX)) {
        return 0;
    }
    double reach = largest_norm(pair->a) + largest_norm(pair->b) + hdi_v3_len(pair->t);
    hdi_overlap_bound o = {pair, HD_OVERLAP_ROUNDING_UNITS * DBL_EPSILON * reach, DBL_MAX, 0};
    offer_triples(&o, pair->a, NULL);
    offer_triples(&o, pair->b, pair->r);
    offer_edge_pairs(&o);
    *depth = o.least;
    return o.least < DBL_MAX && going(&o);
}

/* GJK's point pair within eps, as the certificate's point, or 0. */
static int common_point(const hdi_pair *pair, hd_collide_result *out)
{
    hdi_pair local = *pair; /* tolerances in A's frame, as hd_signed_distance's */
    local.scale = hdi_pair_local_scale(pair);
    hdi_gjk_state st;
    hdi_gjk_start(&local, NULL, &st);
    (void)hdi_gjk_iterate(&local, DBL_MAX, &st, &out->stats); /* a stall still leaves a simplex */
    out->stats.iterations += st.iterations;
    double pa[3], pb[3];
    if (st.simplex.count == 0 || !hdi_gjk_point_precise(&local, &st.simplex, &out->cert)) {
        return 0;
    }
    hdi_certificate_point_pair(pair, &out->cert, pa, pb);
    return hdi_v3_dist(pa, pb) <= pair->eps;
}

int hdi_overlap_prove(const hdi_pair *pair, hd_collide_result *out)
{
    double depth;
    if (!hdi_overlap_depth_bound(pair, &depth) || !common_point(pair, out)) {
        return 0;
    }
    out->verdict = HD_INTERSECTING;
    out->cert.depth_bound = depth;
    return 1;
}
