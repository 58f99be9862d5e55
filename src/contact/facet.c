/* The facet of M = A - B at an approximate normal (docs/algorithms/contact.md, "Landing on the
 * facet").
 *
 * Every facet of M is FV (a face f of A with B's support vertex along -n_f), VF (a face g of B
 * with A's support vertex) or EE (an edge of A and an edge of B whose Gaussian arcs cross), CD-Dual
 * 003 section 2.1. If n0 approximates the normal of a facet F closely enough that M's support
 * vertex w = a_ia - b_ib along n0 is a vertex of F, F is among the facets through w: the FV faces
 * of the faces of A at ia, the VF faces of the faces of B at ib and the EE faces of the edge pairs
 * at (ia, ib). Each gives a supporting plane n.x = h of M, so h >= depth for every one of them and
 * the least h among them is F's. At a vertex of high degree only the HD_FACET_KEEP faces whose
 * normals are nearest to n0, and the edges nearest to perpendicular, are tried. */
#include <float.h>
#include <math.h>

#include "contact/signed_distance.h"
#include "core/math.h"

/* Faces and edges tried per vertex (the ones nearest to n0, by normal or by perpendicularity). */
#define HD_FACET_KEEP 8

/* A short list of the best-scoring indices (highest score first). */
typedef struct hdi_best_list {
    int count;
    int index[HD_FACET_KEEP];
    double score[HD_FACET_KEEP];
} hdi_best_list;

static void keep(hdi_best_list *l, int index, double score)
{
    int k = l->count < HD_FACET_KEEP ? l->count++ : HD_FACET_KEEP;
    if (k == HD_FACET_KEEP && !(score > l->score[k - 1])) {
        return;
    }
    if (k == HD_FACET_KEEP) {
        --k;
    }
    while (k > 0 && score > l->score[k - 1]) {
        l->index[k] = l->index[k - 1];
        l->score[k] = l->score[k - 1];
        --k;
    }
    l->index[k] = index;
    l->score[k] = score;
}

/* The faces of p at vertex v most aligned with d (p's frame; sign -1 for -B), and the edges at v
 * nearest to perpendicular to d. Every face of v is the left face of exactly one edge leaving v. */
static void features_at(const hd_polytope *p, int v, const double d[3], double sign,
                        hdi_best_list *faces, hdi_best_list *edges)
{
    faces->count = edges->count = 0;
    for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
        int e = p->vert_edges[k];
        int f = p->edge_verts[2 * e] == v ? p->edge_faces[2 * e] : p->edge_faces[2 * e + 1];
        if (f >= 0) {
            keep(faces, f, sign * hdi_v3_dot(p->face_normal + 3 * f, d));
        }
        double w[3];
        hdi_v3_sub(w, p->verts + 3 * p->vert_adj[k], p->verts + 3 * v);
        double len = hdi_v3_len(w);
        keep(edges, e, len > 0.0 ? -fabs(hdi_v3_dot(w, d)) / len : -DBL_MAX);
    }
}

double hdi_facet_support(const hdi_pair *pair, const double n[3], int *ia, int *ib, hd_stats *stats)
{
    double neg[3], pb[3], w[3];
    hdi_v3_neg(neg, n);
    *ia = hdi_pair_support_a(pair, n, ia, stats);
    *ib = hdi_pair_support_b(pair, neg, ib, stats);
    hdi_pair_b_vertex(pair, *ib, pb);
    /* the difference first: it is exact or nearly so when A and B are close together far from
     * the origin, where n.a and n.b each carry the rounding of large coordinates */
    hdi_v3_sub(w, pair->a->verts + 3 * *ia, pb);
    return hdi_v3_dot(n, w);
}

/* The support value h_M(n) of a facet's normal by the support mappings, the difference formed
 * before the dot product. An FV facet's B vertex is already B's support vertex along -n
 * (hdi_mface_fv asked B's mapping for it) and a VF facet's A vertex A's along n: only the other
 * side is asked, unless the normal was refined (hdi_mface_refine) since. */
static void facet_value(const hdi_pair *pair, hdi_mface *m, int refined, hd_stats *stats)
{
    double neg[3], pb[3], w[3];
    if (m->kind != HD_FACE_VF || refined) {
        m->sa = hdi_pair_support_a(pair, m->n, &m->sa, stats);
    }
    if (m->kind != HD_FACE_FV || refined) {
        hdi_v3_neg(neg, m->n);
        m->sb = hdi_pair_support_b(pair, neg, &m->sb, stats);
    }
    hdi_pair_b_vertex(pair, m->sb, pb);
    hdi_v3_sub(w, pair->a->verts + 3 * m->sa, pb);
    m->h = hdi_v3_dot(m->n, w);
}

void hdi_facet_consider(const hdi_pair *pair, hdi_mface *m, hdi_mface *best, int *found,
                        hd_stats *stats)
{
    int refined = hdi_mface_refine(pair, m);
    if (*found && !refined && m->h >= best->h) {
        return;
    }
    facet_value(pair, m, refined, stats);
    if (!*found || m->h < best->h) {
        *best = *m;
        *found = 1;
    }
}

int hdi_facet_at_vertex(const hdi_pair *pair, int ia, int ib, const double n0[3], hd_stats *stats,
                        hdi_mface *out)
{
    double n0b[3];
    hdi_pair_dir_to_b(pair, n0, n0b);
    hdi_best_list fa, ea, fb, eb;
    features_at(pair->a, ia, n0, 1.0, &fa, &ea);
    features_at(pair->b, ib, n0b, -1.0, &fb, &eb);
    hdi_mface m;
    int found = 0, start_a = ia, start_b = ib;
    for (int i = 0; i < fa.count; ++i) {
        hdi_mface_fv(pair, fa.index[i], &start_b, stats, &m);
        hdi_facet_consider(pair, &m, out, &found, stats);
    }
    for (int j = 0; j < fb.count; ++j) {
        hdi_mface_vf(pair, fb.index[j], &start_a, stats, &m);
        hdi_facet_consider(pair, &m, out, &found, stats);
    }
    for (int i = 0; i < ea.count; ++i) {
        for (int j = 0; j < eb.count; ++j) {
            if (hdi_mface_ee(pair, ea.index[i], eb.index[j], &m)) {
                hdi_facet_consider(pair, &m, out, &found, stats);
            }
        }
    }
    return found;
}

/* The distinct values among v[0..2], in out; returns their number. */
static int distinct3(const int v[3], int out[3])
{
    int n = 0;
    for (int k = 0; k < 3; ++k) {
        if ((n < 1 || out[0] != v[k]) && (n < 2 || out[1] != v[k])) {
            out[n++] = v[k];
        }
    }
    return n;
}

static int face_holds(const hd_polytope *p, int f, int v)
{
    for (int k = p->face_offset[f]; k < p->face_offset[f + 1]; ++k) {
        if (p->face_verts[k] == v) {
            return 1;
        }
    }
    return 0;
}

/* The face left of the edge at slot k of vertex v's adjacency (every face of v is the left face
 * of exactly one edge leaving v), or -1. */
static int left_face(const hd_polytope *p, int v, int k)
{
    int e = p->vert_edges[k];
    return p->edge_verts[2 * e] == v ? p->edge_faces[2 * e] : p->edge_faces[2 * e + 1];
}

/* A face at v holding v, v1 and v2 when both are v's neighbours: the left face of v -> v1 or of
 * v -> v2 (a face holding three vertices two of which are neighbours of the third has one of
 * those edges as a side). Reads v's adjacency and two edges, not every edge at v. -1: not found
 * this way. */
static int face_of_neighbours(const hd_polytope *p, int v, int v1, int v2)
{
    int k1 = -1, k2 = -1;
    for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
        k1 = p->vert_adj[k] == v1 ? k : k1;
        k2 = p->vert_adj[k] == v2 ? k : k2;
    }
    for (int i = 0; i < 2 && k1 >= 0 && k2 >= 0; ++i) {
        int g = left_face(p, v, i == 0 ? k1 : k2);
        if (g >= 0 && face_holds(p, g, v1) && face_holds(p, g, v2)) {
            return g;
        }
    }
    return -1;
}

/* The smallest feature of p holding the vertices vs[0..count-1]: the vertex, the edge joining
 * two, or a face at vs[0] holding all of them (the lowest index); kind -1 when there is none. */
static hdi_feature feature_of(const hd_polytope *p, const int *vs, int count)
{
    hdi_feature f = {HD_FEAT_VERTEX, vs[0]};
    int v = vs[0];
    for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1] && count == 2; ++k) {
        if (p->vert_adj[k] == vs[1]) {
            f.kind = HD_FEAT_EDGE;
            f.index = p->vert_edges[k];
            return f;
        }
    }
    if (count == 1) {
        return f;
    }
    int near = count == 3 ? face_of_neighbours(p, v, vs[1], vs[2]) : -1;
    if (near >= 0) {
        f.kind = HD_FEAT_FACE;
        f.index = near;
        return f;
    }
    for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
        int g = left_face(p, v, k);
        int all = g >= 0;
        for (int j = 1; j < count && all; ++j) {
            all = face_holds(p, g, vs[j]);
        }
        if (all) {
            f.kind = HD_FEAT_FACE;
            f.index = g;
            return f;
        }
    }
    f.kind = (hdi_feat_kind)-1;
    return f;
}

int hdi_facet_of_triangle(const hdi_pair *pair, const int ia[3], const int ib[3], hd_stats *stats,
                          hdi_mface *out)
{
    int va[3], vb[3];
    int na = distinct3(ia, va), nb = distinct3(ib, vb);
    hdi_feature fa = feature_of(pair->a, va, na), fb = feature_of(pair->b, vb, nb);
    int start_a = ia[0], start_b = ib[0];
    if (fa.kind == HD_FEAT_FACE) {
        hdi_mface_fv(pair, fa.index, &start_b, stats, out);
    } else if (fb.kind == HD_FEAT_FACE) {
        hdi_mface_vf(pair, fb.index, &start_a, stats, out);
    } else if (fa.kind != HD_FEAT_EDGE || fb.kind != HD_FEAT_EDGE ||
               !hdi_mface_ee(pair, fa.index, fb.index, out)) {
        return 0;
    }
    facet_value(pair, out, 0, stats);
    return 1;
}

int hdi_facet_refine(const hdi_pair *pair, hdi_mface *m, hd_stats *stats)
{
    hdi_mface r = *m;
    if (!hdi_mface_refine(pair, &r)) {
        return 0;
    }
    facet_value(pair, &r, 1, stats);
    if (r.h < m->h) {
        *m = r;
    }
    return 1;
}

int hdi_facet_land(void *ctx, const int ia[3], const int ib[3], hd_stats *stats, hdi_mface *out)
{
    return hdi_facet_of_triangle(ctx, ia, ib, stats, out);
}
