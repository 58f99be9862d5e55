/* The scene's dynamic AABB tree (scene/tree.c): structure and box queries against a scan under
 * random inserts, local moves and removes; the top-down build, its height and its overlapping
 * pairs (each once, against all pairs of boxes). Seeded (HEDRA_SEED). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "scene/box.h"
#include "scene/tree.h"
#include "testutil.h"

static uint64_t t_seed;

static int setup(void **state)
{
    (void)state;
    t_seed = hd_test_seed("unit/scene/tree");
    return 0;
}

typedef struct tree_hits {
    int count;
    unsigned char seen[512];
} tree_hits;

static int tree_hit(void *ctx, int body)
{
    tree_hits *h = ctx;
    h->seen[body]++;
    h->count++;
    return 0;
}

/* Every leaf's box queried: the leaves met are exactly those whose boxes overlap it. */
static void check_tree_queries(const hdi_tree *t, const int *leaf, double (*lo)[3], double (*hi)[3],
                               int n)
{
    for (int i = 0; i < n; ++i) {
        if (leaf[i] < 0) {
            continue;
        }
        static tree_hits h;
        memset(&h, 0, sizeof h);
        assert_int_equal(hdi_tree_query(t, lo[i], hi[i], tree_hit, &h), 0);
        for (int j = 0; j < n; ++j) {
            int overlap = leaf[j] >= 0 && lo[i][0] <= hi[j][0] && lo[j][0] <= hi[i][0] &&
                          lo[i][1] <= hi[j][1] && lo[j][1] <= hi[i][1] && lo[i][2] <= hi[j][2] &&
                          lo[j][2] <= hi[i][2];
            assert_int_equal(h.seen[j], overlap);
        }
    }
}

/* The tree's structure and queries against a scan, under random inserts, local moves (by
 * reinsertion, and by hdi_tree_update: in place or reinserted) and removes. */
static void test_tree(void **state)
{
    (void)state;
    enum { N = 500 };
    static double lo[N][3], hi[N][3];
    static int leaf[N];
    int in_place = 0, updates = 0;
    hdi_tree t;
    hdi_tree_init(&t);
    assert_int_equal(hdi_tree_reserve(&t, N), HD_OK);
    hd_rng rng;
    hd_rng_init(&rng, t_seed + 19);
    for (int i = 0; i < N; ++i) {
        leaf[i] = -1;
    }
    for (int it = 0; it < 5000; ++it) {
        int i = hd_rng_int(&rng, N);
        if (leaf[i] >= 0 && hd_rng_int(&rng, 2) == 0) { /* a local move */
            for (int k = 0; k < 3; ++k) {
                double d = hd_rng_uniform(&rng, -1.0, 1.0);
                lo[i][k] += d;
                hi[i][k] += d + hd_rng_uniform(&rng, 0.0, 0.5);
            }
            leaf[i] = hdi_tree_move(&t, leaf[i], lo[i], hi[i]);
            continue;
        }
        if (leaf[i] >= 0 && hd_rng_int(&rng, 2) == 0) { /* a small move, in place when it can */
            for (int k = 0; k < 3; ++k) {
                double d = hd_rng_uniform(&rng, -0.3, 0.3);
                lo[i][k] += d;
                hi[i][k] += d;
            }
            int before = leaf[i];
            leaf[i] = hdi_tree_update(&t, leaf[i], lo[i], hi[i]);
            in_place += leaf[i] == before;
            updates++;
            continue;
        }
        if (leaf[i] >= 0) {
            hdi_tree_remove(&t, leaf[i]);
            leaf[i] = -1;
        }
        if (hd_rng_int(&rng, 4) != 0) {
            for (int k = 0; k < 3; ++k) {
                lo[i][k] = hd_rng_uniform(&rng, 0.0, 50.0);
                hi[i][k] = lo[i][k] + hd_rng_uniform(&rng, 0.0, 3.0);
            }
            leaf[i] = hdi_tree_insert(&t, lo[i], hi[i], i);
        }
        if (it % 500 == 0) {
            assert_true(hdi_tree_check(&t));
            check_tree_queries(&t, leaf, lo, hi, N);
        }
    }
    assert_true(hdi_tree_check(&t));
    check_tree_queries(&t, leaf, lo, hi, N);
    printf("tree: %d leaves, height %d, %d of %d updates in place\n", t.leaves, hdi_tree_height(&t),
           in_place, updates);
    assert_true(hdi_tree_height(&t) < 40);
    assert_true(in_place > 0 && in_place < updates); /* both ways were taken */
    hdi_tree_free(&t);
}

typedef struct pair_count {
    int count;
    int twice;
    unsigned char (*seen)[300];
} pair_count;

static int count_pair(void *ctx, int a, int b)
{
    pair_count *pc = ctx;
    int lo = a < b ? a : b, hi = a < b ? b : a;
    pc->twice += pc->seen[lo][hi] != 0;
    pc->seen[lo][hi] = 1;
    pc->count++;
    return 0;
}

/* The top-down build and the tree against itself: structure, height, every overlapping pair
 * once (against a scan), then local moves on the built tree. Boxes include identical ones. */
static void test_tree_build(void **state)
{
    (void)state;
    enum { N = 300 };
    static hdi_box boxes[N];
    static unsigned char seen[N][300];
    static double lo[N][3], hi[N][3];
    int ids[N], leaves[N], leaf[N];
    hd_rng rng;
    hd_rng_init(&rng, t_seed + 37);
    for (int i = 0; i < N; ++i) {
        for (int k = 0; k < 3; ++k) {
            boxes[i].lo[k] = i % 10 == 0 ? 5.0 : hd_rng_uniform(&rng, 0.0, 30.0);
            boxes[i].hi[k] = boxes[i].lo[k] + (i % 10 == 0 ? 1.0 : hd_rng_uniform(&rng, 0.0, 3.0));
        }
        ids[i] = i;
    }
    hdi_tree t;
    hdi_tree_init(&t);
    assert_int_equal(hdi_tree_reserve(&t, N), HD_OK);
    hdi_tree_build(&t, ids, N, boxes, leaves);
    assert_true(hdi_tree_check(&t));
    assert_true(hdi_tree_height(&t) <= 10); /* ceil(log2 300) + 1 */
    for (int k = 0; k < N; ++k) {
        leaf[ids[k]] = leaves[k];
        assert_int_equal(t.nodes[leaves[k]].child2, ids[k]);
    }
    memset(seen, 0, sizeof seen);
    pair_count pc = {0, 0, seen};
    assert_int_equal(hdi_tree_pairs(&t, count_pair, &pc), 0);
    int expected = 0;
    for (int a = 0; a < N; ++a) {
        for (int b = a + 1; b < N; ++b) {
            int overlap = hdi_box_overlap(boxes[a].lo, boxes[a].hi, boxes[b].lo, boxes[b].hi);
            expected += overlap;
            assert_int_equal(seen[a][b], overlap);
        }
    }
    assert_int_equal(pc.count, expected);
    assert_int_equal(pc.twice, 0);
    for (int i = 0; i < N; ++i) {
        memcpy(lo[i], boxes[i].lo, sizeof lo[i]);
        memcpy(hi[i], boxes[i].hi, sizeof hi[i]);
    }
    for (int it = 0; it < 1000; ++it) {
        int i = hd_rng_int(&rng, N);
        for (int k = 0; k < 3; ++k) {
            double d = hd_rng_uniform(&rng, -0.5, 0.5);
            lo[i][k] += d;
            hi[i][k] += d;
        }
        leaf[i] = it % 2 ? hdi_tree_update(&t, leaf[i], lo[i], hi[i])
                         : hdi_tree_move(&t, leaf[i], lo[i], hi[i]);
    }
    assert_true(hdi_tree_check(&t));
    check_tree_queries(&t, leaf, lo, hi, N);
    hdi_tree_free(&t);
}

/* The build in jobs (as the scene runs it on several threads, here in reverse order) gives the
 * very tree of hdi_tree_build, node for node; the pair tasks visit every overlapping pair once
 * (against a scan), for leaf counts from 1 up, odd and even, around the jobs' count. */
static void test_tree_build_in_jobs(void **state)
{
    (void)state;
    enum { N = 300 };
    static hdi_box boxes[N];
    static unsigned char seen[N][300];
    static const int sizes[7] = {1, 2, 7, 8, 9, 61, N};
    hd_rng rng;
    hd_rng_init(&rng, t_seed + 41);
    for (int i = 0; i < N; ++i) {
        for (int k = 0; k < 3; ++k) {
            boxes[i].lo[k] = hd_rng_uniform(&rng, 0.0, 20.0);
            boxes[i].hi[k] = boxes[i].lo[k] + hd_rng_uniform(&rng, 0.0, 3.0);
        }
    }
    for (int c = 0; c < 7; ++c) {
        int n = sizes[c], ids[N], ids2[N], leaves[N], leaves2[N];
        for (int i = 0; i < n; ++i) {
            ids[i] = ids2[i] = (7 * i) % N;
        }
        hdi_tree one, split;
        hdi_tree_init(&one);
        hdi_tree_init(&split);
        assert_int_equal(hdi_tree_reserve(&one, n), HD_OK);
        assert_int_equal(hdi_tree_reserve(&split, n), HD_OK);
        hdi_tree_build(&one, ids, n, boxes, leaves);
        hdi_tree_jobs jobs;
        hdi_tree_build_split(&split, ids2, n, boxes, &jobs);
        for (int j = jobs.count - 1; j >= 0; --j) {
            hdi_tree_build_job(&split, ids2, boxes, &jobs.job[j], leaves2);
        }
        hdi_tree_build_join(&split, &jobs);
        assert_true(hdi_tree_check(&split));
        assert_int_equal(split.root, one.root);
        assert_memory_equal(ids, ids2, (size_t)n * sizeof *ids);
        assert_memory_equal(leaves, leaves2, (size_t)n * sizeof *leaves);
        assert_memory_equal(one.nodes, split.nodes, (size_t)(2 * n - 1) * sizeof *one.nodes);
        memset(seen, 0, sizeof seen);
        pair_count pc = {0, 0, seen};
        for (int k = 0; k < hdi_tree_pair_task_count(&jobs); ++k) {
            assert_int_equal(hdi_tree_pair_task(&split, &jobs, k, count_pair, &pc), 0);
        }
        int expected = 0;
        for (int a = 0; a < n; ++a) {
            for (int b = a + 1; b < n; ++b) {
                int lo = ids[a] < ids[b] ? ids[a] : ids[b], hi = ids[a] ^ ids[b] ^ lo;
                int overlap =
                    hdi_box_overlap(boxes[lo].lo, boxes[lo].hi, boxes[hi].lo, boxes[hi].hi);
                expected += overlap;
                assert_int_equal(seen[lo][hi], overlap);
            }
        }
        assert_int_equal(pc.count, expected);
        assert_int_equal(pc.twice, 0);
        hdi_tree_free(&one);
        hdi_tree_free(&split);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree),
        cmocka_unit_test(test_tree_build),
        cmocka_unit_test(test_tree_build_in_jobs),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
