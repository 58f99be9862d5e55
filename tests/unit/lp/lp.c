/* The LP method (hd_lp_intersect on raw arrays in dimensions 1..16, and hd_collide with
 * HD_ALGO_LP on polytopes). Every expectation is independent of the code under test: the exact
 * GLPK oracle (tests/support/oracle.c) for the side of zero, constructions with a known gap or
 * depth (a gap along a chosen direction, rotated cubes overlapping by a known amount), and
 * certificates checked here by brute force on every input point. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "oracle.h"
#include "testutil.h"

#define MAXN 1200
#define MAXD 16

static uint64_t g_seed;

/* ---------- independent checks ---------- */

static double dotn(const double *a, const double *b, int d)
{
    double s = 0.0;
    for (int k = 0; k < d; ++k) {
        s += a[k] * b[k];
    }
    return s;
}

static double max_abs(const double *p, int n, int d)
{
    double m = 0.0;
    for (int i = 0; i < n * d; ++i) {
        m = fmax(m, fabs(p[i]));
    }
    return m;
}

/* The separating plane of a result: unit normal, every point of S below offset - gap/2, every
 * point of T above offset + gap/2 (to rounding of the dot products). */
static void check_plane(int d, const double *s, int ns, const double *t, int nt,
                        const hd_lp_result *r)
{
    double len = sqrt(dotn(r->normal, r->normal, d));
    assert_true(fabs(len - 1.0) < 1e-12);
    double scale = fmax(max_abs(s, ns, d), max_abs(t, nt, d)) + 1e-300;
    double slack = 64 * DBL_EPSILON * scale * d;
    for (int i = 0; i < ns; ++i) {
        assert_true(dotn(r->normal, s + i * d, d) <= r->offset - 0.5 * r->gap + slack);
    }
    for (int j = 0; j < nt; ++j) {
        assert_true(dotn(r->normal, t + j * d, d) >= r->offset + 0.5 * r->gap - slack);
    }
}

/* Convex weights and the common point: sum w_s s and sum w_t t both within tol of point. */
static void check_point(int d, const double *s, int ns, const double *t, int nt,
                        const double *ws, const double *wt, const hd_lp_result *r, double tol)
{
    double ps[MAXD] = {0}, pt[MAXD] = {0}, sum_s = 0.0, sum_t = 0.0;
    for (int i = 0; i < ns; ++i) {
        assert_true(ws[i] >= 0.0);
        sum_s += ws[i];
        for (int k = 0; k < d; ++k) {
            ps[k] += ws[i] * s[i * d + k];
        }
    }
    for (int j = 0; j < nt; ++j) {
        assert_true(wt[j] >= 0.0);
        sum_t += wt[j];
        for (int k = 0; k < d; ++k) {
            pt[k] += wt[j] * t[j * d + k];
        }
    }
    assert_true(fabs(sum_s - 1.0) < 1e-12 && fabs(sum_t - 1.0) < 1e-12);
    for (int k = 0; k < d; ++k) {
        assert_true(fabs(ps[k] - r->point[k]) <= tol);
        assert_true(fabs(pt[k] - r->point[k]) <= tol);
    }
}

/* An upper bound on the distance: the closest pair of input points. */
static double vertex_distance(int d, const double *s, int ns, const double *t, int nt)
{
    double best = INFINITY;
    for (int i = 0; i < ns; ++i) {
        for (int j = 0; j < nt; ++j) {
            double q = 0.0;
            for (int k = 0; k < d; ++k) {
                double x = s[i * d + k] - t[j * d + k];
                q += x * x;
            }
            best = fmin(best, sqrt(q));
        }
    }
    return best;
}

static double g_ws[MAXN], g_wt[MAXN];

/* Runs hd_lp_intersect and checks its certificate for whatever verdict it gives. */
static hd_lp_result run_checked(int d, const double *s, int ns, const double *t, int nt)
{
    hd_lp_result r;
    hd_status st = hd_lp_intersect(d, s, ns, t, nt, NULL, &r, g_ws, g_wt);
    assert_int_equal(st, HD_OK);
    double scale = fmax(max_abs(s, ns, d), max_abs(t, nt, d));
    if (r.verdict == HD_SEPARATED) {
        assert_true(r.gap > r.eps);
        assert_true(r.distance_lower_bound == r.gap);
        check_plane(d, s, ns, t, nt, &r);
        assert_true(r.distance_lower_bound <= vertex_distance(d, s, ns, t, nt) * (1 + 1e-12));
    } else {
        double tol = r.verdict == HD_TOUCHING ? r.eps * sqrt((double)d) + 1e-13 * scale
                                              : 1e-12 * scale + 1e-300;
        check_point(d, s, ns, t, nt, g_ws, g_wt, &r, tol);
        if (r.verdict == HD_INTERSECTING) {
            assert_true(r.depth_bound > r.eps);
        }
    }
    return r;
}

/* ---------- generators ---------- */

/* Rounds every coordinate to a multiple of 2^-bits. The generated data sit on a dyadic grid so
 * that the exact oracle's rationals stay short (its cost grows with their bit length); the LP
 * sees ordinary doubles either way. */
static void quantize(double *p, int count, int bits)
{
    for (int i = 0; i < count; ++i) {
        p[i] = ldexp(nearbyint(ldexp(p[i], bits)), -bits);
    }
}

static void random_cloud(hd_rng *rng, int n, int d, double radius, double *out)
{
    for (int i = 0; i < n * d; ++i) {
        out[i] = radius * hd_rng_normal(rng);
    }
    quantize(out, n * d, 24);
}

static void random_unit(hd_rng *rng, int d, double *u)
{
    double len;
    do {
        for (int k = 0; k < d; ++k) {
            u[k] = hd_rng_normal(rng);
        }
        len = sqrt(dotn(u, u, d));
    } while (len < 1e-6);
    for (int k = 0; k < d; ++k) {
        u[k] /= len;
    }
}

/* A random orthogonal matrix (Gram-Schmidt on Gaussian rows), row-major d x d. */
static void random_rotation(hd_rng *rng, int d, double *q)
{
    for (int i = 0; i < d; ++i) {
        double *row = q + i * d;
        for (;;) {
            random_unit(rng, d, row);
            for (int j = 0; j < i; ++j) {
                double c = dotn(row, q + j * d, d);
                for (int k = 0; k < d; ++k) {
                    row[k] -= c * q[j * d + k];
                }
            }
            double len = sqrt(dotn(row, row, d));
            if (len > 1e-3) {
                for (int k = 0; k < d; ++k) {
                    row[k] /= len;
                }
                break;
            }
        }
    }
}

static void transform(int d, const double *q, const double *shift, double *p, int n)
{
    for (int i = 0; i < n; ++i) {
        double x[MAXD];
        for (int r = 0; r < d; ++r) {
            x[r] = dotn(q + r * d, p + i * d, d) + (shift ? shift[r] : 0.0);
        }
        memcpy(p + i * d, x, sizeof(double) * (size_t)d);
    }
}

/* Moves t so that min_T u.t - max_S u.s = gap (B ends up beyond A along u). */
static void place_at_gap(int d, const double *s, int ns, double *t, int nt, const double *u,
                         double gap)
{
    double hs = -INFINITY, ht = INFINITY;
    for (int i = 0; i < ns; ++i) {
        hs = fmax(hs, dotn(u, s + i * d, d));
    }
    for (int j = 0; j < nt; ++j) {
        ht = fmin(ht, dotn(u, t + j * d, d));
    }
    double move = hs - ht + gap;
    for (int j = 0; j < nt; ++j) {
        for (int k = 0; k < d; ++k) {
            t[j * d + k] += move * u[k];
        }
    }
}

/* The corners of the cube [-h, h]^d (2^d points) up to dimension 6; above, the cross-polytope
 * conv{+-h e_k} (2d points). Both have extent 2h along e_0, and a copy shifted by 2h - g along
 * e_0 overlaps them with penetration depth g. */
static int cube_or_cross(int d, double h, double *out)
{
    if (d <= 6) {
        int n = 1 << d;
        for (int i = 0; i < n; ++i) {
            for (int k = 0; k < d; ++k) {
                out[i * d + k] = (i >> k) & 1 ? h : -h;
            }
        }
        return n;
    }
    for (int i = 0; i < 2 * d; ++i) {
        for (int k = 0; k < d; ++k) {
            out[i * d + k] = k == i / 2 ? (i % 2 ? h : -h) : 0.0;
        }
    }
    return 2 * d;
}

/* ---------- tests ---------- */

static void test_arguments(void **state)
{
    (void)state;
    double p[3] = {0, 0, 0};
    hd_lp_result r;
    assert_int_equal(hd_lp_intersect(3, p, 1, p, 1, NULL, NULL, NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_lp_intersect(0, p, 1, p, 1, NULL, &r, NULL, NULL), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_lp_intersect(17, p, 1, p, 1, NULL, &r, NULL, NULL), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_lp_intersect(3, p, -1, p, 1, NULL, &r, NULL, NULL), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_lp_intersect(3, NULL, 1, p, 1, NULL, &r, NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_lp_intersect(3, p, HD_MAX_POINTS + 1, p, 1, NULL, &r, NULL, NULL),
                     HD_ERR_TOO_LARGE);
    double bad[3] = {0, NAN, 0};
    assert_int_equal(hd_lp_intersect(3, bad, 1, p, 1, NULL, &r, NULL, NULL), HD_ERR_NONFINITE);
    bad[1] = INFINITY;
    assert_int_equal(hd_lp_intersect(3, p, 1, bad, 1, NULL, &r, NULL, NULL), HD_ERR_NONFINITE);
    hd_tolerance tol = hd_tolerance_default();
    tol.touch_rel = -1.0;
    assert_int_equal(hd_lp_intersect(3, p, 1, p, 1, &tol, &r, NULL, NULL), HD_ERR_INVALID_ARG);
}

/* Empty sets never collide; the source's single-point comparison ((a - b) < eps per coordinate)
 * calls any point with smaller coordinates colliding: here the distance decides. */
static void test_empty_and_single_points(void **state)
{
    (void)state;
    double a[3] = {1, 1, 1}, b[3] = {2, 2, 2}, c[3] = {1, 1, 1};
    hd_lp_result r;
    assert_int_equal(hd_lp_intersect(3, NULL, 0, b, 1, NULL, &r, NULL, NULL), HD_OK);
    assert_int_equal(r.verdict, HD_SEPARATED);
    assert_true(isinf(r.gap) && isinf(r.distance_lower_bound));
    assert_false(r.has_plane || r.has_point); /* empty sets: no evidence of either kind */
    assert_int_equal(hd_lp_intersect(3, a, 1, NULL, 0, NULL, &r, NULL, NULL), HD_OK);
    assert_int_equal(r.verdict, HD_SEPARATED);
    r = run_checked(3, a, 1, b, 1);
    assert_int_equal(r.verdict, HD_SEPARATED);
    assert_true(fabs(r.gap - sqrt(3.0)) < 1e-14);
    assert_true(r.has_plane && !r.has_point);
    r = run_checked(3, b, 1, a, 1);
    assert_int_equal(r.verdict, HD_SEPARATED);
    r = run_checked(3, a, 1, c, 1);
    assert_int_equal(r.verdict, HD_TOUCHING);
    assert_true(r.has_point);
    /* within the band: eps = 1e-12 * 1, a difference of 1e-14 is touching, 1e-10 is not */
    double d1[3] = {1 + 1e-14, 1, 1}, d2[3] = {1, 1 - 1e-10, 1};
    assert_int_equal(run_checked(3, a, 1, d1, 1).verdict, HD_TOUCHING);
    assert_int_equal(run_checked(3, a, 1, d2, 1).verdict, HD_SEPARATED);
}

/* The source's distance estimate f* / sqrt(n) is not a lower bound: in 1D, S = {0.1}, T = {0}
 * are 0.1 apart while the source's f* is at least 1 whatever the origin and unit (the
 * normalized problem here gives f* = 2). The plane from the duals gives a true bound. */
static void test_source_bound_counterexample(void **state)
{
    (void)state;
    double s[1] = {0.1}, t[1] = {0.0};
    hd_lp_result r = run_checked(1, s, 1, t, 1);
    assert_int_equal(r.verdict, HD_SEPARATED);
    assert_true(r.f_min / sqrt(1.0) > 0.1);
    assert_true(r.distance_lower_bound <= 0.1 * (1 + 1e-15));
    assert_true(r.distance_lower_bound > 0.09);
    /* a segment pair in 3D: distance 0.1, f* of order 1 */
    double s3[6] = {0.1, 0, 0, 0.1, 1, 0}, t3[6] = {0, 0, 0, 0, 1, 0};
    r = run_checked(3, s3, 2, t3, 2);
    assert_int_equal(r.verdict, HD_SEPARATED);
    assert_true(r.f_min / sqrt(3.0) > 0.1);
    assert_true(r.distance_lower_bound <= 0.1 * (1 + 1e-15));
}

/* Random clouds in dimensions 2, 3, 4, 8: the verdict is the oracle's exact sign (random pairs
 * are never within the band), the certificate holds. (The exact oracle dominates the run time:
 * about 70 ms per pair in 8D against 1 to 3 ms below, hence fewer 8D trials.) */
static void test_random_vs_oracle(void **state)
{
    (void)state;
    static const int dims[] = {2, 3, 4, 8};
    static double s[MAXN * MAXD], t[MAXN * MAXD];
    hd_rng rng;
    hd_rng_init(&rng, g_seed);
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; ++di) {
        int d = dims[di], trials = d == 8 ? 20 : 150;
        int seen[3] = {0, 0, 0};
        for (int it = 0; it < trials; ++it) {
            int ns = 1 + hd_rng_int(&rng, 3 * d + 6), nt = 1 + hd_rng_int(&rng, 3 * d + 6);
            random_cloud(&rng, ns, d, 1.0, s);
            random_cloud(&rng, nt, d, hd_rng_uniform(&rng, 0.2, 1.5), t);
            double off = hd_rng_uniform(&rng, 0.0, 3.0);
            for (int j = 0; j < nt; ++j) {
                t[j * d] += off;
            }
            hd_lp_result r = run_checked(d, s, ns, t, nt);
            int sign = hd_oracle_sign_dim(d, s, ns, t, nt, NULL);
            assert_true(sign >= -1);
            hd_verdict want = sign > 0 ? HD_SEPARATED : (sign < 0 ? HD_INTERSECTING : HD_TOUCHING);
            if (r.verdict != want) {
                printf("dim %d trial %d: oracle sign %d, lp %s (f %g gap %g depth %g)\n", d, it,
                       sign, hd_verdict_str(r.verdict), r.f_min, r.gap, r.depth_bound);
            }
            assert_int_equal(r.verdict, want);
            /* the evidence flags follow the oracle's side: a plane for every separated pair, a
             * common point exactly for the others; a plane flag never stands on a zero normal */
            assert_true(r.has_point == (want != HD_SEPARATED));
            assert_true(want != HD_SEPARATED || r.has_plane);
            double n2 = 0.0;
            for (int k = 0; k < d; ++k) {
                n2 += r.normal[k] * r.normal[k];
            }
            assert_true(r.has_plane == (n2 > 0.0));
            seen[r.verdict]++;
        }
        assert_true(seen[HD_SEPARATED] > 0 && seen[HD_INTERSECTING] > 0);
    }
}

/* Pairs separated by a gap of 1e-9 (and 1e-7, 1e-3) of their size along a random direction, in
 * dimensions 2, 3, 4, 8: the distance is at least the gap, far above eps sqrt(d), so the verdict
 * must be separated; the oracle confirms the side on the exact doubles. Gap 0 with S's extreme
 * point along u copied into T: the sets share that point and are split by the plane (to
 * rounding), so |delta| is at rounding level and the verdict must be touching. */
static void test_near_touching_gap(void **state)
{
    (void)state;
    static const int dims[] = {2, 3, 4, 8};
    static const double gaps[] = {1e-9, 1e-7, 1e-3, 0.0};
    static double s[64 * MAXD], t[64 * MAXD];
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 1);
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; ++di) {
        int d = dims[di];
        for (size_t gi = 0; gi < sizeof gaps / sizeof gaps[0]; ++gi) {
            for (int it = 0; it < 25; ++it) {
                int ns = 2 + hd_rng_int(&rng, 20), nt = 2 + hd_rng_int(&rng, 20);
                double u[MAXD];
                random_cloud(&rng, ns, d, 1.0, s);
                random_cloud(&rng, nt, d, 1.0, t);
                random_unit(&rng, d, u);
                double size = 2.0;
                place_at_gap(d, s, ns, t, nt, u, gaps[gi] * size);
                quantize(t, nt * d, 44); /* moves B by < 2^-44 sqrt(d): far below the gaps */
                if (gaps[gi] == 0.0) {
                    int best = 0;
                    for (int i = 1; i < ns; ++i) {
                        if (dotn(u, s + i * d, d) > dotn(u, s + best * d, d)) best = i;
                    }
                    memcpy(t, s + best * d, sizeof(double) * (size_t)d);
                }
                hd_lp_result r = run_checked(d, s, ns, t, nt);
                int sign = hd_oracle_sign_dim(d, s, ns, t, nt, NULL);
                if (gaps[gi] > 0.0) {
                    assert_int_equal(sign, 1);
                    assert_int_equal(r.verdict, HD_SEPARATED);
                } else {
                    assert_true(sign <= 0);
                    assert_int_equal(r.verdict, HD_TOUCHING);
                }
            }
        }
    }
}

/* Overlap with a known depth: a cube (cross-polytope above 6D) and a copy shifted by 2h - g
 * along e_0, both under one random rotation and translation: the penetration depth is g. The
 * verdict must be intersecting for g >> eps sqrt(d), with depth_bound <= g; touching for g = 0.
 * The exact oracle confirms the construction (quantisation included) on the first pair of each
 * dimension and depth; with 2^-44 coordinates it costs up to 0.2 s per pair in 8D. */
static void test_known_depth(void **state)
{
    (void)state;
    static const int dims[] = {2, 3, 4, 8};
    static const double depths[] = {1e-9, 1e-6, 0.3, 0.0};
    static double s[64 * MAXD], t[64 * MAXD];
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 2);
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; ++di) {
        int d = dims[di];
        for (size_t gi = 0; gi < sizeof depths / sizeof depths[0]; ++gi) {
            for (int it = 0; it < (d == 8 ? 5 : 10); ++it) {
                double q[MAXD * MAXD], shift[MAXD];
                int n = cube_or_cross(d, 1.0, s);
                cube_or_cross(d, 1.0, t);
                /* the cross-polytope's extent along e_0 is also 2h, its depth along e_0 g */
                for (int j = 0; j < n; ++j) {
                    t[j * d] += 2.0 - depths[gi];
                }
                random_rotation(&rng, d, q);
                for (int k = 0; k < d; ++k) {
                    shift[k] = hd_rng_uniform(&rng, -3, 3);
                }
                transform(d, q, shift, s, n);
                transform(d, q, shift, t, n);
                /* a 2^-44 grid moves each point by at most 2^-45 sqrt(d): the depth by twice that */
                quantize(s, n * d, 44);
                quantize(t, n * d, 44);
                double moved = 2.0 * ldexp(sqrt((double)d), -45);
                hd_lp_result r = run_checked(d, s, n, t, n);
                if (depths[gi] > 0.0) {
                    if (it == 0) {
                        assert_int_equal(hd_oracle_sign_dim(d, s, n, t, n, NULL), -1);
                    }
                    assert_int_equal(r.verdict, HD_INTERSECTING);
                    assert_true(r.depth_bound <= depths[gi] + moved);
                } else {
                    assert_int_equal(r.verdict, HD_TOUCHING);
                }
            }
        }
    }
}

/* Degenerate inputs: duplicated points, collinear and coplanar sets in 3D, single points
 * against sets. Flat pairs (kinds 1, 2: all points on one plane up to the rounding of their
 * construction) have a depth of rounding size at most, so when the oracle says they meet the
 * verdict must be touching, whatever the exact sign. */
static void test_degenerate_sets(void **state)
{
    (void)state;
    static double s[200 * 3], t[200 * 3];
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 3);
    for (int it = 0; it < 150; ++it) {
        int kind = it % 5, ns = 0, nt = 0;
        double a[3], b[3], c[3];
        for (int k = 0; k < 3; ++k) {
            a[k] = hd_rng_normal(&rng);
            b[k] = hd_rng_normal(&rng);
            c[k] = hd_rng_normal(&rng);
        }
        if (kind == 0) { /* duplicates: 3 distinct points repeated */
            random_cloud(&rng, 3, 3, 1.0, s);
            random_cloud(&rng, 4, 3, 1.0, t);
            ns = 60;
            nt = 80;
            for (int i = 3; i < ns; ++i) memcpy(s + 3 * i, s + 3 * (i % 3), 3 * sizeof(double));
            for (int j = 4; j < nt; ++j) memcpy(t + 3 * j, t + 3 * (j % 4), 3 * sizeof(double));
        } else if (kind == 1 || kind == 2) { /* collinear S, coplanar T (plane a, b, c) */
            ns = 10;
            nt = 12;
            for (int i = 0; i < ns; ++i) {
                double w = hd_rng_uniform(&rng, -1, 2);
                for (int k = 0; k < 3; ++k) s[3 * i + k] = a[k] + w * (b[k] - a[k]);
            }
            for (int j = 0; j < nt; ++j) {
                double w1 = hd_rng_uniform(&rng, -1, 2), w2 = hd_rng_uniform(&rng, -1, 2);
                for (int k = 0; k < 3; ++k) {
                    t[3 * j + k] = a[k] + w1 * (b[k] - a[k]) + w2 * (c[k] - a[k]);
                }
            }
            if (kind == 2) { /* S in the same plane too: a coplanar pair */
                for (int i = 0; i < ns; ++i) {
                    double w1 = hd_rng_uniform(&rng, 0, 1), w2 = hd_rng_uniform(&rng, 0, 1);
                    for (int k = 0; k < 3; ++k) {
                        s[3 * i + k] = a[k] + w1 * (b[k] - a[k]) + w2 * (c[k] - a[k]);
                    }
                }
            }
        } else if (kind == 3) { /* a single point against a cloud */
            ns = 1;
            nt = 15;
            memcpy(s, a, sizeof a);
            random_cloud(&rng, nt, 3, 1.5, t);
        } else { /* a single point on a segment of T, exactly representable: touching */
            ns = 1;
            nt = 2;
            t[0] = 0.0; t[1] = 1.0; t[2] = 2.0;
            t[3] = 2.0; t[4] = 1.0; t[5] = -2.0;
            s[0] = 0.5; s[1] = 1.0; s[2] = 1.0;
        }
        hd_lp_result r = run_checked(3, s, ns, t, nt);
        int sign = hd_oracle_sign(s, ns, t, nt);
        hd_verdict want = sign > 0 ? HD_SEPARATED : (sign < 0 ? HD_INTERSECTING : HD_TOUCHING);
        if (kind == 1 || kind == 2) {
            want = sign > 0 ? HD_SEPARATED : HD_TOUCHING;
        }
        if (kind == 4) {
            assert_int_equal(sign, 0);
        }
        assert_int_equal(r.verdict, want);
    }
}

/* One configuration at coordinates scaled by 2^-40, 1e-6, 1, 1e6, 2^40 and far from the origin:
 * the same verdict, the oracle's at scale 1 (gaps of 1e-9 of the size or more; the tolerances are
 * relative, while the source's absolute 1e-4 would call the 1e-9 pairs colliding at scale 1 and
 * everything colliding at scale 2^-40). */
static void test_scale_invariance(void **state)
{
    (void)state;
    static const double scales[] = {0x1.0p-40, 1e-6, 1.0, 1e6, 0x1.0p40};
    static double s0[30 * 3], t0[30 * 3], s[30 * 3], t[30 * 3];
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 4);
    for (int it = 0; it < 30; ++it) {
        double u[3];
        random_cloud(&rng, 30, 3, 1.0, s0);
        random_cloud(&rng, 30, 3, 1.0, t0);
        random_unit(&rng, 3, u);
        double gap = it % 3 == 0 ? 1e-9 : (it % 3 == 1 ? -0.2 : 0.01);
        place_at_gap(3, s0, 30, t0, 30, u, gap * 2.0);
        int sign = hd_oracle_sign(s0, 30, t0, 30);
        assert_true(sign == 1 || sign == -1);
        hd_verdict first = HD_TOUCHING;
        for (size_t si = 0; si < sizeof scales / sizeof scales[0]; ++si) {
            for (int far = 0; far < 2; ++far) {
                for (int i = 0; i < 90; ++i) {
                    double off = far ? 3.0 : 0.0;
                    s[i] = (s0[i] + off) * scales[si];
                    t[i] = (t0[i] + off) * scales[si];
                }
                hd_lp_result r = run_checked(3, s, 30, t, 30);
                if (si == 0 && far == 0) {
                    first = r.verdict;
                    assert_int_equal(first, sign > 0 ? HD_SEPARATED : HD_INTERSECTING);
                }
                assert_int_equal(r.verdict, first);
            }
        }
    }
}

/* Identical cubes with their centre added to both sets: phase 1 may stop at the degenerate
 * basis "centre = centre"; the depth (2) must still be proven (by the cross-polytope rays). */
static void test_degenerate_basis_depth(void **state)
{
    (void)state;
    double s[9 * 3], t[9 * 3];
    int n = cube_or_cross(3, 1.0, s);
    memset(s + 3 * n, 0, 3 * sizeof(double));
    memcpy(t, s, sizeof s);
    hd_lp_result r = run_checked(3, s, n + 1, t, n + 1);
    assert_int_equal(r.verdict, HD_INTERSECTING);
    assert_true(r.depth_bound > 0.1 && r.depth_bound <= 2.0 * (1 + 1e-9));
    double c[1] = {0.0}, seg[2] = {-1.0, 1.0};
    r = run_checked(1, c, 1, seg, 2);
    assert_int_equal(r.verdict, HD_INTERSECTING);
    assert_true(r.depth_bound <= 1.0 * (1 + 1e-12) && r.depth_bound > 0.5);
}

/* Higher dimensions up to 16 and larger sets, against the oracle. */
static void test_high_dimension_and_size(void **state)
{
    (void)state;
    static double s[MAXN * 3], t[MAXN * 3], s16[40 * 16], t16[40 * 16];
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 5);
    for (int it = 0; it < 8; ++it) {
        random_cloud(&rng, 40, 16, 1.0, s16);
        random_cloud(&rng, 40, 16, 1.0, t16);
        double off = hd_rng_uniform(&rng, 0.0, 4.0);
        for (int j = 0; j < 40; ++j) t16[j * 16 + 3] += off;
        hd_lp_result r = run_checked(16, s16, 40, t16, 40);
        int meet = hd_oracle_intersect_dim(16, s16, 40, t16, 40);
        assert_int_equal(meet, r.verdict != HD_SEPARATED);
    }
    for (int it = 0; it < 6; ++it) {
        int n = it < 3 ? 300 : 1000;
        hd_points_ellipsoid(&rng, n, 1.0, 0.6, 0.3, s);
        hd_points_ellipsoid(&rng, n, 1.0, 0.6, 0.3, t);
        double d[3];
        hd_rng_unit_vector(&rng, d);
        double dist = hd_rng_uniform(&rng, 0.3, 1.5);
        for (int j = 0; j < n; ++j) {
            for (int k = 0; k < 3; ++k) t[3 * j + k] += dist * d[k];
        }
        quantize(s, 3 * n, 30);
        quantize(t, 3 * n, 30);
        hd_lp_result r = run_checked(3, s, n, t, n);
        if (n <= 300) {
            assert_int_equal(hd_oracle_intersect(s, n, t, n), r.verdict != HD_SEPARATED);
        }
    }
}

/* A point just outside (or inside) a face of a box, at distances from 1.6e-12 to 3.3e-9 (eps is
 * 0.7e-12, the raw API's band eps sqrt(3) = 1.2e-12): the exact distance (depth) is d by
 * construction, so the verdict must be separated (intersecting) for every d. Near a face the
 * simplex pivots on elements of the size of d; phase 1 could then reach f = 0 by rounding alone
 * and report an undecided touching for a point 2000 eps outside. */
static void test_point_near_box_face(void **state)
{
    (void)state;
    double x[24], lo[3] = {-0.3, -0.5, -0.7}, hi[3] = {0.3, 0.5, 0.7};
    hd_points_box(lo, hi, x);
    for (int axis = 0; axis < 3; ++axis) {
        for (int side = -1; side <= 1; side += 2) {
            for (double k = 1.6; k < 4000.0; k *= 2.0) {
                for (int out = 0; out < 2; ++out) {
                    double p[3] = {0.1, -0.2, 0.15}, half = hi[axis];
                    p[axis] = side * (half + (out ? 1 : -1) * k * 1e-12);
                    hd_verdict v;
                    assert_int_equal(hd_lp_point_inside(3, x, 8, p, NULL, &v), HD_OK);
                    hd_lp_result r = run_checked(3, x, 8, p, 1);
                    hd_verdict want = out ? HD_SEPARATED : HD_INTERSECTING;
                    if (v != want || r.verdict != want) {
                        printf("axis %d side %d d %.1fe-12 %s: inside %s, intersect %s\n", axis,
                               side, k, out ? "out" : "in", hd_verdict_str(v),
                               hd_verdict_str(r.verdict));
                    }
                    assert_int_equal(v, want);
                    assert_int_equal(r.verdict, want);
                    if (out) {
                        assert_true(r.gap <= k * 1e-12 * (1 + 1e-3));
                    } else {
                        assert_true(r.depth_bound <= k * 1e-12 * (1 + 1e-3));
                    }
                }
            }
        }
    }
}

/* The iteration cap: reaching it is an error, never a verdict. */
static void test_iteration_cap(void **state)
{
    (void)state;
    double s[24], t[24];
    int n = cube_or_cross(3, 1.0, s);
    cube_or_cross(3, 1.0, t);
    for (int j = 0; j < n; ++j) t[3 * j] += 1.5;
    hd_tolerance tol = hd_tolerance_default();
    tol.max_iterations = 1;
    hd_lp_result r;
    assert_int_equal(hd_lp_intersect(3, s, n, t, n, &tol, &r, NULL, NULL),
                     HD_ERR_ITERATION_LIMIT);
    tol.max_iterations = 0;
    assert_int_equal(hd_lp_intersect(3, s, n, t, n, &tol, &r, NULL, NULL), HD_OK);
    assert_int_equal(r.verdict, HD_INTERSECTING);
}

/* ---------- the polytope pair query (hd_collide with HD_ALGO_LP) ---------- */

static void posed(const hd_polytope *p, const hd_pose *pose, double *out)
{
    const double *v = hd_polytope_vertices(p);
    for (int i = 0; i < hd_polytope_vertex_count(p); ++i) {
        hd_pose_apply(pose, v + 3 * i, out + 3 * i);
    }
}

/* Random posed pairs (ellipsoid clouds, boxes, flat polygons, segments) against the oracle on
 * the posed hull vertices; the certificate holds by the library's independent checker and by
 * the brute-force checks here. */
static void test_pairs_vs_oracle(void **state)
{
    (void)state;
    static double pa[400 * 3], pb[400 * 3], wa[400 * 3], wb[400 * 3];
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 6);
    hd_options opt = hd_options_default();
    opt.algo = HD_ALGO_LP;
    int seen[3] = {0, 0, 0};
    for (int it = 0; it < 240; ++it) {
        int kind_a = it % 4, kind_b = (it / 4) % 4, na, nb;
        double *src[2] = {pa, pb};
        int *cnt[2] = {&na, &nb};
        int kinds[2] = {kind_a, kind_b};
        for (int w = 0; w < 2; ++w) {
            int n = 8 + hd_rng_int(&rng, 60);
            if (kinds[w] == 0 || kinds[w] == 1) {
                hd_points_ellipsoid(&rng, n, 1.0, 0.7, 0.4, src[w]);
            } else if (kinds[w] == 2) { /* flat polygon */
                for (int i = 0; i < n; ++i) {
                    double ang = hd_rng_uniform(&rng, 0, 6.283185307179586);
                    src[w][3 * i] = cos(ang);
                    src[w][3 * i + 1] = 0.5 * sin(ang);
                    src[w][3 * i + 2] = 0.0;
                }
            } else { /* segment */
                n = 2;
                src[w][0] = -1; src[w][1] = 0; src[w][2] = 0;
                src[w][3] = 1; src[w][4] = 0; src[w][5] = 0;
            }
            *cnt[w] = n;
        }
        hd_polytope *a = hd_test_build(pa, na), *b = hd_test_build(pb, nb);
        assert_non_null(a);
        assert_non_null(b);
        double ta[3], tb[3], dir[3];
        hd_rng_unit_vector(&rng, dir);
        double dist = hd_rng_uniform(&rng, 0.0, 2.2);
        for (int k = 0; k < 3; ++k) {
            ta[k] = hd_rng_uniform(&rng, -2, 2);
            tb[k] = ta[k] + dist * dir[k];
        }
        hd_pose posea = hd_rng_pose(&rng, ta), poseb = hd_rng_pose(&rng, tb);
        hd_collide_result res;
        hd_status st = hd_collide(a, &posea, b, &poseb, &opt, &res);
        if (st != HD_OK) {
            printf("pair %d: %s\n", it, hd_status_str(st));
        }
        assert_int_equal(st, HD_OK);
        assert_int_equal(hd_certificate_check(a, &posea, b, &poseb, res.verdict, res.eps, &res.cert), HD_OK);
        int va = hd_polytope_vertex_count(a), vb = hd_polytope_vertex_count(b);
        posed(a, &posea, wa);
        posed(b, &poseb, wb);
        int sign = hd_oracle_sign(wa, va, wb, vb);
        hd_verdict want = sign > 0 ? HD_SEPARATED : (sign < 0 ? HD_INTERSECTING : HD_TOUCHING);
        if (res.verdict != want) {
            printf("pair %d (kinds %d %d): oracle %d, lp %s\n", it, kind_a, kind_b, sign,
                   hd_verdict_str(res.verdict));
            hd_test_dump_pair("lp", hd_polytope_vertices(a), va, &posea,
                              hd_polytope_vertices(b), vb, &poseb);
        }
        assert_int_equal(res.verdict, want);
        assert_int_equal(res.algo, HD_ALGO_LP);
        seen[res.verdict]++;
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    assert_true(seen[HD_SEPARATED] > 20 && seen[HD_INTERSECTING] > 20);
}

/* Posed boxes at a gap or depth of 1e-9 of their size along a face normal: exact verdicts; and
 * face-to-face contact (touching, decided by the LP or the contact classifier). */
static void test_pairs_near_touching(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, g_seed + 7);
    hd_options opt = hd_options_default();
    opt.algo = HD_ALGO_LP;
    static const double gaps[] = {1e-9, -1e-9, 1e-6, -1e-6, 0.0};
    double lo[3] = {-1, -0.5, -0.25}, hi[3] = {1, 0.5, 0.25}, box[24];
    hd_points_box(lo, hi, box);
    hd_polytope *a = hd_test_build(box, 8);
    assert_non_null(a);
    for (size_t gi = 0; gi < sizeof gaps / sizeof gaps[0]; ++gi) {
        for (int it = 0; it < 20; ++it) {
            /* B = A translated by (2 + gap) along A's local x, then both posed by one motion */
            double z[3] = {0, 0, 0}, t[3];
            hd_pose m = hd_rng_pose(&rng, z);
            for (int k = 0; k < 3; ++k) {
                m.t[k] = hd_rng_uniform(&rng, -5, 5);
            }
            double off[3] = {2.0 + 2.0 * gaps[gi], 0.2, 0.1};
            for (int i = 0; i < 3; ++i) {
                t[i] = m.r[3 * i] * off[0] + m.r[3 * i + 1] * off[1] + m.r[3 * i + 2] * off[2] +
                       m.t[i];
            }
            hd_pose mb = m;
            memcpy(mb.t, t, sizeof t);
            hd_collide_result res;
            hd_status st = hd_collide(a, &m, a, &mb, &opt, &res);
            assert_int_equal(st, HD_OK);
            assert_int_equal(hd_certificate_check(a, &m, a, &mb, res.verdict, res.eps, &res.cert), HD_OK);
            double wa[24], wb[24];
            posed(a, &m, wa);
            posed(a, &mb, wb);
            int sign = hd_oracle_sign(wa, 8, wb, 8);
            assert_true(hd_oracle_verdict_ok(sign, fabs(2.0 * gaps[gi]), res.eps, 1.0,
                                             res.verdict));
            if (gaps[gi] != 0.0) {
                assert_int_equal(res.verdict, gaps[gi] > 0 ? HD_SEPARATED : HD_INTERSECTING);
            }
        }
    }
    hd_polytope_destroy(a);
}

/* Flat sets in the plane z = 0 (segments, a square, a triangle) against each other: M = A - B is
 * flat, so when the sets meet the crash basis keeps an artificial column that cannot leave and
 * the query falls back to the source's phase 1. Known answers by construction: sets that share a
 * point are touching (distance 0, no depth), and B lifted by 1e-3 along z is separated by
 * exactly 1e-3 (every point of A has z = 0, every point of B z = 1e-3). */
static void test_pairs_flat_fallback(void **state)
{
    (void)state;
    static const double sets[4][12] = {{-1, 0, 0, 1, 0, 0},
                                       {0, -1, 0, 0, 1, 0},
                                       {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0},
                                       {-1, -1, 0, 2, -1, 0, -1, 2, 0}};
    static const int counts[4] = {2, 2, 4, 3};
    hd_polytope *poly[4];
    for (int i = 0; i < 4; ++i) {
        poly[i] = hd_test_build(sets[i], counts[i]);
        assert_non_null(poly[i]);
    }
    hd_options opt = hd_options_default();
    opt.algo = HD_ALGO_LP;
    hd_pose pa = hd_pose_identity();
    for (int lift = 0; lift < 2; ++lift) {
        hd_pose pb = hd_pose_identity();
        pb.t[2] = lift ? 1e-3 : 0.0;
        for (int i = 0; i < 4; ++i) {
            for (int j = 0; j < 4; ++j) {
                hd_collide_result res;
                assert_int_equal(hd_collide(poly[i], &pa, poly[j], &pb, &opt, &res), HD_OK);
                assert_int_equal(hd_certificate_check(poly[i], &pa, poly[j], &pb, res.verdict, res.eps, &res.cert), HD_OK);
                assert_int_equal(res.verdict, lift ? HD_SEPARATED : HD_TOUCHING);
            }
        }
    }
    for (int i = 0; i < 4; ++i) {
        hd_polytope_destroy(poly[i]);
    }
}

int main(void)
{
    g_seed = hd_test_seed("unit/lp/lp");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_empty_and_single_points),
        cmocka_unit_test(test_source_bound_counterexample),
        cmocka_unit_test(test_random_vs_oracle),
        cmocka_unit_test(test_near_touching_gap),
        cmocka_unit_test(test_known_depth),
        cmocka_unit_test(test_degenerate_sets),
        cmocka_unit_test(test_scale_invariance),
        cmocka_unit_test(test_degenerate_basis_depth),
        cmocka_unit_test(test_high_dimension_and_size),
        cmocka_unit_test(test_point_near_box_face),
        cmocka_unit_test(test_iteration_cap),
        cmocka_unit_test(test_pairs_vs_oracle),
        cmocka_unit_test(test_pairs_near_touching),
        cmocka_unit_test(test_pairs_flat_fallback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
