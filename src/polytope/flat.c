/* Polytopes of affine dimension 0 (a point), 1 (a segment) and 2 (a convex polygon), in the
 * layout of polytope/internal.h. Their vertices are input points, unchanged. */
#include <math.h>
#include <stdlib.h>

#include "core/math.h"
#include "polytope/build.h"

typedef struct hdi_planar_point {
    double x, y;
    int index;
} hdi_planar_point;

static int planar_cmp(const void *a, const void *b)
{
    const hdi_planar_point *p = a, *q = b;
    if (p->x != q->x) {
        return p->x < q->x ? -1 : 1;
    }
    if (p->y != q->y) {
        return p->y < q->y ? -1 : 1;
    }
    return p->index - q->index;
}

/* Orientation of c relative to the directed line a -> b in the plane: twice the signed area. */
static double turn_sign(const hdi_planar_point *a, const hdi_planar_point *b,
                        const hdi_planar_point *c)
{
    return (b->x - a->x) * (c->y - a->y) - (b->y - a->y) * (c->x - a->x);
}

/* Andrew's monotone chain (Andrew 1979): sort by (x, y); the lower hull is built left to right
 * and the upper hull right to left, popping the last point b while, with a the point before it
 * and c the new one, b is not at least tol to the left of the line a c. The turn
 * (b - a) x (c - a) equals |c - a| times b's distance from that line, so the test is
 * turn <= tol |c - a|. Points within tol of the polygon's boundary are thus not vertices (as in
 * the coplanar merge of solids), and rounding of the projected coordinates cannot leave a
 * collinear vertex. The result is counter-clockwise in the (x, y) plane. hull needs room for
 * count + 1 entries; returns the number of hull vertices, -1 when out of memory. */
static int keeps_left(const hdi_planar_point *a, const hdi_planar_point *b,
                      const hdi_planar_point *c, double tol)
{
    double len = hypot(c->x - a->x, c->y - a->y);
    return turn_sign(a, b, c) > tol * len;
}

static int monotone_chain(hdi_planar_point *pts, int count, double tol, int *hull)
{
    qsort(pts, (size_t)count, sizeof *pts, planar_cmp);
    hdi_planar_point **h = malloc(((size_t)count + 1) * 2 * sizeof *h);
    if (h == NULL) {
        return -1;
    }
    int k = 0;
    for (int i = 0; i < count; ++i) {
        while (k >= 2 && !keeps_left(h[k - 2], h[k - 1], &pts[i], tol)) {
            --k;
        }
        h[k++] = &pts[i];
    }
    for (int i = count - 2, lower = k + 1; i >= 0; --i) {
        while (k >= lower && !keeps_left(h[k - 2], h[k - 1], &pts[i], tol)) {
            --k;
        }
        h[k++] = &pts[i];
    }
    int n = k > 1 ? k - 1 : k; /* the last point repeats the first */
    for (int i = 0; i < n; ++i) {
        hull[i] = h[i]->index;
    }
    free(h);
    return n;
}

static hd_status point_build(const double *xyz, int index, hd_polytope **out)
{
    hd_polytope *p = hdi_poly_alloc(0, 1, 0, 0, 0);
    if (p == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    hdi_v3_copy(p->verts, xyz + 3 * index);
    p->vert_face[0] = -1;
    hdi_poly_fill_bounds(p);
    static const int zero = 0;
    static const double one = 1.0;
    hdi_interior_set(p, 0, 1, &zero, &one);
    hdi_interior_set(p, 1, 1, &zero, &one);
    *out = p;
    return HD_OK;
}

/* The segment between the extreme points along the frame's axis. */
static hd_status segment_build(const double *xyz, int count, const double axis[3],
                               hd_polytope **out)
{
    int lo = 0, hi = 0;
    for (int i = 1; i < count; ++i) {
        double x = hdi_v3_dot(axis, xyz + 3 * i);
        if (x < hdi_v3_dot(axis, xyz + 3 * lo)) {
            lo = i;
        }
        if (x > hdi_v3_dot(axis, xyz + 3 * hi)) {
            hi = i;
        }
    }
    hd_polytope *p = hdi_poly_alloc(1, 2, 1, 0, 0);
    if (p == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    hdi_v3_copy(p->verts, xyz + 3 * lo);
    hdi_v3_copy(p->verts + 3, xyz + 3 * hi);
    p->vert_offset[1] = 1;
    p->vert_offset[2] = 2;
    p->vert_adj[0] = 1;
    p->vert_adj[1] = 0;
    p->vert_face[0] = p->vert_face[1] = -1;
    p->edge_verts[1] = 1;
    p->edge_faces[0] = p->edge_faces[1] = -1;
    hdi_poly_fill_bounds(p);
    static const int ends[2] = {0, 1};
    static const double third[2] = {2.0 / 3.0, 1.0 / 3.0};
    static const double two_thirds[2] = {1.0 / 3.0, 2.0 / 3.0};
    hdi_interior_set(p, 0, 2, ends, third);
    hdi_interior_set(p, 1, 2, ends, two_thirds);
    *out = p;
    return HD_OK;
}

/* Polygon topology (polytope/internal.h): edge e = (e, e+1), face 0 = the loop around +n,
 * face 1 = the reversed loop; entry j of face 1 is vertex n-1-j, its edge runs to n-2-j. */
static void polygon_topology(hd_polytope *p, int n)
{
    for (int v = 0; v < n; ++v) {
        int prev = (v + n - 1) % n;
        p->vert_offset[v + 1] = 2 * (v + 1);
        p->vert_adj[2 * v] = (v + 1) % n;
        p->vert_edges[2 * v] = v;
        p->vert_adj[2 * v + 1] = prev;
        p->vert_edges[2 * v + 1] = prev;
        p->vert_face[v] = 0;
        p->edge_verts[2 * v] = v;
        p->edge_verts[2 * v + 1] = (v + 1) % n;
        p->edge_faces[2 * v] = 0;
        p->edge_faces[2 * v + 1] = 1;
        p->face_verts[v] = v;
        p->face_edges[v] = v;
        p->face_adj[v] = 1;
        p->face_verts[n + v] = n - 1 - v;
        p->face_edges[n + v] = (2 * n - 2 - v) % n;
        p->face_adj[n + v] = 0;
    }
    p->face_offset[1] = n;
    p->face_offset[2] = 2 * n;
}

/* Spread of the vertices along n: max n.v - min n.v. */
static double spread_of(const hd_polytope *p, const double n[3])
{
    double lo = hdi_v3_dot(n, p->verts), hi = lo;
    for (int v = 1; v < p->vertex_count; ++v) {
        double x = hdi_v3_dot(n, p->verts + 3 * v);
        if (x < lo) {
            lo = x;
        }
        if (x > hi) {
            hi = x;
        }
    }
    return hi - lo;
}

/* The polygon's plane. The frame's normal comes from three points only; every input point is
 * within tol of the frame's plane (that is how the set was found flat), so the vertices' spread
 * along it is at most 2 tol. Newell's area vector of the kept loop (polytope/geometry.c) is the
 * area-weighted normal and usually spreads the vertices less. The normal of smaller spread is
 * kept, so the mid-plane is within tol of every vertex whenever the frame's plane is. */
static void polygon_normal(const hd_polytope *p, const double guess[3], double normal[3])
{
    int n = p->vertex_count;
    double c[3] = {0, 0, 0}, a[3] = {0, 0, 0};
    for (int v = 0; v < n; ++v) {
        hdi_v3_add(c, c, p->verts + 3 * v);
    }
    hdi_v3_scale(c, c, 1.0 / n);
    for (int v = 0; v < n; ++v) {
        double x[3], y[3], z[3];
        hdi_v3_sub(x, p->verts + 3 * v, c);
        hdi_v3_sub(y, p->verts + 3 * ((v + 1) % n), c);
        hdi_v3_cross(z, x, y);
        hdi_v3_add(a, a, z);
    }
    hdi_v3_copy(normal, guess);
    if (hdi_v3_normalize(a) > 0.0 && hdi_v3_dot(a, guess) > 0.0 &&
        spread_of(p, a) < spread_of(p, guess)) {
        hdi_v3_copy(normal, a);
    }
}

static void polygon_geometry(hd_polytope *p, const double guess[3])
{
    double normal[3];
    polygon_normal(p, guess, normal);
    double lo = hdi_v3_dot(normal, p->verts), hi = lo;
    for (int v = 1; v < p->vertex_count; ++v) {
        double x = hdi_v3_dot(normal, p->verts + 3 * v);
        if (x < lo) {
            lo = x;
        }
        if (x > hi) {
            hi = x;
        }
    }
    hdi_v3_copy(p->plane_normal, normal);
    p->plane_dist = 0.5 * (lo + hi);
    hdi_v3_copy(p->face_normal, normal);
    hdi_v3_neg(p->face_normal + 3, normal);
    p->face_dist[0] = hi;
    p->face_dist[1] = -lo;
    hdi_poly_fill_bounds(p);
    hdi_frame fr;
    hdi_affine_frame(p->verts, p->vertex_count, 0.0, &fr);
    static const double centroid[3] = {1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0};
    static const double skewed[3] = {0.5, 0.25, 0.25};
    hdi_interior_set(p, 0, 3, fr.p, centroid);
    hdi_interior_set(p, 1, 3, fr.p, skewed);
}

static hd_status polygon_build(const double *xyz, int count, const hdi_frame *frame,
                               hd_polytope **out)
{
    const double *o = xyz + 3 * frame->p[0];
    double e2[3];
    hdi_v3_cross(e2, frame->normal, frame->axis);
    hdi_planar_point *pts = malloc((size_t)count * sizeof *pts);
    int *hull = malloc(((size_t)count + 1) * sizeof(int));
    hd_status st = HD_ERR_NO_MEMORY;
    int n = -1;
    if (pts != NULL && hull != NULL) {
        for (int i = 0; i < count; ++i) {
            double w[3];
            hdi_v3_sub(w, xyz + 3 * i, o);
            pts[i].x = hdi_v3_dot(w, frame->axis);
            pts[i].y = hdi_v3_dot(w, e2);
            pts[i].index = i;
        }
        n = monotone_chain(pts, count, frame->tol, hull);
    }
    if (n >= 3) {
        hd_polytope *p = hdi_poly_alloc(2, n, n, 2, 2 * n);
        if (p != NULL) {
            for (int v = 0; v < n; ++v) {
                hdi_v3_copy(p->verts + 3 * v, xyz + 3 * hull[v]);
            }
            polygon_topology(p, n);
            polygon_geometry(p, frame->normal);
            *out = p;
            st = HD_OK;
        }
    } else if (n >= 0) {
        st = segment_build(xyz, count, frame->axis, out);
    }
    free(pts);
    free(hull);
    return st;
}

hd_status hdi_flat_build(const double *xyz, int count, const hdi_frame *frame, hd_polytope **out)
{
    switch (frame->dim) {
        case 0:
            return point_build(xyz, frame->p[0], out);
        case 1:
            return segment_build(xyz, count, frame->axis, out);
        default:
            return polygon_build(xyz, count, frame, out);
    }
}
