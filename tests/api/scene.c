/* Scenes against brute force: on random scenes with adds, removes, small and large moves, the
 * contacts of every frame equal the all-pairs answer (every pair of bodies tested by hd_collide,
 * cold), for both broad phases and 1, 2, 3 and 8 threads, and the output is identical for every
 * thread count. Also: a body removed and re-added, bodies with identical boxes, touching faces,
 * bodies far from the origin, queries by box and by polytope, and bad arguments. With the contact
 * details (HD_SCENE_MANIFOLD), every contact's signed distance and normal agree with the
 * long-double separating-axis oracle (support/depth_oracle.c), its manifold points lie in the
 * overlap slab, and the details are bit for bit the same for every thread count; steps after
 * pauses that leave the pool's workers watching, napping or asleep; allocation failures at every
 * allocation of a frame, after which the repeated step answers as brute force. Only the public
 * headers: the pair table, the tree, the sweep-and-prune and the pool are tested on their own in
 * tests/unit/scene/. Run under ThreadSanitizer by scripts/test.sh --full. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "depth_oracle.h"
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
    t_seed = hd_test_seed("api/scene");
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
            r[3 * i + j] =
                d.r[3 * i] * p->r[j] + d.r[3 * i + 1] * p->r[3 + j] + d.r[3 * i + 2] * p->r[6 + j];
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
            hd_collide_result r;
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

/* Moves by hd_scene_move_many instead of hd_scene_move (test_move_many), with refused entries
 * mixed in. */
static int t_batch;

/* The batch of a frame's moves, given at once: a refused entry (a removed or unknown id, a pose
 * that is not a rotation, a non-finite translation) is put in front of some, which must be
 * reported as the first failure and leave every other entry moved. */
static void move_batch(hd_rng *rng, hd_scene *s, int count, int *ids, hd_pose *poses)
{
    int bad = count > 0 && hd_rng_int(rng, 2) == 0 ? hd_rng_int(rng, 3) : -1;
    hd_status want = HD_OK;
    if (bad >= 0) {
        memmove(ids + 1, ids, (size_t)count * sizeof *ids);
        memmove(poses + 1, poses, (size_t)count * sizeof *poses);
        ids[0] = bad == 0 ? T_MAX_BODIES + 5 : ids[1];
        poses[0] = poses[1];
        if (bad == 1) {
            poses[0].r[0] *= 1.01; /* not orthonormal */
        } else if (bad == 2) {
            poses[0].t[1] = NAN;
        }
        want = bad == 0 ? HD_ERR_INVALID_ARG : bad == 1 ? HD_ERR_BAD_POSE : HD_ERR_NONFINITE;
        count++;
    }
    int failed = 7;
    assert_int_equal(hd_scene_move_many(s, count, ids, poses, &failed), want);
    assert_int_equal(failed, bad >= 0 ? 0 : -1);
}

/* One random frame's changes: moves of a quarter, a few jumps, removes and adds. */
static void random_changes(hd_rng *rng, hd_scene *s, model *m, double side)
{
    static int ids[T_MAX_BODIES + 1];
    static hd_pose poses[T_MAX_BODIES + 1];
    int count = 0;
    for (int id = 0; id < T_MAX_BODIES; ++id) {
        if (!m->live[id] || hd_rng_int(rng, 4) != 0) {
            continue;
        }
        if (hd_rng_int(rng, 16) == 0) {
            m->pose[id] = pose_at(rng, side, 0.0);
        } else {
            nudge(rng, &m->pose[id], 0.05, 0.1);
        }
        if (t_batch) {
            ids[count] = id;
            poses[count++] = m->pose[id];
        } else {
            assert_int_equal(hd_scene_move(s, id, &m->pose[id]), HD_OK);
        }
    }
    if (t_batch) {
        move_batch(rng, s, count, ids, poses);
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

/* A scene of the current model stepped once; checked against brute force. */
static int step_checked(hd_scene *s, const model *m, const char *what, hd_scene_stats *st)
{
    const hd_scene_contact *c = NULL;
    int count = -1;
    assert_int_equal(hd_scene_step(s, &c, &count, st), HD_OK);
    return check_brute(m, c, count, what);
}

static hd_scene *new_scene(hd_broadphase bp, int threads)
{
    hd_scene_options o = hd_scene_options_default();
    o.threads = threads;
    o.broadphase = bp;
    hd_scene *s = NULL;
    assert_int_equal(hd_scene_create(&o, &s), HD_OK);
    return s;
}

/* hd_scene_move_many: the same contacts as brute force, frame by frame, on 1, 2 and 3 threads
 * and both broad phases, with refused entries among the moves; bad arguments. */
static void test_move_many(void **state)
{
    (void)state;
    t_batch = 1;
    for (int t = 1; t <= 3; ++t) {
        run_log log = {0};
        run_random(t == 3 ? HD_BROADPHASE_SAP : HD_BROADPHASE_TREE, t, t_seed + 31, &log);
        free(log.recs);
    }
    t_batch = 0;
    hd_scene *s = new_scene(HD_BROADPHASE_TREE, 2);
    int id = 0, failed = 7;
    hd_pose p = hd_pose_identity();
    assert_int_equal(hd_scene_move_many(NULL, 1, &id, &p, &failed), HD_ERR_NULL);
    assert_int_equal(failed, -1);
    assert_int_equal(hd_scene_move_many(s, 1, NULL, &p, NULL), HD_ERR_NULL);
    assert_int_equal(hd_scene_move_many(s, 1, &id, NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_scene_move_many(s, -1, &id, &p, NULL), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_scene_move_many(s, 0, NULL, NULL, &failed), HD_OK);
    assert_int_equal(hd_scene_move_many(s, 1, &id, &p, &failed), HD_ERR_INVALID_ARG);
    assert_int_equal(failed, 0);
    hd_scene_destroy(s);
}

/* A scene of T_MAX_BODIES random bodies for the batch tests (the model emptied first, the rng
 * seeded), stepped and checked once. */
static hd_scene *batch_scene(model *m, hd_rng *rng, unsigned long long seed, hd_broadphase bp,
                             int threads, const char *what)
{
    memset(m, 0, sizeof *m);
    hd_rng_init(rng, seed);
    hd_scene *s = new_scene(bp, threads);
    random_adds(rng, s, m, T_MAX_BODIES, 6.0);
    hd_scene_stats st;
    step_checked(s, m, what, &st);
    return s;
}

/* Run `run` (0 to 3) of a test over both broad phases and two thread counts: the broad phase
 * alternates, runs 0 and 1 on one thread, 2 and 3 on three; seed + run seeds the scene. */
static hd_scene *batch_scene_run(model *m, hd_rng *rng, unsigned long long seed, int run,
                                 const char *what)
{
    return batch_scene(m, rng, seed + (unsigned long long)run, (hd_broadphase)(run % 2),
                       run < 2 ? 1 : 3, what);
}

/* Every body's pose as the scene reports it is the model's, to the bit. */
static void check_poses(const hd_scene *s, const model *m)
{
    for (int id = 0; id < T_MAX_BODIES; ++id) {
        hd_pose got;
        assert_int_equal(hd_scene_body(s, id, NULL, &got, NULL), HD_OK);
        assert_memory_equal(&got, &m->pose[id], sizeof got);
    }
}

/* A batch that must be accepted whole, then a step: the poses are the model's and the contacts
 * the all-pairs answer. */
static void move_and_step(hd_scene *s, const model *m, int count, const int *ids,
                          const hd_pose *poses, const char *what, hd_scene_stats *st)
{
    int failed = 7;
    assert_int_equal(hd_scene_move_many(s, count, ids, poses, &failed), HD_OK);
    assert_int_equal(failed, -1);
    check_poses(s, m);
    step_checked(s, m, what, st);
}

/* One batch naming every body twice, or three times: the last pose of each must be the one
 * staged, whatever thread copies it (a batch of more than two chunks: every thread copies). */
static void test_move_many_last_wins(void **state)
{
    (void)state;
    static model m;
    static int ids[3 * T_MAX_BODIES];
    static hd_pose poses[3 * T_MAX_BODIES];
    for (int threads = 1; threads <= 3; threads += 2) {
        hd_rng rng;
        hd_scene *s =
            batch_scene(&m, &rng, t_seed + 43, HD_BROADPHASE_TREE, threads, "before the batch");
        int count = 0;
        for (int id = 0; id < T_MAX_BODIES; ++id) { /* first poses: far away, or a nudge */
            ids[count] = id;
            poses[count] = pose_at(&rng, 6.0, id % 2 == 0 ? 1e3 : 0.0);
            count++;
        }
        for (int id = T_MAX_BODIES - 1; id >= 0; --id) { /* some a second time, out of order */
            if (id % 3 == 0) {
                ids[count] = id;
                poses[count++] = pose_at(&rng, 6.0, -1e3);
            }
        }
        for (int id = 0; id < T_MAX_BODIES; ++id) { /* the last poses */
            hd_pose p = m.pose[id];
            nudge(&rng, &p, 0.05, 0.1);
            m.pose[id] = p;
            ids[count] = id;
            poses[count++] = p;
        }
        hd_scene_stats st;
        move_and_step(s, &m, count, ids, poses, "after the batch", &st);
        assert_int_equal(st.moved, T_MAX_BODIES);
        hd_scene_destroy(s);
    }
}

/* Pauses of the caller between steps, in us: none, inside a worker's short naps, inside its long
 * ones, past them (the worker asleep on its condition variable), and back (scene/pool.c). */
static const long t_pauses_us[] = {0, 300, 2000, 8000, 0, 8000, 50};

static void pause_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* Steps after each kind of pause find the workers watching, napping or asleep; every step's
 * contacts equal the all-pairs answer and every pose is the one given (2 and 3 threads; under
 * ThreadSanitizer in scripts/test.sh, which checks the hand-overs between the three states). */
static void test_idle_workers(void **state)
{
    (void)state;
    static model m;
    static int ids[T_MAX_BODIES];
    static hd_pose poses[T_MAX_BODIES];
    for (int threads = 2; threads <= 3; ++threads) {
        hd_rng rng;
        hd_scene *s = batch_scene(&m, &rng, t_seed + 59, HD_BROADPHASE_TREE, threads, "first");
        for (size_t k = 0; k < sizeof t_pauses_us / sizeof t_pauses_us[0]; ++k) {
            pause_us(t_pauses_us[k]);
            for (int id = 0; id < T_MAX_BODIES; ++id) {
                nudge(&rng, &m.pose[id], 0.05, 0.2);
                ids[id] = id;
                poses[id] = m.pose[id];
            }
            hd_scene_stats st;
            move_and_step(s, &m, T_MAX_BODIES, ids, poses, "after a pause", &st);
        }
        hd_scene_destroy(s);
    }
}

/* A batch whose last entry for a body is refused: the body takes its last accepted pose (the one
 * before, or the one before that), or keeps its pose when none is accepted; the first refused
 * entry is reported. On 1 and 3 threads, with both broad phases; the steps are checked against
 * the all-pairs answer at the poses expected. */
static void test_move_many_refused_last(void **state)
{
    (void)state;
    static model m;
    static int ids[4 * T_MAX_BODIES];
    static hd_pose poses[4 * T_MAX_BODIES];
    for (int run = 0; run < 4; ++run) {
        hd_rng rng;
        hd_scene *s = batch_scene_run(&m, &rng, t_seed + 47, run, "before the refused batch");
        int count = 0, first_bad = -1;
        for (int id = 0; id < T_MAX_BODIES; ++id) {
            hd_pose good = m.pose[id], other = m.pose[id];
            nudge(&rng, &good, 0.05, 0.1);
            nudge(&rng, &other, 0.05, 0.1);
            if (id % 4 != 3) { /* an accepted pose, and for some a second one */
                ids[count] = id;
                poses[count++] = good;
                m.pose[id] = good;
            }
            if (id % 4 == 1) {
                ids[count] = id;
                poses[count++] = other;
                m.pose[id] = other;
            }
            if (id % 4 != 0) { /* then a refused one, last */
                hd_pose bad = other;
                bad.r[4] *= 1.01; /* not orthonormal */
                first_bad = first_bad < 0 ? count : first_bad;
                ids[count] = id;
                poses[count++] = bad;
            }
        }
        int failed = 7;
        assert_int_equal(hd_scene_move_many(s, count, ids, poses, &failed), HD_ERR_BAD_POSE);
        assert_int_equal(failed, first_bad);
        check_poses(s, &m);
        hd_scene_stats st;
        step_checked(s, &m, "after the refused batch", &st);
        hd_scene_destroy(s);
    }
}

/* Several batches and single moves in one frame: a body whose entries in a later batch are all
 * refused keeps the pose of the earlier batch, a later batch or hd_scene_move overrides an
 * earlier one, and hd_scene_body reports the latest pose before the step. */
static void test_move_many_batches(void **state)
{
    (void)state;
    static model m;
    static int ids[2 * T_MAX_BODIES];
    static hd_pose poses[2 * T_MAX_BODIES];
    for (int run = 0; run < 4; ++run) {
        hd_rng rng;
        hd_scene *s = batch_scene_run(&m, &rng, t_seed + 53, run, "before the batches");
        for (int id = 0; id < T_MAX_BODIES; ++id) { /* a single move first, for some */
            if (id % 7 == 0) {
                nudge(&rng, &m.pose[id], 0.05, 0.1);
                assert_int_equal(hd_scene_move(s, id, &m.pose[id]), HD_OK);
            }
        }
        int count = 0;
        for (int id = 0; id < T_MAX_BODIES; ++id) { /* batch 1: every body */
            nudge(&rng, &m.pose[id], 0.05, 0.1);
            ids[count] = id;
            poses[count++] = m.pose[id];
        }
        assert_int_equal(hd_scene_move_many(s, count, ids, poses, NULL), HD_OK);
        count = 0;
        for (int id = 0; id < T_MAX_BODIES; ++id) { /* batch 2 */
            hd_pose good = m.pose[id], bad = m.pose[id];
            nudge(&rng, &good, 0.05, 0.1);
            bad.r[0] = NAN;
            if (id % 3 != 0) { /* accepted here (else only refused: batch 1's pose stays) */
                ids[count] = id;
                poses[count++] = good;
                m.pose[id] = good;
            }
            if (id % 3 != 2) {
                ids[count] = id;
                poses[count++] = bad;
            }
        }
        assert_int_equal(hd_scene_move_many(s, count, ids, poses, NULL), HD_ERR_NONFINITE);
        for (int id = 0; id < T_MAX_BODIES; id += 5) { /* single moves after the batches win */
            nudge(&rng, &m.pose[id], 0.05, 0.1);
            assert_int_equal(hd_scene_move(s, id, &m.pose[id]), HD_OK);
        }
        check_poses(s, &m);
        hd_scene_stats st;
        step_checked(s, &m, "after the batches", &st);
        check_poses(s, &m);
        hd_scene_destroy(s);
    }
}

/* Allocation failures, by the linker's --wrap of the allocator (tests/CMakeLists.txt): while
 * t_alloc_left >= 0, that many more allocations succeed and every later one fails. Armed only
 * around the scene's own calls. */
static atomic_int t_alloc_left = -1;
static atomic_int t_alloc_failed;

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
void *__wrap_aligned_alloc(size_t align, size_t size);

static int alloc_refused(void)
{
    if (atomic_load(&t_alloc_left) < 0 || atomic_fetch_sub(&t_alloc_left, 1) > 0) {
        return 0;
    }
    atomic_store(&t_alloc_failed, 1);
    return 1;
}

void *__wrap_malloc(size_t size)
{
    return alloc_refused() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    return alloc_refused() ? NULL : __real_calloc(count, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    return alloc_refused() ? NULL : __real_realloc(p, size);
}

void *__wrap_aligned_alloc(size_t align, size_t size)
{
    return alloc_refused() ? NULL : __real_aligned_alloc(align, size);
}

/* Every body of the model jumps into a smaller cube (many leave their boxes, many pairs begin),
 * given as one batch; the batch is given again when an allocation failed (nothing moved). */
static void jump_all(hd_rng *rng, hd_scene *s, model *m, double side, int allocations)
{
    static int ids[T_MAX_BODIES];
    static hd_pose poses[T_MAX_BODIES];
    int count = 0;
    for (int id = 0; id < T_MAX_BODIES; ++id) {
        if (m->live[id]) {
            m->pose[id] = pose_at(rng, side, 0.0);
            ids[count] = id;
            poses[count++] = m->pose[id];
        }
    }
    atomic_store(&t_alloc_left, allocations);
    hd_status st = hd_scene_move_many(s, count, ids, poses, NULL);
    atomic_store(&t_alloc_left, -1);
    if (st == HD_ERR_NO_MEMORY) {
        st = hd_scene_move_many(s, count, ids, poses, NULL);
    }
    assert_int_equal(st, HD_OK);
}

/* A step whose allocations fail after `allocations` of them answers HD_ERR_NO_MEMORY with no
 * contacts, and the step repeated answers as brute force does; so does the next frame. Every
 * allocation of the frame is made to fail in turn (both broad phases, 1 and 2 threads). */
static void test_step_out_of_memory(void **state)
{
    (void)state;
    int failed_steps = 0;
    for (int config = 0; config < 4; ++config) {
        hd_broadphase bp = (hd_broadphase)(config % 2);
        int threads = 1 + config / 2, done = 0;
        for (int k = 0; k < 400 && !done; ++k) {
            static model m;
            memset(&m, 0, sizeof m);
            hd_rng rng;
            hd_rng_init(&rng, t_seed + 61 + (unsigned long long)config);
            hd_scene *s = new_scene(bp, threads);
            random_adds(&rng, s, &m, 120, 9.0);
            hd_scene_stats st;
            step_checked(s, &m, "before the failures", &st);
            atomic_store(&t_alloc_failed, 0);
            jump_all(&rng, s, &m, 4.0, k);
            const hd_scene_contact *c = NULL;
            int count = -1;
            atomic_store(&t_alloc_left, k);
            hd_status got = hd_scene_step(s, &c, &count, &st);
            atomic_store(&t_alloc_left, -1);
            if (got == HD_ERR_NO_MEMORY) {
                assert_null(c);
                assert_int_equal(count, 0);
                failed_steps++;
                step_checked(s, &m, "the step repeated", &st);
            } else {
                assert_int_equal(got, HD_OK);
                check_brute(&m, c, count, "a step without failure");
            }
            done = !atomic_load(&t_alloc_failed); /* every allocation of the frame was reached */
            for (int id = 0; id < T_MAX_BODIES; ++id) {
                if (m.live[id]) {
                    nudge(&rng, &m.pose[id], 0.05, 0.2);
                    assert_int_equal(hd_scene_move(s, id, &m.pose[id]), HD_OK);
                }
            }
            step_checked(s, &m, "the frame after", &st);
            hd_scene_destroy(s);
        }
        assert_true(done);
    }
    printf("out of memory: %d failed steps, each repeated\n", failed_steps);
    assert_true(failed_steps > 0);
}

static void add_body(hd_scene *s, model *m, int shape, const hd_pose *p, int *id)
{
    assert_int_equal(hd_scene_add(s, t_shapes[shape], p, NULL, id), HD_OK);
    assert_true(*id >= 0 && *id < T_MAX_BODIES);
    m->live[*id] = 1;
    m->shape[*id] = shape;
    m->pose[*id] = *p;
}

/* A call of the scene's with its allocations failing after `allocations` of them (armed only
 * around it; -1: none fails). */
static hd_status add_failing(hd_scene *s, int shape, const hd_pose *p, int *id, int allocations)
{
    atomic_store(&t_alloc_left, allocations);
    hd_status st = hd_scene_add(s, t_shapes[shape], p, NULL, id);
    atomic_store(&t_alloc_left, -1);
    return st;
}

static hd_status query_failing(hd_scene *s, int *count, int allocations)
{
    const double lo[3] = {-1e3, -1e3, -1e3}, hi[3] = {1e3, 1e3, 1e3};
    atomic_store(&t_alloc_left, allocations);
    hd_status st = hd_scene_query_box(s, lo, hi, NULL, 0, count);
    atomic_store(&t_alloc_left, -1);
    return st;
}

static hd_status remove_failing(hd_scene *s, int id, int allocations)
{
    atomic_store(&t_alloc_left, allocations);
    hd_status st = hd_scene_remove(s, id);
    atomic_store(&t_alloc_left, -1);
    return st;
}

/* The other calls that grow (add, box query, remove) fail as the step does: HD_ERR_NO_MEMORY with
 * the scene as it was, and the failure taken by the call, so that the same call repeated without
 * failures succeeds; every box query then finds every body, and the steps answer as brute force
 * does (both broad phases, 1 and 2 threads). */
static void test_calls_out_of_memory(void **state)
{
    (void)state;
    int failures = 0;
    for (int config = 0; config < 4; ++config) {
        static model m;
        memset(&m, 0, sizeof m);
        hd_rng rng;
        hd_rng_init(&rng, t_seed + 71 + (unsigned long long)config);
        hd_scene *s = new_scene((hd_broadphase)(config % 2), 1 + config / 2);
        hd_scene_stats st;
        for (int i = 0; i < 150; ++i) {
            int shape = hd_rng_int(&rng, T_SHAPES), id = -1;
            hd_pose p = pose_at(&rng, 9.0, 0.0);
            hd_status got = add_failing(s, shape, &p, &id, i % 3);
            if (got == HD_ERR_NO_MEMORY) {
                failures++;
                assert_int_equal(id, -1);
                add_body(s, &m, shape, &p, &id); /* the same add, repeated */
            } else {
                assert_int_equal(got, HD_OK);
                m.live[id] = 1;
                m.shape[id] = shape;
                m.pose[id] = p;
            }
            if (i % 10 == 9) {
                int count = -1;
                got = query_failing(s, &count, i % 2);
                failures += got == HD_ERR_NO_MEMORY;
                assert_true(got == HD_OK || got == HD_ERR_NO_MEMORY);
                assert_int_equal(query_failing(s, &count, -1), HD_OK);
                assert_int_equal(count, hd_scene_body_count(s));
                step_checked(s, &m, "after failed adds and queries", &st);
            }
        }
        for (int id = 0; id < T_MAX_BODIES; id += 3) {
            if (m.live[id]) {
                hd_status got = remove_failing(s, id, 0);
                failures += got == HD_ERR_NO_MEMORY;
                assert_int_equal(got == HD_OK ? HD_OK : hd_scene_remove(s, id), HD_OK);
                m.live[id] = 0;
            }
        }
        step_checked(s, &m, "after failed removals", &st);
        hd_scene_destroy(s);
    }
    printf("out of memory: %d failed calls, each repeated\n", failures);
    assert_true(failures > 0);
}

/* A body removed and re-added (after a step and within one), and a frame without changes. */
static void test_remove_readd(void **state)
{
    (void)state;
    for (int bp = 0; bp < HD_BROADPHASE_COUNT; ++bp) {
        hd_scene *s = new_scene((hd_broadphase)bp, 2);
        static model m;
        memset(&m, 0, sizeof m);
        hd_rng rng;
        hd_rng_init(&rng, t_seed + 7);
        random_adds(&rng, s, &m, 60, 5.0);
        hd_scene_stats st;
        int before = step_checked(s, &m, "start", &st);
        assert_true(before > 0);
        /* the first body in a contact goes and comes back at the same pose */
        int victim = 0;
        while (!m.live[victim]) {
            victim++;
        }
        hd_pose p = m.pose[victim];
        int shape = m.shape[victim];
        assert_int_equal(hd_scene_remove(s, victim), HD_OK);
        assert_int_equal(hd_scene_remove(s, victim), HD_ERR_INVALID_ARG);
        assert_int_equal(hd_scene_move(s, victim, &p), HD_ERR_INVALID_ARG);
        m.live[victim] = 0;
        step_checked(s, &m, "removed", &st);
        int id = -1;
        add_body(s, &m, shape, &p, &id);
        assert_int_equal(id, victim); /* its id is free again after the step */
        assert_int_equal(step_checked(s, &m, "re-added", &st), before);
        /* removed and re-added before a step: a new id, the same contacts */
        assert_int_equal(hd_scene_remove(s, id), HD_OK);
        m.live[id] = 0;
        int id2 = -1;
        add_body(s, &m, shape, &p, &id2);
        assert_true(id2 != id);
        assert_int_equal(step_checked(s, &m, "re-added in one frame", &st), before);
        /* nothing moved: no query runs, the same answer */
        assert_int_equal(step_checked(s, &m, "still", &st), before);
        assert_int_equal(st.tested, 0);
        assert_int_equal(st.moved, 0);
        assert_int_equal(hd_scene_body_count(s), 60);
        hd_scene_destroy(s);
    }
}

/* Bodies with identical boxes (the same shape and pose): every pair intersects; unit cubes side
 * by side on a grid: face neighbours touch, exactly. */
static void test_identical_and_touching(void **state)
{
    (void)state;
    for (int bp = 0; bp < HD_BROADPHASE_COUNT; ++bp) {
        hd_scene *s = new_scene((hd_broadphase)bp, 3);
        static model m;
        memset(&m, 0, sizeof m);
        hd_pose same = hd_pose_identity();
        same.t[0] = 100.0;
        int id;
        for (int i = 0; i < 20; ++i) {
            add_body(s, &m, 1, &same, &id);
        }
        for (int x = 0; x < 4; ++x) {
            for (int y = 0; y < 4; ++y) {
                hd_pose p = hd_pose_identity();
                p.t[0] = x;
                p.t[1] = y;
                add_body(s, &m, 4, &p, &id);
            }
        }
        hd_scene_stats st;
        int n = step_checked(s, &m, "identical and touching", &st);
        /* 190 identical pairs; the grid: 24 face and 18 edge neighbours, all touching */
        assert_int_equal(n, 190 + 24 + 18);
        hd_scene_destroy(s);
    }
}

/* Bodies a million units from the origin, moving as in the random scenes. */
static void test_far_from_origin(void **state)
{
    (void)state;
    for (int bp = 0; bp < HD_BROADPHASE_COUNT; ++bp) {
        hd_scene *s = new_scene((hd_broadphase)bp, 2);
        static model m;
        memset(&m, 0, sizeof m);
        hd_rng rng;
        hd_rng_init(&rng, t_seed + 11);
        int id, total = 0;
        for (int i = 0; i < 120; ++i) {
            hd_pose p = pose_at(&rng, 8.0, 1e6);
            add_body(s, &m, hd_rng_int(&rng, T_SHAPES), &p, &id);
        }
        hd_scene_stats st;
        for (int f = 0; f < 4; ++f) {
            for (int k = 0; k < T_MAX_BODIES; ++k) {
                if (m.live[k] && hd_rng_int(&rng, 2) == 0) {
                    nudge(&rng, &m.pose[k], 0.05, 0.1);
                    assert_int_equal(hd_scene_move(s, k, &m.pose[k]), HD_OK);
                }
            }
            total += step_checked(s, &m, "far", &st);
        }
        assert_true(total > 20);
        hd_scene_destroy(s);
    }
}

/* Exact box of a posed shape from its vertices (the reference of the box query). */
static void exact_box(const hd_polytope *p, const hd_pose *pose, double lo[3], double hi[3])
{
    const double *v = hd_polytope_vertices(p);
    for (int i = 0; i < hd_polytope_vertex_count(p); ++i) {
        double w[3];
        hd_pose_apply(pose, v + 3 * i, w);
        for (int k = 0; k < 3; ++k) {
            lo[k] = (i == 0 || w[k] < lo[k]) ? w[k] : lo[k];
            hi[k] = (i == 0 || w[k] > hi[k]) ? w[k] : hi[k];
        }
    }
}

static int boxes_meet(const double alo[3], const double ahi[3], const double blo[3],
                      const double bhi[3], double slack)
{
    for (int k = 0; k < 3; ++k) {
        if (alo[k] > bhi[k] + slack || blo[k] > ahi[k] + slack) {
            return 0;
        }
    }
    return 1;
}

/* Box query: every body whose exact box meets the query box, none whose box is clearly apart. */
static void check_box_query(hd_scene *s, const model *m, const double lo[3], const double hi[3])
{
    int ids[T_MAX_BODIES], count = -1;
    assert_int_equal(hd_scene_query_box(s, lo, hi, ids, T_MAX_BODIES, &count), HD_OK);
    int k = 0;
    for (int id = 0; id < T_MAX_BODIES; ++id) {
        if (!m->live[id]) {
            continue;
        }
        double blo[3], bhi[3];
        exact_box(t_shapes[m->shape[id]], &m->pose[id], blo, bhi);
        int in = k < count && ids[k] == id;
        k += in;
        if (boxes_meet(blo, bhi, lo, hi, 0.0)) {
            assert_true(in);
        } else if (!boxes_meet(blo, bhi, lo, hi, 1e-6)) {
            assert_false(in);
        }
    }
    assert_int_equal(k, count);
    if (count > 1) {
        int small[1], c2 = -1;
        assert_int_equal(hd_scene_query_box(s, lo, hi, small, 1, &c2), HD_OK);
        assert_int_equal(c2, count);
        assert_int_equal(small[0], ids[0]);
    }
}

/* Polytope query: the bodies hd_collide finds touching or intersecting the probe. */
static void check_polytope_query(hd_scene *s, const model *m, int shape, const hd_pose *p)
{
    int ids[T_MAX_BODIES], count = -1;
    hd_verdict v[T_MAX_BODIES];
    assert_int_equal(hd_scene_query_polytope(s, t_shapes[shape], p, ids, v, T_MAX_BODIES, &count),
                     HD_OK);
    int k = 0;
    for (int id = 0; id < T_MAX_BODIES; ++id) {
        if (!m->live[id]) {
            continue;
        }
        hd_collide_result r;
        assert_int_equal(
            hd_collide(t_shapes[m->shape[id]], &m->pose[id], t_shapes[shape], p, NULL, &r), HD_OK);
        if (r.verdict != HD_SEPARATED) {
            assert_true(k < count);
            assert_int_equal(ids[k], id);
            assert_int_equal(v[k], r.verdict);
            k++;
        }
    }
    assert_int_equal(k, count);
}

static void test_queries(void **state)
{
    (void)state;
    for (int bp = 0; bp < HD_BROADPHASE_COUNT; ++bp) {
        hd_scene *s = new_scene((hd_broadphase)bp, 1);
        static model m;
        memset(&m, 0, sizeof m);
        hd_rng rng;
        hd_rng_init(&rng, t_seed + 13);
        random_adds(&rng, s, &m, 100, 8.0);
        for (int q = 0; q < 40; ++q) {
            if (q % 10 == 5) { /* queries see moves made since the last step */
                random_changes(&rng, s, &m, 8.0);
            }
            double lo[3], hi[3];
            for (int k = 0; k < 3; ++k) {
                lo[k] = hd_rng_uniform(&rng, -1.0, 8.0);
                hi[k] = lo[k] + hd_rng_uniform(&rng, 0.0, 3.0);
            }
            check_box_query(s, &m, lo, hi);
            hd_pose p = pose_at(&rng, 8.0, 0.0);
            check_polytope_query(s, &m, hd_rng_int(&rng, T_SHAPES), &p);
        }
        hd_scene_stats st;
        step_checked(s, &m, "after queries", &st);
        hd_scene_destroy(s);
    }
}

static void test_bad_arguments(void **state)
{
    (void)state;
    hd_scene *s = NULL;
    hd_scene_options o = hd_scene_options_default();
    o.threads = -1;
    assert_int_equal(hd_scene_create(&o, &s), HD_ERR_INVALID_ARG);
    o = hd_scene_options_default();
    o.margin = NAN;
    assert_int_equal(hd_scene_create(&o, &s), HD_ERR_INVALID_ARG);
    o = hd_scene_options_default();
    o.broadphase = HD_BROADPHASE_COUNT;
    assert_int_equal(hd_scene_create(&o, &s), HD_ERR_INVALID_ARG);
    o = hd_scene_options_default();
    o.tol.touch_rel = -1.0;
    assert_int_equal(hd_scene_create(&o, &s), HD_ERR_INVALID_ARG);
    assert_null(s);
    assert_int_equal(hd_scene_create(NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_scene_create(NULL, &s), HD_OK);
    int id = 7;
    hd_pose p = hd_pose_identity();
    assert_int_equal(hd_scene_add(s, NULL, &p, NULL, &id), HD_ERR_NULL);
    assert_int_equal(id, -1);
    p.r[0] = 2.0;
    assert_int_equal(hd_scene_add(s, t_shapes[0], &p, NULL, &id), HD_ERR_BAD_POSE);
    p = hd_pose_identity();
    p.t[1] = NAN;
    assert_int_equal(hd_scene_add(s, t_shapes[0], &p, NULL, &id), HD_ERR_NONFINITE);
    p.t[1] = 1e31;
    assert_int_equal(hd_scene_add(s, t_shapes[0], &p, NULL, &id), HD_ERR_RANGE);
    int user = 0;
    assert_int_equal(hd_scene_add(s, t_shapes[0], NULL, &user, &id), HD_OK);
    p = hd_pose_identity();
    p.r[4] = -1.0; /* a reflection */
    assert_int_equal(hd_scene_move(s, id, &p), HD_ERR_BAD_POSE);
    assert_int_equal(hd_scene_move(s, id + 1, &p), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_scene_move(s, -1, &p), HD_ERR_INVALID_ARG);
    const hd_polytope *shape = NULL;
    void *u = NULL;
    assert_int_equal(hd_scene_body(s, id, &shape, &p, &u), HD_OK);
    assert_ptr_equal(shape, t_shapes[0]);
    assert_ptr_equal(u, &user);
    assert_true(p.r[4] == 1.0); /* the failed move left the pose */
    double lo[3] = {0, 0, 0}, hi[3] = {-1, 1, 1};
    int count = -1;
    assert_int_equal(hd_scene_query_box(s, lo, hi, NULL, 0, &count), HD_ERR_INVALID_ARG);
    hi[0] = NAN;
    assert_int_equal(hd_scene_query_box(s, lo, hi, NULL, 0, &count), HD_ERR_NONFINITE);
    hi[0] = 1;
    assert_int_equal(hd_scene_query_box(s, lo, hi, NULL, 3, &count), HD_ERR_NULL);
    assert_int_equal(hd_scene_query_box(s, lo, hi, NULL, 0, &count), HD_OK);
    assert_int_equal(count, 1);
    const hd_scene_contact *c = NULL;
    assert_int_equal(hd_scene_step(s, NULL, &count, NULL), HD_ERR_NULL);
    assert_int_equal(hd_scene_step(s, &c, &count, NULL), HD_OK);
    assert_int_equal(count, 0);
    assert_int_equal(hd_scene_step(NULL, &c, &count, NULL), HD_ERR_NULL);
    assert_int_equal(hd_scene_remove(NULL, 0), HD_ERR_NULL);
    hd_broadphase bp;
    assert_int_equal(hd_broadphase_parse("sap", &bp), HD_OK);
    assert_int_equal(bp, HD_BROADPHASE_SAP);
    assert_int_equal(hd_broadphase_parse("bvh", &bp), HD_ERR_INVALID_ARG);
    assert_string_equal(hd_broadphase_str(HD_BROADPHASE_TREE), "tree");
    assert_int_equal(hd_scene_body_count(NULL), 0);
    hd_scene_destroy(s);
    hd_scene_destroy(NULL);
}

/* Every algorithm as the narrow phase (CD-Dual with a workspace per thread). */
static void test_algorithms(void **state)
{
    (void)state;
    for (int algo = 0; algo < HD_ALGO_COUNT; ++algo) {
        hd_scene_options o = hd_scene_options_default();
        o.threads = 2;
        o.algo = (hd_algo)algo;
        hd_scene *s = NULL;
        assert_int_equal(hd_scene_create(&o, &s), HD_OK);
        static model m;
        memset(&m, 0, sizeof m);
        hd_rng rng;
        hd_rng_init(&rng, t_seed + 23);
        random_adds(&rng, s, &m, 80, 6.0);
        hd_scene_stats st;
        int total = 0;
        for (int f = 0; f < 3; ++f) {
            random_changes(&rng, s, &m, 6.0);
            total += step_checked(s, &m, hd_algo_str((hd_algo)algo), &st);
        }
        assert_true(total > 0);
        hd_scene_destroy(s);
    }
}

/* A larger scene (2000 bodies, dense: every parallel loop runs) against an independent all-pairs
 * answer: every pair whose exact boxes (from the posed vertices) come within 1e-6 is tested by
 * hd_collide. Three frames, both broad phases, 1 and 3 threads. */
enum { T_LARGE = 2000 };

static void exact_boxes(const int *shape, const hd_pose *pose, double *lo, double *hi);

static int large_reference(const int *shape, const hd_pose *pose, int *pairs)
{
    static double lo[3 * T_LARGE], hi[3 * T_LARGE];
    exact_boxes(shape, pose, lo, hi);
    int count = 0;
    for (int a = 0; a < T_LARGE; ++a) {
        for (int b = a + 1; b < T_LARGE; ++b) {
            int apart = 0;
            for (int k = 0; k < 3; ++k) {
                apart |=
                    lo[3 * a + k] > hi[3 * b + k] + 1e-6 || lo[3 * b + k] > hi[3 * a + k] + 1e-6;
            }
            hd_collide_result r;
            if (apart ||
                hd_collide(t_shapes[shape[a]], &pose[a], t_shapes[shape[b]], &pose[b], NULL, &r) !=
                    HD_OK ||
                r.verdict == HD_SEPARATED) {
                continue;
            }
            pairs[3 * count] = a;
            pairs[3 * count + 1] = b;
            pairs[3 * count + 2] = (int)r.verdict;
            count++;
        }
    }
    return count;
}

static void exact_boxes(const int *shape, const hd_pose *pose, double *lo, double *hi)
{
    for (int i = 0; i < T_LARGE; ++i) {
        exact_box(t_shapes[shape[i]], &pose[i], lo + 3 * i, hi + 3 * i);
    }
}

static void test_large_scene(void **state)
{
    (void)state;
    static int shape[T_LARGE], pairs[3 * 200000];
    static hd_pose pose[T_LARGE];
    hd_rng rng;
    hd_rng_init(&rng, t_seed + 29);
    for (int i = 0; i < T_LARGE; ++i) {
        shape[i] = hd_rng_int(&rng, T_SHAPES);
        pose[i] = pose_at(&rng, 17.0, 0.0);
    }
    for (int bp = 0; bp < HD_BROADPHASE_COUNT; ++bp) {
        for (int threads = 1; threads <= 3; threads += 2) {
            hd_scene *s = new_scene((hd_broadphase)bp, threads);
            hd_rng motion;
            hd_rng_init(&motion, t_seed + 31);
            hd_pose p[T_LARGE];
            memcpy(p, pose, sizeof p);
            int id;
            for (int i = 0; i < T_LARGE; ++i) {
                assert_int_equal(hd_scene_add(s, t_shapes[shape[i]], &p[i], NULL, &id), HD_OK);
                assert_int_equal(id, i);
            }
            for (int f = 0; f < 3; ++f) {
                static int ids[T_LARGE];
                static hd_pose moved[T_LARGE];
                int n = 0;
                for (int i = 0; f > 0 && i < T_LARGE; i += 2) {
                    nudge(&motion, &p[i], 0.05, 0.2);
                    if (threads == 1) {
                        assert_int_equal(hd_scene_move(s, i, &p[i]), HD_OK);
                    }
                    ids[n] = i;
                    moved[n++] = p[i];
                }
                if (threads > 1) { /* checked on every thread: more than two chunks */
                    assert_int_equal(hd_scene_move_many(s, n, ids, moved, NULL), HD_OK);
                }
                const hd_scene_contact *c = NULL;
                int count = -1;
                hd_scene_stats st;
                assert_int_equal(hd_scene_step(s, &c, &count, &st), HD_OK);
                assert_true(st.pairs > 5000); /* the scans of the pair table run in parallel */
                int expected = large_reference(shape, p, pairs);
                assert_int_equal(count, expected);
                for (int k = 0; k < count; ++k) {
                    assert_int_equal(c[k].a, pairs[3 * k]);
                    assert_int_equal(c[k].b, pairs[3 * k + 1]);
                    assert_int_equal((int)c[k].verdict, pairs[3 * k + 2]);
                }
                if (f == 0 && bp == 0 && threads == 1) {
                    printf("large scene: %d contacts at frame 0\n", count);
                }
            }
            hd_scene_destroy(s);
        }
    }
}

/* The contact details against the long-double oracle (independent of the library): h_M(n) is
 * minus the signed distance (n attains it in both regimes), the depth of an overlap is the
 * oracle's, a separated pair is at least as far as the oracle proves and within the band, the
 * witnesses differ by signed distance times n, and each manifold point lies in the overlap slab
 * between B's lowest and A's highest point along n (widened by the band). */
#define T_ACCURACY 1e-9

static void check_detail(const model *m, const hd_scene_contact *c, int *overlaps)
{
    const hd_polytope *a = t_shapes[m->shape[c->a]], *b = t_shapes[m->shape[c->b]];
    const hd_pose *pa = &m->pose[c->a], *pb = &m->pose[c->b];
    const hd_signed_distance_result *k = c->contact;
    double tol = T_ACCURACY * k->size;
    long double slack = hd_oracle_error(a, pa, b, pb);
    long double oracle = hd_oracle_depth(a, pa, b, pb, NULL);
    long double h = hd_oracle_support(a, pa, b, pb, k->normal);
    double n2 =
        k->normal[0] * k->normal[0] + k->normal[1] * k->normal[1] + k->normal[2] * k->normal[2];
    int ok = fabs(n2 - 1.0) <= 1e-12 && fabsl(h + k->signed_distance) <= tol + slack;
    if (isfinite((double)oracle) && oracle >= 0) {
        ok = ok && fabsl(-k->signed_distance - oracle) <= tol + slack;
        *overlaps += k->signed_distance < 0;
    } else if (isfinite((double)oracle)) {
        ok =
            ok && k->signed_distance >= -oracle - tol - slack && k->signed_distance <= k->eps + tol;
    }
    for (int j = 0; j < 3; ++j) {
        double d = k->witness_b[j] - k->witness_a[j] - k->signed_distance * k->normal[j];
        ok = ok && fabs(d) <= tol;
    }
    const hd_manifold *mf = c->manifold;
    double minus_n[3] = {-mf->normal[0], -mf->normal[1], -mf->normal[2]};
    long double top = hd_oracle_extreme(a, pa, mf->normal);  /* A's highest along n */
    long double bottom = -hd_oracle_extreme(b, pb, minus_n); /* B's lowest */
    ok = ok && mf->count >= 1 && mf->count <= HD_MANIFOLD_MAX &&
         memcmp(mf->normal, k->normal, sizeof mf->normal) == 0;
    for (int i = 0; i < mf->count; ++i) {
        const double *x = mf->points[i].point;
        long double along = (long double)x[0] * mf->normal[0] + (long double)x[1] * mf->normal[1] +
                            (long double)x[2] * mf->normal[2];
        ok = ok && along >= bottom - k->eps - tol - slack && along <= top + k->eps + tol + slack &&
             mf->points[i].separation <= k->eps + tol;
    }
    if (!ok) {
        printf("pair (%d, %d): signed distance %.17g, oracle depth %.17Lg, h_M(n) %.17Lg, size "
               "%.3g, eps %.3g, %d manifold points, slab [%.17Lg, %.17Lg]\n",
               c->a, c->b, k->signed_distance, oracle, h, k->size, k->eps, mf->count, bottom, top);
        for (int i = 0; i < mf->count; ++i) {
            printf("  point %.17g %.17g %.17g separation %.3g\n", mf->points[i].point[0],
                   mf->points[i].point[1], mf->points[i].point[2], mf->points[i].separation);
        }
    }
    assert_true(ok);
}

/* The doubles of a contact's details that the runs must agree on. */
static void log_detail(double **log, int *count, int *cap, const hd_scene_contact *c)
{
    if (*count + 64 > *cap) {
        *cap = *cap ? 2 * *cap : 4096;
        *log = realloc(*log, (size_t)*cap * sizeof **log);
        assert_non_null(*log);
    }
    double *d = *log + *count;
    const hd_signed_distance_result *k = c->contact;
    int n = 0;
    d[n++] = k->signed_distance;
    memcpy(d + n, k->normal, 3 * sizeof(double));
    memcpy(d + n + 3, k->witness_a, 3 * sizeof(double));
    memcpy(d + n + 6, k->witness_b, 3 * sizeof(double));
    n += 9;
    d[n++] = (-k->upper);
    d[n++] = (-k->lower);
    d[n++] = (double)(k->feature_a.type * 100000 + k->feature_a.index);
    d[n++] = (double)(k->feature_b.type * 100000 + k->feature_b.index);
    d[n++] = (double)c->manifold->count;
    for (int i = 0; i < c->manifold->count; ++i) {
        const hd_contact_point *p = &c->manifold->points[i];
        memcpy(d + n, p->point, 3 * sizeof(double));
        d[n + 3] = p->separation;
        d[n + 4] = (double)(p->feature_a.type * 100000 + p->feature_a.index);
        d[n + 5] = (double)(p->feature_b.type * 100000 + p->feature_b.index);
        n += 6;
    }
    *count += n;
}

/* One random scene with contact details on `threads` threads: each frame against brute force,
 * the details logged; on one thread, each contact against the oracle too (the scene and its
 * motion are the same for every thread count, so a run whose details equal the checked run's
 * bit for bit agrees with the oracle as well, without paying for it again). */
static void run_details(int threads, uint64_t seed, double **log, int *count, int *cap)
{
    hd_scene_options o = hd_scene_options_default();
    o.threads = threads;
    o.detail = HD_SCENE_MANIFOLD;
    hd_scene *s = NULL;
    assert_int_equal(hd_scene_create(&o, &s), HD_OK);
    hd_rng rng;
    hd_rng_init(&rng, seed);
    static model m;
    memset(&m, 0, sizeof m);
    random_adds(&rng, s, &m, 150, 9.0);
    int contacts = 0, overlaps = 0;
    for (int f = 0; f < T_FRAMES; ++f) {
        if (f > 0) {
            random_changes(&rng, s, &m, 9.0);
            random_adds(&rng, s, &m, 3, 9.0);
        }
        const hd_scene_contact *c = NULL;
        int n = -1;
        assert_int_equal(hd_scene_step(s, &c, &n, NULL), HD_OK);
        check_brute(&m, c, n, "details");
        for (int i = 0; i < n; ++i) {
            assert_non_null(c[i].contact);
            assert_non_null(c[i].manifold);
            if (threads == 1) { /* the other runs must equal this one bit for bit */
                check_detail(&m, &c[i], &overlaps);
            }
            log_detail(log, count, cap, &c[i]);
        }
        contacts += n;
    }
    if (threads == 1) {
        printf("details: %d contacts (%d overlapping) agree with the oracle\n", contacts, overlaps);
        assert_true(overlaps > 10 * T_FRAMES);
    }
    hd_scene_destroy(s);
}

static void test_contact_details(void **state)
{
    (void)state;
    static const int threads[4] = {1, 2, 3, 8};
    for (int round = 0; round < 2; ++round) {
        uint64_t seed = t_seed + 211u * (uint64_t)round;
        double *first = NULL;
        int first_count = 0;
        for (int t = 0; t < 4; ++t) {
            double *log = NULL;
            int count = 0, cap = 0;
            run_details(threads[t], seed, &log, &count, &cap);
            if (first == NULL) {
                first = log;
                first_count = count;
                continue;
            }
            assert_int_equal(count, first_count); /* bit for bit, whatever the threads */
            assert_memory_equal(log, first, (size_t)count * sizeof *log);
            free(log);
        }
        free(first);
    }
}

/* Two boxes overlapping by 0.25 along x: HD_SCENE_DEPTH gives the contact without a manifold,
 * HD_SCENE_MANIFOLD (with CD-Dual) both, the verdict-only scene neither. */
static void test_detail_levels(void **state)
{
    (void)state;
    hd_scene_options o = hd_scene_options_default();
    o.threads = 2;
    o.detail = HD_SCENE_DETAIL_COUNT;
    hd_scene *s = NULL;
    assert_int_equal(hd_scene_create(&o, &s), HD_ERR_INVALID_ARG);
    for (int level = 0; level < 3; ++level) { /* the third: a manifold with CD-Dual */
        o.detail = (hd_scene_detail)level;
        o.algo = level == 2 ? HD_ALGO_CDDUAL : HD_ALGO_GJK;
        assert_int_equal(hd_scene_create(&o, &s), HD_OK);
        hd_pose p = hd_pose_identity();
        int id[2];
        assert_int_equal(hd_scene_add(s, t_shapes[4], &p, NULL, &id[0]), HD_OK);
        p.t[0] = 0.75; /* boxes of side 1 overlapping by 0.25 along x */
        assert_int_equal(hd_scene_add(s, t_shapes[4], &p, NULL, &id[1]), HD_OK);
        const hd_scene_contact *c = NULL;
        int n = 0;
        assert_int_equal(hd_scene_step(s, &c, &n, NULL), HD_OK);
        assert_int_equal(n, 1);
        if (level == 2) { /* four corners of the overlap's face, half-way along x */
            assert_non_null(c[0].manifold);
            assert_int_equal(c[0].manifold->count, 4);
            for (int i = 0; i < 4; ++i) {
                assert_true(fabs(c[0].manifold->points[i].point[0] - 0.375) < 1e-12);
                assert_true(fabs(c[0].manifold->points[i].separation + 0.25) < 1e-12);
            }
        } else {
            assert_null(c[0].manifold);
        }
        if (level == 0) {
            assert_null(c[0].contact);
        } else {
            assert_non_null(c[0].contact);
            assert_true(fabs(c[0].contact->signed_distance + 0.25) < 1e-12);
            assert_true(fabs(c[0].contact->normal[0] - 1.0) < 1e-12);
        }
        hd_scene_destroy(s);
    }
}

/* A pyramid's apex 0.1 deep in a face of the unit box (vertex-face, differentiable): with
 * gradient set, the contact carries the closed form of docs/algorithms/gradient.md, section 2:
 * b = (n, (apex - t_B) x n), a = (-n, -(face point - t_A) x n) with n = +x; without it, zeros. */
static void test_contact_gradients(void **state)
{
    (void)state;
    const double pyramid[15] = {-0.5, 0.2, 0.0,  1.5, 1.2, 1.0,  1.5, 1.2,
                                -1.0, 1.5, -0.8, 1.0, 1.5, -0.8, -1.0};
    hd_polytope *apex = hd_test_build(pyramid, 5);
    const double want_b[6] = {1.0, 0.0, 0.0, 0.0, 0.0, -0.2};   /* (-0.5, 0.2, 0) x x */
    const double want_a[6] = {-1.0, 0.0, 0.0, 0.0, -0.05, 0.3}; /* -(0.5, 0.3, 0.05) x x */
    for (int asked = 0; asked < 2; ++asked) {
        hd_scene_options o = hd_scene_options_default();
        o.threads = 1;
        o.detail = HD_SCENE_DEPTH;
        o.gradient = asked != 0;
        hd_scene *s = NULL;
        assert_int_equal(hd_scene_create(&o, &s), HD_OK);
        hd_pose p = hd_pose_identity();
        int id[2];
        assert_int_equal(hd_scene_add(s, t_shapes[4], &p, NULL, &id[0]), HD_OK);
        p.t[0] = 0.9;
        p.t[1] = 0.1;
        p.t[2] = 0.05; /* the apex at (0.4, 0.3, 0.05), 0.1 inside the face x = 0.5 */
        assert_int_equal(hd_scene_add(s, apex, &p, NULL, &id[1]), HD_OK);
        const hd_scene_contact *c = NULL;
        int n = 0;
        assert_int_equal(hd_scene_step(s, &c, &n, NULL), HD_OK);
        assert_int_equal(n, 1);
        assert_true(fabs(c[0].contact->signed_distance + 0.1) < 1e-12);
        const hd_pose_gradient *g = &c[0].contact->gradient;
        assert_int_equal(g->unique, asked != 0);
        for (int k = 0; k < 6; ++k) {
            assert_true(fabs(g->b[k] - (asked ? want_b[k] : 0.0)) < 1e-12);
            assert_true(fabs(g->a[k] - (asked ? want_a[k] : 0.0)) < 1e-12);
        }
        hd_scene_destroy(s);
    }
    hd_polytope_destroy(apex);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_scenes),       cmocka_unit_test(test_move_many),
        cmocka_unit_test(test_move_many_last_wins), cmocka_unit_test(test_move_many_refused_last),
        cmocka_unit_test(test_move_many_batches),   cmocka_unit_test(test_step_out_of_memory),
        cmocka_unit_test(test_calls_out_of_memory), cmocka_unit_test(test_idle_workers),
        cmocka_unit_test(test_remove_readd),        cmocka_unit_test(test_identical_and_touching),
        cmocka_unit_test(test_far_from_origin),     cmocka_unit_test(test_queries),
        cmocka_unit_test(test_bad_arguments),       cmocka_unit_test(test_algorithms),
        cmocka_unit_test(test_large_scene),         cmocka_unit_test(test_contact_details),
        cmocka_unit_test(test_detail_levels),       cmocka_unit_test(test_contact_gradients),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
