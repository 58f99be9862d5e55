/* Scene filters and the proximity margin against brute force: on random scenes of small hulls,
 * flat polygons and segments with random categories, masks and groups, every step reports
 * exactly the pairs the filter lets through whose signed distance, by the long-double brute force
 * of tests/support/brute.c (no library query), is below the proximity, with that signed
 * distance; pairs within the band of the proximity or of contact are not judged. A new filter on
 * bodies that do not move takes effect at the next step; the output is the same to the bit on
 * 1, 2 and 8 threads and both broad phases; bad arguments get their status. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "brute.h"
#include "testutil.h"

#define T_SHAPES 5
#define T_BODIES 36
#define T_MAX_VERTS 12

static hd_polytope *t_shapes[T_SHAPES];
static uint64_t t_seed;

/* Small shapes (the brute force grows as n^4): ellipsoids of 8 and 12 points, a box, a square, a
 * segment. */
static int setup(void **state)
{
    (void)state;
    t_seed = hd_test_seed("api/scene_filter");
    hd_rng rng;
    hd_rng_init(&rng, t_seed);
    double xyz[3 * T_MAX_VERTS];
    hd_points_ellipsoid(&rng, 8, 1.0, 0.7, 0.5, xyz);
    t_shapes[0] = hd_test_build(xyz, 8);
    hd_points_ellipsoid(&rng, 12, 0.8, 0.8, 0.6, xyz);
    t_shapes[1] = hd_test_build(xyz, 12);
    double lo[3] = {-0.5, -0.4, -0.3}, hi[3] = {0.5, 0.4, 0.3};
    hd_points_box(lo, hi, xyz);
    t_shapes[2] = hd_test_build(xyz, 8);
    double square[12] = {-0.6, -0.6, 0, 0.6, -0.6, 0, 0.6, 0.6, 0, -0.6, 0.6, 0};
    t_shapes[3] = hd_test_build(square, 4);
    double segment[6] = {-0.8, 0, 0, 0.8, 0, 0};
    t_shapes[4] = hd_test_build(segment, 2);
    for (int i = 0; i < T_SHAPES; ++i) {
        assert_non_null(t_shapes[i]);
    }
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

/* The test's own copy of the bodies: shape, pose, filter. */
typedef struct model {
    int count;
    int shape[T_BODIES];
    hd_pose pose[T_BODIES];
    hd_scene_filter filter[T_BODIES];
} model;

/* The filter rule of hedra/scene.h, written out again here. */
static int filter_lets(const hd_scene_filter *a, const hd_scene_filter *b)
{
    if (a->group != 0 && a->group == b->group) {
        return 0;
    }
    return (a->category & b->mask) != 0 && (b->category & a->mask) != 0;
}

static double brute_signed_distance(const model *m, int a, int b)
{
    double pa[3 * T_MAX_VERTS], pb[3 * T_MAX_VERTS];
    const hd_polytope *sa = t_shapes[m->shape[a]], *sb = t_shapes[m->shape[b]];
    hd_brute_posed_vertices(sa, &m->pose[a], pa);
    hd_brute_posed_vertices(sb, &m->pose[b], pb);
    return hd_brute_signed_distance(pa, hd_polytope_vertex_count(sa), pb,
                                    hd_polytope_vertex_count(sb));
}

static hd_scene_filter random_filter(hd_rng *rng)
{
    hd_scene_filter f = hd_scene_filter_default();
    f.category = 1u << hd_rng_int(rng, 3);
    f.mask = hd_rng_int(rng, 3) == 0 ? (uint32_t)hd_rng_int(rng, 8) : 0xffffffffu;
    f.group = hd_rng_int(rng, 4) == 0 ? 1 + hd_rng_int(rng, 2) : 0;
    return f;
}

static void random_model(hd_rng *rng, model *m, int moving)
{
    m->count = T_BODIES;
    for (int i = 0; i < T_BODIES; ++i) {
        if (!moving) {
            m->shape[i] = hd_rng_int(rng, T_SHAPES);
            m->filter[i] = random_filter(rng);
        }
        double t[3];
        for (int k = 0; k < 3; ++k) {
            t[k] = hd_rng_uniform(rng, 0.0, 5.0);
        }
        m->pose[i] = hd_rng_pose(rng, t);
    }
}

/* The step's report against the brute force: a pair the filter lets through with signed
 * distance below d - slack is listed, one above d + slack or filtered is not; a listed pair's
 * signed distance agrees with the brute force and its verdict says separated exactly when it is
 * above the band. Returns the pairs judged within the proximity. */
static int check_report(const model *m, double d, const hd_scene_contact *c, int count)
{
    const double slack = 1e-9, band = 1e-10; /* the shapes' size is about 1 */
    int k = 0, near = 0;
    for (int a = 0; a < m->count; ++a) {
        for (int b = a + 1; b < m->count; ++b) {
            int listed = k < count && c[k].a == a && c[k].b == b;
            int lets = filter_lets(&m->filter[a], &m->filter[b]);
            double delta = lets ? brute_signed_distance(m, a, b) : INFINITY;
            if (listed) {
                k++;
            }
            if (fabs(delta - d) <= slack) {
                continue; /* at the edge of the proximity: either answer is right */
            }
            if (listed != (delta < d)) {
                printf("seed %llu: pair (%d, %d) filter %d brute %.17g, proximity %g: listed %d\n",
                       (unsigned long long)t_seed, a, b, lets, delta, d, listed);
                fail();
            }
            if (!listed) {
                continue;
            }
            const hd_scene_contact *e = &c[k - 1];
            if (d > 0.0) {
                assert_non_null(e->contact);
                assert_true(fabs(e->contact->signed_distance - delta) <= slack);
            }
            if (fabs(delta) > band) {
                assert_int_equal(e->verdict == HD_SEPARATED, delta > 0.0);
            }
            near += delta > band;
        }
    }
    assert_int_equal(k, count);
    return near;
}

static hd_scene *new_scene(hd_broadphase bp, int threads, double proximity)
{
    hd_scene_options o = hd_scene_options_default();
    o.threads = threads;
    o.broadphase = bp;
    o.proximity = proximity;
    hd_scene *s = NULL;
    assert_int_equal(hd_scene_create(&o, &s), HD_OK);
    return s;
}

static void add_model(hd_scene *s, const model *m)
{
    for (int i = 0; i < m->count; ++i) {
        int id = -1;
        assert_int_equal(hd_scene_add(s, t_shapes[m->shape[i]], &m->pose[i], NULL, &id), HD_OK);
        assert_int_equal(id, i);
        assert_int_equal(hd_scene_set_filter(s, id, &m->filter[i]), HD_OK);
    }
}

/* Random scenes, moved for a few frames, against the brute force, at proximities from 0 (only
 * contacts) to 1 (most neighbours); both broad phases. */
static void test_random_against_brute(void **state)
{
    (void)state;
    static const double proximity[4] = {0.0, 0.05, 0.3, 1.0};
    int judged = 0;
    for (int round = 0; round < 8; ++round) {
        hd_rng rng;
        hd_rng_init(&rng, t_seed + 977u * (uint64_t)round);
        model m;
        random_model(&rng, &m, 0);
        double d = proximity[round % 4];
        hd_scene *s = new_scene((hd_broadphase)(round % 2), 2, d);
        add_model(s, &m);
        for (int frame = 0; frame < 3; ++frame) {
            const hd_scene_contact *c = NULL;
            int count = 0;
            hd_scene_stats st;
            assert_int_equal(hd_scene_step(s, &c, &count, &st), HD_OK);
            int near = check_report(&m, d, c, count);
            judged += near;
            if (d == 0.0) {
                assert_int_equal(st.near, 0);
            }
            random_model(&rng, &m, 1);
            for (int i = 0; i < m.count; ++i) {
                assert_int_equal(hd_scene_move(s, i, &m.pose[i]), HD_OK);
            }
        }
        hd_scene_destroy(s);
    }
    assert_true(judged > 50); /* the proximity was exercised, not only contacts */
}

/* A filter set on bodies that stay put takes effect at the next step, both ways. */
static void test_filter_on_resting_bodies(void **state)
{
    (void)state;
    hd_scene *s = new_scene(HD_BROADPHASE_TREE, 1, 0.0);
    hd_pose p0 = hd_test_translation(0, 0, 0), p1 = hd_test_translation(0.5, 0, 0);
    int a = -1, b = -1;
    assert_int_equal(hd_scene_add(s, t_shapes[2], &p0, NULL, &a), HD_OK);
    assert_int_equal(hd_scene_add(s, t_shapes[2], &p1, NULL, &b), HD_OK);
    const hd_scene_contact *c = NULL;
    int count = 0;
    assert_int_equal(hd_scene_step(s, &c, &count, NULL), HD_OK);
    assert_int_equal(count, 1);
    hd_scene_filter same = hd_scene_filter_default();
    same.group = 7;
    assert_int_equal(hd_scene_set_filter(s, a, &same), HD_OK);
    assert_int_equal(hd_scene_set_filter(s, b, &same), HD_OK);
    assert_int_equal(hd_scene_step(s, &c, &count, NULL), HD_OK);
    assert_int_equal(count, 0);
    hd_scene_filter blind = hd_scene_filter_default();
    blind.mask = 2u; /* a's category 1 is not in b's mask */
    assert_int_equal(hd_scene_set_filter(s, a, &(hd_scene_filter){1u, 0xffffffffu, 0}), HD_OK);
    assert_int_equal(hd_scene_set_filter(s, b, &blind), HD_OK);
    assert_int_equal(hd_scene_step(s, &c, &count, NULL), HD_OK);
    assert_int_equal(count, 0);
    hd_scene_filter back;
    assert_int_equal(hd_scene_filter_of(s, b, &back), HD_OK);
    assert_int_equal(back.mask, 2u);
    hd_scene_filter all = hd_scene_filter_default();
    assert_int_equal(hd_scene_set_filter(s, b, &all), HD_OK);
    assert_int_equal(hd_scene_step(s, &c, &count, NULL), HD_OK);
    assert_int_equal(count, 1);
    hd_scene_destroy(s);
}

/* One contact's bits, for the comparison between thread counts. */
static void digest(const hd_scene_contact *c, int count, double *out)
{
    for (int i = 0; i < count; ++i) {
        out[4 * i] = c[i].a;
        out[4 * i + 1] = c[i].b;
        out[4 * i + 2] = c[i].verdict;
        out[4 * i + 3] = c[i].contact->signed_distance;
    }
}

/* The same report, to the bit, on 1, 2 and 8 threads and both broad phases. */
static void test_same_on_every_thread_count(void **state)
{
    (void)state;
    static const int threads[3] = {1, 2, 8};
    hd_rng rng;
    hd_rng_init(&rng, t_seed + 5u);
    model m;
    random_model(&rng, &m, 0);
    double *first = NULL;
    int first_count = -1;
    for (int run = 0; run < 6; ++run) {
        hd_scene *s = new_scene((hd_broadphase)(run / 3), threads[run % 3], 0.4);
        add_model(s, &m);
        const hd_scene_contact *c = NULL;
        int count = 0;
        assert_int_equal(hd_scene_step(s, &c, &count, NULL), HD_OK);
        double *bits = calloc((size_t)(4 * count + 1), sizeof *bits);
        assert_non_null(bits);
        digest(c, count, bits);
        if (first == NULL) {
            first = bits;
            first_count = count;
        } else {
            assert_int_equal(count, first_count);
            assert_memory_equal(bits, first, (size_t)(4 * count) * sizeof *bits);
            free(bits);
        }
        hd_scene_destroy(s);
    }
    assert_true(first_count > 0);
    free(first);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    hd_scene_options o = hd_scene_options_default();
    hd_scene *s = NULL;
    static const double bad[4] = {-1e-3, NAN, INFINITY, 1e300};
    for (int i = 0; i < 4; ++i) {
        o.proximity = bad[i];
        assert_int_equal(hd_scene_create(&o, &s), HD_ERR_INVALID_ARG);
        assert_null(s);
    }
    s = new_scene(HD_BROADPHASE_SAP, 1, 0.1);
    hd_scene_filter f = hd_scene_filter_default();
    assert_int_equal(hd_scene_set_filter(NULL, 0, &f), HD_ERR_NULL);
    assert_int_equal(hd_scene_set_filter(s, 0, NULL), HD_ERR_NULL);
    assert_int_equal(hd_scene_set_filter(s, 0, &f), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_scene_set_filter(s, -1, &f), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_scene_filter_of(s, 3, &f), HD_ERR_INVALID_ARG);
    int id = -1;
    assert_int_equal(hd_scene_add(s, t_shapes[0], NULL, NULL, &id), HD_OK);
    assert_int_equal(hd_scene_remove(s, id), HD_OK);
    assert_int_equal(hd_scene_set_filter(s, id, &f), HD_ERR_INVALID_ARG);
    hd_scene_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_brute),
        cmocka_unit_test(test_filter_on_resting_bodies),
        cmocka_unit_test(test_same_on_every_thread_count),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
