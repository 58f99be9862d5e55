/* Support mapping of one polytope: the vertex maximising d.v, by scanning, by the direction table
 * or by hill climbing (the "topologically sorted" support search of Nascimento's GJK article,
 * "Support mapping"). Why a local maximum of the vertex graph is global, and what merged faces
 * and ties change: docs/algorithms/support.md, section 1. */
#include "core/math.h"
#include "support/support.h"

int hdi_support_brute(const hd_polytope *poly, const double d[3])
{
    return hdi_support_scan_poly(poly, d);
}

/* Best vertex strictly above *best_value among the vertices of face f; -1 when none. */
static int scan_face(const hd_polytope *poly, int f, const double d[3], double *best_value)
{
    int found = -1;
    for (int k = poly->face_offset[f]; k < poly->face_offset[f + 1]; ++k) {
        int u = poly->face_verts[k];
        double x = hdi_v3_dot(poly->verts + 3 * u, d);
        if (x > *best_value) {
            *best_value = x;
            found = u;
        }
    }
    return found;
}

/* The stop test extended to the faces of v with more than three vertices: a merged face's loop
 * lacks the exact hull's diagonals, whose ends it joins, so its vertices count as neighbours of v
 * (support.md, section 1). Each face of v is the left face of exactly one edge leaving v, which
 * lists every face once. A polygon (dimension 2) has one vertex set for both of its faces: face 0
 * is scanned alone. */
static int scan_faces_of(const hd_polytope *poly, int v, const double d[3], double *best_value)
{
    /* nothing to do when every face is a triangle (loops of total length 3 per face) */
    if (poly->face_count == 0 || poly->face_offset[poly->face_count] == 3 * poly->face_count) {
        return -1;
    }
    if (poly->dim == 2) {
        return poly->vertex_count > 3 ? scan_face(poly, 0, d, best_value) : -1;
    }
    int found = -1;
    for (int k = poly->vert_offset[v]; k < poly->vert_offset[v + 1]; ++k) {
        int e = poly->vert_edges[k];
        int f =
            poly->edge_verts[2 * e] == v ? poly->edge_faces[2 * e] : poly->edge_faces[2 * e + 1];
        if (f >= 0 && poly->face_offset[f + 1] - poly->face_offset[f] > 3) {
            int u = scan_face(poly, f, d, best_value);
            if (u >= 0) {
                found = u;
            }
        }
    }
    return found;
}

int hdi_support_climb(const hd_polytope *poly, const double d[3], int start)
{
    int direct = hdi_support_direct(poly, d);
    return direct >= 0 ? direct : hdi_support_walk(poly, d, start);
}

/* Hill climbing: at a vertex of a convex polytope the tangent cone is spanned by the edges leaving
 * it, so a vertex with no better neighbour (merged faces included) maximises d.v. */
int hdi_support_walk(const hd_polytope *poly, const double d[3], int start)
{
    int n = poly->vertex_count;
    int cur = (start >= 0 && start < n) ? start : 0;
    const double *verts = poly->verts;
    const int *offset = poly->vert_offset;
    const int *adj = poly->vert_adj;
    double best_value = hdi_v3_dot(verts + 3 * cur, d);
    /* Cap: every move strictly increases the value, so at most n - 1 moves happen. */
    for (int moves = 0; moves < n; ++moves) {
        int next = -1;
        for (int k = offset[cur]; k < offset[cur + 1]; ++k) {
            int u = adj[k];
            double x = hdi_v3_dot(verts + 3 * u, d);
            if (x > best_value) {
                best_value = x;
                next = u;
            }
        }
        if (next < 0) {
            next = scan_faces_of(poly, cur, d, &best_value);
            if (next < 0) {
                break;
            }
        }
        cur = next;
    }
    return cur;
}

/* Start of a hill climb on p in direction d: the best of the previous support vertex, the given
 * candidates (the simplex's vertices: supports of earlier directions) and an evenly strided
 * sample of k vertices, k = 8, 16 or 32 as n grows. GJK's first directions swing almost to the
 * opposite side each iteration, so the last support vertex alone is often the worst start there
 * is; the sample costs k dot products with predictable branches and shortens the walk, whose
 * steps cost degree-many dot products with unpredictable ones. */
int hdi_support_climb_start(const hd_polytope *p, const double d[3], int start, const int *cand,
                            int count)
{
    const double *v = p->verts;
    int n = p->vertex_count;
    int best = start;
    double best_value = hdi_v3_dot(v + 3 * start, d);
    for (int j = 0; j < count; ++j) {
        double x = hdi_v3_dot(v + 3 * cand[j], d);
        if (x > best_value) {
            best_value = x;
            best = cand[j];
        }
    }
    int stride = n / (n < 256 ? 8 : n < 4096 ? 16 : 32);
    stride = stride > 0 ? stride : 1; /* below 8 vertices every one (a step of 0 would not end) */
    for (int i = stride / 2; i < n; i += stride) {
        double x = hdi_v3_dot(v + 3 * i, d);
        if (x > best_value) {
            best_value = x;
            best = i;
        }
    }
    return best;
}
