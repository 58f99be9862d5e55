/* A pair of posed polytopes prepared for a query: every algorithm works in A's local frame, so A's
 * vertices are used as stored and only B's are moved (by the relative pose). Results are mapped
 * back to the world frame once, by the query dispatcher (query/query.c). */
#ifndef HD_PAIR_H
#define HD_PAIR_H

#include <stddef.h>

#include "hedra/query.h"
#include "polytope/internal.h"
#include "support/support.h"

typedef struct hdi_pair {
    const hd_polytope *a;
    const hd_polytope *b;
    double r[9]; /* B-local -> A-local: x_A = r x_B + t */
    double t[3];
    double pose_a[9]; /* A-local -> world rotation and translation */
    double pose_at[3];
    double scale;  /* largest |coordinate| of either bounding sphere, in A's frame */
    double eps;    /* touch_rel * scale */
    int brute;     /* HD_QUERY_BRUTE_SUPPORT */
    int scan_both; /* both solids answer by a scan (hdi_support_scans): one loop for the two */
    int max_iterations;
} hdi_pair;

/* Validates the inputs (NULL, poses, tolerances) and prepares the pair. */
hd_status hdi_pair_init(hdi_pair *pair, const hd_polytope *a, const hd_pose *pose_a,
                        const hd_polytope *b, const hd_pose *pose_b, const hd_options *opt);

/* Largest |coordinate| of either polytope in A's frame (bounding spheres): the magnitude of what
 * the algorithms compute with, below the world scale when the pair is far from the origin. The
 * queries that promise an accuracy relative to the pair's own size (distance, signed distance)
 * take their iterations' tolerances from it; the band eps stays the world's. */
double hdi_pair_local_magnitude(const hdi_pair *pair);

/* Whether M = A - B has an interior: A or B a solid, two polygons whose planes make a sine above
 * `sine`, or a polygon and a segment crossing its plane at a sine above `sine`. */
int hdi_pair_spans_volume(const hdi_pair *pair, double sine);

/* min(pair->scale, hdi_pair_local_magnitude(pair)): the scale of the iterations' tolerances in A's
 * frame. */
double hdi_pair_local_scale(const hdi_pair *pair);

/* The pose of B in A's frame (r, t), for checking a certificate given in A's frame. */
hd_pose hdi_pair_relative_pose(const hdi_pair *pair);

/* Vertex vb of B in A's frame. */
void hdi_pair_b_vertex(const hdi_pair *pair, int vb, double out[3]);

/* The vertices a[j] of A and b[j] of B (A's frame) behind count support pairs (ia[j], ib[j]). */
void hdi_pair_vertices(const hdi_pair *pair, const int *ia, const int *ib, int count,
                       double (*a)[3], double (*b)[3]);

/* A direction given in A's frame expressed in B's frame (R^T d). */
void hdi_pair_dir_to_b(const hdi_pair *pair, const double d[3], double out[3]);

/* Support vertex of A in direction d (A frame): hill climbing from *start (updated), or brute
 * force when pair->brute. Counts one support call in stats (may be NULL). */
int hdi_pair_support_a(const hdi_pair *pair, const double d[3], int *start, hd_stats *stats);

/* Support vertex of B in direction d given in A's frame; *start as above. */
int hdi_pair_support_b(const hdi_pair *pair, const double d[3], int *start, hd_stats *stats);

/* The support point of M = A - B in direction d: w = S_A(d) - S_B(-d) (A's frame), climbing from
 * *start_a, *start_b and the candidates cand_a, cand_b[0..count) (e.g. the GJK simplex's
 * vertices; count may be 0), which it updates; honours the brute-force flag; counts two support
 * calls. Inline: it is the innermost step of every GJK query. */
static inline void hdi_pair_support_m_from(const hdi_pair *pair, const double d[3], int *start_a,
                                           int *start_b, const int *cand_a, const int *cand_b,
                                           int count, int *ia, int *ib, double w[3],
                                           hd_stats *stats)
{
    const hd_polytope *a = pair->a, *b = pair->b;
    double nd[3], db[3], pb[3];
    hdi_v3_neg(nd, d);
    hdi_m3_tmul_v(db, pair->r, nd);
    if (pair->brute) {
        *ia = hdi_support_brute(a, d);
        *ib = hdi_support_brute(b, db);
    } else if (pair->scan_both) {
        hdi_support_scan_poly_pair(a, d, b, db, ia, ib);
    } else {
        *ia = hdi_support_from(a, d, *start_a, cand_a, count);
        *ib = hdi_support_from(b, db, *start_b, cand_b, count);
    }
    *start_a = *ia;
    *start_b = *ib;
    hdi_m3_mul_v(pb, pair->r, b->verts + 3 * *ib);
    hdi_v3_add(pb, pb, pair->t);
    hdi_v3_sub(w, a->verts + 3 * *ia, pb);
    if (stats != NULL) {
        stats->support_calls += 2;
    }
}

/* Support point of the Minkowski difference M = A - B in direction d (A frame):
 * w = S_A(d) - S_B(-d); writes the vertex indices and w. */
void hdi_pair_support_m(const hdi_pair *pair, const double d[3], int *start_a, int *start_b,
                        int *ia, int *ib, double w[3], hd_stats *stats);

/* Maps a point / direction from A's frame to the world frame. */
void hdi_pair_point_to_world(const hdi_pair *pair, const double p[3], double out[3]);
void hdi_pair_dir_to_world(const hdi_pair *pair, const double d[3], double out[3]);

/* Default iteration cap when tol.max_iterations is 0: hdi_pair_iterations_for the vertex counts,
 * 64 + 4 (V_A + V_B) (at most 10^9). */
int hdi_pair_default_iterations(const hdi_pair *pair);
int hdi_pair_iterations_for(int vertices_a, int vertices_b);

#endif
