/* CD-Dual intersection query (Choi, Li, Wang, Cameron, "Collision Detection of Convex Polyhedra
 * Based on Duality Transformation"): is the origin o in M = A - B? Shoot the ray from an interior
 * point c through o; it leaves M through the face f_opt of largest signed distance d(f) (Eq. (1),
 * sections 3.1-3.2), and the pair is separated iff d(f_opt) > 0. Verdicts against the band,
 * certificates and lower dimensions: docs/algorithms/cddual.md, sections 1, 5 and 6; a search
 * that outgrows its scratch is answered by GJK (section 9). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "cddual/cddual.h"
#include "gjk/gjk.h"
#include "contact/classify.h"
#include "cddual/internal.h"
#include "core/math.h"
#include "core/tolerances.h"

void hdi_cddual_interior(const hdi_pair *pair, double c[3], double *clearance, int *ia, int *ib)
{
    double best = -1.0;
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
            const hdi_interior *pa = &pair->a->interior[i];
            const hdi_interior *pb = &pair->b->interior[j];
            double q[3], d[3];
            hdi_m3_mul_v(q, pair->r, pb->point);
            hdi_v3_add(q, q, pair->t);
            hdi_v3_sub(d, pa->point, q);
            if (hdi_v3_len2(d) > best) {
                best = hdi_v3_len2(d);
                hdi_v3_copy(c, d);
                *clearance = pa->clearance + pb->clearance;
                *ia = i;
                *ib = j;
            }
        }
    }
}

/* Adds weight * (combination) to out, merging repeated vertices. */
static void comb_add(hd_combination *out, int count, const int *index, const double *weight,
                     double scale)
{
    for (int k = 0; k < count; ++k) {
        double w = scale * weight[k];
        if (!(w > 0.0)) {
            continue;
        }
        int j = 0;
        while (j < out->count && out->index[j] != index[k]) {
            ++j;
        }
        if (j == out->count) {
            if (out->count == HD_COMBINATION_MAX) {
                continue; /* cannot happen: at most 4 + 3 distinct vertices */
            }
            out->index[j] = index[k];
            out->weight[j] = 0.0;
            out->count++;
        }
        out->weight[j] += w;
    }
}

/* Rescales the weights to sum to 1 (merging adds roundings; a single vertex gets exactly 1). */
static void comb_normalize(hd_combination *c)
{
    double sum = 0.0;
    for (int k = 0; k < c->count; ++k) {
        sum += c->weight[k];
    }
    for (int k = 0; k < c->count; ++k) {
        double w = c->weight[k] / sum;
        c->weight[k] = w < 1.0 ? w : 1.0;
    }
}

static void comb_point_a(const hdi_pair *pair, const hd_combination *cb, double p[3])
{
    hdi_v3_set(p, 0, 0, 0);
    for (int k = 0; k < cb->count; ++k) {
        hdi_v3_madd(p, p, cb->weight[k], pair->a->verts + 3 * cb->index[k]);
    }
}

static void comb_point_b(const hdi_pair *pair, const hd_combination *cb, double p[3])
{
    hdi_v3_set(p, 0, 0, 0);
    for (int k = 0; k < cb->count; ++k) {
        double q[3];
        hdi_pair_b_vertex(pair, cb->index[k], q);
        hdi_v3_madd(p, p, cb->weight[k], q);
    }
}

/* The intersection certificate from the optimum (cddual.md, section 6): at psi < 1 the ray meets
 * f_opt at x = c + r / psi beyond o, so o = (1 - psi) c + psi x; the cone from ball(c, R) to x lies
 * in M and holds ball(o, (1 - psi) R), hence depth >= (1 - psi) R, less psi times the error of
 * locating x on the face. HD_OK with the verdict set, or HD_ERR_UNSUPPORTED when the evidence
 * cannot place the depth above eps. */
static hd_status certify_overlap(const hdi_pair *pair, const hdi_raysearch *rs, double clearance,
                                 int ia, int ib, hd_collide_result *out)
{
    double psi = rs->best_value;
    if (!(psi > 0.0 && psi < 1.0)) {
        return HD_ERR_UNSUPPORTED;
    }
    double x[3];
    hdi_v3_madd(x, rs->c, 1.0 / psi, rs->r);
    hdi_feature fa, fb;
    hdi_mface_features(pair, &rs->best, &fa, &fb);
    hdi_comb3 y, z;
    double err = hdi_mface_locate(pair, rs->best.n, fa, fb, x, &y, &z);
    double rounding = HD_CDDUAL_ROUNDING * DBL_EPSILON * pair->scale;
    double depth = (1.0 - psi) * clearance - psi * err - rounding;
    if (!(depth > pair->eps) || !(psi * err <= 0.5 * pair->eps + rounding)) {
        return HD_ERR_UNSUPPORTED;
    }
    hd_certificate *cert = &out->cert;
    memset(&cert->on_a, 0, sizeof cert->on_a);
    memset(&cert->on_b, 0, sizeof cert->on_b);
    const hdi_interior *in_a = &pair->a->interior[ia];
    const hdi_interior *in_b = &pair->b->interior[ib];
    comb_add(&cert->on_a, in_a->count, in_a->index, in_a->weight, 1.0 - psi);
    comb_add(&cert->on_a, y.count, y.index, y.weight, psi);
    comb_add(&cert->on_b, in_b->count, in_b->index, in_b->weight, 1.0 - psi);
    comb_add(&cert->on_b, z.count, z.index, z.weight, psi);
    comb_normalize(&cert->on_a);
    comb_normalize(&cert->on_b);
    double pa[3], pb[3];
    comb_point_a(pair, &cert->on_a, pa);
    comb_point_b(pair, &cert->on_b, pb);
    hdi_v3_add(cert->point, pa, pb);
    hdi_v3_scale(cert->point, cert->point, 0.5);
    cert->has_point = true;
    cert->depth_bound = depth;
    out->verdict = HD_INTERSECTING;
    out->stop = HD_STOP_CONVERGED;
    return HD_OK;
}

/* The search stopped on a face whose plane, re-measured with both supports, has gap > eps (the
 * paper stops at d > 0; a gap in (0, eps] is not enough evidence). */
static void certify_separation(const hdi_raysearch *rs, hd_collide_result *out)
{
    hd_certificate *cert = &out->cert;
    cert->has_plane = true;
    hdi_v3_copy(cert->normal, rs->best.n);
    cert->offset = 0.5 * (rs->sep_max_a + rs->sep_min_b);
    cert->gap = rs->sep_min_b - rs->sep_max_a;
    out->verdict = HD_SEPARATED;
    out->stop = HD_STOP_EARLY_EXIT;
}

/* The face of A "from which the optimum was reached" for the next query (section 4.4): the
 * optimum's own face of A, or the face of A at its feature most aligned with its normal. */
static int coherent_face(const hdi_pair *pair, const hdi_mface *m)
{
    const hd_polytope *a = pair->a;
    if (a->face_count == 0) {
        return -1;
    }
    if (m->kind == HD_FACE_FV) {
        return m->fa;
    }
    int v = m->kind == HD_FACE_VF ? m->fa : a->edge_verts[2 * m->fa];
    int best = -1;
    double bv = -HUGE_VAL;
    for (int k = a->vert_offset[v]; k < a->vert_offset[v + 1]; ++k) {
        int e = a->vert_edges[k];
        if (m->kind == HD_FACE_EE && e != m->fa) {
            continue;
        }
        for (int side = 0; side < 2; ++side) {
            int f = a->edge_faces[2 * e + side];
            if (f >= 0 && hdi_v3_dot(a->face_normal + 3 * f, m->n) > bv) {
                bv = hdi_v3_dot(a->face_normal + 3 * f, m->n);
                best = f;
            }
        }
    }
    return best;
}

/* A cold start for hill climbing: of the vertices that make up the polytope's interior points
 * (hull vertices far apart: a long chord and the vertices farthest from it), the one best in
 * direction d, a much nearer start than an arbitrary vertex. d in the polytope's own frame. */
static int seed_vertex(const hd_polytope *p, const double d[3])
{
    int best = 0;
    double bv = -HUGE_VAL;
    for (int i = 0; i < 2; ++i) {
        for (int k = 0; k < p->interior[i].count; ++k) {
            int v = p->interior[i].index[k];
            double x = hdi_v3_dot(p->verts + 3 * v, d);
            if (x > bv) {
                bv = x;
                best = v;
            }
        }
    }
    return best;
}

static void report_face(const hdi_raysearch *rs, hd_collide_result *out)
{
    out->cddual.kind = rs->best.kind;
    out->cddual.feature_a = rs->best.fa;
    out->cddual.feature_b = rs->best.fb;
    /* Eq. (1) with k = h, N = n: d(f) = -h / (|c| (h - n.c)) = (psi - 1) / |c| */
    double len = hdi_v3_len(rs->c);
    double den = rs->best.h - hdi_v3_dot(rs->best.n, rs->c);
    out->cddual.dual_distance = -rs->best.h / (len * den);
}

/* Neither polytope a solid: M has no interior point with a clearance (it may be flat), so GJK
 * answers. */
static hd_status fallback(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out)
{
    hd_status st = hdi_gjk_collide(pair, opt, out);
    out->stop = HD_STOP_FALLBACK;
    memset(&out->cddual, 0, sizeof out->cddual); /* no CD-Dual face answered */
    return st;
}

/* The search needed more candidates than the map holds (the stack scratch, or a workspace smaller
 * than hd_workspace_capacity_for): GJK answers (stop = HD_STOP_FALLBACK), and the work already
 * done is counted. */
static hd_status fallback_full(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out)
{
    hd_stats spent = out->stats;
    memset(&out->stats, 0, sizeof out->stats);
    memset(&out->cert, 0, sizeof out->cert);
    hd_status st = fallback(pair, opt, out);
    out->stats.iterations += spent.iterations;
    out->stats.support_calls += spent.support_calls;
    out->stats.visits_fv = spent.visits_fv;
    out->stats.visits_vf = spent.visits_vf;
    out->stats.visits_ee = spent.visits_ee;
    return st;
}

/* The intersection query on an opened map (hdi_facemap_open). */
static hd_status collide_on_map(const hdi_pair *pair, const hd_options *opt, hdi_facemap *map,
                                hd_collide_result *out)
{
    if (pair->a->dim < 3 && pair->b->dim < 3) {
        return fallback(pair, opt, out);
    }
    hdi_raysearch rs;
    memset(&rs, 0, sizeof rs);
    double clearance;
    int ia, ib;
    hdi_cddual_interior(pair, rs.c, &clearance, &ia, &ib);
    hdi_v3_neg(rs.r, rs.c);
    rs.map = map;
    rs.pair = pair;
    rs.stop_on_gap = 1;
    hd_cache *cache = opt->cache;
    rs.start_face = cache != NULL ? cache->cddual_face : -1;
    if (cache != NULL) {
        rs.start_a = cache->support_a;
        rs.start_b = cache->support_b;
    } else {
        double rb[3];
        hdi_pair_dir_to_b(pair, rs.c, rb); /* B's support along -r = c */
        rs.start_a = seed_vertex(pair->a, rs.r);
        rs.start_b = seed_vertex(pair->b, rb);
    }
    rs.max_evals = pair->max_iterations;
    rs.stats = &out->stats;
    hd_status st = hdi_raysearch_run(&rs);
    if (st != HD_OK) {
        return st;
    }
    if (cache != NULL) {
        cache->cddual_face = coherent_face(pair, &rs.best);
        cache->support_a = rs.start_a;
        cache->support_b = rs.start_b;
    }
    if (rs.separated) {
        certify_separation(&rs, out);
    } else if (certify_overlap(pair, &rs, clearance, ia, ib, out) != HD_OK) {
        st = hdi_contact_classify(pair, opt, out);
    }
    report_face(&rs, out);
    return st;
}

hd_status hdi_cddual_collide(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out)
{
    hdi_facemap_scratch scratch;
    hdi_facemap *map =
        hdi_facemap_open(opt->workspace, &scratch, (opt->flags & HD_QUERY_RECORD_PATH) != 0);
    hd_status st = collide_on_map(pair, opt, map, out);
    return st == HD_ERR_WORKSPACE_FULL ? fallback_full(pair, opt, out) : st;
}
