/* The scene's sweep-and-prune (scene/sap.c) on its own: under random inserts, small coherent
 * moves, jumps and removes, the pair table after every hdi_sap_update holds exactly the pairs of
 * live bodies whose closed boxes overlap, checked against all pairs of boxes. End points are often
 * snapped to a grid so that equal values (touching boxes) are common; the first frame and a frame
 * that reinserts every body take the full rebuild, the others the insertion sort. Seeded
 * (HEDRA_SEED). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "scene/box.h"
#include "scene/pairs.h"
#include "scene/sap.h"
#include "testutil.h"

enum { T_IDS = 150, T_FRAMES = 300, T_REINSERT_FRAME = 150 };

static uint64_t t_seed;

static int setup(void **state)
{
    (void)state;
    t_seed = hd_test_seed("unit/scene/sap");
    return 0;
}

typedef struct sap_model {
    hdi_box box[T_IDS];
    int live[T_IDS];
} sap_model;

/* Closed intervals meet on every axis: written here rather than taken from scene/box.h, so that
 * the reference does not share the code under test. */
static int reference_overlap(const hdi_box *a, const hdi_box *b)
{
    for (int k = 0; k < 3; ++k) {
        if (a->hi[k] < b->lo[k] || b->hi[k] < a->lo[k]) {
            return 0;
        }
    }
    return 1;
}

/* Half the time on a grid of 0.5, so that end points of different bodies coincide. */
static double coordinate(hd_rng *rng, double lo, double hi)
{
    double x = hd_rng_uniform(rng, lo, hi);
    return hd_rng_int(rng, 2) == 0 ? 0.5 * (double)(long)(2.0 * x) : x;
}

static void random_box(hd_rng *rng, hdi_box *b)
{
    for (int k = 0; k < 3; ++k) {
        b->lo[k] = coordinate(rng, 0.0, 15.0);
        b->hi[k] = b->lo[k] + coordinate(rng, 0.0, 3.0);
    }
}

static void shift_box(hd_rng *rng, hdi_box *b, double step)
{
    for (int k = 0; k < 3; ++k) {
        double d = coordinate(rng, -step, step);
        b->lo[k] += d;
        b->hi[k] += d;
    }
}

/* What the scene does before removing a body: drop its pairs from the table. */
static void drop_pairs_of(hdi_pair_table *pairs, int body)
{
    for (int i = pairs->count - 1; i >= 0; --i) {
        if (pairs->recs[i].a == body || pairs->recs[i].b == body) {
            hdi_pairs_remove_at(pairs, i);
        }
    }
}

static void check_pairs(const hdi_pair_table *pairs, const sap_model *m, int frame)
{
    int expected = 0;
    for (int a = 0; a < T_IDS; ++a) {
        for (int b = a + 1; b < T_IDS; ++b) {
            int want = m->live[a] && m->live[b] && reference_overlap(&m->box[a], &m->box[b]);
            int have = hdi_pairs_find(pairs, a, b) >= 0;
            if (want != have) {
                fail_msg("frame %d: pair (%d, %d) %s the table, boxes %s", frame, a, b,
                         have ? "in" : "missing from", want ? "overlap" : "apart");
            }
            expected += want;
        }
    }
    assert_int_equal(pairs->count, expected);
}

/* One frame's changes: a third of the live bodies moved a little, a few jumps, removes, adds. */
static void random_frame(hd_rng *rng, hdi_sap *sap, hdi_pair_table *pairs, sap_model *m)
{
    for (int id = 0; id < T_IDS; ++id) {
        if (!m->live[id] || hd_rng_int(rng, 3) != 0) {
            continue;
        }
        if (hd_rng_int(rng, 20) == 0) {
            random_box(rng, &m->box[id]);
        } else {
            shift_box(rng, &m->box[id], 0.4);
        }
        hdi_sap_move(sap, id, &m->box[id]);
    }
    for (int n = 0; n < 3; ++n) {
        int id = hd_rng_int(rng, T_IDS);
        if (m->live[id]) {
            drop_pairs_of(pairs, id);
            hdi_sap_remove(sap, id);
            m->live[id] = 0;
        } else {
            random_box(rng, &m->box[id]);
            assert_int_equal(hdi_sap_insert(sap, id, &m->box[id]), HD_OK);
            m->live[id] = 1;
        }
    }
}

/* Every body removed and inserted again at a new place: more end points appended than the
 * insertion sort takes, so the update rebuilds. */
static void reinsert_all(hd_rng *rng, hdi_sap *sap, hdi_pair_table *pairs, sap_model *m)
{
    for (int id = 0; id < T_IDS; ++id) {
        if (m->live[id]) {
            drop_pairs_of(pairs, id);
            hdi_sap_remove(sap, id);
        }
        random_box(rng, &m->box[id]);
        assert_int_equal(hdi_sap_insert(sap, id, &m->box[id]), HD_OK);
        m->live[id] = 1;
    }
}

static void test_sap_pairs(void **state)
{
    (void)state;
    static sap_model m;
    memset(&m, 0, sizeof m);
    hd_rng rng;
    hd_rng_init(&rng, t_seed + 23);
    hdi_sap sap;
    hdi_sap_init(&sap);
    hdi_pair_table pairs;
    hdi_pairs_init(&pairs, 0);
    for (int id = 0; id < T_IDS; ++id) {
        random_box(&rng, &m.box[id]);
        assert_int_equal(hdi_sap_insert(&sap, id, &m.box[id]), HD_OK);
        m.live[id] = 1;
    }
    long pairs_seen = 0;
    for (int frame = 0; frame < T_FRAMES; ++frame) {
        if (frame == T_REINSERT_FRAME) {
            reinsert_all(&rng, &sap, &pairs, &m);
        } else if (frame > 0) {
            random_frame(&rng, &sap, &pairs, &m);
        }
        assert_int_equal(hdi_sap_update(&sap, m.box, &pairs), HD_OK);
        check_pairs(&pairs, &m, frame);
        pairs_seen += pairs.count;
    }
    printf("sap: %d frames, %ld pairs checked\n", T_FRAMES, pairs_seen);
    assert_true(pairs_seen > T_FRAMES); /* the boxes met, the check was not vacuous */
    hdi_sap_free(&sap);
    hdi_pairs_free(&pairs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sap_pairs),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
