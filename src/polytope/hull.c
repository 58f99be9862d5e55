/* The 3-D convex hull of a point set by Qhull's reentrant library (libqhull_r), returned as face
 * loops over the input indices.
 *
 * Qhull runs with its default merging for 3-D hulls ('C-0': facets that are coplanar or
 * non-convex within roundoff are merged while the hull is built), so its output facets are
 * convex polygons whose vertices are input points, unchanged. 'Qs' searches all points for the
 * initial simplex (robust for slivers), 'Pp' silences precision warnings. Qhull reports through a
 * FILE*: it gets an in-memory stream, so the library never prints. Its errors arrive by longjmp to
 * qh->errexit; every Qhull call made here after qh_new_qhull is wrapped the same way, since
 * Qhull otherwise calls exit() for an error raised outside such a region. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libqhull_r/qhull_ra.h>

#include "core/math.h"
#include "polytope/build.h"

/* Qhull's messages go here and are dropped; a full buffer only truncates them. */
#define HD_QHULL_MESSAGE_BYTES 4096

/* Newell's area vector of a loop: sum of (p_i - c) x (p_{i+1} - c); c only improves accuracy. */
static void loop_area_vector(const double *xyz, const int *loop, int n, double out[3])
{
    double c[3] = {0, 0, 0};
    for (int i = 0; i < n; ++i) {
        hdi_v3_add(c, c, xyz + 3 * loop[i]);
    }
    hdi_v3_scale(c, c, 1.0 / n);
    hdi_v3_set(out, 0, 0, 0);
    for (int i = 0; i < n; ++i) {
        double a[3], b[3], x[3];
        hdi_v3_sub(a, xyz + 3 * loop[i], c);
        hdi_v3_sub(b, xyz + 3 * loop[(i + 1) % n], c);
        hdi_v3_cross(x, a, b);
        hdi_v3_add(out, out, x);
    }
}

/* One facet's vertex loop in Qhull's ridge order, turned counter-clockwise around the facet's
 * outward normal. Returns the loop length or -1 for a vertex that is not an input point. */
static int qhull_facet_loop(qhT *qh, facetT *facet, const double *xyz, int count, int *loop)
{
    setT *ordered = qh_facet3vertex(qh, facet);
    vertexT *vertex, **vertexp;
    int n = 0, bad = 0;
    FOREACHvertex_(ordered)
    {
        int id = qh_pointid(qh, vertex->point);
        if (id < 0 || id >= count) {
            bad = 1;
        }
        loop[n++] = id;
    }
    qh_settempfree(qh, &ordered);
    if (bad || n < 3) {
        return -1;
    }
    double area[3];
    loop_area_vector(xyz, loop, n, area);
    if (hdi_v3_dot(area, facet->normal) < 0.0) {
        for (int i = 0, j = n - 1; i < j; ++i, --j) {
            int t = loop[i];
            loop[i] = loop[j];
            loop[j] = t;
        }
    }
    return n;
}

static hd_status qhull_extract(qhT *qh, const double *xyz, int count, hdi_loops *faces)
{
    facetT *facet;
    int nf = 0, total = 0;
    FORALLfacets
    {
        ++nf;
        total += qh_setsize(qh, facet->vertices);
    }
    hd_status st = hdi_loops_alloc(faces, nf, total);
    if (st != HD_OK) {
        return st;
    }
    int f = 0, k = 0;
    FORALLfacets
    {
        if (k + qh_setsize(qh, facet->vertices) > total) {
            return HD_ERR_HULL;
        }
        int n = qhull_facet_loop(qh, facet, xyz, count, faces->verts + k);
        if (n < 0) {
            return HD_ERR_HULL;
        }
        k += n;
        faces->offset[++f] = k;
    }
    return HD_OK;
}

/* Runs the extraction with Qhull's error exit armed; returns Qhull's exit code (0: none). */
static int qhull_guarded_extract(qhT *qh, const double *xyz, int count, hdi_loops *faces,
                                 hd_status *st)
{
    *st = HD_ERR_HULL;
    switch (setjmp(qh->errexit)) {
        case 0:
            qh->NOerrexit = False;
            *st = qhull_extract(qh, xyz, count, faces);
            qh->NOerrexit = True;
            return 0;
        default:
            qh->NOerrexit = True;
            return qh_ERRqhull;
    }
}

static hd_status qhull_status(int exitcode, int *flat)
{
    switch (exitcode) {
        case 0:
            return HD_OK;
        case qh_ERRsingular:
            *flat = 1;
            return HD_OK;
        case qh_ERRmem:
            return HD_ERR_NO_MEMORY;
        default:
            return HD_ERR_HULL;
    }
}

hd_status hdi_hull_qhull(const double *xyz, int count, hdi_loops *faces, int *flat)
{
    static const char options[] = "qhull Qs Pp";
    char command[sizeof options];
    char messages[HD_QHULL_MESSAGE_BYTES];
    memcpy(command, options, sizeof options);
    memset(faces, 0, sizeof *faces);
    *flat = 0;

    coordT *points = malloc((size_t)count * 3 * sizeof(coordT));
    qhT *qh = malloc(sizeof(qhT));
    FILE *sink = fmemopen(messages, sizeof messages, "w");
    hd_status st = HD_ERR_NO_MEMORY;
    if (points != NULL && qh != NULL && sink != NULL) {
        memcpy(points, xyz, (size_t)count * 3 * sizeof(double));
        qh_zero(qh, sink);
        int exitcode = qh_new_qhull(qh, 3, count, points, False, command, NULL, sink);
        st = qhull_status(exitcode, flat);
        if (exitcode == 0) {
            exitcode = qhull_guarded_extract(qh, xyz, count, faces, &st);
            if (exitcode != 0) {
                st = HD_ERR_HULL;
            }
        }
        int curlong, totlong;
        qh_freeqhull(qh, !qh_ALL);
        qh_memfreeshort(qh, &curlong, &totlong);
    }
    if (st != HD_OK || *flat) {
        hdi_loops_free(faces);
    }
    if (sink != NULL) {
        fclose(sink);
    }
    free(qh);
    free(points);
    return st;
}
