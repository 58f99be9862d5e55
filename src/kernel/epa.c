/* Expanding polytope for depth bounds (van den Bergen, "Proximity queries and penetration depth
 * computation on 3D game objects", GDC 2001), on fixed-capacity arrays. With the origin in M, the
 * depth is min over unit n of h_M(n) (A and B overlap iff 0 is in M: CD-Dual, section 2.1): each
 * support query bounds it from above, and an inner polytope P of support points that sees the
 * origin inside every face bounds it from below by min_f dist(0, f). EPA expands P at its nearest
 * face until the bounds place the depth against eps (the classifier, hdi_epa_depth) or meet
 * (hdi_epa_converge, the contact queries). Bounds and start: docs/algorithms/gjk.md, section 5;
 * the converged run: docs/algorithms/contact.md, section 3. */
#include <string.h>

#include "kernel/epa.h"
#include "kernel/gjk_core.h"
#include "core/math.h"
#include "kernel/simplex_robust.h"

typedef struct hdi_epa_face {
    int v[3];
    int adj[3];  /* the face across edge k, which runs from v[k] to v[(k + 1) % 3] */
    double n[3]; /* unit outward normal */
    double dist; /* min over the face's vertices of n.x: the origin's distance when positive */
    int alive;
} hdi_epa_face;

typedef struct hdi_epa {
    const hdi_pair *pair;
    hd_stats *stats;
    int *start_a;
    int *start_b;
    double tol;
    double deep_above;    /* stop (DEEP) once lower exceeds this; DBL_MAX: never */
    double shallow_below; /* stop (SHALLOW) once upper is at most this; -DBL_MAX: never */
    int fast_normals;     /* hdi_triangle_normal_fast instead of double-double for every face */
    int max_verts;
    int max_faces;
    int nv;
    double (*w)[3];
    int *ia;
    int *ib;
    int nf; /* faces in use, alive or free */
    hdi_epa_face *f;
    int free_count;
    int *free_ids;
    int *stack_face; /* horizon walk: max_faces each */
    int *stack_edge;
    int *stack_next;
    int *hz_face; /* horizon edges and the faces made on them: max_verts each */
    int *hz_edge;
    int *made;
    int *vref;      /* per vertex, the alive faces holding it */
    int *mark_face; /* linking the new faces: per vertex, the new face starting at it */
    int *mark_stamp;
    int stamp;
    const hdi_epa_land *land; /* hdi_epa_converge's landing, or NULL */
    hdi_epa_result *res;
} hdi_epa;

/* The fixed storage of hdi_epa_depth, on the stack. */
typedef struct hdi_epa_fixed {
    double w[HD_EPA_MAX_VERTS][3];
    hdi_epa_face f[HD_EPA_MAX_FACES];
    int ia[HD_EPA_MAX_VERTS];
    int ib[HD_EPA_MAX_VERTS];
    int free_ids[HD_EPA_MAX_FACES];
    int stack[3][HD_EPA_MAX_FACES];
    int hz[6][HD_EPA_MAX_VERTS];
} hdi_epa_fixed;

/* Support point of M along unit n, recording h_M(n) as an upper bound. */
static double epa_support(hdi_epa *e, const double n[3], int *ia, int *ib, double w[3])
{
    hdi_pair_support_m(e->pair, n, e->start_a, e->start_b, ia, ib, w, e->stats);
    double h = hdi_v3_dot(n, w);
    if (h < e->res->upper) {
        e->res->upper = h;
        hdi_v3_copy(e->res->normal, n);
        e->res->upper_ia = *ia;
        e->res->upper_ib = *ib;
    }
    return h;
}

static int find_vertex(const hdi_epa *e, int ia, int ib)
{
    for (int i = 0; i < e->nv; ++i) {
        if (e->ia[i] == ia && e->ib[i] == ib) {
            return i;
        }
    }
    return -1;
}

/* 1 when the pair is a vertex of a face of P (a vertex absorbed by an expansion is not). */
static int find_vertex_alive(const hdi_epa *e, int ia, int ib)
{
    int v = find_vertex(e, ia, ib);
    return v >= 0 && e->vref[v] > 0;
}

static int add_vertex(hdi_epa *e, const double w[3], int ia, int ib)
{
    if (e->nv >= e->max_verts) {
        return -1;
    }
    hdi_v3_copy(e->w[e->nv], w);
    e->vref[e->nv] = 0;
    e->mark_stamp[e->nv] = 0; /* marks are read only for vertices in use: no clearing up front */
    e->ia[e->nv] = ia;
    e->ib[e->nv] = ib;
    return e->nv++;
}

/* The unit normal of triangle x y z (counter-clockwise seen from outside); 0 when it has none.
 * The converged run's faces (fast_normals) take the plain cross product when it is safe from
 * under- and overflow and the triangle is well shaped (sine above HD_PLAIN_NORMAL_SINE): one
 * square root and one division (hdi_triangle_normal_plain); hdi_triangle_normal_fast (scaled edges)
 * or double-double otherwise.
 */
static int face_normal(const hdi_epa *e, const double x[3], const double y[3], const double z[3],
                       double n[3])
{
    if (!e->fast_normals) {
        return hdi_triangle_unit_normal(x, y, z, n);
    }
    return hdi_triangle_normal_plain(x, y, z, n);
}

/* A new face (a, b, c), counter-clockwise seen from outside; -1 when the capacity is exhausted
 * or the face has no normal (collinear corners). */
static int make_face(hdi_epa *e, int a, int b, int c)
{
    double n[3];
    /* an accurate normal: a sliver face far from the origin gets a plane distance right to
     * rounding instead of off by its length times the normal's rounding (kernel/simplex_robust.c)
     */
    if (!face_normal(e, e->w[a], e->w[b], e->w[c], n)) {
        return -1;
    }
    int id;
    if (e->free_count > 0) {
        id = e->free_ids[--e->free_count];
    } else if (e->nf < e->max_faces) {
        id = e->nf++;
    } else {
        return -1;
    }
    hdi_epa_face *f = &e->f[id];
    f->v[0] = a;
    f->v[1] = b;
    f->v[2] = c;
    f->adj[0] = f->adj[1] = f->adj[2] = -1;
    hdi_v3_copy(f->n, n);
    f->dist =
        hdi_min(hdi_v3_dot(n, e->w[a]), hdi_min(hdi_v3_dot(n, e->w[b]), hdi_v3_dot(n, e->w[c])));
    f->alive = 1;
    e->vref[a]++;
    e->vref[b]++;
    e->vref[c]++;
    return id;
}

static void kill_face(hdi_epa *e, int id)
{
    e->f[id].alive = 0;
    for (int k = 0; k < 3; ++k) {
        e->vref[e->f[id].v[k]]--;
    }
    e->free_ids[e->free_count++] = id;
}

/* Index k of the edge from a to b in face g, or -1. */
static int edge_index(const hdi_epa_face *g, int a, int b)
{
    for (int k = 0; k < 3; ++k) {
        if (g->v[k] == a && g->v[(k + 1) % 3] == b) {
            return k;
        }
    }
    return -1;
}

/* The tetrahedron 0 1 2 3 with its faces oriented outwards (det > 0: vertex 3 lies on the side
 * of triangle (0, 1, 2) its normal points to). Face i's edge k (v[k] -> v[k + 1]) borders face
 * adj[i][k], the face holding the reversed edge: a fixed table for either orientation. */
static int make_tetra(hdi_epa *e, double det)
{
    static const int pos[4][3] = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};
    static const int neg[4][3] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {0, 2, 3}};
    static const int pos_adj[4][3] = {{3, 2, 1}, {0, 2, 3}, {0, 3, 1}, {1, 2, 0}};
    static const int neg_adj[4][3] = {{1, 2, 3}, {3, 2, 0}, {1, 3, 0}, {0, 2, 1}};
    const int(*tri)[3] = det > 0.0 ? pos : neg;
    const int(*adj)[3] = det > 0.0 ? pos_adj : neg_adj;
    for (int i = 0; i < 4; ++i) {
        if (make_face(e, tri[i][0], tri[i][1], tri[i][2]) != i) {
            /* a face without a normal: forget the partial tetrahedron */
            e->nf = e->free_count = 0;
            e->vref[0] = e->vref[1] = e->vref[2] = e->vref[3] = 0;
            return 0;
        }
    }
    for (int i = 0; i < 4; ++i) {
        for (int k = 0; k < 3; ++k) {
            e->f[i].adj[k] = adj[i][k];
        }
    }
    return 1;
}

static int build_tetra(hdi_epa *e)
{
    /* orientation: the side of face (0, 1, 2) on which vertex 3 lies, from an accurate normal
     * (the determinant of the edge vectors loses its sign on a needle far from the origin) */
    double n[3], d3[3];
    if (!face_normal(e, e->w[0], e->w[1], e->w[2], n)) {
        return 0;
    }
    hdi_v3_sub(d3, e->w[3], e->w[0]);
    double det = hdi_v3_dot(n, d3);
    if (det == 0.0) {
        return 0;
    }
    return make_tetra(e, det);
}

/* A unit direction normal to the affine hull of the first nv (1 or 2) vertices. */
static void normal_direction(const hdi_epa *e, double n[3])
{
    if (e->nv == 1) {
        hdi_v3_set(n, 1.0, 0.0, 0.0);
        return;
    }
    double d[3], axis[3] = {0.0, 0.0, 0.0};
    hdi_v3_sub(d, e->w[1], e->w[0]);
    int k = 0;
    if (fabs(d[1]) < fabs(d[k])) {
        k = 1;
    }
    if (fabs(d[2]) < fabs(d[k])) {
        k = 2;
    }
    axis[k] = 1.0;
    hdi_v3_cross(n, d, axis);
    hdi_v3_normalize(n);
}

/* Distance of x from the affine hull of the first nv (1 or 2) vertices. */
static double off_hull(const hdi_epa *e, const double x[3])
{
    double r[3];
    hdi_v3_sub(r, x, e->w[0]);
    if (e->nv == 1) {
        return hdi_v3_len(r);
    }
    double d[3], c[3];
    hdi_v3_sub(d, e->w[1], e->w[0]);
    hdi_v3_cross(c, r, d);
    return hdi_v3_len(c) / hdi_v3_len(d);
}

/* Grows 1 or 2 points into a triangle. 1: grown; 0: decided (SHALLOW) or degenerate (EDGE). */
static int grow_to_triangle(hdi_epa *e)
{
    while (e->nv < 3) {
        double n[3], w[3];
        int ia, ib, added = 0;
        normal_direction(e, n);
        for (int side = 0; side < 2 && !added; ++side) {
            e->res->steps++;
            epa_support(e, n, &ia, &ib, w);
            if (e->res->upper <= e->shallow_below) {
                e->res->outcome = HD_EPA_SHALLOW;
                return 0;
            }
            if (off_hull(e, w) > e->tol && find_vertex(e, ia, ib) < 0) {
                add_vertex(e, w, ia, ib);
                added = 1;
            }
            hdi_v3_neg(n, n);
        }
        if (!added) {
            e->res->outcome = HD_EPA_EDGE;
            return 0;
        }
    }
    return 1;
}

static int expand(hdi_epa *e, int first, int nw);

/* Triangle 0 1 2 -> the hull of it and the support points on both sides of its plane: the
 * tetrahedron with the first, then the second added by the same horizon step as the expansion
 * (the two tetrahedra glued on the triangle are not convex when the segment between the apexes
 * misses the triangle, as it does for a centrally symmetric M). */
static int build_double_tetra(hdi_epa *e)
{
    double e1[3], e2[3], n[3], w[2][3];
    int ia[2], ib[2];
    hdi_v3_sub(e1, e->w[1], e->w[0]);
    hdi_v3_sub(e2, e->w[2], e->w[0]);
    hdi_v3_cross(n, e1, e2);
    if (!(hdi_v3_normalize(n) > 0.0)) {
        e->res->outcome = HD_EPA_EDGE;
        return 0;
    }
    double base = hdi_v3_dot(n, e->w[0]);
    for (int side = 0; side < 2; ++side) {
        e->res->steps++;
        double h = epa_support(e, n, &ia[side], &ib[side], w[side]);
        if (e->res->upper <= e->shallow_below) {
            e->res->outcome = HD_EPA_SHALLOW;
            return 0;
        }
        if (!((side == 0 ? h - base : h + base) > e->tol)) {
            e->res->outcome = HD_EPA_EDGE;
            return 0;
        }
        hdi_v3_neg(n, n);
    }
    add_vertex(e, w[0], ia[0], ib[0]);
    if (!build_tetra(e)) {
        e->res->outcome = HD_EPA_EDGE;
        return 0;
    }
    int nw = add_vertex(e, w[1], ia[1], ib[1]);
    int first = -1;
    double best = 0.0;
    for (int i = 0; i < e->nf; ++i) {
        double to_w[3];
        hdi_v3_sub(to_w, e->w[nw], e->w[e->f[i].v[0]]);
        double x = hdi_v3_dot(e->f[i].n, to_w);
        if (x > best) {
            best = x;
            first = i;
        }
    }
    if (first < 0 || !expand(e, first, nw)) {
        e->res->outcome = HD_EPA_EDGE;
        return 0;
    }
    return 1;
}

/* The initial polytope. 1: ready to expand; 0: already decided or degenerate (outcome set). */
static int build_initial(hdi_epa *e, const hdi_simplex *start)
{
    for (int j = 0; j < start->count; ++j) {
        if (find_vertex(e, start->ia[j], start->ib[j]) < 0) {
            add_vertex(e, start->w[j], start->ia[j], start->ib[j]);
        }
    }
    if (e->nv == 4) {
        if (build_tetra(e)) {
            return 1;
        }
        e->nv = 3; /* a flat tetrahedron: rebuild from one of its triangles */
    }
    if (!grow_to_triangle(e)) {
        return 0;
    }
    return build_double_tetra(e);
}

/* The horizon of w seen from face `first` (visible): walks the visible faces (w beyond their
 * plane or on it to within tol) depth first across their edges and lists, for each edge between a
 * visible and a hidden face, the hidden face g and its edge index. Visible faces are killed.
 * Returns the number of horizon edges, -1 on overflow. */
static int find_horizon(hdi_epa *e, int first, const double w[3], int *hz_face, int *hz_edge)
{
    int *stack_face = e->stack_face, *stack_edge = e->stack_edge, *stack_next = e->stack_next;
    int top = 0, count = 0;
    kill_face(e, first);
    stack_face[0] = first;
    stack_edge[0] = 0;
    stack_next[0] = 0;
    top = 1;
    while (top > 0) {
        int t = top - 1;
        hdi_epa_face *f = &e->f[stack_face[t]];
        /* the first face explores its three edges; the others the two they were not entered by */
        int limit = stack_face[t] == first ? 3 : 2;
        if (stack_next[t] >= limit) {
            --top;
            continue;
        }
        int k = stack_face[t] == first ? stack_next[t] : (stack_edge[t] + 1 + stack_next[t]) % 3;
        stack_next[t]++;
        int g = f->adj[k];
        if (!e->f[g].alive) {
            continue;
        }
        int j = edge_index(&e->f[g], f->v[(k + 1) % 3], f->v[k]);
        double to_w[3];
        hdi_v3_sub(to_w, w, e->w[e->f[g].v[0]]);
        /* a face that w lies on (to rounding) is replaced too: keeping it would join w to its
         * edges by triangles of no area when w is collinear with one of them (ties of the
         * support mapping on a face of M give such points) */
        if (hdi_v3_dot(e->f[g].n, to_w) > -e->tol) {
            kill_face(e, g);
            stack_face[top] = g;
            stack_edge[top] = j;
            stack_next[top] = 0;
            ++top;
        } else {
            if (count >= e->max_verts) {
                return -1;
            }
            hz_face[count] = g;
            hz_edge[count] = j;
            ++count;
        }
    }
    return count;
}

/* Replaces the faces visible from the new vertex nw (starting at face `first`) by the cone of
 * triangles joining the horizon to nw. 0 on overflow or when the horizon is not a single loop
 * (rounding made the visible region something other than a disc). */
static int expand(hdi_epa *e, int first, int nw)
{
    int *hz_face = e->hz_face, *hz_edge = e->hz_edge, *made = e->made;
    int m = find_horizon(e, first, e->w[nw], hz_face, hz_edge);
    if (m < 3) {
        return 0;
    }
    for (int k = 0; k < m; ++k) {
        const hdi_epa_face *g = &e->f[hz_face[k]];
        int a = g->v[(hz_edge[k] + 1) % 3], b = g->v[hz_edge[k]];
        made[k] = make_face(e, a, b, nw);
        if (made[k] < 0) {
            return 0;
        }
        e->f[made[k]].adj[0] = hz_face[k];
        e->f[hz_face[k]].adj[hz_edge[k]] = made[k];
    }
    /* new face k = (a_k, b_k, nw): its edge 1 (b_k -> nw) meets the new face l with a_l = b_k,
     * found through a per-vertex mark; a vertex starting two horizon edges means the horizon is
     * not a simple loop */
    e->stamp++;
    for (int k = 0; k < m; ++k) {
        int a = e->f[made[k]].v[0];
        if (e->mark_stamp[a] == e->stamp) {
            return 0;
        }
        e->mark_stamp[a] = e->stamp;
        e->mark_face[a] = k;
    }
    for (int k = 0; k < m; ++k) {
        int b = e->f[made[k]].v[1];
        if (e->mark_stamp[b] != e->stamp) {
            return 0;
        }
        int l = e->mark_face[b];
        e->f[made[k]].adj[1] = made[l];
        e->f[made[l]].adj[2] = made[k];
    }
    return 1;
}

/* DEEP: a tetrahedron of P's vertices holding the origin, with weights. P is star-shaped from
 * any of its vertices q, so the origin lies in the cone tetrahedron (q, face) of the face not
 * containing q that the ray from q through the origin leaves by; the face whose barycentric
 * coordinates are the least negative is taken and tiny negatives (rounding) clamped. */
static void inner_tetra(const hdi_epa *e, hdi_simplex *out)
{
    int q = -1, best = -1;
    double best_score = -DBL_MAX, best_l[4] = {0.25, 0.25, 0.25, 0.25};
    for (int i = 0; i < e->nf && q < 0; ++i) {
        if (e->f[i].alive) {
            q = e->f[i].v[0];
        }
    }
    for (int i = 0; i < e->nf; ++i) {
        const hdi_epa_face *f = &e->f[i];
        if (!f->alive || f->v[0] == q || f->v[1] == q || f->v[2] == q) {
            continue;
        }
        double l[4];
        if (hdi_tetra_barycentric(e->w[q], e->w[f->v[0]], e->w[f->v[1]], e->w[f->v[2]], l) == 0.0) {
            continue;
        }
        double score = fmin(fmin(l[0], l[1]), fmin(l[2], l[3]));
        if (score > best_score) {
            best_score = score;
            best = i;
            for (int j = 0; j < 4; ++j) {
                best_l[j] = l[j];
            }
        }
    }
    int idx[4] = {q, 0, 0, 0};
    for (int j = 0; j < 3; ++j) {
        idx[j + 1] = best >= 0 ? e->f[best].v[j] : q;
    }
    double sum = 0.0;
    for (int j = 0; j < 4; ++j) {
        best_l[j] = fmax(best_l[j], 0.0);
        sum += best_l[j];
    }
    out->count = 4;
    for (int j = 0; j < 4; ++j) {
        hdi_v3_copy(out->w[j], e->w[idx[j]]);
        out->ia[j] = e->ia[idx[j]];
        out->ib[j] = e->ib[idx[j]];
        out->lambda[j] = sum > 0.0 ? best_l[j] / sum : 0.25;
    }
}

/* The alive face nearest to the origin and the proven lower bound (0 unless every face has the
 * origin strictly on its inner side). */
static int nearest_face(const hdi_epa *e, double *lower)
{
    int best = -1;
    double d = DBL_MAX;
    for (int i = 0; i < e->nf; ++i) {
        if (e->f[i].alive && e->f[i].dist < d) {
            d = e->f[i].dist;
            best = i;
        }
    }
    *lower = d > 0.0 ? d : 0.0;
    return best;
}

/* 1 when the support pairs of face f have the pattern of a facet of M (the FV, VF and EE faces of
 * CD-Dual 003 section 2.1): three A vertices and one B vertex, one and three, or two and two. */
static int facet_pattern(const hdi_epa *e, const hdi_epa_face *f)
{
    int a0 = e->ia[f->v[0]], a1 = e->ia[f->v[1]], a2 = e->ia[f->v[2]];
    int b0 = e->ib[f->v[0]], b1 = e->ib[f->v[1]], b2 = e->ib[f->v[2]];
    int na = 1 + (a1 != a0) + (a2 != a0 && a2 != a1);
    int nb = 1 + (b1 != b0) + (b2 != b0 && b2 != b1);
    return (na == 3 && nb == 1) || (na == 1 && nb == 3) || (na == 2 && nb == 2);
}

/* The landing at face f (hdi_epa_converge with a landing; docs/algorithms/contact.md, section 3):
 * the facet of M its support pairs name.
 * 1: landed (the facet's plane is within rounding of f, which is nearest: lower and upper have
 * met on an exact facet); 0 with *have set when the facet's support point w (a point of M, along
 * a normal within rounding of f's) lies beyond f and is new, to expand by; 0 otherwise. */
static int try_land(hdi_epa *e, int f, int *ia, int *ib, double w[3], int *have)
{
    const hdi_epa_face *face = &e->f[f];
    hdi_mface m;
    int fa[3], fb[3];
    *have = 0;
    if (e->land == NULL || !facet_pattern(e, face)) {
        return 0;
    }
    for (int k = 0; k < 3; ++k) {
        fa[k] = e->ia[face->v[k]];
        fb[k] = e->ib[face->v[k]];
    }
    if (!e->land->fn(e->land->ctx, fa, fb, e->stats, &m)) {
        return 0;
    }
    hdi_epa_result *res = e->res;
    if (m.h < res->upper) {
        res->upper = m.h;
        hdi_v3_copy(res->normal, m.n);
        res->upper_ia = m.sa;
        res->upper_ib = m.sb;
    }
    if (m.h - face->dist <= e->tol) {
        res->landed = m;
        return 1;
    }
    double pb[3], to_w[3];
    hdi_pair_b_vertex(e->pair, m.sb, pb);
    hdi_v3_sub(w, e->pair->a->verts + 3 * m.sa, pb);
    hdi_v3_sub(to_w, w, e->w[face->v[0]]);
    *ia = m.sa;
    *ib = m.sb;
    *have = hdi_v3_dot(face->n, to_w) > e->tol && !find_vertex_alive(e, m.sa, m.sb);
    return 0;
}

/* One expansion step at the nearest face f: the support point along its normal (or the landing's,
 * above), then either the end of the run (1: the support point lies on f to within rounding, or
 * is already a vertex of P, so lower and upper have met as far as P can tell) or P expanded by it
 * (0). -1: P could not be expanded (full, or its horizon was not a loop). */
static int expand_at(hdi_epa *e, int f)
{
    e->res->steps++;
    double n[3], w[3];
    int ia, ib, have;
    if (try_land(e, f, &ia, &ib, w, &have)) {
        e->res->outcome = HD_EPA_EDGE;
        return 1;
    }
    if (!have) {
        hdi_v3_copy(n, e->f[f].n);
        double h = epa_support(e, n, &ia, &ib, w);
        if (e->res->upper <= e->shallow_below) {
            e->res->outcome = HD_EPA_SHALLOW;
            return 1;
        }
        /* face f lies on the boundary of M: the bounds have met. A vertex of P returned by the
         * support mapping means the same on a convex P (it cannot lie beyond f), and is refused
         * as a new vertex when rounding made P locally non-convex. */
        if (h - e->f[f].dist <= e->tol || find_vertex_alive(e, ia, ib)) {
            e->res->outcome = HD_EPA_EDGE;
            return 1;
        }
    }
    int nw = add_vertex(e, w, ia, ib);
    return (nw < 0 || !expand(e, f, nw)) ? -1 : 0;
}

static hd_status epa_loop(hdi_epa *e, const hdi_simplex *start, int max_steps)
{
    hdi_epa_result *res = e->res;
    for (int expansions = 0;; ++expansions) {
        double lower;
        int f = nearest_face(e, &lower);
        if (lower > res->lower) {
            res->lower = lower;
        }
        if (res->lower > e->deep_above) {
            res->outcome = HD_EPA_DEEP;
            if (start->count == 4) {
                res->inner = *start;
            } else {
                inner_tetra(e, &res->inner);
            }
            return HD_OK;
        }
        if (expansions >= max_steps) {
            return HD_ERR_ITERATION_LIMIT;
        }
        int end = expand_at(e, f);
        if (end != 0) {
            return end > 0 ? HD_OK : HD_ERR_ITERATION_LIMIT;
        }
    }
}

static void epa_init(hdi_epa *e, const hdi_pair *pair, int *start_a, int *start_b, hd_stats *stats,
                     hdi_epa_result *out)
{
    e->pair = pair;
    e->stats = stats;
    e->start_a = start_a;
    e->start_b = start_b;
    e->tol = HD_GJK_ABS_TOL * pair->scale;
    e->nv = 0;
    e->nf = 0;
    e->free_count = 0;
    e->fast_normals = 0;
    e->stamp = 0;
    e->land = NULL;
    e->res = out;
    memset(out, 0, sizeof *out);
    out->outcome = HD_EPA_EDGE;
    out->upper = DBL_MAX;
    out->next_dist = -DBL_MAX;
    hdi_v3_set(out->normal, 1.0, 0.0, 0.0);
}

hd_status hdi_epa_depth(const hdi_pair *pair, const hdi_simplex *start, int *start_a, int *start_b,
                        int max_steps, hd_stats *stats, hdi_epa_result *out)
{
    hdi_epa e;
    hdi_epa_fixed fixed;
    epa_init(&e, pair, start_a, start_b, stats, out);
    e.deep_above = pair->eps;
    e.shallow_below = pair->eps;
    e.max_verts = HD_EPA_MAX_VERTS;
    e.max_faces = HD_EPA_MAX_FACES;
    e.w = fixed.w;
    e.ia = fixed.ia;
    e.ib = fixed.ib;
    e.f = fixed.f;
    e.free_ids = fixed.free_ids;
    e.stack_face = fixed.stack[0];
    e.stack_edge = fixed.stack[1];
    e.stack_next = fixed.stack[2];
    e.hz_face = fixed.hz[0];
    e.hz_edge = fixed.hz[1];
    e.made = fixed.hz[2];
    e.mark_face = fixed.hz[3];
    e.mark_stamp = fixed.hz[4];
    e.vref = fixed.hz[5];
    if (start->count < 1 || start->count > 4) {
        return HD_ERR_INVALID_ARG;
    }
    if (!build_initial(&e, start)) {
        return HD_OK;
    }
    return epa_loop(&e, start, max_steps);
}

/* Largest inner polytope hdi_epa_converge accepts (keeps every size far below 2^31). */
#define HD_EPA_CONVERGE_MAX (1 << 24)

size_t hdi_epa_storage_bytes(int max_verts)
{
    if (max_verts < 8 || max_verts > HD_EPA_CONVERGE_MAX) {
        return 0;
    }
    size_t v = (size_t)max_verts, f = 2 * v - 4;
    return f * sizeof(hdi_epa_face) + v * 3 * sizeof(double) +
           (2 * v + f + 3 * f + 6 * v) * sizeof(int);
}

/* Carves the arrays of e out of storage (hdi_epa_storage_bytes(max_verts) bytes). */
static void epa_carve(hdi_epa *e, void *storage, int max_verts)
{
    size_t v = (size_t)max_verts, f = 2 * v - 4;
    unsigned char *p = storage;
    e->max_verts = max_verts;
    e->max_faces = (int)f;
    e->f = (hdi_epa_face *)p;
    p += f * sizeof(hdi_epa_face);
    e->w = (double(*)[3])p;
    p += v * 3 * sizeof(double);
    int *q = (int *)p;
    e->ia = q, q += v;
    e->ib = q, q += v;
    e->free_ids = q, q += f;
    e->stack_face = q, q += f;
    e->stack_edge = q, q += f;
    e->stack_next = q, q += f;
    e->hz_face = q, q += v;
    e->hz_edge = q, q += v;
    e->made = q, q += v;
    e->mark_face = q, q += v;
    e->vref = q, q += v;
    e->mark_stamp = q;
}

static int feature_has_vertex(const hd_polytope *p, hdi_feature f, int v)
{
    int count = hdi_feature_vertex_count(p, f);
    for (int i = 0; i < count; ++i) {
        if (hdi_feature_vertex(p, f, i) == v) {
            return 1;
        }
    }
    return 0;
}

/* 1 when face g's three support pairs are points of the features fa (A's) and fb (B's). */
static int face_on_features(const hdi_epa *e, const hdi_epa_face *g, hdi_feature fa, hdi_feature fb)
{
    for (int k = 0; k < 3; ++k) {
        if (!feature_has_vertex(e->pair->a, fa, e->ia[g->v[k]]) ||
            !feature_has_vertex(e->pair->b, fb, e->ib[g->v[k]])) {
            return 0;
        }
    }
    return 1;
}

/* The least distance of P's faces that do not lie on the landed facet (the gradient's tie test,
 * contact/tie.c): only faces within the window of the lower bound are asked, the rest count at
 * their distance. Needs the origin strictly inside every face (lower > 0). */
static void record_next(const hdi_epa *e, double lower)
{
    hdi_epa_result *res = e->res;
    const hdi_epa_land *land = e->land;
    if (land == NULL || !(land->next_window > 0.0) || res->landed.kind == HD_FACE_NONE ||
        !(lower > 0.0)) {
        return;
    }
    hdi_feature fa, fb;
    hdi_mface_features(e->pair, &res->landed, &fa, &fb);
    res->landed_features = 1;
    res->landed_fa = fa;
    res->landed_fb = fb;
    double next = DBL_MAX;
    for (int i = 0; i < e->nf; ++i) {
        const hdi_epa_face *g = &e->f[i];
        if (!g->alive || g->dist >= next) {
            continue;
        }
        if (g->dist <= lower + land->next_window && face_on_features(e, g, fa, fb)) {
            continue;
        }
        next = g->dist;
    }
    res->next_dist = next;
}

/* The nearest face of P at the end of a converged run, for the caller's facet search. */
static void record_face(const hdi_epa *e)
{
    double lower;
    int f = nearest_face(e, &lower);
    hdi_epa_result *res = e->res;
    res->vertices = e->nv;
    if (f < 0) {
        return;
    }
    res->face_count = 1;
    hdi_v3_copy(res->face_n, e->f[f].n);
    res->face_dist = e->f[f].dist;
    for (int k = 0; k < 3; ++k) {
        res->face_ia[k] = e->ia[e->f[f].v[k]];
        res->face_ib[k] = e->ib[e->f[f].v[k]];
    }
    record_next(e, lower);
}

hd_status hdi_epa_converge(const hdi_pair *pair, const hdi_simplex *start, int *start_a,
                           int *start_b, double target, int max_steps, void *storage, int max_verts,
                           const hdi_epa_land *land, hd_stats *stats, hdi_epa_result *out)
{
    hdi_epa e;
    epa_init(&e, pair, start_a, start_b, stats, out);
    e.land = land;
    if (start->count < 1 || start->count > 4 || hdi_epa_storage_bytes(max_verts) == 0) {
        return HD_ERR_INVALID_ARG;
    }
    e.deep_above = DBL_MAX;
    e.shallow_below = -DBL_MAX;
    e.fast_normals =
        1; /* the target is far above their rounding; slivers still get double-double */
    epa_carve(&e, storage, max_verts);
    if (!build_initial(&e, start)) {
        out->vertices = e.nv;
        return HD_OK; /* flat or degenerate set-up: lower 0, upper across the flat direction */
    }
    hd_status st = HD_OK;
    for (int expansions = 0;; ++expansions) {
        double lower;
        int f = nearest_face(&e, &lower);
        out->lower = hdi_max(out->lower, lower);
        if (out->upper - out->lower <= target) {
            break;
        }
        if (expansions >= max_steps) {
            st = HD_ERR_ITERATION_LIMIT;
            break;
        }
        if (expand_at(&e, f) != 0) {
            break; /* met, or P could not grow: the caller reads the bounds */
        }
    }
    record_face(&e);
    return st;
}
