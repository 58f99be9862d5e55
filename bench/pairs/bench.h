/* The benchmark driver's shared types: configurations (a pair of polytopes and its placed
 * orientations), experiments (configurations x gaps x methods) and result cells. */
#ifndef HD_BENCH_H
#define HD_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "common/hull.h"
#include "peers/peers.h"
#include "placement.h"
#include "common/workload.h"

#define HD_BENCH_MAX_METHODS 24
/* Hulls of this many vertices are boxes (bench/pairs/config.c), no ellipsoid's points. */
#define HD_BENCH_BOX_N 8
#define HD_BENCH_MAX_LS 32

/* Run-wide settings and the method table. */
typedef struct hd_bench_ctx {
    hd_bench_method methods[HD_BENCH_MAX_METHODS];
    int method_count;
    int unavailable[HD_BENCH_MAX_METHODS]; /* set when a method's first query is unsupported */
    long answered[HD_BENCH_MAX_METHODS];   /* queries a method answered, over the run */
    const char *peer_notes;
    uint64_t seed;
    int orientations;   /* K: orientations of B per configuration */
    int repetitions;    /* R: times each (orientation, gap, method) is timed, spread in the order */
    int block;          /* back-to-back experiments: calls per timed block (the paper's 300) */
    double overhead_ns; /* median cost of an empty timed region, subtracted from every sample */
    const char *outdir;
    const char *meshes; /* directory of the CGAL demo meshes (experiment "meshes"), or NULL */
    const char *commit;
    int quiet;
    hd_wl_rng reservoir; /* picks the kept samples when a cell takes more than it keeps */
} hd_bench_ctx;

/* Samples kept per cell: all of them in the default runs; a uniform random subset (reservoir
 * sampling) in --full runs, whose 150 000 samples per cell would need gigabytes. */
#ifndef HD_BENCH_KEEP
#define HD_BENCH_KEEP 8192
#endif

/* A pair of polytopes (same shape and size, independent point sets) and K placed orientations. */
typedef struct hd_bench_config {
    char label[64];
    hd_wl_shape shape;
    int n;                 /* points requested on each ellipsoid */
    hd_bench_hull hull[2]; /* A, B: hull vertices and triangles (Qhull) */
    void *handle[2][HD_BENCH_MAX_METHODS];
    int orientations;
    double (*rot)[9];   /* B's rotation per orientation */
    hd_pl_ray *ray;     /* the placement chord along u per orientation */
    double scale;       /* largest |coordinate| of the placed pair, for tolerances */
    double max_bracket; /* largest verified error bound of t_hi over the orientations */
    double min_cos;     /* smallest d.u: the most grazing placement */
} hd_bench_config;

/* One cell of an experiment: (configuration, gap, method). */
typedef struct hd_bench_cell {
    int config, li, method;
    int samples, capacity; /* samples kept in time_ns (a uniform reservoir when seen > capacity) */
    long seen;             /* samples taken */
    double sum_ns;         /* over all samples taken, for the mean */
    float *time_ns;
    int *iterations, *support_calls;
    double visits_sum[3];
    int visits_count;
    int instances;                     /* distinct (orientation) queries answered, rep 0 */
    int wrong;                         /* of those, answers that contradict the placement */
    int failed;                        /* queries that returned an error */
    int excluded;                      /* orientations skipped because the placement check failed */
    double dist_err_max, dist_err_sum; /* distance methods, l > 0: |d - reference| */
    int dist_err_count;
} hd_bench_cell;

typedef struct hd_bench_experiment {
    const char *name;
    const char *title;
    int config_count;
    hd_bench_config **configs;
    int l_count;
    double l[HD_BENCH_MAX_LS];
    int method_count;
    int method[HD_BENCH_MAX_METHODS]; /* indices into ctx->methods */
    int orientations, repetitions;
    int block;            /* 0: shuffled protocol; > 0: back to back, block calls per sample
                             (with repetitions = 1) */
    hd_bench_cell *cells; /* config_count * l_count * method_count, filled by hd_bench_run */
    double *reference;    /* per (config, li, orientation): reference distance, NaN if none */
    double seconds;
} hd_bench_experiment;

/* Monotonic clock in nanoseconds (CLOCK_MONOTONIC). */
uint64_t hd_bench_now_ns(void);

/* Builds a configuration: points, hulls, method handles, K orientations placed (LPs solved).
 * Returns NULL on failure (message on stderr). config_id makes the seed unique per shape/size. */
hd_bench_config *hd_bench_config_create(hd_bench_ctx *ctx, hd_wl_shape shape, int n,
                                        int orientations);
void hd_bench_config_destroy(hd_bench_ctx *ctx, hd_bench_config *cfg);

/* A configuration from two mesh files dir/name_a.off and dir/name_b.off: the hulls of their
 * vertices, each centred and scaled to a largest half side of 200. n is A's hull size. */
hd_bench_config *hd_bench_config_create_meshes(hd_bench_ctx *ctx, const char *dir,
                                               const char *name_a, const char *name_b,
                                               int orientations);

/* The same without placing any orientation; hd_bench_config_place then places orientation k
 * with rotation r along direction u (for prescribed motions). Returns 0 or -1. */
hd_bench_config *hd_bench_config_create_unplaced(hd_bench_ctx *ctx, hd_wl_shape shape, int n,
                                                 int orientations);
int hd_bench_config_place(hd_bench_config *cfg, int k, const double r[9], const double u[3]);

/* B's pose for orientation k at gap l, and B's posed hull vertices (out: 3 * hull[1].n). */
void hd_bench_pose_at(const hd_bench_config *cfg, int k, double l, hd_bench_pose *pose);
void hd_bench_posed_b(const hd_bench_config *cfg, int k, double l, double *out);

/* Expected verdict at gap l: 0 separated, 1 touching, 2 intersecting; and whether an answer is
 * wrong: at l = 0 only methods that report touching (hedra) are held to "touching". */
int hd_bench_expected(double l);
int hd_bench_is_wrong(const hd_bench_method *m, double l, int verdict);

/* Runs an experiment: verifies every placement, computes distance references for distance
 * methods, times every (config, l, orientation, method) R times in one shuffled order, or (block
 * > 0) once as the mean of block back-to-back calls (run.c). */
int hd_bench_run(hd_bench_ctx *ctx, hd_bench_experiment *ex);
void hd_bench_experiment_free(hd_bench_experiment *ex);
hd_bench_cell *hd_bench_cell_at(hd_bench_experiment *ex, int config, int li, int method);

/* Sorted-sample statistics. */
double hd_bench_quantile(float *values, int count, double q); /* sorts values in place */

/* Reference distance between two vertex sets (Wolfe's nearest-point algorithm on A - B with
 * brute-force support), verified by a separating plane: returns the distance, or NaN when the
 * verified bracket is wider than tol. */
double hd_bench_reference_distance(const double *a, int na, const double *b, int nb, double tol);

/* CSV output (report.c): the provenance comment lines, and a whole experiment. */
void hd_bench_csv_header(const hd_bench_ctx *ctx, FILE *fp, const hd_bench_experiment *ex);
void hd_bench_write_csv(const hd_bench_ctx *ctx, hd_bench_experiment *ex);

#endif
