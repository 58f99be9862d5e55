/* The scene on the caller's job system (hd_task_callbacks): the same frames give the same output
 * (every contact, its verdict, every bit of its signed distance, normal, witnesses, depth bounds
 * and manifold) on hedra's pool at 1, 2 and 8 threads and on job systems that run the ranges
 * inline, in reverse, shuffled, with ranges below the size hint, with odd worker counts and on
 * threads of their own. The one-thread run is checked against all pairs by hd_collide. Bad
 * callback structs are refused. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hedra/scene.h"
#include "testutil.h"

#define T_SHAPES 4
#define T_BODIES 240
#define T_FRAMES 6
#define T_SIDE 9.0
#define T_DETAIL_DOUBLES 17 /* signed distance, normal, witnesses, depth bounds, features */
#define T_MANIFOLD_DOUBLES (HD_MANIFOLD_MAX * 4)

static hd_polytope *t_shapes[T_SHAPES];
static uint64_t t_seed;

/* One contact of a step, as compared between runs. */
typedef struct rec {
    int a, b, verdict, points;
    double detail[T_DETAIL_DOUBLES];
    double manifold[T_MANIFOLD_DOUBLES];
} rec;

typedef struct run_log {
    rec recs[T_FRAMES * T_BODIES * 8];
    int count;
    int frame_end[T_FRAMES];
} run_log;

static run_log t_reference, t_other;

static void record(run_log *log, const hd_scene_contact *c)
{
    assert_true(log->count < (int)(sizeof log->recs / sizeof log->recs[0]));
    rec *r = &log->recs[log->count++];
    memset(r, 0, sizeof *r);
    r->a = c->a;
    r->b = c->b;
    r->verdict = (int)c->verdict;
    assert_non_null(c->contact);
    assert_non_null(c->manifold);
    const hd_signed_distance_result *k = c->contact;
    r->detail[0] = k->signed_distance;
    memcpy(r->detail + 1, k->normal, sizeof k->normal);
    memcpy(r->detail + 4, k->witness_a, sizeof k->witness_a);
    memcpy(r->detail + 7, k->witness_b, sizeof k->witness_b);
    r->detail[10] = k->lower;
    r->detail[11] = k->upper;
    r->detail[12] = (double)k->feature_a.type;
    r->detail[13] = (double)k->feature_a.index;
    r->detail[14] = (double)k->feature_b.type;
    r->detail[15] = (double)k->feature_b.index;
    r->detail[16] = (double)k->method;
    r->points = c->manifold->count;
    for (int p = 0; p < c->manifold->count; ++p) {
        memcpy(r->manifold + 4 * p, c->manifold->points[p].point, 3 * sizeof(double));
        r->manifold[4 * p + 3] = c->manifold->points[p].separation;
    }
}

/* The poses of the bodies, kept by the test (the brute-force check needs them). */
typedef struct world {
    int shape[T_BODIES];
    hd_pose pose[T_BODIES];
} world;

/* The all-pairs answer by hd_collide, cold, against the step's contacts (sorted by ids). */
static void check_brute(const world *w, const hd_scene_contact *c, int count)
{
    hd_options opt = hd_options_default();
    int k = 0;
    for (int a = 0; a < T_BODIES; ++a) {
        for (int b = a + 1; b < T_BODIES; ++b) {
            hd_collide_result r;
            assert_int_equal(hd_collide(t_shapes[w->shape[a]], &w->pose[a], t_shapes[w->shape[b]],
                                        &w->pose[b], &opt, &r),
                             HD_OK);
            if (r.verdict == HD_SEPARATED) {
                continue;
            }
            assert_true(k < count);
            assert_int_equal(c[k].a, a);
            assert_int_equal(c[k].b, b);
            assert_int_equal((int)c[k].verdict, (int)r.verdict);
            k++;
        }
    }
    assert_int_equal(k, count);
}

/* The same frames for every run (the generator seeded alike): bodies added at random poses,
 * then each frame a third of them moved a little by hd_scene_move_many. */
static void run_frames(const hd_scene_options *opt, run_log *log, int brute)
{
    static world w;
    hd_rng rng;
    hd_rng_init(&rng, t_seed);
    hd_scene *s = NULL;
    assert_int_equal(hd_scene_create(opt, &s), HD_OK);
    for (int i = 0; i < T_BODIES; ++i) {
        double t[3];
        for (int k = 0; k < 3; ++k) {
            t[k] = hd_rng_uniform(&rng, 0.0, T_SIDE);
        }
        w.shape[i] = hd_rng_int(&rng, T_SHAPES);
        w.pose[i] = hd_rng_pose(&rng, t);
        int id = -1;
        assert_int_equal(hd_scene_add(s, t_shapes[w.shape[i]], &w.pose[i], NULL, &id), HD_OK);
        assert_int_equal(id, i);
    }
    log->count = 0;
    for (int f = 0; f < T_FRAMES; ++f) {
        const hd_scene_contact *c = NULL;
        int count = 0;
        hd_scene_stats st;
        assert_int_equal(hd_scene_step(s, &c, &count, &st), HD_OK);
        assert_int_equal(st.threads, opt->tasks != NULL ? opt->tasks->worker_count : opt->threads);
        if (brute) {
            check_brute(&w, c, count);
        }
        for (int k = 0; k < count; ++k) {
            record(log, &c[k]);
        }
        log->frame_end[f] = log->count;
        int ids[T_BODIES];
        int moved = 0;
        for (int i = 0; i < T_BODIES; ++i) {
            if (hd_rng_int(&rng, 3) == 0) {
                for (int k = 0; k < 3; ++k) {
                    w.pose[i].t[k] += hd_rng_uniform(&rng, -0.3, 0.3);
                }
                ids[moved++] = i;
            }
        }
        hd_pose poses[T_BODIES];
        for (int k = 0; k < moved; ++k) {
            poses[k] = w.pose[ids[k]];
        }
        assert_int_equal(hd_scene_move_many(s, moved, ids, poses, NULL), HD_OK);
    }
    hd_scene_destroy(s);
}

static void check_same(const run_log *got, const char *what)
{
    for (int f = 0; f < T_FRAMES; ++f) {
        if (got->frame_end[f] != t_reference.frame_end[f]) {
            printf("%s (seed %llu): frame %d ends at contact %d, reference at %d\n", what,
                   (unsigned long long)t_seed, f, got->frame_end[f], t_reference.frame_end[f]);
            fail();
        }
    }
    for (int k = 0; k < got->count; ++k) {
        if (memcmp(&got->recs[k], &t_reference.recs[k], sizeof got->recs[k]) != 0) {
            printf("%s (seed %llu): contact %d (%d, %d) differs from the reference's (%d, %d)\n",
                   what, (unsigned long long)t_seed, k, got->recs[k].a, got->recs[k].b,
                   t_reference.recs[k].a, t_reference.recs[k].b);
            fail();
        }
    }
}

/* ---- job systems of the test ---- */

/* How a test system cuts and orders the ranges, and which worker index each gets. */
typedef enum order { ORDER_INLINE, ORDER_REVERSE, ORDER_SHUFFLED, ORDER_THREADS } order;

typedef struct test_system {
    order order;
    int workers;
    hd_rng rng;
    int jobs;        /* enqueue calls */
    int open;        /* a job enqueued and not finished */
    hd_task_fn task; /* the open job */
    void *task_ctx;
    int count;
    int min_range;
    atomic_int next;        /* ORDER_THREADS: the next range's first item */
    unsigned char *covered; /* items run, to check that each runs once */
} test_system;

static void run_range(test_system *ts, int begin, int end, int worker)
{
    assert_true(worker >= 0 && worker < ts->workers);
    for (int i = begin; i < end; ++i) {
        ts->covered[i]++;
    }
    ts->task(begin, end, worker, ts->task_ctx);
}

/* Ranges of `size` items from the back of [0, count) to the front, worker k % workers. */
static void run_reverse(test_system *ts, int size)
{
    int ranges = (ts->count + size - 1) / size;
    for (int k = ranges - 1; k >= 0; --k) {
        int begin = k * size;
        run_range(ts, begin, begin + size < ts->count ? begin + size : ts->count, k % ts->workers);
    }
}

/* Ranges of random sizes (1 to twice the hint) in random order on random workers. */
static void run_shuffled(test_system *ts)
{
    int bounds[T_BODIES * 64 + 1], ranges = 0;
    for (int begin = 0; begin < ts->count; ++ranges) {
        assert_true(ranges < T_BODIES * 64);
        bounds[ranges] = begin;
        begin += 1 + hd_rng_int(&ts->rng, 2 * ts->min_range);
    }
    bounds[ranges] = ts->count;
    int perm[T_BODIES * 64];
    for (int k = 0; k < ranges; ++k) {
        int j = hd_rng_int(&ts->rng, k + 1);
        perm[k] = perm[j];
        perm[j] = k;
    }
    for (int k = 0; k < ranges; ++k) {
        int r = perm[k], end = bounds[r + 1] < ts->count ? bounds[r + 1] : ts->count;
        run_range(ts, bounds[r], end, hd_rng_int(&ts->rng, ts->workers));
    }
}

typedef struct thread_arg {
    test_system *ts;
    int worker;
} thread_arg;

/* ORDER_THREADS: one thread per worker index claims ranges of the hint's size. */
static void *thread_main(void *arg)
{
    thread_arg *ta = arg;
    test_system *ts = ta->ts;
    for (;;) {
        int begin = atomic_fetch_add(&ts->next, ts->min_range);
        if (begin >= ts->count) {
            return NULL;
        }
        int end = begin + ts->min_range < ts->count ? begin + ts->min_range : ts->count;
        ta->ts->task(begin, end, ta->worker, ts->task_ctx); /* covered: items are disjoint */
        for (int i = begin; i < end; ++i) {
            ts->covered[i]++;
        }
    }
}

static void run_threads(test_system *ts)
{
    pthread_t ids[HD_SCENE_MAX_THREADS];
    thread_arg args[HD_SCENE_MAX_THREADS];
    atomic_store(&ts->next, 0);
    for (int w = 0; w < ts->workers; ++w) {
        args[w] = (thread_arg){ts, w};
        assert_int_equal(pthread_create(&ids[w], NULL, thread_main, &args[w]), 0);
    }
    for (int w = 0; w < ts->workers; ++w) {
        pthread_join(ids[w], NULL);
    }
}

static void *enqueue(hd_task_fn task, void *task_ctx, int count, int min_range, void *user)
{
    test_system *ts = user;
    assert_false(ts->open);
    assert_true(count >= 1 && min_range >= 1);
    ts->open = 1;
    ts->jobs++;
    ts->task = task;
    ts->task_ctx = task_ctx;
    ts->count = count;
    ts->min_range = min_range;
    ts->covered = calloc((size_t)count, 1);
    assert_non_null(ts->covered);
    if (ts->order == ORDER_INLINE) {
        run_reverse(ts, count); /* one range: the whole job, now */
    }
    return ts;
}

static void finish(void *handle, void *user)
{
    test_system *ts = user;
    assert_ptr_equal(handle, ts);
    assert_true(ts->open);
    if (ts->order == ORDER_REVERSE) {
        run_reverse(ts, ts->min_range / 2 + 1); /* below the hint: slower, still correct */
    } else if (ts->order == ORDER_SHUFFLED) {
        run_shuffled(ts);
    } else if (ts->order == ORDER_THREADS) {
        run_threads(ts);
    }
    for (int i = 0; i < ts->count; ++i) {
        assert_int_equal(ts->covered[i], 1);
    }
    free(ts->covered);
    ts->covered = NULL;
    ts->open = 0;
}

static hd_scene_options scene_options(hd_broadphase bp)
{
    hd_scene_options o = hd_scene_options_default();
    o.broadphase = bp;
    o.detail = HD_SCENE_MANIFOLD;
    return o;
}

static void run_on_system(hd_broadphase bp, order ord, int workers, const char *what)
{
    test_system ts;
    memset(&ts, 0, sizeof ts);
    ts.order = ord;
    ts.workers = workers;
    hd_rng_init(&ts.rng, t_seed + 17);
    hd_task_callbacks tasks = {enqueue, finish, workers, &ts};
    hd_scene_options o = scene_options(bp);
    o.tasks = &tasks;
    run_frames(&o, &t_other, 0);
    assert_true(ts.jobs > 0); /* the scene's loops ran on the system */
    check_same(&t_other, what);
}

static void check_broadphase(hd_broadphase bp)
{
    hd_scene_options o = scene_options(bp);
    o.threads = 1;
    run_frames(&o, &t_reference, 1);
    printf("reference: %d contacts over %d frames\n", t_reference.count, T_FRAMES);
    assert_true(t_reference.count > T_FRAMES * 10); /* the frames have contacts to compare */
    const int pool_threads[] = {2, 8};
    for (int k = 0; k < 2; ++k) {
        o.threads = pool_threads[k];
        run_frames(&o, &t_other, 0);
        check_same(&t_other, pool_threads[k] == 2 ? "pool, 2 threads" : "pool, 8 threads");
    }
    run_on_system(bp, ORDER_INLINE, 1, "inline, 1 worker");
    run_on_system(bp, ORDER_INLINE, 3, "inline, 3 workers");
    run_on_system(bp, ORDER_REVERSE, 5, "reverse, 5 workers");
    run_on_system(bp, ORDER_SHUFFLED, 7, "shuffled, 7 workers");
    run_on_system(bp, ORDER_THREADS, 3, "threads, 3 workers");
}

static void test_same_output_tree(void **state)
{
    (void)state;
    check_broadphase(HD_BROADPHASE_TREE);
}

static void test_same_output_sap(void **state)
{
    (void)state;
    check_broadphase(HD_BROADPHASE_SAP);
}

static void test_bad_callbacks(void **state)
{
    (void)state;
    test_system ts;
    memset(&ts, 0, sizeof ts);
    const hd_task_callbacks good = {enqueue, finish, 2, &ts};
    hd_task_callbacks bad[6] = {good, good, good, good, good, good};
    bad[0].enqueue = NULL;
    bad[1].finish = NULL;
    bad[2].worker_count = 0;
    bad[3].worker_count = -4;
    bad[4].worker_count = HD_SCENE_MAX_THREADS + 1;
    hd_scene_options o = hd_scene_options_default();
    for (int k = 0; k < 6; ++k) {
        o.tasks = &bad[k];
        o.threads = k == 5 ? 3 : 0; /* 5: threads neither 0 nor worker_count */
        hd_scene *s = (hd_scene *)&ts;
        assert_int_equal(hd_scene_create(&o, &s), HD_ERR_INVALID_ARG);
        assert_null(s);
    }
    hd_task_callbacks most = good;
    most.worker_count = HD_SCENE_MAX_THREADS;
    o.tasks = &most;
    o.threads = HD_SCENE_MAX_THREADS;
    hd_scene *s = NULL;
    assert_int_equal(hd_scene_create(&o, &s), HD_OK);
    hd_scene_destroy(s);
}

static int setup(void **state)
{
    (void)state;
    t_seed = hd_test_seed("test_tasks");
    hd_rng rng;
    hd_rng_init(&rng, t_seed);
    for (int k = 0; k < T_SHAPES; ++k) {
        double xyz[3 * 24];
        hd_points_ellipsoid(&rng, 24, 0.4 + 0.1 * k, 0.5, 0.3 + 0.05 * k, xyz);
        t_shapes[k] = hd_test_build(xyz, 24);
        if (t_shapes[k] == NULL) {
            return -1;
        }
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int k = 0; k < T_SHAPES; ++k) {
        hd_polytope_destroy(t_shapes[k]);
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_output_tree),
        cmocka_unit_test(test_same_output_sap),
        cmocka_unit_test(test_bad_callbacks),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
