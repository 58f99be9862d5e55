/* Internal interfaces of CD-Dual (Choi, Li, Wang, Cameron, "Collision Detection of Convex
 * Polyhedra Based on Duality Transformation"), shared by the files of cddual/ (each section below
 * names its file); kernel/plane_search.h is the planar simplex search that the location on a face
 * and the gap use. Everything is in A's local frame (support/pair.h): P = A, Q = B, and
 * M = A - B = A + (-B), the paper's P (+) Q-bar. */
#ifndef HD_CDDUAL_INTERNAL_H
#define HD_CDDUAL_INTERNAL_H

#include <stdint.h>

#include "support/pair.h"
#include "kernel/workspace.h"
#include "core/tolerances.h"

/* Candidate keys of the search map: kind in the top two bits, then two 31-bit indices. FV keys
 * hold the face of A, VF keys the face of B (the supporting vertex is a function of the face),
 * EE keys the two edges. */
enum { HD_KEY_FV = 1, HD_KEY_VF = 2, HD_KEY_EE = 3 };

static inline uint64_t hd_key(unsigned kind, int a, int b)
{
    return ((uint64_t)kind << 62) | ((uint64_t)(uint32_t)a << 31) | (uint64_t)(uint32_t)b;
}

static inline unsigned hd_key_kind(uint64_t key)
{
    return (unsigned)(key >> 62);
}

static inline int hd_key_a(uint64_t key)
{
    return (int)((key >> 31) & 0x7fffffffu);
}

static inline int hd_key_b(uint64_t key)
{
    return (int)(key & 0x7fffffffu);
}

/* A face of M (section 2.1): FV, a face f of A plus B's vertex minimising n_f.b; VF, a face g of -B
 * (outward normal -R n_g in A's frame) plus A's supporting vertex; EE, an edge of A plus an edge of
 * -B whose Gaussian-image arcs cross (section 4.3). fa, fb as hd_result's feature_a, feature_b. */
typedef struct hd_mface {
    hd_face_kind kind;
    int fa;
    int fb;
    int sa;      /* a vertex of A on the face's A feature */
    int sb;      /* a vertex of B on the face's B feature */
    double n[3]; /* unit outward normal of M's face, A frame */
    double h;    /* n.x = h is the plane: h = max_A n.a - min_B n.b */
} hd_mface;

/* cddual/face.c ------------------------------------------------------------------------------ */

/* FV face of A's face f; *start_b is the hill-climbing start for B's support (updated). */
void hd_mface_fv(const hd_pair *pair, int f, int *start_b, hd_stats *stats, hd_mface *out);

/* VF face of B's face g; *start_a as above for A's support. */
void hd_mface_vf(const hd_pair *pair, int g, int *start_a, hd_stats *stats, hd_mface *out);

/* EE face of A's edge e and B's edge eb: 1 and *out set when their arcs cross (section 4.3),
 * 0 when they do not (or the edges are parallel: no face of M). */
int hd_mface_ee(const hd_pair *pair, int e, int eb, hd_mface *out);

/* The face of a key (support vertex aux for FV / VF, as stored in the map): 0 when an EE key is
 * not a face. */
int hd_mface_of_key(const hd_pair *pair, uint64_t key, int aux, hd_mface *out);

/* cddual/feature.c --------------------------------------------------------------------------- */

typedef enum hd_feat_kind { HD_FEAT_VERTEX = 0, HD_FEAT_EDGE = 1, HD_FEAT_FACE = 2 } hd_feat_kind;

typedef struct hd_feature {
    hd_feat_kind kind;
    int index;
} hd_feature;

/* The supporting feature of polytope p (its own frame) in direction d that contains the
 * supporting vertex v: the vertex itself, an edge of v perpendicular to d, or a face of v
 * whose normal is d (two or more perpendicular edges). Edges within a small angle of
 * perpendicular count as perpendicular: a larger feature only widens the search's neighbour
 * sets and the location's pieces, it never removes a true one. */
hd_feature hd_feature_support(const hd_polytope *p, int v, const double d[3]);

/* The features of A and B that make up the face m of M (A maximises n.a, B minimises n.b). */
void hd_mface_features(const hd_pair *pair, const hd_mface *m, hd_feature *fa, hd_feature *fb);

/* Vertices and edges of a feature. */
int hd_feature_vertex_count(const hd_polytope *p, hd_feature f);
int hd_feature_vertex(const hd_polytope *p, hd_feature f, int i);
int hd_feature_edge_count(const hd_polytope *p, hd_feature f);
int hd_feature_edge(const hd_polytope *p, hd_feature f, int i);

/* A convex combination of at most three vertices of one polytope. */
typedef struct hd_comb3 {
    int count;
    int index[3];
    double weight[3];
} hd_comb3;

/* Writes x (a point of the face F = fa - fb of M, whose normal is n) as y - z with y a convex
 * combination of vertices of fa (A) and z one of fb (B). Returns |x - (y - z)|: 0 up to rounding
 * when x lies on F, else (approximately) its distance to F. */
double hd_mface_locate(const hd_pair *pair, const double n[3], hd_feature fa, hd_feature fb,
                       const double x[3], hd_comb3 *y, hd_comb3 *z);

/* cddual/search.c ---------------------------------------------------------------------------- */

/* The ray-shooting problem at the heart of CD-Dual: from a point c of M, along direction r,
 * find the face of M through which the ray leaves M. For a face with plane n.x = h the ray
 * c + t r meets the plane at t = (h - n.c) / (n.r); the exit face has the least positive t,
 * i.e. the largest
 *     psi(f) = (n.r) / (h - n.c)                          (the search's objective)
 * With r = o - c (o the origin) this is Eq. (1) up to an affine change: d(f) = (psi - 1) / |r|
 * (section 3.2); psi is used because it stays well conditioned when c is near o. */
typedef struct hd_raysearch {
    /* input */
    const hd_pair *pair;
    double c[3];
    double r[3];
    int stop_on_gap; /* intersection query: stop at the first face whose plane, checked with
                         both support mappings, has gap > eps (the early exit of section 3.3) */
    int start_face;  /* face of A to start SEARCH-FV from (frame coherence), -1: heuristic */
    int start_a;     /* hill-climbing starts of the support mappings (updated) */
    int start_b;
    int max_evals; /* cap on candidates evaluated */
    hd_facemap *map;
    hd_stats *stats;
    /* output */
    hd_mface best; /* the optimal face (or the separating face when separated) */
    double best_value;
    int best_slot;
    int separated;    /* stop_on_gap: best's plane separates with gap > eps: */
    double sep_max_a; /*   max_A n.a and min_B n.b over all vertices (support mappings) */
    double sep_min_b;
    /* internal */
    int phase; /* 0 SEARCH-FV, 1 SEARCH-VF, 2 SEARCH-EE */
    int evals;
    int done;    /* separated, or a face with psi = +inf (the ray leaves M at c) */
    int fv_face; /* where SEARCH-FV ended (face of A, supporting vertex of B), or -1 */
    int fv_vertex;
} hd_raysearch;

/* Runs SEARCH-FV, SEARCH-VF and SEARCH-EE (sections 3.3.1-3.3.3) on rs. HD_OK with rs->best the
 * exit face (its psi in best_value), or rs->separated; HD_ERR_WORKSPACE_FULL,
 * HD_ERR_ITERATION_LIMIT. */
hd_status hd_raysearch_run(hd_raysearch *rs);

/* The objective of face m for the ray of rs. */
double hd_raysearch_value(const hd_raysearch *rs, const hd_mface *m);

/* Evaluates a candidate (key) the first time it is met: its value goes into the map, the best
 * face and the separation test are updated, and it is pushed for expansion when it is at or
 * near the best. *slot_out: its map entry. HD_ERR_WORKSPACE_FULL, HD_ERR_ITERATION_LIMIT. */
hd_status hd_raysearch_visit(hd_raysearch *rs, uint64_t key, int *slot_out);

/* Whether v ties with the best value so far (HD_TIE_REL), and the record of a new optimum (the
 * path, when recorded); cddual/visit.c. */
int hd_raysearch_near_best(const hd_raysearch *rs, double v);
void hd_raysearch_record_slot(hd_raysearch *rs, int slot);

/* cddual/neighbours.c: visits every neighbour of the face in map entry `slot`. */
hd_status hd_raysearch_expand(hd_raysearch *rs, int slot);

/* cddual/cddual.c
 * ----------------------------------------------------------------------------------- */

/* hd_cddual_collide on a map the caller opened (hd_facemap_open), which it may reuse after. */
hd_status hd_cddual_collide_map(const hd_pair *pair, const hd_options *opt, hd_facemap *map,
                                hd_result *out);

/* The interior point c of M used by the intersection query (section 4.1): the difference of one
 * stored interior point of A and one of B, the pair farthest from the origin; R the sum of their
 * clearances (ball(c, R) lies in M). Writes which interior points were used. */
void hd_cddual_interior(const hd_pair *pair, double c[3], double *clearance, int *ia, int *ib);

/* cddual/gap.c
 * -------------------------------------------------------------------------------------- */

/* Section 6: the travel g from the origin to the exit face along the line through c, from the
 * dual distance d = d(f_opt) of Eq. (1) and L = |c| (d = +inf gives L). */
double hd_cddual_gap_from_dual(double d, double length);

#endif
