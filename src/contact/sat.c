/* The separating-axis method for the penetration depth (Gottschalk's separating axes; the Gauss
 * map pruning of edge pairs as Gregorius presents it, "The Separating Axis Test between Convex
 * Polyhedra", GDC 2013): the depth of an overlapping pair is the least support value h_M(n) over
 * the facet normals of M = A - B, which are the face normals of A, the negated face normals of B
 * and the normals of the edge pairs whose Gaussian arcs cross (CD-Dual 003 section 2.1, Remark 1;
 * hd_mface_ee is the arc test). Exact, with no memory, in O(F_A + F_B) support queries and
 * O(E_A E_B) arc tests: the fallback of the expanding polytope and the independent method the tests
 * compare it with. */
#include "contact/signed_distance.h"

static void consider(const hd_mface *m, hd_mface *best, int *found)
{
    if (!*found || m->h < best->h) {
        *best = *m;
        *found = 1;
    }
}

int hd_sat_min_facet(const hd_pair *pair, hd_stats *stats, hd_mface *out)
{
    const hd_polytope *a = pair->a, *b = pair->b;
    hd_mface m;
    int found = 0, start_a = 0, start_b = 0;
    for (int f = 0; f < a->face_count; ++f) {
        hd_mface_fv(pair, f, &start_b, stats, &m);
        consider(&m, out, &found);
    }
    for (int g = 0; g < b->face_count; ++g) {
        hd_mface_vf(pair, g, &start_a, stats, &m);
        consider(&m, out, &found);
    }
    for (int e = 0; e < a->edge_count; ++e) {
        for (int eb = 0; eb < b->edge_count; ++eb) {
            if (hd_mface_ee(pair, e, eb, &m)) {
                consider(&m, out, &found);
            }
        }
    }
    if (found) {
        out->h = hd_facet_support(pair, out->n, &out->sa, &out->sb, stats);
    }
    return found;
}
