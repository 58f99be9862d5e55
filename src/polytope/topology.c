/* Index topology of a polytope: face loops, half-edge pairing, the single-block allocation and the
 * CSR arrays (edges, vertex adjacency, face adjacency) described in polytope/internal.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/build.h"

hd_status hdi_loops_alloc(hdi_loops *loops, int face_count, int total)
{
    loops->face_count = face_count;
    loops->normal = NULL;
    loops->offset = malloc(((size_t)face_count + 1) * sizeof(int));
    loops->verts = malloc(((size_t)total + 1) * sizeof(int));
    if (loops->offset == NULL || loops->verts == NULL) {
        hdi_loops_free(loops);
        return HD_ERR_NO_MEMORY;
    }
    loops->offset[0] = 0;
    return HD_OK;
}

void hdi_loops_free(hdi_loops *loops)
{
    free(loops->offset);
    free(loops->verts);
    free(loops->normal);
    loops->normal = NULL;
    loops->offset = NULL;
    loops->verts = NULL;
    loops->face_count = 0;
}

void hdi_halfedges_free(hdi_halfedges *he)
{
    free(he->face);
    free(he->next);
    free(he->twin);
    free(he->out_offset);
    free(he->out_he);
    memset(he, 0, sizeof *he);
}

static hd_status halfedges_alloc(hdi_halfedges *he, int count, int vertex_count)
{
    memset(he, 0, sizeof *he);
    size_t n = (size_t)count + 1;
    he->count = count;
    he->vertex_count = vertex_count;
    he->face = malloc(n * sizeof(int));
    he->next = malloc(n * sizeof(int));
    he->twin = malloc(n * sizeof(int));
    he->out_offset = calloc((size_t)vertex_count + 1, sizeof(int));
    he->out_he = malloc(n * sizeof(int));
    if (!he->face || !he->next || !he->twin || !he->out_offset || !he->out_he) {
        hdi_halfedges_free(he);
        return HD_ERR_NO_MEMORY;
    }
    return HD_OK;
}

/* Outgoing half-edges of every vertex, grouped by origin (counting sort). */
static void halfedges_group(hdi_halfedges *he, const int *verts)
{
    int *off = he->out_offset;
    for (int k = 0; k < he->count; ++k) {
        off[verts[k] + 1]++;
    }
    for (int v = 0; v < he->vertex_count; ++v) {
        off[v + 1] += off[v];
    }
    for (int k = 0; k < he->count; ++k) {
        he->twin[k] = off[verts[k]]++;
    }
    for (int v = he->vertex_count; v > 0; --v) {
        off[v] = off[v - 1];
    }
    off[0] = 0;
    for (int k = 0; k < he->count; ++k) {
        he->out_he[he->twin[k]] = k;
    }
}

/* The twin of half-edge a -> b is the unique half-edge b -> a among b's outgoing ones. */
static hd_status halfedges_pair(hdi_halfedges *he, const int *verts)
{
    for (int k = 0; k < he->count; ++k) {
        int a = verts[k], b = verts[he->next[k]];
        int found = -1, matches = 0;
        for (int j = he->out_offset[b]; j < he->out_offset[b + 1]; ++j) {
            int h = he->out_he[j];
            if (verts[he->next[h]] == a) {
                found = h;
                ++matches;
            }
        }
        if (matches != 1) {
            return HD_ERR_BAD_MESH;
        }
        he->twin[k] = found;
    }
    for (int k = 0; k < he->count; ++k) {
        if (he->twin[he->twin[k]] != k) {
            return HD_ERR_BAD_MESH; /* a directed edge repeated */
        }
    }
    return HD_OK;
}

/* Around vertex v, rot(h) = next(twin(h)) maps an outgoing half-edge to the next outgoing one of
 * the neighbouring face; the faces at v form one disc (a manifold vertex) exactly when this
 * rotation runs through all of v's outgoing half-edges in one cycle. */
static hd_status halfedges_check_fans(const hdi_halfedges *he)
{
    for (int v = 0; v < he->vertex_count; ++v) {
        int degree = he->out_offset[v + 1] - he->out_offset[v];
        if (degree == 0) {
            continue;
        }
        int start = he->out_he[he->out_offset[v]];
        int h = start, steps = 0;
        do {
            h = he->next[he->twin[h]];
            ++steps;
        } while (h != start && steps <= degree);
        if (steps != degree) {
            return HD_ERR_BAD_MESH;
        }
    }
    return HD_OK;
}

hd_status hdi_halfedges_build(const hdi_loops *loops, int vertex_count, hdi_halfedges *he)
{
    int count = loops->offset[loops->face_count];
    hd_status st = halfedges_alloc(he, count, vertex_count);
    if (st != HD_OK) {
        return st;
    }
    for (int f = 0; f < loops->face_count; ++f) {
        int b = loops->offset[f], e = loops->offset[f + 1];
        for (int k = b; k < e; ++k) {
            he->face[k] = f;
            he->next[k] = (k + 1 < e) ? k + 1 : b;
        }
    }
    for (int k = 0; k < count; ++k) {
        int v = loops->verts[k];
        if (v < 0 || v >= vertex_count || v == loops->verts[he->next[k]]) {
            hdi_halfedges_free(he);
            return HD_ERR_BAD_MESH;
        }
    }
    halfedges_group(he, loops->verts);
    st = halfedges_pair(he, loops->verts);
    if (st == HD_OK) {
        st = halfedges_check_fans(he);
    }
    if (st != HD_OK) {
        hdi_halfedges_free(he);
    }
    return st;
}

/* Carves the arrays out of one block aligned to a cache line (so that the struct's leading
 * fields, which every query reads, share one line): the struct, the vertices, their blocks on small
 * polytopes (from a line boundary, for the vector loads), the support table's
 * cell records (from a line boundary, so that no record straddles two lines), the other doubles,
 * the ints, the bytes. */
hd_polytope *hdi_poly_alloc_table(int dim, int vertex_count, int edge_count, int face_count,
                                  int loop_total, int table_cells, int table_list)
{
    size_t v = (size_t)vertex_count, e = (size_t)edge_count, f = (size_t)face_count;
    size_t l = (size_t)loop_total, tl = (size_t)table_list;
    size_t head = (sizeof(hd_polytope) + HD_POLY_ALIGN - 1) / HD_POLY_ALIGN * HD_POLY_ALIGN;
    size_t verts = (3 * v * sizeof(double) + HD_POLY_ALIGN - 1) / HD_POLY_ALIGN * HD_POLY_ALIGN;
    size_t blocks = hdi_poly_blocks_bytes(vertex_count);
    blocks = (blocks + HD_POLY_ALIGN - 1) / HD_POLY_ALIGN * HD_POLY_ALIGN;
    size_t cells = HD_SUPPORT_SLOTS * sizeof(int) * (size_t)table_cells;
    cells = (cells + HD_POLY_ALIGN - 1) / HD_POLY_ALIGN * HD_POLY_ALIGN;
    size_t n_double = 3 * f + f;
    size_t n_int = (v + 1) + 2 * e + 2 * e + v + 2 * e + 2 * e + (f + 1) + 3 * l + tl;
    size_t bytes =
        head + verts + blocks + cells + n_double * sizeof(double) + n_int * sizeof(int) + f;
    bytes = (bytes + HD_POLY_ALIGN - 1) / HD_POLY_ALIGN * HD_POLY_ALIGN;
    unsigned char *block = aligned_alloc(HD_POLY_ALIGN, bytes);
    if (block == NULL) {
        return NULL;
    }
    memset(block, 0, bytes);
    hd_polytope *p = (hd_polytope *)block;
    p->verts = (double *)(block + head);
    p->blocks = blocks > 0 ? (double *)(block + head + verts) : NULL;
    p->support_cell = table_cells > 0 ? (int *)(block + head + verts + blocks) : NULL;
    double *d = (double *)(block + head + verts + blocks + cells);
    p->face_normal = d;
    d += 3 * f;
    p->face_dist = d;
    d += f;
    int *i = (int *)d;
    p->vert_offset = i;
    i += v + 1;
    p->vert_adj = i;
    i += 2 * e;
    p->vert_edges = i;
    i += 2 * e;
    p->vert_face = i;
    i += v;
    p->edge_verts = i;
    i += 2 * e;
    p->edge_faces = i;
    i += 2 * e;
    p->face_offset = i;
    i += f + 1;
    p->face_verts = i;
    i += l;
    p->face_edges = i;
    i += l;
    p->face_adj = i;
    i += l;
    p->support_list = tl > 0 ? i : NULL;
    i += tl;
    p->face_thin = (unsigned char *)i;
    p->support_list_count = table_list;
    p->dim = dim;
    p->vertex_count = vertex_count;
    p->edge_count = edge_count;
    p->face_count = face_count;
    return p;
}

hd_polytope *hdi_poly_alloc(int dim, int vertex_count, int edge_count, int face_count,
                            int loop_total)
{
    return hdi_poly_alloc_table(dim, vertex_count, edge_count, face_count, loop_total, 0, 0);
}

void hdi_poly_copy(hd_polytope *p, const hd_polytope *src)
{
    int loop_total = src->face_offset[src->face_count];
    size_t v = (size_t)src->vertex_count, e = (size_t)src->edge_count;
    size_t f = (size_t)src->face_count, l = (size_t)loop_total;
    memcpy(p->verts, src->verts, 3 * v * sizeof(double));
    hdi_poly_fill_blocks(p);
    memcpy(p->face_normal, src->face_normal, 3 * f * sizeof(double));
    memcpy(p->face_dist, src->face_dist, f * sizeof(double));
    memcpy(p->vert_offset, src->vert_offset, (v + 1) * sizeof(int));
    memcpy(p->vert_adj, src->vert_adj, 2 * e * sizeof(int));
    memcpy(p->vert_edges, src->vert_edges, 2 * e * sizeof(int));
    memcpy(p->vert_face, src->vert_face, v * sizeof(int));
    memcpy(p->edge_verts, src->edge_verts, 2 * e * sizeof(int));
    memcpy(p->edge_faces, src->edge_faces, 2 * e * sizeof(int));
    memcpy(p->face_offset, src->face_offset, (f + 1) * sizeof(int));
    memcpy(p->face_verts, src->face_verts, l * sizeof(int));
    memcpy(p->face_edges, src->face_edges, l * sizeof(int));
    memcpy(p->face_adj, src->face_adj, l * sizeof(int));
    memcpy(p->face_thin, src->face_thin, f);
    memcpy(p->plane_normal, src->plane_normal, sizeof p->plane_normal);
    p->plane_dist = src->plane_dist;
    memcpy(p->interior, src->interior, sizeof p->interior);
    memcpy(p->portal_vertex, src->portal_vertex, sizeof p->portal_vertex);
    memcpy(p->aabb_lo, src->aabb_lo, sizeof p->aabb_lo);
    memcpy(p->aabb_hi, src->aabb_hi, sizeof p->aabb_hi);
    memcpy(p->sphere_centre, src->sphere_centre, sizeof p->sphere_centre);
    p->sphere_radius = src->sphere_radius;
    p->radius = src->radius;
    p->max_abs = src->max_abs;
    p->extent = src->extent;
    if (src->support_k > 0 && p->support_cell != NULL &&
        p->support_list_count == src->support_list_count) {
        p->support_k = src->support_k;
        memcpy(p->support_cell, src->support_cell,
               HD_SUPPORT_SLOTS * 6 * (size_t)src->support_k * (size_t)src->support_k *
                   sizeof(int));
        if (src->support_list_count > 0) {
            memcpy(p->support_list, src->support_list,
                   (size_t)src->support_list_count * sizeof(int));
        }
    }
}

/* Edges from half-edge pairs (the half-edge of lower index is the edge's v0 -> v1, so face
 * edge_faces[2e] holds it counter-clockwise), then each vertex's neighbours in the order of the
 * faces around it, reversed so that they run counter-clockwise seen from outside. */
void hdi_poly_fill_topology(hd_polytope *poly, const hdi_halfedges *he)
{
    const int *verts = poly->face_verts;
    int e = 0;
    for (int k = 0; k < he->count; ++k) {
        int t = he->twin[k];
        if (k > t) {
            continue;
        }
        poly->edge_verts[2 * e] = verts[k];
        poly->edge_verts[2 * e + 1] = verts[he->next[k]];
        poly->edge_faces[2 * e] = he->face[k];
        poly->edge_faces[2 * e + 1] = he->face[t];
        poly->face_edges[k] = poly->face_edges[t] = e;
        poly->face_adj[k] = he->face[t];
        poly->face_adj[t] = he->face[k];
        ++e;
    }
    for (int v = 0; v <= poly->vertex_count; ++v) {
        poly->vert_offset[v] = he->out_offset[v];
    }
    for (int v = 0; v < poly->vertex_count; ++v) {
        int b = he->out_offset[v], n = he->out_offset[v + 1] - b;
        int h = he->out_he[b];
        poly->vert_face[v] = he->face[h];
        for (int j = n - 1; j >= 0; --j) {
            poly->vert_adj[b + j] = verts[he->next[h]];
            poly->vert_edges[b + j] = poly->face_edges[h];
            h = he->next[he->twin[h]];
        }
    }
}
