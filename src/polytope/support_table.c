/* The support direction table of a solid (see support/support.h): for each cell of a cube map of
 * directions, the vertices that can maximise d.v there, so that a support query reads one record
 * and a few candidates instead of walking the vertex graph. A vertex v is listed in every cell its
 * cone C(v) = {d : d.(u - v) <= 0 for the neighbours u} meets, tested conservatively. Derivation,
 * margins and sizes: docs/algorithms/support.md, section 2. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/build.h"
#include "polytope/support_table.h"
#include "core/array.h"
#include "core/tolerances.h"

/* About two cells of 4 slots per vertex: 32 bytes per vertex, 44 with the lists; a denser table
 * costs memory and cache misses without shortening a lookup. */
#define HD_TABLE_CELLS_PER_VERTEX 2.0
#define HD_TABLE_MAX_K 1024

/* (cell, vertex) pairs the build's arrays hold at first (then doubled). */
#define HD_TABLE_MIN_PAIRS 1024

/* A half-plane A p + B q <= C in the coordinates of one cube face. */
typedef struct hdi_halfplane {
    double a, b, c;
} hdi_halfplane;

typedef struct hdi_table_build {
    const hd_polytope *poly;
    int k;
    hdi_halfplane *hp; /* scratch: one per neighbour */
    double *poly_p;    /* scratch polygon, two buffers of capacity 4 + max degree */
    double *poly_q;
    int capacity;
    int *pair_cell; /* (cell, vertex) pairs found, grown on demand */
    int *pair_vertex;
    int pair_count; /* at most INT_MAX: core/array.h refuses more, and the build fails cleanly */
    int pair_capacity;
} hdi_table_build;

int hdi_support_table_resolution(int vertex_count)
{
    double k = ceil(sqrt(HD_TABLE_CELLS_PER_VERTEX * vertex_count / 6.0));
    return k < 1.0 ? 1 : k > HD_TABLE_MAX_K ? HD_TABLE_MAX_K : (int)k;
}

/* The half-planes of C(v) on face (axis a, sign s): d.(u - v) <= 0 with d = s e_a + p e_b + q e_c
 * is e_b p + e_c q <= -s e_a for e = u - v, widened by a rotation of HD_TABLE_ANGLE_MARGIN
 * (|(s, p, q)| <= sqrt(3)). */
static int face_halfplanes(const hd_polytope *p, int v, int a, double s, hdi_halfplane *hp)
{
    int b = (a + 1) % 3, c = (a + 2) % 3;
    const double *x = p->verts + 3 * v;
    int count = 0;
    for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
        const double *y = p->verts + 3 * p->vert_adj[k];
        double e[3] = {y[0] - x[0], y[1] - x[1], y[2] - x[2]};
        double len = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        hp[count].a = e[b];
        hp[count].b = e[c];
        hp[count].c = -s * e[a] + HD_TABLE_ANGLE_MARGIN * 1.7320508075688772 * len;
        ++count;
    }
    return count;
}

/* Clips the convex polygon (p, q, n vertices) by A p + B q <= C into (op, oq); returns the new
 * vertex count (Sutherland-Hodgman for one edge). */
static int clip_polygon(const double *p, const double *q, int n, const hdi_halfplane *h, double *op,
                        double *oq)
{
    int m = 0;
    for (int i = 0; i < n; ++i) {
        int j = i + 1 < n ? i + 1 : 0;
        double fi = h->a * p[i] + h->b * q[i] - h->c;
        double fj = h->a * p[j] + h->b * q[j] - h->c;
        if (fi <= 0.0) {
            op[m] = p[i];
            oq[m] = q[i];
            ++m;
        }
        if ((fi < 0.0 && fj > 0.0) || (fi > 0.0 && fj < 0.0)) {
            double t = fi / (fi - fj);
            op[m] = p[i] + t * (p[j] - p[i]);
            oq[m] = q[i] + t * (q[j] - q[i]);
            ++m;
        }
    }
    return m;
}

/* Cell index range [lo, hi] covering the coordinate interval [x0, x1] of a face. */
static void cell_range(double x0, double x1, int k, int *lo, int *hi)
{
    x0 = x0 < -1.0 ? -1.0 : x0 > 1.0 ? 1.0 : x0;
    x1 = x1 < -1.0 ? -1.0 : x1 > 1.0 ? 1.0 : x1;
    double t0 = floor((x0 + 1.0) * 0.5 * k), t1 = floor((x1 + 1.0) * 0.5 * k);
    *lo = t0 < 0.0 ? 0 : t0 > k - 1 ? k - 1 : (int)t0;
    *hi = t1 < 0.0 ? 0 : t1 > k - 1 ? k - 1 : (int)t1;
}

/* 0 when one of the half-planes excludes every corner of the (widened) cell [p0,p1] x [q0,q1]: a
 * separating line (separating axis theorem for convex polygons; testing every half-plane, not only
 * the polygon's sides, can only find more true separations). */
static int cell_meets(const hdi_halfplane *hp, int count, double p0, double p1, double q0,
                      double q1)
{
    for (int h = 0; h < count; ++h) {
        double least = hp[h].a * (hp[h].a > 0.0 ? p0 : p1) + hp[h].b * (hp[h].b > 0.0 ? q0 : q1);
        if (least > hp[h].c) {
            return 0;
        }
    }
    return 1;
}

static int push_pair(hdi_table_build *tb, int cell, int v)
{
    if (tb->pair_count == tb->pair_capacity) {
        int failed = 0;
        int cap = hdi_array_grown_capacity(tb->pair_capacity, tb->pair_count + 1,
                                           HD_TABLE_MIN_PAIRS, sizeof(int));
        hdi_array_resize(&tb->pair_cell, cap, sizeof *tb->pair_cell, &failed);
        hdi_array_resize(&tb->pair_vertex, cap, sizeof *tb->pair_vertex, &failed);
        if (failed) {
            return 0;
        }
        tb->pair_capacity = cap;
    }
    tb->pair_cell[tb->pair_count] = cell;
    tb->pair_vertex[tb->pair_count] = v;
    tb->pair_count++;
    return 1;
}

/* Every cell of face f = 2a + (s < 0) that C(v) meets. */
static int rasterise(hdi_table_build *tb, int v, int f)
{
    int a = f / 2, k = tb->k;
    double s = (f & 1) ? -1.0 : 1.0;
    int count = face_halfplanes(tb->poly, v, a, s, tb->hp);
    double *p = tb->poly_p, *q = tb->poly_q;
    double *np = p + tb->capacity, *nq = q + tb->capacity;
    const double lo = -1.0 - HD_TABLE_CELL_MARGIN, hi = 1.0 + HD_TABLE_CELL_MARGIN;
    double sp[4] = {lo, hi, hi, lo}, sq[4] = {lo, lo, hi, hi};
    memcpy(p, sp, sizeof sp);
    memcpy(q, sq, sizeof sq);
    int n = 4;
    for (int h = 0; h < count && n > 0; ++h) {
        n = clip_polygon(p, q, n, &tb->hp[h], np, nq);
        double *t = p;
        p = np;
        np = t;
        t = q;
        q = nq;
        nq = t;
    }
    if (n == 0) {
        return 1;
    }
    double p0 = p[0], p1 = p[0], q0 = q[0], q1 = q[0];
    for (int i = 1; i < n; ++i) {
        p0 = fmin(p0, p[i]);
        p1 = fmax(p1, p[i]);
        q0 = fmin(q0, q[i]);
        q1 = fmax(q1, q[i]);
    }
    int i0, i1, j0, j1;
    cell_range(p0 - HD_TABLE_BOX_MARGIN, p1 + HD_TABLE_BOX_MARGIN, k, &i0, &i1);
    cell_range(q0 - HD_TABLE_BOX_MARGIN, q1 + HD_TABLE_BOX_MARGIN, k, &j0, &j1);
    const double w = 2.0 / k, margin = HD_TABLE_CELL_MARGIN;
    for (int i = i0; i <= i1; ++i) {
        double cp0 = -1.0 + w * i - margin, cp1 = -1.0 + w * (i + 1) + margin;
        for (int j = j0; j <= j1; ++j) {
            double cq0 = -1.0 + w * j - margin, cq1 = -1.0 + w * (j + 1) + margin;
            if (cell_meets(tb->hp, count, cp0, cp1, cq0, cq1) &&
                !push_pair(tb, (f * k + i) * k + j, v)) {
                return 0;
            }
        }
    }
    return 1;
}

/* The records and overflow lists from the candidates grouped by cell (vertex indices in sorted,
 * cell c at start[c] .. start[c + 1] - 1). */
static hd_status write_records(int cells, const int *start, const int *sorted, long list_len,
                               hdi_support_table *out)
{
    out->cell = malloc((size_t)cells * HD_SUPPORT_SLOTS * sizeof(int));
    out->list = malloc(((size_t)list_len + 1) * sizeof(int));
    if (out->cell == NULL || out->list == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    int o = 0;
    for (int c = 0; c < cells; ++c) {
        int *rec = out->cell + HD_SUPPORT_SLOTS * c;
        int count = start[c + 1] - start[c];
        const int *cand = sorted + start[c];
        if (count > HD_SUPPORT_SLOTS) {
            for (int j = 0; j < HD_SUPPORT_SLOTS; ++j) {
                rec[j] = -1 - o;
            }
            out->list[o] = count;
            memcpy(out->list + o + 1, cand, (size_t)count * sizeof(int));
            o += 1 + count;
        } else {
            for (int j = 0; j < HD_SUPPORT_SLOTS; ++j) {
                rec[j] = cand[j < count ? j : 0];
            }
        }
    }
    out->list_count = o;
    return HD_OK;
}

/* Groups the pairs by cell (counting sort, stable: candidates in increasing vertex order) and
 * encodes the table: a record of HD_SUPPORT_SLOTS vertex indices per cell, the unused slots
 * repeating the first (which leaves the best of the record unchanged and spares the query a
 * count), or, for a cell with more candidates, -1 - o with the list at o (the count, then the
 * indices). HD_ERR_UNSUPPORTED when a cell has no candidate (impossible for a valid
 * polytope: the table is then simply not used). */
static hd_status encode(hdi_table_build *tb, hdi_support_table *out)
{
    int cells = 6 * tb->k * tb->k;
    int *start = calloc((size_t)cells + 1, sizeof(int));
    int *fill = malloc((size_t)cells * sizeof(int));
    int *sorted = malloc(((size_t)tb->pair_count + 1) * sizeof(int));
    hd_status st = HD_OK;
    if (start == NULL || fill == NULL || sorted == NULL) {
        st = HD_ERR_NO_MEMORY;
    }
    long list_len = 0;
    if (st == HD_OK) {
        for (long i = 0; i < tb->pair_count; ++i) {
            start[tb->pair_cell[i] + 1]++;
        }
        for (int c = 0; c < cells; ++c) {
            int count = start[c + 1];
            if (count == 0) {
                st = HD_ERR_UNSUPPORTED;
            }
            list_len += count > HD_SUPPORT_SLOTS ? 1 + count : 0;
            fill[c] = start[c];
            start[c + 1] += start[c];
        }
        if (list_len > (long)HD_MAX_POINTS * 64) {
            st = HD_ERR_UNSUPPORTED;
        }
    }
    if (st == HD_OK) {
        for (long i = 0; i < tb->pair_count; ++i) {
            sorted[fill[tb->pair_cell[i]]++] = tb->pair_vertex[i];
        }
        out->k = tb->k;
        out->cell_count = cells;
        st = write_records(cells, start, sorted, list_len, out);
    }
    if (st != HD_OK) {
        hdi_support_table_free(out);
    }
    free(start);
    free(fill);
    free(sorted);
    return st;
}

hd_status hdi_support_table_build(const hd_polytope *poly, hdi_support_table *out)
{
    memset(out, 0, sizeof *out);
    if (poly->dim != 3 || poly->vertex_count <= HD_SUPPORT_SCAN_MAX) {
        return HD_ERR_UNSUPPORTED;
    }
    hdi_table_build tb;
    memset(&tb, 0, sizeof tb);
    tb.poly = poly;
    tb.k = hdi_support_table_resolution(poly->vertex_count);
    int degree = 0;
    for (int v = 0; v < poly->vertex_count; ++v) {
        int d = poly->vert_offset[v + 1] - poly->vert_offset[v];
        degree = d > degree ? d : degree;
    }
    tb.capacity = 4 + degree + 1;
    tb.hp = malloc((size_t)(degree + 1) * sizeof *tb.hp);
    tb.poly_p = malloc(2 * (size_t)tb.capacity * sizeof(double));
    tb.poly_q = malloc(2 * (size_t)tb.capacity * sizeof(double));
    hd_status st = HD_OK;
    if (tb.hp == NULL || tb.poly_p == NULL || tb.poly_q == NULL) {
        st = HD_ERR_NO_MEMORY;
    }
    for (int v = 0; v < poly->vertex_count && st == HD_OK; ++v) {
        for (int f = 0; f < 6 && st == HD_OK; ++f) {
            if (!rasterise(&tb, v, f)) {
                st = HD_ERR_NO_MEMORY;
            }
        }
    }
    if (st == HD_OK) {
        st = encode(&tb, out);
    }
    free(tb.hp);
    free(tb.poly_p);
    free(tb.poly_q);
    free(tb.pair_cell);
    free(tb.pair_vertex);
    return st;
}

void hdi_support_table_free(hdi_support_table *t)
{
    free(t->cell);
    free(t->list);
    memset(t, 0, sizeof *t);
}

hd_status hdi_poly_attach_support_table(hd_polytope **poly)
{
    hdi_support_table t;
    hd_status st = hdi_support_table_build(*poly, &t);
    if (st == HD_ERR_UNSUPPORTED) {
        return HD_OK;
    }
    if (st != HD_OK) {
        return st;
    }
    const hd_polytope *src = *poly;
    hd_polytope *p =
        hdi_poly_alloc_table(src->dim, src->vertex_count, src->edge_count, src->face_count,
                             src->face_offset[src->face_count], t.cell_count, t.list_count);
    if (p == NULL) {
        hdi_support_table_free(&t);
        return HD_ERR_NO_MEMORY;
    }
    hdi_poly_copy(p, src);
    p->support_k = t.k;
    memcpy(p->support_cell, t.cell, (size_t)t.cell_count * HD_SUPPORT_SLOTS * sizeof(int));
    if (t.list_count > 0) {
        memcpy(p->support_list, t.list, (size_t)t.list_count * sizeof(int));
    }
    hdi_support_table_free(&t);
    free(*poly);
    *poly = p;
    return HD_OK;
}
