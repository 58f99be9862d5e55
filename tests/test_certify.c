/* hd_certificate_check against certificates built by hand for unit cubes whose answer is known:
 * valid certificates are accepted, every kind of forged one is rejected. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

typedef struct fixture {
    hd_polytope *cube;
    hd_pose shifted;
} fixture;

static int setup(void **state)
{
    static fixture f;
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, xyz[24];
    hd_points_box(lo, hi, xyz);
    f.cube = hd_test_build(xyz, 8);
    f.shifted = hd_pose_identity();
    *state = &f;
    return f.cube == NULL;
}

static int teardown(void **state)
{
    hd_polytope_destroy(((fixture *)*state)->cube);
    return 0;
}

/* Index of the hull vertex at (x, y, z) in the cube's local frame. */
static int vertex_at(const hd_polytope *p, double x, double y, double z)
{
    const double *v = hd_polytope_vertices(p);
    for (int i = 0; i < hd_polytope_vertex_count(p); ++i) {
        if (v[3 * i] == x && v[3 * i + 1] == y && v[3 * i + 2] == z) {
            return i;
        }
    }
    return -1;
}

/* The trilinear weights of local point (x, y, z) over the cube's 8 corners. */
static void trilinear(const hd_polytope *p, double x, double y, double z, hd_combination *c)
{
    c->count = 8;
    for (int k = 0; k < 8; ++k) {
        double cx = (k & 1) ? 1 : 0, cy = (k & 2) ? 1 : 0, cz = (k & 4) ? 1 : 0;
        c->index[k] = vertex_at(p, cx, cy, cz);
        c->weight[k] = (cx ? x : 1 - x) * (cy ? y : 1 - y) * (cz ? z : 1 - z);
    }
}

static hd_collide_result plane_result(hd_verdict v, double nx, double offset, double gap)
{
    hd_collide_result r;
    memset(&r, 0, sizeof r);
    r.verdict = v;
    r.eps = 1e-12 * 3.0;
    r.cert.has_plane = 1;
    r.cert.normal[0] = nx;
    r.cert.offset = offset;
    r.cert.gap = gap;
    return r;
}

static void test_separated(void **state)
{
    fixture *f = *state;
    f->shifted.t[0] = 2.0; /* B = [2,3] x [0,1]^2 */
    hd_collide_result r = plane_result(HD_SEPARATED, 1.0, 1.5, 1.0);
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, r.verdict, r.eps, &r.cert), HD_OK);
    r.cert.normal[0] = 0.0;
    r.cert.normal[1] = 1.0; /* a plane that does not separate */
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, r.verdict, r.eps, &r.cert),
                     HD_ERR_CERTIFICATE);
    r = plane_result(HD_SEPARATED, -1.0, -1.5, 1.0); /* pointing the wrong way */
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, r.verdict, r.eps, &r.cert),
                     HD_ERR_CERTIFICATE);
    r = plane_result(HD_SEPARATED, 2.0, 3.0, 2.0); /* not unit */
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, r.verdict, r.eps, &r.cert),
                     HD_ERR_CERTIFICATE);
    r = plane_result(HD_SEPARATED, 1.0, 7.0, 1.0); /* offset outside the slab */
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, r.verdict, r.eps, &r.cert),
                     HD_ERR_CERTIFICATE);
    f->shifted.t[0] = 1.0; /* face contact: a plane exists but its gap is 0, not > eps */
    r = plane_result(HD_SEPARATED, 1.0, 1.0, 0.0);
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, r.verdict, r.eps, &r.cert),
                     HD_ERR_CERTIFICATE);
}

static void test_touching(void **state)
{
    fixture *f = *state;
    f->shifted.t[0] = 1.0;
    hd_collide_result r = plane_result(HD_TOUCHING, 1.0, 1.0, 0.0);
    r.cert.has_point = 1;
    r.cert.point[0] = 1.0;
    r.cert.point[1] = 0.25;
    r.cert.point[2] = 0.5;
    trilinear(f->cube, 1.0, 0.25, 0.5, &r.cert.on_a);
    trilinear(f->cube, 0.0, 0.25, 0.5, &r.cert.on_b);
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, r.verdict, r.eps, &r.cert), HD_OK);
    hd_collide_result no_point = r;
    no_point.cert.has_point = 0;
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, no_point.verdict, no_point.eps, &no_point.cert),
                     HD_ERR_CERTIFICATE);
    f->shifted.t[0] = 1.25; /* the same certificate once the cubes are a quarter apart */
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, r.verdict, r.eps, &r.cert),
                     HD_ERR_CERTIFICATE);
    f->shifted.t[0] = 0.5; /* or overlapping by a half: the plane no longer bounds the overlap */
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, r.verdict, r.eps, &r.cert),
                     HD_ERR_CERTIFICATE);
}

static void test_intersecting(void **state)
{
    fixture *f = *state;
    f->shifted.t[0] = 0.5; /* overlap [0.5, 1] along x: depth 0.5 */
    hd_collide_result r;
    memset(&r, 0, sizeof r);
    r.verdict = HD_INTERSECTING;
    r.eps = 3e-12;
    r.cert.has_point = 1;
    r.cert.point[0] = 0.75;
    r.cert.point[1] = 0.5;
    r.cert.point[2] = 0.5;
    r.cert.depth_bound = 0.25;
    trilinear(f->cube, 0.75, 0.5, 0.5, &r.cert.on_a);
    trilinear(f->cube, 0.25, 0.5, 0.5, &r.cert.on_b);
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, r.verdict, r.eps, &r.cert), HD_OK);

    hd_collide_result bad = r;
    bad.cert.depth_bound = 0.0; /* no depth evidence */
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, bad.verdict, bad.eps, &bad.cert),
                     HD_ERR_CERTIFICATE);
    bad = r;
    bad.cert.on_a.weight[0] += 0.01; /* weights do not sum to one */
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, bad.verdict, bad.eps, &bad.cert),
                     HD_ERR_CERTIFICATE);
    bad = r;
    bad.cert.on_b.weight[0] = -bad.cert.on_b.weight[0]; /* a negative weight */
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, bad.verdict, bad.eps, &bad.cert),
                     HD_ERR_CERTIFICATE);
    bad = r;
    bad.cert.on_a.index[3] = 8; /* an index out of range */
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, bad.verdict, bad.eps, &bad.cert),
                     HD_ERR_CERTIFICATE);
    bad = r;
    trilinear(f->cube, 0.5, 0.5, 0.5, &bad.cert.on_b); /* two different points */
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, bad.verdict, bad.eps, &bad.cert),
                     HD_ERR_CERTIFICATE);
    bad = r;
    bad.cert.on_a.count = 0;
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, bad.verdict, bad.eps, &bad.cert),
                     HD_ERR_CERTIFICATE);
    bad = r;
    bad.verdict = (hd_verdict)9;
    assert_int_equal(hd_certificate_check(f->cube, NULL, f->cube, &f->shifted, bad.verdict, bad.eps, &bad.cert),
                     HD_ERR_CERTIFICATE);
}

static void test_rotated_frame(void **state)
{
    fixture *f = *state;
    /* rotate both cubes by 90 degrees about z: the separating plane rotates with them */
    double q[4] = {sqrt(0.5), 0, 0, sqrt(0.5)}, ta[3] = {0, 0, 0}, tb[3] = {0, 2, 0};
    hd_pose pa, pb;
    hd_pose_from_quaternion(q, ta, &pa);
    hd_pose_from_quaternion(q, tb, &pb); /* B's local x axis maps to world +y, shifted by 2 */
    hd_collide_result r;
    memset(&r, 0, sizeof r);
    r.verdict = HD_SEPARATED;
    r.eps = 3e-12;
    r.cert.has_plane = 1;
    r.cert.normal[1] = 1.0;
    r.cert.offset = 1.5;
    r.cert.gap = 1.0;
    /* A occupies y in [0, 1], B y in [2, 3] */
    assert_int_equal(hd_certificate_check(f->cube, &pa, f->cube, &pb, r.verdict, r.eps, &r.cert), HD_OK);
    r.cert.offset = 1.4; /* the plane is then too close to A for the claimed gap */
    assert_int_equal(hd_certificate_check(f->cube, &pa, f->cube, &pb, r.verdict, r.eps, &r.cert), HD_ERR_CERTIFICATE);
    r.cert.offset = 1.5;
    r.cert.normal[1] = 0.0;
    r.cert.normal[0] = 1.0;
    assert_int_equal(hd_certificate_check(f->cube, &pa, f->cube, &pb, r.verdict, r.eps, &r.cert), HD_ERR_CERTIFICATE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_separated),
        cmocka_unit_test(test_touching),
        cmocka_unit_test(test_intersecting),
        cmocka_unit_test(test_rotated_frame),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
