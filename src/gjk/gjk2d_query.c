/* The public 2D queries (hedra/gjk2d.h): argument checks, the GJK run, the verdicts GJK proves
 * alone, and the brute-force certificate check. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "gjk/internal.h"
#include "core/tolerances.h"

static hd_status check_points(const double *p, int n)
{
    if (n == 0) {
        return HD_ERR_EMPTY;
    }
    if (n < 0) {
        return HD_ERR_INVALID_ARG;
    }
    if (n > HD_MAX_POINTS) {
        return HD_ERR_TOO_LARGE;
    }
    for (long i = 0; i < 2L * n; ++i) {
        if (!isfinite(p[i])) {
            return HD_ERR_NONFINITE;
        }
    }
    return HD_OK;
}

/* Largest absolute coordinate; NaN when any coordinate is NaN (fmax alone would drop it). */
static double max_abs(const double *p, int n)
{
    double m = 0.0;
    for (long i = 0; i < 2L * n; ++i) {
        if (isnan(p[i])) {
            return NAN;
        }
        m = fmax(m, fabs(p[i]));
    }
    return m;
}

static hd_status prepare(const double *a, int na, const double *b, int nb, const hd_tolerance *tol,
                         hd_collide2d_result *out, hdi_pair2d *p)
{
    if (a == NULL || b == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    hd_tolerance t = tol != NULL ? *tol : hd_tolerance_default();
    hd_status st = hd_tolerance_validate(&t);
    if (st != HD_OK) {
        return HD_ERR_INVALID_ARG;
    }
    if ((st = check_points(a, na)) != HD_OK || (st = check_points(b, nb)) != HD_OK) {
        return st;
    }
    p->a = a;
    p->b = b;
    p->na = na;
    p->nb = nb;
    p->scale = fmax(max_abs(a, na), max_abs(b, nb));
    p->eps = t.touch_rel * p->scale;
    long cap = 64 + 4L * ((long)na + nb);
    p->max_iterations =
        t.max_iterations > 0 ? t.max_iterations : (int)(cap > 1000000000L ? 1000000000L : cap);
    memset(out, 0, sizeof *out);
    out->eps = p->eps;
    return HD_OK;
}

/* The verdicts GJK proves alone (as gjk/gjk.c); 0 when the classifier must decide. */
static int decide(const hdi_pair2d *p, const hdi_gjk2d_state *st, hd_collide2d_result *out)
{
    if (st->end == HD_GJK2D_SEPARATED || (st->end == HD_GJK2D_CONVERGED && st->lower > p->eps)) {
        out->verdict = HD_SEPARATED;
        hdi_gjk2d_line(p, st, &out->cert);
        return 1;
    }
    if (st->end == HD_GJK2D_ENCLOSED) {
        double depth = hdi_simplex2d_inner_depth(&st->simplex);
        if (depth > p->eps) {
            out->verdict = HD_INTERSECTING;
            hdi_gjk2d_point(p, &st->simplex, &out->cert);
            out->cert.depth_bound = depth;
            return 1;
        }
    }
    return 0;
}

/* The GJK run of both queries; closest is NULL for hd_collide2d, which stops at the verdict. */
static hd_status run(const double *a, int na, const double *b, int nb, const hd_tolerance *tol,
                     hdi_closest2d *closest, hd_collide2d_result *out)
{
    hdi_pair2d p;
    hd_status status = prepare(a, na, b, nb, tol, out, &p);
    if (status != HD_OK) {
        return status;
    }
    hdi_gjk2d_state st;
    hdi_gjk2d_start(&p, &st);
    status = hdi_gjk2d_iterate(&p, closest != NULL ? DBL_MAX : p.eps, &st, &out->stats);
    if (status == HD_OK) {
        if (decide(&p, &st, out)) {
            out->stop = closest != NULL ? HD_STOP_CONVERGED : HD_STOP_EARLY_EXIT;
            if (closest != NULL) {
                hdi_gjk2d_closest(&p, &st, out, closest);
            }
        } else {
            status = hdi_gjk2d_refine(&p, &st, closest, out);
        }
    }
    out->stats.iterations += st.iterations;
    return status;
}

hd_status hd_collide2d(const double *a, int na, const double *b, int nb, const hd_tolerance *tol,
                       hd_collide2d_result *out)
{
    return run(a, na, b, nb, tol, NULL, out);
}

hd_status hd_distance2d(const double *a, int na, const double *b, int nb, const hd_tolerance *tol,
                        hd_distance2d_result *out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    hd_collide2d_result res;
    hdi_closest2d closest;
    memset(&closest, 0, sizeof closest);
    hd_status st = run(a, na, b, nb, tol, &closest, &res);
    memset(out, 0, sizeof *out);
    if (st == HD_OK) {
        out->verdict = res.verdict;
        out->stop = res.stop;
        out->eps = res.eps;
        out->distance = closest.distance;
        memcpy(out->witness_a, closest.witness_a, sizeof out->witness_a);
        memcpy(out->witness_b, closest.witness_b, sizeof out->witness_b);
        out->cert = res.cert;
        out->stats = res.stats;
    }
    return st;
}

static hd_status combination_point(const double *pts, int n, const hd_combination *c, double out[2])
{
    if (c->count < 1 || c->count > HD_COMBINATION_MAX) {
        return HD_ERR_CERTIFICATE;
    }
    double sum = 0.0;
    out[0] = out[1] = 0.0;
    for (int k = 0; k < c->count; ++k) {
        double w = c->weight[k];
        if (c->index[k] < 0 || c->index[k] >= n || !(w >= 0.0) || w > 1.0) {
            return HD_ERR_CERTIFICATE;
        }
        out[0] += w * pts[2 * c->index[k]];
        out[1] += w * pts[2 * c->index[k] + 1];
        sum += w;
    }
    return fabs(sum - 1.0) <= 1e-9 ? HD_OK : HD_ERR_CERTIFICATE;
}

static hd_status check_line(const hdi_pair2d *p, const hd_certificate2d *c, double min_gap)
{
    if (!c->has_line || !isfinite(c->normal[0]) || !isfinite(c->normal[1]) ||
        fabs(hypot(c->normal[0], c->normal[1]) - 1.0) > 1e-9 || !isfinite(c->gap) ||
        !isfinite(c->offset) || !(c->gap > min_gap)) {
        return HD_ERR_CERTIFICATE;
    }
    double slack = HD_CHECK_ROUNDING_UNITS * DBL_EPSILON * p->scale;
    for (int i = 0; i < p->na; ++i) {
        if (c->normal[0] * p->a[2 * i] + c->normal[1] * p->a[2 * i + 1] >
            c->offset - 0.5 * c->gap + slack) {
            return HD_ERR_CERTIFICATE;
        }
    }
    for (int i = 0; i < p->nb; ++i) {
        if (c->normal[0] * p->b[2 * i] + c->normal[1] * p->b[2 * i + 1] <
            c->offset + 0.5 * c->gap - slack) {
            return HD_ERR_CERTIFICATE;
        }
    }
    return HD_OK;
}

static hd_status check_point(const hdi_pair2d *p, const hd_certificate2d *c)
{
    double pa[2], pb[2];
    if (!c->has_point || combination_point(p->a, p->na, &c->on_a, pa) != HD_OK ||
        combination_point(p->b, p->nb, &c->on_b, pb) != HD_OK) {
        return HD_ERR_CERTIFICATE;
    }
    double slack = HD_CHECK_ROUNDING_UNITS * DBL_EPSILON * p->scale;
    if (hypot(pa[0] - pb[0], pa[1] - pb[1]) > p->eps + slack ||
        hypot(pa[0] - c->point[0], pa[1] - c->point[1]) > p->eps + slack) {
        return HD_ERR_CERTIFICATE;
    }
    return HD_OK;
}

hd_status hd_certificate_check2d(const double *a, int na, const double *b, int nb,
                                 hd_verdict verdict, double eps, const hd_certificate2d *cert)
{
    if (a == NULL || b == NULL || cert == NULL) {
        return HD_ERR_NULL;
    }
    if (na <= 0 || nb <= 0) {
        return HD_ERR_CERTIFICATE;
    }
    double ma = max_abs(a, na), mb = max_abs(b, nb);
    hdi_pair2d p = {a, b, na, nb, (isnan(ma) || isnan(mb)) ? NAN : fmax(ma, mb), eps, 0};
    /* non-finite points prove nothing (every comparison with NaN is false); no valid tolerance
     * gives a band wider than 1e-3 of the scale */
    if (!isfinite(p.scale) || !isfinite(p.eps) || p.eps < 0.0 || p.eps > HD_TOL_REL_MAX * p.scale) {
        return HD_ERR_CERTIFICATE;
    }
    const hd_certificate2d *c = cert;
    switch (verdict) {
        case HD_SEPARATED:
            return check_line(&p, c, p.eps);
        case HD_TOUCHING: {
            hd_status st = check_line(&p, c, -p.eps);
            return st != HD_OK ? st : check_point(&p, c);
        }
        case HD_INTERSECTING:
            return c->depth_bound > p.eps ? check_point(&p, c) : HD_ERR_CERTIFICATE;
        default:
            return HD_ERR_CERTIFICATE;
    }
}
