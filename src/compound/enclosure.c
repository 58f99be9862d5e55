/* How far points lie outside the union of a compound's pieces (docs/algorithms/compound.md,
 * section 6): the distance from a point to a union is the least distance to its members, found
 * by the distance descent of the compound against the point as a compound of one piece. */
#include <math.h>
#include <string.h>

#include "compound/internal.h"
#include "core/math.h"

/* The distance from x (body frame) to the compound's pieces. */
static hd_status point_distance(const hd_compound *c, hd_compound *point, const double x[3],
                                const hd_options *opt, hd_compound_distance_result *out)
{
    hd_pose at = hd_pose_identity();
    hdi_v3_copy(at.t, x);
    return hd_compound_distance(c, NULL, point, &at, opt, out);
}

static hd_status check_points(const double *xyz, int count)
{
    if (count <= 0) {
        return HD_ERR_EMPTY;
    }
    if (count > HD_MAX_POINTS) {
        return HD_ERR_TOO_LARGE;
    }
    for (int i = 0; i < count; ++i) {
        if (!hdi_v3_is_finite(xyz + 3 * (size_t)i)) {
            return HD_ERR_NONFINITE;
        }
    }
    return HD_OK;
}

/* Keeps point i's answer when it lies farther out than the best so far. */
static void keep_farthest(hd_enclosure_result *out, int i, const hd_compound_distance_result *r)
{
    if (r->verdict != HD_SEPARATED) {
        out->inside++;
        return;
    }
    if (out->vertex < 0 || r->distance > out->distance) {
        out->distance = r->distance;
        out->vertex = i;
        out->piece = r->piece_a;
        hdi_v3_copy(out->witness, r->pair.witness_a);
    }
}

hd_status hd_compound_enclosure(const hd_compound *compound, const double *xyz, int count,
                                const hd_options *opt, hd_enclosure_result *out)
{
    if (compound == NULL || xyz == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    memset(out, 0, sizeof *out);
    out->vertex = out->piece = -1;
    hd_status st = check_points(xyz, count);
    const double origin[3] = {0.0, 0.0, 0.0};
    hd_polytope *dot = NULL;
    if (st == HD_OK) {
        st = hd_polytope_build(origin, 1, opt != NULL ? &opt->tol : NULL, &dot);
    }
    /* the point as a compound of one piece, held on the stack */
    hdi_cpiece piece = {dot, hd_pose_identity()};
    hdi_cnode node = {{0, 0, 0}, {0, 0, 0}, -1, -1, 0};
    hd_compound point = {1, 0, &piece, &node, 1};
    for (int i = 0; st == HD_OK && i < count; ++i) {
        hd_compound_distance_result r;
        st = point_distance(compound, &point, xyz + 3 * (size_t)i, opt, &r);
        if (st == HD_OK) {
            keep_farthest(out, i, &r);
            out->stats.node_pairs += r.stats.node_pairs;
            out->stats.piece_pairs += r.stats.piece_pairs;
        }
    }
    hd_polytope_destroy(dot);
    if (st != HD_OK) {
        memset(out, 0, sizeof *out);
        out->vertex = out->piece = -1;
    }
    return st;
}
