/* The timing loop of an experiment, under one of two protocols:
 *   - shuffled (the default): every (configuration, gap, orientation, method) query is run R
 *     times; each repetition is one pass over all queries in a freshly shuffled order, so that no
 *     query is repeated back to back and most queries start with cold caches;
 *   - back to back (ex->block > 0 and one repetition, the protocol of CD-Dual section 5: "run on each pair of
 *     polyhedra for 300 times without using frame coherence and the average CPU time is
 *     recorded"): one pass over the queries in a shuffled order, each query run block times in a
 *     row and timed as a whole; the sample is the mean of the block, so after its first call a
 *     query meets the caches and branch history it left itself.
 * Timing uses CLOCK_MONOTONIC; the median cost of an empty timed region is subtracted. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pairs/bench.h"

typedef struct hd_bench_item {
    int cell;
    int k;
} hd_bench_item;

hd_bench_cell *hd_bench_cell_at(hd_bench_experiment *ex, int config, int li, int method)
{
    return &ex->cells[(config * ex->l_count + li) * ex->method_count + method];
}

static int hd_bench_cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

double hd_bench_quantile(float *values, int count, double q)
{
    if (count <= 0) {
        return NAN;
    }
    qsort(values, (size_t)count, sizeof *values, hd_bench_cmp_float);
    double pos = q * (count - 1);
    int i = (int)floor(pos);
    double f = pos - i;
    return i + 1 < count ? values[i] * (1.0 - f) + values[i + 1] * f : values[i];
}

static int hd_bench_alloc_cells(hd_bench_experiment *ex)
{
    int count = ex->config_count * ex->l_count * ex->method_count;
    ex->cells = calloc((size_t)count, sizeof *ex->cells);
    size_t refs = (size_t)ex->config_count * (size_t)ex->l_count * (size_t)ex->orientations;
    ex->reference = malloc(sizeof(double) * refs);
    if (ex->cells == NULL || ex->reference == NULL) {
        return -1;
    }
    for (size_t i = 0; i < refs; ++i) {
        ex->reference[i] = NAN;
    }
    for (int c = 0; c < ex->config_count; ++c) {
        for (int li = 0; li < ex->l_count; ++li) {
            for (int m = 0; m < ex->method_count; ++m) {
                hd_bench_cell *cell = hd_bench_cell_at(ex, c, li, m);
                cell->config = c;
                cell->li = li;
                cell->method = ex->method[m];
                cell->capacity = ex->orientations * ex->repetitions;
                cell->capacity = cell->capacity < HD_BENCH_KEEP ? cell->capacity : HD_BENCH_KEEP;
                cell->time_ns = malloc(sizeof(float) * (size_t)cell->capacity);
                cell->iterations = malloc(sizeof(int) * (size_t)ex->orientations);
                cell->support_calls = malloc(sizeof(int) * (size_t)ex->orientations);
                if (!cell->time_ns || !cell->iterations || !cell->support_calls) {
                    return -1;
                }
            }
        }
    }
    return 0;
}

/* Checks every placement by brute force (placement.h) and computes the reference distances the
 * distance methods are compared with. Fills *excluded (config, li, k) with 1 where a check failed. */
static int hd_bench_verify(hd_bench_experiment *ex, unsigned char *excluded, int want_reference)
{
    int bad = 0;
    for (int c = 0; c < ex->config_count; ++c) {
        hd_bench_config *cfg = ex->configs[c];
        double *posed = malloc(sizeof(double) * 3 * (size_t)cfg->hull[1].n);
        if (posed == NULL) {
            return -1;
        }
        double tol = 1e-9 * cfg->scale;
        for (int li = 0; li < ex->l_count; ++li) {
            for (int k = 0; k < ex->orientations; ++k) {
                size_t idx = ((size_t)c * (size_t)ex->l_count + (size_t)li) * (size_t)ex->orientations + (size_t)k;
                int ok = 0;
                hd_bench_posed_b(cfg, k, ex->l[li], posed);
                hd_pl_check(&cfg->ray[k], ex->l[li], cfg->hull[0].xyz, cfg->hull[0].n, posed,
                            cfg->hull[1].n, tol, &ok);
                excluded[idx] = (unsigned char)!ok;
                bad += !ok;
                if (ok && want_reference && ex->l[li] > 0.0) {
                    ex->reference[idx] = hd_bench_reference_distance(
                        cfg->hull[0].xyz, cfg->hull[0].n, posed, cfg->hull[1].n, tol);
                }
            }
        }
        free(posed);
    }
    return bad;
}

static void hd_bench_progress(const hd_bench_ctx *ctx, const hd_bench_experiment *ex, long done,
                              long total, uint64_t start, int final)
{
    if (ctx->quiet) {
        return;
    }
    double secs = (double)(hd_bench_now_ns() - start) * 1e-9;
    double eta = done > 0 ? secs * (double)(total - done) / (double)done : 0.0;
    fprintf(stderr, "\r  %-10s %5.1f%%  %ld/%ld queries  %6.1f s  (eta %5.0f s)%s", ex->name,
            100.0 * (double)done / (double)(total > 0 ? total : 1), done, total, secs, eta,
            final ? "\n" : "");
    fflush(stderr);
}

/* Records one answer in its cell. */
static void hd_bench_record(hd_bench_ctx *ctx, hd_bench_experiment *ex, hd_bench_cell *cell,
                            int k, int rep, int status, const hd_bench_answer *ans, double ns)
{
    const hd_bench_method *m = &ctx->methods[cell->method];
    if (status != HD_BENCH_OK) {
        cell->failed += rep == 0;
        return;
    }
    float t = (float)(ns > 0.0 ? ns : 0.0);
    cell->sum_ns += t;
    if (cell->samples < cell->capacity) {
        cell->time_ns[cell->samples++] = t;
    } else {
        /* reservoir sampling (Vitter's algorithm R): keep each of the seen + 1 with equal odds */
        uint64_t j = hd_wl_rng_next(&ctx->reservoir) % (uint64_t)(cell->seen + 1);
        if (j < (uint64_t)cell->capacity) {
            cell->time_ns[j] = t;
        }
    }
    cell->seen++;
    if (rep != 0) {
        return;
    }
    double l = ex->l[cell->li];
    cell->iterations[cell->instances] = ans->iterations;
    cell->support_calls[cell->instances] = ans->support_calls;
    cell->instances++;
    cell->wrong += hd_bench_is_wrong(m, l, ans->verdict);
    for (int p = 0; p < 3; ++p) {
        cell->visits_sum[p] += ans->visits[p];
    }
    cell->visits_count++;
    size_t idx = ((size_t)cell->config * (size_t)ex->l_count + (size_t)cell->li) *
                     (size_t)ex->orientations + (size_t)k;
    if (m->kind == HD_BENCH_DISTANCE && l > 0.0 && !isnan(ex->reference[idx])) {
        double err = fabs(ans->distance - ex->reference[idx]);
        cell->dist_err_max = fmax(cell->dist_err_max, err);
        cell->dist_err_sum += err;
        cell->dist_err_count++;
    }
}

static hd_bench_item *hd_bench_items(hd_bench_experiment *ex, const unsigned char *excluded,
                                     long *count)
{
    long n = 0;
    long cap = (long)ex->config_count * ex->l_count * ex->orientations * ex->method_count;
    hd_bench_item *items = malloc(sizeof *items * (size_t)(cap > 0 ? cap : 1));
    if (items == NULL) {
        return NULL;
    }
    for (int c = 0; c < ex->config_count; ++c) {
        for (int li = 0; li < ex->l_count; ++li) {
            for (int k = 0; k < ex->orientations; ++k) {
                size_t idx = ((size_t)c * (size_t)ex->l_count + (size_t)li) * (size_t)ex->orientations + (size_t)k;
                for (int m = 0; m < ex->method_count; ++m) {
                    if (excluded[idx]) {
                        hd_bench_cell_at(ex, c, li, m)->excluded++;
                        continue;
                    }
                    items[n].cell = (int)(hd_bench_cell_at(ex, c, li, m) - ex->cells);
                    items[n].k = k;
                    n++;
                }
            }
        }
    }
    *count = n;
    return items;
}

static void hd_bench_shuffle(hd_bench_item *items, long n, hd_wl_rng *rng)
{
    for (long i = n - 1; i > 0; --i) {
        long j = (long)(hd_wl_rng_next(rng) % (uint64_t)(i + 1));
        hd_bench_item t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* Times one query: calls back-to-back runs of it in one timed region, recorded as their mean.
 * Returns 0 when the method turned out to be unavailable (nothing recorded). */
static int hd_bench_time_item(hd_bench_ctx *ctx, hd_bench_experiment *ex,
                              const hd_bench_item *item, int rep, int calls, uint64_t *t_end)
{
    static const hd_bench_pose identity = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
    hd_bench_cell *cell = &ex->cells[item->cell];
    int mi = cell->method;
    const hd_bench_config *cfg = ex->configs[cell->config];
    const hd_bench_method *m = &ctx->methods[mi];
    hd_bench_pose pose;
    hd_bench_answer ans;
    memset(&ans, 0, sizeof ans);
    hd_bench_pose_at(cfg, item->k, ex->l[cell->li], &pose);
    int st = HD_BENCH_OK;
    uint64_t t0 = hd_bench_now_ns();
    for (int c = 0; c < calls; ++c) {
        st = m->query(cfg->handle[0][mi], &identity, cfg->handle[1][mi], &pose, &ans);
    }
    uint64_t t1 = hd_bench_now_ns();
    *t_end = t1;
    /* Unsupported before any answer: the method cannot run in this build; afterwards it is a
     * failure of that query. */
    if (st == HD_BENCH_UNSUPPORTED && ctx->answered[mi] == 0) {
        ctx->unavailable[mi] = 1;
        fprintf(stderr, "%s  %s: unavailable (HD_ERR_UNSUPPORTED); skipped\n",
                ctx->quiet ? "" : "\n", m->name);
        return 0;
    }
    ctx->answered[mi] += st == HD_BENCH_OK;
    double ns = ((double)(t1 - t0) - ctx->overhead_ns) / calls;
    hd_bench_record(ctx, ex, cell, item->k, rep, st, &ans, ns);
    return 1;
}

/* One pass: every item once, in the current order, each run calls times back to back. */
static void hd_bench_pass(hd_bench_ctx *ctx, hd_bench_experiment *ex, hd_bench_item *items,
                          long n, int rep, int calls, long *done, long *total, uint64_t start)
{
    uint64_t last = hd_bench_now_ns();
    for (long i = 0; i < n; ++i) {
        uint64_t t1 = last;
        if (ctx->unavailable[ex->cells[items[i].cell].method] ||
            !hd_bench_time_item(ctx, ex, &items[i], rep, calls, &t1)) {
            --*total;
            continue;
        }
        ++*done;
        if (t1 - last > 250000000u) {
            hd_bench_progress(ctx, ex, *done, *total, start, 0);
            last = t1;
        }
    }
}

int hd_bench_run(hd_bench_ctx *ctx, hd_bench_experiment *ex)
{
    if (hd_bench_alloc_cells(ex) != 0) {
        return -1;
    }
    size_t nidx = (size_t)ex->config_count * (size_t)ex->l_count * (size_t)ex->orientations;
    unsigned char *excluded = calloc(nidx, 1);
    if (excluded == NULL) {
        return -1;
    }
    int want_reference = 0;
    for (int m = 0; m < ex->method_count; ++m) {
        want_reference |= ctx->methods[ex->method[m]].kind == HD_BENCH_DISTANCE;
    }
    int bad = hd_bench_verify(ex, excluded, want_reference);
    if (bad != 0) {
        fprintf(stderr, "  %s: %d placements failed their check and are excluded\n", ex->name, bad);
    }
    long n = 0;
    hd_bench_item *items = hd_bench_items(ex, excluded, &n);
    free(excluded);
    if (items == NULL) {
        return -1;
    }
    hd_wl_rng rng;
    hd_wl_rng_init(&rng, hd_wl_seed(ctx->seed, 7, (uint64_t)ex->l_count, (uint64_t)n));
    int calls = ex->block > 0 ? ex->block : 1;
    long total = n * ex->repetitions, done = 0;
    uint64_t start = hd_bench_now_ns();
    for (int rep = 0; rep < ex->repetitions; ++rep) {
        hd_bench_shuffle(items, n, &rng);
        hd_bench_pass(ctx, ex, items, n, rep, calls, &done, &total, start);
    }
    ex->seconds = (double)(hd_bench_now_ns() - start) * 1e-9;
    hd_bench_progress(ctx, ex, done, total, start, 1);
    free(items);
    return bad > 0 ? 1 : 0;
}

void hd_bench_experiment_free(hd_bench_experiment *ex)
{
    if (ex->cells != NULL) {
        int count = ex->config_count * ex->l_count * ex->method_count;
        for (int i = 0; i < count; ++i) {
            free(ex->cells[i].time_ns);
            free(ex->cells[i].iterations);
            free(ex->cells[i].support_calls);
        }
    }
    free(ex->cells);
    free(ex->reference);
    ex->cells = NULL;
    ex->reference = NULL;
}
