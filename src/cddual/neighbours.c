/* The neighbours of a face F = F_A + (-F_B) of M, for SEARCH-EE (cddual/search.c): the faces
 * across its edges. Across e + w (e an edge of F_A, w a vertex of F_B): FV(f) with f a face of e,
 * or EE(e, e') with e' an edge of B at w; across u + e': VF(g) with g a face of e', or EE(e, e')
 * with e an edge of A at u. That is CD-Dual's Lemmas 3 and 4 plus the FV and VF faces at the ends
 * of the arcs; a few candidates more than the true neighbours are harmless (cddual.md, section 3).
 */
#include <math.h>
#include <stddef.h>

#include "cddual/internal.h"
#include "core/math.h"
#include "core/tolerances.h"

/* FV(f) for the faces f of A's edge e: the neighbours across e + w reached by rotating about e. */
static hd_status faces_of_edge_a(hdi_raysearch *rs, int e)
{
    const hd_polytope *a = rs->pair->a;
    hd_status st = HD_OK;
    int s;
    for (int side = 0; side < 2 && st == HD_OK && !rs->done; ++side) {
        int f = a->edge_faces[2 * e + side];
        if (f >= 0) {
            st = hdi_raysearch_visit(rs, hdi_key(HD_KEY_FV, f, 0), &s);
        }
    }
    return st;
}

/* VF(g) for the faces g of B's edge eb. */
static hd_status faces_of_edge_b(hdi_raysearch *rs, int eb)
{
    const hd_polytope *b = rs->pair->b;
    hd_status st = HD_OK;
    int s;
    for (int side = 0; side < 2 && st == HD_OK && !rs->done; ++side) {
        int g = b->edge_faces[2 * eb + side];
        if (g >= 0) {
            st = hdi_raysearch_visit(rs, hdi_key(HD_KEY_VF, g, 0), &s);
        }
    }
    return st;
}

/* EE(e, e') for A's edge e and every edge e' of B at vertex w. */
static hd_status pairs_at_b(hdi_raysearch *rs, int e, int w)
{
    const hd_polytope *b = rs->pair->b;
    hd_status st = HD_OK;
    int s;
    for (int k = b->vert_offset[w]; k < b->vert_offset[w + 1] && st == HD_OK && !rs->done; ++k) {
        st = hdi_raysearch_visit(rs, hdi_key(HD_KEY_EE, e, b->vert_edges[k]), &s);
    }
    return st;
}

/* EE(e, e') for every edge e of A at vertex u and B's edge eb. */
static hd_status pairs_at_a(hdi_raysearch *rs, int u, int eb)
{
    const hd_polytope *a = rs->pair->a;
    hd_status st = HD_OK;
    int s;
    for (int k = a->vert_offset[u]; k < a->vert_offset[u + 1] && st == HD_OK && !rs->done; ++k) {
        st = hdi_raysearch_visit(rs, hdi_key(HD_KEY_EE, a->vert_edges[k], eb), &s);
    }
    return st;
}

/* Position in face f's loop of the vertex minimising d.v, by climbing along the loop from
 * position `from` (a convex polygon's values along its loop are unimodal); with the loop
 * neighbours tied with it (an edge perpendicular to d, to the features' angle tolerance) in
 * out[0..return). */
static int loop_min(const hd_polytope *p, int f, const double d[3], int *from, int out[3])
{
    const int *loop = p->face_verts + p->face_offset[f];
    int m = p->face_offset[f + 1] - p->face_offset[f];
    int i = *from;
    double vi = hdi_v3_dot(d, p->verts + 3 * loop[i]);
    for (int steps = 0; steps < m; ++steps) {
        int nx = (i + 1) % m, pv = (i + m - 1) % m;
        double vn = hdi_v3_dot(d, p->verts + 3 * loop[nx]);
        double vp = hdi_v3_dot(d, p->verts + 3 * loop[pv]);
        if (vn < vi && vn <= vp) {
            i = nx;
            vi = vn;
        } else if (vp < vi) {
            i = pv;
            vi = vp;
        } else {
            break;
        }
    }
    *from = i;
    int n = 0;
    out[n++] = loop[i];
    double dl = hdi_v3_len(d);
    for (int side = -1; side <= 1; side += 2) {
        int j = (i + m + side) % m;
        double w[3];
        hdi_v3_sub(w, p->verts + 3 * loop[j], p->verts + 3 * loop[i]);
        if (j != i && fabs(hdi_v3_dot(d, w)) <= HD_FEATURE_ANGLE * dl * hdi_v3_len(w)) {
            out[n++] = loop[j];
        }
    }
    return n;
}

/* Neighbours of F = f + (-g) for a face f of A parallel to a face g of B (the appendix's case 3):
 * F is the planar Minkowski sum of two polygons, whose edges are each edge e of f plus the vertex
 * of -g extreme along e's outward normal (the vertex w of g minimising u_e.w), and each edge of
 * -g plus the extreme vertex of f. Only those pairs are tried (ties included), in O(|f| + |g|)
 * climbing steps instead of every edge of f against every vertex of g. */
static hd_status expand_face_face(hdi_raysearch *rs, int f, int g)
{
    const hdi_pair *pair = rs->pair;
    const hd_polytope *a = pair->a, *b = pair->b;
    const double *nf = a->face_normal + 3 * f, *ng = b->face_normal + 3 * g;
    hd_status st = HD_OK;
    int pos = 0, ext[3];
    for (int k = a->face_offset[f]; k < a->face_offset[f + 1] && st == HD_OK && !rs->done; ++k) {
        int e = a->face_edges[k];
        int next = k + 1 < a->face_offset[f + 1] ? k + 1 : a->face_offset[f];
        double d[3], u[3], ub[3];
        hdi_v3_sub(d, a->verts + 3 * a->face_verts[next], a->verts + 3 * a->face_verts[k]);
        hdi_v3_cross(u, d, nf); /* outward in f's plane: the loop is counter-clockwise */
        hdi_pair_dir_to_b(pair, u, ub);
        int n = loop_min(b, g, ub, &pos, ext);
        st = faces_of_edge_a(rs, e);
        for (int j = 0; j < n && st == HD_OK && !rs->done; ++j) {
            st = pairs_at_b(rs, e, ext[j]);
        }
    }
    pos = 0;
    for (int k = b->face_offset[g]; k < b->face_offset[g + 1] && st == HD_OK && !rs->done; ++k) {
        int eb = b->face_edges[k];
        int next = k + 1 < b->face_offset[g + 1] ? k + 1 : b->face_offset[g];
        double d[3], u[3], ua[3];
        hdi_v3_sub(d, b->verts + 3 * b->face_verts[next], b->verts + 3 * b->face_verts[k]);
        hdi_v3_cross(u, d, ng); /* outward of g; -g's edge points the other way, so f's vertex */
        hdi_m3_mul_v(ua, pair->r, u); /* maximising -u.v is the one minimising u.v */
        int n = loop_min(a, f, ua, &pos, ext);
        st = faces_of_edge_b(rs, eb);
        for (int i = 0; i < n && st == HD_OK && !rs->done; ++i) {
            st = pairs_at_a(rs, ext[i], eb);
        }
    }
    return st;
}

/* The same faces f and g when they are parallel only to the features' angle tolerance
 * (HD_FEATURE_ANGLE), not exactly: M then has no face f + (-g) but the face FV(f) at B's support
 * vertex w along -n_f and VF(g) at A's support vertex u, a tilt apart, with EE faces between
 * them that the planar sum does not list (boxes stacked with a tilt of 6e-10: the ray of hd_gap
 * stopped on FV(f), its exit facet EE(e, e') at w unvisited, and the travel came out 0 instead of
 * 1e-10 on a pair 70 eps apart). Their neighbours at w and u, as for FV(f) and VF(g) alone. */
static hd_status expand_near_parallel(hdi_raysearch *rs, int f, int g)
{
    const hd_polytope *a = rs->pair->a, *b = rs->pair->b;
    int start_a = rs->start_a, start_b = rs->start_b;
    hdi_mface fv, vf;
    hdi_mface_fv(rs->pair, f, &start_b, rs->stats, &fv);
    hdi_mface_vf(rs->pair, g, &start_a, rs->stats, &vf);
    hd_status st = HD_OK;
    for (int k = a->face_offset[f]; k < a->face_offset[f + 1] && st == HD_OK && !rs->done; ++k) {
        st = pairs_at_b(rs, a->face_edges[k], fv.sb);
    }
    for (int k = b->face_offset[g]; k < b->face_offset[g + 1] && st == HD_OK && !rs->done; ++k) {
        st = pairs_at_a(rs, vf.sa, b->face_edges[k]);
    }
    return st;
}

/* Whether faces f of A and g of B are antiparallel to rounding (HD_FACES_PARALLEL_SINE). */
static int faces_parallel(const hdi_pair *pair, int f, int g)
{
    double m[3], x[3];
    hdi_m3_mul_v(m, pair->r, pair->b->face_normal + 3 * g);
    hdi_v3_cross(x, pair->a->face_normal + 3 * f, m);
    return hdi_v3_len2(x) <= HD_FACES_PARALLEL_SINE * HD_FACES_PARALLEL_SINE;
}

static int same_feature(hdi_feature x, hdi_feature y)
{
    return x.kind == y.kind && x.index == y.index;
}

/* The neighbours depend only on (F_A, F_B), and a face of M with a face among its features has
 * many representations tied with it (FV(f), VF(g), EE pairs of their edges: up to |f| |g|), each
 * of which would list the same neighbours again. Their expansion is done once, on the entry of
 * FV(F_A) (F_A a face) or VF(F_B): *skip = 1 when that entry, with the same features, is already
 * expanded; otherwise it is marked. */
static hd_status owner_expanded(hdi_raysearch *rs, int slot, hdi_feature fa, hdi_feature fb,
                                int *skip)
{
    hdi_facemap *map = rs->map;
    *skip = 0;
    if (fa.kind != HD_FEAT_FACE && fb.kind != HD_FEAT_FACE) {
        return HD_OK;
    }
    uint64_t key =
        fa.kind == HD_FEAT_FACE ? hdi_key(HD_KEY_FV, fa.index, 0) : hdi_key(HD_KEY_VF, fb.index, 0);
    int owner;
    hd_status st = hdi_raysearch_visit(rs, key, &owner);
    if (st != HD_OK || rs->done || owner == slot || !(map->flags[owner] & HD_FACEMAP_FACE)) {
        return st;
    }
    hdi_mface m;
    hdi_feature oa, ob;
    hdi_mface_of_key(rs->pair, key, map->aux[owner], &m);
    hdi_mface_features(rs->pair, &m, &oa, &ob);
    if (same_feature(oa, fa) && same_feature(ob, fb)) {
        *skip = (map->flags[owner] & HD_FACEMAP_EXPANDED) != 0;
        map->flags[owner] |= HD_FACEMAP_EXPANDED;
    }
    return HD_OK;
}

hd_status hdi_raysearch_expand(hdi_raysearch *rs, int slot)
{
    const hdi_pair *pair = rs->pair;
    const hd_polytope *a = pair->a, *b = pair->b;
    hdi_facemap *map = rs->map;
    map->flags[slot] |= HD_FACEMAP_EXPANDED;
    hdi_mface m;
    if (!hdi_mface_of_key(pair, map->keys[slot], map->aux[slot], &m)) {
        return HD_OK;
    }
    hdi_feature fa, fb;
    hdi_mface_features(pair, &m, &fa, &fb);
    int skip;
    hd_status st = owner_expanded(rs, slot, fa, fb, &skip);
    if (st != HD_OK || rs->done || skip) {
        return st;
    }
    if (fa.kind == HD_FEAT_FACE && fb.kind == HD_FEAT_FACE) {
        st = expand_face_face(rs, fa.index, fb.index);
        if (st != HD_OK || rs->done || faces_parallel(pair, fa.index, fb.index)) {
            return st;
        }
        return expand_near_parallel(rs, fa.index, fb.index);
    }
    /* across e + w (e of F_A, w of F_B) and across u + e' (u of F_A, e' of F_B); both loops are
     * linear in the features' sizes since at most one of them is a face here */
    for (int i = 0; i < hdi_feature_edge_count(a, fa) && st == HD_OK && !rs->done; ++i) {
        int e = hdi_feature_edge(a, fa, i);
        st = faces_of_edge_a(rs, e);
        for (int j = 0; j < hdi_feature_vertex_count(b, fb) && st == HD_OK && !rs->done; ++j) {
            st = pairs_at_b(rs, e, hdi_feature_vertex(b, fb, j));
        }
    }
    for (int j = 0; j < hdi_feature_edge_count(b, fb) && st == HD_OK && !rs->done; ++j) {
        int eb = hdi_feature_edge(b, fb, j);
        st = faces_of_edge_b(rs, eb);
        for (int i = 0; i < hdi_feature_vertex_count(a, fa) && st == HD_OK && !rs->done; ++i) {
            st = pairs_at_a(rs, hdi_feature_vertex(a, fa, i), eb);
        }
    }
    return st;
}
