/* Tables and CSV of the scene benchmark. Times per frame are medians over the timed frames
 * (those after frame 0 and the warm-up); the shares of boxes, broad phase and narrow phase are
 * sums over the same frames. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_bench.h"

static int compare_ll(const void *pa, const void *pb)
{
    long long a = *(const long long *)pa, b = *(const long long *)pb;
    return (a > b) - (a < b);
}

static int compare_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

double hd_sb_median(long long *values, int count)
{
    if (count <= 0) {
        return NAN;
    }
    qsort(values, (size_t)count, sizeof *values, compare_ll);
    return count % 2 ? (double)values[count / 2]
                     : 0.5 * ((double)values[count / 2 - 1] + (double)values[count / 2]);
}

/* Median time per timed frame of method m, in ms. */
static double median_ms(const hd_sb_method *m, const hd_sb_run *run)
{
    long long v[256];
    int n = 0;
    for (int f = run->first_timed; f < run->frames && n < 256; ++f) {
        v[n++] = m->total_ns[f];
    }
    return 1e-6 * hd_sb_median(v, n);
}

/* Shares (percent) of update, broad and narrow phase over the timed frames; -1 when unknown. */
static void shares(const hd_sb_method *m, const hd_sb_run *run, double out[3])
{
    double sum[3] = {0, 0, 0}, total = 0;
    int unknown = 0;
    for (int f = run->first_timed; f < run->frames; ++f) {
        sum[0] += (double)m->frames[f].update_ns;
        sum[1] += (double)m->frames[f].broad_ns;
        sum[2] += (double)m->frames[f].narrow_ns;
        unknown |= m->frames[f].broad_ns < 0;
        total += (double)m->total_ns[f];
    }
    for (int k = 0; k < 3; ++k) {
        out[k] = total > 0 ? 100.0 * sum[k] / total : NAN;
    }
    if (unknown) {
        out[1] = -1;
    }
}

void hd_sb_report_run(FILE *fp, const hd_sb_run *run)
{
    fprintf(fp, "n = %d: %d moving, %.1f%% of the bodies in contact at frame 0", run->n,
            run->movers, 100.0 * run->contact_fraction);
    if (run->steal_mean >= 0.0) {
        fprintf(fp,
                "; the host took %.1f%% of the CPUs' time during the frames (%.1f%% of the "
                "busiest)",
                100.0 * run->steal_mean, 100.0 * run->steal_max);
    }
    fprintf(fp, "\n\n");
    fprintf(fp, "| method | library | threads | frame 0 (ms) | per frame (ms) | boxes/update | "
                "broad phase | narrow phase | contacts |\n"
                "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < run->method_count; ++i) {
        const hd_sb_method *m = &run->methods[i];
        double sh[3];
        shares(m, run, sh);
        fprintf(fp, "| %s | %s | %d | %.2f | %.3f | %.0f%% | ", m->name, m->library, m->threads,
                1e-6 * (double)m->total_ns[0], median_ms(m, run), sh[0]);
        if (sh[1] < 0) {
            fprintf(fp, "%.0f%% (both) | - | ", sh[2]);
        } else {
            fprintf(fp, "%.0f%% | %.0f%% | ", sh[1], sh[2]);
        }
        fprintf(fp, "%d |\n", m->frames[run->frames - 1].contacts);
    }
    fprintf(fp, "\n");
}

void hd_sb_csv_header(FILE *fp)
{
    fprintf(fp, "n,method,threads,frame,timed,total_ns,update_ns,broad_ns,narrow_ns,contacts\n");
}

void hd_sb_csv_run(FILE *fp, const hd_sb_run *run)
{
    for (int i = 0; i < run->method_count; ++i) {
        const hd_sb_method *m = &run->methods[i];
        for (int f = 0; f < run->frames; ++f) {
            const hd_sp_frame *fr = &m->frames[f];
            fprintf(fp, "%d,%s,%d,%d,%d,%lld,%lld,%lld,%lld,%d\n", run->n, m->name, m->threads, f,
                    f >= run->first_timed, m->total_ns[f], fr->update_ns, fr->broad_ns,
                    fr->narrow_ns, fr->contacts);
        }
    }
}

/* The method named name in run, or NULL. */
static const hd_sb_method *find_method(const hd_sb_run *run, const char *name)
{
    for (int i = 0; i < run->method_count; ++i) {
        if (strcmp(run->methods[i].name, name) == 0) {
            return &run->methods[i];
        }
    }
    return NULL;
}

/* The median per frame of the method named name in run, or NAN. */
static double method_ms(const hd_sb_run *run, const char *name)
{
    const hd_sb_method *m = find_method(run, name);
    return m != NULL ? median_ms(m, run) : NAN;
}

/* The median over the timed frames of one thread's time over every core's in the same frame:
 * with the frames interleaved the two run one after the other in each frame, so a phase of the
 * machine (which changes from second to second here) weighs on both (back to back, frame f of
 * each is seconds apart); NAN when either is missing. */
static double paired_speedup(const hd_sb_run *run, const char *one, const char *all)
{
    const hd_sb_method *a = find_method(run, one), *b = find_method(run, all);
    if (a == NULL || b == NULL) {
        return NAN;
    }
    double v[256];
    int n = 0;
    for (int f = run->first_timed; f < run->frames && n < 256; ++f) {
        if (b->total_ns[f] > 0) {
            v[n++] = (double)a->total_ns[f] / (double)b->total_ns[f];
        }
    }
    qsort(v, (size_t)n, sizeof *v, compare_double);
    return n == 0 ? NAN : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void summary_row(FILE *fp, const hd_sb_run *r, const char *bp)
{
    char one[32], all[32];
    snprintf(one, sizeof one, "hedra_%s_1t", bp);
    snprintf(all, sizeof all, "hedra_%s_all", bp);
    double h1 = method_ms(r, one), ha = method_ms(r, all);
    double bullet = method_ms(r, "bullet"), fcl = method_ms(r, "fcl");
    fprintf(fp, "| %d | %s | %.3f | %.3f | %.2f | %.2f | %.3f | %.2f | %.3f | %.2f | %.1f%% |\n",
            r->n, bp, h1, ha, h1 / ha, paired_speedup(r, one, all), bullet, bullet / h1, fcl,
            fcl / h1, 100.0 * r->steal_max);
}

void hd_sb_report_summary(FILE *fp, hd_sb_run *runs, int count)
{
    fprintf(fp, "Summary (median ms per frame; ratio = peer / hedra on one thread; speed-up = "
                "one thread / every core; per frame = the median of that ratio frame by frame; "
                "stolen = the share of the busiest CPU's time the host took during the frames, "
                "from /proc/stat):\n\n"
                "| n | broad phase | hedra 1 thread | hedra all cores | speed-up | per frame | "
                "Bullet | ratio | FCL | ratio | stolen (busiest CPU) |\n"
                "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < count; ++i) {
        summary_row(fp, &runs[i], "tree");
        summary_row(fp, &runs[i], "sap");
    }
    fprintf(fp, "\nGrowth with n (time per frame ratio against n and n log n ratios):\n\n"
                "| from | to | n ratio | n log n ratio | tree 1t | sap 1t | Bullet | FCL |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 1; i < count; ++i) {
        const hd_sb_run *a = &runs[i - 1], *b = &runs[i];
        double nr = (double)b->n / a->n, nl = nr * log((double)b->n) / log((double)a->n);
        fprintf(fp, "| %d | %d | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f |\n", a->n, b->n, nr, nl,
                method_ms(b, "hedra_tree_1t") / method_ms(a, "hedra_tree_1t"),
                method_ms(b, "hedra_sap_1t") / method_ms(a, "hedra_sap_1t"),
                method_ms(b, "bullet") / method_ms(a, "bullet"),
                method_ms(b, "fcl") / method_ms(a, "fcl"));
    }
}
