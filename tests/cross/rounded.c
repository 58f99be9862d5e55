/* Rounded pairs against the brute-force references on their cores: for R = r_A + r_B the signed
 * distance of the rounded shapes is the cores' brute-force signed distance (tests/support/brute.c,
 * long double, no code of the library) minus R. Random cores of every dimension (a point, a
 * segment, a flat polygon, a solid), radii from 0 up to the cores' size, scales 1e-6 to 1e6, a
 * third of the pairs placed a few band widths from contact along the brute-force normal. Checks:
 * every algorithm's verdict against the band, every certificate (hd_certificate_check), the
 * signed distance and its bounds, the distance and witnesses, the manifold's deepest point; the
 * cores' side of contact is confirmed by GLPK's exact LP (tests/support/oracle.c) and the depth
 * of overlapping solid cores by the depth oracle (tests/support/depth_oracle.c); hd_gap's
 * travel along a random direction leaves the pair touching by the same reference.
 * HEDRA_ROUNDED_PAIRS (default 3000) sets the count; failures print the seed and write a pair
 * file. */
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
#include "oracle.h"
#include "testutil.h"

#define RP_MAX_POINTS 10
#define RP_CLOSE_REL 1e-9 /* the accuracy contract: 1e-9 of the pair's size */

typedef struct rp_core {
    double local[3 * RP_MAX_POINTS];
    int n;
    double radius;
    hd_polytope *poly;
    hd_pose pose;
    double world[3 * RP_MAX_POINTS];
} rp_core;

typedef struct rp_counts {
    int verdict[3];
    int certificates;
    int near_band;
    int manifolds;
    int glpk;
    int gaps;
    int depths;
} rp_counts;

/* n points of one dimension 0..3 in a box of half side s: a point, a segment, a polygon in a
 * random plane, a cloud */
static void random_core(hd_rng *rng, int dim, double s, rp_core *c)
{
    double u[3], v[3], w[3];
    hd_rng_unit_vector(rng, u);
    hd_rng_unit_vector(rng, w);
    v[0] = u[1] * w[2] - u[2] * w[1]; /* v perpendicular to u */
    v[1] = u[2] * w[0] - u[0] * w[2];
    v[2] = u[0] * w[1] - u[1] * w[0];
    double lv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    c->n = dim == 0 ? 1 : (dim == 1 ? 2 : 3 + hd_rng_int(rng, RP_MAX_POINTS - 2));
    for (int i = 0; i < c->n; ++i) {
        double x = hd_rng_uniform(rng, -s, s), y = hd_rng_uniform(rng, -s, s);
        for (int k = 0; k < 3; ++k) {
            double p = dim == 0 ? 0.0 : x * u[k];
            p += dim >= 2 ? y * v[k] / lv : 0.0;
            p += dim == 3 ? hd_rng_uniform(rng, -s, s) : 0.0;
            c->local[3 * i + k] = p;
        }
    }
    int kind = hd_rng_int(rng, 10);
    c->radius = kind < 2 ? 0.0 : s * pow(10.0, hd_rng_uniform(rng, -2.0, 0.0));
    if (kind == 2) { /* within a few band widths: the cores' own contact decides */
        c->radius = hd_rng_uniform(rng, 0.0, 4.0) * HD_DEFAULT_TOUCH_REL * s;
    }
}

static void pose_world(rp_core *c)
{
    for (int i = 0; i < c->n; ++i) {
        hd_pose_apply(&c->pose, c->local + 3 * i, c->world + 3 * i);
    }
}

/* whether M = A - B has an interior (a solid core, or flat cores that span a volume): the
 * brute-force depth is exact only then; tested by the volume of the Minkowski differences */
static int spans_volume(const rp_core *a, const rp_core *b, double s)
{
    double d[3 * RP_MAX_POINTS * RP_MAX_POINTS];
    int m = 0;
    for (int i = 0; i < a->n; ++i) {
        for (int j = 0; j < b->n; ++j, ++m) {
            for (int k = 0; k < 3; ++k) {
                d[3 * m + k] = a->world[3 * i + k] - b->world[3 * j + k];
            }
        }
    }
    double best = 0.0;
    for (int i = 1; i < m; ++i) {
        for (int j = i + 1; j < m; ++j) {
            for (int l = j + 1; l < m; ++l) {
                double e1[3], e2[3], e3[3];
                for (int k = 0; k < 3; ++k) {
                    e1[k] = d[3 * i + k] - d[k];
                    e2[k] = d[3 * j + k] - d[k];
                    e3[k] = d[3 * l + k] - d[k];
                }
                double vol = e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) -
                             e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) +
                             e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
                best = fmax(best, fabs(vol));
            }
        }
    }
    return best > 1e-6 * s * s * s;
}

static hd_verdict band_verdict(double delta, double eps)
{
    return delta > eps ? HD_SEPARATED : (delta < -eps ? HD_INTERSECTING : HD_TOUCHING);
}

/* The brute-force signed distance of the cores, with the closest points when apart. */
static double core_delta(const rp_core *a, const rp_core *b, double wa[3], double wb[3])
{
    double sat = hd_brute_sat(a->world, a->n, b->world, b->n, NULL);
    if (sat < 0.0) {
        return hd_brute_distance(a->world, a->n, b->world, b->n, wa, wb);
    }
    return -sat;
}

static void dump(const char *tag, const rp_core *a, const rp_core *b)
{
    printf("failing pair: radii %.17g %.17g\n", a->radius, b->radius);
    hd_test_dump_pair(tag, a->local, a->n, &a->pose, b->local, b->n, &b->pose);
}

/* The verdict and certificate of every algorithm, and hd_distance's answer. */
static void check_collide(const rp_core *a, const rp_core *b, double ex, double fuzz,
                          rp_counts *counts)
{
    for (int algo = 0; algo < HD_ALGO_COUNT; ++algo) {
        hd_options opt = hd_options_default();
        opt.algo = (hd_algo)algo;
        hd_collide_result r;
        assert_int_equal(hd_collide(a->poly, &a->pose, b->poly, &b->pose, &opt, &r), HD_OK);
        hd_status cs =
            hd_certificate_check(a->poly, &a->pose, b->poly, &b->pose, r.verdict, r.eps, &r.cert);
        int edge = fabs(fabs(ex) - r.eps) <= fuzz;
        if (cs != HD_OK || (!edge && r.verdict != band_verdict(ex, r.eps))) {
            printf("algo %s: verdict %s, expected delta %.17g (eps %.3g), certificate %d\n",
                   hd_algo_str(opt.algo), hd_verdict_str(r.verdict), ex, r.eps, cs);
            dump("rounded-collide", a, b);
            fail();
        }
        counts->verdict[r.verdict]++;
        counts->certificates++;
    }
    hd_distance_result d;
    assert_int_equal(hd_distance(a->poly, &a->pose, b->poly, &b->pose, NULL, &d), HD_OK);
    assert_int_equal(
        hd_certificate_check(a->poly, &a->pose, b->poly, &b->pose, d.verdict, d.eps, &d.cert),
        HD_OK);
    if (d.verdict == HD_SEPARATED) {
        double gap =
            sqrt(pow(d.witness_a[0] - d.witness_b[0], 2) + pow(d.witness_a[1] - d.witness_b[1], 2) +
                 pow(d.witness_a[2] - d.witness_b[2], 2));
        double tol = fuzz + RP_CLOSE_REL * fabs(ex);
        if (fabs(d.distance - ex) > tol || fabs(gap - d.distance) > tol) {
            printf("distance %.17g, witnesses %.17g apart, expected %.17g\n", d.distance, gap, ex);
            dump("rounded-distance", a, b);
            fail();
        }
    }
}

/* The signed distance and its bounds, and the manifold's deepest point at it. */
static void check_contact(const rp_core *a, const rp_core *b, double ex, int exact,
                          rp_counts *counts)
{
    hd_signed_distance_result sd;
    hd_manifold m;
    assert_int_equal(hd_contact_manifold(a->poly, &a->pose, b->poly, &b->pose, NULL, &sd, &m),
                     HD_OK);
    double tol = RP_CLOSE_REL * sd.size;
    if (exact &&
        (fabs(sd.signed_distance - ex) > tol || sd.lower > ex + tol || sd.upper < ex - tol)) {
        printf("signed distance %.17g [%.17g, %.17g], expected %.17g (size %.3g)\n",
               sd.signed_distance, sd.lower, sd.upper, ex, sd.size);
        dump("rounded-signed", a, b);
        fail();
    }
    if (m.count > 0) {
        double deepest = INFINITY;
        for (int i = 0; i < m.count; ++i) {
            deepest = fmin(deepest, m.points[i].separation);
        }
        if (fabs(deepest - sd.signed_distance) > 1e-7 * sd.size) {
            printf("manifold deepest %.17g, signed distance %.17g\n", deepest, sd.signed_distance);
            dump("rounded-manifold", a, b);
            fail();
        }
        counts->manifolds++;
    } else if (sd.signed_distance < -sd.eps) {
        printf("no manifold point at signed distance %.17g\n", sd.signed_distance);
        dump("rounded-manifold", a, b);
        fail();
    }
}

/* Moves B along the cores' brute-force normal so that the rounded pair's signed distance is
 * k eps (the cores overlap slightly when R is below k eps: the oracle is computed afresh). */
static int place_near_band(hd_rng *rng, rp_core *a, rp_core *b)
{
    double wa[3], wb[3];
    double d = core_delta(a, b, wa, wb);
    double R = a->radius + b->radius;
    if (!(d > 0.0)) {
        return 0;
    }
    hd_collide_result probe;
    assert_int_equal(hd_collide(a->poly, &a->pose, b->poly, &b->pose, NULL, &probe), HD_OK);
    const double ks[] = {-3.0, -1.5, -0.5, 0.5, 1.5, 3.0};
    double target = R + ks[hd_rng_int(rng, 6)] * probe.eps;
    for (int k = 0; k < 3; ++k) {
        b->pose.t[k] += (target - d) * (wb[k] - wa[k]) / d;
    }
    pose_world(b);
    return 1;
}

/* The directional gap: B moved by s_sign distance s must touch A (within the band), the cores'
 * brute-force distance equal to R then (for R > 0, the cores apart at contact). */
static void check_gap(hd_rng *rng, rp_core *a, rp_core *b, rp_counts *counts)
{
    double R = a->radius + b->radius, s[3];
    if (!(R > 0.0)) {
        return;
    }
    hd_rng_unit_vector(rng, s);
    hd_gap_result g;
    assert_int_equal(hd_gap(a->poly, &a->pose, b->poly, &b->pose, s, NULL, &g), HD_OK);
    if (!g.contact) {
        return;
    }
    rp_core moved = *b;
    for (int k = 0; k < 3; ++k) {
        moved.pose.t[k] += g.s_sign * g.distance * s[k];
    }
    pose_world(&moved);
    double wa[3], wb[3];
    double d = core_delta(a, &moved, wa, wb) - R;
    hd_signed_distance_result sd;
    assert_int_equal(hd_signed_distance(a->poly, &a->pose, b->poly, &b->pose, NULL, &sd), HD_OK);
    if (fabs(d) > RP_CLOSE_REL * sd.size + sd.eps) { /* touching: within the band */
        printf("gap %.17g along %+d s leaves the rounded pair %.17g apart\n", g.distance, g.s_sign,
               d);
        dump("rounded-gap", a, b);
        fail();
    }
    counts->gaps++;
}

/* One random pair: cores of random dimension (solids only when thin) at scale s, radii as
 * random_core draws them (within a few band widths when thin), placed near the band when near. */
static void one_pair(hd_rng *rng, int thin, int near, rp_counts *counts)
{
    double s = pow(10.0, hd_rng_uniform(rng, -6.0, 6.0));
    rp_core a, b;
    random_core(rng, thin ? 3 : hd_rng_int(rng, 4), s, &a);
    random_core(rng, thin ? 3 : hd_rng_int(rng, 4), s, &b);
    if (thin) {
        a.radius = hd_rng_uniform(rng, 0.0, 3.0) * HD_DEFAULT_TOUCH_REL * s;
        b.radius = hd_rng_uniform(rng, 0.0, 3.0) * HD_DEFAULT_TOUCH_REL * s;
    }
    assert_int_equal(hd_polytope_build_rounded(a.local, a.n, a.radius, NULL, &a.poly), HD_OK);
    assert_int_equal(hd_polytope_build_rounded(b.local, b.n, b.radius, NULL, &b.poly), HD_OK);
    double ta[3], tb[3], spread = hd_rng_int(rng, 3) == 0 ? 0.5 * s : 3.0 * s; /* deep or apart */
    for (int k = 0; k < 3; ++k) {
        ta[k] = hd_rng_uniform(rng, -s, s);
        tb[k] = ta[k] + hd_rng_uniform(rng, -spread, spread);
    }
    a.pose = hd_rng_pose(rng, ta);
    b.pose = hd_rng_pose(rng, tb);
    pose_world(&a);
    pose_world(&b);
    if (near) {
        counts->near_band += place_near_band(rng, &a, &b);
    }
    double wa[3], wb[3];
    double core = core_delta(&a, &b, wa, wb);
    int exact = core > 0.0 || spans_volume(&a, &b, s);
    double ex = core - (a.radius + b.radius);
    /* the cores' side by GLPK's exact LP agrees with the brute force (a second reference) */
    int sign = hd_oracle_sign(a.world, a.n, b.world, b.n);
    if (sign != -2 && fabs(core) > 1e-14 * s) {
        assert_int_equal(sign == 1, core > 0.0);
        counts->glpk++;
    }
    /* overlapping solid cores: the depth oracle's separating axes over the cores' faces and
     * edges (tests/support/depth_oracle.c) agree with the brute-force depth */
    if (core < 0.0 && hd_polytope_dimension(a.poly) == 3 && hd_polytope_dimension(b.poly) == 3) {
        long double depth = hd_oracle_depth(a.poly, &a.pose, b.poly, &b.pose, NULL);
        long double err = hd_oracle_error(a.poly, &a.pose, b.poly, &b.pose);
        assert_true(fabsl(depth + (long double)core) <= err + 1e-12L * s);
        counts->depths++;
    }
    hd_collide_result probe;
    assert_int_equal(hd_collide(a.poly, &a.pose, b.poly, &b.pose, NULL, &probe), HD_OK);
    double fuzz = hd_test_band_fuzz(probe.eps) + 1e-15 * s;
    if (exact || ex < -2.0 * probe.eps) {
        check_collide(&a, &b, ex, fuzz, counts);
    }
    check_contact(&a, &b, ex, exact, counts);
    check_gap(rng, &a, &b, counts);
    hd_polytope_destroy(a.poly);
    hd_polytope_destroy(b.poly);
}

static int pair_count(void)
{
    const char *env = getenv("HEDRA_ROUNDED_PAIRS");
    return env != NULL && atoi(env) > 0 ? atoi(env) : 3000;
}

static void report(const char *what, int pairs, const rp_counts *counts)
{
    printf("%s: %d pairs (%d near the band): %d separated, %d touching, %d intersecting "
           "verdicts, %d certificates, %d manifolds, %d cores' sides confirmed by GLPK, %d depths "
           "by the depth oracle, %d gaps\n",
           what, pairs, counts->near_band, counts->verdict[0], counts->verdict[1],
           counts->verdict[2], counts->certificates, counts->manifolds, counts->glpk,
           counts->depths, counts->gaps);
}

static void test_random_rounded_pairs(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, hd_test_seed("cross/rounded"));
    int pairs = pair_count();
    rp_counts counts;
    memset(&counts, 0, sizeof counts);
    for (int i = 0; i < pairs; ++i) {
        one_pair(&rng, 0, i % 3 == 0, &counts);
    }
    report("random", pairs, &counts);
    assert_true(counts.verdict[0] > pairs / 10 && counts.verdict[2] > pairs / 10);
    assert_true(counts.verdict[1] > 0 && counts.near_band > pairs / 20);
    assert_true(counts.gaps > pairs / 10);
}

/* Solids with radii within three band widths, placed a few band widths from contact: the
 * rounded verdict then rests on the cores' own contact (their exact depth when they overlap). */
static void test_thin_radii(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, hd_test_seed("cross/rounded thin") + 1);
    int pairs = pair_count() / 3;
    rp_counts counts;
    memset(&counts, 0, sizeof counts);
    for (int i = 0; i < pairs; ++i) {
        one_pair(&rng, 1, 1, &counts);
    }
    report("thin", pairs, &counts);
    assert_true(counts.verdict[1] > pairs / 10 && counts.verdict[2] > pairs / 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_rounded_pairs),
        cmocka_unit_test(test_thin_radii),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
