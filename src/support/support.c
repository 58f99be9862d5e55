/* Support mapping of one polytope: the vertex maximising d.v, by scanning or by hill climbing.
 *
 * Hill climbing (the "topologically sorted" support search the GJK sources mention, 002/004
 * "Support mapping"): from a start vertex, move to the neighbour with the largest d.v while it is
 * strictly larger. Correctness: at a vertex v of a convex polytope the tangent cone is generated
 * by the edges leaving v, so every point x of the polytope satisfies x - v = sum l_k (u_k - v)
 * with l_k >= 0 over the neighbours u_k; if d.(u_k - v) <= 0 for every neighbour then
 * d.(x - v) <= 0 for every x: a local maximum of the vertex graph is global.
 *
 * That argument needs planar faces. hedra's faces are polygons in which coplanar facets of the hull
 * were merged (the coordinates' resolution for hulls, convex_rel for meshes), so a face's vertices
 * may sit off its plane by up to that tolerance, and the loop of a merged face lacks the diagonals
 * that the exact hull has. A walk along such a loop can stop at a vertex below the true maximum by
 * about the merge tolerance, far more than rounding. The diagonals of the exact hull join vertices
 * of one merged face, so when the walk stops at v we also look at every vertex of each face of v
 * with more than three vertices (a triangle's vertices are already neighbours): with those extra
 * "neighbours" the graph contains the exact hull's edge graph and the argument above applies again.
 * The walk then resumes from any strictly better vertex found.
 *
 * Ties and near-ties: every move strictly increases the computed d.v, so the walk visits no
 * vertex twice and stops after at most vertex_count moves. Where it stops, no neighbour (in the
 * extended sense) has a larger computed value, so each exact d.(u_k - v) is at most the rounding
 * r of two dot products (a few units of 2^-53 |d| max|v|), and by the cone argument the exact
 * value at v is below the maximum by at most r sum l_k. sum l_k exceeds a few units only if the
 * maximiser lies far away across a chain of faces all within about r / (edge length) of being
 * perpendicular to d, i.e. faces coplanar to far below the merge tolerance, which the builder
 * merged into one face: their vertices are then scanned directly. Plateaus of exactly equal
 * values (d along a face normal) stop on one of the equal vertices, all of them maximisers.
 *
 * Small polytopes are scanned instead (HD_SUPPORT_SCAN_MAX in support/support.h): a scan of n
 * vertices costs about n fused dot products with well-predicted branches, a walk a few steps of
 * degree-many dot products with unpredictable ones; on random directions the scan wins below
 * about 40 vertices on x86-64 (measured: 21 ns against 108 ns at 12 vertices, equal near 64). */
#include "core/math.h"
#include "support/support.h"

int hd_support_brute(const hd_polytope *poly, const double d[3])
{
    return hd_support_scan(poly->verts, poly->vertex_count, d);
}

/* Best vertex strictly above *best_value among the vertices of face f; -1 when none. */
static int scan_face(const hd_polytope *poly, int f, const double d[3], double *best_value)
{
    int found = -1;
    for (int k = poly->face_offset[f]; k < poly->face_offset[f + 1]; ++k) {
        int u = poly->face_verts[k];
        double x = hd_v3_dot(poly->verts + 3 * u, d);
        if (x > *best_value) {
            *best_value = x;
            found = u;
        }
    }
    return found;
}

/* The stop test extended to the faces of v with more than three vertices (see above). Each face
 * of v is the left face of exactly one edge leaving v, which lists every face once. A polygon
 * (dimension 2) has one vertex set for both of its faces: face 0 is scanned alone. */
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

int hd_support_climb(const hd_polytope *poly, const double d[3], int start)
{
    int direct = hd_support_direct(poly, d);
    return direct >= 0 ? direct : hd_support_walk(poly, d, start);
}

int hd_support_walk(const hd_polytope *poly, const double d[3], int start)
{
    int n = poly->vertex_count;
    int cur = (start >= 0 && start < n) ? start : 0;
    const double *verts = poly->verts;
    const int *offset = poly->vert_offset;
    const int *adj = poly->vert_adj;
    double best_value = hd_v3_dot(verts + 3 * cur, d);
    /* Cap: every move strictly increases the value, so at most n - 1 moves happen. */
    for (int moves = 0; moves < n; ++moves) {
        int next = -1;
        for (int k = offset[cur]; k < offset[cur + 1]; ++k) {
            int u = adj[k];
            double x = hd_v3_dot(verts + 3 * u, d);
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
 * steps cost degree-many dot products with unpredictable ones (measured on 1000-vertex
 * ellipsoids: 68 neighbour evaluations per support call without the sample, 30 with k = 16, and
 * half the query time). */
int hd_support_climb_start(const hd_polytope *p, const double d[3], int start, const int *cand,
                           int count)
{
    const double *v = p->verts;
    int n = p->vertex_count;
    int best = start;
    double best_value = hd_v3_dot(v + 3 * start, d);
    for (int j = 0; j < count; ++j) {
        double x = hd_v3_dot(v + 3 * cand[j], d);
        if (x > best_value) {
            best_value = x;
            best = cand[j];
        }
    }
    int stride = n / (n < 256 ? 8 : n < 4096 ? 16 : 32);
    for (int i = stride / 2; i < n; i += stride) {
        double x = hd_v3_dot(v + 3 * i, d);
        if (x > best_value) {
            best_value = x;
            best = i;
        }
    }
    return best;
}
