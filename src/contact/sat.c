/* The separating-axis method for the penetration depth (Gottschalk's separating axes; the Gauss
 * map pruning of edge pairs as Gregorius presents it, "The Separating Axis Test between Convex
 * Polyhedra", GDC 2013): the depth of an overlapping pair is the least support value h_M(n) over
 * the facet normals of M = A - B, which are the face normals of A, the negated face normals of B
 * and the normals of the edge pairs whose Gaussian arcs cross (CD-Dual 003 section 2.1, Remark 1;
 * hdi_mface_ee is the arc test). Exact, with no memory, in O(F_A + F_B) support queries and
 * O(E_A E_B) arc tests: the fallback of the expanding polytope and the independent method the tests
 * compare it with. A candidate's value from its own features (face offset, edge ends) is never
 * above its support value, so only candidates below the best so far get their support value
 * (hdi_facet_consider): rounding that admits a non-facet edge pair or misplaces a face offset
 * cannot hide the least facet. Badly shaped facets (nearly parallel edges, needle faces) get
 * normals accurate to a few units (hdi_mface_refine), and a nearly parallel edge pair is taken
 * along both signs of its normal when its arcs do not cross, since a needle face's rounded normal
 * can flip the arc test (docs/algorithms/contact.md, section 5). */
#include "contact/signed_distance.h"

int hdi_sat_each_facet(const hdi_pair *pair, hd_stats *stats, hdi_facet_visit visit, void *ctx)
{
    const hd_polytope *a = pair->a, *b = pair->b;
    hdi_mface m;
    int start_a = 0, start_b = 0;
    for (int f = 0; f < a->face_count; ++f) {
        hdi_mface_fv(pair, f, &start_b, stats, &m);
        if (visit(ctx, &m)) {
            return 1;
        }
    }
    for (int g = 0; g < b->face_count; ++g) {
        hdi_mface_vf(pair, g, &start_a, stats, &m);
        if (visit(ctx, &m)) {
            return 1;
        }
    }
    hdi_mface axes[2];
    for (int e = 0; e < a->edge_count; ++e) {
        for (int eb = 0; eb < b->edge_count; ++eb) {
            int count = hdi_mface_ee_axes(pair, e, eb, axes);
            for (int k = 0; k < count; ++k) {
                if (visit(ctx, &axes[k])) {
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* The least facet so far, for hdi_sat_each_facet. */
typedef struct least_facet {
    const hdi_pair *pair;
    hd_stats *stats;
    hdi_mface *best;
    int found;
} least_facet;

static int keep_least(void *ctx, hdi_mface *m)
{
    least_facet *l = ctx;
    hdi_facet_consider(l->pair, m, l->best, &l->found, l->stats);
    return 0;
}

int hdi_sat_min_facet(const hdi_pair *pair, hd_stats *stats, hdi_mface *out)
{
    least_facet l = {pair, stats, out, 0};
    hdi_sat_each_facet(pair, stats, keep_least, &l);
    return l.found;
}
