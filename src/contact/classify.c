/* The shared contact classifier: places the signed distance delta of a pair against the touching
 * band [-eps, eps] when an algorithm's own evidence could not (core.h, query.h). Distance side:
 * GJK's bounds L <= dist <= U (L > eps separated; U <= eps with a plane of gap >= -eps touching).
 * Depth side, when the origin may be deep in M: the expanding polytope's depth bounds. A flat M
 * has depth 0. docs/algorithms/gjk.md, section 5. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "contact/classify.h"
#include "contact/signed_distance.h"
#include "kernel/epa.h"
#include "core/math.h"
#include "core/tolerances.h"

/* The rounding of support values and of a sub-simplex solution, HD_CONTACT_ROUNDING_UNITS units
 * of the pair's scale: bounds that close to the band edge are on it. */
static double rounding_slack(const hdi_pair *pair)
{
    return HD_CONTACT_ROUNDING_UNITS * DBL_EPSILON * pair->scale;
}

/* Whether the certificate's two convex combinations (A's frame) are within eps of each other, as
 * hd_certificate_check will require. The barycentric weights of a very elongated simplex (points
 * many orders of magnitude apart) can lose that accuracy even when the distance bounds hold. */
static double point_pair_gap(const hdi_pair *pair, const hd_certificate *cert)
{
    double pa[3], pb[3];
    hdi_certificate_point_pair(pair, cert, pa, pb);
    return hdi_v3_dist(pa, pb);
}

static int point_pair_ok(const hdi_pair *pair, const hd_certificate *cert)
{
    return point_pair_gap(pair, cert) <= pair->eps + rounding_slack(pair);
}

static void set_separated(const hdi_pair *pair, const hdi_gjk_state *st, hd_collide_result *out)
{
    out->verdict = HD_SEPARATED;
    hdi_gjk_plane(pair, st, &out->cert);
}

/* Touching from GJK alone: its plane (gap L >= -eps) and its point pair (|v| <= eps). */
static void set_touching_gjk(const hdi_pair *pair, const hdi_gjk_state *st, hd_collide_result *out)
{
    out->verdict = HD_TOUCHING;
    hdi_gjk_plane(pair, st, &out->cert);
    hdi_gjk_point(pair, &st->simplex, &out->cert);
}

/* The plane normal to n (unit, A towards B) through the support pair ia, ib: gap = -h_M(n). */
static void set_plane(const hdi_pair *pair, const double n[3], int ia, int ib, hd_certificate *cert)
{
    double pb[3];
    hdi_pair_b_vertex(pair, ib, pb);
    double ha = hdi_v3_dot(n, pair->a->verts + 3 * ia);
    double hb = hdi_v3_dot(n, pb);
    cert->has_plane = true;
    hdi_v3_copy(cert->normal, n);
    cert->gap = hb - ha;
    cert->offset = 0.5 * (ha + hb);
}

/* The common point of simplex s as the certificate, its point pair closer than `bound`; the
 * weights solved again in double-double when the double ones miss (hdi_gjk_point_precise): a
 * needle's, or those of a tetrahedron of wide faces but almost no volume (0.28 long, its other
 * sides 3e-9: the double weights, ratios of volumes rounded by 2^-53 |w|^3, put the point pair
 * 4.9e-4 apart at eps = 6.8e-8, the precise ones 7e-12). */
static int common_point_within(const hdi_pair *pair, const hdi_simplex *s, double bound,
                               hd_certificate *cert)
{
    hdi_gjk_point(pair, s, cert);
    if (point_pair_gap(pair, cert) < bound) {
        return 1;
    }
    return hdi_gjk_point_precise(pair, s, cert) && point_pair_gap(pair, cert) < bound;
}

/* The expanding polytope stopped with its bounds on both sides of the band edge and far apart:
 * it could not be built or expanded (M a needle about as wide as the band around GJK's segment
 * through the origin: a shape of side 1e-9 against one 6 long, 1e3 from the world origin). The
 * separating-axis method's least facet of M (contact/sat.c) then places the pair: its plane,
 * gap = -h_M(n), proves touching when |h| <= eps (clamped to the band edge within rounding, as
 * below), with GJK's point pair. A least facet deeper than the band proves no overlap without a
 * common point, which nothing here has, and one beyond -eps would contradict GJK's |v| <= eps:
 * no verdict is guessed in either case. */
static hd_status least_facet_side(const hdi_pair *pair, hdi_gjk_state *st, hd_collide_result *out)
{
    double slack = rounding_slack(pair);
    hdi_mface f;
    if (!hdi_sat_min_facet(pair, &out->stats, &f) || f.h > pair->eps + slack) {
        return HD_ERR_ITERATION_LIMIT;
    }
    set_plane(pair, f.n, f.sa, f.sb, &out->cert);
    if (out->cert.gap > pair->eps) {
        return HD_ERR_ITERATION_LIMIT;
    }
    out->verdict = HD_TOUCHING;
    out->cert.gap = hdi_max(out->cert.gap, -pair->eps);
    hdi_gjk_point(pair, &st->simplex, &out->cert);
    return HD_OK;
}

/* The origin may be deep in M (U <= eps, L < -eps): EPA's lower bound on the depth (> eps:
 * intersecting, with a common point) or a direction n with h_M(n) <= eps, a plane with gap >= -eps
 * (touching). Bounds ending within rounding of the band edge report the nearer side. */
static hd_status depth_side(const hdi_pair *pair, hdi_gjk_state *st, hd_collide_result *out)
{
    hdi_epa_result r;
    hd_status status = hdi_epa_depth(pair, &st->simplex, &st->start_a, &st->start_b,
                                     pair->max_iterations, &out->stats, &r);
    out->stats.refine_steps += r.steps;
    if (status != HD_OK) {
        return status;
    }
    double slack = rounding_slack(pair);
    if (r.outcome == HD_EPA_DEEP || r.lower > pair->eps) {
        out->verdict = HD_INTERSECTING;
        out->cert.depth_bound = r.lower;
        /* r.lower bounds the distance from the origin to the inner polytope's surface whatever
         * rounding did to its normals; that the origin is inside rather than outside is proven
         * by the common point: its weights are on vertices of that polytope, so it is a point
         * of the polytope, and it lies within less than r.lower of the origin */
        if (!common_point_within(pair, r.inner.count == 4 ? &r.inner : &st->simplex, r.lower,
                                 &out->cert)) {
            return HD_ERR_ITERATION_LIMIT;
        }
    } else if (r.outcome == HD_EPA_SHALLOW || r.upper <= pair->eps + slack) {
        out->verdict = HD_TOUCHING;
        set_plane(pair, r.normal, r.upper_ia, r.upper_ib, &out->cert);
        /* an overlap beyond eps by less than the rounding of the support values is read as on
         * the band edge: the plane's claim is clamped to the band, which it meets to within
         * that rounding (hd_certificate_check allows the same slack) */
        if (out->cert.gap < -pair->eps) {
            out->cert.gap = -pair->eps;
        }
        hdi_gjk_point(pair, &st->simplex, &out->cert);
    } else {
        return least_facet_side(pair, st, out);
    }
    return HD_OK;
}

static void fill_distance(const hdi_pair *pair, const hdi_gjk_state *st,
                          const hd_collide_result *out, hdi_closest *closest)
{
    if (out->verdict == HD_SEPARATED) {
        closest->distance = sqrt(st->vv);
        hdi_simplex_witnesses(&st->simplex, pair, closest->witness_a, closest->witness_b);
    } else if (out->verdict == HD_TOUCHING) {
        closest->distance = 0.0;
        hdi_simplex_witnesses(&st->simplex, pair, closest->witness_a, closest->witness_b);
    } else {
        closest->distance = 0.0;
        hdi_v3_copy(closest->witness_a, out->cert.point);
        hdi_v3_copy(closest->witness_b, out->cert.point);
    }
}

/* A state polished in double-double (hdi_gjk_polish); kept when the polish brings its bounds
 * together or finds a tetrahedron holding the origin in its precise solve (a needle enclosure of
 * GJK's double solve that misses the origin in exact arithmetic gave way, in the polish, to one
 * that holds it: the expanding polytope starts from that one), else GJK's stands. */
static void keep_polished(const hdi_pair *pair, hdi_gjk_state *st, hd_stats *stats)
{
    hdi_gjk_state polished = *st;
    if (hdi_gjk_polish(pair, &polished, stats)) {
        polished.end = HD_GJK_CONVERGED;
        *st = polished;
    } else if (polished.vv == 0.0 && polished.simplex.count == 4) {
        polished.end = HD_GJK_ENCLOSED; /* the precise solve holds the origin strictly inside */
        *st = polished;
    }
}

/* GJK's enclosing tetrahedron (or the origin on its simplex, or |v| inside the band) solved
 * again in double-double (hdi_gjk_polish): the double solve of a needle simplex can place the
 * origin inside or within the band when it lies outside by far more than the band (a cube of
 * side 2e-9 and a segment of 0.27, 136 eps apart, in tests/test_signed_distance.c's family; a
 * tetrahedron 6 long and 3e-9 wide, 120 eps away), or inside when the pair touches (a square of
 * side 2e-9 and a segment of 17, 6e-12 apart at eps = 8e-12: the expanding polytope then failed
 * on the needle). When the polish brings its bounds together or finds a tetrahedron holding the
 * origin, the polished state replaces GJK's; otherwise GJK's stands. */
static void recheck_enclosure(const hdi_pair *pair, hdi_gjk_state *st, hd_stats *stats)
{
    if (!hdi_simplex_is_needle(pair, &st->simplex)) {
        return; /* the double solve is right to the band: nothing to recheck (touching pairs) */
    }
    keep_polished(pair, st, stats);
}

/* Whether GJK's bounds, its upper above the band, leave the verdict open: the lower bound below
 * the band, or within it but farther than rounding from the upper (kernel/gjk_core.c's stops
 * leave them within a few tolerances, except on a needle simplex, whose double solve loses the
 * digits of its short edges). */
static int bounds_apart(const hdi_pair *pair, double upper, double lower)
{
    return lower <= pair->eps && (lower < -pair->eps || upper - lower > rounding_slack(pair));
}

hd_status hdi_contact_refine(const hdi_pair *pair, hdi_gjk_state *st, hdi_closest *closest,
                             hd_collide_result *out)
{
    const double eps = pair->eps;
    int iterations = st->iterations;
    hd_status status = HD_OK;
    memset(&out->cert, 0, sizeof out->cert); /* callers may have left partial evidence there */
    if (st->end == HD_GJK_RUNNING || (st->end == HD_GJK_SEPARATED && closest != NULL)) {
        st->end = HD_GJK_RUNNING;
        status = hdi_gjk_iterate(pair, closest != NULL ? DBL_MAX : eps, st, &out->stats);
    }
    out->stats.refine_steps += st->iterations - iterations;
    if (status != HD_OK) {
        return status;
    }
    if (st->end == HD_GJK_ENCLOSED || st->end == HD_GJK_ORIGIN || st->vv <= eps * eps) {
        recheck_enclosure(pair, st, &out->stats);
    }
    double upper = st->end == HD_GJK_ENCLOSED ? 0.0 : sqrt(st->vv);
    if (upper > eps && bounds_apart(pair, upper, st->lower)) {
        keep_polished(pair, st, &out->stats);
        upper = sqrt(st->vv);
    }
    if (st->lower > eps) {
        set_separated(pair, st, out);
    } else if (upper <= eps && st->lower >= -eps) {
        set_touching_gjk(pair, st, out);
    } else if (upper <= eps) {
        status = depth_side(pair, st, out);
    } else if (bounds_apart(pair, upper, st->lower)) {
        /* GJK's stops with upper > eps leave the bounds within a few tolerances
         * (kernel/gjk_core.c), a needle's after the polish above; where even that failed (a
         * stall on badly conditioned input, e.g. coordinates spanning many orders of
         * magnitude) no verdict is proven, and none is guessed */
        status = HD_ERR_ITERATION_LIMIT;
    } else if (0.5 * (upper + st->lower) > eps) {
        set_separated(pair, st, out); /* both bounds within rounding of eps */
    } else {
        set_touching_gjk(pair, st, out);
    }
    if (status != HD_OK) {
        return status;
    }
    if (out->verdict == HD_TOUCHING && !point_pair_ok(pair, &out->cert)) {
        /* the double weights missed: solved again in double-double (common_point_within) */
        hdi_gjk_point_precise(pair, &st->simplex, &out->cert);
    }
    if (out->verdict != HD_SEPARATED && !point_pair_ok(pair, &out->cert)) {
        return HD_ERR_ITERATION_LIMIT; /* no common point proven to the band: no answer */
    }
    out->stop = HD_STOP_REFINED;
    if (closest != NULL) {
        fill_distance(pair, st, out, closest);
    }
    return HD_OK;
}

hd_status hdi_contact_classify(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out)
{
    if (pair == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    hdi_gjk_state st;
    hdi_gjk_start(pair, opt != NULL ? opt->cache : NULL, &st);
    return hdi_contact_refine(pair, &st, NULL, out);
}

hd_status hdi_contact_confirm(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out)
{
    if (pair == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    if (out->verdict == HD_SEPARATED || (out->cert.has_point && point_pair_ok(pair, &out->cert))) {
        return HD_OK;
    }
    return hdi_contact_classify(pair, opt, out); /* its work is added to out->stats */
}
