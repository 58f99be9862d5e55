/* Geometry of an assembled polytope: face planes, bounds, bounding sphere, interior points. */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "core/math.h"
#include "polytope/build.h"

/* Face offset: the largest n.v over all vertices, so the plane is a supporting plane of the
 * polytope and every vertex is on or inside it. The maximum is found by climbing the vertex
 * adjacency from the best face vertex: on a convex polytope a vertex with no better neighbour
 * maximises a linear function. */
static double face_support(const hd_polytope *p, const double n[3], int start)
{
    int best = start;
    double bd = hdi_v3_dot(n, p->verts + 3 * best);
    for (int step = 0; step < p->vertex_count; ++step) {
        int at = best;
        for (int k = p->vert_offset[at]; k < p->vert_offset[at + 1]; ++k) {
            int w = p->vert_adj[k];
            double x = hdi_v3_dot(n, p->verts + 3 * w);
            if (x > bd) {
                bd = x;
                best = w;
            }
        }
        if (best == at) {
            break;
        }
    }
    return bd;
}

/* Newell's formula: for a closed loop p_0 .. p_{m-1}, the vector
 *     A = 1/2 sum_i (p_i - c) x (p_{i+1} - c)
 * is the area vector of the polygon (exact for a planar loop, for any c; c = the vertex average
 * keeps the products small). For a merged face whose vertices lie within tol of a plane it is the
 * area-weighted mean normal. A loop counter-clockwise seen from outside gives an outward A. */
double hdi_loop_newell(const double *pts, const int *loop, int m, double n[3])
{
    double c[3] = {0, 0, 0};
    for (int i = 0; i < m; ++i) {
        hdi_v3_add(c, c, pts + 3 * loop[i]);
    }
    hdi_v3_scale(c, c, 1.0 / m);
    hdi_v3_set(n, 0, 0, 0);
    for (int i = 0; i < m; ++i) {
        double a[3], b[3], x[3];
        hdi_v3_sub(a, pts + 3 * loop[i], c);
        hdi_v3_sub(b, pts + 3 * loop[(i + 1) % m], c);
        hdi_v3_cross(x, a, b);
        hdi_v3_add(n, n, x);
    }
    return hdi_v3_normalize(n);
}

/* Supporting offset of normal n, and the largest depth of a face vertex below that plane. */
static double plane_offset(const hd_polytope *p, const int *loop, int m, const double n[3],
                           double *depth)
{
    int best = loop[0];
    for (int i = 1; i < m; ++i) {
        if (hdi_v3_dot(n, p->verts + 3 * loop[i]) > hdi_v3_dot(n, p->verts + 3 * best)) {
            best = loop[i];
        }
    }
    double d = face_support(p, n, best);
    *depth = 0.0;
    for (int i = 0; i < m; ++i) {
        double x = d - hdi_v3_dot(n, p->verts + 3 * loop[i]);
        if (x > *depth) {
            *depth = x;
        }
    }
    return d;
}

/* Newell's normal, unless the merge supplied a normal (the seed face's, with which every vertex
 * of the merged face is known to lie within tol of the supporting plane) and Newell's leaves a
 * face vertex deeper than tol below its supporting plane; of the two the flatter is kept. */
hd_status hdi_poly_fill_planes(hd_polytope *p, const double *normals, double tol)
{
    for (int f = 0; f < p->face_count; ++f) {
        const int *loop = p->face_verts + p->face_offset[f];
        int m = p->face_offset[f + 1] - p->face_offset[f];
        double n[3], depth;
        if (!(hdi_loop_newell(p->verts, loop, m, n) > 0.0)) {
            return HD_ERR_BAD_MESH;
        }
        double d = plane_offset(p, loop, m, n, &depth);
        if (normals != NULL && depth > tol) {
            double alt_depth;
            double alt_d = plane_offset(p, loop, m, normals + 3 * f, &alt_depth);
            if (alt_depth < depth) {
                hdi_v3_copy(n, normals + 3 * f);
                d = alt_d;
            }
        }
        hdi_v3_copy(p->face_normal + 3 * f, n);
        p->face_dist[f] = d;
    }
    return HD_OK;
}

static double radius_about(const hd_polytope *p, const double c[3])
{
    double r2 = 0.0;
    for (int i = 0; i < p->vertex_count; ++i) {
        double d[3];
        hdi_v3_sub(d, p->verts + 3 * i, c);
        double l2 = hdi_v3_len2(d);
        if (l2 > r2) {
            r2 = l2;
        }
    }
    return sqrt(r2);
}

/* Ritter's bounding sphere (Graphics Gems, 1990): start from the sphere on a long chord (a vertex
 * farthest from vertex 0, and the vertex farthest from that), then for each vertex outside grow
 * the sphere just enough to contain it and the old sphere: the new radius is (r + d) / 2 and the
 * centre moves by (d - r) / 2 towards the vertex. The radius is then recomputed as the exact
 * largest distance from the centre, and compared with the sphere around the box centre; the
 * smaller is kept. The radius is finally raised by a few units of rounding so that the computed
 * distance of every vertex stays below it. */
static void ritter_centre(const hd_polytope *p, double c[3])
{
    const double *v = p->verts;
    int a = 0, b = 0;
    double best = -1.0;
    for (int pass = 0; pass < 2; ++pass) {
        int from = pass == 0 ? 0 : b;
        best = -1.0;
        for (int i = 0; i < p->vertex_count; ++i) {
            double d[3];
            hdi_v3_sub(d, v + 3 * i, v + 3 * from);
            if (hdi_v3_len2(d) > best) {
                best = hdi_v3_len2(d);
                if (pass == 0) {
                    b = i;
                } else {
                    a = i;
                }
            }
        }
    }
    hdi_v3_add(c, v + 3 * a, v + 3 * b);
    hdi_v3_scale(c, c, 0.5);
    double r = 0.5 * sqrt(best);
    for (int i = 0; i < p->vertex_count; ++i) {
        double d[3];
        hdi_v3_sub(d, v + 3 * i, c);
        double len = hdi_v3_len(d);
        if (len > r) {
            double grow = 0.5 * (len - r);
            hdi_v3_madd(c, c, grow / len, d);
            r += grow;
        }
    }
}

/* The widest triple of a face (polytope/internal.h). */
int hdi_face_widest_triple(const hd_polytope *p, int f, int tri[3])
{
    const int *loop = p->face_verts + p->face_offset[f];
    int m = p->face_offset[f + 1] - p->face_offset[f];
    const double *v0 = p->verts + 3 * loop[0];
    double d[3], u[3], x[3], u2 = 0.0, x2 = 0.0;
    tri[0] = tri[1] = tri[2] = loop[0];
    for (int i = 1; i < m; ++i) {
        hdi_v3_sub(d, p->verts + 3 * loop[i], v0);
        double l2 = hdi_v3_len2(d);
        if (l2 > u2) {
            u2 = l2;
            tri[1] = loop[i];
        }
    }
    hdi_v3_sub(u, p->verts + 3 * tri[1], v0);
    for (int i = 1; i < m; ++i) {
        hdi_v3_sub(d, p->verts + 3 * loop[i], v0);
        hdi_v3_cross(x, u, d);
        double l2 = hdi_v3_len2(x);
        if (l2 > x2) {
            x2 = l2;
            tri[2] = loop[i];
        }
    }
    return !(x2 > HD_PLAIN_NORMAL_SINE * HD_PLAIN_NORMAL_SINE * u2 * u2);
}

void hdi_poly_fill_bounds(hd_polytope *p)
{
    for (int f = 0; f < p->face_count; ++f) {
        int tri[3];
        p->face_thin[f] = (unsigned char)hdi_face_widest_triple(p, f, tri);
    }
    hdi_points_bounds(p->verts, p->vertex_count, p->aabb_lo, p->aabb_hi, &p->extent, &p->max_abs);
    hdi_poly_fill_blocks(p);
    double box_c[3], ritter_c[3];
    hdi_v3_add(box_c, p->aabb_lo, p->aabb_hi);
    hdi_v3_scale(box_c, box_c, 0.5);
    ritter_centre(p, ritter_c);
    double rb = radius_about(p, box_c), rr = radius_about(p, ritter_c);
    if (rr < rb) {
        hdi_v3_copy(p->sphere_centre, ritter_c);
        p->sphere_radius = rr;
    } else {
        hdi_v3_copy(p->sphere_centre, box_c);
        p->sphere_radius = rb;
    }
    p->sphere_radius *= 1.0 + HD_SPHERE_INFLATE;
}

void hdi_interior_set(hd_polytope *p, int which, int count, const int *index, const double *weight)
{
    hdi_interior *in = &p->interior[which];
    hdi_v3_set(in->point, 0, 0, 0);
    in->count = count;
    for (int i = 0; i < 4; ++i) {
        in->index[i] = i < count ? index[i] : -1;
        in->weight[i] = i < count ? weight[i] : 0.0;
    }
    for (int i = 0; i < count; ++i) {
        hdi_v3_madd(in->point, in->point, weight[i], p->verts + 3 * index[i]);
    }
    in->clearance = 0.0;
    if (which == 0) {
        int centroid = count == 4 && p->vertex_count <= INT16_MAX;
        for (int i = 0; i < 4; ++i) {
            centroid = centroid && weight[i] == 0.25;
        }
        for (int i = 0; i < 4; ++i) {
            p->portal_vertex[i] = (int16_t)(centroid ? index[i] : -1);
        }
    }
}

static double clearance_of(const hd_polytope *p, const double x[3])
{
    double c = INFINITY;
    for (int f = 0; f < p->face_count; ++f) {
        double s = p->face_dist[f] - hdi_v3_dot(p->face_normal + 3 * f, x);
        if (s < c) {
            c = s;
        }
    }
    return c;
}

/* Two interior points of a solid from one large tetrahedron of hull vertices (the farthest-point
 * frame: a long chord, the vertex farthest from its line, the vertex farthest from their plane).
 * A point with barycentric weights w in a tetrahedron lies at w_i h_i from its face i (h_i the
 * height over it), so both chosen points, with weights all >= 1/6, are strictly inside the
 * tetrahedron and hence the hull; their clearance is measured against the hull's face planes. */
hd_status hdi_poly_fill_interior_solid(hd_polytope *p)
{
    hdi_frame fr;
    hdi_affine_frame(p->verts, p->vertex_count, 0.0, &fr);
    if (fr.dim < 3) {
        return HD_ERR_HULL;
    }
    static const double centroid[4] = {0.25, 0.25, 0.25, 0.25};
    static const double skewed[4] = {0.5, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0};
    hdi_interior_set(p, 0, 4, fr.p, centroid);
    hdi_interior_set(p, 1, 4, fr.p, skewed);
    for (int i = 0; i < 2; ++i) {
        p->interior[i].clearance = clearance_of(p, p->interior[i].point);
        if (!(p->interior[i].clearance > 0.0)) {
            return HD_ERR_HULL;
        }
    }
    return HD_OK;
}
