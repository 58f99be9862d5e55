/* Rounded polytopes and the primitive constructors through the public API: every query against
 * closed forms computed here (sphere-sphere, sphere-capsule, capsule-capsule by a segment-segment
 * distance of its own, sphere-box by clamping), on random poses at scales 1e-6 to 1e6;
 * certificates accepted by hd_certificate_check and rejected once tampered; the constructors'
 * geometry and bad input. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

/* agreement with a closed form: the accuracy contract (1e-9 of the size) */
#define CLOSE_REL 1e-9

static hd_rng g_rng;

static int setup(void **state)
{
    (void)state;
    hd_rng_init(&g_rng, hd_test_seed("api/shapes"));
    return 0;
}

static void pose_point(const hd_pose *p, const double x[3], double out[3])
{
    hd_pose_apply(p, x, out);
}

/* ---- independent closed forms ------------------------------------------------------------ */

static double dist3(const double a[3], const double b[3])
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double clamp01(double s)
{
    return s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
}

/* distance from p to the segment p0 p1: the clamped foot of the perpendicular */
static double point_segment(const double p[3], const double p0[3], const double p1[3])
{
    double d[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
    double w[3] = {p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]};
    double len2 = dot3(d, d);
    double s = len2 > 0.0 ? clamp01(dot3(w, d) / len2) : 0.0;
    double q[3] = {p0[0] + s * d[0], p0[1] + s * d[1], p0[2] + s * d[2]};
    return dist3(p, q);
}

/* Segment-segment distance: the minimum of |P(s) - Q(t)| over [0, 1]^2 is at the interior
 * critical point of the quadratic (when the segments are not parallel and it lies inside) or on
 * an edge of the square, where it is a point-segment distance. */
static double segment_segment(const double p0[3], const double p1[3], const double q0[3],
                              const double q1[3])
{
    double best = fmin(fmin(point_segment(p0, q0, q1), point_segment(p1, q0, q1)),
                       fmin(point_segment(q0, p0, p1), point_segment(q1, p0, p1)));
    double u[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
    double v[3] = {q1[0] - q0[0], q1[1] - q0[1], q1[2] - q0[2]};
    double w[3] = {p0[0] - q0[0], p0[1] - q0[1], p0[2] - q0[2]};
    double a = dot3(u, u), b = dot3(u, v), c = dot3(v, v), d = dot3(u, w), e = dot3(v, w);
    double den = a * c - b * b;
    if (den > 1e-12 * a * c) {
        double s = (b * e - c * d) / den, t = (a * e - b * d) / den;
        if (s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0) {
            double ps[3], qt[3];
            for (int k = 0; k < 3; ++k) {
                ps[k] = p0[k] + s * u[k];
                qt[k] = q0[k] + t * v[k];
            }
            best = fmin(best, dist3(ps, qt));
        }
    }
    return best;
}

/* signed distance of a point (local frame of the box) to the box [-h, h]: outside the distance to
 * the clamped point, inside minus the distance to the nearest face */
static double point_box(const double p[3], const double h[3])
{
    double q[3], inside = INFINITY;
    int out = 0;
    for (int k = 0; k < 3; ++k) {
        q[k] = fmax(-h[k], fmin(h[k], p[k]));
        out |= q[k] != p[k];
        inside = fmin(inside, h[k] - fabs(p[k]));
    }
    return out ? dist3(p, q) : -inside;
}

/* ---- checks common to every pair --------------------------------------------------------- */

typedef struct expected {
    double delta; /* the closed form's signed distance */
    double size;  /* the pair's size, for the tolerance */
} expected;

static hd_verdict band_verdict(double delta, double eps)
{
    return delta > eps ? HD_SEPARATED : (delta < -eps ? HD_INTERSECTING : HD_TOUCHING);
}

/* Every query on (a, pa, b, pb) against the expected signed distance. */
static void check_pair(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                       const hd_pose *pb, expected ex)
{
    double tol = CLOSE_REL * ex.size;
    hd_signed_distance_result sd;
    assert_int_equal(hd_signed_distance(a, pa, b, pb, NULL, &sd), HD_OK);
    assert_true(fabs(sd.signed_distance - ex.delta) <= tol);
    assert_true(sd.lower <= ex.delta + tol && ex.delta - tol <= sd.upper);
    /* witnesses on the rounded surfaces: wb - wa = delta n */
    for (int k = 0; k < 3; ++k) {
        assert_true(fabs(sd.witness_b[k] - sd.witness_a[k] - sd.signed_distance * sd.normal[k]) <=
                    tol);
    }
    int fuzzy = fabs(fabs(ex.delta) - sd.eps) <= tol;
    if (!fuzzy) {
        assert_int_equal(sd.verdict, band_verdict(ex.delta, sd.eps));
    }
    for (int algo = 0; algo < HD_ALGO_COUNT; ++algo) {
        hd_options opt = hd_options_default();
        opt.algo = (hd_algo)algo;
        hd_collide_result r;
        assert_int_equal(hd_collide(a, pa, b, pb, &opt, &r), HD_OK);
        if (!fuzzy) {
            assert_int_equal(r.verdict, band_verdict(ex.delta, r.eps));
        }
        assert_int_equal(hd_certificate_check(a, pa, b, pb, r.verdict, r.eps, &r.cert), HD_OK);
    }
    hd_distance_result dr;
    assert_int_equal(hd_distance(a, pa, b, pb, NULL, &dr), HD_OK);
    assert_int_equal(hd_certificate_check(a, pa, b, pb, dr.verdict, dr.eps, &dr.cert), HD_OK);
    if (dr.verdict == HD_SEPARATED) {
        assert_true(fabs(dr.distance - ex.delta) <= tol);
        assert_true(fabs(dist3(dr.witness_a, dr.witness_b) - ex.delta) <= tol);
    } else {
        assert_true(dr.distance == 0.0);
    }
    hd_manifold m;
    assert_int_equal(hd_contact_manifold(a, pa, b, pb, NULL, NULL, &m), HD_OK);
    if (ex.delta < -tol - sd.eps) {
        assert_true(m.count >= 1);
    }
    if (m.count > 0) {
        double deepest = INFINITY;
        for (int i = 0; i < m.count; ++i) {
            deepest = fmin(deepest, m.points[i].separation);
        }
        assert_true(fabs(deepest - ex.delta) <= 1e-7 * ex.size);
    } else {
        assert_true(ex.delta > -tol);
    }
}

/* ---- closed-form pairs ------------------------------------------------------------------- */

static double random_scale(void)
{
    return pow(10.0, hd_rng_uniform(&g_rng, -6.0, 6.0));
}

static hd_pose random_pose(double spread)
{
    double t[3];
    for (int k = 0; k < 3; ++k) {
        t[k] = hd_rng_uniform(&g_rng, -spread, spread);
    }
    return hd_rng_pose(&g_rng, t);
}

static void test_sphere_sphere(void **state)
{
    (void)state;
    for (int i = 0; i < 400; ++i) {
        double s = random_scale();
        double ra = s * hd_rng_uniform(&g_rng, 0.1, 1.0), rb = s * hd_rng_uniform(&g_rng, 0.1, 1.0);
        hd_polytope *a, *b;
        assert_int_equal(hd_shape_sphere(ra, NULL, &a), HD_OK);
        assert_int_equal(hd_shape_sphere(rb, NULL, &b), HD_OK);
        hd_pose pa = random_pose(s), pb = random_pose(2.0 * s);
        double o[3] = {0, 0, 0}, ca[3], cb[3];
        pose_point(&pa, o, ca);
        pose_point(&pb, o, cb);
        expected ex = {dist3(ca, cb) - ra - rb, 6.0 * s};
        check_pair(a, &pa, b, &pb, ex);
        hd_signed_distance_result sd;
        assert_int_equal(hd_signed_distance(a, &pa, b, &pb, NULL, &sd), HD_OK);
        /* the witnesses lie on the spheres */
        assert_true(fabs(dist3(sd.witness_a, ca) - ra) <= CLOSE_REL * ex.size);
        assert_true(fabs(dist3(sd.witness_b, cb) - rb) <= CLOSE_REL * ex.size);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
}

static void capsule_ends(double h, const hd_pose *p, double e0[3], double e1[3])
{
    double z0[3] = {0, 0, -h}, z1[3] = {0, 0, h};
    pose_point(p, z0, e0);
    pose_point(p, z1, e1);
}

static void test_sphere_capsule(void **state)
{
    (void)state;
    for (int i = 0; i < 400; ++i) {
        double s = random_scale();
        double ra = s * hd_rng_uniform(&g_rng, 0.1, 1.0), rb = s * hd_rng_uniform(&g_rng, 0.1, 1.0);
        double h = s * hd_rng_uniform(&g_rng, 0.0, 2.0);
        hd_polytope *a, *b;
        assert_int_equal(hd_shape_sphere(ra, NULL, &a), HD_OK);
        assert_int_equal(hd_shape_capsule(h, rb, NULL, &b), HD_OK);
        hd_pose pa = random_pose(s), pb = random_pose(2.0 * s);
        double o[3] = {0, 0, 0}, ca[3], e0[3], e1[3];
        pose_point(&pa, o, ca);
        capsule_ends(h, &pb, e0, e1);
        expected ex = {point_segment(ca, e0, e1) - ra - rb, 8.0 * s};
        check_pair(a, &pa, b, &pb, ex);
        check_pair(b, &pb, a, &pa, ex);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
}

static void test_capsule_capsule(void **state)
{
    (void)state;
    for (int i = 0; i < 400; ++i) {
        double s = random_scale();
        double ra = s * hd_rng_uniform(&g_rng, 0.1, 1.0), rb = s * hd_rng_uniform(&g_rng, 0.1, 1.0);
        double ha = s * hd_rng_uniform(&g_rng, 0.01, 2.0),
               hb = s * hd_rng_uniform(&g_rng, 0.01, 2.0);
        hd_polytope *a, *b;
        assert_int_equal(hd_shape_capsule(ha, ra, NULL, &a), HD_OK);
        assert_int_equal(hd_shape_capsule(hb, rb, NULL, &b), HD_OK);
        hd_pose pa = random_pose(s), pb = random_pose(2.5 * s);
        double a0[3], a1[3], b0[3], b1[3];
        capsule_ends(ha, &pa, a0, a1);
        capsule_ends(hb, &pb, b0, b1);
        double core = segment_segment(a0, a1, b0, b1);
        if (core < 1e-6 * s) {
            continue; /* crossing cores: the depth is not a segment distance */
        }
        expected ex = {core - ra - rb, 10.0 * s};
        check_pair(a, &pa, b, &pb, ex);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
}

static void test_sphere_box(void **state)
{
    (void)state;
    for (int i = 0; i < 400; ++i) {
        double s = random_scale();
        double h[3];
        for (int k = 0; k < 3; ++k) {
            h[k] = s * hd_rng_uniform(&g_rng, 0.2, 1.0);
        }
        double r = s * hd_rng_uniform(&g_rng, 0.05, 0.6);
        hd_polytope *box, *ball;
        assert_int_equal(hd_shape_box(h, 0.0, NULL, &box), HD_OK);
        assert_int_equal(hd_shape_sphere(r, NULL, &ball), HD_OK);
        hd_pose pbox = random_pose(s), pball = hd_pose_identity();
        double local[3];
        for (int k = 0; k < 3; ++k) {
            local[k] = hd_rng_uniform(&g_rng, -2.0, 2.0) * h[k];
        }
        pose_point(&pbox, local, pball.t);
        expected ex = {point_box(local, h) - r, 6.0 * s};
        check_pair(box, &pbox, ball, &pball, ex);
        hd_verdict v;
        assert_int_equal(hd_point_inside(ball, &pball, pbox.t, NULL, &v), HD_OK);
        double centre_gap = dist3(pball.t, pbox.t) - r;
        if (fabs(centre_gap) > 1e-9 * s) {
            assert_int_equal(v, centre_gap > 0.0 ? HD_SEPARATED : HD_INTERSECTING);
        }
        hd_polytope_destroy(box);
        hd_polytope_destroy(ball);
    }
}

/* ---- the touching band: exact verdicts at a few band widths from contact ----------------- */

/* Sphere against a box face, and two crossed capsules, placed with the rounded signed distance
 * k eps for k on both sides of the band's edges: every algorithm's verdict is the band's. */
static void test_band_edges(void **state)
{
    (void)state;
    const double ks[] = {-4.0, -1.5, -0.5, 0.0, 0.5, 1.5, 4.0};
    int checked = 0;
    for (int i = 0; i < 60; ++i) {
        double s = random_scale();
        double h[3] = {s, 0.5 * s, 0.7 * s}, r = s * hd_rng_uniform(&g_rng, 0.1, 1.0);
        double rb = s * hd_rng_uniform(&g_rng, 0.1, 1.0);
        hd_polytope *box, *ball, *cap_a, *cap_b;
        assert_int_equal(hd_shape_box(h, 0.25 * s, NULL, &box), HD_OK);
        assert_int_equal(hd_shape_sphere(r, NULL, &ball), HD_OK);
        assert_int_equal(hd_shape_capsule(s, r, NULL, &cap_a), HD_OK);
        assert_int_equal(hd_shape_capsule(2.0 * s, rb, NULL, &cap_b), HD_OK);
        double q_turn[4] = {sqrt(0.5), 0.0, sqrt(0.5), 0.0}; /* z axis onto x */
        for (unsigned k = 0; k < sizeof ks / sizeof ks[0]; ++k) {
            hd_collide_result probe;
            hd_pose pb = hd_test_translation(h[0] + 0.25 * s + r, 0.1 * s, -0.2 * s);
            assert_int_equal(hd_collide(box, NULL, ball, &pb, NULL, &probe), HD_OK);
            pb.t[0] += ks[k] * probe.eps;
            double t[3] = {0.0, r + rb, 0.3 * s};
            hd_pose pc;
            assert_int_equal(hd_pose_from_quaternion(q_turn, t, &pc), HD_OK);
            assert_int_equal(hd_collide(cap_a, NULL, cap_b, &pc, NULL, &probe), HD_OK);
            pc.t[1] += ks[k] * probe.eps;
            for (int algo = 0; algo < HD_ALGO_COUNT; ++algo) {
                hd_options opt = hd_options_default();
                opt.algo = (hd_algo)algo;
                hd_collide_result r1, r2;
                assert_int_equal(hd_collide(box, NULL, ball, &pb, &opt, &r1), HD_OK);
                assert_int_equal(hd_collide(cap_a, NULL, cap_b, &pc, &opt, &r2), HD_OK);
                assert_int_equal(r1.verdict, band_verdict(ks[k] * r1.eps, r1.eps));
                assert_int_equal(r2.verdict, band_verdict(ks[k] * r2.eps, r2.eps));
                assert_int_equal(
                    hd_certificate_check(box, NULL, ball, &pb, r1.verdict, r1.eps, &r1.cert),
                    HD_OK);
                assert_int_equal(
                    hd_certificate_check(cap_a, NULL, cap_b, &pc, r2.verdict, r2.eps, &r2.cert),
                    HD_OK);
                checked += 2;
            }
        }
        hd_polytope_destroy(box);
        hd_polytope_destroy(ball);
        hd_polytope_destroy(cap_a);
        hd_polytope_destroy(cap_b);
    }
    printf("band edges: %d verdicts\n", checked);
}

/* ---- gradients, manifolds, scenes -------------------------------------------------------- */

/* R' = Q R for the rotation Q of angle h about axis k (world axes): a small rotation of the body
 * about its frame's origin, hd_pose_gradient's convention. */
static hd_pose turned(const hd_pose *p, int k, double h)
{
    double q[4] = {cos(0.5 * h), 0.0, 0.0, 0.0};
    q[1 + k] = sin(0.5 * h);
    hd_pose rot, out = *p;
    assert_int_equal(hd_pose_from_quaternion(q, p->t, &rot), HD_OK);
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            double v = 0.0;
            for (int m = 0; m < 3; ++m) {
                v += rot.r[3 * i + m] * p->r[3 * m + j];
            }
            out.r[3 * i + j] = v;
        }
    }
    return out;
}

static double capsules_delta(double ha, double ra, const hd_pose *pa, double hb, double rb,
                             const hd_pose *pb)
{
    double a0[3], a1[3], b0[3], b1[3];
    capsule_ends(ha, pa, a0, a1);
    capsule_ends(hb, pb, b0, b1);
    return segment_segment(a0, a1, b0, b1) - ra - rb;
}

/* The pose gradient of rounded capsules (cores apart, the rounded pair apart or overlapping)
 * against central differences of the closed form, for B's translation and rotation. */
static void test_gradient(void **state)
{
    (void)state;
    int checked = 0;
    for (int i = 0; i < 200; ++i) {
        double ha = hd_rng_uniform(&g_rng, 0.2, 1.0), hb = hd_rng_uniform(&g_rng, 0.2, 1.0);
        double ra = hd_rng_uniform(&g_rng, 0.05, 0.5), rb = hd_rng_uniform(&g_rng, 0.05, 0.5);
        hd_polytope *a, *b;
        assert_int_equal(hd_shape_capsule(ha, ra, NULL, &a), HD_OK);
        assert_int_equal(hd_shape_capsule(hb, rb, NULL, &b), HD_OK);
        hd_pose pa = random_pose(0.5), pb = random_pose(2.0);
        double a0[3], a1[3], b0[3], b1[3];
        capsule_ends(ha, &pa, a0, a1);
        capsule_ends(hb, &pb, b0, b1);
        if (segment_segment(a0, a1, b0, b1) < 0.05) {
            hd_polytope_destroy(a);
            hd_polytope_destroy(b);
            continue;
        }
        hd_options opt = hd_options_default();
        opt.flags = HD_QUERY_GRADIENT;
        hd_signed_distance_result sd;
        assert_int_equal(hd_signed_distance(a, &pa, b, &pb, &opt, &sd), HD_OK);
        const double h = 1e-6;
        for (int k = 0; k < 3 && sd.gradient.unique; ++k) {
            hd_pose plus = pb, minus = pb;
            plus.t[k] += h;
            minus.t[k] -= h;
            double dt = (capsules_delta(ha, ra, &pa, hb, rb, &plus) -
                         capsules_delta(ha, ra, &pa, hb, rb, &minus)) /
                        (2.0 * h);
            plus = turned(&pb, k, h);
            minus = turned(&pb, k, -h);
            double dr = (capsules_delta(ha, ra, &pa, hb, rb, &plus) -
                         capsules_delta(ha, ra, &pa, hb, rb, &minus)) /
                        (2.0 * h);
            assert_true(fabs(sd.gradient.b[k] - dt) <= 1e-5);
            assert_true(fabs(sd.gradient.b[3 + k] - dr) <= 1e-5);
            checked++;
        }
        if (sd.verdict == HD_SEPARATED) { /* hd_distance's gradient is the same there */
            hd_distance_result dr;
            assert_int_equal(hd_distance(a, &pa, b, &pb, &opt, &dr), HD_OK);
            for (int k = 0; k < 6; ++k) {
                assert_true(fabs(dr.gradient.b[k] - sd.gradient.b[k]) <= 1e-9);
                assert_true(fabs(dr.gradient.a[k] - sd.gradient.a[k]) <= 1e-9);
            }
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    printf("gradient: %d axes\n", checked);
    assert_true(checked > 300);
}

/* Rounded boxes stacked with their cores apart by 0.15 and radii 0.05 (below) and 0.15 (above):
 * the rounded pair overlaps by 0.05; four manifold points at separation -0.05, half-way between
 * the rounded surfaces (the rounded faces at z = 1.05 and 1.0: z = 1.025). */
static void test_stacked_manifold(void **state)
{
    (void)state;
    double half[3] = {1.0, 1.0, 0.5};
    hd_polytope *lower, *upper;
    assert_int_equal(hd_shape_box(half, 0.05, NULL, &lower), HD_OK);
    assert_int_equal(hd_shape_box(half, 0.15, NULL, &upper), HD_OK);
    hd_pose pa = hd_test_translation(0.0, 0.0, 0.5), pb = hd_test_translation(0.3, -0.2, 1.65);
    hd_signed_distance_result sd;
    hd_manifold m;
    assert_int_equal(hd_contact_manifold(lower, &pa, upper, &pb, NULL, &sd, &m), HD_OK);
    assert_true(fabs(sd.signed_distance + 0.05) <= 1e-12);
    assert_int_equal(sd.verdict, HD_INTERSECTING);
    assert_true(fabs(sd.normal[2] - 1.0) <= 1e-12);
    assert_true(fabs(sd.witness_a[2] - 1.05) <= 1e-12 && fabs(sd.witness_b[2] - 1.0) <= 1e-12);
    assert_int_equal(m.count, 4);
    for (int i = 0; i < m.count; ++i) {
        assert_true(fabs(m.points[i].separation + 0.05) <= 1e-12);
        assert_true(fabs(m.points[i].point[2] - 1.025) <= 1e-12);
    }
    /* moved apart by 0.2: separated, no point */
    pb.t[2] += 0.2;
    assert_int_equal(hd_contact_manifold(lower, &pa, upper, &pb, NULL, &sd, &m), HD_OK);
    assert_int_equal(m.count, 0);
    assert_true(fabs(sd.signed_distance - 0.15) <= 1e-12);
    hd_polytope_destroy(lower);
    hd_polytope_destroy(upper);
}

/* A scene of spheres on a line whose cores' boxes are apart but whose rounded shapes touch or
 * overlap: the scene's boxes grow by the radius, so every such pair is a contact. */
static void test_scene(void **state)
{
    (void)state;
    hd_polytope *ball;
    assert_int_equal(hd_shape_sphere(0.5, NULL, &ball), HD_OK);
    hd_scene *scene;
    hd_scene_options so = hd_scene_options_default();
    so.detail = HD_SCENE_MANIFOLD;
    assert_int_equal(hd_scene_create(&so, &scene), HD_OK);
    const double x[] = {0.0, 0.9, 1.9, 3.5}; /* overlaps 0.1, touches exactly, apart by 0.6 */
    for (int i = 0; i < 4; ++i) {
        hd_pose p = hd_test_translation(x[i], 0.0, 0.0);
        int id;
        assert_int_equal(hd_scene_add(scene, ball, &p, NULL, &id), HD_OK);
    }
    const hd_scene_contact *c;
    int count;
    assert_int_equal(hd_scene_step(scene, &c, &count, NULL), HD_OK);
    assert_int_equal(count, 2);
    assert_true(c[0].a == 0 && c[0].b == 1 && c[0].verdict == HD_INTERSECTING);
    assert_true(c[1].a == 1 && c[1].b == 2 && c[1].verdict == HD_TOUCHING);
    assert_true(fabs(c[0].contact->signed_distance + 0.1) <= 1e-12);
    assert_int_equal(c[0].manifold->count, 1);
    assert_true(fabs(c[0].manifold->points[0].point[0] - 0.45) <= 1e-12);
    hd_scene_destroy(scene);
    hd_polytope_destroy(ball);
}

/* ---- directional gap ---------------------------------------------------------------------- */

/* Two spheres, B moving along s: |d + tau s| = R (d = c_B - c_A) holds at
 * tau = -d.s +- sqrt((d.s)^2 - |d|^2 + R^2); separated pairs travel to the nearer root on their
 * side, overlapping ones leave by the nearer way out; a negative discriminant misses. */
static void test_gap_spheres(void **state)
{
    (void)state;
    int hits = 0, misses = 0, overlaps = 0;
    for (int i = 0; i < 400; ++i) {
        double sc = random_scale();
        double ra = sc * hd_rng_uniform(&g_rng, 0.1, 1.0),
               rb = sc * hd_rng_uniform(&g_rng, 0.1, 1.0);
        hd_polytope *a, *b;
        assert_int_equal(hd_shape_sphere(ra, NULL, &a), HD_OK);
        assert_int_equal(hd_shape_sphere(rb, NULL, &b), HD_OK);
        hd_pose pa = random_pose(sc), pb = random_pose(1.5 * sc);
        double s[3], d[3];
        hd_rng_unit_vector(&g_rng, s);
        for (int k = 0; k < 3; ++k) {
            d[k] = pb.t[k] - pa.t[k];
        }
        /* aimed roughly at A (or away from it) so that most lines meet it */
        double aim = hd_rng_uniform(&g_rng, 0.0, 3.0) / sqrt(dot3(d, d));
        aim = hd_rng_int(&g_rng, 4) == 0 ? aim : -aim;
        for (int k = 0; k < 3; ++k) {
            s[k] += aim * d[k];
        }
        double len = sqrt(dot3(s, s));
        for (int k = 0; k < 3; ++k) {
            s[k] /= len;
        }
        double R = ra + rb, ds = dot3(d, s), disc = ds * ds - dot3(d, d) + R * R;
        hd_gap_result g;
        assert_int_equal(hd_gap(a, &pa, b, &pb, s, NULL, &g), HD_OK);
        double tol = 1e-9 * 6.0 * sc;
        if (fabs(disc) <= 1e-6 * R * R) {
            continue; /* grazing: the travel is ill-conditioned */
        }
        if (disc < 0.0) {
            assert_false(g.contact);
            misses++;
        } else {
            double lo = -ds - sqrt(disc), hi = -ds + sqrt(disc);
            assert_true(g.contact);
            double travel = lo > 0.0 ? lo : (hi < 0.0 ? -hi : fmin(hi, -lo));
            int sign = lo > 0.0 ? 1 : (hi < 0.0 ? -1 : (hi <= -lo ? 1 : -1));
            assert_true(fabs(g.distance - travel) <= tol);
            if (fabs(hi + lo) > tol) {
                assert_int_equal(g.s_sign, sign);
            }
            overlaps += lo <= 0.0 && hi >= 0.0;
            hits++;
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    printf("gap: %d hits (%d overlapping), %d misses\n", hits, overlaps, misses);
    assert_true(hits > 50 && misses > 50 && overlaps > 20);
}

/* A rounded box and a capsule standing on its top face: B moving down by the height of the gap
 * touches; a flat square (a flat core) rounded is answered too. */
static void test_gap_box(void **state)
{
    (void)state;
    double half[3] = {1.0, 1.0, 0.5}, square[3] = {1.0, 1.0, 0.0};
    hd_polytope *box, *cap, *flat;
    assert_int_equal(hd_shape_box(half, 0.1, NULL, &box), HD_OK);
    assert_int_equal(hd_shape_box(square, 0.25, NULL, &flat), HD_OK);
    assert_int_equal(hd_shape_capsule(0.5, 0.2, NULL, &cap), HD_OK);
    double down[3] = {0.0, 0.0, -1.0};
    hd_pose pb = hd_test_translation(0.3, 0.4, 2.0); /* capsule bottom at 1.3 = 2 - 0.5 - 0.2 */
    hd_gap_result g;
    assert_int_equal(hd_gap(box, NULL, cap, &pb, down, NULL, &g), HD_OK);
    assert_true(g.contact && g.s_sign == 1 && g.verdict == HD_SEPARATED);
    assert_true(fabs(g.distance - 0.7) <= 1e-12); /* the box's rounded top at 0.6 */
    pb.t[2] = 1.2;                                /* overlapping by 0.1: out upwards */
    assert_int_equal(hd_gap(box, NULL, cap, &pb, down, NULL, &g), HD_OK);
    assert_true(g.contact && g.s_sign == -1 && g.verdict == HD_INTERSECTING);
    assert_true(fabs(g.distance - 0.1) <= 1e-12);
    pb.t[0] = 3.0; /* beside the box, moving down: no contact */
    assert_int_equal(hd_gap(box, NULL, cap, &pb, down, NULL, &g), HD_OK);
    assert_false(g.contact);
    pb = hd_test_translation(0.0, 0.0, 2.0);
    assert_int_equal(hd_gap(flat, NULL, cap, &pb, down, NULL, &g), HD_OK);
    assert_true(g.contact && fabs(g.distance - (1.3 - 0.25)) <= 1e-12);
    hd_polytope_destroy(box);
    hd_polytope_destroy(cap);
    hd_polytope_destroy(flat);
}

/* ---- certificates ------------------------------------------------------------------------ */

/* A certificate that proves the cores' answer but not the rounded one's must fail: the plane's
 * gap claimed without the radii, a point moved out of reach of one rounded shape. */
static void test_tampered_certificates(void **state)
{
    (void)state;
    int planes = 0, points = 0;
    for (int i = 0; i < 300; ++i) {
        double s = random_scale();
        double h = s * hd_rng_uniform(&g_rng, 0.0, 1.0);
        double ra = s * hd_rng_uniform(&g_rng, 0.1, 1.0), rb = s * hd_rng_uniform(&g_rng, 0.1, 1.0);
        hd_polytope *a, *b;
        double half[3] = {h, 0.5 * s, 0.3 * s};
        assert_int_equal(hd_shape_box(half, ra, NULL, &a), HD_OK);
        assert_int_equal(hd_shape_capsule(h, rb, NULL, &b), HD_OK);
        hd_pose pa = random_pose(s), pb = random_pose(3.0 * s);
        for (int algo = 0; algo < HD_ALGO_COUNT; ++algo) {
            hd_options opt = hd_options_default();
            opt.algo = (hd_algo)algo;
            hd_collide_result r;
            assert_int_equal(hd_collide(a, &pa, b, &pb, &opt, &r), HD_OK);
            assert_int_equal(hd_certificate_check(a, &pa, b, &pb, r.verdict, r.eps, &r.cert),
                             HD_OK);
            hd_certificate t = r.cert;
            if (r.verdict == HD_SEPARATED) {
                t.gap += 0.5 * (ra + rb); /* the gap of the cores, partly */
                assert_int_equal(hd_certificate_check(a, &pa, b, &pb, r.verdict, r.eps, &t),
                                 HD_ERR_CERTIFICATE);
                t = r.cert;
                t.offset -= 0.5 * t.gap + ra; /* the plane through A's rounded surface */
                assert_int_equal(hd_certificate_check(a, &pa, b, &pb, r.verdict, r.eps, &t),
                                 HD_ERR_CERTIFICATE);
                planes++;
            } else {
                double n[3];
                hd_rng_unit_vector(&g_rng, n);
                for (int k = 0; k < 3; ++k) {
                    t.point[k] += (ra + rb + 0.01 * s) * n[k];
                }
                assert_int_equal(hd_certificate_check(a, &pa, b, &pb, r.verdict, r.eps, &t),
                                 HD_ERR_CERTIFICATE);
                points++;
            }
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    printf("tampered: %d planes, %d points\n", planes, points);
    assert_true(planes > 50 && points > 50);
}

/* ---- constructors and the shape's own accessors ------------------------------------------ */

static void test_constructors(void **state)
{
    (void)state;
    hd_polytope *p;
    double lo[3], hi[3], c[3], r;
    double half[3] = {1.0, 2.0, 3.0};
    assert_int_equal(hd_shape_box(half, 0.5, NULL, &p), HD_OK);
    assert_int_equal(hd_polytope_vertex_count(p), 8);
    assert_true(hd_polytope_radius(p) == 0.5);
    hd_polytope_bounds(p, lo, hi);
    for (int k = 0; k < 3; ++k) {
        assert_true(hi[k] == half[k] + 0.5 && lo[k] == -half[k] - 0.5); /* the box stays the box */
    }
    hd_polytope_sphere(p, c, &r);
    assert_true(r >= sqrt(14.0) + 0.5);
    hd_polytope_destroy(p);

    assert_int_equal(hd_shape_sphere(2.0, NULL, &p), HD_OK);
    assert_int_equal(hd_polytope_dimension(p), 0);
    hd_polytope_sphere(p, c, &r);
    assert_true(r >= 2.0 && r <= 2.0 * (1.0 + 1e-12));
    hd_polytope_destroy(p);

    assert_int_equal(hd_shape_capsule(1.5, 0.25, NULL, &p), HD_OK);
    assert_int_equal(hd_polytope_dimension(p), 1);
    hd_polytope_bounds(p, lo, hi);
    assert_true(hi[2] == 1.75 && lo[0] == -0.25);
    hd_polytope_destroy(p);

    /* the circumscribed prism: its edges touch the circle, its vertices at r / cos(pi / n) */
    int sides = 16;
    assert_int_equal(hd_shape_cylinder(1.0, 2.0, sides, 0.0, NULL, &p), HD_OK);
    assert_int_equal(hd_polytope_vertex_count(p), 2 * sides);
    assert_int_equal(hd_polytope_face_count(p), sides + 2);
    const double *v = hd_polytope_vertices(p);
    for (int i = 0; i < 2 * sides; ++i) {
        assert_true(fabs(hypot(v[3 * i], v[3 * i + 1]) - 2.0 / cos(HD_PI / sides)) < 1e-12);
    }
    hd_verdict inside;
    for (int i = 0; i < 64; ++i) { /* every point of the true cylinder lies in the prism */
        double a = 2.0 * HD_PI * i / 64.0, q[3] = {2.0 * cos(a), 2.0 * sin(a), 0.5};
        assert_int_equal(hd_point_inside(p, NULL, q, NULL, &inside), HD_OK);
        assert_true(inside != HD_SEPARATED);
    }
    hd_polytope_destroy(p);

    assert_int_equal(hd_shape_cone(1.0, 1.0, 8, 0.1, NULL, &p), HD_OK);
    assert_int_equal(hd_polytope_vertex_count(p), 9);
    assert_true(hd_polytope_radius(p) == 0.1);
    double apex_above[3] = {0.0, 0.0, 1.05}, apex_out[3] = {0.0, 0.0, 1.15};
    assert_int_equal(hd_point_inside(p, NULL, apex_above, NULL, &inside), HD_OK);
    assert_int_equal(inside, HD_INTERSECTING);
    assert_int_equal(hd_point_inside(p, NULL, apex_out, NULL, &inside), HD_OK);
    assert_int_equal(inside, HD_SEPARATED);
    hd_polytope_destroy(p);
}

/* radius 0 is the sharp polytope: the same answers, bit for bit */
static void test_radius_zero_is_sharp(void **state)
{
    (void)state;
    double xyz[3 * 20];
    hd_points_ellipsoid(&g_rng, 20, 1.0, 0.7, 0.4, xyz);
    hd_polytope *sharp = hd_test_build(xyz, 20), *zero;
    assert_int_equal(hd_polytope_build_rounded(xyz, 20, 0.0, NULL, &zero), HD_OK);
    for (int i = 0; i < 100; ++i) {
        hd_pose pb = random_pose(1.5);
        hd_signed_distance_result s1, s2;
        assert_int_equal(hd_signed_distance(sharp, NULL, sharp, &pb, NULL, &s1), HD_OK);
        assert_int_equal(hd_signed_distance(zero, NULL, zero, &pb, NULL, &s2), HD_OK);
        assert_memory_equal(&s1, &s2, sizeof s1);
        hd_collide_result c1, c2;
        assert_int_equal(hd_collide(sharp, NULL, sharp, &pb, NULL, &c1), HD_OK);
        assert_int_equal(hd_collide(zero, NULL, zero, &pb, NULL, &c2), HD_OK);
        assert_memory_equal(&c1, &c2, sizeof c1);
    }
    hd_polytope_destroy(sharp);
    hd_polytope_destroy(zero);
}

/* Containment of rounded shapes: a sphere in a rounded box exactly when its centre lies within
 * the box grown by r_box - r_sphere (or deep enough inside it). */
static void test_contains(void **state)
{
    (void)state;
    double half[3] = {1.0, 1.0, 1.0};
    hd_polytope *box, *ball;
    assert_int_equal(hd_shape_box(half, 0.5, NULL, &box), HD_OK);
    for (int i = 0; i < 300; ++i) {
        double r = hd_rng_uniform(&g_rng, 0.0, 1.2);
        assert_int_equal(hd_shape_sphere(r, NULL, &ball), HD_OK);
        double local[3];
        for (int k = 0; k < 3; ++k) {
            local[k] = hd_rng_uniform(&g_rng, -2.0, 2.0);
        }
        hd_pose pb = hd_test_translation(local[0], local[1], local[2]);
        /* the ball fits when the core box's signed distance to the centre is <= 0.5 - r */
        double margin = point_box(local, half) - (0.5 - r);
        bool inside;
        assert_int_equal(hd_contains(box, NULL, ball, &pb, NULL, &inside), HD_OK);
        if (fabs(margin) > 1e-9) {
            assert_int_equal(inside, margin < 0.0);
        }
        hd_polytope_destroy(ball);
    }
    hd_polytope_destroy(box);
}

/* ---- bad input --------------------------------------------------------------------------- */

static void test_bad_input(void **state)
{
    (void)state;
    hd_polytope *p = (hd_polytope *)&g_rng;
    double pt[3] = {0, 0, 0}, half[3] = {1, 1, 1}, bad_half[3] = {1, NAN, 1};
    assert_int_equal(hd_polytope_build_rounded(pt, 1, -1.0, NULL, &p), HD_ERR_INVALID_ARG);
    assert_null(p);
    assert_int_equal(hd_polytope_build_rounded(pt, 1, NAN, NULL, &p), HD_ERR_NONFINITE);
    assert_int_equal(hd_polytope_build_rounded(pt, 1, INFINITY, NULL, &p), HD_ERR_NONFINITE);
    assert_int_equal(hd_polytope_build_rounded(pt, 1, 2e30, NULL, &p), HD_ERR_RANGE);
    double far[3] = {9e29, 0, 0};
    assert_int_equal(hd_polytope_build_rounded(far, 1, 2e29, NULL, &p), HD_ERR_RANGE);
    assert_null(p);
    assert_int_equal(hd_polytope_build_rounded(NULL, 1, 1.0, NULL, &p), HD_ERR_NULL);
    assert_int_equal(hd_polytope_build_rounded(pt, 1, 1.0, NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_polytope_build_rounded(pt, 0, 1.0, NULL, &p), HD_ERR_EMPTY);
    assert_int_equal(hd_shape_sphere(-0.5, NULL, &p), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_shape_sphere(NAN, NULL, &p), HD_ERR_NONFINITE);
    assert_int_equal(hd_shape_capsule(-1.0, 1.0, NULL, &p), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_shape_capsule(INFINITY, 1.0, NULL, &p), HD_ERR_NONFINITE);
    assert_int_equal(hd_shape_box(NULL, 0.0, NULL, &p), HD_ERR_NULL);
    assert_int_equal(hd_shape_box(bad_half, 0.0, NULL, &p), HD_ERR_NONFINITE);
    assert_int_equal(hd_shape_box(half, -1e-300, NULL, &p), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_shape_cylinder(1.0, 1.0, 2, 0.0, NULL, &p), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_shape_cylinder(1.0, 1.0, HD_SHAPE_SIDES_MAX + 1, 0.0, NULL, &p),
                     HD_ERR_INVALID_ARG);
    assert_int_equal(hd_shape_cone(1.0, -1.0, 8, 0.0, NULL, &p), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_shape_cone(1.0, 1.0, 8, NAN, NULL, &p), HD_ERR_NONFINITE);
    assert_null(p);
    assert_int_equal(hd_shape_sphere(1.0, NULL, NULL), HD_ERR_NULL);
    assert_true(hd_polytope_radius(NULL) == 0.0);
    /* a radius near the range's end: the query's scale is refused, not answered wrongly */
    hd_polytope *big, *small;
    assert_int_equal(hd_shape_sphere(9e29, NULL, &big), HD_OK);
    assert_int_equal(hd_shape_sphere(1.0, NULL, &small), HD_OK);
    hd_pose far_pose = hd_test_translation(5e29, 0, 0);
    hd_collide_result r;
    assert_int_equal(hd_collide(big, &far_pose, small, NULL, NULL, &r), HD_ERR_RANGE);
    hd_polytope_destroy(big);
    hd_polytope_destroy(small);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_sphere),
        cmocka_unit_test(test_sphere_capsule),
        cmocka_unit_test(test_capsule_capsule),
        cmocka_unit_test(test_sphere_box),
        cmocka_unit_test(test_band_edges),
        cmocka_unit_test(test_gradient),
        cmocka_unit_test(test_stacked_manifold),
        cmocka_unit_test(test_scene),
        cmocka_unit_test(test_gap_spheres),
        cmocka_unit_test(test_gap_box),
        cmocka_unit_test(test_tampered_certificates),
        cmocka_unit_test(test_constructors),
        cmocka_unit_test(test_radius_zero_is_sharp),
        cmocka_unit_test(test_contains),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
