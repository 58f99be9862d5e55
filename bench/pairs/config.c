/* Benchmark configurations: two polytopes of the same ellipsoidal shape and size (independent
 * random points), K random orientations of B, each placed along a random direction u by the exact
 * LP of placement.c. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pairs/bench.h"
#include "hedra/io.h"

uint64_t hd_bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t hd_bench_shape_id(hd_wl_shape s)
{
    return (uint64_t)llround(s.a) * 1000003u + (uint64_t)llround(s.b) * 1009u +
           (uint64_t)llround(s.c);
}

static int hd_bench_make_hull(uint64_t seed, hd_wl_shape shape, int n, hd_bench_hull *hull)
{
    double *pts = malloc(sizeof(double) * 3 * (size_t)n);
    if (pts == NULL) {
        return -1;
    }
    hd_wl_rng rng;
    hd_wl_rng_init(&rng, seed);
    hd_wl_ellipsoid_points(&rng, n, shape, pts);
    if (n == HD_BENCH_BOX_N) { /* n = 8 is the box of half sides a, b, c: a physics engine's box */
        for (int i = 0; i < n; ++i) {
            pts[3 * i] = (i & 1 ? 1 : -1) * shape.a;
            pts[3 * i + 1] = (i & 2 ? 1 : -1) * shape.b;
            pts[3 * i + 2] = (i & 4 ? 1 : -1) * shape.c;
        }
    }
    int rc = hd_bench_hull_build(pts, n, hull);
    free(pts);
    return rc;
}

/* Draws orientation k (rotation and direction) and solves its placement; a direction whose line
 * misses A - RB (possible only for tiny n) is redrawn. */
static int hd_bench_place(hd_bench_ctx *ctx, hd_bench_config *cfg, uint64_t id, int k, double *rb)
{
    const hd_bench_hull *b = &cfg->hull[1];
    char err[160];
    for (int attempt = 0; attempt < 16; ++attempt) {
        hd_wl_rng rng;
        hd_wl_rng_init(&rng, hd_wl_seed(ctx->seed, id, (uint64_t)cfg->n,
                                        1000u + (uint64_t)k + 100000u * (uint64_t)attempt));
        double u[3];
        hd_wl_random_rotation(&rng, cfg->rot[k]);
        hd_wl_rng_unit(&rng, u);
        hd_wl_transform(cfg->rot[k], NULL, b->xyz, b->n, rb);
        if (hd_pl_ray_solve(cfg->hull[0].xyz, cfg->hull[0].n, rb, b->n, u, &cfg->ray[k], err,
                            (int)sizeof err) == 0) {
            return 0;
        }
    }
    fprintf(stderr, "hedra_bench: %s orientation %d: %s\n", cfg->label, k, err);
    return -1;
}

static int hd_bench_make_handles(hd_bench_ctx *ctx, hd_bench_config *cfg)
{
    for (int side = 0; side < 2; ++side) {
        hd_bench_shape shape = {cfg->hull[side].xyz, cfg->hull[side].n, cfg->hull[side].tris,
                                cfg->hull[side].ntris};
        for (int m = 0; m < ctx->method_count; ++m) {
            cfg->handle[side][m] = ctx->methods[m].create(&shape);
            if (cfg->handle[side][m] == NULL) {
                fprintf(stderr, "hedra_bench: %s could not build %s\n", ctx->methods[m].name,
                        cfg->label);
                return -1;
            }
        }
    }
    return 0;
}

/* Places every orientation of cfg (hulls made) and creates the method handles. */
static hd_bench_config *hd_bench_config_finish(hd_bench_ctx *ctx, hd_bench_config *cfg, int ok,
                                               int place, uint64_t id, double extent)
{
    double *rb = ok ? malloc(sizeof(double) * 3 * (size_t)cfg->hull[1].n) : NULL;
    ok = ok && rb != NULL;
    cfg->min_cos = 1.0;
    for (int k = 0; ok && place && k < cfg->orientations; ++k) {
        ok = hd_bench_place(ctx, cfg, id, k, rb) == 0;
        cfg->max_bracket = fmax(cfg->max_bracket, cfg->ray[k].bracket);
        cfg->min_cos = fmin(cfg->min_cos, cfg->ray[k].cos_hi);
    }
    free(rb);
    cfg->scale = 3.0 * extent;
    if (!ok || hd_bench_make_handles(ctx, cfg) != 0) {
        hd_bench_config_destroy(ctx, cfg);
        return NULL;
    }
    return cfg;
}

/* The hull of a mesh file's vertices (read with hedra's reader), centred on its bounding box and
 * scaled to a largest half side of 200, the ellipsoids' semi-major axis. */
static int hd_bench_mesh_hull(const char *path, hd_bench_hull *hull)
{
    hd_points pts;
    if (hd_read_points(path, HD_FORMAT_AUTO, &pts, NULL) != HD_OK) {
        fprintf(stderr, "hedra_bench: cannot read %s\n", path);
        return -1;
    }
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < 3 * pts.count; ++i) {
        lo[i % 3] = fmin(lo[i % 3], pts.xyz[i]);
        hi[i % 3] = fmax(hi[i % 3], pts.xyz[i]);
    }
    double half = 0.5 * fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    for (int i = 0; i < 3 * pts.count; ++i) {
        pts.xyz[i] = (pts.xyz[i] - 0.5 * (lo[i % 3] + hi[i % 3])) * (200.0 / half);
    }
    int rc = hd_bench_hull_build(pts.xyz, pts.count, hull);
    hd_points_free(&pts);
    return rc;
}

hd_bench_config *hd_bench_config_create_meshes(hd_bench_ctx *ctx, const char *dir,
                                               const char *name_a, const char *name_b,
                                               int orientations)
{
    hd_bench_config *cfg = calloc(1, sizeof *cfg);
    if (cfg == NULL) {
        return NULL;
    }
    char path[2][1024];
    snprintf(path[0], sizeof path[0], "%s/%s.off", dir, name_a);
    snprintf(path[1], sizeof path[1], "%s/%s.off", dir, name_b);
    cfg->orientations = orientations;
    cfg->rot = malloc(sizeof *cfg->rot * (size_t)(orientations > 0 ? orientations : 1));
    cfg->ray = calloc((size_t)(orientations > 0 ? orientations : 1), sizeof *cfg->ray);
    int ok = cfg->rot != NULL && cfg->ray != NULL &&
             hd_bench_mesh_hull(path[0], &cfg->hull[0]) == 0 &&
             hd_bench_mesh_hull(path[1], &cfg->hull[1]) == 0;
    if (ok) {
        snprintf(cfg->label, sizeof cfg->label, "%s %d x %s %d", name_a, cfg->hull[0].n, name_b,
                 cfg->hull[1].n);
        cfg->n = cfg->hull[0].n;
        cfg->shape.a = cfg->shape.b = cfg->shape.c = 200;
    }
    uint64_t id = 7000001u + (uint64_t)strlen(name_a) * 131u + (uint64_t)(unsigned char)name_b[0];
    return hd_bench_config_finish(ctx, cfg, ok, 1, id, 200.0);
}

static hd_bench_config *hd_bench_config_new(hd_bench_ctx *ctx, hd_wl_shape shape, int n,
                                            int orientations, int place)
{
    hd_bench_config *cfg = calloc(1, sizeof *cfg);
    if (cfg == NULL) {
        return NULL;
    }
    snprintf(cfg->label, sizeof cfg->label, "%g:%g:%g n=%d", shape.a, shape.b, shape.c, n);
    cfg->shape = shape;
    cfg->n = n;
    cfg->orientations = orientations;
    uint64_t id = hd_bench_shape_id(shape);
    cfg->rot = malloc(sizeof *cfg->rot * (size_t)(orientations > 0 ? orientations : 1));
    cfg->ray = calloc((size_t)(orientations > 0 ? orientations : 1), sizeof *cfg->ray);
    int ok =
        cfg->rot != NULL && cfg->ray != NULL &&
        hd_bench_make_hull(hd_wl_seed(ctx->seed, id, (uint64_t)n, 0), shape, n, &cfg->hull[0]) ==
            0 &&
        hd_bench_make_hull(hd_wl_seed(ctx->seed, id, (uint64_t)n, 1), shape, n, &cfg->hull[1]) == 0;
    return hd_bench_config_finish(ctx, cfg, ok, place, id, fmax(shape.a, fmax(shape.b, shape.c)));
}

hd_bench_config *hd_bench_config_create(hd_bench_ctx *ctx, hd_wl_shape shape, int n,
                                        int orientations)
{
    return hd_bench_config_new(ctx, shape, n, orientations, 1);
}

hd_bench_config *hd_bench_config_create_unplaced(hd_bench_ctx *ctx, hd_wl_shape shape, int n,
                                                 int orientations)
{
    return hd_bench_config_new(ctx, shape, n, orientations, 0);
}

int hd_bench_config_place(hd_bench_config *cfg, int k, const double r[9], const double u[3])
{
    const hd_bench_hull *b = &cfg->hull[1];
    double *rb = malloc(sizeof(double) * 3 * (size_t)b->n);
    if (rb == NULL) {
        return -1;
    }
    char err[160];
    memcpy(cfg->rot[k], r, sizeof cfg->rot[k]);
    hd_wl_transform(r, NULL, b->xyz, b->n, rb);
    int rc = hd_pl_ray_solve(cfg->hull[0].xyz, cfg->hull[0].n, rb, b->n, u, &cfg->ray[k], err,
                             (int)sizeof err);
    free(rb);
    if (rc != 0) {
        fprintf(stderr, "hedra_bench: %s frame %d: %s\n", cfg->label, k, err);
    }
    return rc;
}

void hd_bench_config_destroy(hd_bench_ctx *ctx, hd_bench_config *cfg)
{
    if (cfg == NULL) {
        return;
    }
    for (int side = 0; side < 2; ++side) {
        for (int m = 0; m < ctx->method_count; ++m) {
            if (cfg->handle[side][m] != NULL) {
                ctx->methods[m].destroy(cfg->handle[side][m]);
            }
        }
        hd_bench_hull_free(&cfg->hull[side]);
    }
    free(cfg->rot);
    free(cfg->ray);
    free(cfg);
}

void hd_bench_pose_at(const hd_bench_config *cfg, int k, double l, hd_bench_pose *pose)
{
    const hd_pl_ray *ray = &cfg->ray[k];
    memcpy(pose->r, cfg->rot[k], sizeof pose->r);
    double t = ray->t_hi + l;
    for (int i = 0; i < 3; ++i) {
        pose->t[i] = t * ray->u[i];
    }
}

void hd_bench_posed_b(const hd_bench_config *cfg, int k, double l, double *out)
{
    hd_bench_pose pose;
    hd_bench_pose_at(cfg, k, l, &pose);
    hd_wl_transform(pose.r, pose.t, cfg->hull[1].xyz, cfg->hull[1].n, out);
}

int hd_bench_expected(double l)
{
    return l > 0.0 ? 0 : l < 0.0 ? 2 : 1;
}

/* Away from l = 0 the placement decides (the gap is at least 1e-5 of the size, far outside every
 * method's tolerance). At l = 0 the pair touches to within rounding: hedra, whose touching band
 * is 1e-12 of the size, must say "touching"; a method without a touching answer may say either. */
int hd_bench_is_wrong(const hd_bench_method *m, double l, int verdict)
{
    if (l != 0.0) {
        return verdict != hd_bench_expected(l);
    }
    if (strncmp(m->name, "hedra_", 6) == 0) {
        return verdict != 1;
    }
    return 0;
}
