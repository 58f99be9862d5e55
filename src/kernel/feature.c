/* Supporting features of A and B behind a face of M, and the location of a point on that face.
 *
 * A face of M with outward normal n is F = F_A + (-F_B), where F_A is the feature of A on which
 * n.a is largest and F_B the feature of B on which n.b is smallest (section 2.1). In general
 * position one of them is a face and the other a vertex (FV, VF) or both are edges (EE); when an
 * edge is parallel to a face or two faces are parallel (the appendix's cases 2 and 3 after
 * Corollary 5) both features may be larger. The search (cddual/search.c) derives F's neighbours
 * from (F_A, F_B), and the intersection certificate writes a point of F as a point of F_A minus
 * a point of F_B, so both need the true features, found here from a supporting vertex. */
#include <math.h>
#include <stddef.h>

#include "core/math.h"
#include "core/tolerances.h"
#include "kernel/mface.h"
#include "kernel/plane_search.h"

/* 1 when some edge at v is within HD_FEATURE_PREFILTER times the feature angle of perpendicular
 * to d: reads only v's neighbours (vert_adj, verts). A face at v whose normal is d to within the
 * angle has two such edges (an edge of the face is perpendicular to its normal), so without one the
 * supporting feature is the vertex: the usual case, settled without the edge and face arrays
 * (cold in memory for a one-off query). */
static int has_flat_edge(const hd_polytope *p, int v, const double d[3], double dd)
{
    const double tol2 =
        HD_FEATURE_PREFILTER * HD_FEATURE_ANGLE * HD_FEATURE_PREFILTER * HD_FEATURE_ANGLE;
    for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
        double w[3];
        hdi_v3_sub(w, p->verts + 3 * p->vert_adj[k], p->verts + 3 * v);
        double dw = hdi_v3_dot(d, w);
        if (!(dw * dw > tol2 * dd * hdi_v3_len2(w))) {
            return 1;
        }
    }
    return 0;
}

/* The full test of hdi_feature_support, every edge and face at v. */
static hdi_feature feature_full(const hd_polytope *p, int v, const double d[3], double dd)
{
    hdi_feature out = {HD_FEAT_VERTEX, v};
    const double tol2 = HD_FEATURE_ANGLE * HD_FEATURE_ANGLE;
    double best_face = 0.0, best_edge = HUGE_VAL;
    for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
        int e = p->vert_edges[k];
        /* every face of v is the left face of exactly one edge leaving v (a polygon's two faces
         * are the left faces of its two edges at v): each face is looked at once */
        int f = p->edge_verts[2 * e] == v ? p->edge_faces[2 * e] : p->edge_faces[2 * e + 1];
        if (f >= 0) {
            /* face f supports in direction d when its unit normal is d: |n x d|^2 <= tol^2 |d|^2,
             * after a cheap filter on n.d (within 1e-3 rad) */
            const double *n = p->face_normal + 3 * f;
            double dot = hdi_v3_dot(n, d);
            if (dot > best_face && dot * dot >= (1.0 - HD_FEATURE_COS2_FILTER) * dd) {
                double cr[3];
                hdi_v3_cross(cr, n, d);
                if (hdi_v3_len2(cr) <= tol2 * dd) {
                    best_face = dot;
                    out.kind = HD_FEAT_FACE;
                    out.index = f;
                }
            }
        }
        if (out.kind == HD_FEAT_FACE) {
            continue;
        }
        /* edge (v, w) perpendicular to d: (d.(w - v))^2 <= tol^2 |d|^2 |w - v|^2 */
        double w[3];
        hdi_v3_sub(w, p->verts + 3 * p->vert_adj[k], p->verts + 3 * v);
        double dw = hdi_v3_dot(d, w);
        double s = dw * dw / (dd * hdi_v3_len2(w));
        if (s <= tol2 && s < best_edge) {
            best_edge = s;
            out.kind = HD_FEAT_EDGE;
            out.index = e;
        }
    }
    return out;
}

hdi_feature hdi_feature_support(const hd_polytope *p, int v, const double d[3])
{
    hdi_feature out = {HD_FEAT_VERTEX, v};
    double dd = hdi_v3_len2(d);
    if (!(dd > 0.0) || !has_flat_edge(p, v, d, dd)) {
        return out;
    }
    return feature_full(p, v, d, dd);
}

/* An EE face's edge is perpendicular to its normal by construction: no pre-filter. */
static hdi_feature feature_of_edge_side(const hd_polytope *p, int v, const double d[3])
{
    hdi_feature out = {HD_FEAT_VERTEX, v};
    double dd = hdi_v3_len2(d);
    return dd > 0.0 ? feature_full(p, v, d, dd) : out;
}

void hdi_mface_features(const hdi_pair *pair, const hdi_mface *m, hdi_feature *fa, hdi_feature *fb)
{
    double nb[3], neg[3];
    hdi_v3_neg(neg, m->n);
    hdi_pair_dir_to_b(pair, neg, nb);
    switch (m->kind) {
        case HD_FACE_FV:
            fa->kind = HD_FEAT_FACE;
            fa->index = m->fa;
            *fb = hdi_feature_support(pair->b, m->sb, nb);
            break;
        case HD_FACE_VF:
            *fa = hdi_feature_support(pair->a, m->sa, m->n);
            fb->kind = HD_FEAT_FACE;
            fb->index = m->fb;
            break;
        default:
            /* the edges themselves are on the face whatever the rounding of n says */
            *fa = feature_of_edge_side(pair->a, m->sa, m->n);
            *fb = feature_of_edge_side(pair->b, m->sb, nb);
            if (fa->kind == HD_FEAT_VERTEX) {
                fa->kind = HD_FEAT_EDGE;
                fa->index = m->fa;
            }
            if (fb->kind == HD_FEAT_VERTEX) {
                fb->kind = HD_FEAT_EDGE;
                fb->index = m->fb;
            }
            break;
    }
}

int hdi_feature_vertex_count(const hd_polytope *p, hdi_feature f)
{
    switch (f.kind) {
        case HD_FEAT_VERTEX:
            return 1;
        case HD_FEAT_EDGE:
            return 2;
        default:
            return p->face_offset[f.index + 1] - p->face_offset[f.index];
    }
}

int hdi_feature_vertex(const hd_polytope *p, hdi_feature f, int i)
{
    switch (f.kind) {
        case HD_FEAT_VERTEX:
            return f.index;
        case HD_FEAT_EDGE:
            return p->edge_verts[2 * f.index + i];
        default:
            return p->face_verts[p->face_offset[f.index] + i];
    }
}

int hdi_feature_edge_count(const hd_polytope *p, hdi_feature f)
{
    switch (f.kind) {
        case HD_FEAT_VERTEX:
            return 0;
        case HD_FEAT_EDGE:
            return 1;
        default:
            return p->face_offset[f.index + 1] - p->face_offset[f.index];
    }
}

int hdi_feature_edge(const hd_polytope *p, hdi_feature f, int i)
{
    return f.kind == HD_FEAT_EDGE ? f.index : p->face_edges[p->face_offset[f.index] + i];
}

/* Location of x on F = F_A + (-F_B): a point y of F_A and a point z of F_B with y - z = x is a
 * common point of F_A and F_B + x, i.e. the origin in the convex set F_A - F_B - x. That set lies
 * in the plane of F (up to rounding), so the planar simplex search (kernel/plane_search.h) on its
 * support mapping S(d) = S_FA(d) - S_FB(-d) - x, by scanning the features' vertices, finds a
 * triangle of its support points around the origin: y and z are the same convex combination of the
 * A and the B vertices of those support points (three of each at most). When x lies outside F (it
 * should not, up to rounding) the search returns the nearest point of F instead, and the
 * returned error says how far it is. */
typedef struct hdi_locate_ctx {
    const hdi_pair *pair;
    hdi_feature fa;
    hdi_feature fb;
    const double *x;
} hdi_locate_ctx;

static int feature_argmax(const hd_polytope *p, hdi_feature f, const double d[3])
{
    int best = hdi_feature_vertex(p, f, 0);
    double bv = hdi_v3_dot(p->verts + 3 * best, d);
    int m = hdi_feature_vertex_count(p, f);
    for (int i = 1; i < m; ++i) {
        int v = hdi_feature_vertex(p, f, i);
        double x = hdi_v3_dot(p->verts + 3 * v, d);
        if (x > bv) {
            bv = x;
            best = v;
        }
    }
    return best;
}

static void locate_support(void *ctx, const double d[3], double w[3], int *ia, int *ib)
{
    const hdi_locate_ctx *lc = ctx;
    double neg[3], nb[3], pb[3];
    hdi_v3_neg(neg, d);
    hdi_pair_dir_to_b(lc->pair, neg, nb);
    *ia = feature_argmax(lc->pair->a, lc->fa, d);
    *ib = feature_argmax(lc->pair->b, lc->fb, nb);
    hdi_pair_b_vertex(lc->pair, *ib, pb);
    hdi_v3_sub(w, lc->pair->a->verts + 3 * *ia, pb);
    hdi_v3_sub(w, w, lc->x);
}

double hdi_mface_locate(const hdi_pair *pair, const double n[3], hdi_feature fa, hdi_feature fb,
                        const double x[3], hdi_comb3 *y, hdi_comb3 *z)
{
    hdi_locate_ctx lc = {pair, fa, fb, x};
    double e1[3], e2[3];
    hdi_plane_basis(n, e1, e2);
    hdi_plane_result pr;
    int cap = 64 + hdi_feature_vertex_count(pair->a, fa) + hdi_feature_vertex_count(pair->b, fb);
    if (hdi_plane_search(e1, e2, locate_support, &lc, HUGE_VAL, cap, &pr) != HD_OK) {
        return HUGE_VAL;
    }
    double p[3] = {0, 0, 0}, q[3] = {0, 0, 0}, d[3];
    y->count = z->count = pr.count;
    for (int i = 0; i < pr.count; ++i) {
        double pb[3];
        y->index[i] = pr.ia[i];
        y->weight[i] = pr.lambda[i];
        z->index[i] = pr.ib[i];
        z->weight[i] = pr.lambda[i];
        hdi_pair_b_vertex(pair, pr.ib[i], pb);
        hdi_v3_madd(p, p, pr.lambda[i], pair->a->verts + 3 * pr.ia[i]);
        hdi_v3_madd(q, q, pr.lambda[i], pb);
    }
    hdi_v3_sub(d, p, q);
    hdi_v3_sub(d, d, x);
    return hdi_v3_len(d);
}
