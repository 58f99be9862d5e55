/* Qhull wrapper: hull vertices and outward triangles; see hull.h. */
#include "common/hull.h"

#include <libqhull_r/qhull_ra.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Orients triangle t (indices into the output vertex array) so that its normal agrees with the
 * facet's outward normal. */
static void hd_bench_orient(const double *xyz, int *t, const double normal[3])
{
    const double *p = xyz + 3 * t[0], *q = xyz + 3 * t[1], *r = xyz + 3 * t[2];
    double u[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
    double v[3] = {r[0] - p[0], r[1] - p[1], r[2] - p[2]};
    double c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    if (c[0] * normal[0] + c[1] * normal[1] + c[2] * normal[2] < 0.0) {
        int s = t[1];
        t[1] = t[2];
        t[2] = s;
    }
}

static int hd_bench_collect(qhT *qh, const double *xyz, int n, hd_bench_hull *out)
{
    int *map = malloc(sizeof(int) * (size_t)n);
    if (map == NULL) {
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        map[i] = -1;
    }
    vertexT *vertex, **vertexp;
    FORALLvertices {
        map[qh_pointid(qh, vertex->point)] = 0;
    }
    out->n = 0;
    for (int i = 0; i < n; ++i) {
        if (map[i] == 0) {
            map[i] = out->n++;
        }
    }
    out->xyz = malloc(sizeof(double) * 3 * (size_t)out->n);
    out->tris = malloc(sizeof(int) * 3 * (size_t)qh->num_facets);
    if (out->xyz == NULL || out->tris == NULL) {
        free(map);
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        if (map[i] >= 0) {
            memcpy(out->xyz + 3 * map[i], xyz + 3 * i, 3 * sizeof(double));
        }
    }
    facetT *facet;
    out->ntris = 0;
    FORALLfacets {
        int *t = out->tris + 3 * out->ntris;
        int k = 0;
        FOREACHvertex_(facet->vertices) {
            if (k < 3) {
                t[k] = map[qh_pointid(qh, vertex->point)];
            }
            ++k;
        }
        if (k == 3) {
            hd_bench_orient(out->xyz, t, facet->normal);
            ++out->ntris;
        }
    }
    free(map);
    return 0;
}

int hd_bench_hull_build(const double *xyz, int n, hd_bench_hull *out)
{
    memset(out, 0, sizeof *out);
    coordT *pts = malloc(sizeof(coordT) * 3 * (size_t)n);
    if (pts == NULL) {
        return -1;
    }
    memcpy(pts, xyz, sizeof(coordT) * 3 * (size_t)n);
    qhT qh_storage;
    qhT *qh = &qh_storage;
    qh_zero(qh, stderr);
    char options[] = "qhull Qt";
    int rc = qh_new_qhull(qh, 3, n, pts, False, options, NULL, stderr);
    if (rc == 0) {
        rc = hd_bench_collect(qh, xyz, n, out);
    }
    int curlong, totlong;
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    free(pts);
    if (rc != 0) {
        hd_bench_hull_free(out);
        fprintf(stderr, "hedra_bench: Qhull failed on %d points\n", n);
        return -1;
    }
    return 0;
}

void hd_bench_hull_free(hd_bench_hull *hull)
{
    free(hull->xyz);
    free(hull->tris);
    memset(hull, 0, sizeof *hull);
}
