/* Support mapping of one polytope in its own frame. */
#ifndef HD_SUPPORT_H
#define HD_SUPPORT_H

#include <math.h>

#include "core/math.h"
#include "polytope/internal.h"
#include "core/tolerances.h"

/* Index of a vertex maximising d.v, by scanning every vertex (lowest index among ties). */
int hd_support_brute(const hd_polytope *poly, const double d[3]);

/* The best of a running maximum (value, index) and another, the lower index on a tie. */
static inline void hd_support_merge(double *best_value, int *best, double value, int index)
{
    if (value > *best_value || (value == *best_value && index < *best)) {
        *best_value = value;
        *best = index;
    }
}

/* The scan of hd_support_brute over n >= 1 vertices xyz, inline: the lowest index of the largest
 * d.v. From 8 vertices on, four running maxima over the indices of each residue mod 4, merged at
 * the end: the compiler keeps a maximum with a select (maxsd, cmov), so one running maximum is a
 * chain of dependent selects, one per vertex, which bounds a 12-vertex scan by its latency; four
 * chains cut that by four (docs/algorithms/gjk.md, section 7). The values are the same dot
 * products and the merge keeps the lowest index among equal ones: the same answer as one chain. */
static inline int hd_support_scan(const double *xyz, int n, const double d[3])
{
    int best = 0;
    double best_value = hd_v3_dot(xyz, d);
    if (n < 8) {
        for (int i = 1; i < n; ++i) {
            double x = hd_v3_dot(xyz + 3 * i, d);
            if (x > best_value) {
                best_value = x;
                best = i;
            }
        }
        return best;
    }
    double m[3] = {hd_v3_dot(xyz + 3, d), hd_v3_dot(xyz + 6, d), hd_v3_dot(xyz + 9, d)};
    int b[3] = {1, 2, 3};
    int i = 4;
    for (; i + 4 <= n; i += 4) {
        const double *p = xyz + 3 * i;
        double x0 = hd_v3_dot(p, d), x1 = hd_v3_dot(p + 3, d);
        double x2 = hd_v3_dot(p + 6, d), x3 = hd_v3_dot(p + 9, d);
        if (x0 > best_value) {
            best_value = x0;
            best = i;
        }
        if (x1 > m[0]) {
            m[0] = x1;
            b[0] = i + 1;
        }
        if (x2 > m[1]) {
            m[1] = x2;
            b[1] = i + 2;
        }
        if (x3 > m[2]) {
            m[2] = x3;
            b[2] = i + 3;
        }
    }
    for (; i < n; ++i) {
        hd_support_merge(&best_value, &best, hd_v3_dot(xyz + 3 * i, d), i);
    }
    for (int k = 0; k < 3; ++k) {
        hd_support_merge(&best_value, &best, m[k], b[k]);
    }
    return best;
}

/* Index of a vertex maximising d.v, by hill climbing over the vertex adjacency from start (any
 * index; out-of-range starts at 0). Returns a true maximiser on every convex polytope (to the
 * rounding of the dot products). Polytopes of at most HD_SUPPORT_SCAN_MAX vertices are scanned
 * as by hd_support_brute, which is faster than walking at that size, and solids with a direction
 * table answer from it (hd_support_direct); the others walk (hd_support_walk). */
int hd_support_climb(const hd_polytope *poly, const double d[3], int start);

/* The walk of hd_support_climb alone, without its dispatch: for callers that have already asked
 * hd_support_direct. */
int hd_support_walk(const hd_polytope *poly, const double d[3], int start);

/* The support vertex by the polytope's direction table (support_k > 0): the cube-map cell of d
 * (polytope/support_table.c; the same face and cell rule) and the best of its candidates by
 * computed d.v, the lowest index among equal values. A zero or non-finite d gets a vertex all the
 * same. */
static inline int hd_support_lookup(const hd_polytope *poly, const double d[3])
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
    double best_value = hd_v3_dot(verts + 3 * best, d);
    for (int c = 1; c < count; ++c) {
        double value = hd_v3_dot(verts + 3 * rec[c], d);
        best = value > best_value ? rec[c] : best;
        best_value = value > best_value ? value : best_value;
    }
    return best;
}

/* The support vertex when it needs no walk: by the direction table (support_k > 0) or by a scan
 * (at most HD_SUPPORT_SCAN_MAX vertices); -1 when the polytope must be climbed. The dispatch of
 * hd_support_climb, inline for the callers that choose their own climbing start. */
static inline int hd_support_direct(const hd_polytope *poly, const double d[3])
{
    if (poly->support_k > 0) {
        return hd_support_lookup(poly, d);
    }
    if (poly->vertex_count <= HD_SUPPORT_SCAN_MAX) {
        return hd_support_scan(poly->verts, poly->vertex_count, d);
    }
    return -1;
}

/* Start of a hill climb on p in direction d: the best of start, the candidates cand[0..count)
 * (e.g. supports of earlier directions) and an evenly strided sample of the vertices
 * (support/support.c explains the sample). */
int hd_support_climb_start(const hd_polytope *p, const double d[3], int start, const int *cand,
                           int count);

/* Index of a vertex of p maximising d.v: the direction table or a scan of a small polytope, else
 * a hill climb from hd_support_climb_start. */
static inline int hd_support_from(const hd_polytope *p, const double d[3], int start,
                                  const int *cand, int count)
{
    int direct = hd_support_direct(p, d);
    return direct >= 0 ? direct
                       : hd_support_walk(p, d, hd_support_climb_start(p, d, start, cand, count));
}

#endif
