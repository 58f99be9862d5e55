/* The LP method on raw point arrays in any dimension 1..HD_LP_MAX_DIM (public API of
 * hedra/lp.h): intersection, containment (IsSubsetOf of Kreuzer's LP article) and point inside. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "lp/solve.h"

/* Checks a point array (count, NULL, finite) and accumulates its bounding box and largest
 * absolute coordinate, in one pass. */
typedef struct hdi_lp_box {
    double lo[HD_LP_MAX_DIM];
    double hi[HD_LP_MAX_DIM];
    double max_abs;
} hdi_lp_box;

static void box_init(hdi_lp_box *box, int dim)
{
    for (int k = 0; k < dim; ++k) {
        box->lo[k] = INFINITY;
        box->hi[k] = -INFINITY;
    }
    box->max_abs = 0.0;
}

/* The box of n points of dim doubles merged into lo, hi. Returns 0 when a coordinate is NaN
 * (x != x: the comparisons below ignore NaNs); infinities reach lo or hi, checked by the caller. */
static int box_scan(const double *p, long n, int dim, double *lo, double *hi)
{
    int nan = 0;
    for (long i = 0; i < n; ++i) {
        for (int k = 0; k < dim; ++k) {
            double v = p[i * dim + k];
            nan |= v != v;
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
        }
    }
    return !nan;
}

/* box_scan for 3D points, two at a time: every running bound is kept apart for each of the six
 * positions (in registers), so that no step waits for the previous point's. */
static int box_scan3(const double *p, long n, double *lo, double *hi)
{
    double l0 = lo[0], l1 = lo[1], l2 = lo[2], l3 = lo[0], l4 = lo[1], l5 = lo[2];
    double h0 = hi[0], h1 = hi[1], h2 = hi[2], h3 = hi[0], h4 = hi[1], h5 = hi[2];
    int nan = 0;
    long i = 0;
    for (; i + 2 <= n; i += 2) {
        const double *x = p + 3 * i;
        double v0 = x[0], v1 = x[1], v2 = x[2], v3 = x[3], v4 = x[4], v5 = x[5];
        nan |= (v0 != v0) | (v1 != v1) | (v2 != v2) | (v3 != v3) | (v4 != v4) | (v5 != v5);
        l0 = v0 < l0 ? v0 : l0;
        l1 = v1 < l1 ? v1 : l1;
        l2 = v2 < l2 ? v2 : l2;
        l3 = v3 < l3 ? v3 : l3;
        l4 = v4 < l4 ? v4 : l4;
        l5 = v5 < l5 ? v5 : l5;
        h0 = v0 > h0 ? v0 : h0;
        h1 = v1 > h1 ? v1 : h1;
        h2 = v2 > h2 ? v2 : h2;
        h3 = v3 > h3 ? v3 : h3;
        h4 = v4 > h4 ? v4 : h4;
        h5 = v5 > h5 ? v5 : h5;
    }
    lo[0] = hdi_min(l0, l3);
    lo[1] = hdi_min(l1, l4);
    lo[2] = hdi_min(l2, l5);
    hi[0] = hdi_max(h0, h3);
    hi[1] = hdi_max(h1, h4);
    hi[2] = hdi_max(h2, h5);
    return !nan && box_scan(p + 3 * i, n - i, 3, lo, hi);
}

static hd_status check_points(const double *p, int n, int dim, hdi_lp_box *box)
{
    if (n < 0) {
        return HD_ERR_INVALID_ARG;
    }
    if (n > HD_MAX_POINTS) {
        return HD_ERR_TOO_LARGE;
    }
    if (n == 0) {
        return HD_OK;
    }
    if (p == NULL) {
        return HD_ERR_NULL;
    }
    /* Local copies: the box must not alias the input for the loop to stay in registers. */
    double lo[HD_LP_MAX_DIM], hi[HD_LP_MAX_DIM], big = box->max_abs;
    memcpy(lo, box->lo, sizeof(double) * (size_t)dim);
    memcpy(hi, box->hi, sizeof(double) * (size_t)dim);
    int finite = dim == 3 ? box_scan3(p, n, lo, hi) : box_scan(p, n, dim, lo, hi);
    for (int k = 0; k < dim; ++k) {
        finite &= isfinite(lo[k]) && isfinite(hi[k]);
    }
    if (!finite) {
        return HD_ERR_NONFINITE;
    }
    for (int k = 0; k < dim; ++k) {
        big = hdi_max(big, hdi_max(-lo[k], hi[k]));
        box->lo[k] = lo[k];
        box->hi[k] = hi[k];
    }
    box->max_abs = big;
    return HD_OK;
}

static hd_status check_common(int dim, const hd_tolerance *tol, hd_tolerance *use)
{
    if (dim < 1 || dim > HD_LP_MAX_DIM) {
        return HD_ERR_INVALID_ARG;
    }
    *use = tol != NULL ? *tol : hd_tolerance_default();
    return hd_tolerance_validate(use) == HD_OK ? HD_OK : HD_ERR_INVALID_ARG;
}

/* The checks every raw-array entry point makes: its result pointer, dimension and tolerance, then
 * both point sets (finite, within range), whose bounding box is gathered in box. */
static hd_status check_sets(const void *result, int dim, const hd_tolerance *tol, const double *s,
                            int ns, const double *t, int nt, hd_tolerance *use, hdi_lp_box *box)
{
    if (result == NULL) {
        return HD_ERR_NULL;
    }
    hd_status st = check_common(dim, tol, use);
    if (st != HD_OK) {
        return st;
    }
    box_init(box, dim);
    if ((st = check_points(s, ns, dim, box)) != HD_OK) {
        return st;
    }
    return check_points(t, nt, dim, box);
}

static int cap_for(const hd_tolerance *tol, long n, int dim)
{
    return tol->max_iterations > 0 ? tol->max_iterations : hdi_lp_default_cap(n, dim + 2);
}

static void raw_problem(hdi_lp_problem *prob, int dim, const double *s, int ns, const double *t,
                        int nt, double eps, int cap, const hdi_lp_box *box)
{
    memset(prob, 0, sizeof *prob);
    prob->dim = dim;
    prob->s.pts = s;
    prob->s.count = ns;
    prob->t.pts = t;
    prob->t.count = nt;
    prob->eps = eps;
    prob->cap = cap;
    if (box != NULL) {
        hdi_lp_normalize_box(prob, box->lo, box->hi);
    } else {
        hdi_lp_normalize_scan(prob);
    }
}

/* Point p against conv(S) with an absolute eps: HD_INTERSECTING (depth > eps proven),
 * HD_TOUCHING, HD_SEPARATED (a plane with gap > eps). */
static hd_status point_verdict(int dim, const double *s, int ns, const double *p, double eps,
                               int cap, hd_verdict *out)
{
    if (ns == 0) {
        *out = HD_SEPARATED;
        return HD_OK;
    }
    hdi_lp_problem prob;
    hdi_lp_outcome res;
    raw_problem(&prob, dim, s, ns, p, 1, eps, cap, NULL);
    hd_status st = hdi_lp_solve(&prob, &res);
    if (st == HD_OK) {
        *out = res.verdict;
    }
    return st;
}

/* Two single points: the exact distance decides (the source compares differences without their
 * absolute value, so any point with smaller coordinates "collides"; here |t - s| is used). */
static void two_points(int dim, const double *s, const double *t, hd_lp_result *out)
{
    double diff[HD_LP_MAX_DIM], len = 0.0;
    for (int k = 0; k < dim; ++k) {
        diff[k] = t[k] - s[k];
        len += diff[k] * diff[k];
    }
    len = sqrt(len);
    double gap = 0.0, ps = 0.0;
    for (int k = 0; k < dim; ++k) {
        out->normal[k] = len > 0.0 ? diff[k] / len : (k == 0 ? 1.0 : 0.0);
        ps += out->normal[k] * s[k];
        gap += out->normal[k] * t[k];
    }
    gap -= ps;
    out->gap = gap;
    out->offset = ps + 0.5 * gap;
    out->undecided = false;
    if (gap > out->eps) {
        out->verdict = HD_SEPARATED;
        out->distance_lower_bound = gap;
        out->depth_bound = 0.0;
        return;
    }
    out->verdict = HD_TOUCHING;
    out->distance_lower_bound = 0.0;
    out->depth_bound = 0.0;
    for (int k = 0; k < dim; ++k) {
        out->point[k] = 0.5 * (s[k] + t[k]);
    }
}

static void fill_result(const hdi_lp_problem *prob, const hdi_lp_outcome *res, hd_lp_result *out,
                        double *ws, double *wt)
{
    int dim = prob->dim, ns = prob->s.count;
    out->verdict = res->verdict;
    out->undecided = !res->decided;
    out->f_min = res->f_min;
    out->pivots = res->pivots;
    out->depth_bound = res->verdict == HD_INTERSECTING ? res->depth_bound : 0.0;
    if (res->has_plane) {
        memcpy(out->normal, res->normal, sizeof(double) * (size_t)dim);
        out->gap = res->gap;
        out->offset = res->max_s + 0.5 * res->gap;
    }
    out->distance_lower_bound = res->verdict == HD_SEPARATED ? res->gap : 0.0;
    if (res->verdict == HD_SEPARATED || !res->has_point) {
        return;
    }
    for (int k = 0; k < dim; ++k) {
        out->point[k] = 0.5 * (res->point_s[k] + res->point_t[k]);
    }
    for (int c = 0; c < res->count; ++c) {
        int id = res->id[c];
        if (id < ns && ws != NULL) {
            ws[id] = res->w[c];
        } else if (id >= ns && wt != NULL) {
            wt[id - ns] = res->w[c];
        }
    }
}

/* Which evidence the answer holds, read off its fields so that every path above sets it alike. */
static void mark_evidence(int dim, hd_lp_result *out)
{
    out->has_plane = false;
    for (int k = 0; k < dim; ++k) {
        out->has_plane = out->has_plane || out->normal[k] != 0.0;
    }
    out->has_point = out->verdict != HD_SEPARATED;
}

hd_status hd_lp_intersect(int dim, const double *s, int ns, const double *t, int nt,
                          const hd_tolerance *tol, hd_lp_result *out, double *weights_s,
                          double *weights_t)
{
    hd_tolerance use;
    hdi_lp_box box;
    hd_status st = check_sets(out, dim, tol, s, ns, t, nt, &use, &box);
    if (st != HD_OK) {
        return st;
    }
    memset(out, 0, sizeof *out);
    out->eps = use.touch_rel * box.max_abs;
    for (int i = 0; weights_s != NULL && i < ns; ++i) {
        weights_s[i] = 0.0;
    }
    for (int j = 0; weights_t != NULL && j < nt; ++j) {
        weights_t[j] = 0.0;
    }
    if (ns == 0 || nt == 0) {
        out->verdict = HD_SEPARATED;
        out->f_min = INFINITY;
        out->gap = INFINITY;
        out->distance_lower_bound = INFINITY;
        return HD_OK;
    }
    hdi_lp_problem prob;
    hdi_lp_outcome res;
    raw_problem(&prob, dim, s, ns, t, nt, out->eps, cap_for(&use, (long)ns + nt, dim), &box);
    st = hdi_lp_solve(&prob, &res);
    if (st != HD_OK) {
        return st;
    }
    fill_result(&prob, &res, out, weights_s, weights_t);
    if (ns == 1 && nt == 1) {
        two_points(dim, s, t, out);
        double w = out->verdict == HD_TOUCHING ? 1.0 : 0.0;
        if (weights_s != NULL) {
            weights_s[0] = w;
        }
        if (weights_t != NULL) {
            weights_t[0] = w;
        }
    }
    mark_evidence(dim, out);
    return HD_OK;
}

hd_status hd_lp_contains(int dim, const double *s, int ns, const double *t, int nt,
                         const hd_tolerance *tol, bool *inside)
{
    hd_tolerance use;
    hdi_lp_box box;
    hd_status st = check_sets(inside, dim, tol, s, ns, t, nt, &use, &box);
    if (st != HD_OK) {
        return st;
    }
    /* The source's empty-set rules: the empty set is inside anything; nothing non-empty is
     * inside the empty set. */
    if (nt == 0 || ns == 0) {
        *inside = nt == 0;
        return HD_OK;
    }
    double eps = use.touch_rel * box.max_abs;
    int cap = cap_for(&use, (long)ns + 1, dim);
    for (int j = 0; j < nt; ++j) {
        hd_verdict v;
        st = point_verdict(dim, s, ns, t + (long)dim * j, eps, cap, &v);
        if (st != HD_OK) {
            return st;
        }
        if (v == HD_SEPARATED) {
            *inside = false;
            return HD_OK;
        }
    }
    *inside = true;
    return HD_OK;
}

hd_status hd_lp_point_inside(int dim, const double *s, int ns, const double *point,
                             const hd_tolerance *tol, hd_verdict *out)
{
    if (point == NULL) {
        return HD_ERR_NULL;
    }
    hd_tolerance use;
    hdi_lp_box box;
    hd_status st = check_sets(out, dim, tol, s, ns, point, 1, &use, &box);
    if (st != HD_OK) {
        return st;
    }
    return point_verdict(dim, s, ns, point, use.touch_rel * box.max_abs,
                         cap_for(&use, (long)ns + 1, dim), out);
}
