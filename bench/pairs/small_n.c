/* hedra_small_n: hedra's boolean (hd_collide, GJK) and distance (hd_distance) queries against
 * libccd's ccdGJKIntersect and ccdMPRIntersect on the pairs of a pair file (hedra_bench
 * --write-pairs), for the small-n targets of docs/BENCHMARKS.md. B of every pair is moved into a
 * frame of its own (a rotation from a fixed seed about its centroid) and queried with that pose,
 * as the benchmark's queries are; A stays at the identity. libccd gets the benchmark's brute-force
 * support callback (bench/peers/peer_ccd.c).
 *     hedra_small_n PAIRS count METHOD    one pass of METHOD (gjk, dist, ccd_gjk, ccd_mpr) over
 *                                         the pairs, for callgrind --toggle-collect=hd_small_query
 *     hedra_small_n PAIRS time ROUNDS     same-run medians of the four methods: "hot" (each method
 *                                         over all pairs in turn, caches warm) and "evicted"
 *                                         (64 KB of data read before every single query)
 *     hedra_small_n PAIRS gaps ROUNDS     "hot" per gap l (read from the pair names, "_l<gap>_"):
 *                                         each method over the pairs of one gap in turn
 * Exit status 1 on a file or query error. */
#define _POSIX_C_SOURCE 200809L
#include <ccd/ccd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hedra/hedra.h>

#define MAX_PAIRS 4096
#define METHODS 4
#define EVICT_DOUBLES (1 << 13) /* 64 KB */

typedef struct shape {
    int n;
    double *xyz;
    double centre[3];
    hd_pose pose;
    hd_polytope *poly;
} shape;

typedef struct ccd_obj {
    const shape *s;
} ccd_obj;

static shape shapes_a[MAX_PAIRS], shapes_b[MAX_PAIRS];
static double pair_gap[MAX_PAIRS]; /* the gap l of the pair's name; NAN without one */
static int pair_count;
static const char *const method_names[METHODS] = {"hedra_gjk", "hedra_dist", "ccd_gjk", "ccd_mpr"};

static void to_world(const hd_pose *p, const double *v, ccd_vec3_t *out)
{
    for (int k = 0; k < 3; ++k) {
        out->v[k] = p->r[3 * k] * v[0] + p->r[3 * k + 1] * v[1] + p->r[3 * k + 2] * v[2] + p->t[k];
    }
}

/* bench/peers/peer_ccd.c's support: R^T d, the best vertex by brute force, posed */
static void ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out)
{
    const shape *s = ((const ccd_obj *)obj)->s;
    const double *r = s->pose.r;
    double d[3];
    for (int k = 0; k < 3; ++k) {
        d[k] = r[k] * dir->v[0] + r[3 + k] * dir->v[1] + r[6 + k] * dir->v[2];
    }
    int best = 0;
    double best_dot = d[0] * s->xyz[0] + d[1] * s->xyz[1] + d[2] * s->xyz[2];
    for (int i = 1; i < s->n; ++i) {
        const double *x = s->xyz + 3 * i;
        double v = d[0] * x[0] + d[1] * x[1] + d[2] * x[2];
        if (v > best_dot) {
            best_dot = v;
            best = i;
        }
    }
    to_world(&s->pose, s->xyz + 3 * best, out);
}

static void ccd_centre(const void *obj, ccd_vec3_t *c)
{
    const shape *s = ((const ccd_obj *)obj)->s;
    to_world(&s->pose, s->centre, c);
}

/* One query of method m on pair i; the verdict (0 separated, 1 touching, 2 intersecting), or -1
 * on a query error. Not inlined: callgrind counts it (--toggle-collect=hd_small_query). */
__attribute__((noinline)) int hd_small_query(int m, int i);
__attribute__((noinline)) int hd_small_query(int m, int i)
{
    const shape *a = &shapes_a[i], *b = &shapes_b[i];
    if (m >= 2) {
        ccd_obj oa = {a}, ob = {b};
        ccd_t ccd;
        CCD_INIT(&ccd);
        ccd.support1 = ccd.support2 = ccd_support;
        ccd.center1 = ccd.center2 = ccd_centre;
        ccd.max_iterations = 100;
        int hit = m == 2 ? ccdGJKIntersect(&oa, &ob, &ccd) : ccdMPRIntersect(&oa, &ob, &ccd);
        return hit ? 2 : 0;
    }
    if (m == 0) {
        hd_collide_result r;
        hd_status st = hd_collide(a->poly, &a->pose, b->poly, &b->pose, NULL, &r);
        return st == HD_OK ? (int)r.verdict : -1;
    }
    hd_distance_result r;
    hd_status st = hd_distance(a->poly, &a->pose, b->poly, &b->pose, NULL, &r);
    return st == HD_OK ? (int)r.verdict : -1;
}

static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 8) & 0xffffu;
}

/* Moves s's points into a frame rotated about their centroid and records that pose. */
static void pose_shape(shape *s, unsigned *seed)
{
    double q[4], c[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < 4; ++k) {
        q[k] = next_random(seed) / 32768.0 - 1.0;
    }
    for (int i = 0; i < s->n; ++i) {
        for (int k = 0; k < 3; ++k) {
            c[k] += s->xyz[3 * i + k] / s->n;
        }
    }
    if (hd_pose_from_quaternion(q, c, &s->pose) != HD_OK) {
        s->pose = hd_pose_identity();
        return;
    }
    const double *r = s->pose.r;
    for (int i = 0; i < s->n; ++i) {
        double d[3], *x = s->xyz + 3 * i;
        for (int k = 0; k < 3; ++k) {
            d[k] = x[k] - c[k];
        }
        for (int k = 0; k < 3; ++k) {
            x[k] = r[k] * d[0] + r[3 + k] * d[1] + r[6 + k] * d[2];
        }
    }
}

static int set_shape(shape *s, const hd_points *pts)
{
    s->n = pts->count;
    s->xyz = malloc(sizeof(double) * 3 * (size_t)(pts->count > 0 ? pts->count : 1));
    if (s->xyz == NULL || pts->count < 1) {
        return 0;
    }
    memcpy(s->xyz, pts->xyz, sizeof(double) * 3 * (size_t)pts->count);
    s->pose = hd_pose_identity();
    return 1;
}

static void finish_shape(shape *s)
{
    for (int k = 0; k < 3; ++k) {
        s->centre[k] = 0.0;
        for (int i = 0; i < s->n; ++i) {
            s->centre[k] += s->xyz[3 * i + k] / s->n;
        }
    }
}

static int load_pairs(const char *path)
{
    hd_pair_reader *rd = NULL;
    hd_parse_error err;
    if (hd_pair_reader_open(path, &rd, &err) != HD_OK) {
        return 0;
    }
    unsigned seed = 20261122u;
    bool done = false;
    int ok = 1;
    hd_pair_data p;
    while (ok && pair_count < MAX_PAIRS && hd_pair_reader_next(rd, &p, &done, &err) == HD_OK &&
           !done) {
        shape *a = &shapes_a[pair_count], *b = &shapes_b[pair_count];
        const char *l = p.name != NULL ? strstr(p.name, "_l") : NULL;
        pair_gap[pair_count] = l != NULL ? strtod(l + 2, NULL) : NAN;
        ok = set_shape(a, &p.a) && set_shape(b, &p.b);
        if (ok) {
            pose_shape(b, &seed);
            finish_shape(a);
            finish_shape(b);
            ok = hd_polytope_build(a->xyz, a->n, NULL, &a->poly) == HD_OK &&
                 hd_polytope_build(b->xyz, b->n, NULL, &b->poly) == HD_OK;
            pair_count++;
        }
    }
    hd_pair_reader_close(rd);
    return ok && pair_count > 0;
}

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

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

static void report(const char *label, double med[METHODS])
{
    for (int m = 0; m < METHODS; ++m) {
        printf("%-8s %-11s %8.1f ns   / ccd_gjk %.3f\n", label, method_names[m], med[m],
               med[m] / med[2]);
    }
}

/* Hot: per round, each method over the pairs pick[0..count) in turn (order rotated by round). */
static int time_hot_of(const int *pick, int count, int rounds, double med[METHODS])
{
    double *t = malloc(sizeof(double) * METHODS * (size_t)rounds);
    if (t == NULL) {
        return 0;
    }
    for (int r = 0; r < rounds; ++r) {
        for (int k = 0; k < METHODS; ++k) {
            int m = (k + r) % METHODS;
            double t0 = now_ns();
            for (int i = 0; i < count; ++i) {
                (void)hd_small_query(m, pick[i]);
            }
            t[m * rounds + r] = (now_ns() - t0) / count;
        }
    }
    for (int m = 0; m < METHODS; ++m) {
        med[m] = median(t + m * rounds, rounds);
    }
    free(t);
    return 1;
}

static int time_hot(int rounds, double med[METHODS])
{
    static int all[MAX_PAIRS];
    for (int i = 0; i < pair_count; ++i) {
        all[i] = i;
    }
    return time_hot_of(all, pair_count, rounds, med);
}

/* The hot medians per gap, gaps in increasing order, as a table with the ratios to libccd's MPR. */
static int time_gaps(int rounds)
{
    static int pick[MAX_PAIRS];
    printf("| gap l | pairs | hedra_gjk | hedra_dist | ccd_gjk | ccd_mpr | hedra_gjk / ccd_mpr | "
           "hedra_dist / ccd_mpr |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    double last = -INFINITY;
    for (;;) {
        double gap = INFINITY; /* the least gap above the last one */
        for (int i = 0; i < pair_count; ++i) {
            gap = pair_gap[i] > last && pair_gap[i] < gap ? pair_gap[i] : gap;
        }
        if (gap == INFINITY) {
            return 1;
        }
        int count = 0;
        for (int i = 0; i < pair_count; ++i) {
            if (pair_gap[i] == gap) {
                pick[count++] = i;
            }
        }
        double med[METHODS];
        if (!time_hot_of(pick, count, rounds, med)) {
            return 0;
        }
        printf("| %g | %d | %.1f | %.1f | %.1f | %.1f | %.3f | %.3f |\n", gap, count, med[0], med[1],
               med[2], med[3], med[0] / med[3], med[1] / med[3]);
        last = gap;
    }
}

/* Evicted: 64 KB of other data read before every query, each query timed by itself. */
static int time_evicted(int rounds, double med[METHODS])
{
    static volatile double junk[EVICT_DOUBLES];
    size_t per = (size_t)rounds * (size_t)pair_count;
    double *t = malloc(sizeof(double) * METHODS * per);
    if (t == NULL) {
        return 0;
    }
    size_t slot[METHODS] = {0};
    for (int r = 0; r < rounds; ++r) {
        for (int i = 0; i < pair_count; ++i) {
            for (int k = 0; k < METHODS; ++k) {
                int m = (k + r + i) % METHODS;
                for (int j = 0; j < EVICT_DOUBLES; j += 8) {
                    junk[j] = junk[j] + 1.0;
                }
                double t0 = now_ns();
                (void)hd_small_query(m, i);
                t[m * per + slot[m]++] = now_ns() - t0;
            }
        }
    }
    for (int m = 0; m < METHODS; ++m) {
        med[m] = median(t + m * per, (int)per);
    }
    free(t);
    return 1;
}

static int method_index(const char *name)
{
    static const char *const short_names[METHODS] = {"gjk", "dist", "ccd_gjk", "ccd_mpr"};
    for (int m = 0; m < METHODS; ++m) {
        if (strcmp(name, short_names[m]) == 0) {
            return m;
        }
    }
    return -1;
}

int main(int argc, char **argv)
{
    if (argc != 4 || !load_pairs(argv[1])) {
        fprintf(stderr, "usage: hedra_small_n PAIRS (count METHOD | time ROUNDS | gaps ROUNDS)\n");
        return 1;
    }
    if (strcmp(argv[2], "count") == 0) {
        int m = method_index(argv[3]), verdicts = 0;
        for (int i = 0; m >= 0 && i < pair_count; ++i) {
            int v = hd_small_query(m, i);
            if (v < 0) {
                return 1;
            }
            verdicts += v;
        }
        printf("%d queries, verdict sum %d\n", pair_count, verdicts);
        return m >= 0 ? 0 : 1;
    }
    int rounds = atoi(argv[3]);
    if (strcmp(argv[2], "gaps") == 0) {
        return rounds >= 1 && time_gaps(rounds) ? 0 : 1;
    }
    double hot[METHODS], evicted[METHODS];
    if (rounds < 1 || !time_hot(rounds, hot) || !time_evicted(rounds, evicted)) {
        return 1;
    }
    printf("%d pairs, %d rounds, medians per query\n", pair_count, rounds);
    report("hot", hot);
    report("evicted", evicted);
    return 0;
}
