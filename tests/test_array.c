/* The growable-array helper (core/array.h): geometric growth, the overflow checks of count * size,
 * the sticky failure flag, and failures injected into realloc through the linker's --wrap. The
 * expected capacities come from the doubling rule written out here, not from the helper. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/array.h"
#include "testutil.h"

/* Allocation failures on demand: with t_realloc_left >= 0, that many more reallocs succeed and
 * every later one fails; t_realloc_calls counts the calls that reached the wrapper. */
static int t_realloc_left = -1;
static int t_realloc_calls;

void *__real_realloc(void *p, size_t size);
void *__wrap_realloc(void *p, size_t size);

void *__wrap_realloc(void *p, size_t size)
{
    t_realloc_calls++;
    if (t_realloc_left >= 0 && t_realloc_left-- == 0) {
        t_realloc_left = 0; /* every later one fails too */
        return NULL;
    }
    return __real_realloc(p, size);
}

/* The smallest power-of-two multiple of start that holds need (start > 0), by the rule itself. */
static long long doubled(long long start, long long need)
{
    long long cap = start;
    while (cap < need) {
        cap *= 2;
    }
    return cap;
}

static void test_growth_is_geometric(void **state)
{
    (void)state;
    int *a = NULL, cap = 0, failed = 0, grows = 0, last = 0;
    for (int n = 1; n <= 5000; ++n) {
        assert_true(hdi_array_reserve(&a, &cap, n, 16, sizeof *a, &failed));
        assert_int_equal(cap, doubled(16, n));
        a[n - 1] = 3 * n; /* room for n elements, written and kept across growth */
        grows += cap != last;
        last = cap;
    }
    for (int n = 1; n <= 5000; ++n) {
        assert_int_equal(a[n - 1], 3 * n);
    }
    assert_int_equal(grows, 10); /* 16, 32, ..., 8192 */
    assert_false(failed);
    free(a);
}

static void test_capacity_rule(void **state)
{
    (void)state;
    assert_int_equal(hdi_array_grown_capacity(0, 1, 64, 8), 64);
    assert_int_equal(hdi_array_grown_capacity(0, 65, 64, 8), 128);
    assert_int_equal(hdi_array_grown_capacity(100, 101, 64, 8), 200);
    assert_int_equal(hdi_array_grown_capacity(100, 1000, 64, 8), 1600);
    assert_int_equal(hdi_array_grown_capacity(0, 0, 0, 8), 1); /* a minimum of 0 means 1 */
    assert_int_equal(hdi_array_grown_capacity(0, -1, 16, 8), -1);
    /* near the top the doubling is clamped to the largest int count */
    assert_int_equal(hdi_array_grown_capacity(INT_MAX / 2 + 1, INT_MAX, 16, 1), INT_MAX);
    assert_int_equal(hdi_array_grown_capacity(1 << 30, (1 << 30) + 1, 16, 1), INT_MAX);
}

/* count * size beyond SIZE_MAX (or an int count) is refused before any allocation. */
static void test_size_overflow(void **state)
{
    (void)state;
    size_t huge = SIZE_MAX / 4 + 1; /* 4 elements overflow */
    assert_int_equal(hdi_array_grown_capacity(0, 4, 1, huge), -1);
    assert_int_equal(hdi_array_grown_capacity(0, 3, 1, huge), 3);
    assert_int_equal(hdi_array_grown_capacity(2, 3, 1, huge), 3); /* clamped, not 4 */
    char *a = NULL;
    int cap = 0, failed = 0;
    t_realloc_calls = 0;
    assert_false(hdi_array_reserve(&a, &cap, 4, 1, huge, &failed));
    assert_true(failed);
    assert_null(a);
    assert_int_equal(cap, 0);
    failed = 0;
    assert_false(hdi_array_resize(&a, 4, huge, &failed));
    assert_true(failed);
    failed = 0;
    assert_false(hdi_array_resize(&a, -1, 1, &failed));
    assert_true(failed);
    assert_int_equal(t_realloc_calls, 0);
}

/* A failed growth leaves the array and its capacity as they were; the flag stays set and every
 * later growth through it fails without reaching the allocator, until its owner clears it. */
static void test_sticky_flag(void **state)
{
    (void)state;
    double *a = NULL, *b = NULL;
    int cap_a = 0, cap_b = 0, failed = 0;
    assert_true(hdi_array_reserve(&a, &cap_a, 10, 8, sizeof *a, &failed));
    for (int i = 0; i < 10; ++i) {
        a[i] = i + 0.5;
    }
    double *before = a;
    t_realloc_calls = 0;
    t_realloc_left = 0;
    assert_false(hdi_array_reserve(&a, &cap_a, 100, 8, sizeof *a, &failed));
    t_realloc_left = -1;
    assert_true(failed);
    assert_ptr_equal(a, before);
    assert_int_equal(cap_a, 16);
    for (int i = 0; i < 10; ++i) {
        assert_true(a[i] == i + 0.5);
    }
    assert_int_equal(t_realloc_calls, 1);
    /* sticky: nothing more is asked of the allocator */
    assert_false(hdi_array_reserve(&b, &cap_b, 1, 8, sizeof *b, &failed));
    assert_false(hdi_array_resize(&a, 64, sizeof *a, &failed));
    assert_int_equal(t_realloc_calls, 1);
    assert_null(b);
    assert_int_equal(cap_b, 0);
    /* room already there needs no allocation, flag or not */
    assert_true(hdi_array_reserve(&a, &cap_a, 16, 8, sizeof *a, &failed));
    assert_true(failed);
    failed = 0; /* the owner takes the flag: growth works again */
    assert_true(hdi_array_reserve(&a, &cap_a, 100, 8, sizeof *a, &failed));
    assert_int_equal(cap_a, 128);
    assert_false(failed);
    free(a);
}

/* Several arrays grown in a row through one flag, with the k-th realloc failing for every k in
 * turn: each array keeps its contents, the capacity changes only when all grew, and a retry
 * after the flag is cleared completes the growth. */
static void test_injected_failures(void **state)
{
    (void)state;
    enum { ARRAYS = 4, FILL = 40 };
    int reached_all = 0;
    for (int k = 0; k <= ARRAYS && !reached_all; ++k) {
        int *arr[ARRAYS] = {NULL};
        int cap = 0, failed = 0;
        for (int j = 0; j < ARRAYS; ++j) { /* a first growth to 8, with values */
            assert_true(hdi_array_resize(&arr[j], 8, sizeof(int), &failed));
            for (int i = 0; i < 8; ++i) {
                arr[j][i] = 100 * j + i;
            }
        }
        cap = 8;
        int grown = hdi_array_grown_capacity(cap, FILL, 8, sizeof(int));
        assert_int_equal(grown, doubled(8, FILL));
        t_realloc_calls = 0;
        t_realloc_left = k;
        for (int j = 0; j < ARRAYS; ++j) {
            hdi_array_resize(&arr[j], grown, sizeof(int), &failed);
        }
        t_realloc_left = -1;
        reached_all = !failed;
        assert_int_equal(t_realloc_calls, failed ? k + 1 : ARRAYS); /* none after the failure */
        assert_int_equal(failed, k < ARRAYS);
        cap = failed ? cap : grown;
        for (int j = 0; j < ARRAYS; ++j) {
            for (int i = 0; i < 8; ++i) {
                assert_int_equal(arr[j][i], 100 * j + i);
            }
        }
        if (failed) { /* the retry after the owner took the flag */
            failed = 0;
            for (int j = 0; j < ARRAYS; ++j) {
                assert_true(hdi_array_resize(&arr[j], grown, sizeof(int), &failed));
            }
            cap = grown;
        }
        assert_int_equal(cap, 64);
        for (int j = 0; j < ARRAYS; ++j) {
            arr[j][FILL - 1] = j; /* the room is there */
            free(arr[j]);
        }
    }
    assert_true(reached_all);
}

/* Random needs against the rule: after each reserve the capacity is the smallest doubling of the
 * previous one (or of the minimum) that holds the need, and the earlier contents survive. */
static void test_random_needs(void **state)
{
    (void)state;
    uint64_t seed = hd_test_seed("test_array");
    hd_rng rng;
    hd_rng_init(&rng, seed);
    for (int round = 0; round < 200; ++round) {
        long long *a = NULL;
        int cap = 0, failed = 0, filled = 0, min_cap = 1 + (int)(hd_rng_next(&rng) % 100);
        for (int step = 0; step < 30; ++step) {
            int need = (int)(hd_rng_next(&rng) % 4000);
            int before = cap;
            assert_true(hdi_array_reserve(&a, &cap, need, min_cap, sizeof *a, &failed));
            long long want = need <= before ? before : doubled(before > 0 ? before : min_cap, need);
            assert_int_equal(cap, want);
            for (int i = 0; i < filled; ++i) {
                assert_true(a[i] == (long long)i * i);
            }
            for (int i = filled; i < need; ++i) {
                a[i] = (long long)i * i;
            }
            filled = need > filled ? need : filled;
        }
        free(a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_growth_is_geometric), cmocka_unit_test(test_capacity_rule),
        cmocka_unit_test(test_size_overflow),       cmocka_unit_test(test_sticky_flag),
        cmocka_unit_test(test_injected_failures),   cmocka_unit_test(test_random_needs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
