/* The gradient's local tie test (docs/algorithms/gradient.md, section 5): the facets of M = A - B
 * that may attain the depth within the tie limit, found near the supporting features instead of
 * by a pass over every facet of M (contact/sat.c).
 *
 * The cap. The expanding polytope P lies in M and holds the origin; its faces off the landed facet
 * are at least N from the origin, so P = the intersection of its faces' halfspaces holds
 * K = {|x| <= N, n . x <= d}. For a unit u at an angle t from n, h_M(u) >= h_K(u), which is
 * N cos(t - phi) (cos phi = d / N) for t <= phi and N beyond: a support value within the limit
 * needs t <= phi - acos(limit / N), the cap's radius.
 *
 * The candidates. A facet of M with its normal u in the cap is a face of A with normal u, a face
 * of B with normal -u or an edge pair whose Gauss arcs cross at u; every vertex of these supports A
 * (or B) along a direction in the cap. The vertices that do form a connected set of the edge graph
 * (their normal cones cover the cap), and each satisfies (v - v0) . n >= -|v - v0| cap for any v0
 * of the polytope, a superset test: a walk from a supporting vertex through the vertices that pass
 * it reaches them all, and the candidates are their faces and the edges joining them. */
#include <math.h>

#include "contact/signed_distance.h"
#include "core/math.h"
#include "core/tolerances.h"

/* Vertices of one polytope whose normal cones may meet the cap. */
typedef struct cap_walk {
    int v[HD_GRADIENT_CAP_VERTICES];
    int count;
} cap_walk;

static int walk_has(const cap_walk *w, int v)
{
    for (int i = 0; i < w->count; ++i) {
        if (w->v[i] == v) {
            return 1;
        }
    }
    return 0;
}

/* 1 when v may support p along a direction within cap (radians) of dir: the superset test. */
static int may_support(const hd_polytope *p, const double dir[3], int v0, int v, double cap)
{
    double d[3];
    hdi_v3_sub(d, &p->verts[3 * v], &p->verts[3 * v0]);
    double along = hdi_v3_dot(d, dir);
    return along >= 0.0 || along * along <= hdi_v3_len2(d) * cap * cap;
}

/* The walk from the vertices of feature f through the vertices passing the superset test; 0 when
 * it outgrows the walk's room. */
static int walk_cap(const hd_polytope *p, hdi_feature f, const double dir[3], double cap,
                    cap_walk *w)
{
    int v0 = hdi_feature_vertex(p, f, 0);
    w->count = 0;
    for (int i = 0; i < hdi_feature_vertex_count(p, f); ++i) {
        int v = hdi_feature_vertex(p, f, i);
        if (!walk_has(w, v)) {
            if (w->count == HD_GRADIENT_CAP_VERTICES) {
                return 0;
            }
            w->v[w->count++] = v;
        }
    }
    for (int i = 0; i < w->count; ++i) {
        int v = w->v[i];
        for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
            int u = p->vert_adj[k];
            if (walk_has(w, u) || !may_support(p, dir, v0, u, cap)) {
                continue;
            }
            if (w->count == HD_GRADIENT_CAP_VERTICES) {
                return 0;
            }
            w->v[w->count++] = u;
        }
    }
    return 1;
}

/* Calls fn(face) for the faces of the walk's vertices whose normal is within the cap of dir
 * (cos_cap its cosine) but not within HD_FEATURE_ANGLE of it (the depth's own facet, which the tie
 * test passes over: contact/gradient.c); stops at the first nonzero return. */
typedef int (*face_fn)(void *ctx, int face);

static int in_cap(const double normal[3], const double dir[3], double cos_cap)
{
    double d[3];
    hdi_v3_sub(d, normal, dir);
    return hdi_v3_dot(normal, dir) >= cos_cap && hdi_v3_len(d) > HD_FEATURE_ANGLE;
}

static int each_cap_face(const hd_polytope *p, const cap_walk *w, const double dir[3],
                         double cos_cap, face_fn fn, void *ctx)
{
    if (w->count == 1) {
        /* a lone vertex v: each edge (v, u) fell, dir . e < -cap for its unit e, and a face g at v
         * holds one, so |n_g - dir| >= |(n_g - dir) . e| > cap: no face at v is in the cap */
        return 0;
    }
    for (int i = 0; i < w->count; ++i) {
        int v = w->v[i];
        for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
            int e = p->vert_edges[k];
            int f = p->edge_faces[2 * e + (p->edge_verts[2 * e] == v ? 0 : 1)];
            /* each face once: from the edge that leaves v counter-clockwise in it */
            if (f >= 0 && in_cap(&p->face_normal[3 * f], dir, cos_cap) && fn(ctx, f)) {
                return 1;
            }
        }
    }
    return 0;
}

/* The local search's state. */
typedef struct cap_search {
    const hdi_pair *pair;
    hd_stats *stats;
    hdi_facet_visit visit;
    void *ctx;
    int start;
    int landed_a, landed_b; /* the depth's edges when its facet is an edge pair, else -1 */
} cap_search;

static int visit_face_a(void *ctx, int f)
{
    cap_search *s = ctx;
    hdi_mface m;
    hdi_mface_fv(s->pair, f, &s->start, s->stats, &m);
    return s->visit(s->ctx, &m);
}

static int visit_face_b(void *ctx, int g)
{
    cap_search *s = ctx;
    hdi_mface m;
    hdi_mface_vf(s->pair, g, &s->start, s->stats, &m);
    return s->visit(s->ctx, &m);
}

/* The edge pairs of the two walks (each edge once: from its lower end). */
static int each_cap_edge_pair(const cap_search *s, const cap_walk *wa, const cap_walk *wb)
{
    const hd_polytope *a = s->pair->a, *b = s->pair->b;
    hdi_mface axes[2];
    if (wa->count < 2 || wb->count < 2) {
        return 0; /* a walk of one vertex joins no edge */
    }
    for (int i = 0; i < wa->count; ++i) {
        int va = wa->v[i];
        for (int ka = a->vert_offset[va]; ka < a->vert_offset[va + 1]; ++ka) {
            if (a->vert_adj[ka] < va || !walk_has(wa, a->vert_adj[ka])) {
                continue;
            }
            for (int j = 0; j < wb->count; ++j) {
                int vb = wb->v[j];
                for (int kb = b->vert_offset[vb]; kb < b->vert_offset[vb + 1]; ++kb) {
                    if (b->vert_adj[kb] < vb || !walk_has(wb, b->vert_adj[kb])) {
                        continue;
                    }
                    int ea = a->vert_edges[ka], eb = b->vert_edges[kb];
                    if (ea == s->landed_a && eb == s->landed_b) {
                        continue; /* the depth's own facet (and its opposite, far beyond) */
                    }
                    int count = hdi_mface_ee_axes(s->pair, ea, eb, axes);
                    for (int k = 0; k < count; ++k) {
                        if (s->visit(s->ctx, &axes[k])) {
                            return 1;
                        }
                    }
                }
            }
        }
    }
    return 0;
}

/* The cap's radius in radians, or a negative value when the bound does not apply (see above). */
static double cap_radius(const hdi_sd_result *sd, double limit)
{
    double reach = sd->next_depth - 2.0 * sd->margin;
    double depth = -sd->delta - 2.0 * sd->margin;
    double top = limit + 2.0 * sd->margin;
    if (sd->method != HD_SD_EPA || !(depth > 0.0) || !(reach > top)) {
        return -1.0;
    }
    /* sin(phi - psi), cos phi = depth / reach, cos psi = top / reach, without the cancellation of
     * a difference of two acos: sin phi cos psi - cos phi sin psi, times its conjugate */
    double sin_d = sqrt((reach - depth) * (reach + depth));
    double sin_t = sqrt((reach - top) * (reach + top));
    double x = (top - depth) * (top + depth) / (sin_d * top + depth * sin_t);
    if (!(x <= 0.5)) {
        return HD_GRADIENT_CAP_MAX; /* a wide cap: the full pass */
    }
    double cap = x * (1.0 + x * x); /* asin x <= x (1 + x^2) for 0 <= x <= 1/2 */
    return 2.0 * cap + HD_GRADIENT_CAP_SLACK;
}

int hdi_tie_each_cap_facet(const hdi_pair *pair, const hdi_sd_result *sd, double limit,
                           hd_stats *stats, hdi_facet_visit visit, void *ctx)
{
    double cap = cap_radius(sd, limit);
    if (!(cap >= 0.0) || cap >= HD_GRADIENT_CAP_MAX || pair->a->dim < 3 || pair->b->dim < 3) {
        return -1;
    }
    double dir_b[3], neg[3];
    hdi_v3_neg(neg, sd->n);
    hdi_m3_tmul_v(dir_b, pair->r, neg); /* -n in B's frame */
    cap_walk wa, wb;
    if (!walk_cap(pair->a, sd->fa, sd->n, cap, &wa) ||
        !walk_cap(pair->b, sd->fb, dir_b, cap, &wb)) {
        return -1;
    }
    double cos_cap = 1.0 - 0.5 * cap * cap; /* <= cos(cap): a superset of the cap's faces */
    int edges = sd->fa.kind == HD_FEAT_EDGE && sd->fb.kind == HD_FEAT_EDGE;
    cap_search s = {
        pair, stats, visit, ctx, 0, edges ? sd->fa.index : -1, edges ? sd->fb.index : -1};
    if (each_cap_face(pair->a, &wa, sd->n, cos_cap, visit_face_a, &s)) {
        return 1;
    }
    s.start = 0;
    if (each_cap_face(pair->b, &wb, dir_b, cos_cap, visit_face_b, &s)) {
        return 1;
    }
    return each_cap_edge_pair(&s, &wa, &wb);
}
