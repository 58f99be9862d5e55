/* The scene's thread pool (scene/pool.c) on its own: every item of a job run exactly once by a
 * worker of the pool, for every count, chunk and thread count, with and without a lead task, after
 * a wake-up without a job. Run under ThreadSanitizer by scripts/test.sh --full. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "scene/pool.h"
#include "testutil.h"

/* The pool's loops: every item of a job run exactly once, by a worker of the pool, whatever the
 * count, the chunk (one chunk, a ragged last chunk, fewer chunks than threads) and the thread
 * count; with a lead task, the lead run once too (under ThreadSanitizer in scripts/test.sh). */
#define T_POOL_ITEMS 5000

typedef struct pool_probe {
    atomic_int runs[T_POOL_ITEMS];
    int threads;
    atomic_int bad_worker;
    atomic_int lead_runs;
} pool_probe;

static void probe_chunk(void *ctx, int worker, int begin, int end)
{
    pool_probe *p = ctx;
    if (worker < 0 || worker >= p->threads || begin < 0 || end > T_POOL_ITEMS || begin >= end) {
        atomic_fetch_add(&p->bad_worker, 1);
        return;
    }
    for (int i = begin; i < end; ++i) {
        atomic_fetch_add(&p->runs[i], 1);
    }
}

static void probe_lead(void *ctx)
{
    atomic_fetch_add(&((pool_probe *)ctx)->lead_runs, 1);
}

static void check_probe(pool_probe *p, int count, const char *what, int threads, int chunk)
{
    if (atomic_load(&p->bad_worker) != 0) {
        fail_msg("%s: a chunk out of range or a worker index out of [0, %d)", what, threads);
    }
    for (int i = 0; i < T_POOL_ITEMS; ++i) {
        int runs = atomic_load(&p->runs[i]), want = i < count ? 1 : 0;
        if (runs != want) {
            fail_msg("%s: item %d of %d run %d times (threads %d, chunk %d)", what, i, count, runs,
                     threads, chunk);
        }
        atomic_store(&p->runs[i], 0);
    }
}

static void test_pool_items_once(void **state)
{
    (void)state;
    static pool_probe probe;
    static const int counts[] = {0, 1, 2, 5, 63, 64, 65, 129, 1000, T_POOL_ITEMS};
    static const int chunks[] = {1, 3, 32, 100, 7000};
    const int thread_counts[] = {1, 2, 3, 8};
    for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; ++t) {
        hdi_pool *pool;
        assert_int_equal(hdi_pool_create(thread_counts[t], &pool), HD_OK);
        probe.threads = thread_counts[t];
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
            for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; ++k) {
                hdi_pool_run(pool, probe_chunk, &probe, counts[c], chunks[k]);
                check_probe(&probe, counts[c], "hdi_pool_run", thread_counts[t], chunks[k]);
                atomic_store(&probe.lead_runs, 0);
                hdi_pool_run_beside(pool, probe_lead, &probe, probe_chunk, &probe, counts[c],
                                    chunks[k]);
                assert_int_equal(atomic_load(&probe.lead_runs), 1);
                check_probe(&probe, counts[c], "hdi_pool_run_beside", thread_counts[t], chunks[k]);
            }
        }
        hdi_pool_wake(pool, T_POOL_ITEMS, 16); /* a wake-up without a job, then the job */
        hdi_pool_wake(pool, T_POOL_ITEMS, 16);
        hdi_pool_run(pool, probe_chunk, &probe, T_POOL_ITEMS, 16);
        check_probe(&probe, T_POOL_ITEMS, "hdi_pool_run after hdi_pool_wake", thread_counts[t], 16);
        hdi_pool_destroy(pool);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_items_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
