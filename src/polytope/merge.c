/* Merging of coplanar neighbouring faces into true polygonal faces, which CD-Dual's searches need
 * (a plateau of coplanar triangles stalls them; CD-Dual, section 3). Region growing from the
 * largest faces against each seed's supporting plane; a region is kept only when its boundary is
 * one convex loop. Derivation and guarantees: docs/algorithms/polytope.md, section 4. */
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "polytope/build.h"

typedef struct hdi_merge_ctx {
    const double *pts;
    const hdi_loops *loops;
    const hdi_halfedges *he;
    double tol;
    double *normal; /* 3 per face (unit, zero for a degenerate face) */
    int *region;    /* per face: region id or -1 */
    int *queue;     /* faces of the region being grown */
    int *stamp;     /* per vertex: last region whose boundary visited it, plus one */
    int *boundary;  /* per region: start of its loop in out_verts, or -1 for a single face */
    int *seed;      /* per region: its seed face */
} hdi_merge_ctx;

typedef struct hdi_face_key {
    double area;
    int face;
} hdi_face_key;

static int face_key_cmp(const void *a, const void *b)
{
    const hdi_face_key *x = a, *y = b;
    if (x->area != y->area) {
        return x->area > y->area ? -1 : 1;
    }
    return x->face - y->face;
}

/* Unit normal from Newell's area vector (polytope/geometry.c); returns the area. */
static double face_normal(const hdi_merge_ctx *ctx, int f, double n[3])
{
    const int *loop = ctx->loops->verts + ctx->loops->offset[f];
    int m = ctx->loops->offset[f + 1] - ctx->loops->offset[f];
    return 0.5 * hdi_loop_newell(ctx->pts, loop, m, n);
}

/* D = max of n . v over all vertices, by climbing the vertex graph from vertex start (a vertex
 * with no better neighbour maximises a linear function over a convex polytope). */
static double support_value(const hdi_merge_ctx *ctx, const double n[3], int start)
{
    const hdi_halfedges *he = ctx->he;
    const int *verts = ctx->loops->verts;
    int best = start;
    double bd = hdi_v3_dot(n, ctx->pts + 3 * best);
    for (int step = 0; step < he->vertex_count; ++step) {
        int at = best;
        for (int j = he->out_offset[at]; j < he->out_offset[at + 1]; ++j) {
            int w = verts[he->next[he->out_he[j]]];
            double x = hdi_v3_dot(n, ctx->pts + 3 * w);
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

static int face_near_plane(const hdi_merge_ctx *ctx, int g, const double n[3], double d)
{
    if (hdi_v3_dot(n, ctx->normal + 3 * g) < 0.0) {
        return 0;
    }
    for (int k = ctx->loops->offset[g]; k < ctx->loops->offset[g + 1]; ++k) {
        double x = hdi_v3_dot(n, ctx->pts + 3 * ctx->loops->verts[k]);
        if (!(x >= d - ctx->tol)) {
            return 0;
        }
    }
    return 1;
}

/* Breadth-first growth of region r from seed s; returns the number of faces in it (queue). A face
 * joins when all its vertices are within tol below the seed's supporting plane n_s.x = D_s (not the
 * last face's plane: no drift along a chain of slightly bent faces); the merged face keeps n_s and
 * D_s, so every vertex stays on or inside it. */
static int region_grow(hdi_merge_ctx *ctx, int s, int r)
{
    const hdi_halfedges *he = ctx->he;
    const double *n = ctx->normal + 3 * s;
    double d = support_value(ctx, n, ctx->loops->verts[ctx->loops->offset[s]]);
    int head = 0, tail = 0;
    ctx->region[s] = r;
    ctx->queue[tail++] = s;
    while (head < tail) {
        int f = ctx->queue[head++];
        for (int k = ctx->loops->offset[f]; k < ctx->loops->offset[f + 1]; ++k) {
            int g = he->face[he->twin[k]];
            if (ctx->region[g] < 0 && face_near_plane(ctx, g, n, d)) {
                ctx->region[g] = r;
                ctx->queue[tail++] = g;
            }
        }
    }
    return tail;
}

/* Writes region r's boundary loop at out (room for every boundary half-edge) and returns its
 * length, or -1 when the boundary is not one simple loop. From a boundary half-edge a -> b the
 * next one starts at b: turn around b through the region's faces (next(twin(h))) until the edge
 * crossed leads out of the region; the turn count is capped by b's degree. */
static int region_boundary(hdi_merge_ctx *ctx, int r, int members, int *out)
{
    const hdi_halfedges *he = ctx->he;
    const int *verts = ctx->loops->verts;
    int total = 0, start = -1;
    for (int i = 0; i < members; ++i) {
        int f = ctx->queue[i];
        for (int k = ctx->loops->offset[f]; k < ctx->loops->offset[f + 1]; ++k) {
            if (ctx->region[he->face[he->twin[k]]] != r) {
                ++total;
                if (start < 0) {
                    start = k;
                }
            }
        }
    }
    if (start < 0) {
        return -1;
    }
    int n = 0, k = start;
    do {
        int v = verts[k];
        if (n >= total || ctx->stamp[v] == r + 1) {
            return -1;
        }
        ctx->stamp[v] = r + 1;
        out[n++] = v;
        int b = verts[he->next[k]];
        int cap = he->out_offset[b + 1] - he->out_offset[b];
        int g = he->next[k];
        while (ctx->region[he->face[he->twin[g]]] == r) {
            if (--cap < 0) {
                return -1;
            }
            g = he->next[he->twin[g]];
        }
        k = g;
    } while (k != start);
    return n == total ? n : -1;
}

static hd_status merge_alloc(hdi_merge_ctx *ctx, int nf, int nv)
{
    ctx->normal = malloc((size_t)nf * 3 * sizeof(double));
    ctx->region = malloc((size_t)nf * sizeof(int));
    ctx->queue = malloc((size_t)nf * sizeof(int));
    ctx->boundary = malloc((size_t)nf * sizeof(int));
    ctx->seed = malloc((size_t)nf * sizeof(int));
    ctx->stamp = calloc((size_t)nv + 1, sizeof(int));
    if (!ctx->normal || !ctx->region || !ctx->queue || !ctx->boundary || !ctx->seed ||
        !ctx->stamp) {
        return HD_ERR_NO_MEMORY;
    }
    return HD_OK;
}

static void merge_free(hdi_merge_ctx *ctx)
{
    free(ctx->normal);
    free(ctx->region);
    free(ctx->queue);
    free(ctx->boundary);
    free(ctx->seed);
    free(ctx->stamp);
}

/* Whether loop (n vertices, counter-clockwise around the unit normal nrm) is convex up to tol: no
 * vertex lies more than tol outside the chord joining its neighbours. A region grown from faces
 * within tol of one plane need not be: where the faces around it are nearly but not quite
 * coplanar, the region can be an L or a notched polygon, which is no face of a convex polytope. */
static int loop_convex(const hdi_merge_ctx *ctx, const int *loop, int n, const double nrm[3])
{
    for (int i = 0; i < n; ++i) {
        const double *p0 = ctx->pts + 3 * loop[(i + n - 1) % n];
        const double *p1 = ctx->pts + 3 * loop[i];
        const double *p2 = ctx->pts + 3 * loop[(i + 1) % n];
        double a[3], b[3], c[3], x[3];
        hdi_v3_sub(a, p1, p0);
        hdi_v3_sub(b, p2, p1);
        hdi_v3_sub(c, p2, p0);
        hdi_v3_cross(x, a, b);
        double turn = hdi_v3_dot(x, nrm); /* |c| times p1's distance inside the chord p0 p2 */
        if (!(turn >= -ctx->tol * hdi_v3_len(c))) {
            return 0;
        }
    }
    return 1;
}

/* Grows every region; loops of merged regions are appended to out (whose verts have room for
 * all half-edges), single faces keep their loop. Returns the number of regions. */
static int merge_regions(hdi_merge_ctx *ctx, hdi_face_key *order, hdi_loops *out)
{
    const hdi_loops *loops = ctx->loops;
    int nf = loops->face_count, regions = 0, used = 0;
    for (int i = 0; i < nf; ++i) {
        ctx->region[i] = -1;
    }
    for (int i = 0; i < nf; ++i) {
        int s = order[i].face;
        if (ctx->region[s] >= 0) {
            continue;
        }
        int r = regions++;
        ctx->seed[r] = s;
        int members = region_grow(ctx, s, r);
        ctx->boundary[r] = -1;
        if (members > 1) {
            int n = region_boundary(ctx, r, members, out->verts + used);
            if (n >= 3 && loop_convex(ctx, out->verts + used, n, ctx->normal + 3 * s)) {
                ctx->boundary[r] = used;
                used += n;
                out->offset[r + 1] = n; /* length, turned into offsets by the caller */
                continue;
            }
            for (int j = 1; j < members; ++j) {
                ctx->region[ctx->queue[j]] = -1;
            }
        }
        out->offset[r + 1] = -1 - s; /* a single face: its index, encoded */
    }
    return regions;
}

/* Final loops: regions in order, merged ones copied from their boundary, single faces from the
 * input. scratch has room for every half-edge. */
static void merge_collect(const hdi_merge_ctx *ctx, int regions, const int *scratch, hdi_loops *out)
{
    const hdi_loops *loops = ctx->loops;
    int at = 0;
    for (int r = 0; r < regions; ++r) {
        int code = out->offset[r + 1];
        const int *src;
        int n;
        if (code < 0) {
            int f = -1 - code;
            src = loops->verts + loops->offset[f];
            n = loops->offset[f + 1] - loops->offset[f];
        } else {
            src = scratch + ctx->boundary[r];
            n = code;
        }
        memmove(out->verts + at, src, (size_t)n * sizeof(int));
        at += n;
        out->offset[r + 1] = at;
    }
    out->face_count = regions;
}

/* Drops vertices that lie on exactly two loops (the middle of a merged edge). Returns HD_OK, or
 * HD_ERR_BAD_MESH when a loop would fall below three vertices or a vertex sits on one loop. */
static hd_status merge_drop_flat_vertices(hdi_loops *out, int nv, int *count)
{
    memset(count, 0, (size_t)nv * sizeof(int));
    int total = out->offset[out->face_count];
    for (int k = 0; k < total; ++k) {
        count[out->verts[k]]++;
    }
    int at = 0, begin = 0;
    for (int f = 0; f < out->face_count; ++f) {
        int end = out->offset[f + 1];
        int start = at;
        for (int k = begin; k < end; ++k) {
            int v = out->verts[k];
            if (count[v] == 1) {
                return HD_ERR_BAD_MESH;
            }
            if (count[v] != 2) {
                out->verts[at++] = v;
            }
        }
        if (at - start < 3) {
            return HD_ERR_BAD_MESH;
        }
        begin = end;
        out->offset[f + 1] = at;
    }
    return HD_OK;
}

hd_status hdi_merge_coplanar(const double *pts, int nv, const hdi_loops *loops,
                             const hdi_halfedges *he, double tol, hdi_loops *out, int *merged)
{
    int nf = loops->face_count, total = loops->offset[nf];
    hdi_merge_ctx ctx = {pts, loops, he, tol, NULL, NULL, NULL, NULL, NULL, NULL};
    hdi_face_key *order = malloc((size_t)nf * sizeof *order);
    int *scratch = malloc(((size_t)total + (size_t)nv + 1) * sizeof(int));
    memset(out, 0, sizeof *out);
    *merged = 0;
    hd_status st = merge_alloc(&ctx, nf, nv);
    if (st == HD_OK && (order == NULL || scratch == NULL)) {
        st = HD_ERR_NO_MEMORY;
    }
    if (st == HD_OK) {
        st = hdi_loops_alloc(out, nf, total);
    }
    if (st == HD_OK) {
        for (int f = 0; f < nf; ++f) {
            order[f].area = face_normal(&ctx, f, ctx.normal + 3 * f);
            order[f].face = f;
        }
        qsort(order, (size_t)nf, sizeof *order, face_key_cmp);
        /* boundaries are written to out->verts first, then compacted via scratch */
        int regions = merge_regions(&ctx, order, out);
        memcpy(scratch, out->verts, (size_t)total * sizeof(int));
        merge_collect(&ctx, regions, scratch, out);
        *merged = regions < nf;
        out->normal = malloc((size_t)regions * 3 * sizeof(double) + 1);
        if (out->normal == NULL) {
            st = HD_ERR_NO_MEMORY;
        }
        for (int r = 0; r < regions && st == HD_OK; ++r) {
            hdi_v3_copy(out->normal + 3 * r, ctx.normal + 3 * ctx.seed[r]);
        }
        if (*merged && st == HD_OK) {
            st = merge_drop_flat_vertices(out, nv, scratch);
        }
    }
    merge_free(&ctx);
    free(order);
    free(scratch);
    if (st != HD_OK) {
        hdi_loops_free(out);
    }
    return st;
}
