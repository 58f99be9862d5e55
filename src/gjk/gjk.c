/* GJK queries: the boolean test with early exit (hdi_gjk_collide) and the distance with witness
 * points (hdi_gjk_distance), on the iteration of kernel/gjk_core.c, with warm start from the
 * caller's cache. Verdicts follow the touching band (core.h): separated:    a plane with gap > eps,
 * the lower bound of GJK (early exit in the boolean test); intersecting: a tetrahedron of M holding
 * the origin whose faces are all farther than eps from it (the tetrahedron lies in M, so that
 * distance bounds the depth from below), with the common point sum l_i a_i = sum l_i b_i from its
 * barycentric weights; anything else is inside or at the edge of the band: the contact classifier
 * decides. */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "gjk/gjk.h"
#include "contact/classify.h"
#include "kernel/mpr.h"
#include "core/math.h"
#include "core/tolerances.h"

/* The verdicts GJK proves by itself; 0 when the classifier must decide. */
static int decide(const hdi_pair *pair, const hdi_gjk_state *st, hd_collide_result *out)
{
    if (st->end == HD_GJK_SEPARATED || (st->end == HD_GJK_CONVERGED && st->lower > pair->eps)) {
        out->verdict = HD_SEPARATED;
        hdi_gjk_plane(pair, st, &out->cert);
        return 1;
    }
    if (st->end == HD_GJK_ENCLOSED) {
        double depth = hdi_simplex_inner_depth(&st->simplex);
        if (depth > pair->eps) {
            out->verdict = HD_INTERSECTING;
            hdi_gjk_point(pair, &st->simplex, &out->cert);
            out->cert.depth_bound = depth;
            return 1;
        }
    }
    return 0;
}

/* The common point of an enclosing portal tetrahedron: weights l over (v0, v1, v2, v3), v0 the
 * difference of the centroids of the portal vertices, so that l_0 / 4 goes to each of those
 * vertices on each side and the rest to the portal's support pairs. */
static void portal_point(const hdi_pair *pair, const hdi_simplex *t, hd_certificate *cert)
{
    const hd_polytope *poly[2] = {pair->a, pair->b};
    hd_combination *side[2] = {&cert->on_a, &cert->on_b};
    for (int s = 0; s < 2; ++s) {
        double l[7];
        int index[7];
        for (int k = 0; k < 4; ++k) {
            l[k] = 0.25 * t->lambda[0];
            index[k] = poly[s]->portal_vertex[k];
        }
        for (int j = 1; j < 4; ++j) {
            l[3 + j] = t->lambda[j];
            index[3 + j] = s == 0 ? t->ia[j] : t->ib[j];
        }
        hdi_combination_from_weights(l, index, 7, side[s]);
    }
    hdi_v3_set(cert->point, 0.0, 0.0, 0.0);
    for (int k = 0; k < cert->on_a.count; ++k) {
        hdi_v3_madd(cert->point, cert->point, cert->on_a.weight[k],
                    pair->a->verts + 3 * cert->on_a.index[k]);
    }
    cert->has_point = true;
}

/* The portal's evidence as a verdict, when it proves one beyond the band; 0 otherwise. */
static int mpr_decide(const hdi_pair *pair, hdi_mpr_state *m, hd_collide_result *out)
{
    if (m->end == HD_MPR_SEPARATED) {
        out->verdict = HD_SEPARATED;
        hdi_support_plane(pair, m->plane_n, m->plane_ia, m->plane_ib, &out->cert);
        return 1;
    }
    if (m->end != HD_MPR_ENCLOSED) {
        return 0;
    }
    hdi_simplex *t = &m->tetra;
    if (hdi_tetra_signed_weights(t->w[0], t->w[1], t->w[2], t->w[3], t->lambda) == 0.0) {
        return 0;
    }
    double depth = hdi_simplex_inner_depth(t);
    if (!(depth > pair->eps)) {
        return 0;
    }
    double r[3] = {0.0, 0.0, 0.0};
    for (int j = 0; j < 4; ++j) {
        hdi_v3_madd(r, r, t->lambda[j], t->w[j]);
    }
    if (!(hdi_v3_max_abs(r) <= 0.125 * pair->eps)) {
        hdi_simplex_polish(t);
    }
    out->verdict = HD_INTERSECTING;
    portal_point(pair, t, &out->cert);
    out->cert.depth_bound = depth;
    return 1;
}

/* The portal's support pairs as a cache: GJK's start after an undecided portal search, or what
 * the caller's cache keeps after a decided one. */
static void portal_to_cache(const hdi_mpr_state *m, hd_cache *cache)
{
    cache->valid = true;
    hdi_v3_set(cache->axis, 0.0, 0.0, 0.0);
    if (m->end == HD_MPR_SEPARATED) {
        hdi_v3_neg(cache->axis, m->plane_n); /* the plane's normal from A towards B */
        cache->simplex_count = 1;
        cache->simplex_a[0] = cache->support_a = m->plane_ia;
        cache->simplex_b[0] = cache->support_b = m->plane_ib;
        return;
    }
    cache->simplex_count = 3;
    for (int j = 0; j < 3; ++j) {
        cache->simplex_a[j] = m->tetra.ia[j + 1];
        cache->simplex_b[j] = m->tetra.ib[j + 1];
    }
    cache->support_a = m->tetra.ia[1];
    cache->support_b = m->tetra.ib[1];
}

/* A cold boolean query on two solids tries the portal first (docs/algorithms/gjk.md, section 10),
 * unless the caller asks for GJK alone (HD_QUERY_NO_PORTAL, or a recorded path). 1 when it
 * decided; otherwise *seed may hold the last portal for GJK to start from (seed->valid). */
static int collide_by_portal(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out,
                             hd_cache *seed)
{
    hd_cache *cache = opt != NULL ? opt->cache : NULL;
    unsigned flags = opt != NULL ? opt->flags : 0u;
    if ((cache != NULL && cache->valid) || (flags & (HD_QUERY_NO_PORTAL | HD_QUERY_RECORD_PATH)) ||
        !hdi_mpr_applies(pair)) {
        return 0;
    }
    hdi_mpr_state m;
    hdi_mpr_run(pair, &m, &out->stats);
    out->stats.iterations += m.iterations;
    if (!mpr_decide(pair, &m, out)) {
        if (m.tetra.count == 4) {
            portal_to_cache(&m, seed);
        }
        return 0;
    }
    out->stop = HD_STOP_EARLY_EXIT;
    if (cache != NULL) {
        portal_to_cache(&m, cache);
    }
    return 1;
}

hd_status hdi_gjk_collide(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out)
{
    hd_cache seed = HD_CACHE_INIT;
    if (collide_by_portal(pair, opt, out, &seed)) {
        return HD_OK;
    }
    hd_cache *cache = opt != NULL ? opt->cache : NULL;
    hdi_gjk_trace *trace = hdi_workspace_gjk_trace(opt);
    if (trace == NULL && hdi_gjk_warm_collide(pair, cache, out)) {
        out->stop = HD_STOP_EARLY_EXIT; /* last frame's plane or tetrahedron, proven again */
        return HD_OK;
    }
    hdi_gjk_state st;
    hdi_gjk_start(pair, seed.valid ? &seed : cache, &st);
    st.trace = trace;
    hd_status status = hdi_gjk_iterate(pair, pair->eps, &st, &out->stats);
    if (status == HD_OK) {
        if (decide(pair, &st, out)) {
            out->stop = HD_STOP_EARLY_EXIT;
        } else {
            status = hdi_contact_refine(pair, &st, NULL, out);
        }
    }
    out->stats.iterations += st.iterations;
    hdi_gjk_save(&st, cache);
    return status;
}

/* The distance of a separated answer, proven by its two bounds: the witnesses are points of A and
 * of B, so d_w = |witness_a - witness_b| >= dist, and the plane proves dist >= lower. |v| is the
 * more accurate figure near contact (kernel/simplex.c) and is reported when it agrees with d_w to
 * the rounding of the witnesses; else d_w is. Either way the distance must be within GJK's
 * stopping tolerance of the lower bound (a stall or a band-edge answer of the classifier allows
 * HD_GJK_STALL_FACTOR tolerances and HD_CONTACT_ROUNDING_UNITS). A |v| that rounding of a badly
 * conditioned simplex took far below the distance is caught here (docs/algorithms/gjk.md, 4). */
static hd_status certify_distance(const hdi_pair *pair, const hdi_gjk_state *st,
                                  hdi_closest *closest)
{
    double rounding = HD_CONTACT_ROUNDING_UNITS * DBL_EPSILON * pair->scale;
    double d_w = hdi_v3_dist(closest->witness_a, closest->witness_b);
    double d = fabs(closest->distance - d_w) <= rounding ? closest->distance : d_w;
    if (!hdi_gjk_bounds_agree(pair, d, st->lower)) {
        return HD_ERR_ITERATION_LIMIT; /* the bounds disagree: no distance is proven */
    }
    closest->distance = d;
    return HD_OK;
}

/* A separated distance whose bounds disagree, polished in double-double (hdi_gjk_polish) and
 * certified again: a simplex much thinner than its distance from the origin (a segment of length
 * 12 against a square of side 8e-7: |v| 7 % off after the double solve). The separating plane
 * is the polished one. */
static hd_status polish_distance(const hdi_pair *pair, hdi_gjk_state *st, hd_collide_result *out,
                                 hdi_closest *closest)
{
    if (!hdi_gjk_polish(pair, st, &out->stats)) {
        return HD_ERR_ITERATION_LIMIT;
    }
    closest->distance = sqrt(st->vv);
    hdi_simplex_witnesses(&st->simplex, pair, closest->witness_a, closest->witness_b);
    hdi_gjk_plane(pair, st, &out->cert);
    return certify_distance(pair, st, closest);
}

hd_status hdi_gjk_distance(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out,
                           hdi_closest *closest)
{
    hd_cache *cache = opt != NULL ? opt->cache : NULL;
    hdi_gjk_state st;
    hdi_gjk_start(pair, cache, &st);
    st.trace = hdi_workspace_gjk_trace(opt);
    hd_status status = hdi_gjk_iterate(pair, DBL_MAX, &st, &out->stats);
    if (status == HD_OK) {
        if (decide(pair, &st, out)) {
            out->stop = HD_STOP_CONVERGED;
            if (out->verdict == HD_SEPARATED) {
                closest->distance = sqrt(st.vv);
                hdi_simplex_witnesses(&st.simplex, pair, closest->witness_a, closest->witness_b);
            } else {
                closest->distance = 0.0;
                hdi_v3_copy(closest->witness_a, out->cert.point);
                hdi_v3_copy(closest->witness_b, out->cert.point);
            }
        } else {
            status = hdi_contact_refine(pair, &st, closest, out);
        }
    }
    if (status == HD_OK && out->verdict == HD_SEPARATED) {
        status = certify_distance(pair, &st, closest);
        if (status != HD_OK) {
            status = polish_distance(pair, &st, out, closest);
        }
    } else if (status == HD_OK && out->verdict == HD_TOUCHING && out->cert.has_point) {
        hdi_certificate_point_pair(pair, &out->cert, closest->witness_a, closest->witness_b);
    }
    out->stats.iterations += st.iterations;
    hdi_gjk_save(&st, cache);
    return status;
}
