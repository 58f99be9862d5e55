/* Contact manifold (docs/algorithms/contact.md, "Manifold"), in A's frame:
 *
 *   reference face: the face in the depth's facet of M (A's face of an FV or face-face facet, B's
 *     face of a VF facet); incident face: the face of the other polytope at its supporting feature
 *     whose outward normal is most anti-parallel to the reference normal;
 *   clip the incident polygon by the side planes of the reference face, one plane after the other
 *     (Sutherland and Hodgman, "Reentrant polygon clipping", CACM 17(1), 1974), each point of the
 *     result keeping the features that produced it;
 *   separation of a point: its height above the reference plane; points higher than eps are
 *     dropped, the contact point is half-way between the point and its projection;
 *   more than four: keep the deepest point, the one farthest from it, the one spanning the largest
 *     triangle with both, and the one spanning the largest triangle on the other side.
 * An edge-edge facet, and pairs whose supporting features have no face (segments, points, or a
 * vertex against an edge), give the single point half-way between the witnesses. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "contact/signed_distance.h"
#include "core/math.h"
#include "core/tolerances.h"

/* One vertex of the polygon being clipped: its position, the features that produced it (on the
 * reference side and on the incident side), and the carrier of the edge that leaves it: an edge of
 * the incident face (>= 0) or the side plane of reference edge k (-1 - k). */
typedef struct hdi_clip_vertex {
    double p[3];
    double s; /* separation above the reference plane (set once clipped) */
    hd_feature_id ref;
    hd_feature_id inc;
    int carrier;
} hdi_clip_vertex;

/* A face of one polytope seen in A's frame. */
typedef struct hdi_side {
    const hdi_pair *pair;
    const hd_polytope *p;
    int is_b;
    int face;
} hdi_side;

size_t hdi_manifold_scratch_bytes(int m, int k)
{
    return 2 * ((size_t)m + (size_t)k + 1) * sizeof(hdi_clip_vertex);
}

static void side_vertex(const hdi_side *s, int v, double out[3])
{
    if (s->is_b) {
        hdi_pair_b_vertex(s->pair, v, out);
    } else {
        hdi_v3_copy(out, s->p->verts + 3 * v);
    }
}

static void side_normal(const hdi_side *s, int f, double out[3])
{
    if (s->is_b) {
        hdi_m3_mul_v(out, s->pair->r, s->p->face_normal + 3 * f);
    } else {
        hdi_v3_copy(out, s->p->face_normal + 3 * f);
    }
}

static hd_feature_id fid(hd_feature_type type, int index)
{
    hd_feature_id f = {type, index};
    return f;
}

/* The face of p at feature f whose outward normal (A's frame) is most aligned with d; -1 when p
 * has no face. */
static int incident_face(const hdi_side *s, hdi_feature f, const double d[3])
{
    const hd_polytope *p = s->p;
    if (p->face_count == 0) {
        return -1;
    }
    if (f.kind == HD_FEAT_FACE) {
        return f.index;
    }
    int best = -1;
    double best_value = -DBL_MAX;
    int nv = hdi_feature_vertex_count(p, f);
    for (int i = 0; i < nv; ++i) {
        int v = hdi_feature_vertex(p, f, i);
        for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
            int e = p->vert_edges[k];
            for (int side = 0; side < 2; ++side) {
                int g = p->edge_faces[2 * e + side];
                double n[3];
                if (g < 0) {
                    continue;
                }
                side_normal(s, g, n);
                double x = hdi_v3_dot(n, d);
                if (x > best_value || (x == best_value && g < best)) {
                    best_value = x;
                    best = g;
                }
            }
        }
    }
    return best;
}

/* The clipping of one incident polygon by one reference face. */
typedef struct hdi_clipper {
    const hdi_side *ref;
    int ref_count;          /* vertices of the reference face */
    hd_feature_id inc_face; /* the incident face (or feature, without faces) */
    double tol;             /* points this far outside a side plane count as inside */
} hdi_clipper;

/* The point where the edge p -> q (carrier p->carrier) crosses the side plane of reference edge
 * k, at parameter t, with its features: an incident edge cut by a reference edge, or (along an
 * earlier side plane) the reference vertex where that plane meets this one. */
static void crossing(const hdi_clipper *c, const hdi_clip_vertex *p, const hdi_clip_vertex *q,
                     double t, int k, hdi_clip_vertex *x)
{
    const hd_polytope *rp = c->ref->p;
    int base = rp->face_offset[c->ref->face];
    for (int i = 0; i < 3; ++i) {
        x->p[i] = p->p[i] + t * (q->p[i] - p->p[i]);
    }
    if (p->carrier >= 0) {
        x->ref = fid(HD_FEATURE_EDGE, rp->face_edges[base + k]);
        x->inc = fid(HD_FEATURE_EDGE, p->carrier);
    } else {
        int kp = -1 - p->carrier;
        int at = (kp + 1) % c->ref_count == k ? k : kp; /* loop vertex k starts edge k */
        x->ref = fid(HD_FEATURE_VERTEX, rp->face_verts[base + at]);
        x->inc = c->inc_face;
    }
}

/* Clips poly (count vertices) by the side plane of reference edge k, through r with inward normal
 * s, into out (Sutherland-Hodgman: each edge p -> q gives p when p is inside, and the crossing
 * when exactly one end is). A vertex within tol outside the plane counts as inside, keeping its
 * own features; crossings are computed on the plane itself. The carrier of an edge leaving a
 * crossing into the outside region becomes the side plane. */
static int clip_plane(const hdi_clipper *c, const hdi_clip_vertex *poly, int count,
                      const double r[3], const double s[3], int k, hdi_clip_vertex *out)
{
    int n = 0;
    for (int j = 0; j < count; ++j) {
        const hdi_clip_vertex *p = &poly[j], *q = &poly[(j + 1) % count];
        double tp[3], tq[3];
        hdi_v3_sub(tp, p->p, r);
        hdi_v3_sub(tq, q->p, r);
        double dp = hdi_v3_dot(s, tp), dq = hdi_v3_dot(s, tq);
        int in_p = dp >= -c->tol, in_q = dq >= -c->tol;
        if (in_p) {
            out[n++] = *p;
        }
        if (in_p == in_q) {
            continue;
        }
        if (in_p && dp <= 0.0) {
            out[n - 1].carrier = -1 - k; /* p is on the plane: the crossing itself */
            continue;
        }
        if (in_q && dq <= 0.0) {
            continue; /* q is on the plane: the crossing itself, and comes next */
        }
        crossing(c, p, q, hdi_min(1.0, hdi_max(0.0, dp / (dp - dq))), k, &out[n]);
        out[n].carrier = in_p ? -1 - k : p->carrier;
        ++n;
    }
    return n;
}

/* The incident polygon in A's frame: the incident face's loop, or without faces the supporting
 * feature's vertices (a segment's two ends, a point). */
static int incident_polygon(const hdi_side *inc, hdi_feature f, const hdi_clipper *c,
                            hdi_clip_vertex *out)
{
    const hd_polytope *p = inc->p;
    int count;
    if (inc->face >= 0) {
        count = p->face_offset[inc->face + 1] - p->face_offset[inc->face];
        for (int j = 0; j < count; ++j) {
            int k = p->face_offset[inc->face] + j;
            side_vertex(inc, p->face_verts[k], out[j].p);
            out[j].inc = fid(HD_FEATURE_VERTEX, p->face_verts[k]);
            out[j].carrier = p->face_edges[k];
        }
    } else {
        count = hdi_feature_vertex_count(p, f);
        for (int j = 0; j < count; ++j) {
            int v = hdi_feature_vertex(p, f, j);
            side_vertex(inc, v, out[j].p);
            out[j].inc = fid(HD_FEATURE_VERTEX, v);
            out[j].carrier = f.kind == HD_FEAT_EDGE ? f.index : 0;
        }
    }
    for (int j = 0; j < count; ++j) {
        out[j].ref = fid(HD_FEATURE_FACE, c->ref->face);
    }
    return count;
}

/* Clips the incident polygon (count vertices in buf[0]) by every side plane of the reference
 * face; returns the count of the result, which is in *result. */
static int clip_all(const hdi_clipper *c, const double m[3], hdi_clip_vertex *buf[2], int count,
                    hdi_clip_vertex **result)
{
    const hdi_side *ref = c->ref;
    const int *loop = ref->p->face_verts + ref->p->face_offset[ref->face];
    int cur = 0;
    for (int k = 0; k < c->ref_count && count > 0; ++k) {
        double r0[3], r1[3], d[3], s[3];
        side_vertex(ref, loop[k], r0);
        side_vertex(ref, loop[(k + 1) % c->ref_count], r1);
        hdi_v3_sub(d, r1, r0);
        hdi_v3_cross(s, m, d); /* inward: the loop runs counter-clockwise about m */
        double len = hdi_v3_len(s);
        if (!(len > 0.0)) {
            continue;
        }
        hdi_v3_scale(s, s, 1.0 / len);
        count = clip_plane(c, buf[cur], count, r0, s, k, buf[1 - cur]);
        cur = 1 - cur;
    }
    *result = buf[cur];
    return count;
}

/* Twice the signed area of triangle (a, b, c) seen along n. */
static double area(const double a[3], const double b[3], const double c[3], const double n[3])
{
    double u[3], v[3], x[3];
    hdi_v3_sub(u, b, a);
    hdi_v3_sub(v, c, a);
    hdi_v3_cross(x, u, v);
    return hdi_v3_dot(x, n);
}

/* Indices of at most four points to keep: the deepest, the farthest from it, the largest
 * triangle with both, and the largest triangle on the other side of the first two. */
static int reduce(const hdi_clip_vertex *pts, int count, const double n[3], int keep4[4])
{
    int k0 = 0, k1 = -1, k2 = -1, k3 = -1;
    for (int i = 1; i < count; ++i) {
        if (pts[i].s < pts[k0].s) {
            k0 = i;
        }
    }
    double best = -1.0;
    for (int i = 0; i < count; ++i) {
        double d = hdi_v3_dist(pts[i].p, pts[k0].p);
        if (i != k0 && d > best) {
            best = d;
            k1 = i;
        }
    }
    double a2 = 0.0, a3 = 0.0;
    for (int i = 0; i < count; ++i) {
        double a = area(pts[k0].p, pts[k1].p, pts[i].p, n);
        if (fabs(a) > fabs(a2) && i != k0 && i != k1) {
            a2 = a;
            k2 = i;
        }
    }
    for (int i = 0; k2 >= 0 && i < count; ++i) {
        double a = area(pts[k0].p, pts[k1].p, pts[i].p, n);
        if (a * a2 < 0.0 && fabs(a) > fabs(a3)) {
            a3 = a;
            k3 = i;
        }
    }
    int m = 0;
    keep4[m++] = k0;
    keep4[m++] = k1;
    if (k2 >= 0) {
        keep4[m++] = k2;
    }
    if (k3 >= 0) {
        keep4[m++] = k3;
    }
    return m;
}

/* The point half-way between the witnesses, at the signed distance, as a clipped point (its
 * features named from the reference side). */
static void depth_point(const hdi_sd_result *sd, int ref_is_b, hdi_clip_vertex *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 3; ++i) {
        out->p[i] = 0.5 * (sd->wa[i] + sd->wb[i]);
    }
    out->s = sd->delta;
    hd_feature_id a = fid((hd_feature_type)sd->fa.kind, sd->fa.index);
    hd_feature_id b = fid((hd_feature_type)sd->fb.kind, sd->fb.index);
    out->ref = ref_is_b ? b : a;
    out->inc = ref_is_b ? a : b;
}

/* The single point half-way between the witnesses. */
static void single_point(const hdi_sd_result *sd, hd_manifold *out)
{
    hdi_clip_vertex v;
    depth_point(sd, 0, &v);
    hd_contact_point *c = &out->points[0];
    hdi_v3_copy(c->point, v.p);
    c->separation = v.s;
    c->feature_a = v.ref;
    c->feature_b = v.inc;
    out->count = 1;
}

/* Each clipped point p against its projection q onto the reference plane (m, through r0): the
 * separation is n.(point of B - point of A) = (m.(p - r0)) |n.m| (m = +-n for the facet's own
 * face), so it lies between -depth and the distance; the points within the band are kept (in
 * place, moved half-way to q, which keeps them in the overlap slab along n), the depth's own
 * point added when it is deeper than all of them by more than `deeper` (deep may be NULL: none),
 * reduced to four, and written as contact points with their features as (A, B). */
static void collect(hdi_clip_vertex *poly, int count, const double m[3], const double r0[3],
                    const double n[3], double band, int ref_is_b, const hdi_clip_vertex *deep,
                    double deeper, hd_manifold *out)
{
    int np = 0;
    double along = fabs(hdi_v3_dot(n, m));
    for (int j = 0; j < count; ++j) {
        double t[3];
        hdi_v3_sub(t, poly[j].p, r0);
        double height = hdi_v3_dot(m, t), s = height * along;
        if (s <= band) {
            poly[np] = poly[j];
            hdi_v3_madd(poly[np].p, poly[j].p, -0.5 * height, m);
            poly[np].s = s;
            ++np;
        }
    }
    double least = DBL_MAX;
    for (int j = 0; j < np; ++j) {
        least = hdi_min(least, poly[j].s);
    }
    if (deep != NULL && least > deep->s + deeper) {
        poly[np++] = *deep; /* room: clipping m points by k planes leaves at most m + k */
    }
    int idx[4] = {0, 1, 2, 3};
    out->count = np <= HD_MANIFOLD_MAX ? np : reduce(poly, np, m, idx);
    for (int i = 0; i < out->count; ++i) {
        const hdi_clip_vertex *v = &poly[idx[i]];
        hd_contact_point *c = &out->points[i];
        hdi_v3_copy(c->point, v->p);
        c->separation = v->s;
        c->feature_a = ref_is_b ? v->inc : v->ref;
        c->feature_b = ref_is_b ? v->ref : v->inc;
    }
}

/* The face of the depth's facet as the reference (A's for FV and face-face facets, B's for VF);
 * for an edge-edge facet, or features without a face, the face at either feature most aligned
 * with the contact normal when it is within HD_MANIFOLD_FACE_COS of it (nearly parallel faces
 * give a face contact, whatever rounding and small turns do to the exact facet). Sets ref->face
 * (-1: a single point). */
static void choose_reference(const hdi_pair *pair, const hdi_sd_result *sd, hdi_side *ref)
{
    hdi_side sa = {pair, pair->a, 0, -1}, sb = {pair, pair->b, 1, -1};
    if (sd->fa.kind == HD_FEAT_FACE || sd->fb.kind == HD_FEAT_FACE) {
        *ref = sd->fa.kind == HD_FEAT_FACE ? sa : sb;
        ref->face = ref->is_b ? sd->fb.index : sd->fa.index;
        return;
    }
    double neg[3], na[3], nb[3];
    hdi_v3_neg(neg, sd->n);
    int fa = incident_face(&sa, sd->fa, sd->n), fb = incident_face(&sb, sd->fb, neg);
    double ca = -1.0, cb = -1.0;
    if (fa >= 0) {
        side_normal(&sa, fa, na);
        ca = hdi_v3_dot(na, sd->n);
    }
    if (fb >= 0) {
        side_normal(&sb, fb, nb);
        cb = hdi_v3_dot(nb, neg);
    }
    *ref = cb > ca ? sb : sa;
    ref->face = hdi_max(ca, cb) >= HD_MANIFOLD_FACE_COS ? (cb > ca ? fb : fa) : -1;
}

/* Reference and incident sides: 1 when there is a face to clip by, 0 for a single point. */
static int choose_faces(const hdi_pair *pair, const hdi_sd_result *sd, hdi_side *ref, hdi_side *inc,
                        hdi_feature *inc_feature)
{
    choose_reference(pair, sd, ref);
    if (ref->face < 0) {
        return 0;
    }
    inc->pair = pair;
    inc->is_b = !ref->is_b;
    inc->p = ref->is_b ? pair->a : pair->b;
    *inc_feature = ref->is_b ? sd->fa : sd->fb;
    double m[3], d[3];
    side_normal(ref, ref->face, m);
    hdi_v3_neg(d, m);
    inc->face = incident_face(inc, *inc_feature, d);
    return 1;
}

hd_status hdi_manifold_pair(const hdi_pair *pair, const hdi_sd_result *sd,
                            const hdi_scratch *scratch, hd_manifold *out)
{
    memset(out, 0, sizeof *out);
    hdi_v3_copy(out->normal, sd->n);
    if (sd->delta > pair->eps) {
        return HD_OK;
    }
    hdi_side ref, inc;
    hdi_feature inc_feature;
    if (!choose_faces(pair, sd, &ref, &inc, &inc_feature)) {
        single_point(sd, out);
        return HD_OK;
    }
    const hd_polytope *rp = ref.p;
    int k = rp->face_offset[ref.face + 1] - rp->face_offset[ref.face];
    int m = inc.face >= 0 ? inc.p->face_offset[inc.face + 1] - inc.p->face_offset[inc.face]
                          : hdi_feature_vertex_count(inc.p, inc_feature);
    hdi_clip_vertex stack[2][HD_CLIP_STACK + 1], *buf[2] = {stack[0], stack[1]};
    if (m + k > HD_CLIP_STACK) {
        if (scratch == NULL || scratch->size < hdi_manifold_scratch_bytes(m, k)) {
            return HD_ERR_WORKSPACE_FULL;
        }
        buf[0] = scratch->bytes;
        buf[1] = buf[0] + m + k + 1;
    }
    /* side planes widened by the band, but never by much more than a small face measures
     * (core/tolerances.h, HD_MANIFOLD_SIDE_REL) */
    double side_tol = hdi_min(pair->eps, HD_MANIFOLD_SIDE_REL * sd->size) + sd->margin;
    hdi_clipper c = {&ref, k, fid(HD_FEATURE_FACE, inc.face), side_tol};
    if (inc.face < 0) {
        c.inc_face = fid((hd_feature_type)inc_feature.kind, inc_feature.index);
    }
    int count = incident_polygon(&inc, inc_feature, &c, buf[0]);
    double normal[3], r0[3];
    side_normal(&ref, ref.face, normal);
    side_vertex(&ref, rp->face_verts[rp->face_offset[ref.face]], r0);
    hdi_clip_vertex *poly;
    count = clip_all(&c, normal, buf, count, &poly);
    /* a face chosen for its alignment, not the depth's facet (edge-edge): the clipped points are
     * measured from a plane that need not pass through the deepest point, so the facet's own
     * point joins them when it is deeper */
    hdi_clip_vertex deep, *deepest = NULL;
    if (sd->fa.kind != HD_FEAT_FACE && sd->fb.kind != HD_FEAT_FACE) {
        depth_point(sd, ref.is_b, &deep);
        deepest = &deep;
    }
    collect(poly, count, normal, r0, sd->n, pair->eps + sd->margin, ref.is_b, deepest,
            HD_MANIFOLD_DEPTH_REL * sd->size + sd->margin, out);
    if (out->count == 0) {
        single_point(sd, out); /* rounding left nothing inside: the witnesses still touch */
    }
    return HD_OK;
}
