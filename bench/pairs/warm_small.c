/* hedra_warm_small: frame-coherent GJK queries on one pair of small hulls, cold (no cache) and
 * warm (the hd_cache of the previous frame), for the warm-start figures of issue 44. A and B are
 * hulls of n points on an ellipsoid of semi-axes 1, 0.8, 0.6 (n = 8: the corners of the box of
 * those half sides); B turns about a fixed axis by 0.005 rad per frame while its centre runs
 * along a fixed direction at 1.6 + 0.6 cos(2 pi f / 400) (a move of at most 0.5 % of the size per
 * frame), passing through contact four times per 1 000 frames; SPEED (default 1) multiplies the
 * turn and the run per frame (SPEED 2: up to 1 % of the size).
 *     hedra_warm_small N FRAMES gjk|dist cold|warm count [R [SPEED]]   one pass over the frames
 *         (for callgrind --toggle-collect=hd_warm_query), with the mean iterations per query
 *     hedra_warm_small N FRAMES gjk|dist cold|warm time R [SPEED]      the median over R passes,
 *         ns/query
 * Exit status 1 on a build or query error. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hedra/hedra.h>

#define MAX_FRAMES 100000

static hd_polytope *poly_a, *poly_b;
static hd_pose poses[MAX_FRAMES];
static long iterations;

static double uniform(unsigned long long *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* n points on the ellipsoid (uniform directions), or the box's corners at n = 8. */
static hd_polytope *make_hull(int n, unsigned long long seed)
{
    double *xyz = malloc(sizeof(double) * 3 * (size_t)n);
    static const double axes[3] = {1.0, 0.8, 0.6};
    for (int i = 0; i < n; ++i) {
        double u[3], len = 0.0;
        for (int k = 0; k < 3; ++k) {
            u[k] = n == 8 ? ((i >> k) & 1 ? 1.0 : -1.0) : 2.0 * uniform(&seed) - 1.0;
            len += u[k] * u[k];
        }
        len = n == 8 ? 1.0 : sqrt(len);
        for (int k = 0; k < 3; ++k) {
            xyz[3 * i + k] = axes[k] * u[k] / len;
        }
    }
    hd_polytope *p = NULL;
    hd_status st = hd_polytope_build(xyz, n, NULL, &p);
    free(xyz);
    return st == HD_OK ? p : NULL;
}

static void make_poses(int frames, double speed)
{
    const double axis[3] = {0.48, 0.6, 0.64}, dir[3] = {0.8, -0.36, 0.48};
    for (int f = 0; f < frames; ++f) {
        double angle = 0.3 + 0.005 * speed * f, s = sin(0.5 * angle);
        double q[4] = {cos(0.5 * angle), s * axis[0], s * axis[1], s * axis[2]};
        double reach = 1.6 + 0.6 * cos(6.283185307179586 * speed * f / 400.0);
        double t[3] = {reach * dir[0], reach * dir[1], reach * dir[2]};
        hd_pose_from_quaternion(q, t, &poses[f]);
    }
}

/* One query of frame f; not inlined: callgrind counts it (--toggle-collect=hd_warm_query). */
__attribute__((noinline)) int hd_warm_query(int dist, hd_cache *cache, int f);
__attribute__((noinline)) int hd_warm_query(int dist, hd_cache *cache, int f)
{
    hd_options opt = hd_options_default();
    opt.cache = cache;
    hd_status st;
    if (dist) {
        hd_distance_result r;
        st = hd_distance(poly_a, NULL, poly_b, &poses[f], &opt, &r);
        iterations += r.stats.iterations;
    } else {
        hd_collide_result r;
        st = hd_collide(poly_a, NULL, poly_b, &poses[f], &opt, &r);
        iterations += r.stats.iterations;
    }
    return st == HD_OK ? 0 : 1;
}

static int pass(int dist, int warm, int frames)
{
    hd_cache cache = HD_CACHE_INIT;
    int failed = 0;
    for (int f = 0; f < frames; ++f) {
        failed |= hd_warm_query(dist, warm ? &cache : NULL, f);
    }
    return failed;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

static int compare(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr,
                "usage: hedra_warm_small N FRAMES gjk|dist cold|warm count|time [R [SPEED]]\n");
        return 2;
    }
    int n = atoi(argv[1]), frames = atoi(argv[2]);
    int dist = strcmp(argv[3], "dist") == 0, warm = strcmp(argv[4], "warm") == 0;
    int rounds = argc > 6 ? atoi(argv[6]) : 11;
    double speed = argc > 7 ? atof(argv[7]) : 1.0;
    if (n < 4 || frames < 1 || frames > MAX_FRAMES || rounds < 1 || rounds > 1000 ||
        !(speed > 0.0 && speed <= 100.0)) {
        fprintf(stderr, "hedra_warm_small: bad arguments\n");
        return 2;
    }
    poly_a = make_hull(n, 11);
    poly_b = make_hull(n, 12);
    if (poly_a == NULL || poly_b == NULL) {
        fprintf(stderr, "hedra_warm_small: hull build failed\n");
        return 1;
    }
    make_poses(frames, speed);
    int failed = pass(dist, warm, frames);
    double iter = (double)iterations / frames;
    if (strcmp(argv[5], "time") == 0) {
        double *ns = malloc(sizeof(double) * (size_t)rounds);
        for (int r = 0; r < rounds; ++r) {
            double t0 = now_ns();
            failed |= pass(dist, warm, frames);
            ns[r] = (now_ns() - t0) / frames;
        }
        qsort(ns, (size_t)rounds, sizeof *ns, compare);
        printf("n %d %s %s: %.1f ns/query (median of %d), %.2f iterations/query\n", n, argv[3],
               argv[4], ns[rounds / 2], rounds, iter);
        free(ns);
    } else {
        printf("n %d %s %s: %.2f iterations/query\n", n, argv[3], argv[4], iter);
    }
    hd_polytope_destroy(poly_a);
    hd_polytope_destroy(poly_b);
    return failed;
}
