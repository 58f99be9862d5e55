/* Support mapping of one polytope in its own frame. */
#ifndef HD_SUPPORT_H
#define HD_SUPPORT_H

#include <math.h>

#include "core/math.h"
#include "polytope/internal.h"
#include "core/tolerances.h"
#include "support/kernels.h"

/* Index of a vertex maximising d.v, by scanning every vertex (lowest index among ties). */
int hdi_support_brute(const hd_polytope *poly, const double d[3]);

/* The running maximum of d.v over vertices from..n - 1 of xyz, continued from *best, *best_value
 * (a later vertex replaces it only when strictly greater: the lowest index among ties). */
static inline void hdi_support_scan_rest(const double *xyz, int from, int n, const double d[3],
                                         int *best, double *best_value)
{
    for (int i = from; i < n; ++i) {
        double x = hdi_v3_dot(xyz + 3 * i, d);
        if (x > *best_value) {
            *best_value = x;
            *best = i;
        }
    }
}

/* The scan of hdi_support_brute over n >= 1 vertices xyz, inline. (The running maximum is written
 * as a comparison and an update, which compiles to a chain of selects whose latency per vertex
 * bounds the scan: docs/algorithms/gjk.md, section 7, says why the other forms were not kept.) */
static inline int hdi_support_scan(const double *xyz, int n, const double d[3])
{
    int best = 0;
    double best_value = hdi_v3_dot(xyz, d);
    hdi_support_scan_rest(xyz, 1, n, d, &best, &best_value);
    return best;
}

/* The scans of hdi_support_scan of two vertex sets at once (A along da and B along db, n_a, n_b
 * >= 1): the same answers, index for index, since each keeps its own running maximum in order.
 * Interleaved, the two chains of comparisons (each bound by the latency of a maximum and a select
 * per vertex) run side by side, and the loop's own instructions are shared. */
static inline void hdi_support_scan_pair(const double *xa, int na, const double da[3],
                                         const double *xb, int nb, const double db[3], int *ia,
                                         int *ib)
{
    int best_a = 0, best_b = 0;
    double value_a = hdi_v3_dot(xa, da), value_b = hdi_v3_dot(xb, db);
    int common = na < nb ? na : nb;
    int i = 1;
    for (; i < common; ++i) {
        double x = hdi_v3_dot(xa + 3 * i, da);
        if (x > value_a) {
            value_a = x;
            best_a = i;
        }
        double y = hdi_v3_dot(xb + 3 * i, db);
        if (y > value_b) {
            value_b = y;
            best_b = i;
        }
    }
    hdi_support_scan_rest(xa, i, na, da, &best_a, &value_a);
    hdi_support_scan_rest(xb, i, nb, db, &best_b, &value_b);
    *ia = best_a;
    *ib = best_b;
}

/* The scan of p's vertices by the kernel chosen for it at build (support/kernels.h), every kernel
 * returning hdi_support_scan's index; HDI_SCAN_PLAIN, or a kernel this build lacks, is that scan
 * itself. A switch on a field, not a call through a pointer: predicted once and for all. */
static inline int hdi_support_scan_poly(const hd_polytope *p, const double d[3])
{
    switch (p->scan_kernel) {
#if HD_SCAN_X86
        case HDI_SCAN_AVX512:
            return hdi_scan_avx512(p->blocks, p->vertex_count, d);
        case HDI_SCAN_AVX2:
            return hdi_scan_avx2(p->blocks, p->vertex_count, d);
        case HDI_SCAN_SSE2:
            return hdi_scan_sse2(p->blocks, p->vertex_count, d);
#endif
        default:
            return hdi_support_scan(p->verts, p->vertex_count, d);
    }
}

/* The scans of hdi_support_scan_poly of a along da and b along db, in one call when both use the
 * same kernel (always, in one process): the two scans overlap. */
static inline void hdi_support_scan_poly_pair(const hd_polytope *a, const double da[3],
                                              const hd_polytope *b, const double db[3], int *ia,
                                              int *ib)
{
    int kernel = a->scan_kernel == b->scan_kernel ? a->scan_kernel : -1;
    switch (kernel) {
#if HD_SCAN_X86
        case HDI_SCAN_AVX512:
            hdi_scan_pair_avx512(a->blocks, a->vertex_count, da, b->blocks, b->vertex_count, db, ia,
                                 ib);
            return;
        case HDI_SCAN_AVX2:
            hdi_scan_pair_avx2(a->blocks, a->vertex_count, da, b->blocks, b->vertex_count, db, ia,
                               ib);
            return;
#endif
        case HDI_SCAN_PLAIN:
            hdi_support_scan_pair(a->verts, a->vertex_count, da, b->verts, b->vertex_count, db, ia,
                                  ib);
            return;
        default:
            *ia = hdi_support_scan_poly(a, da);
            *ib = hdi_support_scan_poly(b, db);
    }
}

/* Whether hdi_support_direct answers p by a scan (no direction table, at most HD_SUPPORT_SCAN_MAX
 * vertices). */
static inline int hdi_support_scans(const hd_polytope *p)
{
    return p->support_k <= 0 && p->vertex_count <= HD_SUPPORT_SCAN_MAX;
}

/* Index of a vertex maximising d.v, by hill climbing over the vertex adjacency from start (any
 * index; out-of-range starts at 0). Returns a true maximiser on every convex polytope (to the
 * rounding of the dot products). Polytopes of at most HD_SUPPORT_SCAN_MAX vertices are scanned
 * as by hdi_support_brute, which is faster than walking at that size, and solids with a direction
 * table answer from it (hdi_support_direct); the others walk (hdi_support_walk). */
int hdi_support_climb(const hd_polytope *poly, const double d[3], int start);

/* The walk of hdi_support_climb alone, without its dispatch: for callers that have already asked
 * hdi_support_direct. */
int hdi_support_walk(const hd_polytope *poly, const double d[3], int start);

/* The support vertex by the polytope's direction table (support_k > 0): the cube-map cell of d
 * (polytope/support_table.c; the same face and cell rule) and the best of its candidates by
 * computed d.v, the lowest index among equal values. A zero or non-finite d gets a vertex all the
 * same. */
static inline int hdi_support_lookup(const hd_polytope *poly, const double d[3])
{
    /* the axis of the largest |d_a| (the lowest on a tie) and (b, c) = (a + 1, a + 2) mod 3,
     * chosen by index arithmetic rather than branches: directions are unpredictable */
    double x = fabs(d[0]), y = fabs(d[1]), z = fabs(d[2]);
    int not_x = x < y || x < z;
    int ax = not_x + not_x * (y < z);
    static const int next1[3] = {1, 2, 0}, next2[3] = {2, 0, 1};
    double m = d[ax], u = d[next1[ax]], w = d[next2[ax]];
    double am = fabs(m);
    int face = 2 * ax + (m < 0.0);
    int k = poly->support_k;
    double half = 0.5 * k / am;
    double ti = (u + am) * half, tj = (w + am) * half;
    /* ti, tj in [0, k] since |u|, |w| <= am; a zero or non-finite d gives NaN, which fails the
     * comparison and takes the last cell */
    int i = ti < k ? (int)ti : k - 1;
    int j = tj < k ? (int)tj : k - 1;
    const int *rec = poly->support_cell + HD_SUPPORT_SLOTS * ((face * k + i) * k + j);
    const double *verts = poly->verts;
    int count = HD_SUPPORT_SLOTS;
    if (rec[0] < 0) {
        const int *list = poly->support_list + (-1 - rec[0]);
        count = list[0];
        rec = list + 1;
    }
    int best = rec[0];
    double best_value = hdi_v3_dot(verts + 3 * best, d);
    for (int c = 1; c < count; ++c) {
        double value = hdi_v3_dot(verts + 3 * rec[c], d);
        best = value > best_value ? rec[c] : best;
        best_value = value > best_value ? value : best_value;
    }
    return best;
}

/* The support vertex when it needs no walk: by the direction table (support_k > 0) or by a scan
 * (at most HD_SUPPORT_SCAN_MAX vertices); -1 when the polytope must be climbed. The dispatch of
 * hdi_support_climb, inline for the callers that choose their own climbing start. */
static inline int hdi_support_direct(const hd_polytope *poly, const double d[3])
{
    if (poly->support_k > 0) {
        return hdi_support_lookup(poly, d);
    }
    if (poly->vertex_count <= HD_SUPPORT_SCAN_MAX) {
        return hdi_support_scan_poly(poly, d);
    }
    return -1;
}

/* Start of a hill climb on p in direction d: the best of start, the candidates cand[0..count)
 * (e.g. supports of earlier directions) and an evenly strided sample of the vertices
 * (support/support.c explains the sample). */
int hdi_support_climb_start(const hd_polytope *p, const double d[3], int start, const int *cand,
                            int count);

/* Index of a vertex of p maximising d.v: the direction table or a scan of a small polytope, else
 * a hill climb from hdi_support_climb_start. */
static inline int hdi_support_from(const hd_polytope *p, const double d[3], int start,
                                   const int *cand, int count)
{
    int direct = hdi_support_direct(p, d);
    return direct >= 0 ? direct
                       : hdi_support_walk(p, d, hdi_support_climb_start(p, d, start, cand, count));
}

#endif
