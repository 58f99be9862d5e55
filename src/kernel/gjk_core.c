/* The GJK iteration (Gilbert, Johnson, Keerthi 1988; Nascimento's GJK article) in the distance
 * form of van den Bergen, J. Graphics Tools 4(2), 1999: a simplex of points of M = A - B and v,
 * its point closest to the origin; each step adds w = S_M(-u), |v| bounds the distance from above
 * and u.w / |u| from below with a separating plane. The direction u is v, or a momentum
 * combination while the simplex has at most two points (Montaut et al., RSS 2022, section IV).
 * Bounds, stopping rules, momentum and tolerances: docs/algorithms/gjk.md, section 2. */
#include <float.h>
#include <stddef.h>

#include "kernel/gjk_core.h"
#include "kernel/simplex_robust.h"
#include "core/math.h"
#include "support/support.h"

static int valid_index(int i, int n)
{
    return i >= 0 && i < n;
}

static void add_point(const hdi_pair *pair, hdi_simplex *s, int ia, int ib)
{
    double pb[3];
    hdi_pair_b_vertex(pair, ib, pb);
    int k = s->count++;
    hdi_v3_sub(s->w[k], pair->a->verts + 3 * ia, pb);
    s->ia[k] = ia;
    s->ib[k] = ib;
}

static void add_support(hdi_simplex *s, int ia, int ib, const double w[3])
{
    int k = s->count++;
    hdi_v3_copy(s->w[k], w);
    s->ia[k] = ia;
    s->ib[k] = ib;
}

/* Records the lower bound u.w / |u| of the direction u of a step when it can matter: above the
 * best so far and not below -eps (a plane with gap below -eps certifies nothing). The comparison
 * with -eps is made on squares so that the common case of a deep overlap needs no square root. */
static void record_lower(hdi_gjk_state *st, const double u[3], const double w[3], double uu,
                         double uw, double eps, int ia, int ib)
{
    if (uw < 0.0 && uw * uw > eps * eps * uu) {
        return;
    }
    double n[3], lb;
    if (uu > HD_GJK_PLAIN_NORM2_MIN) {
        double ulen = sqrt(uu);
        lb = uw / ulen;
        hdi_v3_scale(n, u, 1.0 / ulen);
    } else {
        /* a tiny u (points near the origin at 1e-160): |u|^2 and u.w would be subnormal and lose
         * their digits, leaving a normal of length 0.997 in the certificate */
        hdi_v3_copy(n, u);
        if (!(hdi_v3_normalize(n) > 0.0)) {
            return;
        }
        lb = hdi_v3_dot(n, w);
    }
    if (lb > st->lower) {
        st->lower = lb;
        hdi_v3_copy(st->plane_n, n);
        st->plane_ia = ia;
        st->plane_ib = ib;
    }
}

/* Upper minus lower bound within max(HD_GJK_REL_TOL |v|, tol), i.e.
 * |v|^2 - v.w <= max(HD_GJK_REL_TOL |v|^2, tol |v|), compared without a square root. */
static int bounds_met(double vv, double vw, double tol)
{
    double gap = vv - vw;
    return gap <= HD_GJK_REL_TOL * vv || gap <= 0.0 || gap * gap <= tol * tol * vv;
}

void hdi_gjk_start(const hdi_pair *pair, const hd_cache *cache, hdi_gjk_state *st)
{
    int na = pair->a->vertex_count, nb = pair->b->vertex_count;
    st->simplex.count = 0;
    st->lower = -DBL_MAX;
    hdi_v3_set(st->plane_n, 1.0, 0.0, 0.0);
    st->plane_ia = 0;
    st->plane_ib = 0;
    st->start_a = 0;
    st->start_b = 0;
    st->iterations = 0;
    st->trace = NULL;
    st->end = HD_GJK_RUNNING;
    if (cache != NULL && cache->valid) {
        st->start_a = valid_index(cache->support_a, na) ? cache->support_a : 0;
        st->start_b = valid_index(cache->support_b, nb) ? cache->support_b : 0;
        int n = cache->simplex_count < 4 ? cache->simplex_count : 4;
        for (int j = 0; j < n; ++j) {
            int ia = cache->simplex_a[j], ib = cache->simplex_b[j];
            if (valid_index(ia, na) && valid_index(ib, nb) &&
                !hdi_simplex_has_pair(&st->simplex, ia, ib)) {
                add_point(pair, &st->simplex, ia, ib);
            }
        }
    }
    if (st->simplex.count > 0) {
        hdi_simplex_solve(&st->simplex, st->v);
        st->vv = hdi_v3_len2(st->v);
        return;
    }
    /* Cold start: search first along the line between the bounding-sphere centres. */
    double cb[3];
    hdi_m3_mul_v(cb, pair->r, pair->b->sphere_centre);
    hdi_v3_add(cb, cb, pair->t);
    hdi_v3_sub(st->v, pair->a->sphere_centre, cb);
    if (!(hdi_v3_len2(st->v) > 0.0)) {
        hdi_v3_set(st->v, 1.0, 0.0, 0.0);
    }
    st->vv = DBL_MAX;
}

/* Appends the current simplex to the recorded path (HD_QUERY_RECORD_PATH): its vertex pairs, its
 * nearest point to the origin as a world-frame difference, and the lower bound so far. */
static void record_step(const hdi_pair *pair, const hdi_gjk_state *st, int ia, int ib)
{
    hdi_gjk_trace *t = st->trace;
    if (t->count >= HD_GJK_PATH_MAX) {
        return;
    }
    hd_gjk_step *step = &t->steps[t->count++];
    const hdi_simplex *s = &st->simplex;
    step->support_a = ia;
    step->support_b = ib;
    step->count = s->count;
    for (int k = 0; k < 4; ++k) {
        step->vertex_a[k] = k < s->count ? s->ia[k] : -1;
        step->vertex_b[k] = k < s->count ? s->ib[k] : -1;
    }
    double zero[3] = {0.0, 0.0, 0.0};
    hdi_pair_dir_to_world(pair, s->count > 0 ? st->v : zero, step->closest);
    step->lower = st->lower > -DBL_MAX ? st->lower : -HUGE_VAL;
}

/* The momentum state of one run of hdi_gjk_iterate (gjk.md, section 2). */
typedef struct hdi_momentum {
    int on;    /* dropped for good after a failed momentum step */
    int steps; /* k */
    int have_prev;
    double u[3]; /* the last direction */
    double w_prev[3];
} hdi_momentum;

/* The direction u of the next step, v or, while the simplex has one or two points, the momentum
 *     y = delta v + (1 - delta) w_prev,   u = delta u_prev + (1 - delta) y,   delta = (k+1)/(k+3)
 * (unnormalized: docs/algorithms/gjk.md, "Momentum", says why). Returns 1 for a momentum step. */
static int step_direction(hdi_momentum *m, const hdi_gjk_state *st, double u[3])
{
    int use = m->on && m->have_prev && st->simplex.count > 0 && st->simplex.count < 3;
    if (use) {
        double delta = (m->steps + 1.0) / (m->steps + 3.0);
        for (int i = 0; i < 3; ++i) {
            double y = delta * st->v[i] + (1.0 - delta) * m->w_prev[i];
            m->u[i] = delta * m->u[i] + (1.0 - delta) * y;
        }
    } else {
        hdi_v3_copy(m->u, st->v);
    }
    m->steps++;
    hdi_v3_copy(u, m->u);
    return use;
}

/* Whether the solve of a simplex left out its point `added` (the one just appended). */
static int drops(const hdi_simplex_sub *sub, int added)
{
    for (int k = 0; k < sub->n; ++k) {
        if (sub->idx[k] == added) {
            return 0;
        }
    }
    return 1;
}

/* A step that did not decrease |v| (the new point is at s->count - 1 of the solved simplex): the
 * end it allows, or 0 to go on. Converged when the bounds are within HD_GJK_STALL_FACTOR
 * tolerances. Origin when the solve dropped the new point and |v| <= eps: every later step would
 * repeat this one, and the origin is within the touching band of conv(simplex), a part of M, so
 * the caller's classifier decides (a sliver simplex of a 1e-5 cube and a segment through it: the
 * origin 1.5e-14 off a triangle, each tetrahedron with the new point read as not holding it). */
static int stalled(const hdi_pair *pair, hdi_gjk_state *st, const hdi_simplex_sub *sub, double uw,
                   double tol)
{
    if (bounds_met(st->vv, uw, HD_GJK_STALL_FACTOR * tol)) {
        st->end = HD_GJK_CONVERGED;
        return 1;
    }
    if (drops(sub, st->simplex.count - 1) && st->vv <= pair->eps * pair->eps) {
        st->end = HD_GJK_ORIGIN;
        return 1;
    }
    return 0;
}

/* A step whose solve did not decrease |v| while the bounds say it must (rounding of a simplex
 * much thinner than its distance from the origin; the double loop may then cycle, |v| up and
 * down): the simplex, new point included, polished in double-double (hdi_gjk_polish). Ends
 * converged when the bounds met, origin when the origin is in the polished simplex or within the
 * band of it (the classifier decides); else st is restored and 0 returned, for the caller to go
 * on as before the polish (the iteration cap bounding it). */
static int polished(const hdi_pair *pair, hdi_gjk_state *st, hd_stats *stats)
{
    hdi_gjk_state before = *st;
    if (hdi_gjk_polish(pair, st, stats)) {
        st->end = HD_GJK_CONVERGED;
        return 1;
    }
    if (st->vv <= pair->eps * pair->eps) {
        st->end = HD_GJK_ORIGIN;
        return 1;
    }
    *st = before;
    return 0;
}

/* One iteration after the loop's entry checks: a support point w of M along -u, the lower bound
 * it proves, then the end tests or the simplex update. Returns 1 when the loop ends (st->end
 * set), 0 to go on; *ia, *ib receive the support pair. */
static int iterate_once(const hdi_pair *pair, double separation, double tol, hdi_gjk_state *st,
                        hdi_momentum *m, hd_stats *stats, int *ia, int *ib)
{
    hdi_simplex *s = &st->simplex;
    double u[3], d[3], w[3];
    int momentum = step_direction(m, st, u);
    hdi_v3_neg(d, u);
    hdi_pair_support_m_from(pair, d, &st->start_a, &st->start_b, s->ia, s->ib, s->count, ia, ib, w,
                            stats);
    double uu = hdi_v3_len2(u);
    double uw = hdi_v3_dot(u, w);
    record_lower(st, u, w, uu, uw, pair->eps, *ia, *ib);
    if (st->lower > separation) {
        st->end = HD_GJK_SEPARATED;
        return 1;
    }
    hdi_v3_copy(m->w_prev, w);
    m->have_prev = 1;
    /* w passed the origin by more than |v|: v is the direction from now on */
    if (s->count > 0 && uw < 0.0 && uw * uw > uu * st->vv) {
        m->on = 0;
    }
    if (!momentum && s->count > 0 &&
        (hdi_simplex_has_pair(s, *ia, *ib) || bounds_met(st->vv, uw, tol))) {
        st->end = HD_GJK_CONVERGED;
        return 1;
    }
    if (momentum && hdi_simplex_has_pair(s, *ia, *ib)) {
        m->on = 0;
        return 0;
    }
    /* the new point is appended and the answer applied only when it is kept: dropping the last
     * point restores the previous simplex, weights included */
    int previous = s->count;
    add_support(s, *ia, *ib, w);
    hdi_simplex_sub sub;
    hdi_simplex_solve_sub(s, &sub);
    double vv = sub.d2; /* |sub.v|^2, computed by the solver */
    if (momentum && !(vv < st->vv)) {
        s->count = previous; /* no progress: undo, and go on without momentum */
        m->on = 0;
        return 0;
    }
    if (previous > 0 && vv >= st->vv) {
        if (stalled(pair, st, &sub, uw, tol)) {
            s->count = previous; /* no progress: keep the previous simplex */
            return 1;
        }
        if (polished(pair, st, stats)) {
            return 1;
        }
    }
    /* otherwise rounding hid a decrease that the bounds say must exist: go on from the new
     * simplex (the iteration cap bounds this) */
    hdi_simplex_commit(s, &sub);
    hdi_v3_copy(st->v, sub.v);
    st->vv = vv;
    return 0;
}

/* Stops, in order: enclosed (a tetrahedron), origin (|v| at rounding level), separated (lower bound
 * above separation), converged (w already in the simplex, or the bounds within tolerance), stall
 * (no decrease with the bounds within HD_GJK_STALL_FACTOR tolerances), origin again (a step that
 * would repeat itself, |v| within the touching band: docs/algorithms/gjk.md section 2). Rules are
 * taken on plain steps only; a momentum step kept always lowers |v|, so termination is that of
 * plain GJK. */
hd_status hdi_gjk_iterate(const hdi_pair *pair, double separation, hdi_gjk_state *st,
                          hd_stats *stats)
{
    const double tol = HD_GJK_ABS_TOL * pair->scale;
    hdi_momentum m = {1, 0, 0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    for (;;) {
        if (st->simplex.count == 4) {
            st->end = HD_GJK_ENCLOSED;
            return HD_OK;
        }
        if (st->simplex.count > 0 && st->vv <= tol * tol) {
            st->end = HD_GJK_ORIGIN;
            return HD_OK;
        }
        if (st->iterations >= pair->max_iterations) {
            return HD_ERR_ITERATION_LIMIT;
        }
        st->iterations++;
        int ia, ib;
        int done = iterate_once(pair, separation, tol, st, &m, stats, &ia, &ib);
        if (st->trace != NULL) {
            record_step(pair, st, ia, ib);
        }
        if (done) {
            return HD_OK;
        }
    }
}

/* The points of s with a positive weight in l, in order, with those weights. */
static void keep_weighted(hdi_simplex *s, const double l[4])
{
    int n = 0;
    for (int j = 0; j < s->count; ++j) {
        if (l[j] > 0.0) {
            hdi_v3_copy(s->w[n], s->w[j]);
            s->ia[n] = s->ia[j];
            s->ib[n] = s->ib[j];
            s->lambda[n] = l[j];
            n++;
        }
    }
    s->count = n;
}

/* st's simplex solved in double-double: its nearest point to st->v, the points it leaves out
 * dropped; 0 when the solve fails or v is 0 (nothing left to polish: the origin lies in the
 * simplex, strictly inside a tetrahedron when all four points are kept). */
static int solve_precise(const hdi_pair *pair, hdi_gjk_state *st)
{
    hdi_simplex *s = &st->simplex;
    double a[4][3], b[4][3], v[3], l[4];
    hdi_pair_vertices(pair, s->ia, s->ib, s->count, a, b);
    if (!hdi_simplex_nearest_precise((const double(*)[3])a, (const double(*)[3])b, s->count, v,
                                     l)) {
        return 0;
    }
    keep_weighted(s, l);
    hdi_v3_copy(st->v, v);
    st->vv = hdi_v3_len2(v);
    return st->vv > 0.0 && s->count > 0;
}

int hdi_gjk_bounds_agree(const hdi_pair *pair, double d, double lower)
{
    double tol = hdi_max(HD_GJK_REL_TOL * d, HD_GJK_ABS_TOL * pair->scale);
    return d - lower <=
           HD_GJK_STALL_FACTOR * tol + HD_CONTACT_ROUNDING_UNITS * DBL_EPSILON * pair->scale;
}

/* The smallest height of the triangle p q r: twice its area over its longest edge (0 when
 * degenerate). */
static double triangle_height(const double p[3], const double q[3], const double r[3])
{
    double e[3], f[3], n[3];
    hdi_v3_sub(e, q, p);
    hdi_v3_sub(f, r, p);
    hdi_v3_cross(n, e, f);
    double longest = hdi_max(hdi_v3_len(e), hdi_max(hdi_v3_len(f), hdi_v3_dist(q, r)));
    return longest > 0.0 ? hdi_v3_len(n) / longest : 0.0;
}

/* The width that rounding of simplex s is measured against: its edge for a segment, else the
 * smallest height of its triangles (a face's normal, formed from edges rounded to DBL_EPSILON
 * max|w|, turns by about DBL_EPSILON max|w| / height; a tetrahedron that is flat but made of wide
 * faces is solved as accurately as its faces). */
static double simplex_width(const hdi_simplex *s)
{
    const double(*w)[3] = (const double(*)[3])s->w;
    if (s->count == 2) {
        return hdi_v3_dist(w[0], w[1]);
    }
    double width = triangle_height(w[0], w[1], w[2]);
    if (s->count == 4) {
        width = hdi_min(width, hdi_min(triangle_height(w[0], w[1], w[3]),
                                       hdi_min(triangle_height(w[0], w[2], w[3]),
                                               triangle_height(w[1], w[2], w[3]))));
    }
    return width;
}

int hdi_simplex_is_needle(const hdi_pair *pair, const hdi_simplex *s)
{
    if (s->count < 2) {
        return 0;
    }
    double big = 0.0;
    for (int j = 0; j < s->count; ++j) {
        big = hdi_max(big, hdi_v3_max_abs(s->w[j]));
    }
    return !(HD_NEEDLE_ROUNDING_UNITS * DBL_EPSILON * big * big <=
             0.125 * pair->eps * simplex_width(s));
}

int hdi_gjk_polish(const hdi_pair *pair, hdi_gjk_state *st, hd_stats *stats)
{
    /* the precise solve can close the bounds to the rounding the classifier asks for
     * (HD_CONTACT_ROUNDING_UNITS: a pair 1.02 eps apart, 1e3 from the origin, stopped 2.2e-11
     * apart, within GJK's tolerance but across the band edge); where no further point improves
     * them, GJK's own stopping tolerance is enough, as before */
    const double loose = HD_GJK_STALL_FACTOR * HD_GJK_ABS_TOL * pair->scale;
    const double tight = HD_CONTACT_ROUNDING_UNITS * DBL_EPSILON * pair->scale;
    hdi_simplex *s = &st->simplex;
    if (!solve_precise(pair, st)) {
        return 0;
    }
    int met = 0;
    for (int step = 0; step < HD_GJK_POLISH_STEPS; ++step) {
        double d[3], w[3];
        int ia, ib;
        hdi_v3_neg(d, st->v);
        hdi_pair_support_m(pair, d, &st->start_a, &st->start_b, &ia, &ib, w, stats);
        double uw = hdi_v3_dot(st->v, w);
        record_lower(st, st->v, w, st->vv, uw, pair->eps, ia, ib);
        if (bounds_met(st->vv, uw, tight)) {
            return 1;
        }
        met = bounds_met(st->vv, uw, loose);
        if (hdi_simplex_has_pair(s, ia, ib)) {
            return met;
        }
        add_support(s, ia, ib, w);
        if (!solve_precise(pair, st)) {
            return 0; /* the solve failed, or the origin lies in the simplex */
        }
        if (!hdi_simplex_has_pair(s, ia, ib)) {
            return met; /* the solve leaves the new point out again: no progress to be had */
        }
    }
    return met;
}

void hdi_gjk_save(const hdi_gjk_state *st, hd_cache *cache)
{
    if (cache == NULL) {
        return;
    }
    cache->valid = true;
    cache->simplex_count = st->simplex.count;
    for (int j = 0; j < st->simplex.count; ++j) {
        cache->simplex_a[j] = st->simplex.ia[j];
        cache->simplex_b[j] = st->simplex.ib[j];
    }
    cache->support_a = st->start_a;
    cache->support_b = st->start_b;
    /* the best plane's normal from A towards B, the next query's first guess (gjk/warm.c) */
    double keep = st->lower > -DBL_MAX ? -1.0 : 0.0;
    hdi_v3_scale(cache->axis, st->plane_n, keep);
}

/* With n = plane_n (from B towards A), the normal from A towards B is c = -n; the support pair
 * realises max_A c.a = c.a* and min_B c.b = c.b*, so gap = c.b* - c.a* and the plane sits
 * half-way. */
void hdi_support_plane(const hdi_pair *pair, const double plane_n[3], int ia, int ib,
                       hd_certificate *cert)
{
    double c[3], pb[3];
    hdi_v3_neg(c, plane_n);
    hdi_pair_b_vertex(pair, ib, pb);
    double ha = hdi_v3_dot(c, pair->a->verts + 3 * ia);
    double hb = hdi_v3_dot(c, pb);
    cert->has_plane = true;
    hdi_v3_copy(cert->normal, c);
    cert->gap = hb - ha;
    cert->offset = 0.5 * (ha + hb);
}

void hdi_gjk_plane(const hdi_pair *pair, const hdi_gjk_state *st, hd_certificate *cert)
{
    hdi_support_plane(pair, st->plane_n, st->plane_ia, st->plane_ib, cert);
}

void hdi_certificate_point_pair(const hdi_pair *pair, const hd_certificate *cert, double on_a[3],
                                double on_b[3])
{
    double v[3];
    hdi_v3_set(on_a, 0.0, 0.0, 0.0);
    hdi_v3_set(on_b, 0.0, 0.0, 0.0);
    for (int k = 0; k < cert->on_a.count; ++k) {
        hdi_v3_madd(on_a, on_a, cert->on_a.weight[k], pair->a->verts + 3 * cert->on_a.index[k]);
    }
    for (int k = 0; k < cert->on_b.count; ++k) {
        hdi_pair_b_vertex(pair, cert->on_b.index[k], v);
        hdi_v3_madd(on_b, on_b, cert->on_b.weight[k], v);
    }
}

/* The point certificate of s with its own weights. */
static void point_from_weights(const hdi_pair *pair, const hdi_simplex *s, hd_certificate *cert)
{
    hdi_v3_set(cert->point, 0.0, 0.0, 0.0);
    for (int j = 0; j < s->count; ++j) {
        hdi_v3_madd(cert->point, cert->point, s->lambda[j], pair->a->verts + 3 * s->ia[j]);
    }
    hdi_simplex_combinations(s, &cert->on_a, &cert->on_b);
    cert->has_point = true;
}

int hdi_gjk_point_precise(const hdi_pair *pair, const hdi_simplex *s, hd_certificate *cert)
{
    hdi_simplex precise = *s; /* the same points, their weights solved again */
    double a[4][3], b[4][3], v[3];
    hdi_pair_vertices(pair, s->ia, s->ib, s->count, a, b);
    if (!hdi_simplex_nearest_precise((const double(*)[3])a, (const double(*)[3])b, s->count, v,
                                     precise.lambda)) {
        return 0;
    }
    point_from_weights(pair, &precise, cert);
    return 1;
}

/* The point on A of the simplex's weights, sum l_j a_j (B's side is not needed: the certificate
 * names it by its combination). A tetrahedron's weights are refined first unless the residual
 * sum l_j w_j is already far inside the band (the usual case; flat tetrahedra need it). */
void hdi_gjk_point(const hdi_pair *pair, const hdi_simplex *s, hd_certificate *cert)
{
    hdi_simplex polished;
    if (s->count == 4) {
        double r[3] = {0.0, 0.0, 0.0};
        for (int j = 0; j < 4; ++j) {
            hdi_v3_madd(r, r, s->lambda[j], s->w[j]);
        }
        if (!(hdi_v3_max_abs(r) <= 0.125 * pair->eps)) {
            polished = *s;
            hdi_simplex_polish(&polished);
            s = &polished;
        }
    }
    point_from_weights(pair, s, cert);
}
