/* Faces of the Minkowski difference M = A - B (CD-Dual, section 2.1) and the arc-intersection test
 * on the Gaussian sphere (section 4.3), in A's frame, shared by CD-Dual's searches (cddual/) and
 * the contact queries (contact/). Each face is its plane n.x = h_M(n), with h_M(n) = h_A(n) +
 * h_B(-n) the support value of M along the unit n. */
#include <stddef.h>

#include "core/math.h"
#include "core/tolerances.h"
#include "kernel/mface.h"
#include "kernel/simplex_robust.h"

/* FV (face f of A): n = n_f, h_A(n) the stored face offset, h_B(-n) = -min_B n.b at B's supporting
 * vertex (hill climbing). */
void hdi_mface_fv(const hdi_pair *pair, int f, int *start_b, hd_stats *stats, hdi_mface *out)
{
    const hd_polytope *a = pair->a;
    const double *n = a->face_normal + 3 * f;
    double neg[3], bv[3];
    hdi_v3_neg(neg, n);
    int v = hdi_pair_support_b(pair, neg, start_b, stats);
    hdi_pair_b_vertex(pair, v, bv);
    out->kind = HD_FACE_FV;
    out->fa = f;
    out->fb = v;
    out->sa = a->face_verts[a->face_offset[f]];
    out->sb = v;
    hdi_v3_copy(out->n, n);
    out->h = a->face_dist[f] - hdi_v3_dot(n, bv);
}

/* VF (face g of B): -B's face has outward normal n = -R n_g in A's frame; h_B(-n) = max_B (R n_g).b
 * = offset_g + (R n_g).t for B's points x_A = R x_B + t; h_A(n) at A's supporting vertex. */
void hdi_mface_vf(const hdi_pair *pair, int g, int *start_a, hd_stats *stats, hdi_mface *out)
{
    const hd_polytope *b = pair->b;
    double m[3], n[3];
    hdi_m3_mul_v(m, pair->r, b->face_normal + 3 * g);
    hdi_v3_neg(n, m);
    int u = hdi_pair_support_a(pair, n, start_a, stats);
    out->kind = HD_FACE_VF;
    out->fa = u;
    out->fb = g;
    out->sa = u;
    out->sb = b->face_verts[b->face_offset[g]];
    hdi_v3_copy(out->n, n);
    out->h = hdi_v3_dot(n, pair->a->verts + 3 * u) + b->face_dist[g] + hdi_v3_dot(m, pair->t);
}

/* The Gaussian image of an edge as seen in M (section 2.1, Remark 1). Its points are the unit
 * normals of the planes that touch the polytope along the edge:
 *   solid (dimension 3): the great arc from the normal of the edge's left face to that of its
 *     right face, shorter than 180 degrees; its plane's normal is the edge direction
 *     d = v1 - v0, a positive multiple of n_left x n_right (the left face runs v0 -> v1
 *     counter-clockwise: its outward in-face normal is d x n_left, towards which n_right leans);
 *   polygon (dimension 2): the half great circle from +n to -n (n the polygon's normal) through
 *     the edge's outward in-plane direction d x n (the vertices run counter-clockwise about n);
 *   segment (dimension 1): the whole great circle perpendicular to the segment.
 * For -B every normal is negated, which keeps d a positive multiple of n_left x n_right. */
typedef enum hdi_arc_kind { HD_ARC_SHORT, HD_ARC_HALF, HD_ARC_FULL } hdi_arc_kind;

static hdi_arc_kind arc_kind(const hd_polytope *p)
{
    return p->dim == 3 ? HD_ARC_SHORT : (p->dim == 2 ? HD_ARC_HALF : HD_ARC_FULL);
}

/* Which of x and -x lie on the arc of edge e of polytope p (bit 0: +x, bit 1: -x), everything in
 * p's own frame; sign = -1 for -B (negated normals). q is the other arc's direction and, for a
 * SHORT arc, x must be d x q with d this edge's direction.
 * For a SHORT arc from a to b with d = a x b (up to a positive factor), a point X of its great
 * circle is alpha a + beta b with alpha, beta >= 0 iff (a x X).d >= 0 and (X x b).d >= 0. With
 * X = d x q and a.d = b.d = 0:
 *     (a x X).d = |d|^2 (q.a),    (X x b).d = -|d|^2 (q.b),
 * so +X lies on the arc iff q.a >= 0 >= q.b, and -X iff q.a <= 0 <= q.b: the paper's signed
 * volumes |cba|, |dba|, |adc|, |bdc| (section 4.3), two dot products per arc; the paper's third
 * condition (same hemisphere) is the requirement that one sign of X satisfy both arcs. A HALF
 * arc holds +-x on the side of its mid direction; a FULL arc holds both. Zeros count on both
 * sides (closed arcs), so an arc ending exactly on the other one is a crossing: the face it gives
 * has the plane of the FV / VF face at that end, which is also found directly. */
static unsigned arc_holds(const hd_polytope *p, int e, double sign, const double q[3],
                          const double x[3])
{
    hdi_arc_kind kind = arc_kind(p);
    if (kind == HD_ARC_FULL) {
        return 3u;
    }
    if (kind == HD_ARC_HALF) {
        double d[3], mid[3];
        hdi_v3_sub(d, p->verts + 3 * p->edge_verts[2 * e + 1], p->verts + 3 * p->edge_verts[2 * e]);
        hdi_v3_cross(mid, d, p->plane_normal);
        double s = sign * hdi_v3_dot(x, mid);
        return (s >= 0.0 ? 1u : 0u) | (s <= 0.0 ? 2u : 0u);
    }
    double sa = sign * hdi_v3_dot(q, p->face_normal + 3 * p->edge_faces[2 * e]);
    double sb = sign * hdi_v3_dot(q, p->face_normal + 3 * p->edge_faces[2 * e + 1]);
    return (sa >= 0.0 && sb <= 0.0 ? 1u : 0u) | (sa <= 0.0 && sb >= 0.0 ? 2u : 0u);
}

/* Divides v by its largest |component| (a positive factor: the direction is kept). The edge
 * directions of hdi_mface_ee are scaled so before their cross product: on edges many orders of
 * magnitude long or short (1e16 against 1e-175, say) |p x q|^2 and |p|^2 |q|^2 would otherwise
 * fall into the subnormal range or to zero, breaking both the parallel test and the unit length
 * of the normal. */
static void scale_to_unit_max(double v[3])
{
    double m = hdi_v3_max_abs(v);
    if (m > 0.0 && isfinite(m)) {
        v[0] /= m;
        v[1] /= m;
        v[2] /= m;
    }
}

/* p = the direction of A's edge e, q = that of B's edge eb in A's frame (each scaled to unit size
 * in its own frame) and x = p x q; returns |p|^2 |q|^2 (q's length taken before the rotation). */
static inline double edge_cross(const hdi_pair *pair, int e, int eb, double p[3], double q[3],
                                double x[3])
{
    const double *va = pair->a->verts, *vb = pair->b->verts;
    const int *ea = pair->a->edge_verts + 2 * e;
    const int *ebv = pair->b->edge_verts + 2 * eb;
    double qb[3];
    hdi_v3_sub(p, va + 3 * ea[1], va + 3 * ea[0]);
    hdi_v3_sub(qb, vb + 3 * ebv[1], vb + 3 * ebv[0]);
    scale_to_unit_max(p);
    scale_to_unit_max(qb);
    hdi_m3_mul_v(q, pair->r, qb);
    hdi_v3_cross(x, p, q);
    return hdi_v3_len2(p) * hdi_v3_len2(qb);
}

/* The EE face of edges e and eb along x / |x| times sign_scale (x = p x q): normal, features and
 * the support value from the four edge ends. */
static void ee_fill(const hdi_pair *pair, int e, int eb, const double x[3], double sign_scale,
                    hdi_mface *out)
{
    const hd_polytope *a = pair->a;
    const int *ea = a->edge_verts + 2 * e;
    const int *ebv = pair->b->edge_verts + 2 * eb;
    hdi_v3_scale(out->n, x, sign_scale);
    double b0[3], b1[3];
    hdi_pair_b_vertex(pair, ebv[0], b0);
    hdi_pair_b_vertex(pair, ebv[1], b1);
    double ha0 = hdi_v3_dot(out->n, a->verts + 3 * ea[0]);
    double ha1 = hdi_v3_dot(out->n, a->verts + 3 * ea[1]);
    double hb0 = hdi_v3_dot(out->n, b0);
    double hb1 = hdi_v3_dot(out->n, b1);
    out->kind = HD_FACE_EE;
    out->fa = e;
    out->fb = eb;
    out->sa = ha0 >= ha1 ? ea[0] : ea[1];
    out->sb = hb0 <= hb1 ? ebv[0] : ebv[1];
    out->h = (ha0 >= ha1 ? ha0 : ha1) - (hb0 <= hb1 ? hb0 : hb1);
}

/* EE face (section 2.1): the arcs A(e) of A and A(e') of -B cross at the unit normal n of the
 * parallelogram e + (-e'), n = +-(p x q) / |p x q| with p, q the edge directions in A's frame.
 * B's arc is tested in B's frame, with p rotated there: B's own normals need no rotation.
 * From -B's side the cross product is q x p = -X: its bits are swapped (SHORT arcs; HALF and FULL
 * arcs test the vector they are given, here -X as well, so the swap applies to every kind).
 * With axes set (hdi_mface_ee_axes), a nearly parallel pair whose arcs do not cross gives both
 * axes +-x instead of none. */
static inline int ee_faces(const hdi_pair *pair, int e, int eb, int axes, hdi_mface *out)
{
    double p[3], q[3], x[3], pb[3], xb[3];
    double pq2 = edge_cross(pair, e, eb, p, q, x);
    double x2 = hdi_v3_len2(x);
    if (!(x2 > HD_PARALLEL_SINE * HD_PARALLEL_SINE * pq2)) {
        return 0;
    }
    unsigned both = 0u, on_a = arc_holds(pair->a, e, 1.0, q, x);
    if (on_a != 0u) {
        hdi_pair_dir_to_b(pair, p, pb);
        hdi_v3_neg(xb, x);
        hdi_pair_dir_to_b(pair, xb, xb);
        unsigned raw_b = arc_holds(pair->b, eb, -1.0, pb, xb);
        unsigned on_b = ((raw_b & 1u) << 1) | ((raw_b & 2u) >> 1);
        both = on_a & on_b;
    }
    if (both != 0u) {
        ee_fill(pair, e, eb, x, ((both & 1u) ? 1.0 : -1.0) / sqrt(x2), out);
        return 1;
    }
    if (!axes || x2 > HD_PLAIN_NORMAL_SINE * HD_PLAIN_NORMAL_SINE * pq2) {
        return 0;
    }
    ee_fill(pair, e, eb, x, 1.0 / sqrt(x2), out);
    ee_fill(pair, e, eb, x, -1.0 / sqrt(x2), out + 1);
    return 2;
}

int hdi_mface_ee(const hdi_pair *pair, int e, int eb, hdi_mface *out)
{
    return ee_faces(pair, e, eb, 0, out);
}

int hdi_mface_ee_axes(const hdi_pair *pair, int e, int eb, hdi_mface out[2])
{
    return ee_faces(pair, e, eb, 1, out);
}

/* The normal of face f of p (p's frame) from its widest vertex triple in double-double, oriented
 * as the stored one; 0 when the face is well shaped (the stored normal is kept). */
static int face_normal_accurate(const hd_polytope *p, int f, double n[3])
{
    int t[3];
    if (!p->face_thin[f] || !hdi_face_widest_triple(p, f, t) ||
        !hdi_triangle_unit_normal(p->verts + 3 * t[0], p->verts + 3 * t[1], p->verts + 3 * t[2],
                                  n)) {
        return 0;
    }
    if (hdi_v3_dot(n, p->face_normal + 3 * f) < 0.0) {
        hdi_v3_neg(n, n);
    }
    return 1;
}

/* EE: in double-double when the edges are nearly parallel (sine at most HD_PLAIN_NORMAL_SINE),
 * where the double cross product turns by about 2^-53 over the sine; FV and VF: the face's
 * normal when its face is badly shaped (face_thin). */
int hdi_mface_refine(const hdi_pair *pair, hdi_mface *m)
{
    double n[3];
    if (m->kind == HD_FACE_EE) {
        double p[3], q[3], x[3];
        double pq2 = edge_cross(pair, m->fa, m->fb, p, q, x);
        const int *ea = pair->a->edge_verts + 2 * m->fa;
        const int *eb = pair->b->edge_verts + 2 * m->fb;
        if (hdi_v3_len2(x) > HD_PLAIN_NORMAL_SINE * HD_PLAIN_NORMAL_SINE * pq2 ||
            !hdi_edge_pair_unit_normal(pair->a->verts + 3 * ea[0], pair->a->verts + 3 * ea[1],
                                       pair->b->verts + 3 * eb[0], pair->b->verts + 3 * eb[1],
                                       pair->r, n)) {
            return 0;
        }
        if (hdi_v3_dot(n, m->n) < 0.0) {
            hdi_v3_neg(n, n);
        }
    } else if (m->kind == HD_FACE_FV) {
        if (!face_normal_accurate(pair->a, m->fa, n)) {
            return 0;
        }
    } else if (m->kind == HD_FACE_VF) {
        double nb[3];
        if (!face_normal_accurate(pair->b, m->fb, nb)) {
            return 0;
        }
        hdi_m3_mul_v(n, pair->r, nb);
        hdi_v3_neg(n, n);
    } else {
        return 0;
    }
    hdi_v3_copy(m->n, n);
    return 1;
}
