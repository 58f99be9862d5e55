/* GJK for convex polygons given as point arrays: the 2D path of Nascimento's GJK article (support
 * mapping S_{A-B}(d) = S_A(d) - S_B(-d), the simplex growing towards the origin, "dot(p, d) < 0
 * -> no collision"), with the distance form, the signed-area solver (kernel/simplex2d.c), the
 * touching band and certificates of the 3D queries. The article's region tests keep the vertex
 * order by hand and return "collision" when the origin is on a simplex edge; here the solver
 * decides regions from signs, and an origin on the boundary goes to the classifier. */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "gjk/internal.h"
#include "core/tolerances.h"
#include "kernel/gjk_core.h" /* hdi_combinations_from_weights */

int hdi_gjk2d_support(const double *pts, int n, const double d[2])
{
    int best = 0;
    double best_value = pts[0] * d[0] + pts[1] * d[1];
    for (int i = 1; i < n; ++i) {
        double x = pts[2 * i] * d[0] + pts[2 * i + 1] * d[1];
        if (x > best_value) {
            best_value = x;
            best = i;
        }
    }
    return best;
}

void hdi_gjk2d_support_m(const hdi_pair2d *p, const double d[2], int *ia, int *ib, double w[2],
                         hd_stats *stats)
{
    double nd[2] = {-d[0], -d[1]};
    *ia = hdi_gjk2d_support(p->a, p->na, d);
    *ib = hdi_gjk2d_support(p->b, p->nb, nd);
    w[0] = p->a[2 * *ia] - p->b[2 * *ib];
    w[1] = p->a[2 * *ia + 1] - p->b[2 * *ib + 1];
    if (stats != NULL) {
        stats->support_calls += 2;
    }
}

void hdi_gjk2d_start(const hdi_pair2d *p, hdi_gjk2d_state *st)
{
    st->simplex.count = 0;
    st->lower = -DBL_MAX;
    st->plane_n[0] = 1.0;
    st->plane_n[1] = 0.0;
    st->plane_ia = st->plane_ib = 0;
    st->iterations = 0;
    st->end = HD_GJK2D_RUNNING;
    /* first direction: between the first points of each set (any point of M will do) */
    st->v[0] = p->a[0] - p->b[0];
    st->v[1] = p->a[1] - p->b[1];
    if (!(st->v[0] * st->v[0] + st->v[1] * st->v[1] > 0.0)) {
        st->v[0] = 1.0;
        st->v[1] = 0.0;
    }
    st->vv = DBL_MAX;
}

static void add_point(const hdi_pair2d *p, hdi_simplex2d *s, int ia, int ib, const double w[2])
{
    int k = s->count++;
    s->w[k][0] = w[0];
    s->w[k][1] = w[1];
    s->ia[k] = ia;
    s->ib[k] = ib;
    (void)p;
}

/* One GJK step's bookkeeping of the lower bound v.w / |v| and its line. */
static void record_lower(hdi_gjk2d_state *st, double vlen, double vw, int ia, int ib)
{
    double lb = vw / vlen;
    if (lb > st->lower) {
        st->lower = lb;
        st->plane_n[0] = st->v[0] / vlen;
        st->plane_n[1] = st->v[1] / vlen;
        st->plane_ia = ia;
        st->plane_ib = ib;
    }
}

hd_status hdi_gjk2d_iterate(const hdi_pair2d *p, double separation, hdi_gjk2d_state *st,
                            hd_stats *stats)
{
    const double tol = HD_GJK_ABS_TOL * p->scale;
    hdi_simplex2d *s = &st->simplex;
    for (;;) {
        if (s->count == 3) {
            st->end = HD_GJK2D_ENCLOSED;
            return HD_OK;
        }
        if (s->count > 0 && st->vv <= tol * tol) {
            st->end = HD_GJK2D_ORIGIN;
            return HD_OK;
        }
        if (st->iterations >= p->max_iterations) {
            return HD_ERR_ITERATION_LIMIT;
        }
        st->iterations++;
        double d[2] = {-st->v[0], -st->v[1]}, w[2];
        int ia, ib;
        hdi_gjk2d_support_m(p, d, &ia, &ib, w, stats);
        double vlen = s->count > 0 ? sqrt(st->vv) : hypot(st->v[0], st->v[1]);
        double vw = st->v[0] * w[0] + st->v[1] * w[1];
        record_lower(st, vlen, vw, ia, ib);
        if (st->lower > separation) {
            st->end = HD_GJK2D_SEPARATED;
            return HD_OK;
        }
        if (s->count > 0 && (hdi_simplex2d_has_pair(s, ia, ib) ||
                             st->vv - vw <= fmax(HD_GJK_REL_TOL * vlen, tol) * vlen)) {
            st->end = HD_GJK2D_CONVERGED;
            return HD_OK;
        }
        hdi_simplex2d previous = *s;
        double pv[2] = {st->v[0], st->v[1]}, pvv = st->vv;
        add_point(p, s, ia, ib, w);
        hdi_simplex2d_solve(s, st->v);
        st->vv = st->v[0] * st->v[0] + st->v[1] * st->v[1];
        double gap = pvv - vw; /* bounds within the stall tolerance (kernel/gjk_core.h) */
        int met = gap <= HD_GJK_REL_TOL * pvv ||
                  gap * gap <= HD_GJK_STALL_FACTOR * HD_GJK_STALL_FACTOR * tol * tol * pvv;
        if (previous.count > 0 && st->vv >= pvv && met) {
            *s = previous;
            st->v[0] = pv[0];
            st->v[1] = pv[1];
            st->vv = pvv;
            st->end = HD_GJK2D_CONVERGED;
            return HD_OK;
        }
    }
}

void hdi_gjk2d_line(const hdi_pair2d *p, const hdi_gjk2d_state *st, hd_certificate2d *cert)
{
    double c[2] = {-st->plane_n[0], -st->plane_n[1]};
    const double *a = p->a + 2 * st->plane_ia, *b = p->b + 2 * st->plane_ib;
    double ha = c[0] * a[0] + c[1] * a[1], hb = c[0] * b[0] + c[1] * b[1];
    cert->has_line = true;
    cert->normal[0] = c[0];
    cert->normal[1] = c[1];
    cert->gap = hb - ha;
    cert->offset = 0.5 * (ha + hb);
}

void hdi_gjk2d_witnesses(const hdi_pair2d *p, const hdi_simplex2d *s, double on_a[2],
                         double on_b[2])
{
    on_a[0] = on_a[1] = on_b[0] = on_b[1] = 0.0;
    for (int j = 0; j < s->count; ++j) {
        for (int k = 0; k < 2; ++k) {
            on_a[k] += s->lambda[j] * p->a[2 * s->ia[j] + k];
            on_b[k] += s->lambda[j] * p->b[2 * s->ib[j] + k];
        }
    }
}

/* Iterative refinement of a triangle's weights (hdi_simplex_polish in the plane): the residual
 * r = sum l_j w_j is removed by solving [w1 - w0, w2 - w0] m = -r for (l_1, l_2). */
static void polish2d(hdi_simplex2d *s)
{
    double e1[2] = {s->w[1][0] - s->w[0][0], s->w[1][1] - s->w[0][1]};
    double e2[2] = {s->w[2][0] - s->w[0][0], s->w[2][1] - s->w[0][1]};
    double det = e1[0] * e2[1] - e1[1] * e2[0];
    if (det == 0.0) {
        return;
    }
    for (int step = 0; step < 2; ++step) {
        double r[2] = {0.0, 0.0};
        for (int j = 0; j < 3; ++j) {
            r[0] -= s->lambda[j] * s->w[j][0];
            r[1] -= s->lambda[j] * s->w[j][1];
        }
        s->lambda[1] += (r[0] * e2[1] - r[1] * e2[0]) / det;
        s->lambda[2] += (e1[0] * r[1] - e1[1] * r[0]) / det;
        s->lambda[0] = 1.0 - (s->lambda[1] + s->lambda[2]);
    }
    double sum = 0.0;
    for (int j = 0; j < 3; ++j) {
        s->lambda[j] = fmax(s->lambda[j], 0.0);
        sum += s->lambda[j];
    }
    for (int j = 0; j < 3; ++j) {
        s->lambda[j] /= sum;
    }
}

void hdi_gjk2d_point(const hdi_pair2d *p, const hdi_simplex2d *in, hd_certificate2d *cert)
{
    hdi_simplex2d polished = *in;
    const hdi_simplex2d *s = &polished;
    if (polished.count == 3) {
        polish2d(&polished);
    }
    double on_b[2];
    hdi_gjk2d_witnesses(p, s, cert->point, on_b);
    hdi_combinations_from_weights(s->lambda, s->ia, s->ib, s->count, &cert->on_a, &cert->on_b);
    cert->has_point = true;
}
