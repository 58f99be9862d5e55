/* Many threads query the same immutable polytopes at once, each with its own cache and
 * workspace; every answer must equal the one computed alone. Run under ThreadSanitizer by
 * scripts/test.sh to prove the queries share no mutable state. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

#define HD_T_SHAPES 6
#define HD_T_THREADS 4
#define HD_T_ROUNDS 3

typedef struct shared_set {
    hd_polytope *shape[HD_T_SHAPES];
    hd_pose pose[HD_T_SHAPES];
    hd_verdict expected[HD_T_SHAPES][HD_T_SHAPES][HD_ALGO_COUNT];
    double distance[HD_T_SHAPES][HD_T_SHAPES];
} shared_set;

static shared_set hd_t_set;

typedef struct worker {
    int id;
    int mismatches;
    int errors;
} worker;

static int run_one(const shared_set *s, int i, int j, int algo, hd_cache *cache,
                   hd_workspace *ws, hd_verdict *v)
{
    hd_options opt = hd_options_default();
    opt.algo = (hd_algo)algo;
    opt.cache = cache;
    opt.workspace = ws;
    hd_collide_result r;
    hd_status st = hd_collide(s->shape[i], &s->pose[i], s->shape[j], &s->pose[j], &opt, &r);
    *v = r.verdict;
    return st == HD_OK;
}

static void *work(void *arg)
{
    worker *w = arg;
    hd_workspace *ws = NULL;
    if (hd_workspace_create(4096, &ws) != HD_OK) {
        w->errors++;
        return NULL;
    }
    hd_cache cache[HD_T_SHAPES][HD_T_SHAPES];
    for (int i = 0; i < HD_T_SHAPES; ++i) {
        for (int j = 0; j < HD_T_SHAPES; ++j) {
            hd_cache_reset(&cache[i][j]);
        }
    }
    for (int round = 0; round < HD_T_ROUNDS; ++round) {
        for (int k = 0; k < HD_T_SHAPES * HD_T_SHAPES * HD_ALGO_COUNT; ++k) {
            int idx = (k * 7 + w->id * 13 + round) % (HD_T_SHAPES * HD_T_SHAPES * HD_ALGO_COUNT);
            int algo = idx % HD_ALGO_COUNT, i = (idx / HD_ALGO_COUNT) % HD_T_SHAPES;
            int j = idx / (HD_ALGO_COUNT * HD_T_SHAPES);
            hd_verdict v;
            hd_cache *c = algo == HD_ALGO_LP ? NULL : &cache[i][j];
            if (!run_one(&hd_t_set, i, j, algo, c, ws, &v)) {
                w->errors++;
            } else if (v != hd_t_set.expected[i][j][algo]) {
                w->mismatches++;
            }
            hd_distance_result d;
            if (hd_distance(hd_t_set.shape[i], &hd_t_set.pose[i], hd_t_set.shape[j],
                            &hd_t_set.pose[j], NULL, &d) != HD_OK) {
                w->errors++;
            } else if (d.distance != hd_t_set.distance[i][j]) {
                w->mismatches++;
            }
        }
    }
    hd_workspace_destroy(ws);
    return NULL;
}

static void build_set(hd_rng *rng)
{
    double xyz[3 * 300];
    for (int i = 0; i < HD_T_SHAPES; ++i) {
        int n = 20 + 40 * i;
        hd_points_ellipsoid(rng, n, 2.0, 1.0, 1.0, xyz);
        hd_t_set.shape[i] = hd_test_build(xyz, n);
        assert_non_null(hd_t_set.shape[i]);
        double t[3] = {hd_rng_uniform(rng, -3, 3), hd_rng_uniform(rng, -3, 3), 0};
        hd_t_set.pose[i] = hd_rng_pose(rng, t);
    }
    for (int i = 0; i < HD_T_SHAPES; ++i) {
        for (int j = 0; j < HD_T_SHAPES; ++j) {
            for (int a = 0; a < HD_ALGO_COUNT; ++a) {
                assert_true(run_one(&hd_t_set, i, j, a, NULL, NULL, &hd_t_set.expected[i][j][a]));
            }
            hd_distance_result d;
            assert_int_equal(hd_distance(hd_t_set.shape[i], &hd_t_set.pose[i], hd_t_set.shape[j],
                                         &hd_t_set.pose[j], NULL, &d),
                             HD_OK);
            hd_t_set.distance[i][j] = d.distance;
        }
    }
}

static void test_concurrent_queries(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, hd_test_seed("test_threads"));
    build_set(&rng);
    pthread_t threads[HD_T_THREADS];
    worker workers[HD_T_THREADS];
    for (int t = 0; t < HD_T_THREADS; ++t) {
        workers[t] = (worker){t, 0, 0};
        assert_int_equal(pthread_create(&threads[t], NULL, work, &workers[t]), 0);
    }
    int mismatches = 0, errors = 0;
    for (int t = 0; t < HD_T_THREADS; ++t) {
        pthread_join(threads[t], NULL);
        mismatches += workers[t].mismatches;
        errors += workers[t].errors;
    }
    printf("threads: %d x %d rounds, %d mismatches, %d errors\n", HD_T_THREADS, HD_T_ROUNDS,
           mismatches, errors);
    assert_int_equal(errors, 0);
    assert_int_equal(mismatches, 0);
    for (int i = 0; i < HD_T_SHAPES; ++i) {
        hd_polytope_destroy(hd_t_set.shape[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_concurrent_queries)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
