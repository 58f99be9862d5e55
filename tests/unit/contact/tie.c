/* The gradient's local tie test (contact/tie.c) against the pass over every facet of M = A - B
 * (contact/sat.c, the separating-axis enumeration): whenever the local test applies, every facet
 * the pass finds with a support value within the tie limit, its normal more than
 * HD_FEATURE_ANGLE from the depth's, is among the facets the local test visits. Pairs: boxes on
 * boxes turned by 1e-13 to 1e-3 radian about random axes (near-parallel facets: ties and near
 * ties), shallow and deep; prisms face to face; identical shapes at the same pose; random hulls of
 * every size from 1e-6 to 1e6. The counts of pairs with ties and of pairs the local test answered
 * are asserted, so that the comparison is not vacuous. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "contact/signed_distance.h"
#include "core/math.h"
#include "core/tolerances.h"
#include "testutil.h"

static hd_rng rng;

#define LOG_ROOM 256

/* The facets within the limit that one enumeration visits. */
typedef struct facet_log {
    const hdi_pair *pair;
    hd_stats *stats;
    const double *n;
    double limit;
    double normals[LOG_ROOM][3];
    int count;
} facet_log;

/* The tie test's rule (contact/gradient.c, is_tie), logging instead of stopping. */
static int log_near(void *ctx, hdi_mface *m)
{
    facet_log *l = ctx;
    if (m->h > l->limit) {
        return 0; /* m->h never exceeds the support value */
    }
    hdi_mface_refine(l->pair, m);
    double d[3];
    hdi_v3_sub(d, m->n, l->n);
    int ia = m->sa, ib = m->sb;
    if (hdi_v3_len(d) <= HD_FEATURE_ANGLE ||
        hdi_facet_support(l->pair, m->n, &ia, &ib, l->stats) > l->limit) {
        return 0;
    }
    if (l->count < LOG_ROOM) {
        hdi_v3_copy(l->normals[l->count], m->n);
    }
    ++l->count;
    return 0;
}

static int logged(const facet_log *l, const double n[3])
{
    for (int i = 0; i < l->count && i < LOG_ROOM; ++i) {
        double d[3];
        hdi_v3_sub(d, l->normals[i], n);
        if (hdi_v3_len(d) <= 1e-12) {
            return 1;
        }
    }
    return 0;
}

typedef struct tally {
    int pairs, local, tied, missed;
    int tied_anyway; /* pairs with facets within the limit, the local test applying or not */
    int walked;      /* facets within the limit and the slack's angle, checked by check_walk */
} tally;

/* The walk alone, on every pair: with the expanding polytope's bound taken as infinite the cap
 * is HD_GRADIENT_CAP_SLACK wide (not a proof, which is why the library does not do this), and
 * every facet of the full pass within the limit and within half that angle of the depth's normal
 * must be visited (the near-parallel ties, whatever the polytope saw). */
static void check_walk(const hdi_pair *pair, const hdi_sd_result *sd, const facet_log *full,
                       const char *name, tally *t)
{
    hdi_sd_result forced = *sd;
    forced.next_depth = 1e300;
    static facet_log walk;
    walk = *full;
    walk.count = 0;
    if (hdi_tie_each_cap_facet(pair, &forced, full->limit, full->stats, log_near, &walk) < 0) {
        return;
    }
    for (int i = 0; i < full->count && i < LOG_ROOM; ++i) {
        double d[3];
        hdi_v3_sub(d, full->normals[i], sd->n);
        if (hdi_v3_len(d) > 0.5 * HD_GRADIENT_CAP_SLACK) {
            continue;
        }
        ++t->walked;
        if (!logged(&walk, full->normals[i])) {
            ++t->missed;
            printf("%s: a facet %.3g radian from the depth's missed by the walk\n", name,
                   hdi_v3_len(d));
        }
    }
}

/* One pair: the signed distance with the gradient's bookkeeping, then both enumerations. */
static void compare(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                    const hd_pose *pb, const char *name, tally *t)
{
    hd_options opt = hd_options_default();
    opt.flags |= HD_QUERY_GRADIENT;
    hdi_pair pair;
    assert_int_equal(hdi_pair_init(&pair, a, pa, b, pb, &opt), HD_OK);
    hdi_scratch scratch = {NULL, 0};
    hd_stats stats;
    memset(&stats, 0, sizeof stats);
    hdi_sd_result sd;
    assert_int_equal(hdi_sd_pair(&pair, &opt, &scratch, &stats, &sd), HD_OK);
    if (sd.verdict != HD_INTERSECTING || sd.method == HD_SD_DISTANCE) {
        return;
    }
    ++t->pairs;
    double limit = -sd.delta + HD_GRADIENT_TIE_REL * sd.size + 2.0 * sd.margin;
    static facet_log full, local;
    full = (facet_log){&pair, &stats, sd.n, limit, {{0}}, 0};
    local = full;
    hdi_sat_each_facet(&pair, &stats, log_near, &full);
    t->tied_anyway += full.count > 0;
    check_walk(&pair, &sd, &full, name, t);
    if (hdi_tie_each_cap_facet(&pair, &sd, limit, &stats, log_near, &local) < 0) {
        return;
    }
    ++t->local;
    t->tied += full.count > 0;
    for (int i = 0; i < full.count && i < LOG_ROOM; ++i) {
        if (!logged(&local, full.normals[i])) {
            ++t->missed;
            printf("%s: a facet within the limit missed by the local test: normal (%.17g, %.17g, "
                   "%.17g), depth normal (%.17g, %.17g, %.17g), depth %.17g\n",
                   name, full.normals[i][0], full.normals[i][1], full.normals[i][2], sd.n[0],
                   sd.n[1], sd.n[2], -sd.delta);
        }
    }
}

static hd_polytope *box(double hx, double hy, double hz)
{
    double lo[3] = {-hx, -hy, -hz}, hi[3] = {hx, hy, hz}, xyz[24];
    hd_points_box(lo, hi, xyz);
    return hd_test_build(xyz, 8);
}

/* A turn by angle about the unit axis u, then the translation t. */
static hd_pose turned(const double u[3], double angle, const double t[3])
{
    double q[4] = {cos(angle / 2), sin(angle / 2) * u[0], sin(angle / 2) * u[1],
                   sin(angle / 2) * u[2]};
    hd_pose p;
    assert_int_equal(hd_pose_from_quaternion(q, t, &p), HD_OK);
    return p;
}

/* A slab resting on a wide box, turned by tiny angles: the faces in contact make facets of M
 * whose normals differ by the angle, tied or nearly tied with the depth's. */
static void test_tilted_boxes(void **state)
{
    (void)state;
    hd_polytope *base = box(2.0, 2.0, 0.5), *slab = box(0.7, 0.4, 0.3);
    tally t = {0};
    hd_pose ident = hd_pose_identity();
    for (int i = 0; i < 600; ++i) {
        double u[3];
        hd_rng_unit_vector(&rng, u);
        double angle = pow(10.0, hd_rng_uniform(&rng, -13.0, -3.0));
        double depth = pow(10.0, hd_rng_uniform(&rng, -6.0, -0.5));
        double c[3] = {hd_rng_uniform(&rng, -1.0, 1.0), hd_rng_uniform(&rng, -1.0, 1.0),
                       0.5 + 0.3 - depth};
        hd_pose p = turned(u, angle, c);
        compare(base, &ident, slab, &p, "tilted boxes", &t);
    }
    printf("tilted boxes: %d overlapping, %d answered locally, %d with facets within the limit, "
           "%d missed (%d with such facets in all, %d near-parallel walked)\n",
           t.pairs, t.local, t.tied, t.missed, t.tied_anyway, t.walked);
    assert_int_equal(t.missed, 0);
    assert_true(t.local >= t.pairs / 4);
    assert_true(t.walked >= 10);
    hd_polytope_destroy(base);
    hd_polytope_destroy(slab);
}

/* Prisms of k sides face to face and side by side, slightly turned about their axis: edges and
 * side faces nearly parallel. */
static void test_prisms(void **state)
{
    (void)state;
    tally t = {0};
    double xyz[2 * 3 * 12];
    for (int i = 0; i < 300; ++i) {
        int k = 3 + hd_rng_int(&rng, 10);
        hd_points_prism(k, hd_rng_uniform(&rng, 0.1, 2.0), xyz);
        hd_polytope *p = hd_test_build(xyz, 2 * k);
        double z[3] = {0.0, 0.0, 1.0}, axis[3];
        hd_rng_unit_vector(&rng, axis);
        double c[3] = {hd_rng_uniform(&rng, 0.0, 1.9), hd_rng_uniform(&rng, -0.2, 0.2),
                       hd_rng_uniform(&rng, -0.1, 0.1)};
        hd_pose pa = hd_pose_identity();
        hd_pose pb = turned(i % 2 ? z : axis, pow(10.0, hd_rng_uniform(&rng, -9.0, -1.0)), c);
        compare(p, &pa, p, &pb, "prisms", &t);
        hd_polytope_destroy(p);
    }
    printf("prisms: %d overlapping, %d answered locally, %d with facets within the limit, %d "
           "missed (%d with such facets in all, %d near-parallel walked)\n",
           t.pairs, t.local, t.tied, t.missed, t.tied_anyway, t.walked);
    assert_int_equal(t.missed, 0);
    assert_true(t.local > 0);
}

/* Random hulls of every size, at random poses, and a hull against itself. */
static void test_random_hulls(void **state)
{
    (void)state;
    tally t = {0};
    double xyz[3 * 40];
    for (int i = 0; i < 400; ++i) {
        double s = pow(10.0, hd_rng_uniform(&rng, -6.0, 6.0));
        int na = 4 + hd_rng_int(&rng, 30), nb = 4 + hd_rng_int(&rng, 30);
        hd_points_ellipsoid(&rng, na, s, 0.7 * s, 0.5 * s, xyz);
        hd_polytope *a = hd_test_build(xyz, na);
        hd_points_cloud(&rng, nb, 0.6 * s, 0.5 * s, 0.4 * s, xyz);
        hd_polytope *b = hd_test_build(xyz, nb);
        double c[3] = {hd_rng_uniform(&rng, -s, s), hd_rng_uniform(&rng, -s, s),
                       hd_rng_uniform(&rng, -s, s)};
        hd_pose pa = hd_rng_pose(&rng, c), pb = hd_rng_pose(&rng, c);
        pb.t[0] += hd_rng_uniform(&rng, -0.8 * s, 0.8 * s);
        compare(a, &pa, b, &pb, "random hulls", &t);
        compare(a, &pa, a, &pa, "a hull against itself", &t);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    printf("random hulls: %d overlapping, %d answered locally, %d with facets within the limit, "
           "%d missed (%d with such facets in all, %d near-parallel walked)\n",
           t.pairs, t.local, t.tied, t.missed, t.tied_anyway, t.walked);
    assert_int_equal(t.missed, 0);
    assert_true(t.local >= t.pairs / 4);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("unit/contact/tie"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tilted_boxes),
        cmocka_unit_test(test_prisms),
        cmocka_unit_test(test_random_hulls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
