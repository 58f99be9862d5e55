/* hd_signed_distance against independent answers: the brute-force separating-axis depth in long
 * double (tests/support/depth_oracle.c) on random overlapping pairs of every size from 1e-6 to 1e6,
 * the brute-force distance on separated pairs, the library's two depth methods (expanding
 * polytope and separating axes) against each other, flat and degenerate pairs, and the known
 * failures of other libraries' EPA with answers derived by hand. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "brute.h"
#include "depth_oracle.h"
#include "testutil.h"

static hd_rng rng;

/* The contract's tolerance: 1e-9 of the pair's size. */
#define ACCURACY 1e-9

typedef struct case_stats {
    int count;
    double worst_depth;  /* largest |depth - oracle| / size */
    double worst_normal; /* largest (h_M(n) - depth) / size */
    int epa, sat;
} case_stats;

/* Checks one answer against the oracle: depth, bounds, normal gap, witnesses. Returns the
 * normalised depth error. */
static double check_overlap(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                            const hd_pose *pb, const hd_contact *c, case_stats *cs)
{
    long double oracle = hd_oracle_depth(a, pa, b, pb, NULL);
    long double slack = hd_oracle_error(a, pa, b, pb);
    double depth = -c->signed_distance;
    double err = fabs((double)((long double)depth - oracle)) / c->size;
    long double h = hd_oracle_support(a, pa, b, pb, c->normal);
    double gap = (double)(h - (long double)depth) / c->size;
    int ok = err <= ACCURACY && gap <= ACCURACY && gap >= -ACCURACY &&
             (long double)c->depth_lower <= oracle + slack && oracle - slack <= (long double)c->depth_upper;
    double d[3];
    for (int k = 0; k < 3; ++k) {
        d[k] = c->witness_b[k] - c->witness_a[k] - c->signed_distance * c->normal[k];
    }
    double werr = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / c->size;
    double out_a = (double)hd_oracle_outside(a, pa, c->witness_a) / c->size;
    double out_b = (double)hd_oracle_outside(b, pb, c->witness_b) / c->size;
    ok = ok && werr <= ACCURACY && out_a <= ACCURACY && out_b <= ACCURACY;
    if (!ok) {
        printf("depth %.17g oracle %.17Lg (err %.3g size) bounds [%.17g, %.17g] normal gap %.3g "
               "witness err %.3g outside %.3g %.3g method %d size %.3g\n",
               depth, oracle, err, c->depth_lower, c->depth_upper, gap, werr, out_a, out_b,
               (int)c->method, c->size);
        hd_test_dump_pair("signed_distance", hd_polytope_vertices(a), hd_polytope_vertex_count(a),
                          pa, hd_polytope_vertices(b), hd_polytope_vertex_count(b), pb);
    }
    assert_true(ok);
    if (cs != NULL) {
        cs->count++;
        cs->worst_depth = fmax(cs->worst_depth, err);
        cs->worst_normal = fmax(cs->worst_normal, gap);
        cs->epa += c->method == HD_DEPTH_EPA;
        cs->sat += c->method == HD_DEPTH_SAT;
    }
    return err;
}

static hd_contact query(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                        const hd_pose *pb, unsigned flags)
{
    hd_options opt = hd_options_default();
    opt.flags = flags;
    hd_contact c;
    hd_status st = hd_signed_distance(a, pa, b, pb, &opt, &c);
    if (st != HD_OK) {
        printf("hd_signed_distance: %s\n", hd_status_str(st));
    }
    assert_int_equal(st, HD_OK);
    return c;
}

/* A random hull of k points in a box of half-size s, with a random pose near centre c. */
static hd_polytope *random_hull(int k, double s, double *xyz)
{
    hd_points_cloud(&rng, k, s, s * hd_rng_uniform(&rng, 0.2, 1.0), s * hd_rng_uniform(&rng, 0.2, 1.0),
                    xyz);
    return hd_test_build(xyz, k);
}

/* Thousands of random overlapping pairs: sizes 1e-6 to 1e6, any orientation, overlaps from
 * shallow to deep; the depth, bounds, normal and witnesses against the oracle, and the two
 * methods against each other. */
static void test_random_overlaps(void **state)
{
    (void)state;
    case_stats epa = {0}, sat = {0};
    double xyz[3 * 40];
    for (int i = 0; i < 2000; ++i) {
        double s = pow(10.0, hd_rng_uniform(&rng, -6.0, 6.0));
        hd_polytope *a = random_hull(4 + hd_rng_int(&rng, 20), s, xyz);
        hd_polytope *b = random_hull(4 + hd_rng_int(&rng, 20), s * hd_rng_uniform(&rng, 0.3, 2), xyz);
        double t[3], off = s * pow(10.0, hd_rng_uniform(&rng, -3.0, 0.0));
        hd_rng_unit_vector(&rng, t);
        for (int k = 0; k < 3; ++k) {
            t[k] = t[k] * off + s * pow(10.0, hd_rng_uniform(&rng, -1, 6)) * (i % 3 == 0);
        }
        hd_pose pa = hd_rng_pose(&rng, t), pb = hd_rng_pose(&rng, t);
        pb.t[0] += off * hd_rng_uniform(&rng, -1, 1);
        long double oracle = hd_oracle_depth(a, &pa, b, &pb, NULL);
        if (oracle > 0) {
            hd_contact c1 = query(a, &pa, b, &pb, 0);
            hd_contact c2 = query(a, &pa, b, &pb, HD_QUERY_DEPTH_SAT);
            check_overlap(a, &pa, b, &pb, &c1, &epa);
            check_overlap(a, &pa, b, &pb, &c2, &sat);
            assert_true(fabs(c1.signed_distance - c2.signed_distance) <= ACCURACY * c1.size);
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    printf("random overlaps: %d pairs; worst |depth - oracle| / size: default %.3g (%d by the "
           "expanding polytope, %d by separating axes), separating axes %.3g; worst normal gap / "
           "size %.3g and %.3g\n",
           epa.count, epa.worst_depth, epa.epa, epa.sat, sat.worst_depth, epa.worst_normal,
           sat.worst_normal);
    assert_true(epa.count > 500);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("test_signed_distance"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_overlaps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
