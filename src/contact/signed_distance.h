/* Signed distance, exact penetration depth and normal, certified bounds and the contact manifold
 * of a posed pair (the internals of include/hedra/contact.h), in A's frame. The public entry
 * points (query module) validate the arguments, prepare the pair and map the answers to the
 * world frame. docs/algorithms/contact.md derives everything here. */
#ifndef HD_CONTACT_SIGNED_DISTANCE_H
#define HD_CONTACT_SIGNED_DISTANCE_H

#include "kernel/mface.h"
#include "hedra/contact.h"
#include "support/pair.h"

/* How the depth was found. */
typedef enum hdi_sd_method {
    HD_SD_DISTANCE = 0, /* separated: GJK's distance (the facet search may refine the normal) */
    HD_SD_EPA = 1,      /* expanding polytope to convergence, then the facet of M at its normal */
    HD_SD_SAT = 2       /* every facet plane of M (separating axes, Gauss-map pruned edge pairs) */
} hdi_sd_method;

/* The answer in A's frame. */
typedef struct hdi_sd_result {
    hd_verdict verdict;
    double delta; /* signed distance: distance when separated, -depth when overlapping */
    double n[3];  /* unit normal from A towards B: the outward normal of M's facet */
    double lower; /* proven: lower <= delta <= upper (rounding included) */
    double upper;
    double wa[3]; /* witnesses: wb - wa = delta n */
    double wb[3];
    hdi_mface facet; /* the facet of M attaining delta; kind HD_FACE_NONE when none is known */
    hdi_feature fa;  /* supporting features along n (A) and -n (B) */
    hdi_feature fb;
    hdi_sd_method method;
    double next_depth; /* with HD_QUERY_GRADIENT, a landed expanding polytope and the origin inside
                          it: the least distance of its faces off the facet (contact/gradient.c's
                          tie test); -DBL_MAX when unknown */
    double size;       /* diagonal of the pair's bounding box */
    double margin;     /* the rounding allowance added to both bounds */
} hdi_sd_result;

/* The features of A and B that attain out->delta along out->n: out->facet's when known, else
 * the supporting features at the support pair (ia, ib) along out->n. */
void hdi_sd_set_features(const hdi_pair *pair, hdi_sd_result *out, int ia, int ib);

/* Caller scratch memory (the query module passes a workspace's), 16-byte aligned; bytes may be 0.
 * Without it, or when it is smaller, the expanding polytope uses HD_CONTACT_STACK_VERTICES inner
 * vertices on the stack and the manifold HD_CLIP_STACK polygon vertices. */
typedef struct hdi_scratch {
    void *bytes;
    size_t size;
} hdi_scratch;

/* The signed distance of a prepared pair. opt->cache warm-starts GJK (and is updated);
 * opt->flags & HD_QUERY_DEPTH_SAT selects the separating-axis method for the depth. Errors:
 * HD_ERR_ITERATION_LIMIT (GJK's cap). */
hd_status hdi_sd_pair(const hdi_pair *pair, const hd_options *opt, const hdi_scratch *scratch,
                      hd_stats *stats, hdi_sd_result *out);

/* facet.c ----------------------------------------------------------------------------------- */

/* The facet of M of least support value among those through the vertex a_ia - b_ib of M whose
 * normals are nearest to n0 (faces of A at ia, faces of B at ib, edge pairs at both): the facet
 * plane n.x = h of M that n0 approximates when (ia, ib) is M's support pair along n0. Returns 0
 * when there is none (points and segments without faces or crossing edges). */
int hdi_facet_at_vertex(const hdi_pair *pair, int ia, int ib, const double n0[3], hd_stats *stats,
                        hdi_mface *out);

/* The facet of M holding the triangle of support points a_ia[k] - b_ib[k] (the expanding
 * polytope's nearest face once it lies on the boundary of M): its A vertices span a face, an edge
 * or a vertex of A, its B vertices one of B, and the pair of features names an FV, VF or EE facet.
 * Returns 0 when they do not (a triangle across two facets, or a sliver); out->h is then unset. */
int hdi_facet_of_triangle(const hdi_pair *pair, const int ia[3], const int ib[3], hd_stats *stats,
                          hdi_mface *out);

/* The facet m (its h a support value) along its refined normal (hdi_mface_refine) when it is badly
 * shaped, keeping the lower of the two support values: 1 when it was refined. */
int hdi_facet_refine(const hdi_pair *pair, hdi_mface *m, hd_stats *stats);

/* hdi_facet_of_triangle as the expanding polytope's landing (kernel/epa.h); ctx is the pair. */
int hdi_facet_land(void *ctx, const int ia[3], const int ib[3], hd_stats *stats, hdi_mface *out);

/* Keeps the candidate facet m in *best when it is lower: m->h (from the candidate's own features:
 * never above its support value, up to the hull's resolution) prunes; a candidate that may win
 * gets its support value by the support mappings (the side hdi_mface_fv / hdi_mface_vf did not
 * already ask), and is compared by that. A badly shaped facet's normal is refined first
 * (hdi_mface_refine) and then always gets its support value: its own m->h was read along the
 * rounded normal, which can put it far above the facet's. */
void hdi_facet_consider(const hdi_pair *pair, hdi_mface *m, hdi_mface *best, int *found,
                        hd_stats *stats);

/* The exact support value h_M(n) = max_A n.a - min_B n.b of a facet's normal, with both support
 * mappings climbing from the facet's own vertices; writes the support pair. */
double hdi_facet_support(const hdi_pair *pair, const double n[3], int *ia, int *ib,
                         hd_stats *stats);

/* sat.c ------------------------------------------------------------------------------------- */

/* The facet of M of least support value over all of them: every face of A (FV), every face of B
 * (VF) and every edge pair whose Gaussian arcs cross (EE), without memory. Returns 0 when M has
 * no facet (see hdi_facet_at_vertex). */
int hdi_sat_min_facet(const hdi_pair *pair, hd_stats *stats, hdi_mface *out);

/* Every candidate facet of M that hdi_sat_min_facet reads (FV, VF, EE faces and the two axes of
 * nearly parallel edge pairs), each with its own-feature value m->h, passed to visit (which may
 * change its copy) until it returns nonzero: then 1, else 0. */
typedef int (*hdi_facet_visit)(void *ctx, hdi_mface *m);
int hdi_sat_each_facet(const hdi_pair *pair, hd_stats *stats, hdi_facet_visit visit, void *ctx);

/* visit on a superset of the facets of M that may have a support value within limit of the
 * origin, for an overlap whose depth the expanding polytope found (sd->next_depth known) and two
 * solids: the facets in a cap around sd->n, found near sd's features (contact/tie.c). Returns
 * visit's first nonzero, else 0; -1 when the cap does not apply or its walk outgrows
 * HD_GRADIENT_CAP_VERTICES (then the caller passes over every facet). */
int hdi_tie_each_cap_facet(const hdi_pair *pair, const hdi_sd_result *sd, double limit,
                           hd_stats *stats, hdi_facet_visit visit, void *ctx);

/* manifold.c -------------------------------------------------------------------------------- */

/* Polygon vertices the clipping holds on the stack (two buffers); larger faces use the scratch. */
#define HD_CLIP_STACK 64

/* Scratch bytes the manifold of faces of up to m and k vertices needs. */
size_t hdi_manifold_scratch_bytes(int m, int k);

/* The contact manifold of a pair from its signed distance (A's frame): up to HD_MANIFOLD_MAX
 * points; count 0 when the pair is separated beyond the touching band. HD_ERR_WORKSPACE_FULL when
 * the two faces have more than HD_CLIP_STACK vertices together and the scratch is too small
 * (hdi_manifold_scratch_bytes). */
hd_status hdi_manifold_pair(const hdi_pair *pair, const hdi_sd_result *sd,
                            const hdi_scratch *scratch, hd_manifold *out);

#endif
