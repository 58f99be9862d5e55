/* placeholder until the support module lands: brute force only */
#include "support.h"
int hd_support_brute(const hd_polytope *poly, const double d[3])
{
    int best = 0;
    double bv = -1e308;
    for (int i = 0; i < poly->vertex_count; ++i) {
        const double *v = poly->verts + 3 * i;
        double x = v[0] * d[0] + v[1] * d[1] + v[2] * d[2];
        if (x > bv) { bv = x; best = i; }
    }
    return best;
}
int hd_support_climb(const hd_polytope *poly, const double d[3], int start)
{ (void)start; return hd_support_brute(poly, d); }
