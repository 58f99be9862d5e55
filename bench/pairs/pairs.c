/* Pair-file modes: write placed pairs in the format of include/hedra/io.h (so that `hedra batch`
 * and every peer read the same data), and run every method on the pairs of a file. A pair's name
 * ends in "_exp=S", "_exp=T" or "_exp=I" when its expected verdict is known (separated, touching,
 * intersecting); both polytopes are given in world coordinates and queried with identity poses. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pairs/driver.h"

static char hd_bench_letter(int verdict)
{
    return verdict == 0 ? 'S' : verdict == 1 ? 'T' : verdict == 2 ? 'I' : '?';
}

/* Writes config cfg's pairs at the given gaps; returns the number written or -1. */
static int hd_bench_write_config(FILE *fp, const hd_bench_config *cfg, const double *gaps,
                                 int ngaps)
{
    double *posed = malloc(sizeof(double) * 3 * (size_t)cfg->hull[1].n);
    if (posed == NULL) {
        return -1;
    }
    int written = 0;
    for (int k = 0; k < cfg->orientations; ++k) {
        for (int i = 0; i < ngaps; ++i) {
            int ok = 0;
            hd_bench_posed_b(cfg, k, gaps[i], posed);
            hd_pl_check(&cfg->ray[k], gaps[i], cfg->hull[0].xyz, cfg->hull[0].n, posed,
                        cfg->hull[1].n, 1e-9 * cfg->scale, &ok);
            if (!ok) {
                fprintf(stderr, "hedra_bench: %s k=%d l=%g: placement check failed, not written\n",
                        cfg->label, k, gaps[i]);
                continue;
            }
            char name[160];
            snprintf(name, sizeof name, "e%gx%gx%g_n%d_k%d_l%g_exp=%c", cfg->shape.a, cfg->shape.b,
                     cfg->shape.c, cfg->n, k, gaps[i], hd_bench_letter(hd_bench_expected(gaps[i])));
            if (hd_wl_write_pair(fp, name, cfg->hull[0].xyz, cfg->hull[0].n, posed,
                                 cfg->hull[1].n) != 0) {
                free(posed);
                return -1;
            }
            written++;
        }
    }
    free(posed);
    return written;
}

static int hd_bench_write_file(hd_bench_driver *d, const char *path, const int *sizes, int nsizes,
                               const double *gaps, int ngaps)
{
    FILE *fp = fopen(path, "w");
    if (fp == NULL) {
        fprintf(stderr, "hedra_bench: cannot write %s\n", path);
        return -1;
    }
    fprintf(fp, "# hedra benchmark pairs (CD-Dual section 5 workload): A fixed, B rotated and\n"
                "# translated along u so that the gap is l; seed %llu; world coordinates.\n"
                "# exp=S separated, T touching, I intersecting.\n",
            (unsigned long long)d->ctx.seed);
    hd_wl_shape shape = {200, 100, 100};
    int total = 0;
    for (int i = 0; i < nsizes; ++i) {
        hd_bench_config *cfg = hd_bench_config_create(&d->ctx, shape, sizes[i],
                                                      d->ctx.orientations);
        int w = cfg != NULL ? hd_bench_write_config(fp, cfg, gaps, ngaps) : -1;
        hd_bench_config_destroy(&d->ctx, cfg);
        if (w < 0) {
            fclose(fp);
            return -1;
        }
        total += w;
    }
    fclose(fp);
    printf("hedra_bench: wrote %d pairs to %s\n", total, path);
    return total;
}

int hd_bench_write_pairs(hd_bench_driver *d, const char *path, int n)
{
    return hd_bench_write_file(d, path, &n, 1, hd_bench_gaps, hd_bench_gap_count) < 0;
}

/* The gap standing for an expected letter: the sign is all hd_bench_is_wrong needs. */
static int hd_bench_expected_gap(const char *name, double *l)
{
    const char *p = strstr(name, "_exp=");
    if (p == NULL) {
        return 0;
    }
    switch (p[5]) {
    case 'S': *l = 1.0; return 1;
    case 'T': *l = 0.0; return 1;
    case 'I': *l = -1.0; return 1;
    default: return 0;
    }
}

typedef struct hd_bench_tally {
    int wrong[HD_BENCH_MAX_METHODS];
    int failed[HD_BENCH_MAX_METHODS];
    int answered[HD_BENCH_MAX_METHODS];
} hd_bench_tally;

/* Runs every method on one pair (identity poses), printing one line. */
static void hd_bench_pair_run(hd_bench_driver *d, const hd_wl_pair *pair, hd_bench_tally *tally)
{
    static const hd_bench_pose identity = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
    hd_bench_ctx *ctx = &d->ctx;
    hd_bench_hull ha, hb;
    if (hd_bench_hull_build(pair->a, pair->na, &ha) != 0) {
        return;
    }
    if (hd_bench_hull_build(pair->b, pair->nb, &hb) != 0) {
        hd_bench_hull_free(&ha);
        return;
    }
    hd_bench_shape sa = {ha.xyz, ha.n, ha.tris, ha.ntris}, sb = {hb.xyz, hb.n, hb.tris, hb.ntris};
    double l = NAN;
    int known = hd_bench_expected_gap(pair->name, &l);
    printf("%-40s", pair->name);
    for (int m = 0; m < ctx->method_count; ++m) {
        const hd_bench_method *meth = &ctx->methods[m];
        void *a = meth->create(&sa), *b = meth->create(&sb);
        hd_bench_answer ans;
        memset(&ans, 0, sizeof ans);
        int st = a != NULL && b != NULL ? meth->query(a, &identity, b, &identity, &ans)
                                        : HD_BENCH_FAILED;
        char c = st == HD_BENCH_OK ? hd_bench_letter(ans.verdict)
                                   : st == HD_BENCH_UNSUPPORTED ? '-' : 'E';
        int wrong = st == HD_BENCH_OK && known && hd_bench_is_wrong(meth, l, ans.verdict);
        tally->wrong[m] += wrong;
        tally->failed[m] += st == HD_BENCH_FAILED;
        tally->answered[m] += st == HD_BENCH_OK;
        printf(" %s=%c%s", meth->name, c, wrong ? "!" : "");
        if (st == HD_BENCH_OK && meth->kind == HD_BENCH_DISTANCE) {
            printf("(%.3g)", ans.distance);
        }
        if (a != NULL) {
            meth->destroy(a);
        }
        if (b != NULL) {
            meth->destroy(b);
        }
    }
    printf("\n");
    hd_bench_hull_free(&ha);
    hd_bench_hull_free(&hb);
}

int hd_bench_pairs(hd_bench_driver *d, const char *path, int *peer_wrong)
{
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        fprintf(stderr, "hedra_bench: cannot read %s\n", path);
        return -1;
    }
    hd_bench_tally tally;
    memset(&tally, 0, sizeof tally);
    hd_wl_pair pair;
    char err[128];
    int rc, count = 0;
    while ((rc = hd_wl_read_pair(fp, &pair, err, (int)sizeof err)) == 1) {
        hd_bench_pair_run(d, &pair, &tally);
        hd_wl_pair_free(&pair);
        count++;
    }
    fclose(fp);
    if (rc < 0) {
        fprintf(stderr, "hedra_bench: %s: %s\n", path, err);
        return -1;
    }
    int hedra_bad = 0, peers_bad = 0;
    printf("%d pairs; wrong answers (failed queries) per method:\n", count);
    for (int m = 0; m < d->ctx.method_count; ++m) {
        const hd_bench_method *meth = &d->ctx.methods[m];
        int is_hedra = strncmp(meth->name, "hedra_", 6) == 0;
        if (tally.answered[m] + tally.failed[m] == 0) {
            printf("  %-13s unavailable\n", meth->name);
        } else {
            printf("  %-13s %d wrong of %d (%d failed)\n", meth->name, tally.wrong[m],
                   tally.answered[m], tally.failed[m]);
        }
        if (is_hedra) {
            hedra_bad += tally.wrong[m] + tally.failed[m];
        } else {
            peers_bad += tally.wrong[m];
        }
    }
    if (peer_wrong != NULL) {
        *peer_wrong = peers_bad;
    }
    return hedra_bad;
}

int hd_bench_smoke(hd_bench_driver *d, const char *dir)
{
    static const int sizes[] = {12, 100};
    static const double gaps[] = {-1, -0.01, 0, 0.01, 1};
    char path[1024];
    snprintf(path, sizeof path, "%s/bench_smoke.pairs", dir);
    d->ctx.orientations = 2;
    int written = hd_bench_write_file(d, path, sizes, 2, gaps, 5);
    if (written != 2 * 2 * 5) {
        fprintf(stderr, "bench_smoke: expected 20 verified pairs, got %d\n", written);
        return 1;
    }
    int peer_wrong = 0;
    int hedra_bad = hd_bench_pairs(d, path, &peer_wrong);
    printf("bench_smoke: hedra wrong or failed: %d; peers wrong: %d (reported, not a failure)\n",
           hedra_bad, peer_wrong);
    return hedra_bad != 0;
}
