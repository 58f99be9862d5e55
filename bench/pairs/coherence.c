/* Frame coherence (CD-Dual section 4.3): a pair moving smoothly over F frames, queried cold
 * (no cache) and warm-started (one hd_cache carried from frame to frame), for hedra's GJK and
 * CD-Dual, with cold peers for reference. B turns by 0.01 rad per frame about a fixed axis while its
 * gap along a fixed direction follows l(f) = 20 cos(2 pi f / 250), so it passes through contact
 * eight times; every frame is placed exactly (placement.h). Each repetition replays the whole
 * sequence (caches reset at its start); within a frame the variants run in a shuffled order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pairs/driver.h"

#define HD_COH_FRAMES 1000
#define HD_COH_MAX_ROWS 8

typedef struct hd_coh_row {
    int method;  /* index into ctx->methods */
    int warm;
    void *cache;
    char label[48];
    float *time_ns; /* frames * repetitions */
    int *iterations;
    int wrong, failed, samples;
} hd_coh_row;

static double hd_coh_gap(int f)
{
    return 20.0 * cos(6.283185307179586 * f / 250.0);
}

static int hd_coh_place(hd_bench_driver *d, hd_bench_config *cfg)
{
    hd_wl_rng rng;
    hd_wl_rng_init(&rng, hd_wl_seed(d->ctx.seed, 99, (uint64_t)cfg->n, 0));
    double r0[9], axis[3], u[3];
    hd_wl_random_rotation(&rng, r0);
    hd_wl_rng_unit(&rng, axis);
    hd_wl_rng_unit(&rng, u);
    for (int f = 0; f < cfg->orientations; ++f) {
        double turn[9], r[9];
        hd_wl_axis_rotation(axis, 0.01 * f, turn);
        hd_wl_mat_mul(turn, r0, r);
        if (hd_bench_config_place(cfg, f, r, u) != 0) {
            return -1;
        }
    }
    return 0;
}

static int hd_coh_rows(hd_bench_driver *d, hd_coh_row *rows, int reps)
{
    static const char *const names[] = {"hedra_gjk", "hedra_cddual", "ccd_gjk", "bullet", "fcl"};
    int count = 0;
    for (int i = 0; i < 5; ++i) {
        for (int warm = 0; warm < 2; ++warm) {
            int m = -1;
            for (int j = 0; j < d->ctx.method_count; ++j) {
                m = strcmp(d->ctx.methods[j].name, names[i]) == 0 ? j : m;
            }
            if (m < 0 || (warm && d->ctx.methods[m].query_warm == NULL)) {
                continue;
            }
            hd_coh_row *row = &rows[count++];
            memset(row, 0, sizeof *row);
            row->method = m;
            row->warm = warm;
            snprintf(row->label, sizeof row->label, "%s %s", names[i], warm ? "warm" : "cold");
            row->time_ns = malloc(sizeof(float) * HD_COH_FRAMES * (size_t)reps);
            row->iterations = malloc(sizeof(int) * HD_COH_FRAMES);
            row->cache = warm ? d->ctx.methods[m].cache_create() : NULL;
            if (!row->time_ns || !row->iterations || (warm && !row->cache)) {
                return -1;
            }
        }
    }
    return count;
}

static void hd_coh_query(hd_bench_driver *d, hd_bench_config *cfg, hd_coh_row *row, int f,
                         int rep)
{
    static const hd_bench_pose identity = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
    const hd_bench_method *m = &d->ctx.methods[row->method];
    if (d->ctx.unavailable[row->method]) {
        return;
    }
    hd_bench_pose pose;
    hd_bench_answer ans;
    memset(&ans, 0, sizeof ans);
    hd_bench_pose_at(cfg, f, hd_coh_gap(f), &pose);
    void *a = cfg->handle[0][row->method], *b = cfg->handle[1][row->method];
    uint64_t t0 = hd_bench_now_ns();
    int st = row->warm ? m->query_warm(a, &identity, b, &pose, row->cache, &ans)
                       : m->query(a, &identity, b, &pose, &ans);
    uint64_t t1 = hd_bench_now_ns();
    if (st == HD_BENCH_UNSUPPORTED && d->ctx.answered[row->method] == 0) {
        d->ctx.unavailable[row->method] = 1;
        return;
    }
    d->ctx.answered[row->method] += st == HD_BENCH_OK;
    if (st != HD_BENCH_OK) {
        row->failed += rep == 0;
        return;
    }
    double ns = (double)(t1 - t0) - d->ctx.overhead_ns;
    row->time_ns[row->samples++] = (float)(ns > 0.0 ? ns : 0.0);
    if (rep == 0) {
        row->iterations[f] = ans.iterations;
        row->wrong += hd_bench_is_wrong(m, hd_coh_gap(f), ans.verdict);
    }
}

static void hd_coh_write(hd_bench_driver *d, hd_coh_row *rows, int nrows, int reps)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/coherence.csv", d->ctx.outdir);
    FILE *fp = fopen(path, "w");
    if (fp == NULL) {
        return;
    }
    hd_bench_experiment info;
    memset(&info, 0, sizeof info);
    info.name = "coherence";
    info.title = "a moving pair over 1000 frames, 200:100:100 n = 1000, cold vs warm-started";
    info.orientations = HD_COH_FRAMES;
    info.repetitions = reps;
    hd_bench_csv_header(&d->ctx, fp, &info);
    fprintf(fp, "variant,frame,l,median_ns,iterations\n");
    for (int r = 0; r < nrows; ++r) {
        hd_coh_row *row = &rows[r];
        if (row->samples != HD_COH_FRAMES * reps) {
            continue; /* unavailable or failing: no per-frame series */
        }
        for (int f = 0; f < HD_COH_FRAMES; ++f) {
            float v[512];
            int n = reps < 512 ? reps : 512;
            for (int i = 0; i < n; ++i) {
                v[i] = row->time_ns[i * HD_COH_FRAMES + f];
            }
            fprintf(fp, "%s,%d,%g,%.1f,%d\n", row->label, f, hd_coh_gap(f),
                    hd_bench_quantile(v, n, 0.5), row->iterations[f]);
        }
    }
    fclose(fp);
    if (!d->ctx.quiet) {
        fprintf(stderr, "  wrote %s\n", path);
    }
}

static void hd_coh_summarise(hd_bench_driver *d, hd_coh_row *rows, int nrows)
{
    for (int r = 0; r < nrows && d->coherence_count < 16; ++r) {
        hd_coh_row *row = &rows[r];
        hd_bench_coherence_row *out = &d->coherence[d->coherence_count++];
        snprintf(out->label, sizeof out->label, "%s", row->label);
        out->frames = row->samples;
        out->wrong = row->wrong;
        out->failed = row->failed;
        out->median_ns = hd_bench_quantile(row->time_ns, row->samples, 0.5);
        out->p90_ns = hd_bench_quantile(row->time_ns, row->samples, 0.9);
        float *it = malloc(sizeof(float) * HD_COH_FRAMES);
        if (it != NULL) {
            for (int f = 0; f < HD_COH_FRAMES; ++f) {
                it[f] = (float)row->iterations[f];
            }
            out->iter_median = row->samples > 0 ? hd_bench_quantile(it, HD_COH_FRAMES, 0.5) : NAN;
            free(it);
        }
    }
}

int hd_bench_coherence(hd_bench_driver *d)
{
    int reps = d->ctx.repetitions;
    hd_wl_shape shape = {200, 100, 100};
    if (!d->ctx.quiet) {
        fprintf(stderr, "coherence: placing %d frames\n", HD_COH_FRAMES);
    }
    hd_bench_config *cfg = hd_bench_config_create_unplaced(&d->ctx, shape, 1000, HD_COH_FRAMES);
    hd_coh_row rows[HD_COH_MAX_ROWS * 2];
    int nrows = cfg != NULL && hd_coh_place(d, cfg) == 0 ? hd_coh_rows(d, rows, reps) : -1;
    if (nrows < 0) {
        hd_bench_config_destroy(&d->ctx, cfg);
        return -1;
    }
    hd_wl_rng rng;
    hd_wl_rng_init(&rng, hd_wl_seed(d->ctx.seed, 98, 0, 0));
    uint64_t start = hd_bench_now_ns();
    for (int rep = 0; rep < reps; ++rep) {
        for (int r = 0; r < nrows; ++r) {
            if (rows[r].warm) {
                d->ctx.methods[rows[r].method].cache_reset(rows[r].cache);
            }
        }
        for (int f = 0; f < HD_COH_FRAMES; ++f) {
            int order[HD_COH_MAX_ROWS * 2];
            for (int r = 0; r < nrows; ++r) {
                int j = hd_wl_rng_int(&rng, r + 1);
                order[r] = order[j];
                order[j] = r;
            }
            for (int r = 0; r < nrows; ++r) {
                hd_coh_query(d, cfg, &rows[order[r]], f, rep);
            }
        }
        if (!d->ctx.quiet) {
            fprintf(stderr, "\r  coherence  %d/%d sequences  %.1f s", rep + 1, reps,
                    (double)(hd_bench_now_ns() - start) * 1e-9);
        }
    }
    if (!d->ctx.quiet) {
        fprintf(stderr, "\n");
    }
    hd_coh_write(d, rows, nrows, reps);
    hd_coh_summarise(d, rows, nrows);
    for (int r = 0; r < nrows; ++r) {
        if (rows[r].cache != NULL) {
            d->ctx.methods[rows[r].method].cache_destroy(rows[r].cache);
        }
        free(rows[r].time_ns);
        free(rows[r].iterations);
    }
    hd_bench_config_destroy(&d->ctx, cfg);
    return 0;
}
