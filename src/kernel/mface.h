/* Faces of the Minkowski difference M = A - B of a posed pair (CD-Dual 003 section 2.1), in A's
 * frame, and the supporting features of A and B behind them: shared by CD-Dual (cddual/) and the
 * contact queries (contact/). A face of M is one of
 *   FV: a face f of A plus the vertex of -B supporting it (B's vertex minimising n_f . b);
 *   VF: the vertex of A supporting a face of -B (B's face g, outward normal -R n_g in A's frame);
 *   EE: an edge of A plus an edge of -B whose Gaussian-image arcs cross (section 4.3).
 * Each is described by an hdi_mface: its unit outward normal n and support value h, so that the
 * plane n.x = h supports M, plus a vertex of A and one of B whose difference lies on the face. */
#ifndef HD_KERNEL_MFACE_H
#define HD_KERNEL_MFACE_H

#include "support/pair.h"

/* A face of M (see above). fa, fb follow hd_cddual_face's feature_a / feature_b. */
typedef struct hdi_mface {
    hd_face_kind kind;
    int fa;
    int fb;
    int sa;      /* a vertex of A on the face's A feature */
    int sb;      /* a vertex of B on the face's B feature */
    double n[3]; /* unit outward normal of M's face, A frame */
    double h;    /* n.x = h is the plane: h = max_A n.a - min_B n.b */
} hdi_mface;

/* kernel/mface.c ------------------------------------------------------------------------------ */

/* FV face of A's face f; *start_b is the hill-climbing start for B's support (updated). */
void hdi_mface_fv(const hdi_pair *pair, int f, int *start_b, hd_stats *stats, hdi_mface *out);

/* VF face of B's face g; *start_a as above for A's support. */
void hdi_mface_vf(const hdi_pair *pair, int g, int *start_a, hd_stats *stats, hdi_mface *out);

/* EE face of A's edge e and B's edge eb: 1 and *out set when their arcs cross (section 4.3),
 * 0 when they do not (or the edges are parallel: no face of M). */
int hdi_mface_ee(const hdi_pair *pair, int e, int eb, hdi_mface *out);

/* hdi_mface_ee for the separating-axis method: 1 and out[0] when the arcs cross; 2 and the faces
 * along both signs of the pair's normal in out[0..1] when they do not but the edges are nearly
 * parallel (sine at most HD_PLAIN_NORMAL_SINE): the arc test then reads the signs of products
 * that a needle face's rounded normal can flip, and an axis that is no face of M still bounds
 * the depth from above; 0 otherwise. */
int hdi_mface_ee_axes(const hdi_pair *pair, int e, int eb, hdi_mface out[2]);

/* The normal of m recomputed to a few units of 2^-53 when m's face of M is badly shaped (an EE
 * face of nearly parallel edges, an FV or VF face of a needle or sliver face of A or B), where the
 * double normal can turn by far more: 1 and m->n replaced (m->h is then stale; both supporting
 * vertices may change), 0 and m untouched for the ordinary faces, after a test of a few products.
 * Used by the contact queries (contact/facet.c), not by CD-Dual. */
int hdi_mface_refine(const hdi_pair *pair, hdi_mface *m);

/* kernel/feature.c --------------------------------------------------------------------------- */

typedef enum hdi_feat_kind { HD_FEAT_VERTEX = 0, HD_FEAT_EDGE = 1, HD_FEAT_FACE = 2 } hdi_feat_kind;

typedef struct hdi_feature {
    hdi_feat_kind kind;
    int index;
} hdi_feature;

/* The supporting feature of polytope p (its own frame) in direction d that contains the
 * supporting vertex v: the vertex itself, an edge of v perpendicular to d, or a face of v
 * whose normal is d (two or more perpendicular edges). Edges within a small angle of
 * perpendicular count as perpendicular: a larger feature only widens the search's neighbour
 * sets and the location's pieces, it never removes a true one. */
hdi_feature hdi_feature_support(const hd_polytope *p, int v, const double d[3]);

/* The features of A and B that make up the face m of M (A maximises n.a, B minimises n.b). */
void hdi_mface_features(const hdi_pair *pair, const hdi_mface *m, hdi_feature *fa, hdi_feature *fb);

/* Vertices and edges of a feature. */
int hdi_feature_vertex_count(const hd_polytope *p, hdi_feature f);
int hdi_feature_vertex(const hd_polytope *p, hdi_feature f, int i);
int hdi_feature_edge_count(const hd_polytope *p, hdi_feature f);
int hdi_feature_edge(const hd_polytope *p, hdi_feature f, int i);

/* A convex combination of at most three vertices of one polytope. */
typedef struct hdi_comb3 {
    int count;
    int index[3];
    double weight[3];
} hdi_comb3;

/* Writes x (a point of the face F = fa - fb of M, whose normal is n) as y - z with y a convex
 * combination of vertices of fa (A) and z one of fb (B). Returns |x - (y - z)|: 0 up to rounding
 * when x lies on F, else (approximately) its distance to F. */
double hdi_mface_locate(const hdi_pair *pair, const double n[3], hdi_feature fa, hdi_feature fb,
                        const double x[3], hdi_comb3 *y, hdi_comb3 *z);

#endif
