/* The scene's pair table (scene/pairs.c) against a naive adjacency matrix under random adds,
 * finds and removes. Seeded (HEDRA_SEED). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "scene/pairs.h"
#include "testutil.h"

static uint64_t t_seed;

static int setup(void **state)
{
    (void)state;
    t_seed = hd_test_seed("unit/scene/pairs");
    return 0;
}

/* The pair table against a naive adjacency matrix under random adds and removes. */
static void test_pair_table(void **state)
{
    (void)state;
    enum { N = 60 };
    static char present[N][N];
    memset(present, 0, sizeof present);
    hdi_pair_table t;
    hdi_pairs_init(&t, 0);
    hd_rng rng;
    hd_rng_init(&rng, t_seed + 17);
    for (int it = 0; it < 20000; ++it) {
        int a = hd_rng_int(&rng, N), b = hd_rng_int(&rng, N);
        if (a == b) {
            continue;
        }
        int lo = a < b ? a : b, hi = a < b ? b : a, index = -1;
        if (hd_rng_int(&rng, 3) != 0) {
            assert_int_equal(hdi_pairs_add(&t, a, b, &index), HD_OK);
            assert_int_equal(t.recs[index].a, lo);
            assert_int_equal(t.recs[index].b, hi);
            present[lo][hi] = 1;
        } else if ((index = hdi_pairs_find(&t, b, a)) >= 0) {
            assert_true(present[lo][hi]);
            hdi_pairs_remove_at(&t, index);
            present[lo][hi] = 0;
        } else {
            assert_false(present[lo][hi]);
        }
    }
    int count = 0;
    for (int a = 0; a < N; ++a) {
        for (int b = a + 1; b < N; ++b) {
            count += present[a][b];
            assert_int_equal(hdi_pairs_find(&t, a, b) >= 0, present[a][b]);
        }
    }
    assert_int_equal(count, t.count);
    hdi_pairs_free(&t);
}

/* A table reserved for a batch: the records and slots are sized once (the adds that follow leave
 * them where they are, the hash table at most half full), a reserve below the count changes
 * nothing, and the pairs already in the table survive the rehash of a reserve. */
static void test_pair_reserve(void **state)
{
    (void)state;
    enum { N = 50, BATCH = N * (N - 1) / 2 };
    hdi_pair_table t;
    hdi_pairs_init(&t, 0);
    int index;
    assert_int_equal(hdi_pairs_add(&t, 3, 1, &index), HD_OK);
    assert_int_equal(hdi_pairs_reserve(&t, BATCH), HD_OK);
    assert_true(t.capacity >= BATCH);
    assert_true(t.slot_mask + 1 >= 2 * BATCH);
    assert_int_equal(hdi_pairs_find(&t, 1, 3), 0);
    const hdi_pair_rec *recs = t.recs;
    const int *slots = t.slots;
    for (int a = 0; a < N; ++a) {
        for (int b = a + 1; b < N; ++b) {
            assert_int_equal(hdi_pairs_add(&t, b, a, &index), HD_OK);
        }
    }
    assert_int_equal(t.count, BATCH);
    assert_ptr_equal(t.recs, recs);
    assert_ptr_equal(t.slots, slots);
    assert_int_equal(hdi_pairs_reserve(&t, 10), HD_OK);
    assert_ptr_equal(t.slots, slots);
    for (int a = 0; a < N; ++a) {
        for (int b = a + 1; b < N; ++b) {
            index = hdi_pairs_find(&t, a, b);
            assert_true(index >= 0);
            assert_int_equal(t.recs[index].a, a);
            assert_int_equal(t.recs[index].b, b);
        }
    }
    hdi_pairs_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pair_table),
        cmocka_unit_test(test_pair_reserve),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
