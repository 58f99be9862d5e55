/* The time of impact (hd_toi, hd_shape_cast) against an independent reference: the motion posed
 * in long double from unit quaternions (not the library's Rodrigues matrices), the brute-force
 * signed distance of tests/support/brute.c at dense samples, and the motion's speed bound
 * between samples (a segment [t0, t1] is free when d(t0) + d(t1) > L (t1 - t0)). Safety (lo never
 * past the first contact) is checked on every instance; the known failures of other libraries
 * (issue 42, item 5) are named cases. HEDRA_MOTION_SCALE multiplies the random counts. */
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

static hd_rng rng;

#define MAX_POINTS 16

/* A body of the reference: its raw points (local), and its motion. */
typedef struct body {
    double local[3 * MAX_POINTS];
    int n;
    hd_polytope *poly;
    hd_motion m;
} body;

/* q v q* for the unit quaternion of the rotation by |w| t about w (long double). */
static void rotate(const double w[3], double t, const long double v[3], long double out[3])
{
    long double th =
        sqrtl((long double)w[0] * w[0] + (long double)w[1] * w[1] + (long double)w[2] * w[2]);
    if (th == 0.0L || t == 0.0) {
        memcpy(out, v, 3 * sizeof(long double));
        return;
    }
    long double half = 0.5L * th * t, s = sinl(half) / th, qw = cosl(half);
    long double q[3] = {s * w[0], s * w[1], s * w[2]};
    long double c1[3] = {q[1] * v[2] - q[2] * v[1] + qw * v[0],
                         q[2] * v[0] - q[0] * v[2] + qw * v[1],
                         q[0] * v[1] - q[1] * v[0] + qw * v[2]};
    long double c2[3] = {q[1] * c1[2] - q[2] * c1[1], q[2] * c1[0] - q[0] * c1[2],
                         q[0] * c1[1] - q[1] * c1[0]};
    for (int k = 0; k < 3; ++k) {
        out[k] = v[k] + 2.0L * c2[k];
    }
}

/* The points of a body at t: p(t) = c + Rot(t w)(p - c) + t v, p = R0 x + T0. */
static void posed_at(const body *b, double t, double *out)
{
    for (int i = 0; i < b->n; ++i) {
        long double p[3], r[3];
        for (int k = 0; k < 3; ++k) {
            p[k] = (long double)b->m.pose0.t[k] - b->m.c[k];
            for (int j = 0; j < 3; ++j) {
                p[k] += (long double)b->m.pose0.r[3 * k + j] * b->local[3 * i + j];
            }
        }
        rotate(b->m.w, t, p, r);
        for (int k = 0; k < 3; ++k) {
            out[3 * i + k] = (double)((long double)b->m.c[k] + r[k] + (long double)t * b->m.v[k]);
        }
    }
}

/* The brute-force distance when the plane through its closest points, normal to their
 * difference, separates the two point sets (then it is the distance); the brute-force signed
 * distance (its separating-axis search) otherwise. */
static double ref_signed_distance(const body *a, const body *b, double t)
{
    double pa[3 * MAX_POINTS], pb[3 * MAX_POINTS], wa[3], wb[3];
    posed_at(a, t, pa);
    posed_at(b, t, pb);
    double d = hd_brute_distance(pa, a->n, pb, b->n, wa, wb);
    double n[3] = {wb[0] - wa[0], wb[1] - wa[1], wb[2] - wa[2]};
    double ha = -HUGE_VAL, hb = HUGE_VAL, slack = 1e-6 * d * d;
    for (int i = 0; i < a->n; ++i) {
        ha = fmax(ha, n[0] * pa[3 * i] + n[1] * pa[3 * i + 1] + n[2] * pa[3 * i + 2]);
    }
    for (int i = 0; i < b->n; ++i) {
        hb = fmin(hb, n[0] * pb[3 * i] + n[1] * pb[3 * i + 1] + n[2] * pb[3 * i + 2]);
    }
    double ca = n[0] * wa[0] + n[1] * wa[1] + n[2] * wa[2];
    double cb = n[0] * wb[0] + n[1] * wb[1] + n[2] * wb[2];
    if (d > 0.0 && ha <= ca + slack && hb >= cb - slack) {
        return d;
    }
    return hd_brute_signed_distance(pa, a->n, pb, b->n);
}

/* The reference's own speed bound: |v| + |w| max |p - c| (rotation keeps |p - c|). */
static double ref_speed(const body *b)
{
    double p[3 * MAX_POINTS], reach = 0.0;
    posed_at(b, 0.0, p);
    for (int i = 0; i < b->n; ++i) {
        double d[3] = {p[3 * i] - b->m.c[0], p[3 * i + 1] - b->m.c[1], p[3 * i + 2] - b->m.c[2]};
        reach = fmax(reach, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
    }
    double v = sqrt(b->m.v[0] * b->m.v[0] + b->m.v[1] * b->m.v[1] + b->m.v[2] * b->m.v[2]);
    double w = sqrt(b->m.w[0] * b->m.w[0] + b->m.w[1] * b->m.w[1] + b->m.w[2] * b->m.w[2]);
    return (v + w * reach * 1.000001) * 1.000001;
}

static void body_build(body *b)
{
    b->poly = hd_test_build(b->local, b->n);
    assert_non_null(b->poly);
}

static void body_box(body *b, double hx, double hy, double hz)
{
    double lo[3] = {-hx, -hy, -hz}, hi[3] = {hx, hy, hz};
    hd_points_box(lo, hi, b->local);
    b->n = 8;
    body_build(b);
}

static void body_still(body *b, const hd_pose *pose)
{
    memset(&b->m, 0, sizeof b->m);
    b->m.pose0 = *pose;
    memcpy(b->m.c, pose->t, sizeof b->m.c);
}

/* What the reference concluded about one instance. */
typedef struct verdict_counts {
    int hits, frees, proven_free, unresolved, iter_max;
    long iter_sum;
} verdict_counts;

/* Every sample before lo must be apart by more than (a little under) half the band. */
static void check_safety(const body *a, const body *b, const hd_toi_result *r)
{
    for (int k = 0; k < 32; ++k) {
        double t = r->lo * k / 32.0;
        assert_true(ref_signed_distance(a, b, t) > 0.4 * r->eps);
    }
    for (int j = 1; j <= 30 && r->lo > 0.0; ++j) {
        double t = r->lo * (1.0 - ldexp(1.0, -j));
        double d = ref_signed_distance(a, b, t);
        if (!(d > 0.4 * r->eps)) {
            printf("lo %.17g past a contact: d(%.17g) = %g, eps %g\n", r->lo, t, d, r->eps);
        }
        assert_true(d > 0.4 * r->eps);
    }
}

/* Free on [t0, t1] by the speed bound, or by splitting it (depth levels); false: unresolved. */
static bool prove_free(const body *a, const body *b, double L, double t0, double d0, double t1,
                       double d1, int depth)
{
    if (d0 < 0.0 || d1 < 0.0) {
        return false;
    }
    if (d0 + d1 > L * (t1 - t0)) {
        return true;
    }
    if (depth == 0) {
        return false;
    }
    double tm = 0.5 * (t0 + t1), dm = ref_signed_distance(a, b, tm);
    assert_true(dm > -1e-300); /* an overlap here is a missed contact */
    return prove_free(a, b, L, t0, d0, tm, dm, depth - 1) &&
           prove_free(a, b, L, tm, dm, t1, d1, depth - 1);
}

/* No hit: no sample may overlap, and the speed bound should prove the whole interval free. */
static bool check_free(const body *a, const body *b)
{
    double L = ref_speed(a) + ref_speed(b);
    enum { N = 48 };
    double prev = ref_signed_distance(a, b, 0.0);
    bool proven = true;
    for (int k = 1; k <= N; ++k) {
        double d = ref_signed_distance(a, b, (double)k / N);
        assert_true(d > 0.0);
        if (proven && !prove_free(a, b, L, (k - 1.0) / N, prev, (double)k / N, d, 12)) {
            proven = false;
        }
        prev = d;
    }
    return proven;
}

/* Field by field (padding bytes are not part of the answer). */
static bool same_bits(const hd_toi_result *x, const hd_toi_result *y)
{
    const hd_signed_distance_result *c = &x->contact, *d = &y->contact;
    return x->hit == y->hit && memcmp(&x->toi, &y->toi, sizeof x->toi) == 0 &&
           memcmp(&x->lo, &y->lo, sizeof x->lo) == 0 && memcmp(&x->hi, &y->hi, sizeof x->hi) == 0 &&
           x->iterations == y->iterations &&
           memcmp(&c->signed_distance, &d->signed_distance, sizeof c->signed_distance) == 0 &&
           memcmp(c->normal, d->normal, sizeof c->normal) == 0 &&
           memcmp(c->witness_a, d->witness_a, sizeof c->witness_a) == 0 &&
           memcmp(c->witness_b, d->witness_b, sizeof c->witness_b) == 0 &&
           c->feature_a.index == d->feature_a.index && c->feature_b.index == d->feature_b.index;
}

static hd_toi_result run_toi(const body *a, const body *b, hd_status *st)
{
    hd_toi_result r;
    *st = hd_toi(a->poly, &a->m, b->poly, &b->m, NULL, &r);
    return r;
}

/* Every check of one instance; the result for the caller's own checks. */
static hd_toi_result check_instance(const body *a, const body *b, verdict_counts *vc)
{
    hd_status st;
    hd_toi_result r = run_toi(a, b, &st);
    if (st != HD_OK) {
        printf("hd_toi: %s (lo %.17g, %d iterations)\n", hd_status_str(st), r.lo, r.iterations);
    }
    assert_int_equal(st, HD_OK);
    hd_toi_result again = run_toi(a, b, &st);
    assert_true(same_bits(&r, &again)); /* the same bits on every run */
    assert_true(0.0 <= r.lo && r.lo <= r.hi && r.hi <= 1.0);
    check_safety(a, b, &r);
    if (r.hit) {
        assert_true(r.hi - r.lo <= HD_TOI_DEFAULT_TIME_TOL);
        assert_true(r.toi == r.hi);
        double d = ref_signed_distance(a, b, r.hi);
        if (!(d <= 1.01 * r.eps)) {
            printf("no contact at hi %.17g: d %g, eps %g\n", r.hi, d, r.eps);
        }
        assert_true(d <= 1.01 * r.eps);
        ++vc->hits;
    } else {
        ++vc->frees;
        if (check_free(a, b)) {
            ++vc->proven_free;
        } else {
            ++vc->unresolved;
        }
    }
    vc->iter_sum += r.iterations;
    vc->iter_max = r.iterations > vc->iter_max ? r.iterations : vc->iter_max;
    return r;
}

static int scaled(int n)
{
    const char *s = getenv("HEDRA_MOTION_SCALE");
    return s != NULL && atoi(s) > 0 ? n * atoi(s) : n;
}

/* A random twist of a body of size s at pose0: speed up to 4 s, up to max_turns turns about a
 * centre within s of the frame origin. */
static void random_motion(body *b, const hd_pose *pose0, double s, double max_turns)
{
    memset(&b->m, 0, sizeof b->m);
    b->m.pose0 = *pose0;
    double u[3];
    hd_rng_unit_vector(&rng, u);
    double turns = hd_rng_uniform(&rng, 0.0, max_turns);
    for (int k = 0; k < 3; ++k) {
        b->m.w[k] = u[k] * 2.0 * HD_PI * turns;
        b->m.c[k] = pose0->t[k] + hd_rng_uniform(&rng, -s, s);
    }
}

static void random_body(body *b, double s)
{
    b->n = 4 + hd_rng_int(&rng, 5);
    hd_points_cloud(&rng, b->n, s, s * hd_rng_uniform(&rng, 0.2, 1.0),
                    s * hd_rng_uniform(&rng, 0.2, 1.0), b->local);
    body_build(b);
}

/* Random pairs of sizes 1e-6 to 1e6, B aimed at A (or past it) from 2 to 5 sizes away, either
 * turning up to 4 turns, A still or moving too. */
static void test_random_motions(void **state)
{
    (void)state;
    verdict_counts vc = {0};
    int count = scaled(200);
    for (int i = 0; i < count; ++i) {
        double s = pow(10.0, hd_rng_uniform(&rng, -6.0, 6.0));
        body a, b;
        random_body(&a, s);
        random_body(&b, s);
        double far[3], u[3], dist = s * hd_rng_uniform(&rng, 2.0, 5.0);
        hd_rng_unit_vector(&rng, u);
        for (int k = 0; k < 3; ++k) {
            far[k] = s * hd_rng_uniform(&rng, -10.0, 10.0);
        }
        hd_pose pa = hd_rng_pose(&rng, far);
        double tb[3] = {far[0] + dist * u[0], far[1] + dist * u[1], far[2] + dist * u[2]};
        hd_pose pb = hd_rng_pose(&rng, tb);
        random_motion(&a, &pa, s, hd_rng_int(&rng, 2) ? 0.0 : 1.0);
        random_motion(&b, &pb, s, 4.0);
        double aim = hd_rng_uniform(&rng, 0.5, 2.0);
        for (int k = 0; k < 3; ++k) {
            b.m.v[k] = -u[k] * dist * aim + s * hd_rng_uniform(&rng, -1.5, 1.5);
        }
        check_instance(&a, &b, &vc);
        hd_polytope_destroy(a.poly);
        hd_polytope_destroy(b.poly);
    }
    printf("%d motions: %d hits, %d apart (%d proven by the reference, %d unresolved), "
           "iterations mean %.1f max %d\n",
           count, vc.hits, vc.frees, vc.proven_free, vc.unresolved, (double)vc.iter_sum / count,
           vc.iter_max);
    assert_true(vc.hits > count / 5 && vc.frees > count / 10);
    assert_true(vc.unresolved <= count / 50);
}

/* Two cubes of half side h face to face, B coming head-on at speed 4 h from 3 h away (gap h):
 * first contact at exactly t = 1/4 (parry #429: the TOI came back short by an error growing
 * with the size); with a spin about the line of approach the faces stay parallel. */
static void check_head_on(double h, double spin)
{
    body a, b;
    body_box(&a, h, h, h);
    body_box(&b, h, h, h);
    hd_pose id = hd_pose_identity();
    body_still(&a, &id);
    hd_pose pb = hd_test_translation(3.0 * h, 0.0, 0.0);
    body_still(&b, &pb);
    b.m.v[0] = -4.0 * h;
    b.m.w[0] = spin;
    verdict_counts vc = {0};
    hd_toi_result r = check_instance(&a, &b, &vc);
    assert_true(r.hit);
    /* the band is entered eps before the faces meet: t = (h - eps) / 4h */
    assert_true(r.lo <= 0.25 && r.hi >= 0.25 - r.eps / (4.0 * h) - 1e-15);
    assert_true(r.contact.normal[0] > 0.999);
    assert_true(fabs(r.contact.witness_a[0] - h) <= 1e-9 * h);
    printf("h %g spin %g: toi %.17g, %d iterations\n", h, spin, r.toi, r.iterations);
    hd_polytope_destroy(a.poly);
    hd_polytope_destroy(b.poly);
}

static void test_sizes_500m_and_1um(void **state)
{
    (void)state;
    check_head_on(250.0, 0.0);
    check_head_on(250.0, 7.0);
    check_head_on(0.5e-6, 0.0);
    check_head_on(0.5e-6, 7.0);
    check_head_on(0.5e6, 3.0);
}

/* Starting in contact or overlap: toi 0 (Jolt #1787, #534: misses and a wrong early-out at
 * fraction 0). */
static void test_start_touching_and_intersecting(void **state)
{
    (void)state;
    const double offsets[2] = {2.0, 1.5}; /* faces touching exactly; overlapping by half */
    for (int i = 0; i < 2; ++i) {
        body a, b;
        body_box(&a, 1, 1, 1);
        body_box(&b, 1, 1, 1);
        hd_pose id = hd_pose_identity(), pb = hd_test_translation(offsets[i], 0.3, 0.0);
        body_still(&a, &id);
        body_still(&b, &pb);
        b.m.v[0] = 5.0; /* moving away: the contact at t = 0 still counts */
        b.m.w[2] = 3.0;
        hd_status st;
        hd_toi_result r = run_toi(&a, &b, &st);
        assert_int_equal(st, HD_OK);
        assert_true(r.hit);
        assert_true(r.toi == 0.0 && r.lo == 0.0 && r.hi == 0.0);
        assert_true(r.contact.signed_distance <= r.eps);
        assert_true(ref_signed_distance(&a, &b, 0.0) <= r.eps);
        hd_polytope_destroy(a.poly);
        hd_polytope_destroy(b.poly);
    }
}

/* A thin rod (2 x 0.01 x 0.01) spinning at 40 rad per unit time flies past the edge of a thin
 * plate (0.01 x 1 x 1): its centre misses the plate by 0.3, only a spinning end can strike it,
 * and ten samples in time see no overlap (tunnelling). The first overlap found by 4 000
 * samples bounds the TOI from above. */
static void test_spinning_rod_and_plate(void **state)
{
    (void)state;
    body plate, rod;
    body_box(&plate, 0.005, 0.5, 0.5);
    body_box(&rod, 1.0, 0.005, 0.005);
    hd_pose id = hd_pose_identity(), pr = hd_test_translation(-3.0, 0.8, 0.0);
    body_still(&plate, &id);
    body_still(&rod, &pr);
    rod.m.v[0] = 6.0;
    rod.m.w[2] = 40.0;
    int coarse_overlaps = 0;
    for (int k = 0; k <= 10; ++k) {
        coarse_overlaps += ref_signed_distance(&plate, &rod, k / 10.0) < 0.0;
    }
    assert_int_equal(coarse_overlaps, 0);
    double first = 2.0;
    for (int k = 0; k <= 4000 && first > 1.0; ++k) {
        if (ref_signed_distance(&plate, &rod, k / 4000.0) < 0.0) {
            first = k / 4000.0;
        }
    }
    assert_true(first <= 1.0); /* the instance does strike */
    verdict_counts vc = {0};
    hd_toi_result r = check_instance(&plate, &rod, &vc);
    assert_true(r.hit);
    assert_true(r.lo <= first && r.hi <= first + HD_TOI_DEFAULT_TIME_TOL);
    printf("rod: first sampled overlap %.6f, toi %.17g, %d iterations\n", first, r.toi,
           r.iterations);
    hd_polytope_destroy(plate.poly);
    hd_polytope_destroy(rod.poly);
}

/* Box pairs of the kind FCL #555 misses (its conservative advancement summed signed bounds):
 * B turns a quarter or half turn about an axis through its centre while sliding into A, and
 * ends overlapping A at t = 1, so a hit must be found, before the first sampled overlap. */
static void test_rotating_box_pairs(void **state)
{
    (void)state;
    verdict_counts vc = {0};
    for (int i = 0; i < 40; ++i) {
        body a, b;
        body_box(&a, 1.0, hd_rng_uniform(&rng, 0.25, 1.0), hd_rng_uniform(&rng, 0.25, 1.0));
        body_box(&b, hd_rng_uniform(&rng, 0.05, 1.0), 0.1, hd_rng_uniform(&rng, 0.1, 1.0));
        hd_pose id = hd_pose_identity();
        body_still(&a, &id);
        double start[3] = {hd_rng_uniform(&rng, 3.0, 4.0), hd_rng_uniform(&rng, -0.5, 0.5), 0.0};
        hd_pose pb = hd_rng_pose(&rng, start);
        body_still(&b, &pb);
        double u[3];
        hd_rng_unit_vector(&rng, u);
        for (int k = 0; k < 3; ++k) {
            b.m.w[k] = u[k] * HD_PI * (0.5 + 0.5 * hd_rng_int(&rng, 2));
            b.m.v[k] = -start[k] + hd_rng_uniform(&rng, -0.2, 0.2);
        }
        assert_true(ref_signed_distance(&a, &b, 1.0) < 0.0);
        double first = 2.0;
        for (int k = 0; k <= 400 && first > 1.0; ++k) {
            if (ref_signed_distance(&a, &b, k / 400.0) < 0.0) {
                first = k / 400.0;
            }
        }
        hd_toi_result r = check_instance(&a, &b, &vc);
        assert_true(r.hit && r.lo <= first);
        hd_polytope_destroy(a.poly);
        hd_polytope_destroy(b.poly);
    }
    printf("40 rotating box pairs: all hit, iterations mean %.1f max %d\n", vc.iter_sum / 40.0,
           vc.iter_max);
}

/* A cube standing on an edge (a ridge along x at height r = sqrt 2) and a cube with a vertex
 * pointing down, which crosses the ridge 1e-7 (times the size) above it while turning about
 * the vertical through that vertex: the distance dips to 1e-7 of the size at one instant, and
 * there is no contact. */
static void test_grazing(void **state)
{
    (void)state;
    const double sizes[3] = {1e-6, 1.0, 500.0};
    for (int i = 0; i < 3; ++i) {
        double s = sizes[i];
        body a, b;
        body_box(&a, s, s, s);
        body_box(&b, s, s, s);
        double q_ridge[4] = {cos(HD_PI / 8), sin(HD_PI / 8), 0, 0}, zero[3] = {0, 0, 0};
        hd_pose pa;
        assert_int_equal(hd_pose_from_quaternion(q_ridge, zero, &pa), HD_OK);
        body_still(&a, &pa);
        /* (1, 1, 1) / sqrt 3 turned to -z: about the axis (-1, 1, 0), by pi - acos(1 / sqrt 3) */
        double ang = HD_PI - acos(1.0 / sqrt(3.0)), ax = sqrt(0.5);
        double q_down[4] = {cos(ang / 2), -sin(ang / 2) * ax, sin(ang / 2) * ax, 0};
        double gap = 1e-7 * s, tip = sqrt(3.0) * s, ridge = sqrt(2.0) * s;
        double tb[3] = {0.0, -4.0 * s, ridge + gap + tip};
        hd_pose pb;
        assert_int_equal(hd_pose_from_quaternion(q_down, tb, &pb), HD_OK);
        body_still(&b, &pb);
        b.m.v[1] = 8.0 * s;
        b.m.w[2] = 0.5;
        b.m.c[2] = ridge + gap; /* the axis through the lowest vertex */
        double dmin = ref_signed_distance(&a, &b, 0.5);
        assert_true(fabs(dmin - gap) <= 1e-3 * gap);
        verdict_counts vc = {0};
        hd_toi_result r = check_instance(&a, &b, &vc);
        assert_false(r.hit);
        assert_true(r.lo == 1.0);
        printf("grazing at size %g: no hit, %d iterations\n", s, r.iterations);
        hd_polytope_destroy(a.poly);
        hd_polytope_destroy(b.poly);
    }
}

/* The linear shape cast: a cube dropped onto another from 1 above, by 2 (contact at t = 1/2),
 * and by 0.5 (no contact within the travel); against hd_gap's travel along the same line. */
static void test_shape_cast(void **state)
{
    (void)state;
    body a, b;
    body_box(&a, 1, 1, 1);
    body_box(&b, 0.5, 0.5, 0.5);
    hd_pose pa = hd_pose_identity(), pb = hd_test_translation(0.2, -0.3, 2.5);
    double drop[3] = {0.0, 0.0, -2.0}, short_drop[3] = {0.0, 0.0, -0.5};
    hd_toi_result r;
    assert_int_equal(hd_shape_cast(a.poly, &pa, b.poly, &pb, drop, NULL, &r), HD_OK);
    assert_true(r.hit && r.lo <= 0.5 && r.hi >= 0.5 - r.eps);
    assert_true(r.contact.normal[2] > 0.999);
    hd_gap_result g;
    double down[3] = {0, 0, -1};
    assert_int_equal(hd_gap(a.poly, &pa, b.poly, &pb, down, NULL, &g), HD_OK);
    assert_true(g.contact && fabs(g.distance - 1.0) <= 1e-12);
    assert_true(fabs(r.toi * 2.0 - g.distance) <= 2.0 * r.eps);
    assert_int_equal(hd_shape_cast(a.poly, &pa, b.poly, &pb, short_drop, NULL, &r), HD_OK);
    assert_false(r.hit);
    hd_polytope_destroy(a.poly);
    hd_polytope_destroy(b.poly);
}

/* hd_motion_from_poses and hd_motion_pose: pose 1 reproduced, angles near 0, near pi and at
 * pi; the pose at t of a turn about z against cos and sin. */
static void test_motion_from_poses(void **state)
{
    (void)state;
    const double angles[7] = {0.0, 1e-12, 1e-6, 1.0, HD_PI - 1e-7, HD_PI - 1e-12, HD_PI};
    for (int i = 0; i < 7 * 20; ++i) {
        double t0[3], t1[3], u[3];
        for (int k = 0; k < 3; ++k) {
            t0[k] = hd_rng_uniform(&rng, -5, 5);
            t1[k] = hd_rng_uniform(&rng, -5, 5);
        }
        hd_pose p0 = hd_rng_pose(&rng, t0), p1;
        hd_rng_unit_vector(&rng, u);
        double ang = angles[i % 7],
               q[4] = {cos(ang / 2), sin(ang / 2) * u[0], sin(ang / 2) * u[1], sin(ang / 2) * u[2]};
        hd_pose rot;
        assert_int_equal(hd_pose_from_quaternion(q, t1, &rot), HD_OK);
        p1 = rot; /* R1 = Rot R0 */
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c) {
                p1.r[3 * r + c] = rot.r[3 * r] * p0.r[c] + rot.r[3 * r + 1] * p0.r[3 + c] +
                                  rot.r[3 * r + 2] * p0.r[6 + c];
            }
        }
        hd_motion m;
        assert_int_equal(hd_motion_from_poses(&p0, &p1, &m), HD_OK);
        double wl = sqrt(m.w[0] * m.w[0] + m.w[1] * m.w[1] + m.w[2] * m.w[2]);
        assert_true(fabs(wl - ang) <= 1e-8);
        hd_pose e0, e1;
        assert_int_equal(hd_motion_pose(&m, 0.0, &e0), HD_OK);
        assert_int_equal(hd_motion_pose(&m, 1.0, &e1), HD_OK);
        for (int k = 0; k < 9; ++k) {
            assert_true(fabs(e0.r[k] - p0.r[k]) <= 1e-15);
            assert_true(fabs(e1.r[k] - p1.r[k]) <= 1e-12);
        }
        for (int k = 0; k < 3; ++k) {
            assert_true(fabs(e1.t[k] - p1.t[k]) <= 1e-13);
        }
    }
    hd_motion m = {0};
    m.pose0 = hd_pose_identity();
    m.w[2] = 2.0 * HD_PI * 3.25; /* three turns and a quarter */
    for (int k = 0; k <= 8; ++k) {
        double t = k / 8.0, a = m.w[2] * t;
        hd_pose p;
        assert_int_equal(hd_motion_pose(&m, t, &p), HD_OK);
        assert_true(fabs(p.r[0] - cos(a)) <= 1e-14 && fabs(p.r[3] - sin(a)) <= 1e-14);
        assert_true(fabs(p.r[1] + sin(a)) <= 1e-14 && fabs(p.r[8] - 1.0) <= 1e-14);
    }
}

/* hd_scene_sweep against hd_toi on every pair with a moving body (the broad phase's swept boxes
 * may only skip pairs that cannot meet): 300 bodies, 40 of them moving and turning, both broad
 * phases; the threshold; bad arguments. */
static void test_scene_sweep(void **state)
{
    (void)state;
    enum { N = 300, MOVING = 40 };
    double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1}, box[24], cloud[30];
    hd_points_box(lo, hi, box);
    hd_points_cloud(&rng, 10, 1.5, 0.3, 0.8, cloud);
    hd_polytope *shapes[2] = {hd_test_build(box, 8), hd_test_build(cloud, 10)};
    static hd_pose pose[N];
    static hd_body_twist tw[MOVING];
    static hd_scene_toi got[N], ref[N];
    for (int i = 0; i < N; ++i) {
        double t[3] = {hd_rng_uniform(&rng, -30, 30), hd_rng_uniform(&rng, -30, 30),
                       hd_rng_uniform(&rng, -30, 30)};
        pose[i] = hd_rng_pose(&rng, t);
    }
    for (int k = 0; k < MOVING; ++k) {
        tw[k].id = 7 * k + 3;
        for (int c = 0; c < 3; ++c) {
            tw[k].v[c] = hd_rng_uniform(&rng, -12, 12);
            tw[k].w[c] = hd_rng_uniform(&rng, -10, 10);
            tw[k].c[c] = pose[tw[k].id].t[c] + hd_rng_uniform(&rng, -0.5, 0.5);
        }
    }
    /* the reference: every pair with a moving body */
    int want = 0;
    for (int a = 0; a < N; ++a) {
        for (int b = a + 1; b < N; ++b) {
            int ka = a % 7 == 3 && a / 7 < MOVING ? a / 7 : -1;
            int kb = b % 7 == 3 && b / 7 < MOVING ? b / 7 : -1;
            if (ka < 0 && kb < 0) {
                continue;
            }
            hd_motion ma, mb;
            assert_int_equal(hd_motion_translation(&pose[a], (double[3]){0, 0, 0}, &ma), HD_OK);
            assert_int_equal(hd_motion_translation(&pose[b], (double[3]){0, 0, 0}, &mb), HD_OK);
            hd_motion *m[2] = {&ma, &mb};
            int k2[2] = {ka, kb};
            for (int e = 0; e < 2; ++e) {
                if (k2[e] >= 0) {
                    memcpy(m[e]->v, tw[k2[e]].v, sizeof m[e]->v);
                    memcpy(m[e]->w, tw[k2[e]].w, sizeof m[e]->w);
                    memcpy(m[e]->c, tw[k2[e]].c, sizeof m[e]->c);
                }
            }
            hd_toi_result r;
            assert_int_equal(hd_toi(shapes[a % 2], &ma, shapes[b % 2], &mb, NULL, &r), HD_OK);
            if (r.hit) {
                ref[want].a = a;
                ref[want].b = b;
                ref[want++].toi = r;
            }
        }
    }
    for (int bp = 0; bp < 2; ++bp) {
        hd_broadphase broadphase = bp == 0 ? HD_BROADPHASE_TREE : HD_BROADPHASE_SAP;
        hd_scene *sc = hd_test_scene(broadphase);
        assert_non_null(sc);
        for (int i = 0; i < N; ++i) {
            int id;
            assert_int_equal(hd_scene_add(sc, shapes[i % 2], &pose[i], NULL, &id), HD_OK);
        }
        int found = -1;
        assert_int_equal(hd_scene_sweep(sc, tw, MOVING, 0.0, NULL, got, N, &found), HD_OK);
        assert_int_equal(found, want);
        for (int i = 0; i < want; ++i) {
            assert_int_equal(got[i].a, ref[i].a);
            assert_int_equal(got[i].b, ref[i].b);
            assert_true(same_bits(&got[i].toi, &ref[i].toi));
        }
        printf("sweep (%s): %d moving of %d bodies, %d pairs hit, as hd_toi on every pair\n",
               hd_broadphase_str(broadphase), MOVING, N, want);
        assert_int_equal(hd_scene_sweep(sc, tw, MOVING, 1e9, NULL, got, N, &found), HD_OK);
        assert_int_equal(found, 0); /* all slower than the threshold: left to the step */
        assert_int_equal(hd_scene_sweep(sc, tw, MOVING, 0.0, NULL, got, 1, &found), HD_OK);
        assert_int_equal(found, want);
        hd_body_twist twice[2] = {tw[0], tw[0]}, dead = tw[0], nan_twist = tw[0];
        dead.id = N + 5;
        nan_twist.w[1] = NAN;
        assert_int_equal(hd_scene_sweep(sc, twice, 2, 0.0, NULL, got, N, &found),
                         HD_ERR_INVALID_ARG);
        assert_int_equal(hd_scene_sweep(sc, &dead, 1, 0.0, NULL, got, N, &found),
                         HD_ERR_INVALID_ARG);
        assert_int_equal(hd_scene_sweep(sc, &nan_twist, 1, 0.0, NULL, got, N, &found),
                         HD_ERR_NONFINITE);
        assert_int_equal(hd_scene_sweep(sc, tw, 1, NAN, NULL, got, N, &found), HD_ERR_INVALID_ARG);
        assert_int_equal(hd_scene_sweep(sc, NULL, 1, 0.0, NULL, got, N, &found), HD_ERR_NULL);
        assert_int_equal(hd_scene_sweep(sc, tw, 1, 0.0, NULL, NULL, 1, &found), HD_ERR_NULL);
        hd_scene_destroy(sc);
    }
    assert_true(want > 5);
    hd_polytope_destroy(shapes[0]);
    hd_polytope_destroy(shapes[1]);
}

static void test_bad_input(void **state)
{
    (void)state;
    body a;
    body_box(&a, 1, 1, 1);
    hd_motion m = {0}, bad;
    m.pose0 = hd_pose_identity();
    hd_toi_result r;
    assert_int_equal(hd_toi(NULL, &m, a.poly, &m, NULL, &r), HD_ERR_NULL);
    assert_int_equal(hd_toi(a.poly, NULL, a.poly, &m, NULL, &r), HD_ERR_NULL);
    assert_int_equal(hd_toi(a.poly, &m, a.poly, &m, NULL, NULL), HD_ERR_NULL);
    bad = m;
    bad.w[1] = NAN;
    assert_int_equal(hd_toi(a.poly, &m, a.poly, &bad, NULL, &r), HD_ERR_NONFINITE);
    bad = m;
    bad.v[0] = INFINITY;
    assert_int_equal(hd_toi(a.poly, &bad, a.poly, &m, NULL, &r), HD_ERR_NONFINITE);
    bad = m;
    bad.pose0.r[0] = 2.0;
    assert_int_equal(hd_toi(a.poly, &bad, a.poly, &m, NULL, &r), HD_ERR_BAD_POSE);
    bad = m;
    bad.c[0] = 1e300;
    bad.pose0.t[0] = 1e300;
    assert_int_equal(hd_toi(a.poly, &m, a.poly, &bad, NULL, &r), HD_ERR_RANGE);
    hd_toi_options o = hd_toi_options_default();
    o.time_tol = NAN;
    assert_int_equal(hd_toi(a.poly, &m, a.poly, &m, &o, &r), HD_ERR_INVALID_ARG);
    o = hd_toi_options_default();
    o.query.tol.touch_rel = -1.0;
    assert_int_equal(hd_toi(a.poly, &m, a.poly, &m, &o, &r), HD_ERR_INVALID_ARG);
    /* the cap is a status: a far approach capped at 2 queries */
    body b;
    body_box(&b, 1, 1, 1);
    hd_motion mb = m;
    mb.pose0.t[0] = mb.c[0] = 10.0;
    mb.v[0] = -9.0;
    mb.w[2] = 30.0;
    o = hd_toi_options_default();
    o.max_iterations = 2;
    assert_int_equal(hd_toi(a.poly, &m, b.poly, &mb, &o, &r), HD_ERR_ITERATION_LIMIT);
    assert_false(r.hit);
    assert_int_equal(r.iterations, 2);
    assert_true(r.lo > 0.0 && r.lo < 1.0);
    double nan3[3] = {NAN, 0, 0}, z3[3] = {0, 0, 1};
    assert_int_equal(hd_shape_cast(a.poly, NULL, b.poly, NULL, nan3, NULL, &r), HD_ERR_NONFINITE);
    assert_int_equal(hd_shape_cast(a.poly, NULL, b.poly, NULL, NULL, NULL, &r), HD_ERR_NULL);
    assert_int_equal(hd_shape_cast(a.poly, NULL, b.poly, NULL, z3, NULL, NULL), HD_ERR_NULL);
    hd_pose p0 = hd_pose_identity(), p1 = p0;
    p1.r[4] = NAN;
    assert_int_equal(hd_motion_from_poses(&p0, &p1, &m), HD_ERR_NONFINITE);
    assert_int_equal(hd_motion_from_poses(NULL, &p1, &m), HD_ERR_NULL);
    assert_int_equal(hd_motion_pose(&m, NAN, &p0), HD_ERR_NONFINITE);
    hd_polytope_destroy(a.poly);
    hd_polytope_destroy(b.poly);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("api_motion"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_motion_from_poses),
        cmocka_unit_test(test_sizes_500m_and_1um),
        cmocka_unit_test(test_start_touching_and_intersecting),
        cmocka_unit_test(test_spinning_rod_and_plate),
        cmocka_unit_test(test_rotating_box_pairs),
        cmocka_unit_test(test_grazing),
        cmocka_unit_test(test_shape_cast),
        cmocka_unit_test(test_random_motions),
        cmocka_unit_test(test_scene_sweep),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
