/* hd_polytope_validate: the full structural and geometric check of a polytope (expensive, for
 * tests and for callers who want to verify a polytope they did not build). It relies on nothing
 * the constructors guarantee: every array is range-checked before use. */
#include <math.h>
#include <stdlib.h>

#include "core/math.h"
#include "polytope/build.h"
#include "core/tolerances.h"

static int in_range(int x, int n)
{
    return x >= 0 && x < n;
}

/* CSR offsets: start at 0, non-decreasing, end at total. */
static int offsets_ok(const int *off, int n, int total)
{
    if (off[0] != 0 || off[n] != total) {
        return 0;
    }
    for (int i = 0; i < n; ++i) {
        if (off[i + 1] < off[i]) {
            return 0;
        }
    }
    return 1;
}

/* Edge e joins v and w (either direction). */
static int edge_joins(const hd_polytope *p, int e, int v, int w)
{
    if (!in_range(e, p->edge_count)) {
        return 0;
    }
    int a = p->edge_verts[2 * e], b = p->edge_verts[2 * e + 1];
    return (a == v && b == w) || (a == w && b == v);
}

/* Vertex adjacency: ranges, each entry's edge joins the pair, symmetric, vert_face valid. */
static hd_status validate_vertex_adjacency(const hd_polytope *p)
{
    int nv = p->vertex_count;
    if (!offsets_ok(p->vert_offset, nv, 2 * p->edge_count)) {
        return HD_ERR_BAD_MESH;
    }
    for (int v = 0; v < nv; ++v) {
        for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
            int w = p->vert_adj[k];
            if (!in_range(w, nv) || w == v || !edge_joins(p, p->vert_edges[k], v, w)) {
                return HD_ERR_BAD_MESH;
            }
            int back = 0;
            for (int j = p->vert_offset[w]; j < p->vert_offset[w + 1]; ++j) {
                back += p->vert_adj[j] == v;
            }
            if (back != 1) {
                return HD_ERR_BAD_MESH;
            }
        }
        if (p->dim >= 2) {
            int f = p->vert_face[v], found = 0;
            if (!in_range(f, p->face_count)) {
                return HD_ERR_BAD_MESH;
            }
            for (int k = p->face_offset[f]; k < p->face_offset[f + 1]; ++k) {
                found |= p->face_verts[k] == v;
            }
            if (!found) {
                return HD_ERR_BAD_MESH;
            }
        } else if (p->vert_face[v] != -1) {
            return HD_ERR_BAD_MESH;
        }
    }
    return HD_OK;
}

/* Loop entry k of face f: its edge joins the entry's vertex to the next, runs v0 -> v1 exactly
 * when f is edge_faces[2e], and face_adj is the edge's other face. Each edge is used twice. */
static hd_status validate_face_entries(const hd_polytope *p, int *uses)
{
    for (int f = 0; f < p->face_count; ++f) {
        int b = p->face_offset[f], e_end = p->face_offset[f + 1];
        if (e_end - b < 3) {
            return HD_ERR_BAD_MESH;
        }
        for (int k = b; k < e_end; ++k) {
            int v = p->face_verts[k], w = p->face_verts[k + 1 < e_end ? k + 1 : b];
            int e = p->face_edges[k];
            if (!in_range(v, p->vertex_count) || !edge_joins(p, e, v, w)) {
                return HD_ERR_BAD_MESH;
            }
            int side = p->edge_verts[2 * e] == v ? 0 : 1;
            if (p->edge_faces[2 * e + side] != f ||
                p->face_adj[k] != p->edge_faces[2 * e + 1 - side]) {
                return HD_ERR_BAD_MESH;
            }
            uses[e]++;
        }
    }
    for (int e = 0; e < p->edge_count; ++e) {
        if (uses[e] != 2) {
            return HD_ERR_BAD_MESH;
        }
    }
    return HD_OK;
}

/* Solid topology: Euler, face entries, closed 2-manifold (half-edge pairing and vertex fans). */
static hd_status validate_solid_topology(const hd_polytope *p)
{
    if (p->face_count < 4 || p->vertex_count - p->edge_count + p->face_count != 2) {
        return HD_ERR_BAD_MESH;
    }
    if (!offsets_ok(p->face_offset, p->face_count, 2 * p->edge_count)) {
        return HD_ERR_BAD_MESH;
    }
    int *uses = calloc((size_t)p->edge_count, sizeof(int));
    if (uses == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    hd_status st = validate_face_entries(p, uses);
    free(uses);
    if (st != HD_OK) {
        return st;
    }
    /* hdi_loops is a read-only view here: hdi_halfedges_build never writes through it */
    hdi_loops view = {p->face_count, (int *)p->face_offset, (int *)p->face_verts, NULL};
    hdi_halfedges he;
    st = hdi_halfedges_build(&view, p->vertex_count, &he);
    if (st == HD_OK) {
        hdi_halfedges_free(&he);
    }
    return st;
}

/* Planes: unit normals, every vertex on or inside every face plane, each face's vertices on its
 * plane, loops counter-clockwise around their normal (Newell's area vector along it). */
static hd_status validate_planes(const hd_polytope *p, double tol)
{
    for (int f = 0; f < p->face_count; ++f) {
        const double *n = p->face_normal + 3 * f;
        double d = p->face_dist[f];
        if (!(fabs(hdi_v3_len(n) - 1.0) <= HD_VALIDATE_UNIT_TOL) || !isfinite(d)) {
            return HD_ERR_BAD_MESH;
        }
        for (int v = 0; v < p->vertex_count; ++v) {
            if (!(hdi_v3_dot(n, p->verts + 3 * v) - d <= tol)) {
                return HD_ERR_NOT_CONVEX;
            }
        }
        const int *loop = p->face_verts + p->face_offset[f];
        int m = p->face_offset[f + 1] - p->face_offset[f];
        double area[3] = {0, 0, 0};
        const double *o = p->verts + 3 * loop[0];
        for (int i = 0; i < m; ++i) {
            const double *a = p->verts + 3 * loop[i], *b = p->verts + 3 * loop[(i + 1) % m];
            if (!(hdi_v3_dot(n, a) - d >= -tol)) {
                return HD_ERR_NOT_CONVEX;
            }
            double oa[3], ob[3], x[3];
            hdi_v3_sub(oa, a, o);
            hdi_v3_sub(ob, b, o);
            hdi_v3_cross(x, oa, ob);
            hdi_v3_add(area, area, x);
        }
        if (!(hdi_v3_dot(area, n) > 0.0)) {
            return HD_ERR_BAD_MESH;
        }
    }
    return HD_OK;
}

/* Interior points: convex combinations of valid vertices that reproduce the stored point; for a
 * solid, strictly inside every face plane by the stored clearance (to rounding). */
/* The portal's copy of a solid's centroid vertices (internal.h): interior[0]'s, or all -1. */
static int portal_vertices_agree(const hd_polytope *p)
{
    const hdi_interior *in = &p->interior[0];
    int any = 0, same = in->count == 4;
    for (int k = 0; k < 4; ++k) {
        any = any || p->portal_vertex[k] != -1;
        same = same && p->portal_vertex[k] == in->index[k] && in->weight[k] == 0.25;
    }
    return !any || same;
}

static hd_status validate_interior(const hd_polytope *p, double tol)
{
    if (!portal_vertices_agree(p)) {
        return HD_ERR_BAD_MESH;
    }
    for (int i = 0; i < 2; ++i) {
        const hdi_interior *in = &p->interior[i];
        if (in->count < 1 || in->count > 4) {
            return HD_ERR_BAD_MESH;
        }
        double sum = 0.0, x[3] = {0, 0, 0};
        for (int j = 0; j < in->count; ++j) {
            if (!in_range(in->index[j], p->vertex_count) || !(in->weight[j] >= 0.0)) {
                return HD_ERR_BAD_MESH;
            }
            sum += in->weight[j];
            hdi_v3_madd(x, x, in->weight[j], p->verts + 3 * in->index[j]);
        }
        if (!(fabs(sum - 1.0) <= 1e-12) || !(hdi_v3_dist(x, in->point) <= tol)) {
            return HD_ERR_BAD_MESH;
        }
        if (p->dim < 3) {
            continue;
        }
        if (!(in->clearance > 0.0)) {
            return HD_ERR_BAD_MESH;
        }
        for (int f = 0; f < p->face_count; ++f) {
            double s = p->face_dist[f] - hdi_v3_dot(p->face_normal + 3 * f, in->point);
            if (!(s > 0.0)) {
                return HD_ERR_NOT_CONVEX;
            }
        }
    }
    return HD_OK;
}

/* Polygon: the fixed topology of polytope/internal.h; vertices within tol of the mid-plane
 * (plane_normal, plane_dist) and between the two face planes, whose normals are +-plane_normal;
 * a convex counter-clockwise loop around plane_normal: every vertex within tol inside every edge
 * line (in-plane outward normal (b - a) x n), and a positive area along plane_normal. */
static hd_status validate_polygon(const hd_polytope *p, double tol)
{
    int n = p->vertex_count;
    if (n < 3 || p->edge_count != n || p->face_count != 2) {
        return HD_ERR_BAD_MESH;
    }
    for (int k = 0; k < n; ++k) {
        if (p->face_verts[k] != k || p->face_verts[n + k] != n - 1 - k) {
            return HD_ERR_BAD_MESH;
        }
        if (p->edge_verts[2 * k] != k || p->edge_verts[2 * k + 1] != (k + 1) % n) {
            return HD_ERR_BAD_MESH;
        }
    }
    const double *pn = p->plane_normal;
    if (!(fabs(hdi_v3_len(pn) - 1.0) <= HD_VALIDATE_UNIT_TOL)) {
        return HD_ERR_BAD_MESH;
    }
    for (int c = 0; c < 3; ++c) {
        if (p->face_normal[c] != pn[c] || p->face_normal[3 + c] != -pn[c]) {
            return HD_ERR_BAD_MESH;
        }
    }
    double area[3] = {0, 0, 0};
    for (int e = 0; e < n; ++e) {
        const double *a = p->verts + 3 * e, *b = p->verts + 3 * ((e + 1) % n);
        double ab[3], m[3], oa[3], ob[3], x[3];
        hdi_v3_sub(ab, b, a);
        hdi_v3_cross(m, ab, pn);
        if (!(hdi_v3_normalize(m) > 0.0)) {
            return HD_ERR_BAD_MESH;
        }
        for (int v = 0; v < n; ++v) {
            double w[3];
            hdi_v3_sub(w, p->verts + 3 * v, a);
            if (!(hdi_v3_dot(m, w) <= tol)) {
                return HD_ERR_NOT_CONVEX;
            }
        }
        double h = hdi_v3_dot(pn, a);
        if (!(fabs(h - p->plane_dist) <= tol)) {
            return HD_ERR_NOT_CONVEX;
        }
        if (!(h <= p->face_dist[0] + tol) || !(-h <= p->face_dist[1] + tol)) {
            return HD_ERR_NOT_CONVEX;
        }
        hdi_v3_sub(oa, a, p->verts);
        hdi_v3_sub(ob, b, p->verts);
        hdi_v3_cross(x, oa, ob);
        hdi_v3_add(area, area, x);
    }
    return hdi_v3_dot(area, pn) > 0.0 ? HD_OK : HD_ERR_BAD_MESH;
}

static hd_status validate_counts(const hd_polytope *p)
{
    if (p->dim < 0 || p->dim > 3 || p->vertex_count < 1) {
        return HD_ERR_BAD_MESH;
    }
    if (p->dim == 0 && (p->vertex_count != 1 || p->edge_count != 0 || p->face_count != 0)) {
        return HD_ERR_BAD_MESH;
    }
    if (p->dim == 1) {
        if (p->vertex_count != 2 || p->edge_count != 1 || p->face_count != 0) {
            return HD_ERR_BAD_MESH;
        }
        if (p->edge_faces[0] != -1 || p->edge_faces[1] != -1) {
            return HD_ERR_BAD_MESH;
        }
        if (!(hdi_v3_dist(p->verts, p->verts + 3) > 0.0)) {
            return HD_ERR_BAD_MESH;
        }
    }
    for (int i = 0; i < 3 * p->vertex_count; ++i) {
        if (!isfinite(p->verts[i])) {
            return HD_ERR_BAD_MESH;
        }
    }
    return HD_OK;
}

/* Extreme magnitudes are checked on an exactly rescaled copy (see hdi_poly_scaled_copy); copying
 * reads loop_total = face_offset[face_count], so the offsets are range-checked first. */
static hd_status validate_scaled(const hd_polytope *poly, const hd_tolerance *t);

hd_status hd_polytope_validate(const hd_polytope *poly, const hd_tolerance *tol)
{
    if (poly == NULL) {
        return HD_ERR_NULL;
    }
    hd_tolerance t;
    hd_status st = hdi_poly_check_tolerance(tol, &t);
    if (st != HD_OK) {
        return st;
    }
    st = validate_counts(poly);
    if (st != HD_OK) {
        return st;
    }
    double lo[3], hi[3], extent, max_abs;
    hdi_points_bounds(poly->verts, poly->vertex_count, lo, hi, &extent, &max_abs);
    int e = 0;
    if (max_abs > ldexp(1.0, HD_SCALE_RANGE) ||
        (max_abs > 0.0 && max_abs < ldexp(1.0, -HD_SCALE_RANGE))) {
        e = ilogb(max_abs);
    }
    if (e == 0) {
        return validate_scaled(poly, &t);
    }
    if (poly->dim >= 2 && !offsets_ok(poly->face_offset, poly->face_count, 2 * poly->edge_count)) {
        return HD_ERR_BAD_MESH;
    }
    hd_polytope *copy = hdi_poly_clone_scaled(poly, -e);
    if (copy == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    st = validate_scaled(copy, &t);
    free(copy);
    return st;
}

static hd_status validate_scaled(const hd_polytope *poly, const hd_tolerance *t)
{
    hd_status st = HD_OK;
    double lo[3], hi[3], extent, max_abs;
    hdi_points_bounds(poly->verts, poly->vertex_count, lo, hi, &extent, &max_abs);
    double tol_len = hdi_poly_length_tol(t->convex_rel, extent, max_abs);
    if (poly->dim == 3) {
        st = validate_solid_topology(poly);
        if (st == HD_OK) {
            st = validate_planes(poly, tol_len);
        }
    } else if (poly->dim == 2) {
        if (!offsets_ok(poly->face_offset, 2, 2 * poly->edge_count)) {
            return HD_ERR_BAD_MESH;
        }
        int *uses = calloc((size_t)poly->edge_count, sizeof(int));
        if (uses == NULL) {
            return HD_ERR_NO_MEMORY;
        }
        st = validate_face_entries(poly, uses);
        free(uses);
        if (st == HD_OK) {
            st = validate_polygon(poly, tol_len);
        }
    }
    if (st == HD_OK) {
        st = validate_vertex_adjacency(poly);
    }
    if (st == HD_OK) {
        st = validate_interior(poly, tol_len);
    }
    return st;
}
