/* hedra_bench: the benchmark driver. Reproduces the experiments of CD-Dual section 5 (Figs. 8-10)
 * with hedra's three algorithms and the peers on the same pairs in the same run, plus distance,
 * frame coherence, scaling and the LP method. See docs/BENCHMARKS.md. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pairs/bench.h"
#include "pairs/driver.h"
#include "common/host.h"

/* +-1e-4 is 2.5e-7 of the pair's size (400): "near contact" in the sense of |gap| <= 1e-6 size */
const double hd_bench_gaps[] = {-50,  -20,  -10, -5, -1, -0.1, -0.01, -1e-4, 0,
                                1e-4, 0.01, 0.1, 1,  5,  10,   20,    50};
const int hd_bench_gap_count = (int)(sizeof hd_bench_gaps / sizeof hd_bench_gaps[0]);

static void hd_bench_usage(void)
{
    printf("usage: hedra_bench [options]\n"
           "  --full             the paper's sizes: 500 orientations, 300 repetitions (hours)\n"
           "  --quick            4 orientations, 2 repetitions (seconds)\n"
           "  --orientations K   orientations of B per configuration (default 40)\n"
           "  --repetitions R    timed repetitions of every query (default 5)\n"
           "  --block B          back-to-back calls per query in the paper-protocol experiments\n"
           "                     fig8paper and lppaper (default 50; --full: 300)\n"
           "  --only LIST        comma-separated experiments: fig8,fig9,lp,distance,scaling,"
           "coherence,\n"
           "                     fig8paper,lppaper,meshes,depth,small (only when named)\n"
           "  --depth-n N        depth experiment: the ellipsoids of n = N only (for profiling)\n"
           "  --meshes DIR       directory of the CGAL demo meshes (.off) for experiments meshes\n"
           "                     and depth\n"
           "  --out DIR          output directory for CSV and tables (default bench/out)\n"
           "  --seed S           workload seed (default 20261122)\n"
           "  --commit ID        commit recorded in the CSV headers\n"
           "  --write-pairs FILE write the fig8 pairs of --n N (default 1000) as a pair file\n"
           "  --pairs FILE       run every method on the pairs of a pair file and report\n"
           "  --smoke DIR        small end-to-end check (ctest): write, read back, run, verify\n"
           "  --list             list the methods compiled in and exit\n"
           "  --quiet            no progress line\n");
}

/* Configurations are shared between experiments: (shape, n) -> config. */
static hd_bench_config *hd_bench_get_config(hd_bench_driver *d, hd_wl_shape s, int n)
{
    for (int i = 0; i < d->config_count; ++i) {
        hd_bench_config *c = d->configs[i];
        if (c->n == n && c->shape.a == s.a && c->shape.b == s.b && c->shape.c == s.c) {
            return c;
        }
    }
    if (d->config_count == HD_BENCH_MAX_CONFIGS) {
        return NULL;
    }
    if (!d->ctx.quiet) {
        fprintf(stderr, "  placing %g:%g:%g n=%d (%d orientations)\n", s.a, s.b, s.c, n,
                d->ctx.orientations);
    }
    hd_bench_config *c = hd_bench_config_create(&d->ctx, s, n, d->ctx.orientations);
    if (c != NULL) {
        d->configs[d->config_count++] = c;
        if (!d->ctx.quiet) {
            fprintf(
                stderr,
                "    hull %d + %d vertices; t_hi verified to %.2g; smallest cos(u, normal) %.3f\n",
                c->hull[0].n, c->hull[1].n, c->max_bracket, c->min_cos);
        }
    }
    return c;
}

static int hd_bench_method_index(const hd_bench_ctx *ctx, const char *name)
{
    for (int m = 0; m < ctx->method_count; ++m) {
        if (strcmp(ctx->methods[m].name, name) == 0) {
            return m;
        }
    }
    return -1;
}

/* Fills an experiment: configurations (shapes x sizes), gaps and the methods (those compiled in).
 */
static int hd_bench_setup(hd_bench_driver *d, hd_bench_experiment *ex, const hd_wl_shape *shapes,
                          int nshapes, const int *sizes, int nsizes, const double *gaps, int ngaps,
                          const char *const *methods)
{
    ex->configs = calloc((size_t)(nshapes * nsizes), sizeof *ex->configs);
    if (ex->configs == NULL) {
        return -1;
    }
    for (int s = 0; s < nshapes; ++s) {
        for (int i = 0; i < nsizes; ++i) {
            hd_bench_config *c = hd_bench_get_config(d, shapes[s], sizes[i]);
            if (c == NULL) {
                return -1;
            }
            ex->configs[ex->config_count++] = c;
        }
    }
    for (int i = 0; i < ngaps && i < HD_BENCH_MAX_LS; ++i) {
        ex->l[ex->l_count++] = gaps[i];
    }
    for (int i = 0; methods[i] != NULL; ++i) {
        int m = hd_bench_method_index(&d->ctx, methods[i]);
        if (m >= 0) {
            ex->method[ex->method_count++] = m;
        }
    }
    ex->orientations = d->ctx.orientations;
    ex->repetitions = d->ctx.repetitions;
    return 0;
}

static const char *const hd_bench_boolean[] = {"hedra_gjk", "hedra_cddual", "ccd_gjk", "ccd_mpr",
                                               "bullet",    "fcl",          NULL};

/* The meshes experiment: pairs of CGAL demo meshes (docs/BENCHMARKS.md), all gaps of Fig. 8. */
static int hd_bench_setup_meshes(hd_bench_driver *d, hd_bench_experiment *ex, int ngaps)
{
    static const char *const pairs[][2] = {{"man", "couplingdown"},
                                           {"armadillo", "diplodocus"},
                                           {"mannequin-devil", "turbine"},
                                           {"bunny00", "refined_elephant"}};
    enum { NPAIRS = (int)(sizeof pairs / sizeof pairs[0]) };
    if (d->ctx.meshes == NULL) {
        return -1;
    }
    ex->configs = calloc(NPAIRS, sizeof *ex->configs);
    if (ex->configs == NULL || d->config_count + NPAIRS > HD_BENCH_MAX_CONFIGS) {
        return -1;
    }
    for (int p = 0; p < NPAIRS; ++p) {
        hd_bench_config *c = hd_bench_config_create_meshes(&d->ctx, d->ctx.meshes, pairs[p][0],
                                                           pairs[p][1], d->ctx.orientations);
        if (c == NULL) {
            return -1;
        }
        d->configs[d->config_count++] = c;
        ex->configs[ex->config_count++] = c;
    }
    for (int i = 0; i < ngaps && i < HD_BENCH_MAX_LS; ++i) {
        ex->l[ex->l_count++] = hd_bench_gaps[i];
    }
    for (int i = 0; hd_bench_boolean[i] != NULL; ++i) {
        int m = hd_bench_method_index(&d->ctx, hd_bench_boolean[i]);
        if (m >= 0) {
            ex->method[ex->method_count++] = m;
        }
    }
    ex->orientations = d->ctx.orientations;
    ex->repetitions = d->ctx.repetitions;
    return 0;
}

static int hd_bench_define_shuffled(hd_bench_driver *d, const char *name, hd_bench_experiment *ex)
{
    static const hd_wl_shape base = {200, 100, 100};
    static const hd_wl_shape shapes[] = {
        {200, 100, 100}, {400, 100, 100}, {800, 100, 100}, {800, 200, 50}};
    int ngaps = hd_bench_gap_count;
    memset(ex, 0, sizeof *ex);
    ex->name = name;
    if (strcmp(name, "fig8") == 0) {
        static const int sizes[] = {12, 100, 500, 1000, 5000};
        ex->title = "time per query against the gap l, shape 200:100:100, n = 12..5000 (Fig. 8)";
        return hd_bench_setup(d, ex, &base, 1, sizes, 5, hd_bench_gaps, ngaps, hd_bench_boolean);
    }
    if (strcmp(name, "small") == 0) {
        /* the physics engines' sizes (n = 8: boxes), and n = 1000 to see that nothing slowed */
        static const int sizes[] = {8, 12, 16, 32, 64, 100, 1000};
        static const char *const m[] = {"hedra_gjk", "hedra_dist", "ccd_gjk", "ccd_mpr", NULL};
        ex->title = "small hulls: n = 8 (boxes) to 1000, shape 200:100:100, boolean and distance";
        return hd_bench_setup(d, ex, &base, 1, sizes, 7, hd_bench_gaps, ngaps, m);
    }
    if (strcmp(name, "fig9") == 0) {
        static const int sizes[] = {1000};
        ex->title = "time per query against l for four ellipsoid shapes, n = 1000 (Fig. 9)";
        return hd_bench_setup(d, ex, shapes, 4, sizes, 1, hd_bench_gaps, ngaps, hd_bench_boolean);
    }
    if (strcmp(name, "meshes") == 0) {
        ex->title = "hulls of real meshes (CGAL demo data), scaled to a half-extent of 200";
        return hd_bench_setup_meshes(d, ex, ngaps);
    }
    if (strcmp(name, "lp") == 0) {
        static const int sizes[] = {12, 100, 1000};
        static const double gaps[] = {-10, -1, -0.01, 0.01, 1, 10};
        static const char *const m[] = {"hedra_lp", "glpk", "hedra_gjk", NULL};
        ex->title = "LP method: hedra LP against GLPK's simplex on the vertex LP";
        return hd_bench_setup(d, ex, &base, 1, sizes, 3, gaps, 6, m);
    }
    if (strcmp(name, "distance") == 0) {
        static const int sizes[] = {12, 100, 1000, 5000};
        static const double gaps[] = {-10, -1, -0.1, -0.01, 0, 0.01, 0.1, 1, 10, 50};
        static const char *const m[] = {"hedra_dist", "bullet_dist", "fcl_dist", NULL};
        ex->title = "distance queries: time and error against l";
        return hd_bench_setup(d, ex, &base, 1, sizes, 4, gaps, 10, m);
    }
    if (strcmp(name, "scaling") == 0) {
        static const int sizes[] = {12, 50, 100, 200, 500, 1000, 2000, 5000, 10000};
        static const double gaps[] = {-1, 1};
        /* GLPK is left out: at n = 10^4 a query takes tens of ms and allocates megabytes,
         * which would flush the caches for every other method; see the lp experiment. */
        static const char *const m[] = {"hedra_gjk",   "hedra_cddual", "hedra_lp", "ccd_gjk",
                                        "ccd_mpr",     "bullet",       "fcl",      "hedra_dist",
                                        "bullet_dist", "fcl_dist",     NULL};
        ex->title = "time against n at l = -1 and l = +1, every method";
        return hd_bench_setup(d, ex, &base, 1, sizes, 9, gaps, 2, m);
    }
    return -1;
}

/* The experiments repeated under the paper's protocol: the same configurations, gaps and methods
 * as their shuffled twin, every query timed once as the mean of a block of back-to-back calls
 * (run.c). */
static const struct {
    const char *name, *shuffled, *title;
} hd_bench_paper[] = {
    {"fig8paper", "fig8",
     "Fig. 8 under the paper's protocol: each query timed as the mean of a block of back-to-back "
     "calls"},
    {"lppaper", "lp",
     "LP method under the paper's protocol: each query timed as the mean of a block of "
     "back-to-back calls"},
};

static int hd_bench_define(hd_bench_driver *d, const char *name, hd_bench_experiment *ex)
{
    for (size_t i = 0; i < sizeof hd_bench_paper / sizeof hd_bench_paper[0]; ++i) {
        if (strcmp(name, hd_bench_paper[i].name) == 0) {
            int rc = hd_bench_define_shuffled(d, hd_bench_paper[i].shuffled, ex);
            ex->name = hd_bench_paper[i].name;
            ex->title = hd_bench_paper[i].title;
            ex->repetitions = 1;
            ex->block = d->ctx.block;
            return rc;
        }
    }
    return hd_bench_define_shuffled(d, name, ex);
}

static int hd_bench_selected(const char *only, const char *name)
{
    if (only == NULL) {
        return 1;
    }
    size_t len = strlen(name);
    for (const char *p = only; (p = strstr(p, name)) != NULL; p += len) {
        if ((p == only || p[-1] == ',') && (p[len] == '\0' || p[len] == ',')) {
            return 1;
        }
    }
    return 0;
}

/* The smoke test's second half (ctest bench_smoke): the back-to-back protocol on the LP
 * experiment, 2 orientations, blocks of 3. Fails when a hedra query is wrong or failed, or when a
 * cell of an available method does not hold one sample (the block's mean) per answered
 * orientation. */
static int hd_bench_smoke_back_to_back(hd_bench_driver *d)
{
    d->ctx.orientations = 2;
    d->ctx.block = 3;
    d->ctx.quiet = 1;
    hd_bench_experiment *ex = &d->experiments[d->experiment_count];
    if (hd_bench_define(d, "lppaper", ex) != 0) {
        fprintf(stderr, "bench_smoke: could not set up lppaper\n");
        return 1;
    }
    d->experiment_count++;
    int bad = hd_bench_run(&d->ctx, ex) != 0;
    for (int i = 0; i < ex->config_count * ex->l_count * ex->method_count; ++i) {
        const hd_bench_cell *cell = &ex->cells[i];
        int hedra = strncmp(d->ctx.methods[cell->method].name, "hedra_", 6) == 0;
        bad += hedra && (cell->wrong != 0 || cell->failed != 0);
        if (d->ctx.unavailable[cell->method]) {
            continue;
        }
        bad += cell->samples != cell->instances ||
               cell->instances + cell->failed + cell->excluded != ex->orientations;
    }
    printf("bench_smoke: back-to-back protocol (lppaper, blocks of 3): %d bad cells\n", bad);
    return bad != 0;
}

/* Median cost of an empty CLOCK_MONOTONIC-timed region. */
static double hd_bench_timer_overhead(void)
{
    enum { N = 20001 };
    static float v[N];
    for (int i = 0; i < N; ++i) {
        uint64_t t0 = hd_bench_now_ns();
        uint64_t t1 = hd_bench_now_ns();
        v[i] = (float)(t1 - t0);
    }
    return hd_bench_quantile(v, N, 0.5);
}

static int hd_bench_parse(int argc, char **argv, hd_bench_driver *d)
{
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--full") == 0) {
            d->ctx.orientations = 500, d->ctx.repetitions = 300, d->ctx.block = 300;
        } else if (strcmp(a, "--quick") == 0) {
            d->ctx.orientations = 4, d->ctx.repetitions = 2, d->ctx.block = 5;
        } else if (strcmp(a, "--quiet") == 0) {
            d->ctx.quiet = 1;
        } else if (strcmp(a, "--list") == 0) {
            d->list = 1;
        } else if (next == NULL) {
            hd_bench_usage();
            return -1;
        } else if (strcmp(a, "--orientations") == 0) {
            d->ctx.orientations = atoi(argv[++i]);
        } else if (strcmp(a, "--repetitions") == 0) {
            d->ctx.repetitions = atoi(argv[++i]);
        } else if (strcmp(a, "--block") == 0) {
            d->ctx.block = atoi(argv[++i]);
        } else if (strcmp(a, "--only") == 0) {
            d->only = argv[++i];
        } else if (strcmp(a, "--meshes") == 0) {
            d->ctx.meshes = argv[++i];
        } else if (strcmp(a, "--out") == 0) {
            d->ctx.outdir = argv[++i];
        } else if (strcmp(a, "--seed") == 0) {
            d->ctx.seed = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(a, "--commit") == 0) {
            d->ctx.commit = argv[++i];
        } else if (strcmp(a, "--write-pairs") == 0) {
            d->write_pairs = argv[++i];
        } else if (strcmp(a, "--depth-n") == 0) {
            d->depth_n = atoi(argv[++i]);
        } else if (strcmp(a, "--n") == 0) {
            d->pairs_n = atoi(argv[++i]);
        } else if (strcmp(a, "--pairs") == 0) {
            d->read_pairs = argv[++i];
        } else if (strcmp(a, "--smoke") == 0) {
            d->smoke = argv[++i];
        } else {
            hd_bench_usage();
            return -1;
        }
    }
    if (d->ctx.orientations < 1 || d->ctx.repetitions < 1 || d->ctx.block < 1) {
        fprintf(stderr, "hedra_bench: orientations, repetitions and block must be >= 1\n");
        return -1;
    }
    return 0;
}

static int hd_bench_experiments(hd_bench_driver *d)
{
    static const char *const names[] = {"fig8",    "fig9",      "meshes",  "lp",   "distance",
                                        "scaling", "fig8paper", "lppaper", "small"};
    int rc = 0;
    hd_bench_ticks t0, t1;
    hd_bench_ticks_read(&t0);
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); ++i) {
        if (!hd_bench_selected(d->only, names[i])) {
            continue;
        }
        if (strcmp(names[i], "small") == 0 && d->only == NULL) {
            continue; /* only when named: its sizes repeat fig8's at 12, 100 and 1000 */
        }
        if (strcmp(names[i], "meshes") == 0 && d->ctx.meshes == NULL) {
            fprintf(stderr, "meshes: skipped (no --meshes DIR; bench/run.sh gives it)\n");
            continue;
        }
        hd_bench_experiment *ex = &d->experiments[d->experiment_count];
        if (hd_bench_define(d, names[i], ex) != 0) {
            fprintf(stderr, "hedra_bench: could not set up %s\n", names[i]);
            return -1;
        }
        d->experiment_count++;
        if (!d->ctx.quiet) {
            fprintf(stderr, "%s: %s\n", ex->name, ex->title);
        }
        rc |= hd_bench_run(&d->ctx, ex) < 0;
        hd_bench_write_csv(&d->ctx, ex);
    }
    if (hd_bench_selected(d->only, "coherence")) {
        rc |= hd_bench_coherence(d) != 0;
    }
    if (hd_bench_selected(d->only, "depth")) {
        rc |= hd_bench_depth(d, d->ctx.meshes) != 0;
    }
    hd_bench_ticks_read(&t1);
    hd_bench_steal(&t0, &t1, &d->steal_mean, &d->steal_max);
    hd_bench_summary(d);
    return rc;
}

int main(int argc, char **argv)
{
    static hd_bench_driver d;
    d.ctx.seed = 20261122u;
    d.ctx.orientations = 40;
    d.ctx.repetitions = 5;
    d.ctx.block = 50;
    d.ctx.outdir = "bench/out";
    d.pairs_n = 1000;
    if (hd_bench_parse(argc, argv, &d) != 0) {
        return 2;
    }
    d.ctx.method_count =
        hd_bench_all_methods(d.ctx.methods, HD_BENCH_MAX_METHODS, &d.ctx.peer_notes);
    printf("hedra_bench: %s\n", d.ctx.peer_notes);
    if (d.list) {
        for (int m = 0; m < d.ctx.method_count; ++m) {
            printf("  %-13s %s\n", d.ctx.methods[m].name, d.ctx.methods[m].library);
        }
        return 0;
    }
    d.ctx.overhead_ns = hd_bench_timer_overhead();
    hd_wl_rng_init(&d.ctx.reservoir, hd_wl_seed(d.ctx.seed, 5, 5, 5));
    int rc;
    if (d.smoke != NULL) {
        rc = hd_bench_smoke(&d, d.smoke) | hd_bench_smoke_back_to_back(&d);
    } else if (d.read_pairs != NULL) {
        rc = hd_bench_pairs(&d, d.read_pairs, NULL);
    } else if (d.write_pairs != NULL) {
        rc = hd_bench_write_pairs(&d, d.write_pairs, d.pairs_n);
    } else {
        mkdir(d.ctx.outdir, 0777);
        rc = hd_bench_experiments(&d);
    }
    for (int i = 0; i < d.experiment_count; ++i) {
        hd_bench_experiment_free(&d.experiments[i]);
        free(d.experiments[i].configs);
    }
    for (int i = 0; i < d.config_count; ++i) {
        hd_bench_config_destroy(&d.ctx, d.configs[i]);
    }
    hd_bench_hedra_cleanup();
    return rc;
}
