/* The penetration-depth experiment: time per signed-distance query on penetrating pairs, with
 * every method's accuracy beside its speed, in one run.
 *
 * Pairs: the benchmark's ellipsoids (200:100:100, n = 12, 100, 1000, 5000) and, with --meshes DIR,
 * real meshes (the hull of an OFF file's vertices against a copy of itself, scaled to a largest
 * half side of 200), each placed along K random directions at penetrations l = -50, -10, -1, -0.1
 * and -0.01 (0.25 to 5e-5 of the largest half extent). Two protocols, as for Fig. 8: the shuffled
 * one of run.c (every query R times, one pass per repetition in a fresh random order; depth.csv)
 * and the paper's (one pass, each query timed as the mean of a block of back-to-back calls;
 * depthpaper.csv). depth.md has both tables.
 *
 * Accuracy, against hedra's certified depth (its proven bounds are a few units of rounding apart;
 * the reference is also checked independently: the brute-force support value h_M along hedra's
 * normal, in long double over the posed vertices, must equal it to 1e-12 of the size):
 *   depth error = |depth - reference| / size, size the diagonal of the pair's bounding box;
 *   normal gap  = (h_M(n) - reference) / size, h_M by brute force: how far moving B by the
 *                 reference depth along the method's normal is from making the pair touch.
 * A method whose answer says "not penetrating", or gives no finite depth or normal, fails that
 * query (counted, not timed). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pairs/driver.h"
#include "hedra/hedra.h"

#define HD_DEPTH_MAX_CONFIGS 12
#define HD_DEPTH_GAPS 5

static const double hd_depth_fractions[HD_DEPTH_GAPS] = {-0.25, -0.05, -0.005, -5e-4, -5e-5};
static const char *const hd_depth_methods[] = {"hedra_depth", "hedra_depth_grad", "hedra_depth_sat",
                                               "ccd_gjk_pen", "ccd_mpr_pen",      "bullet_pen",
                                               "fcl_signed",  "fcl_contact",      NULL};
/* The separating-axis method examines every edge pair: too slow to time beyond this size. */
#define HD_DEPTH_SAT_MAX_N 200
/* Real meshes tried in --meshes DIR, when present. */
static const char *const hd_depth_meshes[] = {"bunny00", "cow",       "elephant",
                                              "fandisk", "armadillo", NULL};

typedef struct hd_depth_cell {
    float *time_ns;
    int samples;
    int failed;
    double err_max, gap_max; /* normalised by the size */
} hd_depth_cell;

typedef struct hd_depth_run {
    hd_bench_driver *d;
    hd_bench_config *cfg[HD_DEPTH_MAX_CONFIGS];
    double half[HD_DEPTH_MAX_CONFIGS]; /* the largest half extent: the gaps' unit */
    int nconfig;
    int method[HD_BENCH_MAX_METHODS];
    int nmethod;
    int k;                /* orientations */
    int calls;            /* back-to-back calls per timed sample (1: the shuffled protocol) */
    int reps;             /* repetitions of the pass */
    double *ref;          /* per (config, gap, orientation): reference depth, NaN if none */
    double *size;         /* the same: the pair's bounding-box diagonal */
    int unverified;       /* references whose brute-force check failed */
    hd_depth_cell *cells; /* (config, gap, method) */
} hd_depth_run;

static size_t ref_index(const hd_depth_run *r, int c, int g, int k)
{
    return ((size_t)c * HD_DEPTH_GAPS + (size_t)g) * (size_t)r->k + (size_t)k;
}

static hd_depth_cell *cell_at(hd_depth_run *r, int c, int g, int m)
{
    return &r->cells[((size_t)c * HD_DEPTH_GAPS + (size_t)g) * (size_t)r->nmethod + (size_t)m];
}

/* max over the vertices of sign * d.v, in long double. */
static long double extreme(const double *xyz, int n, const double d[3], long double sign)
{
    long double best = -INFINITY;
    for (int i = 0; i < n; ++i) {
        long double x =
            sign * ((long double)d[0] * xyz[3 * i] + (long double)d[1] * xyz[3 * i + 1] +
                    (long double)d[2] * xyz[3 * i + 2]);
        best = x > best ? x : best;
    }
    return best;
}

/* Brute-force h_M(u) for A (identity pose) and posed B; u normalised here. NaN for a zero u. */
static double support_gap(const hd_bench_config *cfg, const double *pb, const double u[3])
{
    double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (!(len > 0.0) || !isfinite(len)) {
        return NAN;
    }
    double n[3] = {u[0] / len, u[1] / len, u[2] / len};
    return (double)(extreme(cfg->hull[0].xyz, cfg->hull[0].n, n, 1) +
                    extreme(pb, cfg->hull[1].n, n, -1));
}

static double pair_size(const hd_bench_config *cfg, const double *pb)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int side = 0; side < 2; ++side) {
        const double *xyz = side ? pb : cfg->hull[0].xyz;
        int n = cfg->hull[side].n;
        for (int i = 0; i < 3 * n; ++i) {
            lo[i % 3] = fmin(lo[i % 3], xyz[i]);
            hi[i % 3] = fmax(hi[i % 3], xyz[i]);
        }
    }
    double d0 = hi[0] - lo[0], d1 = hi[1] - lo[1], d2 = hi[2] - lo[2];
    return sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}

static double gap_of(const hd_depth_run *r, int c, int g)
{
    return hd_depth_fractions[g] * r->half[c];
}

/* The reference depth of every placed pair: hedra's, checked by brute force along its normal. */
static void references(hd_depth_run *r, int hedra)
{
    static const hd_bench_pose identity = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
    const hd_bench_method *m = &r->d->ctx.methods[hedra];
    for (int c = 0; c < r->nconfig; ++c) {
        hd_bench_config *cfg = r->cfg[c];
        double *pb = malloc(sizeof(double) * 3 * (size_t)cfg->hull[1].n);
        for (int g = 0; pb != NULL && g < HD_DEPTH_GAPS; ++g) {
            for (int k = 0; k < r->k; ++k) {
                size_t i = ref_index(r, c, g, k);
                hd_bench_pose pose;
                hd_bench_answer ans;
                hd_bench_pose_at(cfg, k, gap_of(r, c, g), &pose);
                hd_bench_posed_b(cfg, k, gap_of(r, c, g), pb);
                r->size[i] = pair_size(cfg, pb);
                r->ref[i] = NAN;
                if (m->query(cfg->handle[0][hedra], &identity, cfg->handle[1][hedra], &pose,
                             &ans) != HD_BENCH_OK ||
                    ans.verdict != 2) {
                    continue;
                }
                double h = support_gap(cfg, pb, ans.normal);
                r->unverified += !(fabs(h - ans.depth) <= 1e-12 * r->size[i]);
                r->ref[i] = ans.depth;
            }
        }
        free(pb);
    }
}

/* Accuracy of one answer against the reference (rep 0 only). */
static void score(hd_depth_run *r, int c, int g, int k, const hd_bench_answer *ans,
                  hd_depth_cell *cell)
{
    size_t i = ref_index(r, c, g, k);
    hd_bench_config *cfg = r->cfg[c];
    double *pb = malloc(sizeof(double) * 3 * (size_t)cfg->hull[1].n);
    if (pb == NULL || isnan(r->ref[i])) {
        free(pb);
        return;
    }
    hd_bench_posed_b(cfg, k, gap_of(r, c, g), pb);
    double err = fabs(ans->depth - r->ref[i]) / r->size[i];
    double gap = (support_gap(cfg, pb, ans->normal) - r->ref[i]) / r->size[i];
    cell->err_max = fmax(cell->err_max, isnan(err) ? INFINITY : err);
    cell->gap_max = fmax(cell->gap_max, isnan(gap) ? INFINITY : gap);
    free(pb);
}

typedef struct hd_depth_item {
    int c, g, k, m;
} hd_depth_item;

static void time_item(hd_depth_run *r, const hd_depth_item *it, int rep)
{
    static const hd_bench_pose identity = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
    hd_bench_ctx *ctx = &r->d->ctx;
    int mi = r->method[it->m];
    hd_bench_config *cfg = r->cfg[it->c];
    hd_depth_cell *cell = cell_at(r, it->c, it->g, it->m);
    hd_bench_pose pose;
    hd_bench_answer ans;
    memset(&ans, 0, sizeof ans);
    hd_bench_pose_at(cfg, it->k, gap_of(r, it->c, it->g), &pose);
    int st = HD_BENCH_OK;
    uint64_t t0 = hd_bench_now_ns();
    for (int call = 0; call < r->calls; ++call) {
        st = ctx->methods[mi].query(cfg->handle[0][mi], &identity, cfg->handle[1][mi], &pose, &ans);
    }
    uint64_t t1 = hd_bench_now_ns();
    int ok = st == HD_BENCH_OK && ans.verdict == 2 && isfinite(ans.depth);
    if (!ok) {
        cell->failed += rep == 0;
        return;
    }
    double ns = ((double)(t1 - t0) - ctx->overhead_ns) / r->calls;
    cell->time_ns[cell->samples++] = (float)(ns > 0.0 ? ns : 0.0);
    if (rep == 0) {
        score(r, it->c, it->g, it->k, &ans, cell);
    }
}

static int run_items(hd_depth_run *r)
{
    hd_bench_ctx *ctx = &r->d->ctx;
    long cap = (long)r->nconfig * HD_DEPTH_GAPS * r->k * r->nmethod, n = 0;
    hd_depth_item *items = malloc(sizeof *items * (size_t)(cap > 0 ? cap : 1));
    if (items == NULL) {
        return -1;
    }
    for (int c = 0; c < r->nconfig; ++c) {
        for (int g = 0; g < HD_DEPTH_GAPS; ++g) {
            for (int k = 0; k < r->k; ++k) {
                for (int m = 0; m < r->nmethod; ++m) {
                    const char *name = ctx->methods[r->method[m]].name;
                    /* the separating axes are timed on small pairs, and not back to back */
                    if (strcmp(name, "hedra_depth_sat") == 0 &&
                        (r->cfg[c]->hull[0].n > HD_DEPTH_SAT_MAX_N || r->calls > 1)) {
                        continue;
                    }
                    items[n++] = (hd_depth_item){c, g, k, m};
                }
            }
        }
    }
    hd_wl_rng rng;
    hd_wl_rng_init(&rng, hd_wl_seed(ctx->seed, 8, (uint64_t)n, 0));
    for (int rep = 0; rep < r->reps; ++rep) {
        for (long i = n - 1; i > 0; --i) {
            long j = (long)(hd_wl_rng_next(&rng) % (uint64_t)(i + 1));
            hd_depth_item t = items[i];
            items[i] = items[j];
            items[j] = t;
        }
        for (long i = 0; i < n; ++i) {
            time_item(r, &items[i], rep);
        }
        if (!ctx->quiet) {
            fprintf(stderr, "\r  depth      %s pass %d/%d",
                    r->calls > 1 ? "back-to-back" : "shuffled", rep + 1, r->reps);
        }
    }
    if (!ctx->quiet) {
        fprintf(stderr, "\n");
    }
    free(items);
    return 0;
}

/* Median over every gap of (config c, method m), in ns; NaN without samples. */
static double pooled_median(hd_depth_run *r, int c, int m, int *failed, double *err, double *gap)
{
    int total = 0;
    *failed = 0;
    *err = *gap = 0.0;
    for (int g = 0; g < HD_DEPTH_GAPS; ++g) {
        hd_depth_cell *cell = cell_at(r, c, g, m);
        total += cell->samples;
        *failed += cell->failed;
        *err = fmax(*err, cell->err_max);
        *gap = fmax(*gap, cell->gap_max);
    }
    float *all = malloc(sizeof(float) * (size_t)(total > 0 ? total : 1));
    if (all == NULL || total == 0) {
        free(all);
        return NAN;
    }
    int k = 0;
    for (int g = 0; g < HD_DEPTH_GAPS; ++g) {
        hd_depth_cell *cell = cell_at(r, c, g, m);
        memcpy(all + k, cell->time_ns, sizeof(float) * (size_t)cell->samples);
        k += cell->samples;
    }
    double med = hd_bench_quantile(all, total, 0.5);
    free(all);
    return med;
}

static void fmt_time(char *buf, size_t size, double ns)
{
    if (isnan(ns)) {
        snprintf(buf, size, "-");
    } else if (ns < 1000.0) {
        snprintf(buf, size, "%.0f ns", ns);
    } else if (ns < 1e6) {
        snprintf(buf, size, "%.1f us", ns / 1e3);
    } else {
        snprintf(buf, size, "%.1f ms", ns / 1e6);
    }
}

static void write_csv(hd_depth_run *r)
{
    hd_bench_ctx *ctx = &r->d->ctx;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.csv", ctx->outdir, r->calls > 1 ? "depthpaper" : "depth");
    FILE *fp = fopen(path, "w");
    if (fp == NULL) {
        return;
    }
    fprintf(fp,
            "# hedra_bench depth: commit %s, seed %llu, %d orientations x %d passes, %d "
            "back-to-back calls per sample\n",
            ctx->commit ? ctx->commit : "none", (unsigned long long)ctx->seed, r->k, r->reps,
            r->calls);
    fprintf(fp, "# unverified references: %d\n", r->unverified);
    fprintf(fp, "pair,n,gap,method,median_ns,p90_ns,samples,failed,max_depth_err,max_normal_gap\n");
    for (int c = 0; c < r->nconfig; ++c) {
        for (int g = 0; g < HD_DEPTH_GAPS; ++g) {
            for (int m = 0; m < r->nmethod; ++m) {
                hd_depth_cell *cell = cell_at(r, c, g, m);
                double med = hd_bench_quantile(cell->time_ns, cell->samples, 0.5);
                double p90 = hd_bench_quantile(cell->time_ns, cell->samples, 0.9);
                fprintf(fp, "\"%s\",%d,%g,%s,%.1f,%.1f,%d,%d,%.3g,%.3g\n", r->cfg[c]->label,
                        r->cfg[c]->hull[0].n, gap_of(r, c, g), ctx->methods[r->method[m]].name, med,
                        p90, cell->samples, cell->failed, cell->err_max, cell->gap_max);
            }
        }
    }
    fclose(fp);
}

/* depth.md: median times over all gaps, ratios to hedra, accuracy and failures per method. */
static void write_table(hd_depth_run *r)
{
    hd_bench_ctx *ctx = &r->d->ctx;
    char path[1024];
    snprintf(path, sizeof path, "%s/depth.md", ctx->outdir);
    FILE *fp = fopen(path, r->calls > 1 ? "a" : "w");
    if (fp == NULL) {
        return;
    }
    if (r->calls > 1) {
        fprintf(fp,
                "\n**The same under the paper's protocol: each query timed as the mean of %d "
                "back-to-back calls (warm caches)**\n\n",
                r->calls);
    } else {
        fprintf(fp,
                "**Penetration depth, shuffled protocol (%d orientations x %d passes): median "
                "time per query over all gaps; ratio = method time / hedra_depth time; max "
                "depth error and normal gap / size; failed queries**\n\n",
                r->k, r->reps);
    }
    fprintf(fp, "| pair | n | method | time | ratio | max error | max normal gap | failed |\n");
    fprintf(fp, "|---|---:|---|---:|---:|---:|---:|---:|\n");
    for (int c = 0; c < r->nconfig; ++c) {
        int failed;
        double err, gap, base = pooled_median(r, c, 0, &failed, &err, &gap);
        for (int m = 0; m < r->nmethod; ++m) {
            double med = pooled_median(r, c, m, &failed, &err, &gap);
            char t[32];
            fmt_time(t, sizeof t, med);
            if (isnan(med)) {
                continue; /* not run at this size */
            }
            fprintf(fp, "| %s | %d | %s | %s | %.2f | %.2g | %.2g | %d |\n", r->cfg[c]->label,
                    r->cfg[c]->hull[0].n, ctx->methods[r->method[m]].name, t, med / base, err, gap,
                    failed);
        }
    }
    fprintf(fp,
            "\nReferences: hedra's certified depth; %d of them failed the brute-force check "
            "along hedra's normal (to 1e-12 of the size).\n",
            r->unverified);
    fclose(fp);
    printf("depth: %s/depth.md\n", ctx->outdir);
}

static int add_config(hd_depth_run *r, hd_bench_config *cfg, double half)
{
    if (cfg == NULL || r->nconfig == HD_DEPTH_MAX_CONFIGS) {
        hd_bench_config_destroy(&r->d->ctx, cfg);
        return -1;
    }
    r->cfg[r->nconfig] = cfg;
    r->half[r->nconfig++] = half;
    return 0;
}

/* A real mesh (CGAL's demo data, dir/name.off) against a copy of itself, its hull centred and
 * scaled to a largest half side of 200 like the ellipsoids (hd_bench_config_create_meshes), so the
 * gaps are the same. Skipped when the file is absent. */
static void add_mesh(hd_depth_run *r, const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.off", dir, name);
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        return;
    }
    fclose(fp);
    if (!r->d->ctx.quiet) {
        fprintf(stderr, "  placing mesh %s (%d orientations)\n", name, r->k);
    }
    add_config(r, hd_bench_config_create_meshes(&r->d->ctx, dir, name, name, r->k), 200.0);
}

static int setup(hd_depth_run *r, const char *meshes)
{
    hd_bench_ctx *ctx = &r->d->ctx;
    for (int i = 0; hd_depth_methods[i] != NULL; ++i) {
        for (int m = 0; m < ctx->method_count; ++m) {
            if (strcmp(ctx->methods[m].name, hd_depth_methods[i]) == 0) {
                r->method[r->nmethod++] = m;
            }
        }
    }
    if (r->nmethod == 0 || strcmp(ctx->methods[r->method[0]].name, "hedra_depth") != 0) {
        return -1;
    }
    static const int sizes[] = {12, 100, 1000, 5000};
    static const hd_wl_shape shape = {200, 100, 100};
    for (int i = 0; i < 4; ++i) {
        if (r->d->depth_n > 0 && sizes[i] != r->d->depth_n) {
            continue;
        }
        if (!ctx->quiet) {
            fprintf(stderr, "  placing 200:100:100 n=%d (%d orientations)\n", sizes[i], r->k);
        }
        if (add_config(r, hd_bench_config_create(ctx, shape, sizes[i], r->k), 200.0) != 0) {
            return -1;
        }
    }
    for (int i = 0; meshes != NULL && hd_depth_meshes[i] != NULL; ++i) {
        add_mesh(r, meshes, hd_depth_meshes[i]);
    }
    size_t nref = (size_t)r->nconfig * HD_DEPTH_GAPS * (size_t)r->k;
    size_t ncell = (size_t)r->nconfig * HD_DEPTH_GAPS * (size_t)r->nmethod;
    r->ref = malloc(sizeof(double) * nref);
    r->size = malloc(sizeof(double) * nref);
    r->cells = calloc(ncell, sizeof *r->cells);
    if (r->ref == NULL || r->size == NULL || r->cells == NULL) {
        return -1;
    }
    for (size_t i = 0; i < ncell; ++i) {
        r->cells[i].time_ns = malloc(sizeof(float) * (size_t)(r->k * ctx->repetitions));
        if (r->cells[i].time_ns == NULL) {
            return -1;
        }
    }
    return 0;
}

static void reset_cells(hd_depth_run *r)
{
    size_t ncell = (size_t)r->nconfig * HD_DEPTH_GAPS * (size_t)r->nmethod;
    for (size_t i = 0; i < ncell; ++i) {
        r->cells[i].samples = r->cells[i].failed = 0;
        r->cells[i].err_max = r->cells[i].gap_max = 0.0;
    }
}

static void teardown(hd_depth_run *r)
{
    size_t ncell = (size_t)r->nconfig * HD_DEPTH_GAPS * (size_t)r->nmethod;
    for (size_t i = 0; r->cells != NULL && i < ncell; ++i) {
        free(r->cells[i].time_ns);
    }
    free(r->cells);
    free(r->ref);
    free(r->size);
    for (int c = 0; c < r->nconfig; ++c) {
        hd_bench_config_destroy(&r->d->ctx, r->cfg[c]);
    }
}

int hd_bench_depth(hd_bench_driver *d, const char *meshes)
{
    hd_depth_run r;
    memset(&r, 0, sizeof r);
    r.d = d;
    r.k = d->ctx.orientations;
    if (!d->ctx.quiet) {
        fprintf(stderr, "depth: time per signed-distance query on penetrating pairs, with "
                        "accuracy, against libccd, Bullet and FCL\n");
    }
    int rc = setup(&r, meshes);
    if (rc == 0) {
        references(&r, r.method[0]);
        r.calls = 1;
        r.reps = d->ctx.repetitions;
        rc = run_items(&r);
    }
    if (rc == 0) {
        write_csv(&r);
        write_table(&r);
        reset_cells(&r);
        r.calls = d->ctx.block;
        r.reps = 1;
        rc = run_items(&r);
    }
    if (rc == 0) {
        write_csv(&r);
        write_table(&r);
    } else {
        fprintf(stderr, "hedra_bench: depth experiment could not be set up\n");
    }
    teardown(&r);
    return rc;
}
