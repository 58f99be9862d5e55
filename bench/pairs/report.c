/* CSV output of an experiment: comment lines with the run's provenance (compiler, flags, CPU,
 * commit, seed, sizes), then one row per (configuration, gap, method) cell. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pairs/bench.h"

#ifndef HD_BENCH_COMPILER
#define HD_BENCH_COMPILER "unknown"
#endif
#ifndef HD_BENCH_FLAGS
#define HD_BENCH_FLAGS "unknown"
#endif

static void hd_bench_cpu_model(char *buf, size_t size)
{
    snprintf(buf, size, "unknown");
    FILE *fp = fopen("/proc/cpuinfo", "r");
    if (fp == NULL) {
        return;
    }
    char line[512];
    while (fgets(line, sizeof line, fp) != NULL) {
        if (strncmp(line, "model name", 10) == 0) {
            char *p = strchr(line, ':');
            if (p != NULL) {
                p += 2;
                p[strcspn(p, "\n")] = '\0';
                snprintf(buf, size, "%s", p);
            }
            break;
        }
    }
    fclose(fp);
}

void hd_bench_csv_header(const hd_bench_ctx *ctx, FILE *fp, const hd_bench_experiment *ex)
{
    char cpu[256], date[64];
    hd_bench_cpu_model(cpu, sizeof cpu);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(fp, "# hedra benchmark, experiment %s: %s\n", ex->name, ex->title);
    fprintf(fp, "# date: %s\n# commit: %s\n", date, ctx->commit ? ctx->commit : "unknown");
    fprintf(fp, "# compiler: %s\n# flags: %s\n", HD_BENCH_COMPILER, HD_BENCH_FLAGS);
    double load[3] = {-1, -1, -1};
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf != NULL) {
        if (fscanf(lf, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) {
            load[0] = load[1] = load[2] = -1;
        }
        fclose(lf);
    }
    fprintf(fp, "# cpu: %s (%ld online); load average at the end: %.2f %.2f %.2f\n", cpu,
            sysconf(_SC_NPROCESSORS_ONLN), load[0], load[1], load[2]);
    fprintf(fp, "# seed: %llu; orientations: %d; repetitions: %d; timer overhead subtracted: %.1f ns\n",
            (unsigned long long)ctx->seed, ex->orientations, ex->repetitions, ctx->overhead_ns);
    if (ex->block > 0) {
        fprintf(fp, "# protocol: back to back (CD-Dual section 5): each query run %d times in a "
                    "row, one sample = the block's mean\n", ex->block);
    } else {
        fprintf(fp, "# protocol: shuffled: every repetition a pass over all queries in a fresh "
                    "random order, one sample per call\n");
    }
    fprintf(fp, "# %s\n# methods:", ctx->peer_notes);
    for (int m = 0; m < ex->method_count; ++m) {
        const hd_bench_method *meth = &ctx->methods[ex->method[m]];
        fprintf(fp, " %s=%s%s", meth->name, meth->library,
                ctx->unavailable[ex->method[m]] ? " (unavailable)" : "");
    }
    fprintf(fp, "\n# times in nanoseconds per query; wrong = answers contradicting the placement "
                "(of 'instances'); failed = queries that returned an error\n");
}

static void hd_bench_csv_columns(FILE *fp)
{
    fprintf(fp, "experiment,method,shape,n,hull_n,l,instances,samples,median_ns,p90_ns,mean_ns,"
                "wrong,failed,excluded,iter_median,support_median,visits_fv,visits_vf,visits_ee,"
                "dist_err_max,dist_err_mean,available\n");
}

static double hd_bench_int_median(const int *v, int n)
{
    if (n <= 0) {
        return NAN;
    }
    float *tmp = malloc(sizeof(float) * (size_t)n);
    if (tmp == NULL) {
        return NAN;
    }
    for (int i = 0; i < n; ++i) {
        tmp[i] = (float)v[i];
    }
    double q = hd_bench_quantile(tmp, n, 0.5);
    free(tmp);
    return q;
}

static void hd_bench_csv_row(const hd_bench_ctx *ctx, FILE *fp, hd_bench_experiment *ex,
                             hd_bench_cell *cell)
{
    const hd_bench_config *cfg = ex->configs[cell->config];
    const hd_bench_method *m = &ctx->methods[cell->method];
    double mean = cell->seen > 0 ? cell->sum_ns / (double)cell->seen : NAN;
    double p90 = hd_bench_quantile(cell->time_ns, cell->samples, 0.9);
    double med = hd_bench_quantile(cell->time_ns, cell->samples, 0.5);
    double vc = cell->visits_count > 0 ? cell->visits_count : NAN;
    fprintf(fp, "%s,%s,%g:%g:%g,%d,%d,%g,%d,%d,%.1f,%.1f,%.1f,%d,%d,%d,%g,%g,%.2f,%.2f,%.2f,",
            ex->name, m->name, cfg->shape.a, cfg->shape.b, cfg->shape.c, cfg->n, cfg->hull[0].n,
            ex->l[cell->li], cell->instances, (int)cell->seen, med, p90, mean, cell->wrong,
            cell->failed, cell->excluded, hd_bench_int_median(cell->iterations, cell->instances),
            hd_bench_int_median(cell->support_calls, cell->instances), cell->visits_sum[0] / vc,
            cell->visits_sum[1] / vc, cell->visits_sum[2] / vc);
    if (cell->dist_err_count > 0) {
        fprintf(fp, "%.3g,%.3g,", cell->dist_err_max, cell->dist_err_sum / cell->dist_err_count);
    } else {
        fprintf(fp, ",,");
    }
    fprintf(fp, "%d\n", !ctx->unavailable[cell->method] && cell->samples > 0);
}

void hd_bench_write_csv(const hd_bench_ctx *ctx, hd_bench_experiment *ex)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.csv", ctx->outdir, ex->name);
    FILE *fp = fopen(path, "w");
    if (fp == NULL) {
        fprintf(stderr, "hedra_bench: cannot write %s\n", path);
        return;
    }
    hd_bench_csv_header(ctx, fp, ex);
    hd_bench_csv_columns(fp);
    int count = ex->config_count * ex->l_count * ex->method_count;
    for (int i = 0; i < count; ++i) {
        hd_bench_csv_row(ctx, fp, ex, &ex->cells[i]);
    }
    fclose(fp);
    if (!ctx->quiet) {
        fprintf(stderr, "  wrote %s\n", path);
    }
}
