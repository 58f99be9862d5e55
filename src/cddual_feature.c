/* Supporting features of A and B behind a face of M, and the location of a point on that face.
 *
 * A face of M with outward normal n is F = F_A + (-F_B), where F_A is the feature of A on which
 * n.a is largest and F_B the feature of B on which n.b is smallest (section 2.1). In general
 * position one of them is a face and the other a vertex (FV, VF) or both are edges (EE); when an
 * edge is parallel to a face or two faces are parallel (the appendix's cases 2 and 3 after
 * Corollary 5) both features may be larger. The search (cddual_search.c) derives F's neighbours
 * from (F_A, F_B), and the intersection certificate writes a point of F as a point of F_A minus
 * a point of F_B, so both need the true features, found here from a supporting vertex. */
#include <math.h>
#include <stddef.h>

#include "cddual_internal.h"
#include "hd_math.h"

/* Angular tolerance (radians) of "this face's normal is d" and "this edge is perpendicular to
 * d". Rounding makes exactly parallel features differ by a few 1e-16; 1e-9 leaves a wide margin
 * and only widens features that are parallel to within 1e-9, which costs a few more candidates
 * (a superset of the true neighbours is harmless, see hd_feature_support in the header). */
#define HD_FEATURE_ANGLE 1e-9

hd_feature hd_feature_support(const hd_polytope *p, int v, const double d[3])
{
    hd_feature out = {HD_FEAT_VERTEX, v};
    double dl = hd_v3_len(d);
    if (!(dl > 0.0)) {
        return out;
    }
    double best_face = -1.0, best_edge = HUGE_VAL;
    for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
        int e = p->vert_edges[k];
        for (int side = 0; side < 2; ++side) {
            int f = p->edge_faces[2 * e + side];
            if (f < 0) {
                continue;
            }
            /* face f supports in direction d when its normal is d: |n x d| <= angle |d| */
            const double *n = p->face_normal + 3 * f;
            double cr[3];
            hd_v3_cross(cr, n, d);
            double dot = hd_v3_dot(n, d);
            if (dot > 0.0 && hd_v3_len(cr) <= HD_FEATURE_ANGLE * dl && dot > best_face) {
                best_face = dot;
                out.kind = HD_FEAT_FACE;
                out.index = f;
            }
        }
        if (out.kind == HD_FEAT_FACE) {
            continue;
        }
        /* edge (v, w) perpendicular to d: |d.(w - v)| <= angle |d| |w - v| */
        double w[3];
        hd_v3_sub(w, p->verts + 3 * p->vert_adj[k], p->verts + 3 * v);
        double s = fabs(hd_v3_dot(d, w)) / (dl * hd_v3_len(w));
        if (s <= HD_FEATURE_ANGLE && s < best_edge) {
            best_edge = s;
            out.kind = HD_FEAT_EDGE;
            out.index = e;
        }
    }
    return out;
}

void hd_mface_features(const hd_pair *pair, const hd_mface *m, hd_feature *fa, hd_feature *fb)
{
    double nb[3], neg[3];
    hd_v3_neg(neg, m->n);
    hd_pair_dir_to_b(pair, neg, nb);
    switch (m->kind) {
    case HD_FACE_FV:
        fa->kind = HD_FEAT_FACE;
        fa->index = m->fa;
        *fb = hd_feature_support(pair->b, m->sb, nb);
        break;
    case HD_FACE_VF:
        *fa = hd_feature_support(pair->a, m->sa, m->n);
        fb->kind = HD_FEAT_FACE;
        fb->index = m->fb;
        break;
    default:
        /* the edges themselves are on the face whatever the rounding of n says */
        *fa = hd_feature_support(pair->a, m->sa, m->n);
        *fb = hd_feature_support(pair->b, m->sb, nb);
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

int hd_feature_vertex_count(const hd_polytope *p, hd_feature f)
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

int hd_feature_vertex(const hd_polytope *p, hd_feature f, int i)
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

int hd_feature_edge_count(const hd_polytope *p, hd_feature f)
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

int hd_feature_edge(const hd_polytope *p, hd_feature f, int i)
{
    return f.kind == HD_FEAT_EDGE ? f.index : p->face_edges[p->face_offset[f.index] + i];
}

/* Closest point of triangle (a, b, c) to p, as barycentric weights w (Ericson, Real-Time
 * Collision Detection, 5.1.5, derived from the Voronoi regions): with ab = b - a, ac = c - a,
 * ap = p - a, the point lies in a's vertex region when ab.ap <= 0 and ac.ap <= 0, in edge ab's
 * region when the barycentric weight of c, (ab.ab)(ac.ap) - (ab.ac)(ab.ap) / ..., is <= 0 while
 * the projection onto ab falls inside it, and so on for every vertex and edge; otherwise the
 * projection onto the plane is inside with weights proportional to the sub-areas va, vb, vc.
 * Returns the squared distance. A degenerate triangle falls into one of its edges' regions. */
static double closest_on_triangle(const double p[3], const double a[3], const double b[3],
                                  const double c[3], double w[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3], q[3];
    hd_v3_sub(ab, b, a);
    hd_v3_sub(ac, c, a);
    hd_v3_sub(ap, p, a);
    double d1 = hd_v3_dot(ab, ap), d2 = hd_v3_dot(ac, ap);
    hd_v3_sub(bp, p, b);
    double d3 = hd_v3_dot(ab, bp), d4 = hd_v3_dot(ac, bp);
    hd_v3_sub(cp, p, c);
    double d5 = hd_v3_dot(ab, cp), d6 = hd_v3_dot(ac, cp);
    double va = d3 * d6 - d5 * d4, vb = d5 * d2 - d1 * d6, vc = d1 * d4 - d3 * d2;
    if (d1 <= 0.0 && d2 <= 0.0) {
        hd_v3_set(w, 1, 0, 0);
    } else if (d3 >= 0.0 && d4 <= d3) {
        hd_v3_set(w, 0, 1, 0);
    } else if (d6 >= 0.0 && d5 <= d6) {
        hd_v3_set(w, 0, 0, 1);
    } else if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        double t = d1 / (d1 - d3);
        hd_v3_set(w, 1 - t, t, 0);
    } else if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        double t = d2 / (d2 - d6);
        hd_v3_set(w, 1 - t, 0, t);
    } else if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
        double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        hd_v3_set(w, 0, 1 - t, t);
    } else {
        double s = 1.0 / (va + vb + vc);
        hd_v3_set(w, va * s, vb * s, vc * s);
    }
    for (int i = 0; i < 3; ++i) {
        q[i] = w[0] * a[i] + w[1] * b[i] + w[2] * c[i] - p[i];
    }
    return hd_v3_len2(q);
}

/* Closest point of feature f of polytope p (its own frame) to point x: a combination of at most
 * three vertices, and the squared distance. A face is covered by the triangles of a fan from its
 * first vertex (it is convex), so the closest point over the fan is the closest on the face. */
static double closest_on_feature(const hd_polytope *p, hd_feature f, const double x[3],
                                 hd_comb3 *out)
{
    int m = hd_feature_vertex_count(p, f);
    int v0 = hd_feature_vertex(p, f, 0);
    const double *a = p->verts + 3 * v0;
    if (m == 1) {
        out->count = 1;
        out->index[0] = v0;
        out->weight[0] = 1.0;
        double d[3];
        hd_v3_sub(d, x, a);
        return hd_v3_len2(d);
    }
    double best = HUGE_VAL;
    /* a segment is the degenerate triangle (v0, v1, v1) */
    int last = m == 2 ? 1 : m - 2;
    for (int k = 1; k <= last; ++k) {
        int v1 = hd_feature_vertex(p, f, k), v2 = hd_feature_vertex(p, f, m == 2 ? 1 : k + 1);
        double w[3];
        double d2 = closest_on_triangle(x, a, p->verts + 3 * v1, p->verts + 3 * v2, w);
        if (d2 < best) {
            best = d2;
            out->count = m == 2 ? 2 : 3;
            out->index[0] = v0;
            out->index[1] = v1;
            out->weight[0] = w[0];
            out->weight[1] = m == 2 ? w[1] + w[2] : w[1];
            if (m > 2) {
                out->index[2] = v2;
                out->weight[2] = w[2];
            }
        }
    }
    return best;
}

static void comb_single(hd_comb3 *c, int v)
{
    c->count = 1;
    c->index[0] = v;
    c->weight[0] = 1.0;
}

/* Piece e_a - e_b (a parallelogram): x = a0 + s da - b0 - t db with (s, t) in [0, 1]^2, by least
 * squares (x may sit off the plane by rounding). Outside the square the nearest point is on the
 * boundary, whose four sides are the pieces vertex - edge already tried: returns +inf then. */
static double parallelogram(const hd_pair *pair, int ea, int eb, const double x[3], hd_comb3 *y,
                            hd_comb3 *z)
{
    const hd_polytope *a = pair->a, *b = pair->b;
    int a0 = a->edge_verts[2 * ea], a1 = a->edge_verts[2 * ea + 1];
    int b0 = b->edge_verts[2 * eb], b1 = b->edge_verts[2 * eb + 1];
    double pb0[3], pb1[3], da[3], db[3], rhs[3];
    hd_pair_b_vertex(pair, b0, pb0);
    hd_pair_b_vertex(pair, b1, pb1);
    hd_v3_sub(da, a->verts + 3 * a1, a->verts + 3 * a0);
    hd_v3_sub(db, pb1, pb0);
    /* x - a0 + b0 = s da - t db */
    hd_v3_sub(rhs, x, a->verts + 3 * a0);
    hd_v3_add(rhs, rhs, pb0);
    double aa = hd_v3_dot(da, da), bb = hd_v3_dot(db, db), ab = hd_v3_dot(da, db);
    double ra = hd_v3_dot(da, rhs), rb = hd_v3_dot(db, rhs);
    double det = aa * bb - ab * ab;
    if (!(det > 0.0)) {
        return HUGE_VAL;
    }
    double s = (ra * bb - rb * ab) / det;
    double t = (ra * ab - rb * aa) / det;
    if (!(s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0)) {
        return HUGE_VAL;
    }
    double res[3];
    for (int i = 0; i < 3; ++i) {
        res[i] = s * da[i] - t * db[i] - rhs[i];
    }
    y->count = 2;
    y->index[0] = a0;
    y->index[1] = a1;
    y->weight[0] = 1.0 - s;
    y->weight[1] = s;
    z->count = 2;
    z->index[0] = b0;
    z->index[1] = b1;
    z->weight[0] = 1.0 - t;
    z->weight[1] = t;
    return hd_v3_len2(res);
}

/* The pieces of F = F_A - F_B: for each vertex w of F_B the copy F_A - w, for each vertex u of
 * F_A the copy u - F_B, and for each pair of edges the parallelogram e_A - e_B. Every point of
 * F lies in one of them (they include the cells of every mixed subdivision of the Minkowski sum
 * F_A + (-F_B)), so the nearest piece gives x's decomposition. */
double hd_mface_locate(const hd_pair *pair, hd_feature fa, hd_feature fb, const double x[3],
                       hd_comb3 *y, hd_comb3 *z)
{
    const hd_polytope *a = pair->a, *b = pair->b;
    double best = HUGE_VAL;
    hd_comb3 cy, cz;
    for (int j = 0; j < hd_feature_vertex_count(b, fb); ++j) {
        int w = hd_feature_vertex(b, fb, j);
        double pw[3], target[3];
        hd_pair_b_vertex(pair, w, pw);
        hd_v3_add(target, x, pw);
        double d2 = closest_on_feature(a, fa, target, &cy);
        if (d2 < best) {
            best = d2;
            *y = cy;
            comb_single(z, w);
        }
    }
    for (int i = 0; i < hd_feature_vertex_count(a, fa); ++i) {
        int u = hd_feature_vertex(a, fa, i);
        double target[3], local[3];
        hd_v3_sub(target, a->verts + 3 * u, x);
        hd_v3_sub(target, target, pair->t);
        hd_pair_dir_to_b(pair, target, local);
        double d2 = closest_on_feature(b, fb, local, &cz);
        if (d2 < best) {
            best = d2;
            comb_single(y, u);
            *z = cz;
        }
    }
    for (int i = 0; i < hd_feature_edge_count(a, fa); ++i) {
        for (int j = 0; j < hd_feature_edge_count(b, fb); ++j) {
            double d2 = parallelogram(pair, hd_feature_edge(a, fa, i), hd_feature_edge(b, fb, j),
                                      x, &cy, &cz);
            if (d2 < best) {
                best = d2;
                *y = cy;
                *z = cz;
            }
        }
    }
    return sqrt(best);
}
