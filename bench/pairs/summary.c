/* tables.md: the run's medians pooled over gaps, the ratios of every peer to hedra, and every
 * method's wrong answers, in markdown for docs/BENCHMARKS.md. Ratios are peer time / hedra time
 * (above 1: hedra is faster; below 1: hedra is slower). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pairs/driver.h"

static hd_bench_experiment *hd_sum_find(hd_bench_driver *d, const char *name)
{
    for (int i = 0; i < d->experiment_count; ++i) {
        if (strcmp(d->experiments[i].name, name) == 0) {
            return &d->experiments[i];
        }
    }
    return NULL;
}

static int hd_sum_method(hd_bench_driver *d, const hd_bench_experiment *ex, const char *name)
{
    for (int m = 0; m < ex->method_count; ++m) {
        if (strcmp(d->ctx.methods[ex->method[m]].name, name) == 0) {
            return m;
        }
    }
    return -1;
}

/* Median of the samples of method (experiment-local index) over configuration c and the gaps in
 * [lo, hi]; NaN when there are none. */
static double hd_sum_median(hd_bench_experiment *ex, int m, int c, double lo, double hi)
{
    if (m < 0) {
        return NAN;
    }
    int total = 0;
    for (int li = 0; li < ex->l_count; ++li) {
        if (ex->l[li] >= lo && ex->l[li] <= hi) {
            total += hd_bench_cell_at(ex, c, li, m)->samples;
        }
    }
    if (total == 0) {
        return NAN;
    }
    float *v = malloc(sizeof(float) * (size_t)total);
    if (v == NULL) {
        return NAN;
    }
    int n = 0;
    for (int li = 0; li < ex->l_count; ++li) {
        hd_bench_cell *cell = hd_bench_cell_at(ex, c, li, m);
        if (ex->l[li] >= lo && ex->l[li] <= hi) {
            memcpy(v + n, cell->time_ns, sizeof(float) * (size_t)cell->samples);
            n += cell->samples;
        }
    }
    double q = hd_bench_quantile(v, n, 0.5);
    free(v);
    return q;
}

static void hd_sum_time(FILE *fp, double ns)
{
    if (isnan(ns)) {
        fprintf(fp, " n/a |");
    } else if (ns < 1e3) {
        fprintf(fp, " %.0f ns |", ns);
    } else if (ns < 1e6) {
        fprintf(fp, " %.1f us |", ns * 1e-3);
    } else {
        fprintf(fp, " %.2f ms |", ns * 1e-6);
    }
}

static void hd_sum_ratio(FILE *fp, double peer, double ref)
{
    if (isnan(peer) || isnan(ref) || ref <= 0.0) {
        fprintf(fp, " n/a |");
    } else {
        fprintf(fp, " %.2f |", peer / ref);
    }
}

/* One table: a row per configuration, the medians of the given methods over [lo, hi], then the
 * ratio of each other method to the first. */
static void hd_sum_table(hd_bench_driver *d, FILE *fp, hd_bench_experiment *ex,
                         const char *const *names, int count, double lo, double hi,
                         const char *caption)
{
    int m[HD_BENCH_MAX_METHODS];
    fprintf(fp, "\n%s\n\n| pair |", caption);
    for (int i = 0; i < count; ++i) {
        m[i] = hd_sum_method(d, ex, names[i]);
        fprintf(fp, " %s |", names[i]);
    }
    for (int i = 1; i < count; ++i) {
        fprintf(fp, " %s / %s |", names[i], names[0]);
    }
    fprintf(fp, "\n|---|");
    for (int i = 0; i < 2 * count - 1; ++i) {
        fprintf(fp, "---:|");
    }
    fprintf(fp, "\n");
    for (int c = 0; c < ex->config_count; ++c) {
        fprintf(fp, "| %s |", ex->configs[c]->label);
        double med[HD_BENCH_MAX_METHODS];
        for (int i = 0; i < count; ++i) {
            med[i] = hd_sum_median(ex, m[i], c, lo, hi);
            hd_sum_time(fp, med[i]);
        }
        for (int i = 1; i < count; ++i) {
            hd_sum_ratio(fp, med[i], med[0]);
        }
        fprintf(fp, "\n");
    }
}

/* Median of per-query work counters (iterations or support calls) pooled over the gaps in
 * [lo, hi], from the first repetition of each query. */
static double hd_sum_counter(hd_bench_experiment *ex, int m, int c, double lo, double hi,
                             int support)
{
    int total = 0;
    for (int li = 0; li < ex->l_count; ++li) {
        total += ex->l[li] >= lo && ex->l[li] <= hi ? hd_bench_cell_at(ex, c, li, m)->instances : 0;
    }
    float *v = total > 0 ? malloc(sizeof(float) * (size_t)total) : NULL;
    if (v == NULL) {
        return NAN;
    }
    int n = 0;
    for (int li = 0; li < ex->l_count; ++li) {
        hd_bench_cell *cell = hd_bench_cell_at(ex, c, li, m);
        for (int i = 0; ex->l[li] >= lo && ex->l[li] <= hi && i < cell->instances; ++i) {
            v[n++] = (float)(support ? cell->support_calls[i] : cell->iterations[i]);
        }
    }
    double q = hd_bench_quantile(v, n, 0.5);
    free(v);
    return q;
}

static void hd_sum_counters(hd_bench_driver *d, FILE *fp, hd_bench_experiment *ex)
{
    static const char *const names[] = {"hedra_gjk", "hedra_cddual"};
    fprintf(fp, "\n### hedra's work per query (%s data, medians): iterations / support calls", ex->name);
    fprintf(fp, ""
                "\n\nGJK iterations are main-loop iterations; CD-Dual's are faces of M visited."
                "\n\n| pair | GJK, all l | GJK, abs(l) <= 1 | CD-Dual, all l | CD-Dual, abs(l) <= 1 |"
                "\n|---|---:|---:|---:|---:|\n");
    for (int c = 0; c < ex->config_count; ++c) {
        fprintf(fp, "| %s |", ex->configs[c]->label);
        for (int i = 0; i < 2; ++i) {
            int m = hd_sum_method(d, ex, names[i]);
            for (int near = 0; near < 2 && m >= 0; ++near) {
                double lo = near ? -1.0 : -1e9, hi = near ? 1.0 : 1e9;
                fprintf(fp, " %g / %g |", hd_sum_counter(ex, m, c, lo, hi, 0),
                        hd_sum_counter(ex, m, c, lo, hi, 1));
            }
        }
        fprintf(fp, "\n");
    }
}

static void hd_sum_wrong(hd_bench_driver *d, FILE *fp)
{
    fprintf(fp, "\n### Wrong answers and failures\n\nCounted once per distinct query "
                "(orientation, gap), against the exact placement; at l = 0 only hedra "
                "(which has a touching answer) is held to \"touching\".\n\n"
                "| experiment | method | wrong | failed | queries | cells with wrong answers "
                "(n, l: count) |\n|---|---|---:|---:|---:|---|\n");
    for (int e = 0; e < d->experiment_count; ++e) {
        hd_bench_experiment *ex = &d->experiments[e];
        for (int m = 0; m < ex->method_count; ++m) {
            int wrong = 0, failed = 0, inst = 0;
            char where[512] = "";
            for (int c = 0; c < ex->config_count; ++c) {
                for (int li = 0; li < ex->l_count; ++li) {
                    hd_bench_cell *cell = hd_bench_cell_at(ex, c, li, m);
                    wrong += cell->wrong;
                    failed += cell->failed;
                    inst += cell->instances;
                    size_t len = strlen(where);
                    if (cell->wrong > 0 && len + 40 < sizeof where) {
                        snprintf(where + len, sizeof where - len, "%s%d:%g:%d",
                                 len ? ", " : "", ex->configs[c]->n, ex->l[li], cell->wrong);
                    }
                }
            }
            const hd_bench_method *meth = &d->ctx.methods[ex->method[m]];
            if (inst == 0 && failed == 0) {
                fprintf(fp, "| %s | %s | unavailable | | | |\n", ex->name, meth->name);
                continue;
            }
            fprintf(fp, "| %s | %s | %d | %d | %d | %s |\n", ex->name, meth->name, wrong, failed,
                    inst, where);
        }
    }
}

static void hd_sum_distance_errors(hd_bench_driver *d, FILE *fp, hd_bench_experiment *ex)
{
    fprintf(fp, "\nDistance error against the verified reference (l > 0), max over the run:\n\n"
                "| pair | method | max error | mean error | compared |\n|---|---|---:|---:|---:|\n");
    for (int c = 0; c < ex->config_count; ++c) {
        for (int m = 0; m < ex->method_count; ++m) {
            double emax = 0.0, esum = 0.0;
            int n = 0;
            for (int li = 0; li < ex->l_count; ++li) {
                hd_bench_cell *cell = hd_bench_cell_at(ex, c, li, m);
                emax = fmax(emax, cell->dist_err_max);
                esum += cell->dist_err_sum;
                n += cell->dist_err_count;
            }
            if (n > 0) {
                fprintf(fp, "| %s | %s | %.3g | %.3g | %d |\n", ex->configs[c]->label,
                        d->ctx.methods[ex->method[m]].name, emax, esum / n, n);
            }
        }
    }
}

/* hedra GJK against libccd at the sizes of the issue: boolean (experiment `boolean`: Fig. 8 data
 * or its paper-protocol twin, libccd's GJK), and distance from experiment `distance` when not
 * NULL (libccd has none; FCL's distance with its default GST_LIBCCD solver stands in). */
static void hd_sum_vs_ccd(hd_bench_driver *d, FILE *fp, const char *boolean, const char *distance,
                          const char *caption)
{
    hd_bench_experiment *f8 = hd_sum_find(d, boolean);
    hd_bench_experiment *dist = distance != NULL ? hd_sum_find(d, distance) : NULL;
    if (f8 == NULL) {
        return;
    }
    fprintf(fp, "\n### %s\n\n"
                "| n | boolean: hedra GJK | libccd GJK | ratio | abs(l) <= 1: hedra GJK | "
                "libccd GJK | ratio |%s\n|---:|---:|---:|---:|---:|---:|---:|%s\n",
            caption, dist ? " distance: hedra | FCL (libccd-based) | ratio |" : "",
            dist ? "---:|---:|---:|" : "");
    int g = hd_sum_method(d, f8, "hedra_gjk"), c = hd_sum_method(d, f8, "ccd_gjk");
    for (int i = 0; i < f8->config_count; ++i) {
        int n = f8->configs[i]->n;
        if (n != 12 && n != 100 && n != 1000 && n != 5000) {
            continue;
        }
        double v[6] = {hd_sum_median(f8, g, i, -1e9, 1e9), hd_sum_median(f8, c, i, -1e9, 1e9),
                       hd_sum_median(f8, g, i, -1.0, 1.0), hd_sum_median(f8, c, i, -1.0, 1.0),
                       NAN, NAN};
        for (int j = 0; dist != NULL && j < dist->config_count; ++j) {
            if (dist->configs[j] == f8->configs[i]) {
                v[4] = hd_sum_median(dist, hd_sum_method(d, dist, "hedra_dist"), j, -1e9, 1e9);
                v[5] = hd_sum_median(dist, hd_sum_method(d, dist, "fcl_dist"), j, -1e9, 1e9);
            }
        }
        fprintf(fp, "| %d |", n);
        for (int k = 0; k < (dist ? 6 : 4); k += 2) {
            hd_sum_time(fp, v[k]);
            hd_sum_time(fp, v[k + 1]);
            hd_sum_ratio(fp, v[k + 1], v[k]);
        }
        fprintf(fp, "\n");
    }
}

/* One row of the issue-20 targets: ratio num / den of two medians (their experiments may
 * differ), with the target it must meet (<= target). */
static void hd_sum_target_row(FILE *fp, const char *what, double num, double den, double target)
{
    fprintf(fp, "| %s |", what);
    hd_sum_time(fp, num);
    hd_sum_time(fp, den);
    hd_sum_ratio(fp, num, den);
    double r = num / den;
    fprintf(fp, " <= %.2f | %s |\n", target,
            isnan(r) ? "n/a" : r <= target ? "met" : "not met");
}

/* The median of method `name` in experiment ex for the configuration of n vertices (the first
 * one), over [lo, hi]. */
static double hd_sum_at(hd_bench_driver *d, hd_bench_experiment *ex, const char *name, int c,
                        double lo, double hi)
{
    return ex != NULL && c >= 0 ? hd_sum_median(ex, hd_sum_method(d, ex, name), c, lo, hi) : NAN;
}

static int hd_sum_config_n(const hd_bench_experiment *ex, int n)
{
    for (int c = 0; ex != NULL && c < ex->config_count; ++c) {
        if (ex->configs[c]->n == n) {
            return c;
        }
    }
    return -1;
}

/* The ratios issue 20 asks for, all from this run: CD-Dual / GJK on every family (<= 1.5) and
 * near contact (|l| <= 1e-4, i.e. 2.5e-7 of the size: < 1); hedra's GJK boolean and distance
 * against libccd's GJK at n = 12 (0.70 and 0.58, the levels of libccd's MPR and openGJK). */
static void hd_sum_targets(hd_bench_driver *d, FILE *fp)
{
    hd_bench_experiment *f8 = hd_sum_find(d, "fig8");
    fprintf(fp, "\n### Targets of the performance issue (ratio = first / second)\n\n"
                "| what | first | second | ratio | target | |\n|---|---:|---:|---:|---:|---|\n");
    int c12 = hd_sum_config_n(f8, 12);
    double ccd = hd_sum_at(d, f8, "ccd_gjk", c12, -1e9, 1e9);
    hd_sum_target_row(fp, "n = 12: hedra GJK / libccd GJK, boolean",
                      hd_sum_at(d, f8, "hedra_gjk", c12, -1e9, 1e9), ccd, 0.70);
    hd_bench_experiment *dist = hd_sum_find(d, "distance");
    hd_sum_target_row(fp, "n = 12: hedra distance / libccd GJK boolean",
                      hd_sum_at(d, dist, "hedra_dist", hd_sum_config_n(dist, 12), -1e9, 1e9),
                      ccd, 0.58);
    static const char *const exps[] = {"fig8", "fig9", "meshes"};
    for (int e = 0; e < 3; ++e) {
        hd_bench_experiment *ex = hd_sum_find(d, exps[e]);
        for (int c = 0; ex != NULL && c < ex->config_count; ++c) {
            char what[160];
            snprintf(what, sizeof what, "%s %s: CD-Dual / GJK, all l", exps[e],
                     ex->configs[c]->label);
            hd_sum_target_row(fp, what, hd_sum_at(d, ex, "hedra_cddual", c, -1e9, 1e9),
                              hd_sum_at(d, ex, "hedra_gjk", c, -1e9, 1e9), 1.5);
            snprintf(what, sizeof what, "%s %s: CD-Dual / GJK, abs(l) <= 1e-4", exps[e],
                     ex->configs[c]->label);
            hd_sum_target_row(fp, what, hd_sum_at(d, ex, "hedra_cddual", c, -1e-4, 1e-4),
                              hd_sum_at(d, ex, "hedra_gjk", c, -1e-4, 1e-4), 1.0);
        }
    }
}

static void hd_sum_coherence(hd_bench_driver *d, FILE *fp)
{
    if (d->coherence_count == 0) {
        return;
    }
    fprintf(fp, "\n### Frame coherence (1000 frames, 200:100:100, n = 1000)\n\n"
                "| variant | median | p90 | median iterations | wrong | failed |\n"
                "|---|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < d->coherence_count; ++i) {
        hd_bench_coherence_row *r = &d->coherence[i];
        fprintf(fp, "| %s |", r->label);
        hd_sum_time(fp, r->median_ns);
        hd_sum_time(fp, r->p90_ns);
        if (r->iter_median >= 0.0) {
            fprintf(fp, " %g |", r->iter_median);
        } else {
            fprintf(fp, " n/a |");
        }
        fprintf(fp, " %d | %d |\n", r->wrong, r->failed);
    }
}

void hd_bench_summary(hd_bench_driver *d)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tables.md", d->ctx.outdir);
    FILE *fp = fopen(path, "w");
    if (fp == NULL) {
        return;
    }
    static const char *const boolean[] = {"hedra_gjk", "hedra_cddual", "ccd_gjk", "ccd_mpr",
                                          "bullet", "fcl"};
    static const char *const cddual[] = {"hedra_cddual", "hedra_gjk", "ccd_gjk", "bullet", "fcl"};
    static const char *const dist[] = {"hedra_dist", "bullet_dist", "fcl_dist"};
    static const char *const lp[] = {"hedra_lp", "glpk", "hedra_gjk"};
    fprintf(fp, "<!-- generated by hedra_bench (commit %s, %d orientations x %d repetitions; "
                "paper protocol: blocks of %d) -->\n",
            d->ctx.commit ? d->ctx.commit : "unknown", d->ctx.orientations, d->ctx.repetitions,
            d->ctx.block);
    if (d->steal_mean >= 0.0) {
        fprintf(fp, "\nDuring the run the host took %.1f%% of this machine's CPU time (steal, "
                    "/proc/stat), %.1f%% of the busiest CPU's.\n",
                100.0 * d->steal_mean, 100.0 * d->steal_max);
    }
    hd_bench_experiment *ex;
    if ((ex = hd_sum_find(d, "fig8")) != NULL) {
        hd_sum_table(d, fp, ex, boolean, 6, -1e9, 1e9,
                     "### Boolean queries, median over all gaps (Fig. 8 data)");
        hd_sum_table(d, fp, ex, boolean, 6, -1.0, 1.0,
                     "### Boolean queries near contact, |l| <= 1 (Fig. 8 data)");
        hd_sum_table(d, fp, ex, cddual, 5, -1.0, 1.0,
                     "### CD-Dual against the others near contact, |l| <= 1");
        hd_sum_table(d, fp, ex, cddual, 5, 1.01, 1e9, "### CD-Dual, separated by l > 1");
        hd_sum_table(d, fp, ex, cddual, 5, -1e9, -1.01, "### CD-Dual, penetrating by l < -1");
        hd_sum_counters(d, fp, ex);
    }
    if ((ex = hd_sum_find(d, "fig8")) != NULL) {
        hd_sum_table(d, fp, ex, cddual, 5, -1e-4, 1e-4,
                     "### CD-Dual near contact, |l| <= 1e-4 (2.5e-7 of the size; l = 0 included)");
    }
    if ((ex = hd_sum_find(d, "meshes")) != NULL) {
        hd_sum_table(d, fp, ex, boolean, 6, -1e9, 1e9,
                     "### Hulls of real meshes (CGAL demo data), median over all gaps");
        hd_sum_table(d, fp, ex, boolean, 6, -1e-4, 1e-4,
                     "### Hulls of real meshes near contact, |l| <= 1e-4");
        hd_sum_counters(d, fp, ex);
    }
    if ((ex = hd_sum_find(d, "fig9")) != NULL) {
        hd_sum_table(d, fp, ex, boolean, 6, -1e9, 1e9,
                     "### Ellipsoid shapes, n = 1000, median over all gaps (Fig. 9 data)");
    }
    if ((ex = hd_sum_find(d, "distance")) != NULL) {
        hd_sum_table(d, fp, ex, dist, 3, -1e9, 1e9, "### Distance queries, median over all gaps");
        hd_sum_table(d, fp, ex, dist, 3, 0.001, 1e9, "### Distance queries, separated (l > 0)");
        hd_sum_distance_errors(d, fp, ex);
    }
    if ((ex = hd_sum_find(d, "lp")) != NULL) {
        hd_sum_table(d, fp, ex, lp, 3, -1e9, 1e9, "### LP method against GLPK, all gaps");
    }
    if ((ex = hd_sum_find(d, "scaling")) != NULL) {
        static const char *const all[] = {"hedra_gjk", "hedra_cddual", "hedra_lp", "ccd_gjk",
                                          "ccd_mpr", "bullet", "fcl"};
        hd_sum_table(d, fp, ex, all, 7, -1e9, 1e9, "### Scaling with n, l = +-1 (boolean)");
        hd_sum_table(d, fp, ex, dist, 3, -1e9, 1e9, "### Scaling with n, l = +-1 (distance)");
    }
    if ((ex = hd_sum_find(d, "fig8paper")) != NULL) {
        hd_sum_table(d, fp, ex, boolean, 6, -1e9, 1e9,
                     "### Boolean queries under the paper's protocol (mean of back-to-back calls), "
                     "median over all gaps");
    }
    if ((ex = hd_sum_find(d, "lppaper")) != NULL) {
        hd_sum_table(d, fp, ex, lp, 3, -1e9, 1e9,
                     "### LP method against GLPK under the paper's protocol, all gaps");
    }
    hd_sum_vs_ccd(d, fp, "fig8", "distance",
                  "hedra GJK against libccd (medians; ratio = libccd / hedra)");
    hd_sum_vs_ccd(d, fp, "fig8paper", NULL,
                  "hedra GJK against libccd under the paper's protocol (medians of block means)");
    hd_sum_targets(d, fp);
    hd_sum_coherence(d, fp);
    hd_sum_wrong(d, fp);
    fclose(fp);
    if (!d->ctx.quiet) {
        fprintf(stderr, "  wrote %s\n", path);
    }
}
