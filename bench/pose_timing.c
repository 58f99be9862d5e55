/* hedra_pose_timing: the C side of the Python package's benchmark (bench/python_bench.py). Times
 * hd_collide on one pair of polytopes over a sequence of poses of B, read from files, so that the
 * Python calls and the C calls answer exactly the same pairs:
 *     hedra_pose_timing A.xyz B.xyz poses.txt [repetitions] [algo]
 * poses.txt holds one pose of B per line, "qw qx qy qz tx ty tz" (A stays at the identity). Each
 * repetition runs the whole sequence twice, cold (no cache) and warm (one hd_cache carried along
 * the sequence, as collide_many does within a chunk), with the poses already converted. Output:
 *     cold <median ns per pair> <min> <max>
 *     warm <median ns per pair> <min> <max>
 *     verdicts <separated> <touching> <intersecting>
 * Exit status 1 on a file or query error. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hedra/hedra.h>

#define MAX_REPS 1000

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static hd_polytope *load(const char *path)
{
    hd_points pts;
    hd_parse_error err;
    hd_polytope *poly = NULL;
    hd_status st = hd_read_points(path, HD_FORMAT_XYZ, &pts, &err);
    if (st != HD_OK) {
        char msg[600];
        hd_parse_error_format(&err, msg, (int)sizeof msg);
        fprintf(stderr, "%s\n", msg);
        return NULL;
    }
    st = hd_polytope_build(pts.xyz, pts.count, NULL, &poly);
    hd_points_free(&pts);
    if (st != HD_OK) {
        fprintf(stderr, "%s: %s\n", path, hd_status_str(st));
    }
    return poly;
}

/* Reads "qw qx qy qz tx ty tz" lines into a new array of poses; *count set. */
static hd_pose *load_poses(const char *path, int *count)
{
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        perror(path);
        return NULL;
    }
    int cap = 1024, n = 0;
    hd_pose *poses = malloc((size_t)cap * sizeof *poses);
    double v[7];
    while (poses != NULL && fscanf(fp, "%lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3],
                                   &v[4], &v[5], &v[6]) == 7) {
        if (n == cap) {
            hd_pose *grown = realloc(poses, (size_t)(cap *= 2) * sizeof *poses);
            if (grown == NULL) {
                break;
            }
            poses = grown;
        }
        if (hd_pose_from_quaternion(v, v + 4, &poses[n++]) != HD_OK) {
            fprintf(stderr, "%s: pose %d is not valid\n", path, n - 1);
            n = -1;
            break;
        }
    }
    fclose(fp);
    if (n <= 0) {
        free(poses);
        return NULL;
    }
    *count = n;
    return poses;
}

/* One pass over the sequence: ns per pair, or a negative value on a query error. */
static double pass(const hd_polytope *a, const hd_polytope *b, const hd_pose *poses, int n,
                   hd_options opt, int warm, int counts[3])
{
    hd_cache cache = HD_CACHE_INIT;
    opt.cache = warm ? &cache : NULL;
    hd_collide_result r;
    double t0 = now_ns();
    for (int i = 0; i < n; ++i) {
        if (hd_collide(a, NULL, b, &poses[i], &opt, &r) != HD_OK) {
            return -1.0;
        }
        counts[r.verdict]++;
    }
    return (now_ns() - t0) / n;
}

static void report(const char *name, double *t, int reps)
{
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    double median = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    printf("%s %.2f %.2f %.2f\n", name, median, t[0], t[reps - 1]);
}

static int run(const hd_polytope *a, const hd_polytope *b, const hd_pose *poses, int n, int reps,
               hd_options opt)
{
    double cold[MAX_REPS], warm[MAX_REPS];
    int counts[3] = {0, 0, 0}, ignored[3] = {0, 0, 0};
    for (int k = 0; k < reps; ++k) {
        cold[k] = pass(a, b, poses, n, opt, 0, k == 0 ? counts : ignored);
        warm[k] = pass(a, b, poses, n, opt, 1, ignored);
        if (cold[k] < 0 || warm[k] < 0) {
            fprintf(stderr, "a query failed\n");
            return 1;
        }
    }
    report("cold", cold, reps);
    report("warm", warm, reps);
    printf("verdicts %d %d %d\n", counts[0], counts[1], counts[2]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 6) {
        fprintf(stderr, "usage: %s A.xyz B.xyz poses.txt [repetitions] [gjk|cddual|lp]\n", argv[0]);
        return 2;
    }
    int reps = argc > 4 ? atoi(argv[4]) : 21;
    hd_options opt = hd_options_default();
    if (reps < 1 || reps > MAX_REPS || (argc > 5 && hd_algo_parse(argv[5], &opt.algo) != HD_OK)) {
        fprintf(stderr, "bad repetitions (1..%d) or algorithm\n", MAX_REPS);
        return 2;
    }
    int n = 0;
    hd_polytope *a = load(argv[1]), *b = load(argv[2]);
    hd_pose *poses = load_poses(argv[3], &n);
    int rc = (a && b && poses) ? run(a, b, poses, n, reps, opt) : 1;
    free(poses);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    return rc;
}
