/* The scene-file reader: a file read into exactly its shapes, bodies, operations and frames; a
 * table of malformed files, each with its status, line and a phrase of its message (unknown
 * shape or body, duplicate names, zero quaternions, truncation, bad fields); and the
 * reader's arguments. The errors of building shapes and adding bodies are the CLI's
 * (tests/cli/scene.sh). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hedra/hedra.h"

/* Writes text to a fresh file; its path in path[64]. */
static void write_file(char *path, const char *text)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, 64, "%s/hedra-scene-XXXXXX", dir ? dir : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(text, 1, strlen(text), fp), strlen(text));
    fclose(fp);
}

static hd_status read_text(const char *text, hd_scene_file *f, hd_parse_error *err)
{
    char path[64];
    write_file(path, text);
    hd_status st = hd_read_scene(path, f, err);
    unlink(path);
    return st;
}

#define CUBE "shape cube\nP 8\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n"
#define R45 "0.70710678118654752 0 0 0.70710678118654752"

static void test_happy(void **state)
{
    (void)state;
    const char *text = "# a scene\n" CUBE "shape dot # one point\r\nP 1\n  2 3 4\n"
                       "body a cube 1 0 0 0  0 0 0\n"
                       "body b dot " R45 " 5 6 7 # rotated\n"
                       "frame\n\n"
                       "move a 1 0 0 0 1 0 0\n"
                       "remove b\n"
                       "frame\n"
                       "body b cube -1 0 0 0 0 0 1e6\n"
                       "frame\n";
    hd_scene_file f;
    hd_parse_error err;
    assert_int_equal(read_text(text, &f, &err), HD_OK);
    assert_int_equal(f.shape_count, 2);
    assert_string_equal(f.shapes[0].name, "cube");
    assert_int_equal(f.shapes[0].line, 2);
    assert_int_equal(f.shapes[0].points.count, 8);
    assert_true(f.shapes[0].points.xyz[21] == 1.0);
    assert_string_equal(f.shapes[1].name, "dot");
    assert_int_equal(f.shapes[1].points.count, 1);
    assert_true(f.shapes[1].points.xyz[2] == 4.0);
    assert_int_equal(f.body_count, 3); /* b re-added is a new body */
    assert_string_equal(f.bodies[1].name, "b");
    assert_int_equal(f.bodies[1].shape, 1);
    assert_int_equal(f.bodies[1].line, 16);
    assert_string_equal(f.bodies[2].name, "b");
    assert_int_equal(f.bodies[2].shape, 0);
    assert_int_equal(f.op_count, 5);
    assert_int_equal(f.frame_count, 4); /* three 'frame' lines: the last frame is empty */
    static const int starts[5] = {0, 2, 4, 5, 5};
    assert_memory_equal(f.frame_start, starts, sizeof starts);
    assert_int_equal(f.ops[1].kind, HD_SCENE_FILE_ADD);
    assert_int_equal(f.ops[1].body, 1);
    /* 45 degrees about z: x goes to y */
    assert_true(fabs(f.ops[1].pose.r[3] - 1.0) < 1e-15 && fabs(f.ops[1].pose.r[0]) < 1e-15);
    assert_true(f.ops[1].pose.t[2] == 7.0);
    assert_int_equal(f.ops[2].kind, HD_SCENE_FILE_MOVE);
    assert_int_equal(f.ops[2].line, 19);
    assert_true(f.ops[2].pose.t[0] == 1.0);
    assert_int_equal(f.ops[3].kind, HD_SCENE_FILE_REMOVE);
    assert_int_equal(f.ops[3].body, 1);
    assert_int_equal(f.ops[4].body, 2);
    assert_true(f.ops[4].pose.r[0] == 1.0 && f.ops[4].pose.t[2] == 1e6); /* q and -q alike */
    hd_scene_file_free(&f);
    assert_int_equal(f.shape_count, 0);
    hd_scene_file_free(NULL);
}

/* A velocity line: an op of its frame with the twist, the pose left the identity. */
static void test_velocity(void **state)
{
    (void)state;
    hd_scene_file f;
    hd_parse_error err;
    assert_int_equal(read_text(CUBE "body a cube 1 0 0 0 0 0 0\nframe\nvelocity a 1 -2 3.5 0 0 "
                                    "6.25\nmove a 1 0 0 0 1 0 0\n",
                               &f, &err),
                     HD_OK);
    assert_int_equal(f.frame_count, 2);
    assert_int_equal(f.frame_start[1], 1);
    const hd_scene_file_op *op = &f.ops[1];
    const double v[3] = {1, -2, 3.5}, w[3] = {0, 0, 6.25};
    assert_int_equal(op->kind, HD_SCENE_FILE_VELOCITY);
    assert_int_equal(op->body, 0);
    assert_int_equal(op->line, 13);
    assert_memory_equal(op->v, v, sizeof v);
    assert_memory_equal(op->w, w, sizeof w);
    assert_true(op->pose.r[0] == 1.0 && op->pose.t[0] == 0.0);
    assert_int_equal(f.ops[2].kind, HD_SCENE_FILE_MOVE);
    hd_scene_file_free(&f);
}

static void test_empty(void **state)
{
    (void)state;
    hd_scene_file f;
    assert_int_equal(read_text("# nothing\n\n", &f, NULL), HD_OK);
    assert_int_equal(f.frame_count, 1);
    assert_int_equal(f.op_count, 0);
    assert_int_equal(f.body_count, 0);
    hd_scene_file_free(&f);
}

typedef struct bad_case {
    const char *text;
    hd_status status;
    int line;
    const char *phrase;
} bad_case;

static const bad_case bad_cases[] = {
    {CUBE "body a box 1 0 0 0 0 0 0\n", HD_ERR_PARSE, 11, "unknown shape 'box'"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nmove b 1 0 0 0 0 0 0\n", HD_ERR_PARSE, 12,
     "unknown body 'b'"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nframe\nremove a\nmove a 1 0 0 0 0 0 0\n", HD_ERR_PARSE, 14,
     "'a' (it was removed)"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nremove a\nremove a\n", HD_ERR_PARSE, 13, "unknown body"},
    {CUBE "shape cube\nP 1\n0 0 0\n", HD_ERR_PARSE, 11,
     "duplicate shape name 'cube' (defined at line 1)"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nframe\nbody a cube 1 0 0 0 1 0 0\n", HD_ERR_PARSE, 13,
     "duplicate body name 'a' (defined at line 11)"},
    {CUBE "body a cube 0 0 0 0 0 0 0\n", HD_ERR_BAD_POSE, 11, "gives no rotation"},
    {CUBE "body a cube 1 0 0 0 0 0\n", HD_ERR_PARSE, 11, "expected 'qw qx qy qz tx ty tz'"},
    {CUBE "body a cube 1 0 0 0 0 0 0 0\n", HD_ERR_PARSE, 11, "found 8 fields"},
    {CUBE "body a cube 1 0 0 0 nan 0 0\n", HD_ERR_NONFINITE, 11, "not a finite number"},
    {CUBE "body a cube\n", HD_ERR_PARSE, 11, "found 0 fields"},
    {CUBE "body a\n", HD_ERR_PARSE, 11, "expected 'body <name> <shape>"},
    {CUBE "body\n", HD_ERR_PARSE, 11, "expected a name after 'body'"},
    {CUBE "move\n", HD_ERR_PARSE, 11, "expected a body name after 'move'"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nremove a now\n", HD_ERR_PARSE, 12, "unexpected 'now'"},
    {CUBE "frame 2\n", HD_ERR_PARSE, 11, "unexpected '2' after 'frame'"},
    {CUBE "velocity a 1 0 0 0 0 0\n", HD_ERR_PARSE, 11, "unknown body 'a'"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nvelocity a 1 2 3\n", HD_ERR_PARSE, 12,
     "expected 'vx vy vz wx wy wz', found 3 fields"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nvelocity a 1 2 3 4 5 inf\n", HD_ERR_NONFINITE, 12,
     "not a finite number"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nvelocity\n", HD_ERR_PARSE, 12,
     "expected a body name after 'velocity'"},
    {CUBE "bodies a cube\n", HD_ERR_PARSE, 11, "expected 'shape', 'body', 'frame'"},
    {"shape s\nP 2\n0 0 0\n1 1 1\n2 2 2\n", HD_ERR_PARSE, 5, "more point lines than the count"},
    {"shape s\n", HD_ERR_PARSE, 2, "unexpected end of file: expected 'P <count>'"},
    {"shape s\nP 3\n0 0 0\n# gone\n", HD_ERR_PARSE, 5, "expected point 2 of 3"},
    {"shape s\nP 0\n", HD_ERR_EMPTY, 2, "at least one point"},
    {"shape s\nP -1\n", HD_ERR_PARSE, 2, "must not be negative"},
    {"shape s\nP 99999999999\n", HD_ERR_TOO_LARGE, 2, "too large"},
    {"shape s\nQ 1\n", HD_ERR_PARSE, 2, "expected 'P <count>'"},
    {"shape s\nP 1\n0 0\n", HD_ERR_PARSE, 3, "point 1 of 1"},
    {"shape s t\n", HD_ERR_PARSE, 1,
     "expected 'shape <name> [radius <r>] [pieces <k>]', found 't'"},
    {"shape s radius -0.5\nP 1\n0 0 0\n", HD_ERR_PARSE, 1, "shape 's': radius -0.5 is negative"},
    {"shape s radius nan\nP 1\n0 0 0\n", HD_ERR_NONFINITE, 1, "radius"},
    {"shape s radius\nP 1\n0 0 0\n", HD_ERR_PARSE, 1, "found 'radius' without a value"},
    {"shape s radius 1 radius 2\nP 1\n0 0 0\n", HD_ERR_PARSE, 1, "found 'radius' twice"},
    {"shape s pieces 0\nP 1\n0 0 0\n", HD_ERR_EMPTY, 1, "a compound needs a piece"},
    {"shape s pieces 70000\nP 1\n0 0 0\n", HD_ERR_TOO_LARGE, 1, "pieces"},
    {"shape s pieces 2\nP 1\n0 0 0\n", HD_ERR_PARSE, 4, "expected 'P <count>'"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nvelocity a 1 2 3\n", HD_ERR_PARSE, 12, "found 3 fields"},
    {CUBE "velocity b 1 2 3 0 0 0\n", HD_ERR_PARSE, 11, "unknown body 'b'"},
    {"shape\n", HD_ERR_PARSE, 1, "expected a name after 'shape'"},
    {"shape s radius -1\nP 1\n0 0 0\n", HD_ERR_PARSE, 1, "shape 's': radius -1 is negative"},
    {"shape s radius\nP 1\n0 0 0\n", HD_ERR_PARSE, 1, "found 'radius' without a value"},
    {"shape s radius nan\nP 1\n0 0 0\n", HD_ERR_NONFINITE, 1, "not a finite number"},
    {"shape s radius 1 2\nP 1\n0 0 0\n", HD_ERR_PARSE, 1, "found '2'"},
    {"shape s margin 1\nP 1\n0 0 0\n", HD_ERR_PARSE, 1, "found 'margin'"},
    {"shape s\nP 1\n0 0 \x01\n", HD_ERR_PARSE, 3, "control byte"},
    {CUBE "filter a 1 1\n", HD_ERR_PARSE, 11, "unknown body 'a'"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nfilter a 1\n", HD_ERR_PARSE, 12, "found no mask"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nfilter a -1 1\n", HD_ERR_PARSE, 12, "category: -1 is not in"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nfilter a 1 4294967296\n", HD_ERR_PARSE, 12,
     "mask: 4294967296 is not in"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nfilter a 1 1 x\n", HD_ERR_PARSE, 12, "group"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nfilter a 1 1 2 3\n", HD_ERR_PARSE, 12, "unexpected '3'"},
    {CUBE "body a cube 1 0 0 0 0 0 0\nframe\nremove a\nfilter a 1 1\n", HD_ERR_PARSE, 14,
     "(it was removed)"},
    {"margin -0.5\n", HD_ERR_PARSE, 1, "margin: -0.5 is negative"},
    {"margin inf\n", HD_ERR_NONFINITE, 1, "not a finite number"},
    {"margin\n", HD_ERR_PARSE, 1, "margin: expected 'd', found 0"},
    {"margin 0.1\nmargin 0.2\n", HD_ERR_PARSE, 2, "a second 'margin' line (the first at line 1)"},
};

static void test_bad_files(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; ++i) {
        const bad_case *c = &bad_cases[i];
        hd_scene_file f;
        hd_parse_error err;
        memset(&err, 0, sizeof err);
        hd_status st = read_text(c->text, &f, &err);
        if (st != c->status || err.line != c->line || strstr(err.message, c->phrase) == NULL) {
            printf("case %zu: status %d line %d message '%s'\n", i, (int)st, err.line, err.message);
        }
        assert_int_equal(st, c->status);
        assert_int_equal(err.line, c->line);
        assert_non_null(strstr(err.message, c->phrase));
        assert_int_equal(f.shape_count, 0); /* nothing is left behind */
        assert_null(f.ops);
    }
}

/* "radius r" after a shape's name: read as written (0 without it), comments allowed after it. */
static void test_shape_radius(void **state)
{
    (void)state;
    hd_scene_file f;
    hd_parse_error err;
    const char *text = "shape ball radius 0.25 # a sphere\nP 1\n1 2 3\n" CUBE
                       "shape sharp radius 0\nP 1\n0 0 0\nbody a ball 1 0 0 0 0 0 0\n";
    assert_int_equal(read_text(text, &f, &err), HD_OK);
    assert_int_equal(f.shape_count, 3);
    assert_true(f.shapes[0].radius == 0.25);
    assert_true(f.shapes[1].radius == 0.0);
    assert_true(f.shapes[2].radius == 0.0);
    assert_int_equal(f.shapes[0].points.count, 1);
    assert_true(f.shapes[0].points.xyz[2] == 3.0);
    hd_scene_file_free(&f);
}

/* "filter" lines become operations in file order, "margin" the file's proximity. */
static void test_filter_and_margin(void **state)
{
    (void)state;
    const char *text = CUBE "margin 0.25\n"
                            "body a cube 1 0 0 0 0 0 0\n"
                            "filter a 3 4294967295 -2\n"
                            "frame\n"
                            "filter a 0 5\n";
    hd_scene_file f;
    hd_parse_error err;
    assert_int_equal(read_text(text, &f, &err), HD_OK);
    assert_true(f.margin == 0.25);
    assert_int_equal(f.margin_line, 11);
    assert_int_equal(f.op_count, 3);
    assert_int_equal(f.ops[1].kind, HD_SCENE_FILE_FILTER);
    assert_int_equal(f.ops[1].line, 13);
    assert_int_equal(f.ops[1].category, 3u);
    assert_int_equal(f.ops[1].mask, 4294967295u);
    assert_int_equal(f.ops[1].group, -2);
    assert_int_equal(f.ops[2].kind, HD_SCENE_FILE_FILTER);
    assert_int_equal(f.ops[2].mask, 5u);
    assert_int_equal(f.ops[2].group, 0);
    assert_int_equal(f.frame_start[1], 2);
    hd_scene_file_free(&f);
    assert_int_equal(read_text(CUBE, &f, &err), HD_OK);
    assert_int_equal(f.shapes[0].pieces, 0);
    assert_null(f.shapes[0].piece_start);
    assert_true(f.shapes[0].radius == 0.0);
    assert_int_equal(f.margin_line, 0);
    assert_true(f.margin == 0.0);
    hd_scene_file_free(&f);
}

/* "radius", "pieces" (the blocks' offsets into the points) and "velocity" lines. */
static void test_rounded_compound_velocity(void **state)
{
    (void)state;
    const char *text = "shape d pieces 2 radius 0.125\nP 2\n0 0 0\n1 0 0\nP 3\n"
                       "5 0 0\n6 0 0\n5 1 0\n"
                       "shape b radius 2\nP 1\n0 0 0\n"
                       "body x d 1 0 0 0 0 0 0\nvelocity x 1 2 3 -4 5.5 6\n";
    hd_scene_file f;
    hd_parse_error err;
    assert_int_equal(read_text(text, &f, &err), HD_OK);
    assert_int_equal(f.shape_count, 2);
    assert_int_equal(f.shapes[0].pieces, 2);
    assert_true(f.shapes[0].radius == 0.125);
    assert_int_equal(f.shapes[0].points.count, 5);
    assert_int_equal(f.shapes[0].piece_start[0], 0);
    assert_int_equal(f.shapes[0].piece_start[1], 2);
    assert_int_equal(f.shapes[0].piece_start[2], 5);
    assert_true(f.shapes[0].points.xyz[3 * 2] == 5.0);
    assert_int_equal(f.shapes[1].pieces, 0);
    assert_true(f.shapes[1].radius == 2.0);
    assert_int_equal(f.op_count, 2);
    assert_int_equal(f.ops[1].kind, HD_SCENE_FILE_VELOCITY);
    assert_int_equal(f.ops[1].line, 13);
    double v[3] = {1, 2, 3}, w[3] = {-4, 5.5, 6};
    assert_memory_equal(f.ops[1].v, v, sizeof v);
    assert_memory_equal(f.ops[1].w, w, sizeof w);
    hd_scene_file_free(&f);
}

static void test_long_name_and_arguments(void **state)
{
    (void)state;
    char text[600];
    memset(text, 0, sizeof text);
    strcpy(text, "shape ");
    memset(text + 6, 'x', 256);
    strcat(text, "\nP 1\n0 0 0\n");
    hd_scene_file f;
    hd_parse_error err;
    assert_int_equal(read_text(text, &f, &err), HD_ERR_PARSE);
    assert_non_null(strstr(err.message, "longer than 255 bytes"));
    text[6 + 255] = '\n'; /* 255 bytes: accepted */
    memmove(text + 6 + 256, "P 1\n0 0 0\n", 11);
    assert_int_equal(read_text(text, &f, &err), HD_OK);
    assert_int_equal((int)strlen(f.shapes[0].name), 255);
    hd_scene_file_free(&f);
    assert_int_equal(hd_read_scene(NULL, &f, &err), HD_ERR_NULL);
    assert_int_equal(hd_read_scene("x.scene", NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_read_scene_stream(NULL, "s", &f, &err), HD_ERR_NULL);
    assert_int_equal(hd_read_scene("/nonexistent/dir/x.scene", &f, &err), HD_ERR_IO);
    assert_int_equal(err.line, 0);
    assert_string_equal(err.file, "/nonexistent/dir/x.scene");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_happy),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_velocity),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_shape_radius),
        cmocka_unit_test(test_filter_and_margin),
        cmocka_unit_test(test_rounded_compound_velocity),
        cmocka_unit_test(test_long_name_and_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
