/* The query dispatcher: validates arguments, prepares the pair in A's frame, runs the chosen
 * algorithm and maps its answer back to the world frame. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "gjk/gjk.h"
#include "lp/collide.h"
#include "cddual/cddual.h"
#include "contact/classify.h"
#include "contact/gradient.h"
#include "kernel/gjk_core.h"
#include "kernel/workspace.h"
#include "core/math.h"
#include "query/query_internal.h"

static const char *const hdi_verdict_names[] = {"separated", "touching", "intersecting"};
static const char *const hdi_algo_names[HD_ALGO_COUNT] = {"gjk", "cddual", "lp"};

const char *hd_verdict_str(hd_verdict verdict)
{
    if ((int)verdict < 0 || verdict > HD_INTERSECTING) {
        return "unknown";
    }
    return hdi_verdict_names[verdict];
}

const char *hd_algo_str(hd_algo algo)
{
    if ((int)algo < 0 || algo >= HD_ALGO_COUNT) {
        return "unknown";
    }
    return hdi_algo_names[algo];
}

hd_status hd_algo_parse(const char *name, hd_algo *out)
{
    if (name == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    for (int i = 0; i < HD_ALGO_COUNT; ++i) {
        if (strcmp(name, hdi_algo_names[i]) == 0) {
            *out = (hd_algo)i;
            return HD_OK;
        }
    }
    return HD_ERR_INVALID_ARG;
}

hd_options hd_options_default(void)
{
    hd_options opt;
    memset(&opt, 0, sizeof opt);
    opt.algo = HD_ALGO_GJK;
    opt.tol = hd_tolerance_default();
    return opt;
}

void hd_cache_reset(hd_cache *cache)
{
    if (cache != NULL) {
        hd_cache fresh = HD_CACHE_INIT;
        *cache = fresh;
    }
}

static void result_init(hd_collide_result *out, hd_algo algo, double eps)
{
    memset(out, 0, sizeof *out);
    out->algo = algo;
    out->eps = eps;
}

/* Maps a certificate from A's frame to the world frame. A plane n.x = offset in A's frame is
 * (R n).y = offset + (R n).t_A for world points y = R x + t_A. */
static void cert_to_world(const hdi_pair *pair, hd_certificate *c)
{
    if (c->has_plane) {
        double n[3];
        hdi_pair_dir_to_world(pair, c->normal, n);
        c->offset += hdi_v3_dot(n, pair->pose_at);
        hdi_v3_copy(c->normal, n);
    }
    if (c->has_point) {
        hdi_pair_point_to_world(pair, c->point, c->point);
    }
}

hd_status hdi_query_prepare(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                            const hd_pose *pose_b, const hd_options **opt, hd_options *defaults,
                            hdi_pair *pair)
{
    if (*opt == NULL) {
        *defaults = hd_options_default();
        *opt = defaults;
    }
    if ((int)(*opt)->algo < 0 || (*opt)->algo >= HD_ALGO_COUNT) {
        return HD_ERR_INVALID_ARG;
    }
    if ((*opt)->workspace != NULL && ((*opt)->flags & HD_QUERY_RECORD_PATH)) {
        hdi_workspace_paths_reset((*opt)->workspace); /* the paths are this query's */
    }
    return hdi_pair_init(pair, a, pose_a, b, pose_b, *opt);
}

/* An algorithm reached its iteration cap: for GJK, rounding kept it from decreasing |v| while its
 * bounds still disagreed (seen only on needle-shaped simplices whose coordinates span many orders
 * of magnitude, found by fuzzing); for CD-Dual, its face search or its planes, or a GJK run it
 * calls. Another method (method: the LP, which decides from the vertex sets, or CD-Dual) then
 * answers with its own certificate, returned with stop = HD_STOP_FALLBACK and naming algo (the
 * caller's, or GJK for the distance). */
static hd_status after_stall(const hdi_pair *pair, const hd_options *opt, hd_algo algo,
                             hd_algo method, hd_collide_result *out)
{
    int stalled_iterations = out->stats.iterations;
    result_init(out, algo, pair->eps);
    hd_status st =
        method == HD_ALGO_LP ? hdi_lp_collide(pair, opt, out) : hdi_cddual_collide(pair, opt, out);
    if (st == HD_OK) {
        out->stop = HD_STOP_FALLBACK;
    }
    out->stats.iterations += stalled_iterations;
    return st;
}

/* Every method stalled: the overlap proof from the facets of M (contact/overlap.c), answered
 * only when hd_certificate_check accepts its certificate, checked in A's frame (A at the
 * identity, B at the pair's relative pose), with stop = HD_STOP_FALLBACK. */
static hd_status overlap_proof(const hdi_pair *pair, hd_algo algo, hd_collide_result *out)
{
    int stalled_iterations = out->stats.iterations;
    result_init(out, algo, pair->eps);
    out->stats.iterations = stalled_iterations;
    hd_pose relative = hdi_pair_relative_pose(pair);
    if (!hdi_overlap_prove(pair, out) ||
        hd_certificate_check(pair->a, NULL, pair->b, &relative, out->verdict, out->eps,
                             &out->cert) != HD_OK) {
        return HD_ERR_ITERATION_LIMIT;
    }
    out->stop = HD_STOP_FALLBACK;
    return HD_OK;
}

/* The fallbacks of a stalled algo: the LP method, then CD-Dual, each unless it is algo. The LP's
 * bounds can leave a pair to the contact classifier, which needs the expanding polytope for an
 * overlap beyond the band; inside a needle of M about as wide as the band that polytope cannot be
 * built (a small cloud against a long thin hull, 1e3 from the origin, overlapping by 7.9 eps: GJK
 * and the LP failed), while CD-Dual's search over the facets of M proves the overlap. */
static hd_status fallbacks(const hdi_pair *pair, const hd_options *opt, hd_algo algo,
                           hd_collide_result *out)
{
    hd_status st = HD_ERR_ITERATION_LIMIT;
    if (algo != HD_ALGO_LP) {
        st = after_stall(pair, opt, algo, HD_ALGO_LP, out);
    }
    if (st == HD_ERR_ITERATION_LIMIT && algo != HD_ALGO_CDDUAL) {
        st = after_stall(pair, opt, algo, HD_ALGO_CDDUAL, out);
    }
    if (st == HD_ERR_ITERATION_LIMIT) {
        st = overlap_proof(pair, algo, out);
    }
    return st;
}

/* The chosen algorithm on the prepared pair; the fallbacks answer a stall. */
static hd_status collide_in_frame(const hdi_pair *pair, const hd_options *opt,
                                  hd_collide_result *out)
{
    hd_status st;
    switch (opt->algo) {
        case HD_ALGO_CDDUAL:
            st = hdi_cddual_collide(pair, opt, out);
            break;
        case HD_ALGO_LP:
            st = hdi_lp_collide(pair, opt, out);
            break;
        default:
            st = hdi_gjk_collide(pair, opt, out);
            break;
    }
    if (st == HD_ERR_ITERATION_LIMIT) {
        st = fallbacks(pair, opt, opt->algo, out);
    }
    return st;
}

/* hd_distance's GJK ending without an answer. On a needle, the expanding polytope's inner
 * tetrahedron can hold the origin in the double solve and miss it by 1e-10 in exact arithmetic
 * (a square of side 4e-9 against a box 0.35 long, overlapping by 5e-9: found by the stress
 * family of unit/contact/signed_distance), so no common point is proven. The fallbacks (the LP
 * method, then CD-Dual) decide such pairs: touching or intersecting, the distance is 0 and the
 * witnesses are the certificate's point pair (stop = HD_STOP_FALLBACK). A separated verdict
 * proves a plane, not a distance: the status stands. */
static hd_status distance_after_stall(const hdi_pair *pair, const hd_options *opt,
                                      hd_collide_result *out, hdi_closest *closest)
{
    hd_status st = fallbacks(pair, opt, HD_ALGO_GJK, out);
    if (st != HD_OK || out->verdict == HD_SEPARATED || !out->cert.has_point) {
        return st != HD_OK ? st : HD_ERR_ITERATION_LIMIT;
    }
    closest->distance = 0.0;
    hdi_certificate_point_pair(pair, &out->cert, closest->witness_a, closest->witness_b);
    return HD_OK;
}

/* hd_distance on the prepared pair, in A's frame. The distance is accurate to the pair's own
 * size: away from the world origin GJK's tolerances are taken in A's frame (stacked boxes 0.03
 * in size 1e6 from the origin, 1.67e-6 apart, stopped at the world scale's tolerance 1.35e-9
 * off), as hd_signed_distance's; the band eps (already in out) stays the world's. Where those
 * tighter tolerances stall GJK (a needle pair 1e6 away, touching within the band), the world's
 * decide the pair as before. */
static hd_status distance_in_frame(hdi_pair *pair, const hd_options *opt, hd_collide_result *out,
                                   hdi_closest *closest)
{
    double world_scale = pair->scale;
    if (!hdi_v3_is_zero(pair->pose_at)) {
        pair->scale = hdi_pair_local_scale(pair);
    }
    hd_status st = hdi_gjk_distance(pair, opt, out, closest);
    if (st == HD_ERR_ITERATION_LIMIT && pair->scale < world_scale) {
        pair->scale = world_scale;
        st = hdi_gjk_distance(pair, opt, out, closest);
    }
    if (st == HD_ERR_ITERATION_LIMIT) {
        st = distance_after_stall(pair, opt, out, closest);
    }
    return st;
}

/* The output check and hdi_query_prepare, shared by hd_collide and hd_distance. */
static hd_status begin_pair_query(const void *out, const hd_polytope *a, const hd_pose *pose_a,
                                  const hd_polytope *b, const hd_pose *pose_b,
                                  const hd_options **opt, hd_options *defaults, hdi_pair *pair)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    return hdi_query_prepare(a, pose_a, b, pose_b, opt, defaults, pair);
}

/* hd_collide fills its public result in place: the algorithms write hd_collide_result directly
 * (a copy of its few hundred bytes is measurable on small hulls). */
hd_status hd_collide(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                     const hd_pose *pose_b, const hd_options *opt, hd_collide_result *out)
{
    hd_options defaults;
    hdi_pair pair;
    hd_status st = begin_pair_query(out, a, pose_a, b, pose_b, &opt, &defaults, &pair);
    if (st != HD_OK) {
        return st;
    }
    result_init(out, opt->algo, pair.eps);
    st = collide_in_frame(&pair, opt, out);
    if (st == HD_OK && hdi_rounded_sum(&pair) > 0.0) {
        st = hdi_rounded_collide(&pair, opt, out, NULL); /* the algorithm ran on the cores */
    }
    if (st == HD_OK) {
        cert_to_world(&pair, &out->cert);
    }
    return st;
}

/* hd_distance for rounded shapes: GJK's verdict on the cores, then the rounded pair's verdict,
 * distance and witnesses from GJK run to convergence on the cores (query/rounded.c). */
static hd_status rounded_distance(const hdi_pair *pair, const hd_options *opt,
                                  hd_collide_result *out, hdi_closest *closest)
{
    hd_options gjk = *opt;
    gjk.algo = HD_ALGO_GJK;
    hd_status st = collide_in_frame(pair, &gjk, out);
    return st == HD_OK ? hdi_rounded_collide(pair, &gjk, out, closest) : st;
}

/* The answer of hd_distance in the world frame: the verdict, band, certificate and work of the
 * GJK run, and its distance and witnesses. */
static void distance_to_world(const hdi_pair *pair, const hd_collide_result *run,
                              const hdi_closest *closest, hd_distance_result *out)
{
    out->verdict = run->verdict;
    out->stop = run->stop;
    out->eps = run->eps;
    out->distance = closest->distance;
    hdi_pair_point_to_world(pair, closest->witness_a, out->witness_a);
    hdi_pair_point_to_world(pair, closest->witness_b, out->witness_b);
    out->cert = run->cert;
    cert_to_world(pair, &out->cert);
    out->stats = run->stats;
    memset(&out->gradient, 0, sizeof out->gradient);
}

hd_status hd_distance(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                      const hd_pose *pose_b, const hd_options *opt, hd_distance_result *out)
{
    hd_options defaults;
    hdi_pair pair;
    hd_status st = begin_pair_query(out, a, pose_a, b, pose_b, &opt, &defaults, &pair);
    if (st != HD_OK) {
        return st;
    }
    hd_collide_result run;
    hdi_closest closest;
    memset(&closest, 0, sizeof closest);
    result_init(&run, HD_ALGO_GJK, pair.eps);
    st = hdi_rounded_sum(&pair) > 0.0 ? rounded_distance(&pair, opt, &run, &closest)
                                      : distance_in_frame(&pair, opt, &run, &closest);
    if (st == HD_OK) {
        distance_to_world(&pair, &run, &closest, out); /* sets every field */
        if (opt->flags & HD_QUERY_GRADIENT) {
            hdi_distance_gradient(&pair, &closest, out->verdict, &out->stats, &out->gradient);
        }
    } else {
        memset(out, 0, sizeof *out);
    }
    return st;
}

/* hd_gap for rounded shapes: the verdict of hd_collide with CD-Dual on the rounded pair, then the
 * line against the rounded difference (query/rounded.c); a rounded difference always has an
 * interior, so flat cores are answered too. */
static hd_status rounded_gap(const hdi_pair *pair, const hd_options *opt, const double s[3],
                             hd_gap_result *out)
{
    hd_options verdict_opt = *opt;
    verdict_opt.algo = HD_ALGO_CDDUAL;
    hd_collide_result verdict;
    result_init(&verdict, HD_ALGO_CDDUAL, pair->eps);
    hd_status st = collide_in_frame(pair, &verdict_opt, &verdict);
    if (st == HD_OK) {
        st = hdi_rounded_collide(pair, &verdict_opt, &verdict, NULL);
    }
    if (st != HD_OK) {
        return st;
    }
    out->stats = verdict.stats;
    double s_local[3];
    hdi_m3_tmul_v(s_local, pair->pose_a, s);
    st = hdi_rounded_gap(pair, opt, verdict.verdict, s_local, out);
    hdi_v3_copy(out->direction, s);
    return st;
}

hd_status hd_gap(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                 const hd_pose *pose_b, const double direction[3], const hd_options *opt,
                 hd_gap_result *out)
{
    if (out == NULL || direction == NULL) {
        return HD_ERR_NULL;
    }
    if (!hdi_v3_is_finite(direction)) {
        return HD_ERR_NONFINITE;
    }
    double s[3];
    hdi_v3_copy(s, direction);
    if (!(hdi_v3_normalize(s) > 0.0)) {
        return HD_ERR_INVALID_ARG;
    }
    hd_options defaults;
    hdi_pair pair;
    hd_status st = hdi_query_prepare(a, pose_a, b, pose_b, &opt, &defaults, &pair);
    if (st != HD_OK) {
        return st;
    }
    memset(out, 0, sizeof *out);
    if (hdi_rounded_sum(&pair) > 0.0) {
        return rounded_gap(&pair, opt, s, out);
    }
    if (!hdi_cddual_gap_supported(&pair)) {
        return HD_ERR_UNSUPPORTED;
    }
    /* the verdict decides which searches follow: hd_collide's with CD-Dual, its fallbacks
     * included (only the verdict and the work are used: the searches start afresh) */
    hd_options verdict_opt = *opt;
    verdict_opt.algo = HD_ALGO_CDDUAL;
    hd_collide_result verdict;
    result_init(&verdict, HD_ALGO_CDDUAL, pair.eps);
    st = collide_in_frame(&pair, &verdict_opt, &verdict);
    if (st != HD_OK) {
        return st;
    }
    double s_local[3];
    hdi_m3_tmul_v(s_local, pair.pose_a, s);
    st = hdi_cddual_gap(&pair, &verdict, s_local, opt, out);
    hdi_v3_copy(out->direction, s);
    return st;
}
