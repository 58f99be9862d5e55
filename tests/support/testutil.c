/* Shared helpers of the test suite; see testutil.h. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tolerances.h"
#include "testutil.h"

#define HD_TEST_DEFAULT_SEED 20261122u

uint64_t hd_test_seed(const char *program)
{
    const char *env = getenv("HEDRA_SEED");
    uint64_t seed = HD_TEST_DEFAULT_SEED;
    if (env != NULL && *env != '\0') {
        seed = strtoull(env, NULL, 10);
    }
    printf("%s: seed: %" PRIu64 " (set HEDRA_SEED to reproduce)\n", program ? program : "test",
           seed);
    fflush(stdout);
    return seed;
}

/* splitmix64: a small, well-distributed generator with a 64-bit state. */
void hd_rng_init(hd_rng *rng, uint64_t seed)
{
    rng->state = seed;
}

uint64_t hd_rng_next(hd_rng *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double hd_rng_uniform(hd_rng *rng, double lo, double hi)
{
    double u = (double)(hd_rng_next(rng) >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * u;
}

int hd_rng_int(hd_rng *rng, int n)
{
    return n <= 0 ? 0 : (int)(hd_rng_next(rng) % (uint64_t)n);
}

double hd_rng_normal(hd_rng *rng)
{
    double u = hd_rng_uniform(rng, 0x1.0p-53, 1.0);
    double v = hd_rng_uniform(rng, 0.0, 1.0);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

void hd_rng_unit_vector(hd_rng *rng, double out[3])
{
    double len;
    do {
        out[0] = hd_rng_normal(rng);
        out[1] = hd_rng_normal(rng);
        out[2] = hd_rng_normal(rng);
        len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    } while (len < 1e-6);
    out[0] /= len;
    out[1] /= len;
    out[2] /= len;
}

hd_pose hd_rng_pose(hd_rng *rng, const double t[3])
{
    double q[4];
    double len;
    do {
        for (int i = 0; i < 4; ++i) {
            q[i] = hd_rng_normal(rng);
        }
        len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    } while (len < 1e-6);
    hd_pose pose;
    double zero[3] = {0, 0, 0};
    hd_pose_from_quaternion(q, t ? t : zero, &pose);
    return pose;
}

void hd_points_ellipsoid(hd_rng *rng, int n, double ax, double ay, double az, double *xyz)
{
    for (int i = 0; i < n; ++i) {
        double u[3];
        hd_rng_unit_vector(rng, u);
        xyz[3 * i + 0] = ax * u[0];
        xyz[3 * i + 1] = ay * u[1];
        xyz[3 * i + 2] = az * u[2];
    }
}

void hd_points_cloud(hd_rng *rng, int n, double hx, double hy, double hz, double *xyz)
{
    for (int i = 0; i < n; ++i) {
        xyz[3 * i + 0] = hd_rng_uniform(rng, -hx, hx);
        xyz[3 * i + 1] = hd_rng_uniform(rng, -hy, hy);
        xyz[3 * i + 2] = hd_rng_uniform(rng, -hz, hz);
    }
}

void hd_points_box(const double lo[3], const double hi[3], double xyz[24])
{
    for (int i = 0; i < 8; ++i) {
        xyz[3 * i + 0] = (i & 1) ? hi[0] : lo[0];
        xyz[3 * i + 1] = (i & 2) ? hi[1] : lo[1];
        xyz[3 * i + 2] = (i & 4) ? hi[2] : lo[2];
    }
}

void hd_points_prism(int k, double half_height, double *xyz)
{
    for (int j = 0; j < k; ++j) {
        double t = 2 * HD_PI * j / k;
        for (int z = 0; z < 2; ++z) {
            double *q = xyz + 3 * (2 * j + z);
            q[0] = cos(t);
            q[1] = sin(t);
            q[2] = z ? half_height : -half_height;
        }
    }
}

hd_pose hd_test_translation(double x, double y, double z)
{
    hd_pose p = hd_pose_identity();
    p.t[0] = x;
    p.t[1] = y;
    p.t[2] = z;
    return p;
}

hd_polytope *hd_test_build(const double *xyz, int n)
{
    hd_polytope *p = NULL;
    hd_status st = hd_polytope_build(xyz, n, NULL, &p);
    if (st != HD_OK) {
        printf("hd_polytope_build failed: %s\n", hd_status_str(st));
        return NULL;
    }
    return p;
}

hd_scene *hd_test_scene(hd_broadphase bp)
{
    hd_scene_options so = hd_scene_options_default();
    so.broadphase = bp;
    so.threads = 1;
    hd_scene *sc = NULL;
    hd_status st = hd_scene_create(&so, &sc);
    if (st != HD_OK) {
        printf("hd_scene_create failed: %s\n", hd_status_str(st));
    }
    return sc;
}

static void write_posed(FILE *fp, const char *label, const double *xyz, int n, const hd_pose *pose)
{
    fprintf(fp, "%s %d\n", label, n);
    for (int i = 0; i < n; ++i) {
        double p[3];
        if (pose != NULL) {
            hd_pose_apply(pose, xyz + 3 * i, p);
        } else {
            memcpy(p, xyz + 3 * i, sizeof p);
        }
        fprintf(fp, "%.17g %.17g %.17g\n", p[0], p[1], p[2]);
    }
}

void hd_test_dump_pair(const char *tag, const double *a, int na, const hd_pose *pa, const double *b,
                       int nb, const hd_pose *pb)
{
    static int counter = 0;
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/hedra-fail-%s-%d.pair", dir ? dir : "/tmp", tag, counter++);
    FILE *fp = fopen(path, "w");
    if (fp == NULL) {
        printf("could not write %s\n", path);
        return;
    }
    fprintf(fp, "# failing case from the test suite (world coordinates)\npair %s\n", tag);
    write_posed(fp, "A", a, na, pa);
    write_posed(fp, "B", b, nb, pb);
    fclose(fp);
    printf("failing pair written to %s\n", path);
}

void hd_test_ellipsoid_pair(hd_rng *rng, int n, hd_polytope **a, hd_polytope **b)
{
    hd_rng r;
    hd_rng_init(&r, hd_rng_next(rng));
    double *xyz = malloc(3 * sizeof(double) * (size_t)n);
    *a = *b = NULL;
    if (xyz == NULL) {
        return;
    }
    hd_points_ellipsoid(&r, n, 200, 100, 100, xyz);
    *a = hd_test_build(xyz, n);
    hd_points_ellipsoid(&r, n, 200, 100, 100, xyz);
    *b = hd_test_build(xyz, n);
    free(xyz);
}

double hd_test_band_fuzz(double eps)
{
    return HD_CHECK_ROUNDING_UNITS * DBL_EPSILON * (eps / HD_DEFAULT_TOUCH_REL);
}
