/* Scene files normalise their quaternions as the CLI's --rotate-b does: a quaternion of any
 * non-zero length gives the rotation of its unit quaternion, compared here with the matrix of
 * the closed-form quarter and half turns; a zero quaternion stays an error at its line. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "hedra/hedra.h"

#define CUBE_SHAPE "shape cube\nP 4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n"

static hd_status read_text(const char *text, hd_scene_file *f, hd_parse_error *err)
{
    FILE *fp = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(fp);
    hd_status st = hd_read_scene_stream(fp, "q.scene", f, err);
    fclose(fp);
    return st;
}

/* The pose of the scene's only body line, rows of R within a few ulps of want. */
static void expect_rotation(const char *body_line, const double want[9], const double t[3])
{
    char text[256];
    snprintf(text, sizeof text, "%s%s\n", CUBE_SHAPE, body_line);
    hd_scene_file f;
    hd_parse_error err;
    memset(&err, 0, sizeof err);
    hd_status st = read_text(text, &f, &err);
    if (st != HD_OK) {
        fprintf(stderr, "%s: %s\n", body_line, err.message);
    }
    assert_int_equal(st, HD_OK);
    assert_int_equal(f.op_count, 1);
    const hd_pose *p = &f.ops[0].pose;
    for (int i = 0; i < 9; ++i) {
        assert_true(fabs(p->r[i] - want[i]) <= 4e-16);
    }
    for (int i = 0; i < 3; ++i) {
        assert_true(p->t[i] == t[i]);
    }
    hd_scene_file_free(&f);
}

static void test_short_quaternion_is_normalised(void **state)
{
    (void)state;
    /* 7 digits of cos 45 deg: the quarter turn about z, x -> y */
    const double quarter_z[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1};
    const double t[3] = {1, 2, 3};
    expect_rotation("body a cube 0.7071068 0 0 0.7071068 1 2 3", quarter_z, t);
    expect_rotation("body a cube 5 0 0 5 1 2 3", quarter_z, t);
}

static void test_scaled_quaternions(void **state)
{
    (void)state;
    const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double quarter_x[9] = {1, 0, 0, 0, 0, -1, 0, 1, 0}; /* y -> z */
    const double half_y[9] = {-1, 0, 0, 0, 1, 0, 0, 0, -1};
    const double t[3] = {0, 0, 0};
    expect_rotation("body a cube 2 0 0 0 0 0 0", identity, t);
    expect_rotation("body a cube 1e200 0 0 0 0 0 0", identity, t);
    expect_rotation("body a cube 1 1 0 0 0 0 0", quarter_x, t);
    expect_rotation("body a cube 0 0 1e-3 0 0 0 0", half_y, t);
}

static void test_move_normalises_too(void **state)
{
    (void)state;
    hd_scene_file f;
    hd_parse_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(
        read_text(CUBE_SHAPE "body a cube 1 0 0 0 0 0 0\nframe\nmove a 3 0 0 0 0 0 0\n", &f, &err),
        HD_OK);
    assert_int_equal(f.op_count, 2);
    assert_true(f.ops[1].pose.r[0] == 1.0 && f.ops[1].pose.r[4] == 1.0);
    hd_scene_file_free(&f);
}

static void test_zero_quaternion_stays_an_error(void **state)
{
    (void)state;
    hd_scene_file f;
    hd_parse_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(read_text(CUBE_SHAPE "body a cube 0 0 0 0 0 0 0\n", &f, &err),
                     HD_ERR_BAD_POSE);
    assert_int_equal(err.line, 7);
    assert_non_null(strstr(err.message, "gives no rotation"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_quaternion_is_normalised),
        cmocka_unit_test(test_scaled_quaternions),
        cmocka_unit_test(test_move_normalises_too),
        cmocka_unit_test(test_zero_quaternion_stays_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
