/* The first-order derivatives of the signed distance (docs/algorithms/gradient.md, section 2).
 *
 * With the features that attain delta fixed, delta = n . (w_b - w_a) for the material points w_a
 * of A and w_b of B at the witnesses; the normal's change is orthogonal to n while w_b - w_a is
 * parallel to it, so only the points' velocities count: for a translation tau and a rotation theta
 * of B about its origin o_B, d delta = n . tau + ((w_b - o_B) x n) . theta, and A's is the negative
 * about o_A. Everything is formed in A's frame (o_A = 0, o_B = the relative translation), where
 * the coordinates are the pair's own, and the 3-vectors are then turned into world axes. */
#include <math.h>

#include "contact/gradient.h"
#include "core/math.h"
#include "core/tolerances.h"

static int feature_dim(hdi_feature f)
{
    return f.kind == HD_FEAT_VERTEX ? 0 : f.kind == HD_FEAT_EDGE ? 1 : 2;
}

/* Unit direction of edge e of p in p's own frame. */
static void edge_dir(const hd_polytope *p, int e, double out[3])
{
    hdi_v3_sub(out, p->verts + 3 * p->edge_verts[2 * e + 1], p->verts + 3 * p->edge_verts[2 * e]);
    hdi_v3_normalize(out);
}

/* 1 when the two edges (A's frame) make a sine above HD_PARALLEL_SINE. */
static int edges_cross(const hdi_pair *pair, int ea, int eb)
{
    double u[3], e[3], eb_a[3], c[3];
    edge_dir(pair->a, ea, u);
    edge_dir(pair->b, eb, e);
    hdi_m3_mul_v(eb_a, pair->r, e);
    hdi_v3_cross(c, u, eb_a);
    return hdi_v3_len(c) > HD_PARALLEL_SINE;
}

/* 1 when the features meet in a single point pair (see gradient.h). */
static int features_meet_once(const hdi_pair *pair, const hdi_sd_result *sd)
{
    int dims = feature_dim(sd->fa) + feature_dim(sd->fb);
    if (dims > 2) {
        return 0;
    }
    if (dims < 2 && sd->delta <= pair->eps) {
        return 0;
    }
    if (sd->fa.kind == HD_FEAT_EDGE && sd->fb.kind == HD_FEAT_EDGE) {
        return edges_cross(pair, sd->fa.index, sd->fb.index);
    }
    return 1;
}

/* A direction of p's affine hull (p's frame) for a segment or a polygon's normal. */
static void flat_direction(const hd_polytope *p, double out[3])
{
    if (p->dim == 2) {
        hdi_v3_copy(out, p->plane_normal);
    } else {
        hdi_v3_sub(out, p->verts + 3, p->verts);
        hdi_v3_normalize(out);
    }
}

/* 1 when M = A - B spans no volume: neither is a solid and together they span a plane at most. */
static int difference_is_flat(const hdi_pair *pair)
{
    const hd_polytope *a = pair->a, *b = pair->b;
    if (a->dim == 3 || b->dim == 3) {
        return 0;
    }
    if (a->dim + b->dim < 3) {
        return 1;
    }
    double da[3], db[3], dba[3], c[3];
    flat_direction(a, da);
    flat_direction(b, db);
    hdi_m3_mul_v(dba, pair->r, db);
    if (a->dim == 2 && b->dim == 2) {
        hdi_v3_cross(c, da, dba);
        return hdi_v3_len(c) <= HD_FEATURE_ANGLE; /* parallel planes */
    }
    return fabs(hdi_v3_dot(da, dba)) <= HD_FEATURE_ANGLE; /* a segment in the polygon's plane */
}

/* The tie test's state: the depth's facet and the least value another facet may take. */
typedef struct tie_search {
    const hdi_pair *pair;
    hd_stats *stats;
    const double *n;
    double limit;
} tie_search;

static int is_tie(void *ctx, hdi_mface *m)
{
    const tie_search *t = ctx;
    double d[3];
    /* m->h is never above m's support value (hdi_facet_consider): most candidates stop here */
    if (m->h > t->limit) {
        return 0;
    }
    hdi_mface_refine(t->pair, m);
    hdi_v3_sub(d, m->n, t->n);
    if (hdi_v3_len(d) <= HD_FEATURE_ANGLE) {
        return 0; /* the depth's own facet */
    }
    int ia = m->sa, ib = m->sb;
    return hdi_facet_support(t->pair, m->n, &ia, &ib, t->stats) <= t->limit;
}

/* 1 when another facet of M attains the depth to within the tie tolerance. */
static int depth_is_tied(const hdi_pair *pair, const hdi_sd_result *sd, hd_stats *stats)
{
    tie_search t = {pair, stats, sd->n,
                    -sd->delta + HD_GRADIENT_TIE_REL * sd->size + 2.0 * sd->margin};
    return hdi_sat_each_facet(pair, stats, is_tie, &t);
}

static int is_unique(const hdi_pair *pair, const hdi_sd_result *sd, hd_stats *stats)
{
    if (!features_meet_once(pair, sd)) {
        return 0;
    }
    if (sd->delta > pair->eps) {
        return 1;
    }
    if (difference_is_flat(pair)) {
        return 0;
    }
    return sd->method == HD_SD_DISTANCE || !depth_is_tied(pair, sd, stats);
}

void hdi_sd_gradient(const hdi_pair *pair, const hdi_sd_result *sd, hd_stats *stats,
                     hd_pose_gradient *out)
{
    double arm_b[3], rot_a[3], rot_b[3], neg[3];
    hdi_v3_sub(arm_b, sd->wb, pair->t);
    hdi_v3_cross(rot_b, arm_b, sd->n);
    hdi_v3_cross(rot_a, sd->wa, sd->n);
    hdi_v3_neg(rot_a, rot_a);
    hdi_v3_neg(neg, sd->n);
    hdi_pair_dir_to_world(pair, sd->n, out->b);
    hdi_pair_dir_to_world(pair, rot_b, out->b + 3);
    hdi_pair_dir_to_world(pair, neg, out->a);
    hdi_pair_dir_to_world(pair, rot_a, out->a + 3);
    out->unique = is_unique(pair, sd, stats);
}
