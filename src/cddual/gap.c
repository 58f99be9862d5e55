/* Directional gap (CD-Dual, section 6): how far B must travel along +-s (A fixed) to touch A or,
 * when they overlap, to separate. Separated pairs: a point c of M on the line {tau s}, from a
 * planar simplex search on the projections along s, then CD-Dual from c towards the origin without
 * the early exit. Overlapping and touching pairs: the search from the origin along +s and -s. The
 * construction, lower dimensions and the formula: docs/algorithms/cddual.md, section 8. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "cddual/cddual.h"
#include "cddual/internal.h"
#include "kernel/plane_search.h"
#include "kernel/simplex_robust.h"
#include "core/math.h"
#include "core/tolerances.h"

/* The ray c + t r (r = o - c, |r| = L) meets f_opt's plane at t* = 1 / psi*, so the travel is
 * g = (1 - t*) L; with d = d(f_opt) = (psi* - 1) / L (Eq. (1)),
 *     g = L (1 - 1 / (d L + 1)) = d L^2 / (d L + 1),
 * the paper's g = d (a^2 + b^2 + c^2) / (d sqrt(a^2 + b^2 + c^2) + 1), (a, b, c) = o - c. */
double hdi_cddual_gap_from_dual(double d, double length)
{
    if (d == HUGE_VAL) {
        return length;
    }
    return d * length * length / (d * length + 1.0);
}

/* ---- a point of M on the line {tau s} ---- */

typedef struct hdi_line_ctx {
    const hdi_pair *pair;
    hd_stats *stats;
    int start_a;
    int start_b;
} hdi_line_ctx;

static void support_m(void *ctx, const double d[3], double w[3], int *ia, int *ib)
{
    hdi_line_ctx *lc = ctx;
    hdi_pair_support_m(lc->pair, d, &lc->start_a, &lc->start_b, ia, ib, w, lc->stats);
}

/* The search's answer lifted to M in double-double (hdi_plane_lift_precise): the double lift of a
 * projected needle misses the line by far more than the band; 0 when the projection is
 * degenerate. */
static int lift_precise(const hdi_pair *pair, const hdi_plane_result *pr, const double e1[3],
                        const double e2[3], double c[3])
{
    double a[3][3], b[3][3];
    hdi_pair_vertices(pair, pr->ia, pr->ib, pr->count, a, b);
    return hdi_plane_lift_precise((const double(*)[3])a, (const double(*)[3])b, pr->count, e1, e2,
                                  c);
}

/* found = 1 and c (a point of M within eps of the line, on it up to rounding when the line
 * crosses M) when the line meets M within eps; found = 0 when a line of H separates the origin
 * from the projection of M by more than eps. */
static hd_status line_point(const hdi_pair *pair, const double s[3], hd_stats *stats, double c[3],
                            int *found)
{
    double e1[3], e2[3];
    hdi_plane_basis(s, e1, e2);
    hdi_plane_result pr;
    hdi_line_ctx lc = {pair, stats, 0, 0};
    hd_status st = hdi_plane_search(e1, e2, support_m, &lc, pair->eps, pair->max_iterations, &pr);
    if (st != HD_OK) {
        return st;
    }
    if (pr.separated || pr.distance > pair->eps) {
        *found = 0;
        return HD_OK;
    }
    if (!lift_precise(pair, &pr, e1, e2, c)) {
        hdi_v3_set(c, 0, 0, 0);
        for (int i = 0; i < pr.count; ++i) {
            hdi_v3_madd(c, c, pr.lambda[i], pr.w[i]);
        }
    }
    *found = 1;
    return HD_OK;
}

/* ---- the searches along the line ---- */

static void add_stats(hd_stats *to, const hd_stats *from)
{
    to->iterations += from->iterations;
    to->support_calls += from->support_calls;
    to->visits_fv += from->visits_fv;
    to->visits_vf += from->visits_vf;
    to->visits_ee += from->visits_ee;
    to->refine_steps += from->refine_steps;
}

/* Runs CD-Dual without early exit for the ray c + t r; *psi the optimum's objective. */
static hd_status shoot(const hdi_pair *pair, hdi_facemap *map, const double c[3], const double r[3],
                       hd_stats *stats, double *psi)
{
    hdi_raysearch rs;
    memset(&rs, 0, sizeof rs);
    rs.pair = pair;
    hdi_v3_copy(rs.c, c);
    hdi_v3_copy(rs.r, r);
    rs.start_face = -1;
    rs.max_evals = pair->max_iterations;
    rs.map = map;
    rs.stats = stats;
    hdi_facemap_clear(map);
    hd_status st = hdi_raysearch_run(&rs);
    *psi = rs.best_value;
    return st;
}

/* Travel along the unit direction r from o (inside or on M) to leave M. */
static hd_status exit_from_origin(const hdi_pair *pair, hdi_facemap *map, const double r[3],
                                  hd_stats *stats, double *travel)
{
    static const double o[3] = {0.0, 0.0, 0.0};
    double psi;
    hd_status st = shoot(pair, map, o, r, stats, &psi);
    if (st != HD_OK) {
        return st;
    }
    if (!(psi > 0.0)) {
        return HD_ERR_UNSUPPORTED; /* no face ahead: cannot happen for a bounded M */
    }
    *travel = psi == HUGE_VAL ? 0.0 : 1.0 / psi;
    return HD_OK;
}

static hd_status gap_overlapping(const hdi_pair *pair, hdi_facemap *map, const double s[3],
                                 hd_gap_result *out)
{
    double up, down, neg[3];
    hdi_v3_neg(neg, s);
    hd_status st = exit_from_origin(pair, map, s, &out->stats, &up);
    if (st == HD_OK) {
        st = exit_from_origin(pair, map, neg, &out->stats, &down);
    }
    if (st != HD_OK) {
        return st;
    }
    out->contact = true;
    out->s_sign = up <= down ? 1 : -1;
    out->distance = up <= down ? up : down;
    return HD_OK;
}

static hd_status gap_separated(const hdi_pair *pair, hdi_facemap *map, const double s[3],
                               hd_gap_result *out)
{
    double c[3];
    int found;
    hd_status st = line_point(pair, s, &out->stats, c, &found);
    if (st != HD_OK) {
        return st;
    }
    if (!found) {
        out->contact = false;
        out->distance = 0.0;
        out->s_sign = 1;
        return HD_OK;
    }
    double r[3], psi;
    hdi_v3_neg(r, c);
    st = shoot(pair, map, c, r, &out->stats, &psi);
    if (st != HD_OK) {
        return st;
    }
    double len = hdi_v3_len(c);
    double d = psi == HUGE_VAL ? HUGE_VAL : (psi - 1.0) / len;
    double g = hdi_cddual_gap_from_dual(d, len);
    out->contact = true;
    out->s_sign = hdi_v3_dot(c, s) >= 0.0 ? 1 : -1;
    out->distance = g > 0.0 ? g : 0.0;
    return HD_OK;
}

/* The ray searches need M = A - B full-dimensional (relint(A) - relint(B) = int(M)), with
 * HD_FLAT_SINE's margin; else the gap is undefined (HD_ERR_UNSUPPORTED from hd_gap). */
int hdi_cddual_gap_supported(const hdi_pair *pair)
{
    return hdi_pair_spans_volume(pair, HD_FLAT_SINE);
}

hd_status hdi_cddual_gap(const hdi_pair *pair, const hd_collide_result *verdict,
                         const double dir[3], const hd_options *opt, hd_gap_result *out)
{
    double s[3];
    hdi_v3_copy(s, dir);
    if (!(hdi_v3_normalize(s) > 0.0) || !hdi_v3_is_finite(s)) {
        return HD_ERR_INVALID_ARG;
    }
    hdi_facemap_scratch scratch;
    hdi_facemap *map =
        hdi_facemap_open(opt->workspace, &scratch, (opt->flags & HD_QUERY_RECORD_PATH) != 0);
    out->verdict = verdict->verdict;
    add_stats(&out->stats, &verdict->stats);
    if (verdict->verdict == HD_SEPARATED) {
        return gap_separated(pair, map, s, out);
    }
    return gap_overlapping(pair, map, s, out);
}
