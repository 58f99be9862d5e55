/* Cross-check suite: every algorithm against the exact GLPK oracle on thousands of seeded pairs
 * from many families (tests/support/families.c). For every pair and algorithm:
 *   - the query succeeds and its certificate passes hd_certificate_check;
 *   - the verdict agrees with the exact sign of the signed distance outside the touching band
 *     (hd_oracle_verdict_ok, with |delta| from the brute-force reference for small sets and from
 *     the placement's separating plane otherwise);
 *   - for small separated pairs, hd_distance matches the brute-force distance and its witness
 *     points lie on their polytopes.
 * Failures print a reproducible pair file. HEDRA_CROSSCHECK_SCALE (default 1) scales the counts. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "brute.h"
#include "families.h"
#include "oracle.h"

#define HD_CC_BRUTE_MAX 40 /* brute-force distance reference up to this many points per side */
#define HD_CC_SAT_MAX 16   /* brute-force signed distance (O(n^2 m^2) axes) up to this many */

typedef struct hd_cc_counts {
    int pairs;
    int checked[HD_ALGO_COUNT];
    int failures[HD_ALGO_COUNT];
    int touching[HD_ALGO_COUNT];
    int fallbacks[HD_ALGO_COUNT]; /* answers another algorithm gave (stop = HD_STOP_FALLBACK) */
    int distances;
    int distance_failures;
} hd_cc_counts;

static hd_test_pair hd_cc_pair;
static double hd_cc_wa[3 * HD_FAM_MAX_POINTS], hd_cc_wb[3 * HD_FAM_MAX_POINTS];

static double scale_factor(void)
{
    const char *env = getenv("HEDRA_CROSSCHECK_SCALE");
    double s = env ? atof(env) : 1.0;
    return s > 0.0 ? s : 1.0;
}

static void dump(const char *family, const char *what)
{
    char tag[96];
    snprintf(tag, sizeof tag, "%s-%s", what, family);
    for (char *c = tag; *c; ++c) {
        if (*c == ' ' || *c == '/') {
            *c = '_';
        }
    }
    hd_test_pair *p = &hd_cc_pair;
    hd_test_dump_pair(tag, p->a, p->na, &p->pose_a, p->b, p->nb, &p->pose_b);
}

/* |delta| when a reference knows it: the brute-force signed distance for small sets, or the
 * placement's plane for separated placements (it separates by exactly the nominal gap, so
 * delta >= nominal). -1 when unknown. */
static double magnitude(const hd_test_pair *p, int sign)
{
    if (p->na <= HD_CC_SAT_MAX && p->nb <= HD_CC_SAT_MAX) {
        return fabs(hd_brute_signed_distance(hd_cc_wa, p->na, hd_cc_wb, p->nb));
    }
    if (p->placed && sign > 0 && p->nominal > 0.0) {
        return p->nominal;
    }
    return -1.0;
}

/* For a touching verdict on a pair whose |delta| is unknown: is it possibly within 2 eps?
 * Overlapping (sign -1): not when B moved by +-2 sqrt(3) eps along each axis still meets A (the
 * octahedron spanned by those shifts, which contains the ball of radius 2 eps, lies in A - B).
 * Disjoint (sign +1): not when B grown by the cube of half-width 2 eps stays disjoint from A. */
static int touching_plausible(int sign, double eps)
{
    hd_test_pair *p = &hd_cc_pair;
    double h = 2.0 * eps;
    if (sign < 0) {
        for (int k = 0; k < 6; ++k) {
            double shift[3] = {0, 0, 0};
            shift[k / 2] = (k & 1 ? -1.0 : 1.0) * h * sqrt(3.0);
            if (hd_oracle_meet_dim(3, hd_cc_wa, p->na, hd_cc_wb, p->nb, shift) == 0) {
                return 1;
            }
        }
        return 0;
    }
    static double grown[3 * 8 * 200];
    if (p->nb > 200) {
        return 1; /* too large for the exact oracle: accept */
    }
    for (int i = 0; i < p->nb; ++i) {
        for (int c = 0; c < 8; ++c) {
            for (int k = 0; k < 3; ++k) {
                grown[3 * (8 * i + c) + k] = hd_cc_wb[3 * i + k] + ((c >> k) & 1 ? h : -h);
            }
        }
    }
    return hd_oracle_intersect(hd_cc_wa, p->na, grown, 8 * p->nb) == 1;
}

static int verdict_ok(int sign, double mag, double eps, hd_verdict v)
{
    if (mag >= 0.0) {
        return hd_oracle_verdict_ok(sign, mag, eps, 1.0, v);
    }
    if (v == HD_TOUCHING) {
        return sign == 0 || touching_plausible(sign, eps);
    }
    return (sign > 0 && v == HD_SEPARATED) || (sign < 0 && v == HD_INTERSECTING);
}

static int check_algo(const char *family, hd_algo algo, const hd_polytope *a,
                      const hd_polytope *b, int sign, double mag, hd_cc_counts *c)
{
    hd_options opt = hd_options_default();
    opt.algo = algo;
    hd_collide_result r;
    hd_test_pair *p = &hd_cc_pair;
    hd_status st = hd_collide(a, &p->pose_a, b, &p->pose_b, &opt, &r);
    c->checked[algo]++;
    int ok = st == HD_OK && hd_certificate_check(a, &p->pose_a, b, &p->pose_b, r.verdict, r.eps, &r.cert) == HD_OK &&
             verdict_ok(sign, mag, r.eps, r.verdict);
    if (!ok) {
        printf("%s: %s: status %s, verdict %s, oracle sign %d, |delta| >= %.3g, eps %.3g\n",
               family, hd_algo_str(algo), hd_status_str(st), hd_verdict_str(r.verdict), sign, mag,
               r.eps);
        dump(family, hd_algo_str(algo));
        c->failures[algo]++;
    } else if (r.verdict == HD_TOUCHING) {
        c->touching[algo]++;
    }
    c->fallbacks[algo] += ok && r.stop == HD_STOP_FALLBACK;
    return ok;
}

/* Distance and witnesses against the brute-force reference, for small separated pairs. */
static void check_distance(const char *family, const hd_polytope *a, const hd_polytope *b,
                           double scale, hd_cc_counts *c)
{
    hd_test_pair *p = &hd_cc_pair;
    hd_distance_result r;
    double ref = hd_brute_distance(hd_cc_wa, p->na, hd_cc_wb, p->nb, NULL, NULL);
    hd_status st = hd_distance(a, &p->pose_a, b, &p->pose_b, NULL, &r);
    double tol = 256.0 * DBL_EPSILON * scale;
    c->distances++;
    int ok = st == HD_OK && fabs(r.distance - ref) <= tol;
    if (st == HD_OK && r.verdict == HD_TOUCHING) {
        ok = r.distance == 0.0 && ref <= 2.0 * r.eps; /* within the band the distance is 0 */
    }
    if (ok && r.verdict == HD_SEPARATED) {
        double on_a = hd_brute_distance(hd_cc_wa, p->na, r.witness_a, 1, NULL, NULL);
        double on_b = hd_brute_distance(hd_cc_wb, p->nb, r.witness_b, 1, NULL, NULL);
        double between = sqrt(pow(r.witness_a[0] - r.witness_b[0], 2) +
                              pow(r.witness_a[1] - r.witness_b[1], 2) +
                              pow(r.witness_a[2] - r.witness_b[2], 2));
        ok = on_a <= tol && on_b <= tol && fabs(between - r.distance) <= tol;
    }
    if (!ok) {
        printf("%s: distance %.17g, reference %.17g (status %s)\n", family, r.distance, ref,
               hd_status_str(st));
        dump(family, "distance");
        c->distance_failures++;
    }
}

static void run_pair(const char *family, hd_cc_counts *c)
{
    hd_test_pair *p = &hd_cc_pair;
    hd_polytope *a = hd_test_build(p->a, p->na);
    hd_polytope *b = hd_test_build(p->b, p->nb);
    assert_non_null(a);
    assert_non_null(b);
    hd_fam_world(p->a, p->na, &p->pose_a, hd_cc_wa);
    hd_fam_world(p->b, p->nb, &p->pose_b, hd_cc_wb);
    int sign = hd_oracle_sign(hd_cc_wa, p->na, hd_cc_wb, p->nb);
    assert_true(sign != -2);
    double mag = magnitude(p, sign);
    c->pairs++;
    for (int algo = 0; algo < HD_ALGO_COUNT; ++algo) {
        check_algo(family, (hd_algo)algo, a, b, sign, mag, c);
    }
    double scale = hd_fam_scale(p);
    if (sign > 0 && p->na <= HD_CC_BRUTE_MAX && p->nb <= HD_CC_BRUTE_MAX) {
        check_distance(family, a, b, scale, c);
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

static void test_families(void **state)
{
    (void)state;
    hd_rng rng;
    uint64_t seed = hd_test_seed("test_crosscheck");
    double factor = scale_factor();
    int total_failures = 0;
    printf("%-26s %6s %18s %18s %18s %10s\n", "family", "pairs", "gjk ok/touch/fb",
           "cddual ok/touch/fb", "lp ok/touch/fb", "distances");
    for (int f = 0; hd_families[f].name != NULL; ++f) {
        hd_rng_init(&rng, seed + 7919u * (uint64_t)f);
        hd_cc_counts c;
        memset(&c, 0, sizeof c);
        int count = (int)ceil(hd_families[f].count * factor);
        clock_t t0 = clock();
        for (int i = 0; i < count; ++i) {
            memset(&hd_cc_pair, 0, offsetof(hd_test_pair, a));
            hd_families[f].make(&rng, i, &hd_cc_pair);
            run_pair(hd_families[f].name, &c);
        }
        printf("%-26s %6d", hd_families[f].name, c.pairs);
        for (int algo = 0; algo < HD_ALGO_COUNT; ++algo) {
            char cell[48];
            snprintf(cell, sizeof cell, "%d/%d/%d", c.checked[algo] - c.failures[algo],
                     c.touching[algo], c.fallbacks[algo]);
            printf(" %18s", cell);
            total_failures += c.failures[algo];
        }
        printf("  %6d/%-4d %6.1f s\n", c.distances - c.distance_failures, c.distances,
               (double)(clock() - t0) / CLOCKS_PER_SEC);
        total_failures += c.distance_failures;
        fflush(stdout);
    }
    printf("cross-check: %d disagreements or rejected certificates\n", total_failures);
    assert_int_equal(total_failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_families)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
