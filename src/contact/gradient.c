/* The first-order derivatives of the signed distance (docs/algorithms/gradient.md, section 2).
 *
 * With the features that attain delta fixed, delta = n . (w_b - w_a) for the material points w_a
 * of A and w_b of B at the witnesses; the normal's change is orthogonal to n while w_b - w_a is
 * parallel to it, so only the points' velocities count: for a translation tau and a rotation theta
 * of B about its origin o_B, d delta = n . tau + ((w_b - o_B) x n) . theta, and A's is the negative
 * about o_A. Everything is formed in A's frame (o_A = 0, o_B = the relative translation), where
 * the coordinates are the pair's own, and the 3-vectors are then turned into world axes. */
#include <math.h>
#include <string.h>

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
    int local = hdi_tie_each_cap_facet(pair, sd, t.limit, stats, is_tie, &t);
    return local >= 0 ? local : hdi_sat_each_facet(pair, stats, is_tie, &t);
}

static int is_unique(const hdi_pair *pair, const hdi_sd_result *sd, hd_stats *stats)
{
    if (!features_meet_once(pair, sd)) {
        return 0;
    }
    if (sd->delta > pair->eps) {
        return 1;
    }
    if (!hdi_pair_spans_volume(pair, HD_FEATURE_ANGLE)) {
        return 0; /* M flat: its normal at the origin is not unique */
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

void hdi_distance_gradient(const hdi_pair *pair, const hdi_closest *closest, hd_verdict verdict,
                           hd_stats *stats, hd_pose_gradient *out)
{
    memset(out, 0, sizeof *out);
    if (verdict != HD_SEPARATED || !(closest->distance > 0.0)) {
        out->unique = verdict == HD_INTERSECTING;
        return;
    }
    hdi_sd_result sd;
    memset(&sd, 0, sizeof sd);
    sd.verdict = verdict;
    sd.method = HD_SD_DISTANCE;
    sd.facet.kind = HD_FACE_NONE;
    sd.delta = closest->distance;
    hdi_v3_copy(sd.wa, closest->witness_a);
    hdi_v3_copy(sd.wb, closest->witness_b);
    hdi_v3_sub(sd.n, sd.wb, sd.wa);
    hdi_v3_scale(sd.n, sd.n, 1.0 / closest->distance);
    int ia = 0, ib = 0;
    hdi_facet_support(pair, sd.n, &ia, &ib, stats);
    hdi_sd_set_features(pair, &sd, ia, ib);
    hdi_sd_gradient(pair, &sd, stats, out);
}

/* ---- second order (docs/algorithms/gradient.md, section 4), in world coordinates ---------- */

/* One body's motion: its origin, rotation, and the translation and rotation rates. */
typedef struct body_motion {
    const hd_polytope *p;
    hd_pose pose;
    const double *tau;
    const double *theta;
} body_motion;

/* v(x) = tau + theta x (x - o): the velocity of the body's material point at x. */
static void point_velocity(const body_motion *m, const double x[3], double out[3])
{
    double arm[3];
    hdi_v3_sub(arm, x, m->pose.t);
    hdi_v3_cross(out, m->theta, arm);
    hdi_v3_add(out, out, m->tau);
}

/* World direction of edge e (not normalized). */
static void world_edge(const body_motion *m, int e, double out[3])
{
    double d[3];
    hdi_v3_sub(d, m->p->verts + 3 * m->p->edge_verts[2 * e + 1],
               m->p->verts + 3 * m->p->edge_verts[2 * e]);
    hdi_m3_mul_v(out, m->pose.r, d);
}

/* P x = x - (n . x) n. */
static void project(const double n[3], const double x[3], double out[3])
{
    hdi_v3_madd(out, x, -hdi_v3_dot(n, x), n);
}

/* Edge-edge: the normal turns with the edges' cross product, the witnesses slide along them.
 * 0 when the edges are parallel (no unique witnesses). */
static int edge_edge_rates(const hd_signed_distance_result *c, const body_motion *ma,
                           const body_motion *mb, const double va[3], const double vb[3],
                           hd_contact_rates *out)
{
    double u[3], e[3], cu[3], du[3], de[3], t1[3], t2[3], cdot[3], r[3], pr[3], x[3];
    world_edge(ma, c->feature_a.index, u);
    world_edge(mb, c->feature_b.index, e);
    hdi_v3_cross(cu, u, e);
    if (!(hdi_v3_len(cu) > HD_PARALLEL_SINE * hdi_v3_len(u) * hdi_v3_len(e))) {
        return 0;
    }
    double cc = hdi_v3_len2(cu), sign = hdi_v3_dot(cu, c->normal) < 0.0 ? -1.0 : 1.0;
    hdi_v3_cross(du, ma->theta, u);
    hdi_v3_cross(de, mb->theta, e);
    hdi_v3_cross(t1, du, e);
    hdi_v3_cross(t2, u, de);
    hdi_v3_add(cdot, t1, t2);
    project(c->normal, cdot, out->normal);
    hdi_v3_scale(out->normal, out->normal, sign / sqrt(cc));
    hdi_v3_sub(r, vb, va);
    hdi_v3_madd(r, r, -c->signed_distance, out->normal);
    project(c->normal, r, pr);
    hdi_v3_cross(x, pr, e);
    double s_rate = hdi_v3_dot(x, cu) / cc;
    hdi_v3_cross(x, pr, u);
    double t_rate = hdi_v3_dot(x, cu) / cc;
    hdi_v3_madd(out->witness_a, va, s_rate, u);
    hdi_v3_madd(out->witness_b, vb, t_rate, e);
    return 1;
}

/* A vertex against an edge (side sign +1: A's vertex and B's edge; -1: the reverse): the foot
 * point slides along the edge, the normal follows the witnesses' difference. */
static void vertex_edge_rates(const hd_signed_distance_result *c, const body_motion *edge_body,
                              int edge, double side, const double va[3], const double vb[3],
                              hd_contact_rates *out)
{
    double e[3], de[3], dv[3];
    world_edge(edge_body, edge, e);
    hdi_v3_cross(de, edge_body->theta, e);
    hdi_v3_sub(dv, va, vb);
    double rate =
        (side * hdi_v3_dot(dv, e) - side * c->signed_distance * hdi_v3_dot(c->normal, de)) /
        hdi_v3_len2(e);
    hdi_v3_copy(out->witness_a, va);
    hdi_v3_copy(out->witness_b, vb);
    hdi_v3_madd(side > 0.0 ? out->witness_b : out->witness_a,
                side > 0.0 ? out->witness_b : out->witness_a, rate, e);
}

/* The normal's rate when it is the direction of the witnesses' difference (vertex cases). */
static void difference_normal_rate(const hd_signed_distance_result *c, hd_contact_rates *out)
{
    double d[3];
    hdi_v3_sub(d, out->witness_b, out->witness_a);
    project(c->normal, d, out->normal);
    hdi_v3_scale(out->normal, out->normal, 1.0 / c->signed_distance);
}

/* A face's normal turns with its body (theta x n); the point on the face is the other witness
 * moved by delta_rate n + delta n_rate (sign +1 for B's point, -1 for A's). */
static void face_rates(const hd_signed_distance_result *c, const double theta[3],
                       const double from[3], double sign, double delta_rate, double to[3],
                       hd_contact_rates *out)
{
    hdi_v3_cross(out->normal, theta, c->normal);
    hdi_v3_madd(to, from, sign * delta_rate, c->normal);
    hdi_v3_madd(to, to, sign * c->signed_distance, out->normal);
}

/* 1 when the contact's features are a unique pair the rates are defined for. */
static int rates_defined(const hd_signed_distance_result *c)
{
    int dims = (int)c->feature_a.type + (int)c->feature_b.type;
    return dims == 2 || (dims < 2 && c->signed_distance > 0.0);
}

static int feature_in_range(const hd_polytope *p, hd_feature_id f)
{
    int count = f.type == HD_FEATURE_VERTEX ? p->vertex_count
                : f.type == HD_FEATURE_EDGE ? p->edge_count
                                            : p->face_count;
    return f.index >= 0 && f.index < count;
}

static hd_status check_rates_input(const hd_polytope *a, const hd_pose *pose_a,
                                   const hd_polytope *b, const hd_pose *pose_b,
                                   const hd_signed_distance_result *c, const double motion[12])
{
    if (a == NULL || b == NULL || c == NULL || motion == NULL) {
        return HD_ERR_NULL;
    }
    for (int k = 0; k < 12; ++k) {
        if (!isfinite(motion[k])) {
            return HD_ERR_NONFINITE;
        }
    }
    double tol = hd_tolerance_default().pose_tol;
    if ((pose_a != NULL && hd_pose_validate(pose_a, tol) != HD_OK) ||
        (pose_b != NULL && hd_pose_validate(pose_b, tol) != HD_OK)) {
        return HD_ERR_BAD_POSE;
    }
    if (!rates_defined(c) || !feature_in_range(a, c->feature_a) ||
        !feature_in_range(b, c->feature_b)) {
        return HD_ERR_INVALID_ARG;
    }
    return HD_OK;
}

static body_motion body(const hd_polytope *p, const hd_pose *pose, const double *rates)
{
    body_motion m = {p, pose != NULL ? *pose : hd_pose_identity(), rates, rates + 3};
    return m;
}

hd_status hd_signed_distance_rates(const hd_polytope *a, const hd_pose *pose_a,
                                   const hd_polytope *b, const hd_pose *pose_b,
                                   const hd_signed_distance_result *c, const double motion[12],
                                   hd_contact_rates *out)
{
    hd_status st = out == NULL ? HD_ERR_NULL : check_rates_input(a, pose_a, b, pose_b, c, motion);
    if (st != HD_OK) {
        return st;
    }
    body_motion ma = body(a, pose_a, motion), mb = body(b, pose_b, motion + 6);
    double va[3], vb[3], d[3];
    point_velocity(&ma, c->witness_a, va);
    point_velocity(&mb, c->witness_b, vb);
    hdi_v3_sub(d, vb, va);
    out->signed_distance = hdi_v3_dot(c->normal, d);
    hd_feature_type fa = c->feature_a.type, fb = c->feature_b.type;
    if (fa == HD_FEATURE_VERTEX && fb == HD_FEATURE_FACE) {
        hdi_v3_copy(out->witness_a, va);
        face_rates(c, mb.theta, va, 1.0, out->signed_distance, out->witness_b, out);
    } else if (fa == HD_FEATURE_FACE && fb == HD_FEATURE_VERTEX) {
        hdi_v3_copy(out->witness_b, vb);
        face_rates(c, ma.theta, vb, -1.0, out->signed_distance, out->witness_a, out);
    } else if (fa == HD_FEATURE_EDGE && fb == HD_FEATURE_EDGE) {
        if (!edge_edge_rates(c, &ma, &mb, va, vb, out)) {
            return HD_ERR_INVALID_ARG;
        }
    } else {
        if (fa == HD_FEATURE_VERTEX && fb == HD_FEATURE_EDGE) {
            vertex_edge_rates(c, &mb, c->feature_b.index, 1.0, va, vb, out);
        } else if (fa == HD_FEATURE_EDGE) {
            vertex_edge_rates(c, &ma, c->feature_a.index, -1.0, va, vb, out);
        } else {
            hdi_v3_copy(out->witness_a, va);
            hdi_v3_copy(out->witness_b, vb);
        }
        difference_normal_rate(c, out);
    }
    return HD_OK;
}
