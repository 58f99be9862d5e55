/* The LP method on a posed pair of polytopes (3D), called by the query dispatcher: the columns
 * are A's hull vertices (A's frame) and B's hull vertices mapped into A's frame; pricing uses
 * each polytope's hill-climbing support mapping. Certificates are in A's frame. */
#include <math.h>
#include <string.h>

#include "lp/collide.h"
#include "contact/classify.h"
#include "core/math.h"
#include "lp/solve.h"

/* Face planes (hence clearances) of a polytope are exact only up to the coplanarity tolerance
 * its facets were merged with; the interior ball used for depth proofs is shrunk by four times
 * that much (convex_rel * (largest coordinate + extent) per polytope). */
static double face_slack(const hd_polytope *p, const hd_options *opt)
{
    double rel = fmax(opt->tol.convex_rel, HD_DEFAULT_CONVEX_REL);
    return 4.0 * rel * (p->max_abs + p->extent);
}

typedef struct hdi_lp_ball_ctx {
    const hdi_pair *pair;
    const hd_options *opt;
} hdi_lp_ball_ctx;

/* A ball inside M = A - B: B(pa - pb, ra + rb) for interior balls B(pa, ra) of A and B(pb, rb) of
 * B. Of the two interior points of each, the combination with the smallest |c| / R is used.
 * Called by the LP only when its basis bound does not decide (hdi_lp_problem.ball_fill). */
static void interior_ball(const void *ctx, double *centre, double *radius)
{
    const hdi_pair *pair = ((const hdi_lp_ball_ctx *)ctx)->pair;
    const hd_options *opt = ((const hdi_lp_ball_ctx *)ctx)->opt;
    const hd_polytope *a = pair->a, *b = pair->b;
    double pb[2][3], ra[2], rb[2], best = INFINITY;
    double sa = face_slack(a, opt), sb = face_slack(b, opt);
    for (int j = 0; j < 2; ++j) {
        hdi_m3_mul_v(pb[j], pair->r, b->interior[j].point);
        hdi_v3_add(pb[j], pb[j], pair->t);
        ra[j] = fmax(a->interior[j].clearance - sa, 0.0);
        rb[j] = fmax(b->interior[j].clearance - sb, 0.0);
    }
    *radius = 0.0;
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
            double c[3], r = ra[i] + rb[j];
            hdi_v3_sub(c, a->interior[i].point, pb[j]);
            double len = hdi_v3_len(c);
            if (r > 0.0 && len < best * r) {
                best = len / r;
                *radius = r;
                hdi_v3_copy(centre, c);
            }
        }
    }
}

/* Normalization from the two bounding spheres (B's mapped into A's frame). */
static void normalize_spheres(const hdi_pair *pair, hdi_lp_problem *prob)
{
    double cb[3], lo[3], hi[3];
    hdi_m3_mul_v(cb, pair->r, pair->b->sphere_centre);
    hdi_v3_add(cb, cb, pair->t);
    const double *ca = pair->a->sphere_centre;
    double ra = pair->a->sphere_radius, rb = pair->b->sphere_radius;
    for (int k = 0; k < 3; ++k) {
        lo[k] = fmin(ca[k] - ra, cb[k] - rb);
        hi[k] = fmax(ca[k] + ra, cb[k] + rb);
    }
    hdi_lp_normalize_box(prob, lo, hi);
}

static void pair_problem(const hdi_pair *pair, const hd_options *opt, const hdi_lp_ball_ctx *ball,
                         hdi_lp_problem *prob)
{
    const hd_polytope *a = pair->a, *b = pair->b;
    memset(prob, 0, sizeof *prob);
    prob->dim = 3;
    prob->s.pts = a->verts;
    prob->s.count = a->vertex_count;
    prob->s.poly = pair->brute ? NULL : a;
    prob->t.pts = b->verts;
    prob->t.count = b->vertex_count;
    prob->t.rot = pair->r;
    prob->t.shift = pair->t;
    prob->t.poly = pair->brute ? NULL : b;
    const hd_cache *cache = opt->cache;
    if (cache != NULL && cache->valid) {
        int sa = cache->support_a, sb = cache->support_b;
        prob->s.climb = sa >= 0 && sa < a->vertex_count ? sa : 0;
        prob->t.climb = sb >= 0 && sb < b->vertex_count ? sb : 0;
    }
    prob->eps = pair->eps;
    prob->early_exit = 1;
    prob->cap = opt->tol.max_iterations > 0
                    ? opt->tol.max_iterations
                    : hdi_lp_default_cap((long)a->vertex_count + b->vertex_count, 5);
    normalize_spheres(pair, prob);
    /* The crash direction: from A's interior point to B's, which sit nearer the middle of the
     * vertices than the sphere centres, so the crash basis starts closer to the optimum. */
    double pb[3];
    hdi_m3_mul_v(pb, pair->r, b->interior[0].point);
    hdi_v3_add(pb, pb, pair->t);
    prob->crash = 1;
    hdi_v3_sub(prob->crash_dir, pb, a->interior[0].point);
    prob->ball_fill = interior_ball;
    prob->ball_ctx = ball;
}

static void fill_combinations(const hdi_lp_outcome *res, int ns, hd_certificate *cert)
{
    cert->on_a.count = cert->on_b.count = 0;
    for (int c = 0; c < res->count; ++c) {
        hd_combination *comb = res->id[c] < ns ? &cert->on_a : &cert->on_b;
        if (comb->count < HD_COMBINATION_MAX) {
            comb->index[comb->count] = res->id[c] < ns ? res->id[c] : res->id[c] - ns;
            comb->weight[comb->count++] = res->w[c];
        }
    }
}

static void fill_result(const hdi_lp_outcome *res, int ns, hd_collide_result *out)
{
    hd_certificate *cert = &out->cert;
    out->verdict = res->verdict;
    out->stop = res->early ? HD_STOP_EARLY_EXIT : HD_STOP_CONVERGED;
    if (res->has_plane && res->verdict != HD_INTERSECTING) {
        cert->has_plane = true;
        hdi_v3_copy(cert->normal, res->normal);
        cert->gap = res->gap;
        cert->offset = res->max_s + 0.5 * res->gap;
    }
    if (res->has_point && res->verdict != HD_SEPARATED) {
        cert->has_point = true;
        for (int k = 0; k < 3; ++k) {
            cert->point[k] = 0.5 * (res->point_s[k] + res->point_t[k]);
        }
        fill_combinations(res, ns, cert);
        cert->depth_bound = res->verdict == HD_INTERSECTING ? res->depth_bound : 0.0;
    }
}

hd_status hdi_lp_collide(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out)
{
    hdi_lp_problem prob;
    hdi_lp_outcome res;
    hdi_lp_ball_ctx ball = {pair, opt};
    pair_problem(pair, opt, &ball, &prob);
    hd_status st = hdi_lp_solve(&prob, &res);
    out->stats.iterations += res.pivots;
    out->stats.support_calls += res.support_calls;
    if (opt->cache != NULL) {
        opt->cache->support_a = prob.s.climb;
        opt->cache->support_b = prob.t.climb;
    }
    if (st != HD_OK) {
        return st;
    }
    if (!res.decided) {
        /* The LP's bounds leave |delta| <= eps sqrt(3) undecided: the shared classifier decides. */
        return hdi_contact_classify(pair, opt, out);
    }
    fill_result(&res, pair->a->vertex_count, out);
    /* weights read from an ill-conditioned basis (coordinates many orders of magnitude apart)
     * can miss the band: confirmed in O(k), else the contact classifier decides */
    return hdi_contact_confirm(pair, opt, out);
}
