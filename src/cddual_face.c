/* Faces of the Minkowski difference M = A - B (CD-Dual section 2.1) and the arc-intersection test
 * on the Gaussian sphere (section 4.3), in A's frame.
 *
 * Support value of M along a unit n: h_M(n) = h_A(n) + h_B(-n) with h_X the support function, so
 * the plane n.x = h_M(n) supports M, and a face of M is where this plane touches M in a polygon.
 *
 * FV (face f of A): n = n_f, h_A(n) = face offset (the polytope stores the supporting offset),
 *   h_B(-n) = -min_B n.b at B's supporting vertex (hill climbing).
 * VF (face g of B): -B's face has outward normal n = -R n_g in A's frame; h_B(-n) = max_B (R n_g).b
 *   = offset_g + (R n_g).t for B's points x_A = R x_B + t; h_A(n) at A's supporting vertex.
 * EE (edge e of A, edge e' of B): the face is the parallelogram e + (-e'); its normal is
 *   +-(d_e x d_e') where the two Gaussian-image arcs cross. */
#include <stddef.h>

#include "cddual_internal.h"
#include "hd_math.h"

void hd_mface_fv(const hd_pair *pair, int f, int *start_b, hd_stats *stats, hd_mface *out)
{
    const hd_polytope *a = pair->a;
    const double *n = a->face_normal + 3 * f;
    double neg[3], bv[3];
    hd_v3_neg(neg, n);
    int v = hd_pair_support_b(pair, neg, start_b, stats);
    hd_pair_b_vertex(pair, v, bv);
    out->kind = HD_FACE_FV;
    out->fa = f;
    out->fb = v;
    out->sa = a->face_verts[a->face_offset[f]];
    out->sb = v;
    hd_v3_copy(out->n, n);
    out->h = a->face_dist[f] - hd_v3_dot(n, bv);
}

void hd_mface_vf(const hd_pair *pair, int g, int *start_a, hd_stats *stats, hd_mface *out)
{
    const hd_polytope *b = pair->b;
    double m[3], n[3];
    hd_m3_mul_v(m, pair->r, b->face_normal + 3 * g);
    hd_v3_neg(n, m);
    int u = hd_pair_support_a(pair, n, start_a, stats);
    out->kind = HD_FACE_VF;
    out->fa = u;
    out->fb = g;
    out->sa = u;
    out->sb = b->face_verts[b->face_offset[g]];
    hd_v3_copy(out->n, n);
    out->h = hd_v3_dot(n, pair->a->verts + 3 * u) + b->face_dist[g] + hd_v3_dot(m, pair->t);
}

/* The Gaussian image of an edge as seen in M (section 2.1, Remark 1), in A's frame.
 * Its points are the unit normals of the planes that touch the polytope along the edge:
 *   solid (dimension 3): the great arc from the normal of the edge's left face to that of its
 *     right face, shorter than 180 degrees; its plane's normal is the edge direction d,
 *     oriented so that d = (n_left x n_right) / |...| (the left face sees d counter-clockwise);
 *   polygon (dimension 2): the half great circle from +n to -n (n the polygon's normal) through
 *     the edge's outward in-plane normal `mid`;
 *   segment (dimension 1): the whole great circle perpendicular to the segment.
 * For -B every normal is negated, which keeps d = (n_left x n_right) for the negated normals. */
typedef enum hd_arc_kind { HD_ARC_SHORT, HD_ARC_HALF, HD_ARC_FULL } hd_arc_kind;

typedef struct hd_arc {
    hd_arc_kind kind;
    double d[3];       /* edge direction (vertex 1 - vertex 0), the normal of the arc's plane */
    double end0[3];    /* SHORT: the left and right face normals */
    double end1[3];
    double mid[3];     /* HALF: the outward in-plane direction */
} hd_arc;

/* Arc of edge e of polytope p, with directions mapped by rot (NULL: identity) and negated when
 * neg is set. */
static void edge_arc(const hd_polytope *p, int e, const double *rot, int neg, hd_arc *arc)
{
    const double *v0 = p->verts + 3 * p->edge_verts[2 * e];
    const double *v1 = p->verts + 3 * p->edge_verts[2 * e + 1];
    double d[3], n0[3], n1[3];
    hd_v3_sub(d, v1, v0);
    double sign = neg ? -1.0 : 1.0;
    if (p->dim == 3) {
        arc->kind = HD_ARC_SHORT;
        hd_v3_scale(n0, p->face_normal + 3 * p->edge_faces[2 * e], sign);
        hd_v3_scale(n1, p->face_normal + 3 * p->edge_faces[2 * e + 1], sign);
    } else if (p->dim == 2) {
        /* vertices run counter-clockwise around plane_normal, so d x n points outward */
        arc->kind = HD_ARC_HALF;
        hd_v3_cross(n0, d, p->plane_normal);
        hd_v3_scale(n0, n0, sign);
        hd_v3_set(n1, 0, 0, 0);
    } else {
        arc->kind = HD_ARC_FULL;
        hd_v3_set(n0, 0, 0, 0);
        hd_v3_set(n1, 0, 0, 0);
    }
    if (rot != NULL) {
        hd_m3_mul_v(d, rot, d);
        hd_m3_mul_v(n0, rot, n0);
        hd_m3_mul_v(n1, rot, n1);
    }
    hd_v3_copy(arc->d, d);
    if (arc->kind == HD_ARC_HALF) {
        hd_v3_copy(arc->mid, n0);
    } else {
        hd_v3_copy(arc->end0, n0);
        hd_v3_copy(arc->end1, n1);
    }
}

/* Which of x and -x lie on `arc` (bit 0: +x, bit 1: -x). For SHORT arcs the test assumes
 * x = arc->d x q, q the direction of the other arc; HALF and FULL arcs test x itself.
 * For a SHORT arc from a to b with p = arc->d = a x b (up to a positive factor), a point X of
 * its great circle is alpha a + beta b with alpha, beta >= 0 iff (a x X).p >= 0 and
 * (X x b).p >= 0. With X = p x q and a.p = b.p = 0:
 *     (a x X).p = |p|^2 (q.a),    (X x b).p = -|p|^2 (q.b),
 * so +X lies on the arc iff q.a >= 0 >= q.b, and -X iff q.a <= 0 <= q.b: the paper's signed
 * volumes |cba|, |dba|, |adc|, |bdc| (section 4.3), two dot products per arc; the paper's third
 * condition (same hemisphere) is the requirement that one sign of X satisfy both arcs. A HALF
 * arc holds +-x on the side of its mid direction; a FULL arc holds both. Zeros count on both
 * sides (closed arcs), so an arc ending exactly on the other one is a crossing: the face it gives
 * has the plane of the FV / VF face at that end, which is also found directly. */
static unsigned arc_holds(const hd_arc *arc, const double q[3], const double x[3])
{
    if (arc->kind == HD_ARC_FULL) {
        return 3u;
    }
    if (arc->kind == HD_ARC_HALF) {
        double s = hd_v3_dot(x, arc->mid);
        return (s >= 0.0 ? 1u : 0u) | (s <= 0.0 ? 2u : 0u);
    }
    double sa = hd_v3_dot(q, arc->end0);
    double sb = hd_v3_dot(q, arc->end1);
    return (sa >= 0.0 && sb <= 0.0 ? 1u : 0u) | (sa <= 0.0 && sb >= 0.0 ? 2u : 0u);
}

/* Edges whose directions make an angle below this (its sine) are parallel: their sum is an edge
 * of M, not a face. Near that limit the cross product loses all its digits to rounding; a face
 * skipped here is a sliver at most 1e-10 of its length wide, whose neighbours are still found. */
#define HD_PARALLEL_SINE 1e-10

/* EE face (section 2.1): the arcs A(e) of A and A(e') of -B cross at the unit normal n of the
 * parallelogram e + (-e'), n = +-(d x d') / |d x d'|. For the arc of -B the roles of p and q
 * swap, which flips the sign of X = p x q: its +X test is the -X test of q x p. */
int hd_mface_ee(const hd_pair *pair, int e, int eb, hd_mface *out)
{
    const hd_polytope *a = pair->a;
    const hd_polytope *b = pair->b;
    hd_arc arc_a, arc_b;
    edge_arc(a, e, NULL, 0, &arc_a);
    edge_arc(b, eb, pair->r, 1, &arc_b);
    double x[3];
    hd_v3_cross(x, arc_a.d, arc_b.d);
    double x2 = hd_v3_len2(x);
    double pq2 = hd_v3_len2(arc_a.d) * hd_v3_len2(arc_b.d);
    if (!(x2 > HD_PARALLEL_SINE * HD_PARALLEL_SINE * pq2)) {
        return 0;
    }
    unsigned on_a = arc_holds(&arc_a, arc_b.d, x);
    /* for -B's arc, X = p x q = -(q x p): swap the two bits of its own test */
    unsigned raw_b = arc_holds(&arc_b, arc_a.d, x);
    unsigned on_b = arc_b.kind == HD_ARC_SHORT ? (((raw_b & 1u) << 1) | ((raw_b & 2u) >> 1)) : raw_b;
    unsigned both = on_a & on_b;
    if (both == 0u) {
        return 0;
    }
    double scale = ((both & 1u) ? 1.0 : -1.0) / sqrt(x2);
    hd_v3_scale(out->n, x, scale);
    const int *ea = a->edge_verts + 2 * e;
    const int *eb2 = b->edge_verts + 2 * eb;
    double b0[3], b1[3];
    hd_pair_b_vertex(pair, eb2[0], b0);
    hd_pair_b_vertex(pair, eb2[1], b1);
    double ha0 = hd_v3_dot(out->n, a->verts + 3 * ea[0]);
    double ha1 = hd_v3_dot(out->n, a->verts + 3 * ea[1]);
    double hb0 = hd_v3_dot(out->n, b0);
    double hb1 = hd_v3_dot(out->n, b1);
    out->kind = HD_FACE_EE;
    out->fa = e;
    out->fb = eb;
    out->sa = ha0 >= ha1 ? ea[0] : ea[1];
    out->sb = hb0 <= hb1 ? eb2[0] : eb2[1];
    out->h = (ha0 >= ha1 ? ha0 : ha1) - (hb0 <= hb1 ? hb0 : hb1);
    return 1;
}

int hd_mface_of_key(const hd_pair *pair, uint64_t key, int aux, hd_mface *out)
{
    switch (hd_key_kind(key)) {
    case HD_KEY_FV: {
        int start = aux;
        hd_mface_fv(pair, hd_key_a(key), &start, NULL, out);
        return 1;
    }
    case HD_KEY_VF: {
        int start = aux;
        hd_mface_vf(pair, hd_key_a(key), &start, NULL, out);
        return 1;
    }
    default:
        return hd_mface_ee(pair, hd_key_a(key), hd_key_b(key), out);
    }
}
