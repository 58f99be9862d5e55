/* Rounded polytopes: a shape is its core (the hull) plus a ball of radius r. For the pair,
 * R = r_A + r_B and M_rounded = (A - B) + B(0, R), so the signed distance is the cores' minus R
 * exactly, the normal is the cores', and the witnesses move by r along it (van den Bergen,
 * "Collision Detection in Interactive 3D Environments", 2003, section 4.3: the support mapping of
 * a Minkowski sum, margins; docs/algorithms/rounded.md). Here: the verdict and certificate of a
 * rounded pair from the cores' answer, in A's frame, and the directional gap. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "contact/signed_distance.h"
#include "gjk/gjk.h"
#include "kernel/gjk_core.h"
#include "kernel/workspace.h"
#include "core/math.h"
#include "core/tolerances.h"
#include "query/query_internal.h"

/* A plane of the cores with gap g (n.a <= offset - g/2 on A's core, n.b >= offset + g/2 on B's)
 * as one of the rounded shapes: each core support moves out by its radius, so the gap shrinks by
 * R and the plane moves by half the difference of the radii. */
static void round_plane(const hdi_pair *pair, hd_certificate *c)
{
    c->gap -= hdi_rounded_sum(pair);
    c->offset += 0.5 * (pair->a->radius - pair->b->radius);
}

/* A common point of the rounded shapes from core points pa, pb at most R apart: the point that
 * divides pa pb in the ratio r_A : r_B lies within r_A of pa and within r_B of pb. */
static void round_point(const hdi_pair *pair, const double pa[3], const double pb[3],
                        const hd_combination *ca, const hd_combination *cb, hd_certificate *c)
{
    double d[3];
    hdi_v3_sub(d, pb, pa);
    hdi_v3_madd(c->point, pa, pair->a->radius / hdi_rounded_sum(pair), d);
    c->has_point = true;
    c->on_a = *ca;
    c->on_b = *cb;
}

/* hd_distance's answer besides the verdict: the rounded distance and the witnesses on the
 * rounded surfaces (core points moved by their radius along the core normal), the common point
 * for an overlap. */
static void round_closest(const hdi_pair *pair, const hd_collide_result *out, const double pa[3],
                          const double pb[3], hdi_closest *closest)
{
    if (closest == NULL) {
        return;
    }
    if (out->verdict == HD_INTERSECTING) {
        closest->distance = 0.0;
        hdi_v3_copy(closest->witness_a, out->cert.point);
        hdi_v3_copy(closest->witness_b, out->cert.point);
        return;
    }
    double n[3];
    hdi_v3_sub(n, pb, pa);
    double d = hdi_v3_normalize(n);
    hdi_v3_madd(closest->witness_a, pa, pair->a->radius, n);
    hdi_v3_madd(closest->witness_b, pb, -pair->b->radius, n);
    double gap = d - hdi_rounded_sum(pair);
    closest->distance = out->verdict == HD_SEPARATED && gap > 0.0 ? gap : 0.0;
}

/* The cores apart, GJK converged: lower <= |pa - pb| = upper are its proven bounds on their
 * distance, placed against R and the band. */
static void settle_apart(const hdi_pair *pair, const hdi_gjk_state *g, hd_collide_result *out,
                         hdi_closest *closest)
{
    double R = hdi_rounded_sum(pair), eps = pair->eps;
    double pa[3], pb[3];
    hd_combination ca, cb;
    hdi_simplex_witnesses(&g->simplex, pair, pa, pb);
    hdi_simplex_combinations(&g->simplex, &ca, &cb);
    double upper = hdi_v3_dist(pa, pb);
    hd_certificate *c = &out->cert;
    memset(c, 0, sizeof *c);
    if (g->lower - R > eps) {
        out->verdict = HD_SEPARATED;
        hdi_gjk_plane(pair, g, c);
        round_plane(pair, c);
    } else if (upper - R < -eps) {
        out->verdict = HD_INTERSECTING;
        round_point(pair, pa, pb, &ca, &cb, c);
        c->depth_bound = R - upper;
    } else {
        /* within the band: the bounds agree to GJK's tolerance, far below eps, so the plane
         * misses -eps by rounding at most (the checker's slack) */
        out->verdict = HD_TOUCHING;
        hdi_gjk_plane(pair, g, c);
        round_plane(pair, c);
        c->gap = fmax(c->gap, -eps);
        round_point(pair, pa, pb, &ca, &cb, c);
    }
    round_closest(pair, out, pa, pb, closest);
}

/* The cores touch and R is within about twice the band of their contact: their signed distance
 * (exact depth when they overlap) decides. The point pair pa, pb (combinations ca, cb) is the
 * cores' own, within eps. */
static hd_status settle_thin(const hdi_pair *pair, const hd_options *opt, const double pa[3],
                             const double pb[3], const hd_combination *ca, const hd_combination *cb,
                             hd_collide_result *out, hdi_closest *closest)
{
    double R = hdi_rounded_sum(pair), eps = pair->eps;
    hdi_scratch scratch;
    scratch.bytes = hdi_workspace_scratch(opt->workspace, &scratch.size);
    hdi_sd_result sd;
    hd_status st = hdi_sd_pair(pair, opt, &scratch, &out->stats, &sd);
    if (st != HD_OK) {
        return st;
    }
    hd_certificate *c = &out->cert;
    memset(c, 0, sizeof *c);
    round_point(pair, pa, pb, ca, cb, c);
    if (sd.upper - R < -eps) {
        out->verdict = HD_INTERSECTING;
        c->depth_bound = R - sd.upper;
    } else {
        out->verdict = HD_TOUCHING;
        double nb[3];
        hdi_v3_neg(nb, sd.n);
        int ia = hdi_pair_support_a(pair, sd.n, NULL, &out->stats);
        int ib = hdi_pair_support_b(pair, nb, NULL, &out->stats);
        hdi_support_plane(pair, nb, ia, ib, c);
        round_plane(pair, c);
        c->gap = fmax(c->gap, -eps);
    }
    round_closest(pair, out, pa, pb, closest);
    return HD_OK;
}

/* The cores touch or overlap (GJK found no positive lower bound): a point pair of the cores at
 * most R - eps apart proves the overlap; else the thin case decides. */
static hd_status settle_overlap(const hdi_pair *pair, const hd_options *opt, hd_status gjk,
                                const hdi_gjk_state *g, hd_collide_result *out,
                                hdi_closest *closest)
{
    double R = hdi_rounded_sum(pair);
    double pa[3], pb[3];
    hd_combination ca, cb;
    if (out->cert.has_point) {
        ca = out->cert.on_a;
        cb = out->cert.on_b;
        hdi_certificate_point_pair(pair, &out->cert, pa, pb);
    } else if (gjk == HD_OK) {
        hdi_simplex_witnesses(&g->simplex, pair, pa, pb);
        hdi_simplex_combinations(&g->simplex, &ca, &cb);
    } else {
        return gjk;
    }
    double upper = hdi_v3_dist(pa, pb);
    if (R - upper > pair->eps) {
        hd_certificate *c = &out->cert;
        memset(c, 0, sizeof *c);
        out->verdict = HD_INTERSECTING;
        round_point(pair, pa, pb, &ca, &cb, c);
        c->depth_bound = R - upper;
        round_closest(pair, out, pa, pb, closest);
        return HD_OK;
    }
    return settle_thin(pair, opt, pa, pb, &ca, &cb, out, closest);
}

/* GJK on the cores to convergence (polished where its double solve left the bounds apart), then
 * the verdict of the rounded pair. */
static hd_status settle(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out,
                        hdi_closest *closest)
{
    hdi_gjk_state g;
    hdi_gjk_start(pair, opt->cache, &g);
    hd_status st = hdi_gjk_iterate(pair, DBL_MAX, &g, &out->stats);
    int apart =
        st == HD_OK && (g.end == HD_GJK_SEPARATED || g.end == HD_GJK_CONVERGED) && g.lower > 0.0;
    if (apart && !hdi_gjk_bounds_agree(pair, sqrt(g.vv), g.lower)) {
        hdi_gjk_polish(pair, &g, &out->stats);
        apart = g.vv > 0.0 && g.lower > 0.0;
    }
    out->stats.iterations += g.iterations;
    out->stats.refine_steps += 1;
    if (out->stop != HD_STOP_FALLBACK) {
        out->stop = HD_STOP_REFINED;
    }
    if (st == HD_OK) {
        hdi_gjk_save(&g, opt->cache);
    }
    if (apart) {
        settle_apart(pair, &g, out, closest);
        return HD_OK;
    }
    return settle_overlap(pair, opt, st, &g, out, closest);
}

hd_status hdi_rounded_collide(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out,
                              hdi_closest *closest)
{
    double R = hdi_rounded_sum(pair);
    if (out->verdict == HD_INTERSECTING) { /* the cores' common point is common to the shapes */
        out->cert.depth_bound += R;
        round_closest(pair, out, out->cert.point, out->cert.point, closest);
        return HD_OK;
    }
    if (closest == NULL && out->verdict == HD_SEPARATED && out->cert.gap - R > pair->eps) {
        round_plane(pair, &out->cert); /* the algorithm's own plane clears the radii */
        return HD_OK;
    }
    return settle(pair, opt, out, closest);
}

/* ---- directional gap: the line {tau s} against M + B(R) ------------------------------------
 * f(tau) = dist(tau s, M) is the cores' distance with B moved by tau s; it is convex and, away
 * from M, differentiable with f' = s.n (n the cores' unit normal from A to B). The line meets the
 * rounded difference in the interval {f <= R}. Each end is found by Newton's method from a point
 * beyond it: a tangent of a convex function lies below it, so every step lands on or outside
 * the level R (the iterates never cross into the interval) and the convergence is quadratic.
 * A step that passes the line's nearest point to M (f' changes sign) means the line misses the
 * rounded difference unless the least f is within the band of R; that least f is then found by
 * bisection on the sign of f'. */

typedef struct hdi_line_eval {
    double f;     /* dist(tau s, M) */
    double slope; /* f'(tau) = s.n */
} hdi_line_eval;

static hd_status line_eval(const hdi_pair *pair, const hd_options *opt, const double s[3],
                           double tau, hd_stats *stats, hdi_line_eval *out)
{
    hdi_pair moved = *pair;
    hdi_v3_madd(moved.t, pair->t, tau, s);
    hd_collide_result run;
    memset(&run, 0, sizeof run);
    run.eps = pair->eps;
    hdi_closest c;
    memset(&c, 0, sizeof c);
    hd_status st = hdi_gjk_distance(&moved, opt, &run, &c);
    stats->iterations += run.stats.iterations;
    stats->support_calls += run.stats.support_calls;
    double n[3];
    hdi_v3_sub(n, c.witness_b, c.witness_a);
    hdi_v3_normalize(n);
    out->f = c.distance;
    out->slope = hdi_v3_dot(n, s);
    return st;
}

/* The least f on [lo, hi], whose ends' slopes have opposite signs, by bisection on the slope. */
static hd_status line_minimum(const hdi_pair *pair, const hd_options *opt, const double s[3],
                              double lo, double hi, hd_stats *stats, double *tau, double *f)
{
    hdi_line_eval e;
    *f = HUGE_VAL;
    for (int k = 0; k < HD_ROUNDED_BISECTIONS && hi - lo > 0.0; ++k) {
        double mid = 0.5 * (lo + hi);
        hd_status st = line_eval(pair, opt, s, mid, stats, &e);
        if (st != HD_OK) {
            return st;
        }
        if (e.f < *f) {
            *f = e.f;
            *tau = mid;
        }
        if (e.slope < 0.0) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return HD_OK;
}

/* One end of {f <= R}: side +1 the upper end, -1 the lower, from tau = side (h_M(side s) + 2R),
 * where f >= 2 R. *found 0 when the line passes the rounded difference farther than eps. */
static hd_status line_end(const hdi_pair *pair, const hd_options *opt, const double s[3], int side,
                          hd_stats *stats, double *end, int *found)
{
    double R = hdi_rounded_sum(pair), u[3], w[3];
    double tol = fmax(pair->eps / HD_ROUNDED_LEVEL_FRACTION,
                      HD_CONTACT_ROUNDING_UNITS * DBL_EPSILON * pair->scale);
    int sa = 0, sb = 0, ia, ib;
    hdi_v3_scale(u, s, (double)side);
    hdi_pair_support_m(pair, u, &sa, &sb, &ia, &ib, w, stats);
    double tau = side * (hdi_v3_dot(u, w) + 2.0 * R), last = tau;
    *found = 1;
    for (int k = 0; k < HD_ROUNDED_NEWTON_STEPS; ++k) {
        hdi_line_eval e;
        hd_status st = line_eval(pair, opt, s, tau, stats, &e);
        if (st != HD_OK) {
            return st;
        }
        if (e.f - R <= tol) {
            *end = tau;
            return HD_OK;
        }
        if (!(side * e.slope > 0.0)) { /* past the line's nearest point to M */
            double f;
            st = line_minimum(pair, opt, s, fmin(tau, last), fmax(tau, last), stats, end, &f);
            *found = f - R <= pair->eps;
            return st;
        }
        last = tau;
        tau -= side * (e.f - R) / (side * e.slope);
    }
    return HD_ERR_ITERATION_LIMIT;
}

hd_status hdi_rounded_gap(const hdi_pair *pair, const hd_options *opt, hd_verdict verdict,
                          const double s[3], hd_gap_result *out)
{
    hd_options gjk = *opt;
    hd_cache cache = HD_CACHE_INIT; /* warm starts from one step of the line to the next */
    gjk.cache = &cache;
    gjk.flags &= ~(unsigned)HD_QUERY_RECORD_PATH;
    double hi = 0.0, lo = 0.0;
    int found_hi, found_lo;
    hd_status st = line_end(pair, &gjk, s, 1, &out->stats, &hi, &found_hi);
    cache = (hd_cache)HD_CACHE_INIT; /* the other end starts cold */
    if (st == HD_OK) {
        st = line_end(pair, &gjk, s, -1, &out->stats, &lo, &found_lo);
    }
    if (st != HD_OK) {
        return st;
    }
    out->verdict = verdict;
    out->contact = verdict != HD_SEPARATED || (found_hi && found_lo);
    if (!out->contact) {
        out->s_sign = 1;
        return HD_OK;
    }
    if (verdict == HD_SEPARATED) { /* the interval lies on one side of 0 */
        out->s_sign = lo > 0.0 ? 1 : -1;
        out->distance = fmax(lo > 0.0 ? lo : -hi, 0.0);
    } else { /* the nearer way out */
        out->s_sign = hi <= -lo ? 1 : -1;
        out->distance = fmax(hi <= -lo ? hi : -lo, 0.0);
    }
    return HD_OK;
}
