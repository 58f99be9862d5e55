/* The driver's state shared by main.c, the coherence experiment, the summary tables and the
 * pair-file modes. */
#ifndef HD_BENCH_DRIVER_H
#define HD_BENCH_DRIVER_H

#include "pairs/bench.h"

#define HD_BENCH_MAX_CONFIGS 32
#define HD_BENCH_MAX_EXPERIMENTS 10

/* Results of the coherence experiment, for the summary. */
typedef struct hd_bench_coherence_row {
    char label[48]; /* "hedra_gjk cold", ... */
    double median_ns, p90_ns, iter_median;
    int frames, wrong, failed;
} hd_bench_coherence_row;

typedef struct hd_bench_driver {
    hd_bench_ctx ctx;
    hd_bench_config *configs[HD_BENCH_MAX_CONFIGS];
    int config_count;
    hd_bench_experiment experiments[HD_BENCH_MAX_EXPERIMENTS];
    int experiment_count;
    hd_bench_coherence_row coherence[16];
    int coherence_count;
    const char *only;
    const char *write_pairs, *read_pairs, *smoke;
    int pairs_n;
    int depth_n; /* --depth-n: the depth experiment's ellipsoids of this size only (0: all) */
    int list;
    double steal_mean, steal_max; /* the host's share of the CPUs during the run (host.h) */
} hd_bench_driver;

/* The gaps of Figs. 8 and 9 (main.c). */
extern const double hd_bench_gaps[];
extern const int hd_bench_gap_count;

/* coherence.c: a moving pair over 1000 frames, cold against warm-started (hd_cache). */
int hd_bench_coherence(hd_bench_driver *d);

/* depth.c: the penetration-depth experiment (depth.csv, depth.md); meshes: a directory of OFF
 * files for the real-mesh pairs, or NULL. */
int hd_bench_depth(hd_bench_driver *d, const char *meshes);

/* summary.c: tables.md (ratios against each peer, wrong answers) in the output directory. */
void hd_bench_summary(hd_bench_driver *d);

/* pairs.c: pair-file modes. hd_bench_pairs returns the number of wrong hedra answers (or -1);
 * *peer_wrong (may be NULL) receives the peers' wrong answers. */
int hd_bench_write_pairs(hd_bench_driver *d, const char *path, int n);
int hd_bench_pairs(hd_bench_driver *d, const char *path, int *peer_wrong);
int hd_bench_smoke(hd_bench_driver *d, const char *dir);

#endif
