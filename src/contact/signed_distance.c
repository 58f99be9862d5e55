/* Signed distance of a posed pair (docs/algorithms/contact.md), in A's frame on M = A - B:
 *
 *   GJK to convergence: when its lower bound proves a positive distance beyond rounding, the pair
 *     is separated: delta = |v|, n = -v / |v|, witnesses from the simplex; the facet of M at the
 *     support pair along n replaces n when its plane attains the distance (exact normal).
 *   otherwise the origin is in M or within rounding of it: the expanding polytope (van den Bergen
 *     2001) runs from GJK's simplex to convergence with exact support mappings, giving a proven
 *     lower bound (the inner polytope's nearest face) and upper bound (h_M along the best normal);
 *     the facet of M through the support pair of that normal is then found among the FV, VF and
 *     EE faces there (CD-Dual 003 section 2.1), and its exact plane n.x = h gives depth = h.
 *   when the bounds are still far apart (a degenerate or full inner polytope), or when asked,
 *     the separating-axis method takes the least h over every facet of M: exact, no memory.
 *
 * Rounding: every bound is widened by margin = HD_SD_ROUNDING_UNITS ulps of the largest
 * coordinate in A's frame (hdi_sd_result.margin); see the document for the error analysis. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "contact/signed_distance.h"
#include "contact/classify.h"
#include "kernel/epa.h"
#include "kernel/gjk_core.h"
#include "core/math.h"
#include "core/tolerances.h"

/* Diagonal of the bounding box of A and B in A's frame (B's box is bounded through its
 * rotated half extents: |R| h). */
static double pair_size(const hdi_pair *pair)
{
    const hd_polytope *a = pair->a, *b = pair->b;
    double lo[3], hi[3], cb[3], hb[3], d[3];
    for (int i = 0; i < 3; ++i) {
        cb[i] = 0.5 * (b->aabb_lo[i] + b->aabb_hi[i]);
        hb[i] = 0.5 * (b->aabb_hi[i] - b->aabb_lo[i]);
    }
    double c[3];
    hdi_m3_mul_v(c, pair->r, cb);
    hdi_v3_add(c, c, pair->t);
    for (int i = 0; i < 3; ++i) {
        double e = fabs(pair->r[3 * i]) * hb[0] + fabs(pair->r[3 * i + 1]) * hb[1] +
                   fabs(pair->r[3 * i + 2]) * hb[2];
        lo[i] = hdi_min(a->aabb_lo[i], c[i] - e);
        hi[i] = hdi_max(a->aabb_hi[i], c[i] + e);
        d[i] = hi[i] - lo[i];
    }
    return hdi_v3_len(d);
}

/* The features of A and B that attain delta along n: the facet's when known, else the supporting
 * features at the support pair along n. */
void hdi_sd_set_features(const hdi_pair *pair, hdi_sd_result *out, int ia, int ib)
{
    if (out->facet.kind != HD_FACE_NONE) {
        hdi_mface_features(pair, &out->facet, &out->fa, &out->fb);
        return;
    }
    double nb[3], neg[3];
    hdi_v3_neg(neg, out->n);
    hdi_pair_dir_to_b(pair, neg, nb);
    out->fa = hdi_feature_support(pair->a, ia, out->n);
    out->fb = hdi_feature_support(pair->b, ib, nb);
}

/* (s, t) with s p - t q = r for r in the plane of p and q: crossing with q and with p gives
 * s (p x q) = r x q and t (p x q) = r x p. Its error grows with 1 / sin(p, q) only as much as the
 * problem's condition does (no normal equations, whose determinant pq^2 - pp qq cancels). 0 when
 * p and q are parallel. */
static int edge_params(const double p[3], const double q[3], const double r[3], double *s,
                       double *t)
{
    double n[3], c[3];
    hdi_v3_cross(n, p, q);
    double nn = hdi_v3_len2(n);
    if (!(nn > 0.0) || !isfinite(nn)) {
        return 0;
    }
    hdi_v3_cross(c, r, q);
    *s = hdi_v3_dot(c, n) / nn;
    hdi_v3_cross(c, r, p);
    *t = hdi_v3_dot(c, n) / nn;
    return 1;
}

/* Witnesses on the facet: its point x = -delta n nearest to the origin written as a - b with a on
 * A's feature and b on B's, so that wb - wa = delta n. A vertex on one side gives the other point
 * at once; two edges meet where s p - t q = x - a0 + b0, solved by edge_params and, when the
 * residual is above rounding, one step of iterative refinement (the residual solved again): on
 * nearly parallel edges (sine 6e-9 at 4e13 in fuzzing) the first solve is off by about
 * 2^-53 / sine, the refined one leaves a residual of a few units of the coordinates (Higham,
 * "Accuracy and Stability of Numerical Algorithms", section 12.2). Larger features are located by
 * the planar search (hdi_mface_locate). */
static int edge_witnesses(const hdi_pair *pair, const double x[3], hdi_sd_result *out)
{
    const hd_polytope *a = pair->a, *b = pair->b;
    double a0[3], a1[3], b0[3], b1[3], p[3], q[3], r[3], rho[3], sa, tb, ds, dt;
    hdi_v3_copy(a0, a->verts + 3 * a->edge_verts[2 * out->fa.index]);
    hdi_v3_copy(a1, a->verts + 3 * a->edge_verts[2 * out->fa.index + 1]);
    hdi_pair_b_vertex(pair, b->edge_verts[2 * out->fb.index], b0);
    hdi_pair_b_vertex(pair, b->edge_verts[2 * out->fb.index + 1], b1);
    hdi_v3_sub(p, a1, a0);
    hdi_v3_sub(q, b1, b0);
    hdi_v3_sub(r, x, a0);
    hdi_v3_add(r, r, b0);
    if (!edge_params(p, q, r, &sa, &tb)) {
        return 0;
    }
    for (int k = 0; k < 3; ++k) {
        rho[k] = r[k] - (sa * p[k] - tb * q[k]);
    }
    double unit = HD_EDGE_WITNESS_UNITS * DBL_EPSILON;
    if (hdi_v3_len2(rho) > unit * unit * (hdi_v3_len2(p) + hdi_v3_len2(q)) &&
        edge_params(p, q, rho, &ds, &dt)) {
        sa += ds;
        tb += dt;
    }
    sa = hdi_min(1.0, hdi_max(0.0, sa));
    tb = hdi_min(1.0, hdi_max(0.0, tb));
    hdi_v3_madd(out->wa, a0, sa, p);
    hdi_v3_madd(out->wb, b0, tb, q);
    return 1;
}

static int facet_witnesses(const hdi_pair *pair, hdi_sd_result *out)
{
    double x[3], pb[3];
    hdi_comb3 y, z;
    hdi_v3_scale(x, out->n, -out->delta);
    if (out->fb.kind == HD_FEAT_VERTEX) {
        hdi_pair_b_vertex(pair, out->fb.index, out->wb);
        hdi_v3_add(out->wa, out->wb, x);
        return 1;
    }
    if (out->fa.kind == HD_FEAT_VERTEX) {
        hdi_v3_copy(out->wa, pair->a->verts + 3 * out->fa.index);
        hdi_v3_sub(out->wb, out->wa, x);
        return 1;
    }
    if (out->fa.kind == HD_FEAT_EDGE && out->fb.kind == HD_FEAT_EDGE) {
        return edge_witnesses(pair, x, out);
    }
    double err = hdi_mface_locate(pair, out->n, out->fa, out->fb, x, &y, &z);
    if (!(err <= 1e-9 * out->size + out->margin)) {
        return 0;
    }
    hdi_v3_set(out->wa, 0.0, 0.0, 0.0);
    for (int i = 0; i < y.count; ++i) {
        hdi_v3_madd(out->wa, out->wa, y.weight[i], pair->a->verts + 3 * y.index[i]);
    }
    hdi_v3_set(out->wb, 0.0, 0.0, 0.0);
    for (int i = 0; i < z.count; ++i) {
        hdi_pair_b_vertex(pair, z.index[i], pb);
        hdi_v3_madd(out->wb, out->wb, z.weight[i], pb);
    }
    return 1;
}

/* Witnesses without a located facet: A's support vertex along n, and B's point delta n from it. */
static void support_witnesses(const hdi_pair *pair, hdi_sd_result *out, int ia)
{
    hdi_v3_copy(out->wa, pair->a->verts + 3 * ia);
    hdi_v3_madd(out->wb, out->wa, out->delta, out->n);
}

/* A separated GJK state whose witnesses lie farther apart than its lower bound allows (a simplex
 * much thinner than its distance from the origin, solved in double) polished in double-double
 * (hdi_gjk_polish) first: the distance is then right to the bounds' tolerance, not only bracketed
 * by them (3.6e-8 reported where 2.5e-9 was true, a small shape against a long one). */
static void polish_if_apart(const hdi_pair *pair, hdi_gjk_state *st, hd_stats *stats)
{
    double wa[3], wb[3];
    hdi_simplex_witnesses(&st->simplex, pair, wa, wb);
    if (!hdi_gjk_bounds_agree(pair, hdi_v3_dist(wa, wb), st->lower)) {
        hdi_gjk_polish(pair, st, stats);
    }
}

/* Separated beyond rounding: GJK's answer. When GJK's simplex is a triangle, the closest point of
 * M lies on a facet, which its support pairs name; that facet's exact normal replaces -v / |v|
 * when its plane attains the distance (to rounding). */
static void separated(const hdi_pair *pair, const hdi_gjk_state *st, hd_stats *stats,
                      hdi_sd_result *out)
{
    const hdi_simplex *s = &st->simplex;
    double d[3];
    hdi_simplex_witnesses(s, pair, out->wa, out->wb);
    hdi_v3_sub(d, out->wb, out->wa);
    double dist = hdi_v3_len(d);
    out->method = HD_SD_DISTANCE;
    out->delta = dist;
    out->lower = st->lower - out->margin;
    out->upper = dist + out->margin;
    if (dist > 0.0) {
        hdi_v3_scale(out->n, d, 1.0 / dist);
    } else {
        hdi_v3_neg(out->n, st->v); /* scaled first: |v|^2 may be subnormal */
        hdi_v3_normalize(out->n);
    }
    hdi_mface f;
    if (s->count == 3 && hdi_facet_of_triangle(pair, s->ia, s->ib, stats, &f) &&
        -f.h >= st->lower - out->margin && -f.h <= dist + out->margin) {
        out->facet = f;
        hdi_v3_copy(out->n, f.n);
    }
    int ia = s->ia[0], ib = s->ib[0];
    if (out->facet.kind == HD_FACE_NONE) {
        hdi_facet_support(pair, out->n, &ia, &ib, stats);
    }
    hdi_sd_set_features(pair, out, ia, ib);
}

/* The depth from the expanding polytope's bounds and the facet at its best normal. lower_depth:
 * the proven lower bound on the depth. Returns 0 when the bounds stay too far apart. */
static int depth_from_epa(const hdi_pair *pair, const hdi_epa_result *r, double lower_depth,
                          hd_stats *stats, hdi_sd_result *out)
{
    hdi_mface f;
    double upper = r->upper;
    int ia = r->upper_ia, ib = r->upper_ib;
    hdi_v3_copy(out->n, r->normal);
    int landed = r->landed.kind != HD_FACE_NONE, found = landed;
    if (found) {
        f = r->landed; /* the run stopped on this facet: its h is the run's upper bound */
        out->next_depth = r->next_dist;
    } else if (r->face_count > 0 &&
               hdi_facet_of_triangle(pair, r->face_ia, r->face_ib, stats, &f)) {
        /* not landed: a badly shaped facet's rounded normal may be what kept it above the lower
         * bound (a landed facet's value is already within the run's target of it) */
        hdi_facet_refine(pair, &f, stats);
        found = f.h <= upper + out->margin;
    }
    if (!found) {
        found =
            hdi_facet_at_vertex(pair, ia, ib, r->normal, stats, &f) && f.h <= upper + out->margin;
    }
    if (found) {
        out->facet = f;
        hdi_v3_copy(out->n, f.n);
        upper = f.h;
    }
    out->method = HD_SD_EPA;
    out->delta = -upper;
    out->lower = -upper - out->margin;
    out->upper = -lower_depth + out->margin;
    if (out->facet.kind == HD_FACE_NONE) {
        hdi_facet_support(pair, out->n, &ia, &ib, stats);
    }
    if (landed && r->landed_features) {
        out->fa = r->landed_fa; /* the landed facet's, found once by the tie bound's pass */
        out->fb = r->landed_fb;
    } else {
        hdi_sd_set_features(pair, out, ia, ib);
    }
    if (upper - lower_depth > HD_SD_ACCEPT_REL * out->size + 2.0 * out->margin) {
        return 0;
    }
    if (out->facet.kind == HD_FACE_NONE || !facet_witnesses(pair, out)) {
        support_witnesses(pair, out, ia);
    }
    return 1;
}

/* The separating-axis method: the least support value over every facet of M. lower_depth as
 * above bounds the depth from below when the origin may lie outside M by rounding. */
static void depth_from_sat(const hdi_pair *pair, double lower_depth, hd_stats *stats,
                           hdi_sd_result *out)
{
    hdi_mface f;
    out->method = HD_SD_SAT;
    if (!hdi_sat_min_facet(pair, stats, &f)) {
        /* no facet: M is a point or a segment, so it has no interior and the depth is 0 */
        memset(&out->facet, 0, sizeof out->facet);
        out->delta = 0.0;
        out->lower = -out->margin;
        out->upper = out->margin;
        int ia, ib;
        hdi_facet_support(pair, out->n, &ia, &ib, stats);
        hdi_sd_set_features(pair, out, ia, ib);
        support_witnesses(pair, out, ia);
        return;
    }
    out->facet = f;
    hdi_v3_copy(out->n, f.n);
    out->delta = -f.h;
    out->lower = -f.h - out->margin;
    /* the least facet is the depth only as far as every facet was enumerated: edge pairs
     * parallel to within HD_PARALLEL_SINE are skipped, so the depth is bounded below by
     * lower_depth alone (GJK's witnesses, the expanding polytope's inner faces); where that
     * leaves an overlap beyond the band unproven (a needle M as wide as the band), the bound
     * from every candidate facet normal of contact/overlap.c proves it on small pairs */
    out->upper = -lower_depth + out->margin;
    double proven;
    if (out->delta < -pair->eps && !(out->upper < -pair->eps) &&
        hdi_overlap_depth_bound(pair, &proven)) {
        out->upper = hdi_min(out->upper, -proven);
    }
    hdi_sd_set_features(pair, out, f.sa, f.sb);
    if (!facet_witnesses(pair, out)) {
        support_witnesses(pair, out, f.sa);
    }
}

/* Overlap or contact to within rounding: the expanding polytope (stack or workspace storage),
 * then the separating-axis method if it did not converge. */
static hd_status overlapping(const hdi_pair *pair, const hd_options *opt,
                             const hdi_scratch *scratch, hdi_gjk_state *st, hd_stats *stats,
                             hdi_sd_result *out)
{
    /* the depth is at least -(distance upper bound): GJK's closest points, a point of A and one
     * of B (from the simplex's weights, so that a badly conditioned simplex cannot claim less) */
    double lower_depth = 0.0;
    if (st->end != HD_GJK_ENCLOSED) {
        double pa[3], pb[3];
        hdi_simplex_witnesses(&st->simplex, pair, pa, pb);
        lower_depth = -hdi_v3_dist(pa, pb);
    }
    hdi_v3_set(out->n, 1.0, 0.0, 0.0);
    if (!(opt->flags & HD_QUERY_DEPTH_SAT)) {
        hdi_epa_result r;
        _Alignas(16) unsigned char stack[HD_CONTACT_STACK_VERTICES * HD_EPA_BYTES_PER_VERTEX];
        void *storage = stack;
        int max_verts = HD_CONTACT_STACK_VERTICES;
        size_t room = scratch != NULL ? scratch->size / HD_EPA_BYTES_PER_VERTEX : 0;
        if (room > (size_t)max_verts) {
            storage = scratch->bytes;
            max_verts = room < (1u << 24) ? (int)room : (1 << 24);
        }
        hdi_epa_land land = {hdi_facet_land, (void *)pair, 0.0};
        if (opt->flags & HD_QUERY_GRADIENT) {
            land.next_window = HD_GRADIENT_TIE_REL * out->size + 4.0 * out->margin;
        }
        hd_status status = hdi_epa_converge(pair, &st->simplex, &st->start_a, &st->start_b,
                                            HD_SD_EPA_TARGET_REL * out->size, pair->max_iterations,
                                            storage, max_verts, &land, stats, &r);
        stats->refine_steps += r.steps;
        if (status != HD_OK && status != HD_ERR_ITERATION_LIMIT) {
            return status;
        }
        if (r.lower > 0.0) {
            lower_depth = hdi_max(lower_depth, r.lower);
        }
        if (r.upper < DBL_MAX && depth_from_epa(pair, &r, lower_depth, stats, out)) {
            return HD_OK;
        }
        memset(&out->facet, 0, sizeof out->facet);
        out->next_depth = -DBL_MAX;
    }
    depth_from_sat(pair, lower_depth, stats, out);
    return HD_OK;
}

/* The overlap path's lower bound on the depth (an enclosing simplex, the inner faces of the
 * expanding polytope) comes from solves that a needle-like simplex can round past the margin,
 * while the facet's value is one support evaluation along a known normal (sound: delta >=
 * -h_M(n) for every unit n). When the two contradict, the upper bound on delta falls back to what
 * two points prove: delta <= |p_a - p_b| for p_a in A and p_b in B (GJK's simplex witnesses). */
static void keep_bounds_sound(const hdi_pair *pair, const hdi_simplex *s, hdi_sd_result *out)
{
    if (out->delta > out->upper) {
        double pa[3], pb[3];
        hdi_simplex_witnesses(s, pair, pa, pb);
        out->upper = hdi_max(hdi_v3_dist(pa, pb), out->delta) + out->margin;
    }
}

static void set_verdict(const hdi_pair *pair, hdi_sd_result *out)
{
    out->verdict = out->delta > pair->eps    ? HD_SEPARATED
                   : out->delta < -pair->eps ? HD_INTERSECTING
                                             : HD_TOUCHING;
}

hd_status hdi_sd_pair(const hdi_pair *world, const hd_options *opt, const hdi_scratch *scratch,
                      hd_stats *stats, hdi_sd_result *out)
{
    /* every value here is computed in A's frame, where the coordinates are as large as
     * hdi_pair_local_magnitude: the iterations' tolerances are taken relative to that, not to the
     * world coordinates' scale (a needle pair 1e6 from the origin, 0.2 in size: GJK stopped with
     * |v| at "rounding level" 1.8e-9 of the world scale and the signed distance was 1.1e-9 of the
     * size off); the band eps stays the world's */
    double magnitude = hdi_pair_local_magnitude(world);
    hdi_pair local = *world;
    local.scale = hdi_min(world->scale, magnitude);
    const hdi_pair *pair = &local;
    memset(out, 0, sizeof *out);
    out->next_depth = -DBL_MAX;
    out->size = pair_size(pair);
    out->margin = HD_SD_ROUNDING_UNITS * DBL_EPSILON * magnitude;
    hdi_gjk_state st;
    hdi_gjk_start(pair, opt->cache, &st);
    hd_status status = hdi_gjk_iterate(pair, DBL_MAX, &st, stats);
    stats->iterations += st.iterations;
    if (status != HD_OK) {
        return status;
    }
    if (st.end == HD_GJK_CONVERGED && st.lower > out->margin) {
        polish_if_apart(pair, &st, stats);
        separated(pair, &st, stats, out);
    } else {
        status = overlapping(pair, opt, scratch, &st, stats, out);
        /* GJK's simplex: the overlap path only reads it */
        keep_bounds_sound(pair, &st.simplex, out);
    }
    hdi_gjk_save(&st, opt->cache);
    if (status == HD_OK) {
        set_verdict(pair, out);
    }
    return status;
}
