/* The public contact queries (hedra/contact.h): argument checks and pair preparation shared with
 * hd_collide, the contact module's answer in A's frame mapped to the world frame. */
#include <string.h>

#include "contact/gradient.h"
#include "contact/signed_distance.h"
#include "kernel/epa.h"
#include "core/math.h"
#include "query/query_internal.h"
#include "kernel/workspace.h"

const char *hd_feature_type_str(hd_feature_type type)
{
    static const char *const names[] = {"vertex", "edge", "face"};
    return (int)type >= 0 && type <= HD_FEATURE_FACE ? names[type] : "unknown";
}

static int max_face_size(const hd_polytope *p)
{
    int m = p->dim <= 1 ? p->vertex_count : 0;
    for (int f = 0; f < p->face_count; ++f) {
        int k = p->face_offset[f + 1] - p->face_offset[f];
        m = k > m ? k : m;
    }
    return m;
}

int hd_contact_workspace_capacity(const hd_polytope *a, const hd_polytope *b)
{
    if (a == NULL || b == NULL) {
        return 0;
    }
    size_t clip = hdi_manifold_scratch_bytes(max_face_size(a), max_face_size(b));
    size_t epa = 1024 * (size_t)HD_EPA_BYTES_PER_VERTEX;
    size_t bytes = clip > epa ? clip : epa;
    return (int)((bytes + HD_WORKSPACE_SCRATCH_PER - 1) / HD_WORKSPACE_SCRATCH_PER);
}

static hd_feature_id public_feature(hdi_feature f)
{
    hd_feature_id out = {(hd_feature_type)f.kind, f.index};
    return out;
}

/* The answer in the world frame. */
static void contact_to_world(const hdi_pair *pair, const hdi_sd_result *sd, const hd_stats *stats,
                             hd_signed_distance_result *out)
{
    memset(out, 0, sizeof *out);
    out->verdict = sd->verdict;
    out->signed_distance = sd->delta + 0.0; /* -0 reads as 0 */
    hdi_pair_dir_to_world(pair, sd->n, out->normal);
    hdi_pair_point_to_world(pair, sd->wa, out->witness_a);
    hdi_pair_point_to_world(pair, sd->wb, out->witness_b);
    out->lower = sd->lower;
    out->upper = sd->upper;
    out->feature_a = public_feature(sd->fa);
    out->feature_b = public_feature(sd->fb);
    out->method = sd->method == HD_SD_EPA   ? HD_DEPTH_EPA
                  : sd->method == HD_SD_SAT ? HD_DEPTH_SAT
                                            : HD_DEPTH_NONE;
    out->eps = pair->eps;
    out->size = sd->size;
    out->stats = *stats;
}

/* A rounded pair's answer from its cores' (world frame): the signed distance and its bounds less
 * R, the witnesses moved onto the rounded surfaces along the cores' normal, the verdict of the
 * shifted signed distance against the band; features, normal and gradient stay the cores' (the
 * witnesses move along n, which leaves every moment arm (w - t) x n as it was). */
static void round_contact(const hdi_pair *pair, hd_signed_distance_result *out)
{
    double R = hdi_rounded_sum(pair);
    out->signed_distance = (out->signed_distance - R) + 0.0;
    out->lower -= R;
    out->upper -= R;
    hdi_v3_madd(out->witness_a, out->witness_a, pair->a->radius, out->normal);
    hdi_v3_madd(out->witness_b, out->witness_b, -pair->b->radius, out->normal);
    out->verdict = out->signed_distance > out->eps    ? HD_SEPARATED
                   : out->signed_distance < -out->eps ? HD_INTERSECTING
                                                      : HD_TOUCHING;
}

/* The gradient when asked (one flag test otherwise); the tie test's support calls count in
 * out->stats. */
static void add_gradient(const hdi_pair *pair, const hdi_sd_result *sd, const hd_options *opt,
                         hd_signed_distance_result *out)
{
    if (opt != NULL && (opt->flags & HD_QUERY_GRADIENT)) {
        hdi_sd_gradient(pair, sd, &out->stats, &out->gradient);
    }
}

/* Validation, preparation and the signed distance in A's frame. */
static hd_status run(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                     const hd_pose *pose_b, const hd_options *opt, hdi_pair *pair,
                     hdi_scratch *scratch, hd_stats *stats, hdi_sd_result *sd)
{
    hd_options defaults;
    hd_status st = hdi_query_prepare(a, pose_a, b, pose_b, &opt, &defaults, pair);
    if (st != HD_OK) {
        return st;
    }
    scratch->bytes = hdi_workspace_scratch(opt->workspace, &scratch->size);
    memset(stats, 0, sizeof *stats);
    return hdi_sd_pair(pair, opt, scratch, stats, sd);
}

hd_status hd_signed_distance(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                             const hd_pose *pose_b, const hd_options *opt,
                             hd_signed_distance_result *out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    hdi_pair pair;
    hdi_scratch scratch;
    hd_stats stats;
    hdi_sd_result sd;
    hd_status st = run(a, pose_a, b, pose_b, opt, &pair, &scratch, &stats, &sd);
    if (st == HD_OK) {
        contact_to_world(&pair, &sd, &stats, out);
        add_gradient(&pair, &sd, opt, out);
        if (hdi_rounded_sum(&pair) > 0.0) {
            round_contact(&pair, out);
        }
    }
    return st;
}

/* The manifold of a rounded pair from its cores' (A's frame): clipped as for the cores with the
 * band widened by R (core points up to R + eps apart are rounded contacts), each point then
 * moved half-way between the rounded surfaces, (r_A - r_B) / 2 along n, its separation less R. */
static hd_status rounded_manifold(const hdi_pair *pair, const hdi_sd_result *sd,
                                  const hdi_scratch *scratch, hd_manifold *out)
{
    double R = hdi_rounded_sum(pair);
    hdi_pair wide = *pair;
    wide.eps += R;
    hd_status st = hdi_manifold_pair(&wide, sd, scratch, out);
    for (int i = 0; st == HD_OK && i < out->count; ++i) {
        hd_contact_point *p = &out->points[i];
        hdi_v3_madd(p->point, p->point, 0.5 * (pair->a->radius - pair->b->radius), out->normal);
        p->separation -= R;
    }
    return st;
}

hd_status hd_contact_manifold(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                              const hd_pose *pose_b, const hd_options *opt,
                              hd_signed_distance_result *contact, hd_manifold *out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    hdi_pair pair;
    hdi_scratch scratch;
    hd_stats stats;
    hdi_sd_result sd;
    hd_status st = run(a, pose_a, b, pose_b, opt, &pair, &scratch, &stats, &sd);
    if (st == HD_OK) {
        st = hdi_rounded_sum(&pair) > 0.0 ? rounded_manifold(&pair, &sd, &scratch, out)
                                          : hdi_manifold_pair(&pair, &sd, &scratch, out);
    }
    if (st != HD_OK) {
        return st;
    }
    hdi_pair_dir_to_world(&pair, out->normal, out->normal);
    for (int i = 0; i < out->count; ++i) {
        hdi_pair_point_to_world(&pair, out->points[i].point, out->points[i].point);
    }
    if (contact != NULL) {
        contact_to_world(&pair, &sd, &stats, contact);
        add_gradient(&pair, &sd, opt, contact);
        if (hdi_rounded_sum(&pair) > 0.0) {
            round_contact(&pair, contact);
        }
    }
    return HD_OK;
}
