/* Directional gap, CD-Dual section 6: how far must B travel along +-s (A fixed) to touch A, or,
 * when they overlap, to separate?
 *
 * B moved by tau s meets A iff tau s lies in M = A - B. The line {tau s} meets M in an interval
 * [tau_lo, tau_hi] (or not at all: the sweep never touches A), and
 *   - separated pair (0 outside M): the interval lies on one side of 0; the travel to first
 *     contact is tau_lo along +s when tau_lo > 0, or -tau_hi along -s when tau_hi < 0;
 *   - overlapping pair (0 inside M): tau_hi along +s or -tau_lo along -s separates; the nearer
 *     way out is reported.
 *
 * Separated pairs, as in the paper: find a point c = k s of M on the line (k != 0) by projecting
 * A and B along s onto a plane H normal to s: the line meets M iff the origin lies in the
 * projection of M, which is the Minkowski difference of the projections of A and B, and the
 * barycentric coordinates (u, v, w) of the origin in a triangle of projected vertex differences
 * r_i = p_i - q_i lift to c = u r_0 + v r_j + w r_j+1, a point of M that projects to the origin,
 * i.e. lies on the line. The paper builds the two projected hulls from the silhouettes and
 * scans a fan of the difference's triangles; here the projected hulls are used through their
 * support functions (the projection of A's support in a direction of H is the support of the
 * projection), and the triangle of M's projection that contains the origin is found by a planar
 * simplex search over those supports (GJK in the plane): the same triangle and lift, without
 * scanning every vertex or any scratch arrays. Then CD-Dual is run from c along the line towards
 * the origin, without the early exit (the search must reach f_opt even though a face with
 * positive signed distance is met first), and the travel follows from d(f_opt):
 *
 *   The ray c + t r, r = o - c, |r| = L, meets f_opt's plane at t* = 1 / psi*, and the travel is
 *   g = |x - o| = (1 - t*) L with x = c + t* r. With d = d(f_opt) = (psi* - 1) / L (Eq. (1)),
 *   psi* = d L + 1 and
 *       g = L (1 - 1 / (d L + 1)) = d L^2 / (d L + 1),
 *   the paper's g = d (a^2 + b^2 + c^2) / (d sqrt(a^2 + b^2 + c^2) + 1) with (a, b, c) = o - c,
 *   which it derives as g = g_bar / cos(theta) (g_bar the distance from o to the plane, theta
 *   the angle between the line and the plane's normal): the same number.
 *
 * The point c may lie on M's boundary (the lifted triangle may lie on a face of M): the search
 * then uses the limit of psi from inside M (clamp), which is +inf for a face through c that the
 * ray leaves at once.
 *
 * Overlapping pairs: the paper's ray from c = k s through o gives the exit on one side only.
 * Since o itself is then an interior point of M (depth > eps), the search is run from c = o along
 * +s and along -s, which gives tau_hi and tau_lo directly (psi = n.r / h, t* = 1 / psi*).
 * Touching pairs (|delta| <= eps): the same from o, with the clamp (o may lie on the boundary or
 * just outside): the travel along the nearer way out, 0 when B can leave at once.
 *
 * Lower dimensions: the ray searches need M to have an interior, which holds when A or B is a
 * solid; when neither is, hd_cddual_gap returns HD_ERR_UNSUPPORTED. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "algos.h"
#include "cddual_internal.h"
#include "hd_math.h"

double hd_cddual_gap_from_dual(double d, double length)
{
    if (d == HUGE_VAL) {
        return length;
    }
    return d * length * length / (d * length + 1.0);
}

/* ---- the planar simplex search for a point of M on the line {tau s} ---- */

typedef struct hd_simplex2 {
    int n;
    double p[3][2];   /* projected points of M */
    double w[3][3];   /* the points of M themselves */
    double lambda[3]; /* barycentric weights of the point of the simplex nearest the origin */
} hd_simplex2;

static double cross2(const double a[2], const double b[2], const double c[2])
{
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

static void keep(hd_simplex2 *s, int i, int j)
{
    double p[2][2], w[2][3];
    int idx[2] = {i, j};
    int n = j < 0 ? 1 : 2;
    for (int k = 0; k < n; ++k) {
        p[k][0] = s->p[idx[k]][0];
        p[k][1] = s->p[idx[k]][1];
        hd_v3_copy(w[k], s->w[idx[k]]);
    }
    for (int k = 0; k < n; ++k) {
        s->p[k][0] = p[k][0];
        s->p[k][1] = p[k][1];
        hd_v3_copy(s->w[k], w[k]);
    }
    s->n = n;
}

/* Nearest point of segment s->p[0] s->p[1] to the origin; reduces to a vertex when it is one. */
static void nearest_segment(hd_simplex2 *s)
{
    double d[2] = {s->p[1][0] - s->p[0][0], s->p[1][1] - s->p[0][1]};
    double dd = d[0] * d[0] + d[1] * d[1];
    double t = dd > 0.0 ? -(s->p[0][0] * d[0] + s->p[0][1] * d[1]) / dd : 0.0;
    if (t <= 0.0) {
        keep(s, 0, -1);
        s->lambda[0] = 1.0;
    } else if (t >= 1.0) {
        keep(s, 1, -1);
        s->lambda[0] = 1.0;
    } else {
        s->lambda[0] = 1.0 - t;
        s->lambda[1] = t;
    }
}

/* Triangle: 1 when the origin lies in it (closed), with its barycentric weights; else the
 * simplex is reduced to the nearest edge's sub-simplex. */
static int nearest_triangle(hd_simplex2 *s)
{
    static const double o[2] = {0.0, 0.0};
    double area = cross2(s->p[0], s->p[1], s->p[2]);
    double a0 = cross2(o, s->p[1], s->p[2]);
    double a1 = cross2(s->p[0], o, s->p[2]);
    double a2 = cross2(s->p[0], s->p[1], o);
    if (area != 0.0 && a0 * area >= 0.0 && a1 * area >= 0.0 && a2 * area >= 0.0) {
        s->lambda[0] = a0 / area;
        s->lambda[1] = a1 / area;
        s->lambda[2] = a2 / area;
        return 1;
    }
    /* the nearest point is on one of the edges: try each and keep the nearest */
    hd_simplex2 best = *s;
    double best_d = HUGE_VAL;
    static const int pairs[3][2] = {{0, 1}, {1, 2}, {0, 2}};
    for (int k = 0; k < 3; ++k) {
        hd_simplex2 t = *s;
        keep(&t, pairs[k][0], pairs[k][1]);
        nearest_segment(&t);
        double v[2] = {0.0, 0.0};
        for (int i = 0; i < t.n; ++i) {
            v[0] += t.lambda[i] * t.p[i][0];
            v[1] += t.lambda[i] * t.p[i][1];
        }
        double d = v[0] * v[0] + v[1] * v[1];
        if (d < best_d) {
            best_d = d;
            best = t;
        }
    }
    *s = best;
    return 0;
}

/* Searches the projection of M for the origin. found = 1 and c (a point of M within eps of the
 * line, on it up to rounding when the origin is inside) when the line meets M within eps;
 * found = 0 when a line of H separates the origin from the projection by more than eps. */
static hd_status line_point(const hd_pair *pair, const double s[3], hd_stats *stats, double c[3],
                            int *found)
{
    double e1[3], e2[3];
    double axis[3] = {1.0, 0.0, 0.0};
    if (fabs(s[0]) > 0.6) {
        hd_v3_set(axis, 0.0, 1.0, 0.0);
    }
    hd_v3_cross(e1, s, axis);
    hd_v3_normalize(e1);
    hd_v3_cross(e2, s, e1);
    int start_a = 0, start_b = 0, ia, ib;
    hd_simplex2 sx;
    sx.n = 0;
    double v[2] = {1.0, 0.0};
    double eps = pair->eps;
    double tiny = 16.0 * DBL_EPSILON * pair->scale;
    for (int iter = 0; iter < pair->max_iterations; ++iter) {
        double d3[3], w[3];
        for (int i = 0; i < 3; ++i) {
            d3[i] = -(v[0] * e1[i] + v[1] * e2[i]);
        }
        hd_pair_support_m(pair, d3, &start_a, &start_b, &ia, &ib, w, stats);
        double p[2] = {hd_v3_dot(w, e1), hd_v3_dot(w, e2)};
        double vv = v[0] * v[0] + v[1] * v[1];
        double vw = v[0] * p[0] + v[1] * p[1];
        if (sx.n > 0) {
            double vlen = sqrt(vv);
            if (vw > eps * vlen) {
                *found = 0; /* the line {p : v.p = vw} of H separates by more than eps */
                return HD_OK;
            }
            if (vv - vw <= 1e-14 * vv || vlen <= tiny) {
                break; /* no progress: the origin is within |v| of the projection */
            }
        }
        sx.p[sx.n][0] = p[0];
        sx.p[sx.n][1] = p[1];
        hd_v3_copy(sx.w[sx.n], w);
        sx.n++;
        if (sx.n == 1) {
            sx.lambda[0] = 1.0;
        } else if (sx.n == 2) {
            nearest_segment(&sx);
        } else if (nearest_triangle(&sx)) {
            break;
        }
        v[0] = v[1] = 0.0;
        for (int i = 0; i < sx.n; ++i) {
            v[0] += sx.lambda[i] * sx.p[i][0];
            v[1] += sx.lambda[i] * sx.p[i][1];
        }
        if (iter + 1 == pair->max_iterations) {
            return HD_ERR_ITERATION_LIMIT;
        }
    }
    double vlen = sqrt(v[0] * v[0] + v[1] * v[1]);
    if (sx.n < 3 && vlen > eps) {
        *found = 0;
        return HD_OK;
    }
    hd_v3_set(c, 0, 0, 0);
    for (int i = 0; i < sx.n; ++i) {
        hd_v3_madd(c, c, sx.lambda[i], sx.w[i]);
    }
    *found = 1;
    return HD_OK;
}

/* ---- the searches along the line ---- */

static void add_stats(hd_stats *to, const hd_stats *from)
{
    to->iterations += from->iterations;
    to->support_calls += from->support_calls;
    to->visits_fv += from->visits_fv;
    to->visits_vf += from->visits_vf;
    to->visits_ee += from->visits_ee;
    to->refine_steps += from->refine_steps;
}

/* Runs CD-Dual without early exit for the ray c + t r; *psi the optimum's objective. */
static hd_status shoot(const hd_pair *pair, hd_facemap *map, const double c[3], const double r[3],
                       hd_stats *stats, double *psi)
{
    hd_raysearch rs;
    memset(&rs, 0, sizeof rs);
    rs.pair = pair;
    hd_v3_copy(rs.c, c);
    hd_v3_copy(rs.r, r);
    rs.clamp = 1;
    rs.start_face = -1;
    rs.max_evals = pair->max_iterations;
    rs.map = map;
    rs.stats = stats;
    hd_facemap_clear(map);
    hd_status st = hd_raysearch_run(&rs);
    *psi = rs.best_value;
    return st;
}

/* Travel along the unit direction r from o (inside or on M) to leave M. */
static hd_status exit_from_origin(const hd_pair *pair, hd_facemap *map, const double r[3],
                                  hd_stats *stats, double *travel)
{
    static const double o[3] = {0.0, 0.0, 0.0};
    double psi;
    hd_status st = shoot(pair, map, o, r, stats, &psi);
    if (st != HD_OK) {
        return st;
    }
    if (!(psi > 0.0)) {
        return HD_ERR_UNSUPPORTED; /* no face ahead: cannot happen for a bounded M */
    }
    *travel = psi == HUGE_VAL ? 0.0 : 1.0 / psi;
    return HD_OK;
}

static hd_status gap_overlapping(const hd_pair *pair, hd_facemap *map, const double s[3],
                                 hd_gap_result *out)
{
    double up, down, neg[3];
    hd_v3_neg(neg, s);
    hd_status st = exit_from_origin(pair, map, s, &out->stats, &up);
    if (st == HD_OK) {
        st = exit_from_origin(pair, map, neg, &out->stats, &down);
    }
    if (st != HD_OK) {
        return st;
    }
    out->contact = 1;
    out->s_sign = up <= down ? 1 : -1;
    out->distance = up <= down ? up : down;
    return HD_OK;
}

static hd_status gap_separated(const hd_pair *pair, hd_facemap *map, const double s[3],
                               hd_gap_result *out)
{
    double c[3];
    int found;
    hd_status st = line_point(pair, s, &out->stats, c, &found);
    if (st != HD_OK) {
        return st;
    }
    if (!found) {
        out->contact = 0;
        out->distance = 0.0;
        out->s_sign = 1;
        return HD_OK;
    }
    double r[3], psi;
    hd_v3_neg(r, c);
    st = shoot(pair, map, c, r, &out->stats, &psi);
    if (st != HD_OK) {
        return st;
    }
    double len = hd_v3_len(c);
    double d = psi == HUGE_VAL ? HUGE_VAL : (psi - 1.0) / len;
    double g = hd_cddual_gap_from_dual(d, len);
    out->contact = 1;
    out->s_sign = hd_v3_dot(c, s) >= 0.0 ? 1 : -1;
    out->distance = g > 0.0 ? g : 0.0;
    return HD_OK;
}

hd_status hd_cddual_gap(const hd_pair *pair, const double dir[3], const hd_options *opt,
                        hd_gap_result *out)
{
    if (pair->a->dim < 3 && pair->b->dim < 3) {
        return HD_ERR_UNSUPPORTED;
    }
    double s[3];
    hd_v3_copy(s, dir);
    if (!(hd_v3_normalize(s) > 0.0) || !hd_v3_is_finite(s)) {
        return HD_ERR_INVALID_ARG;
    }
    hd_result res;
    memset(&res, 0, sizeof res);
    res.algo = HD_ALGO_CDDUAL;
    res.eps = pair->eps;
    res.distance = -1.0;
    hd_options o = *opt;
    o.flags &= ~(unsigned)HD_QUERY_RECORD_PATH;
    hd_status st = hd_cddual_collide(pair, &o, &res);
    if (st != HD_OK) {
        return st;
    }
    out->verdict = res.verdict;
    add_stats(&out->stats, &res.stats);
    hd_facemap_scratch scratch;
    hd_facemap *map =
        hd_facemap_open(opt->workspace, &scratch, (opt->flags & HD_QUERY_RECORD_PATH) != 0);
    if (res.verdict == HD_SEPARATED) {
        return gap_separated(pair, map, s, out);
    }
    return gap_overlapping(pair, map, s, out);
}
