/* Assembly of a solid polytope from face loops over input points: vertex compaction, coplanar
 * merge, surface checks (closed 2-manifold of genus 0), then the single-block polytope. */
#include <stdlib.h>
#include <string.h>

#include "polytope/build.h"

/* The vertices referenced by in (indices into xyz, count points), renumbered in increasing order
 * of their old index; out gets the loops over the new numbers. */
static hd_status compact(const double *xyz, int count, const hdi_loops *in, double **pts, int *nv,
                         hdi_loops *out)
{
    int total = in->offset[in->face_count];
    int *map = malloc(((size_t)count + 1) * sizeof(int));
    *pts = NULL;
    memset(out, 0, sizeof *out);
    if (map == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    for (int i = 0; i < count; ++i) {
        map[i] = -1;
    }
    for (int k = 0; k < total; ++k) {
        map[in->verts[k]] = 0;
    }
    int n = 0;
    for (int i = 0; i < count; ++i) {
        if (map[i] == 0) {
            map[i] = n++;
        }
    }
    hd_status st = hdi_loops_alloc(out, in->face_count, total);
    *pts = malloc(((size_t)n + 1) * 3 * sizeof(double));
    if (st != HD_OK || *pts == NULL) {
        free(map);
        hdi_loops_free(out);
        free(*pts);
        *pts = NULL;
        return HD_ERR_NO_MEMORY;
    }
    for (int i = 0; i < count; ++i) {
        if (map[i] >= 0) {
            memcpy(*pts + 3 * map[i], xyz + 3 * i, 3 * sizeof(double));
        }
    }
    if (in->normal != NULL) {
        out->normal = malloc((size_t)in->face_count * 3 * sizeof(double));
        if (out->normal == NULL) {
            free(map);
            hdi_loops_free(out);
            free(*pts);
            *pts = NULL;
            return HD_ERR_NO_MEMORY;
        }
        memcpy(out->normal, in->normal, (size_t)in->face_count * 3 * sizeof(double));
    }
    memcpy(out->offset, in->offset, ((size_t)in->face_count + 1) * sizeof(int));
    for (int k = 0; k < total; ++k) {
        out->verts[k] = map[in->verts[k]];
    }
    *nv = n;
    free(map);
    return HD_OK;
}

/* A closed 2-manifold (already checked by the half-edge pairing) bounds a convex polytope's
 * surface only if it is one sphere: connected, with V - E + F = 2. */
static hd_status surface_check(const hdi_loops *loops, const hdi_halfedges *he, int nv)
{
    int nf = loops->face_count;
    if (nf < 4 || nv - he->count / 2 + nf != 2) {
        return HD_ERR_BAD_MESH;
    }
    int *seen = calloc((size_t)nf, sizeof(int));
    int *stack = malloc((size_t)nf * sizeof(int));
    if (seen == NULL || stack == NULL) {
        free(seen);
        free(stack);
        return HD_ERR_NO_MEMORY;
    }
    int top = 0, reached = 1;
    seen[0] = 1;
    stack[top++] = 0;
    while (top > 0) {
        int f = stack[--top];
        for (int k = loops->offset[f]; k < loops->offset[f + 1]; ++k) {
            int g = he->face[he->twin[k]];
            if (!seen[g]) {
                seen[g] = 1;
                ++reached;
                stack[top++] = g;
            }
        }
    }
    free(seen);
    free(stack);
    return reached == nf ? HD_OK : HD_ERR_BAD_MESH;
}

typedef struct hdi_surface {
    double *pts;
    int nv;
    hdi_loops loops;
    hdi_halfedges he;
} hdi_surface;

static void surface_free(hdi_surface *s)
{
    free(s->pts);
    hdi_loops_free(&s->loops);
    hdi_halfedges_free(&s->he);
    memset(s, 0, sizeof *s);
}

/* A surface from loops over xyz: compaction, pairing and the sphere check. */
static hd_status surface_make(const double *xyz, int count, const hdi_loops *loops, hdi_surface *s)
{
    memset(s, 0, sizeof *s);
    hd_status st = compact(xyz, count, loops, &s->pts, &s->nv, &s->loops);
    if (st == HD_OK) {
        st = hdi_halfedges_build(&s->loops, s->nv, &s->he);
    }
    if (st == HD_OK) {
        st = surface_check(&s->loops, &s->he, s->nv);
    }
    if (st != HD_OK) {
        surface_free(s);
    }
    return st;
}

/* Replaces s by its merged version when merging changes something and still yields a sphere. */
static hd_status surface_merge(hdi_surface *s, double tol)
{
    hdi_loops merged;
    int changed = 0;
    hd_status st = hdi_merge_coplanar(s->pts, s->nv, &s->loops, &s->he, tol, &merged, &changed);
    if (st == HD_ERR_BAD_MESH) {
        return HD_OK;
    }
    if (st != HD_OK) {
        return st;
    }
    if (changed) {
        hdi_surface m;
        st = surface_make(s->pts, s->nv, &merged, &m);
        if (st == HD_OK) {
            surface_free(s);
            *s = m;
        } else if (st == HD_ERR_BAD_MESH) {
            st = HD_OK;
        }
    }
    hdi_loops_free(&merged);
    return st;
}

static hd_status surface_to_polytope(const hdi_surface *s, double tol, hd_polytope **out)
{
    int nf = s->loops.face_count, total = s->loops.offset[nf];
    hd_polytope *p = hdi_poly_alloc(3, s->nv, s->he.count / 2, nf, total);
    if (p == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    memcpy(p->verts, s->pts, (size_t)s->nv * 3 * sizeof(double));
    memcpy(p->face_offset, s->loops.offset, ((size_t)nf + 1) * sizeof(int));
    memcpy(p->face_verts, s->loops.verts, (size_t)total * sizeof(int));
    hdi_poly_fill_topology(p, &s->he);
    hdi_poly_fill_bounds(p);
    hd_status st = hdi_poly_fill_planes(p, s->loops.normal, tol);
    if (st == HD_OK) {
        st = hdi_poly_fill_interior_solid(p);
    }
    if (st == HD_OK) {
        st = hdi_poly_attach_support_table(&p);
    }
    if (st != HD_OK) {
        free(p);
        return st;
    }
    *out = p;
    return HD_OK;
}

hd_status hdi_solid_assemble(const double *xyz, int count, const hdi_loops *faces, double merge_tol,
                             hd_polytope **out)
{
    hdi_surface s;
    *out = NULL;
    hd_status st = surface_make(xyz, count, faces, &s);
    if (st != HD_OK) {
        return st;
    }
    if (merge_tol >= 0.0) {
        st = surface_merge(&s, merge_tol);
    }
    if (st == HD_OK) {
        st = surface_to_polytope(&s, merge_tol, out);
    }
    surface_free(&s);
    return st;
}
