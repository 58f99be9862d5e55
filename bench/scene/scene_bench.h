/* The scene benchmark (docs/BENCHMARKS.md, "Scenes"): hedra's scene against Bullet and FCL on the
 * same generated scenes in the same run. scene_bench.c runs the frames, scene_report.c prints. */
#ifndef HD_BENCH_SCENE_BENCH_H
#define HD_BENCH_SCENE_BENCH_H

#include <stdio.h>

#include "hedra/hedra.h"
#include "peers/scene_peers.h"
#include "scene/scene_workload.h"

#define HD_SB_MAX_METHODS 8

/* One method of a run: hedra with a scene configuration, or a peer. */
typedef struct hd_sb_method {
    char name[32];
    const char *library;
    int hedra; /* 1: hd_scene with opt; 0: the peer */
    hd_scene_options opt;
    hd_sp_method peer;
    void *world;         /* the peer's world, or the hedra world */
    int threads;         /* threads that ran it */
    hd_sp_frame *frames; /* per frame (frame 0: the first detection) */
    long long *total_ns; /* per frame: moves and detection */
    int failed;
} hd_sb_method;

typedef struct hd_sb_run {
    int n;
    int frames;      /* in all, frame 0 and the warm-up included */
    int first_timed; /* frames before it (frame 0, the warm-up) are not in the medians */
    int method_count;
    hd_sb_method methods[HD_SB_MAX_METHODS];
    double contact_fraction; /* bodies in contact at frame 0 (hedra's answer) */
    int movers;
    /* time the host took from this machine's CPUs during the frames (the "steal" of
     * /proc/stat): the share over all CPUs and on the worst one; negative when unknown */
    double steal_mean;
    double steal_max;
} hd_sb_run;

/* Median of count values (sorted in place). */
double hd_sb_median(long long *values, int count);

/* The report of one run (a table row per method) and the CSV rows. */
void hd_sb_report_run(FILE *fp, const hd_sb_run *run);
void hd_sb_csv_header(FILE *fp);
void hd_sb_csv_run(FILE *fp, const hd_sb_run *run);

/* The summary over every size: ratios to Bullet and FCL, speed-up, growth with n. */
void hd_sb_report_summary(FILE *fp, hd_sb_run *runs, int count);

#endif
