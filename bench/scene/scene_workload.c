/* The scene workload (scene_workload.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_workload.h"
#include "common/workload.h"

#define HD_SW_PI 3.14159265358979323846

hd_sw_params hd_sw_defaults(int bodies)
{
    hd_sw_params p;
    memset(&p, 0, sizeof p);
    p.bodies = bodies;
    p.frames = 10;
    p.seed = 20261122u;
    p.density = 0.004;
    p.moving = 0.25;
    p.step = 0.02;
    p.spin = 0.02;
    p.shape_count = 32;
    p.min_vertices = 8;
    p.max_vertices = 100;
    return p;
}

/* A uniformly random unit quaternion (Shoemake, "Uniform random rotations", Graphics Gems III). */
static void random_quaternion(hd_wl_rng *rng, double q[4])
{
    double u1 = hd_wl_rng_uniform(rng), u2 = hd_wl_rng_uniform(rng), u3 = hd_wl_rng_uniform(rng);
    double a = sqrt(1.0 - u1), b = sqrt(u1);
    q[0] = a * sin(2.0 * HD_SW_PI * u2);
    q[1] = a * cos(2.0 * HD_SW_PI * u2);
    q[2] = b * sin(2.0 * HD_SW_PI * u3);
    q[3] = b * cos(2.0 * HD_SW_PI * u3);
}

/* out = a b (Hamilton product; out may not alias). */
static void quat_mul(const double a[4], const double b[4], double out[4])
{
    out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

void hd_sw_free(hd_sw_scene *s)
{
    for (int i = 0; s->shape_xyz != NULL && i < s->p.shape_count; ++i) {
        free(s->shape_xyz[i]);
    }
    free(s->shape_xyz);
    free(s->shape_n);
    free(s->body_shape);
    free(s->q0);
    free(s->t0);
    free(s->movers);
    free(s->velocity);
    free(s->axis);
    memset(s, 0, sizeof *s);
}

static int make_shapes(hd_sw_scene *s, hd_wl_rng *rng)
{
    const hd_sw_params *p = &s->p;
    s->shape_n = calloc((size_t)p->shape_count, sizeof *s->shape_n);
    s->shape_xyz = calloc((size_t)p->shape_count, sizeof *s->shape_xyz);
    if (s->shape_n == NULL || s->shape_xyz == NULL) {
        return -1;
    }
    for (int i = 0; i < p->shape_count; ++i) {
        int span = p->max_vertices - p->min_vertices + 1;
        int n = p->min_vertices + (span > 1 ? hd_wl_rng_int(rng, span) : 0);
        hd_wl_shape e = {0.5 + 0.5 * hd_wl_rng_uniform(rng), 0.5 + 0.5 * hd_wl_rng_uniform(rng),
                         0.5 + 0.5 * hd_wl_rng_uniform(rng)};
        s->shape_n[i] = n;
        s->shape_xyz[i] = malloc((size_t)n * 3 * sizeof(double));
        if (s->shape_xyz[i] == NULL) {
            return -1;
        }
        hd_wl_ellipsoid_points(rng, n, e, s->shape_xyz[i]);
    }
    return 0;
}

static int make_bodies(hd_sw_scene *s, hd_wl_rng *rng)
{
    int n = s->p.bodies;
    s->body_shape = malloc((size_t)n * sizeof *s->body_shape);
    s->q0 = malloc((size_t)n * 4 * sizeof *s->q0);
    s->t0 = malloc((size_t)n * 3 * sizeof *s->t0);
    if (s->body_shape == NULL || s->q0 == NULL || s->t0 == NULL) {
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        s->body_shape[i] = hd_wl_rng_int(rng, s->p.shape_count);
        random_quaternion(rng, s->q0 + 4 * i);
        for (int k = 0; k < 3; ++k) {
            s->t0[3 * i + k] = s->side * hd_wl_rng_uniform(rng);
        }
    }
    return 0;
}

/* A fixed random subset (each body with probability `moving`), with directions and axes. */
static int make_movers(hd_sw_scene *s, hd_wl_rng *rng)
{
    int n = s->p.bodies;
    s->movers = malloc((size_t)n * sizeof *s->movers + 1);
    s->velocity = malloc((size_t)n * 3 * sizeof *s->velocity + 1);
    s->axis = malloc((size_t)n * 3 * sizeof *s->axis + 1);
    if (s->movers == NULL || s->velocity == NULL || s->axis == NULL) {
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        if (hd_wl_rng_uniform(rng) >= s->p.moving) {
            continue;
        }
        int m = s->mover_count++;
        s->movers[m] = i;
        hd_wl_rng_unit(rng, s->velocity + 3 * m);
        for (int k = 0; k < 3; ++k) {
            s->velocity[3 * m + k] *= s->p.step;
        }
        hd_wl_rng_unit(rng, s->axis + 3 * m);
    }
    return 0;
}

int hd_sw_generate(const hd_sw_params *p, hd_sw_scene *out)
{
    memset(out, 0, sizeof *out);
    out->p = *p;
    out->side = cbrt((double)p->bodies / p->density);
    hd_wl_rng rng;
    hd_wl_rng_init(&rng, p->seed);
    if (make_shapes(out, &rng) != 0 || make_bodies(out, &rng) != 0 || make_movers(out, &rng) != 0) {
        hd_sw_free(out);
        return -1;
    }
    return 0;
}

void hd_sw_mover_pose(const hd_sw_scene *s, int m, int f, double q[4], double t[3])
{
    int b = s->movers[m];
    double half = 0.5 * s->p.spin * f, sn = sin(half);
    const double *k = s->axis + 3 * m;
    double turn[4] = {cos(half), sn * k[0], sn * k[1], sn * k[2]};
    quat_mul(turn, s->q0 + 4 * b, q);
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; ++i) {
        q[i] /= len;
    }
    for (int i = 0; i < 3; ++i) {
        t[i] = s->t0[3 * b + i] + f * s->velocity[3 * m + i];
    }
}

static int write_pose(FILE *fp, const double q[4], const double t[3])
{
    return fprintf(fp, " %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", q[0], q[1], q[2], q[3], t[0],
                   t[1], t[2]) < 0;
}

static int write_shapes(FILE *fp, const hd_sw_scene *s)
{
    int bad = 0;
    for (int i = 0; i < s->p.shape_count && !bad; ++i) {
        bad |= fprintf(fp, "shape s%d\nP %d\n", i, s->shape_n[i]) < 0;
        for (int j = 0; j < s->shape_n[i] && !bad; ++j) {
            const double *v = s->shape_xyz[i] + 3 * j;
            bad |= fprintf(fp, "%.17g %.17g %.17g\n", v[0], v[1], v[2]) < 0;
        }
    }
    return bad;
}

/* Frame f's churn: removals of present bodies, then additions named from *next. */
static int write_churn(FILE *fp, const hd_sw_scene *s, hd_wl_rng *rng, char *present, int *next)
{
    int bad = 0;
    for (int k = 0; k < s->p.churn && !bad; ++k) {
        int b = hd_wl_rng_int(rng, *next);
        if (present[b]) {
            present[b] = 0;
            bad |= fprintf(fp, "remove b%d\n", b) < 0;
        }
    }
    for (int k = 0; k < s->p.churn && !bad; ++k) {
        double q[4], t[3];
        random_quaternion(rng, q);
        for (int i = 0; i < 3; ++i) {
            t[i] = s->side * hd_wl_rng_uniform(rng);
        }
        present[*next] = 1;
        bad |= fprintf(fp, "body b%d s%d", (*next)++, hd_wl_rng_int(rng, s->p.shape_count)) < 0;
        bad |= write_pose(fp, q, t);
    }
    return bad;
}

int hd_sw_write(FILE *fp, const hd_sw_scene *s)
{
    int n = s->p.bodies, total = n + s->p.churn * (s->p.frames > 0 ? s->p.frames : 0);
    char *present = calloc((size_t)total + 1, 1);
    if (present == NULL) {
        return -1;
    }
    hd_wl_rng rng;
    hd_wl_rng_init(&rng, s->p.seed ^ 0x5ce4eull);
    int bad = fprintf(fp, "# hedra scene: %d bodies, %d frames, density %g, seed %llu\n", n,
                      s->p.frames, s->p.density, (unsigned long long)s->p.seed) < 0;
    bad |= write_shapes(fp, s);
    for (int i = 0; i < n && !bad; ++i) {
        present[i] = 1;
        bad |= fprintf(fp, "body b%d s%d", i, s->body_shape[i]) < 0;
        bad |= write_pose(fp, s->q0 + 4 * i, s->t0 + 3 * i);
    }
    int next = n;
    for (int f = 1; f < s->p.frames && !bad; ++f) {
        bad |= fprintf(fp, "frame\n") < 0;
        for (int m = 0; m < s->mover_count && !bad; ++m) {
            double q[4], t[3];
            if (present[s->movers[m]]) {
                hd_sw_mover_pose(s, m, f, q, t);
                bad |= fprintf(fp, "move b%d", s->movers[m]) < 0;
                bad |= write_pose(fp, q, t);
            }
        }
        bad |= write_churn(fp, s, &rng, present, &next);
    }
    free(present);
    return bad ? -1 : 0;
}
