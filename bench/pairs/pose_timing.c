/* hedra_pose_timing: the C side of the Python package's benchmark (bench/tools/python_bench.py).
 * Times hd_collide on one pair of polytopes over a sequence of poses of B, read from files, so that
 * the Python calls and the C calls answer exactly the same pairs: hedra_pose_timing A.xyz B.xyz
 * poses.txt [repetitions] [algo | sd | sdgrad] sd and sdgrad time hd_signed_distance instead
 * (sdgrad with HD_QUERY_GRADIENT), with a workspace of hd_contact_workspace_capacity above 64
 * vertices in the pair, as signed_distance_many does (bench/tools/python_sd_bench.py); they also
 * print "sum <the signed distances' sum>" of a cold pass, in pose order, so that the Python side
 * can check it has the same bits. poses.txt holds one pose of B per line, "qw qx qy qz tx ty tz" (A
 * stays at the identity). Each repetition runs the whole sequence twice, cold (no cache) and warm
 * (one hd_cache carried along the sequence, as collide_many does within a chunk), with the poses
 * already converted. Output: cold <median ns per pair> <min> <max> warm <median ns per pair> <min>
 * <max> verdicts <separated> <touching> <intersecting> Exit status 1 on a file or query error. */
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

/* Signed distances instead of hd_collide (the sd and sdgrad modes); sum of a cold pass. */
static int signed_mode = 0;
static double signed_sum = 0.0;

/* One pair: its verdict, or -1 on a query error. */
static int query(const hd_polytope *a, const hd_polytope *b, const hd_pose *pose,
                 const hd_options *opt, double *delta)
{
    if (signed_mode) {
        hd_signed_distance_result r;
        if (hd_signed_distance(a, NULL, b, pose, opt, &r) != HD_OK) {
            return -1;
        }
        *delta = r.signed_distance;
        return (int)r.verdict;
    }
    hd_collide_result r;
    return hd_collide(a, NULL, b, pose, opt, &r) == HD_OK ? (int)r.verdict : -1;
}

/* One pass over the sequence: ns per pair, or a negative value on a query error. */
static double pass(const hd_polytope *a, const hd_polytope *b, const hd_pose *poses, int n,
                   hd_options opt, int warm, int counts[3])
{
    hd_cache cache = HD_CACHE_INIT;
    opt.cache = warm ? &cache : NULL;
    double sum = 0.0, delta = 0.0;
    double t0 = now_ns();
    for (int i = 0; i < n; ++i) {
        int verdict = query(a, b, &poses[i], &opt, &delta);
        if (verdict < 0) {
            return -1.0;
        }
        counts[verdict]++;
        sum += delta;
    }
    double ns = (now_ns() - t0) / n;
    if (!warm) {
        signed_sum = sum;
    }
    return ns;
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
    if (signed_mode) {
        printf("sum %.17g\n", signed_sum);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 6) {
        fprintf(stderr, "usage: %s A.xyz B.xyz poses.txt [repetitions] [gjk|cddual|lp|sd|sdgrad]\n",
                argv[0]);
        return 2;
    }
    int reps = argc > 4 ? atoi(argv[4]) : 21;
    hd_options opt = hd_options_default();
    const char *mode = argc > 5 ? argv[5] : "gjk";
    signed_mode = strcmp(mode, "sd") == 0 || strcmp(mode, "sdgrad") == 0;
    opt.flags |= strcmp(mode, "sdgrad") == 0 ? HD_QUERY_GRADIENT : 0u;
    if (reps < 1 || reps > MAX_REPS || (!signed_mode && hd_algo_parse(mode, &opt.algo) != HD_OK)) {
        fprintf(stderr, "bad repetitions (1..%d) or algorithm\n", MAX_REPS);
        return 2;
    }
    int n = 0;
    hd_polytope *a = load(argv[1]), *b = load(argv[2]);
    hd_pose *poses = load_poses(argv[3], &n);
    hd_workspace *ws = NULL;
    int rc = (a && b && poses) ? 0 : 1;
    if (rc == 0 && signed_mode && hd_polytope_vertex_count(a) + hd_polytope_vertex_count(b) > 64) {
        rc = hd_workspace_create(hd_contact_workspace_capacity(a, b), &ws) == HD_OK ? 0 : 1;
        opt.workspace = ws;
    }
    rc = rc == 0 ? run(a, b, poses, n, reps, opt) : 1;
    hd_workspace_destroy(ws);
    free(poses);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    return rc;
}
