/* The warm fast paths of the boolean GJK query (docs/algorithms/gjk.md, section 11): a
 * frame-coherent pair is usually decided by last frame's evidence, proven again at the new pose.
 * - plane: c, the cached axis (unit, from A towards B). For every unit c,
 *   dist(A, B) >= min_B c.b - max_A c.a (the plane c.x = const between them), so a scan of each
 *   solid along c gives a separating plane; kept only beyond the band by HD_WARM_MARGIN_UNITS.
 * - tetrahedron: the cached four support pairs, posed again, whose signed volumes all agree hold
 *   the origin; hdi_simplex_inner_depth proves the depth and the weights give the common point,
 *   exactly as GJK's enclosed end (gjk/gjk.c, decide).
 * Both answers carry the certificate GJK's would; anything else falls through to GJK. */
#include <math.h>

#include "gjk/gjk.h"
#include "core/math.h"
#include "core/tolerances.h"

static int valid_index(int i, int n)
{
    return i >= 0 && i < n;
}

/* The cached axis as a separating plane beyond the band; 1 when it is one (out answered,
 * the cache's simplex set to the plane's support pair). */
static int warm_plane(const hdi_pair *pair, hd_cache *cache, hd_collide_result *out)
{
    const double *c = cache->axis;
    double cc = hdi_v3_len2(c);
    if (!(fabs(cc - 1.0) <= HD_WARM_AXIS_UNIT_TOL)) {
        return 0; /* no axis (zero), or not a unit vector: nothing to try */
    }
    int start_a = valid_index(cache->support_a, pair->a->vertex_count) ? cache->support_a : 0;
    int start_b = valid_index(cache->support_b, pair->b->vertex_count) ? cache->support_b : 0;
    int ia, ib;
    double w[3];
    /* A's support along c and B's along -c: w = a - b minimises -c.x over M, and the plane's
     * gap c.b - c.a is -c.w (as hdi_support_plane's, to a few units) */
    hdi_pair_support_m_from(pair, c, &start_a, &start_b, NULL, NULL, 0, &ia, &ib, w, &out->stats);
    out->stats.iterations++;
    cache->support_a = ia;
    cache->support_b = ib;
    double gap = -hdi_v3_dot(c, w);
    if (!(gap > pair->eps + HD_WARM_MARGIN_UNITS * DBL_EPSILON * pair->scale)) {
        return 0;
    }
    double ha = hdi_v3_dot(c, pair->a->verts + 3 * ia);
    out->verdict = HD_SEPARATED;
    out->cert.has_plane = true;
    hdi_v3_copy(out->cert.normal, c);
    out->cert.gap = gap;
    out->cert.offset = ha + 0.5 * gap;
    cache->simplex_count = 1;
    cache->simplex_a[0] = ia;
    cache->simplex_b[0] = ib;
    return 1;
}

/* The cached tetrahedron, posed again, as an intersection proof; 1 when it is one. */
static int warm_tetra(const hdi_pair *pair, const hd_cache *cache, hd_collide_result *out)
{
    if (cache->simplex_count != 4) {
        return 0;
    }
    hdi_simplex t;
    t.count = 4;
    for (int j = 0; j < 4; ++j) {
        t.ia[j] = cache->simplex_a[j];
        t.ib[j] = cache->simplex_b[j];
        if (!valid_index(t.ia[j], pair->a->vertex_count) ||
            !valid_index(t.ib[j], pair->b->vertex_count)) {
            return 0;
        }
        double pb[3];
        hdi_pair_b_vertex(pair, t.ib[j], pb);
        hdi_v3_sub(t.w[j], pair->a->verts + 3 * t.ia[j], pb);
    }
    double det = hdi_tetra_signed_weights(t.w[0], t.w[1], t.w[2], t.w[3], t.lambda);
    int inside = det != 0.0;
    for (int j = 0; j < 4; ++j) {
        inside &= t.lambda[j] > 0.0; /* a repeated pair makes the tetrahedron flat: det 0 */
    }
    if (!inside) {
        return 0;
    }
    double depth = hdi_simplex_inner_depth(&t);
    if (!(depth > pair->eps)) {
        return 0;
    }
    out->verdict = HD_INTERSECTING;
    hdi_gjk_point(pair, &t, &out->cert);
    out->cert.depth_bound = depth;
    return 1;
}

int hdi_gjk_warm_collide(const hdi_pair *pair, hd_cache *cache, hd_collide_result *out)
{
    if (cache == NULL || !cache->valid) {
        return 0;
    }
    /* the last answer's kind first: a tetrahedron when it was an overlap */
    if (cache->simplex_count == 4) {
        return warm_tetra(pair, cache, out) || warm_plane(pair, cache, out);
    }
    return warm_plane(pair, cache, out);
}
