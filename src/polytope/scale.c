/* Exact power-of-two rescaling of inputs of extreme magnitude, so that the construction's squared
 * lengths neither overflow nor underflow, and back (docs/algorithms/polytope.md, section 2). */
#include <math.h>
#include <stdlib.h>

#include "polytope/build.h"

hd_status hdi_poly_scaled_copy(const double *xyz, int count, double **scaled, int *exponent)
{
    double m = 0.0;
    for (long i = 0; i < 3L * count; ++i) {
        if (fabs(xyz[i]) > m) {
            m = fabs(xyz[i]);
        }
    }
    *scaled = (double *)xyz;
    *exponent = 0;
    if (m == 0.0 || (m <= ldexp(1.0, HD_SCALE_RANGE) && m >= ldexp(1.0, -HD_SCALE_RANGE))) {
        return HD_OK;
    }
    int e = ilogb(m);
    double *copy = malloc((size_t)count * 3 * sizeof(double));
    if (copy == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    for (long i = 0; i < 3L * count; ++i) {
        copy[i] = ldexp(xyz[i], -e);
        if (ldexp(copy[i], e) != xyz[i]) {
            free(copy);
            return HD_OK;
        }
    }
    *scaled = copy;
    *exponent = e;
    return HD_OK;
}

void hdi_poly_unscale(hd_polytope *p, int e)
{
    if (e == 0) {
        return;
    }
    for (int i = 0; i < 3 * p->vertex_count; ++i) {
        p->verts[i] = ldexp(p->verts[i], e);
    }
    hdi_poly_fill_blocks(p);
    for (int f = 0; f < p->face_count; ++f) {
        p->face_dist[f] = ldexp(p->face_dist[f], e);
    }
    p->plane_dist = ldexp(p->plane_dist, e);
    for (int w = 0; w < 2; ++w) {
        for (int k = 0; k < 3; ++k) {
            p->interior[w].point[k] = ldexp(p->interior[w].point[k], e);
        }
        p->interior[w].clearance = ldexp(p->interior[w].clearance, e);
    }
    for (int k = 0; k < 3; ++k) {
        p->aabb_lo[k] = ldexp(p->aabb_lo[k], e);
        p->aabb_hi[k] = ldexp(p->aabb_hi[k], e);
        p->sphere_centre[k] = ldexp(p->sphere_centre[k], e);
    }
    p->sphere_radius = ldexp(p->sphere_radius, e);
    p->max_abs = ldexp(p->max_abs, e);
    p->extent = ldexp(p->extent, e);
    p->radius = ldexp(p->radius, e);
}

hd_polytope *hdi_poly_clone_scaled(const hd_polytope *src, int exponent)
{
    int loop_total = src->face_offset[src->face_count];
    int cells = 6 * src->support_k * src->support_k;
    hd_polytope *p =
        hdi_poly_alloc_table(src->dim, src->vertex_count, src->edge_count, src->face_count,
                             loop_total, cells, src->support_list_count);
    if (p == NULL) {
        return NULL;
    }
    hdi_poly_copy(p, src);
    hdi_poly_unscale(p, exponent);
    return p;
}
