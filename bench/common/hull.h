/* Convex hulls for the peers that want faces (FCL's Convex) and for the common vertex list every
 * method receives: Qhull (libqhull_r), independent of hedra's own hull code. */
#ifndef HD_BENCH_HULL_H
#define HD_BENCH_HULL_H

typedef struct hd_bench_hull {
    int n;       /* hull vertices, in input order */
    double *xyz;
    int ntris;   /* outward (counter-clockwise seen from outside) triangles, indices into xyz */
    int *tris;
} hd_bench_hull;

/* Builds the hull of n points (3D, full-dimensional). Returns 0, or -1 on failure (message on
 * stderr). Free with hd_bench_hull_free. */
int hd_bench_hull_build(const double *xyz, int n, hd_bench_hull *out);
void hd_bench_hull_free(hd_bench_hull *hull);

#endif
