/* Point-file readers (OFF, OBJ, XYZ): happy paths checked against the coordinates written in the
 * test's own text, and a table of malformed inputs, each checked for its status, the line the
 * error names and a key word of the message. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hedra/hedra.h"

/* Reads text (len bytes; 0 means strlen) as format through a temporary stream. */
static hd_status read_text(const char *text, size_t len, hd_format format, hd_points *pts,
                           hd_parse_error *err)
{
    FILE *fp = tmpfile();
    assert_non_null(fp);
    if (len == 0) {
        len = strlen(text);
    }
    assert_int_equal(fwrite(text, 1, len, fp), len);
    rewind(fp);
    hd_status st = hd_read_points_stream(fp, "mem", format, pts, err);
    fclose(fp);
    return st;
}

static void expect_points(const hd_points *pts, const double *xyz, int n)
{
    assert_int_equal(pts->count, n);
    for (int i = 0; i < 3 * n; ++i) {
        if (pts->xyz[i] != xyz[i]) {
            print_message("coordinate %d: read %.17g, expected %.17g\n", i, pts->xyz[i], xyz[i]);
        }
        assert_true(pts->xyz[i] == xyz[i]);
    }
}

static const double k_tri[] = {0, 0, 0, 1.5, 0, 0, 0, -2.25, 1e-3};

static void read_ok(const char *text, hd_format format, const double *xyz, int n)
{
    hd_points pts = {0, NULL};
    hd_parse_error err;
    hd_status st = read_text(text, 0, format, &pts, &err);
    if (st != HD_OK) {
        char msg[600];
        hd_parse_error_format(&err, msg, (int)sizeof msg);
        print_message("unexpected error: %s (%s)\n", msg, hd_status_str(st));
    }
    assert_int_equal(st, HD_OK);
    expect_points(&pts, xyz, n);
    hd_points_free(&pts);
    assert_null(pts.xyz);
}

static void test_off_happy(void **state)
{
    (void)state;
    read_ok("OFF\n3 1 0\n0 0 0\n1.5 0 0\n0 -2.25 1e-3\n3 0 1 2\n", HD_FORMAT_OFF, k_tri, 3);
    /* Comments, blank lines, CRLF, tabs, counts on the header line, a UTF-8 byte order mark,
     * face colours, no trailing newline. */
    read_ok("\xEF\xBB\xBF# a triangle\r\nOFF 3 1 0 # counts here\r\n\r\n  0\t0 0\r\n"
            "+1.5 0.0 -0\r\n# between\r\n0 -2.25 1E-3\r\n3 0 1 2 255 0 0", HD_FORMAT_OFF, k_tri, 3);
    /* Headerless, edge count omitted, face with one colour-map index. */
    read_ok("3 1\n0 0 0\n1.5 0 0\n0 -2.25 .001\n3 2 1 0 7\n", HD_FORMAT_OFF, k_tri, 3);
    /* COFF with RGB and RGBA vertex colours, NOFF with normals, CNOFF with both. */
    read_ok("COFF\n3 0 0\n0 0 0 1 0 0\n1.5 0 0 0 1 0 1\n0 -2.25 1e-3 0 0 1\n", HD_FORMAT_OFF,
            k_tri, 3);
    read_ok("NOFF\n3 0 0\n0 0 0 0 0 1\n1.5 0 0 0 0 1\n0 -2.25 1e-3 0 0 1\n", HD_FORMAT_OFF,
            k_tri, 3);
    read_ok("CNOFF\n3 0 0\n0 0 0 0 0 1 9 9 9\n1.5 0 0 0 0 1 9 9 9 9\n0 -2.25 1e-3 0 0 1 1 1 1\n",
            HD_FORMAT_OFF, k_tri, 3);
    /* A cube with its six quadrilateral faces. */
    static const double cube[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0,
                                  0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
    read_ok("OFF\n8 6 12\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n1 1 1\n0 1 1\n"
            "4 0 3 2 1\n4 4 5 6 7\n4 0 1 5 4\n4 2 3 7 6\n4 0 4 7 3\n4 1 2 6 5\n",
            HD_FORMAT_OFF, cube, 8);
}

static void test_numbers(void **state)
{
    (void)state;
    /* Exact conversions: strtod rounds correctly, and so does the compiler for the literals. */
    static const double v[] = {0.1, -2.5e-7, 123456789.125, 1e308, -4.9406564584124654e-324,
                               0.0, 1e-5, 5.0, 0.3};
    read_ok("0.1 -2.5e-7 123456789.125\n1e308 -4.9406564584124654e-324 -0.0\n1E-5 5. .3\n",
            HD_FORMAT_XYZ, v, 3);
    /* Underflow keeps the correctly rounded result (here zero), it is not an error. */
    static const double tiny[] = {0.0, 1.0, 2.0};
    read_ok("1e-400 1 2\n", HD_FORMAT_XYZ, tiny, 1);
}

static void test_obj_happy(void **state)
{
    (void)state;
    read_ok("# obj\nmtllib x.mtl\no tri\nv 0 0 0\nv 1.5 0 0 1.0\nv 0 -2.25 1e-3 0.5 0.5 0.5\n"
            "vt 0 0\nvt 1 0\nvn 0 0 1\ns off\nusemtl red\ng g1\nf 1 2 3\nf 1/1 2/2 3/1\n"
            "f 1//1 2//1 3//1\nf 1/2/1 2/1/1 3/2/1\nf -3 -2 -1\nf -1/-1/-1 -2/-2/-1 -3/-1/-1\n"
            "l 1 2\np 3\n",
            HD_FORMAT_OBJ, k_tri, 3);
    /* A face may refer to vertices defined further down (checked at the end); CRLF. */
    read_ok("f 1 2 3\r\nv 0 0 0\r\nv 1.5 0 0\r\nv 0 -2.25 1e-3\r\n", HD_FORMAT_OBJ, k_tri, 3);
}

static void test_xyz_happy(void **state)
{
    (void)state;
    read_ok("0 0 0\n1.5 0 0\n0 -2.25 1e-3\n", HD_FORMAT_XYZ, k_tri, 3);
    read_ok("# x y z\n\n0,0,0\n 1.5 , 0 ,0 # comment\r\n\t0\t-2.25,\t1e-3\n\n", HD_FORMAT_XYZ,
            k_tri, 3);
}

typedef struct io_case {
    const char *label;
    hd_format format;
    const char *text;
    size_t len; /* 0: strlen(text); set for texts holding NUL bytes */
    hd_status status;
    int line;
    const char *keyword;
} io_case;

#define OFF3 "OFF\n3 0 0\n0 0 0\n"
#define OFF3F "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n"
#define OBJ3 "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
#define BIN(s) s, sizeof(s) - 1 /* a text holding NUL bytes, with its length */
#define OFFV(x) "OFF\n3 0 0\n0 0 0\n" x "\n0 1 0\n"

static const io_case k_cases[] = {
    /* OFF: empty input, header, counts */
    {"off empty", HD_FORMAT_OFF, "", 0, HD_ERR_EMPTY, 1, "empty"},
    {"off only comments", HD_FORMAT_OFF, "# nothing\n\n", 0, HD_ERR_EMPTY, 3, "empty"},
    {"off header only", HD_FORMAT_OFF, "OFF\n", 0, HD_ERR_PARSE, 2, "end of file"},
    {"off wrong header", HD_FORMAT_OFF, "OFX\n3 0 0\n", 0, HD_ERR_PARSE, 1, "header"},
    {"off garbage header", HD_FORMAT_OFF, "@@\n", 0, HD_ERR_PARSE, 1, "header"},
    {"off high bytes", HD_FORMAT_OFF, "\xff\xfe\xfd\n", 0, HD_ERR_PARSE, 1, "header"},
    {"off 4D variant", HD_FORMAT_OFF, "4OFF\n3 0 0\n", 0, HD_ERR_PARSE, 1, "unsupported"},
    {"off texture variant", HD_FORMAT_OFF, "STOFF\n3 0 0\n", 0, HD_ERR_PARSE, 1, "unsupported"},
    {"off binary", HD_FORMAT_OFF, "OFF BINARY\n", 0, HD_ERR_PARSE, 1, "ASCII"},
    {"off negative nv", HD_FORMAT_OFF, "OFF\n-1 0 0\n", 0, HD_ERR_PARSE, 2, "negative"},
    {"off negative nf", HD_FORMAT_OFF, "OFF\n3 -2 0\n", 0, HD_ERR_PARSE, 2, "negative"},
    {"off negative ne", HD_FORMAT_OFF, "OFF\n3 0 -7\n", 0, HD_ERR_PARSE, 2, "negative"},
    {"off 10^12 vertices", HD_FORMAT_OFF, "OFF\n1000000000000 0 0\n", 0, HD_ERR_TOO_LARGE, 2,
     "too large"},
    {"off max+1 vertices", HD_FORMAT_OFF, "OFF\n16777217 0 0\n", 0, HD_ERR_TOO_LARGE, 2,
     "limit"},
    {"off 26-digit count", HD_FORMAT_OFF, "OFF\n99999999999999999999999999 1 0\n", 0,
     HD_ERR_TOO_LARGE, 2, "too large"},
    {"off 10^12 faces", HD_FORMAT_OFF, "OFF\n3 1000000000000 0\n", 0, HD_ERR_TOO_LARGE, 2,
     "face count"},
    {"off zero vertices", HD_FORMAT_OFF, "OFF\n0 0 0\n", 0, HD_ERR_EMPTY, 2, "no vertices"},
    {"off one count", HD_FORMAT_OFF, "OFF\n3\n", 0, HD_ERR_PARSE, 2, "counts"},
    {"off four counts", HD_FORMAT_OFF, "OFF\n3 1 0 7\n", 0, HD_ERR_PARSE, 2, "unexpected"},
    {"off count word", HD_FORMAT_OFF, "OFF\n3 x 0\n", 0, HD_ERR_PARSE, 2, "integer"},
    {"off count decimal", HD_FORMAT_OFF, "OFF\n3.0 1 0\n", 0, HD_ERR_PARSE, 2, "integer"},
    /* OFF: vertex lines */
    {"off truncated vertices", HD_FORMAT_OFF, OFF3 "1 0 0\n", 0, HD_ERR_PARSE, 5, "end of file"},
    {"off missing coordinate", HD_FORMAT_OFF, OFFV("1 0"), 0, HD_ERR_PARSE, 4, "found 2 fields"},
    {"off extra coordinate", HD_FORMAT_OFF, OFFV("1 0 0 0"), 0, HD_ERR_PARSE, 4, "4 fields"},
    {"off trailing word", HD_FORMAT_OFF, OFFV("1 0 0 abc"), 0, HD_ERR_PARSE, 4, "'abc'"},
    {"off glued garbage", HD_FORMAT_OFF, OFFV("1 0 0abc"), 0, HD_ERR_PARSE, 4, "number"},
    {"off nan", HD_FORMAT_OFF, OFFV("nan 0 0"), 0, HD_ERR_NONFINITE, 4, "finite"},
    {"off NaN payload", HD_FORMAT_OFF, OFFV("1 NAN(0x1) 0"), 0, HD_ERR_NONFINITE, 4, "finite"},
    {"off -inf", HD_FORMAT_OFF, OFFV("1 0 -inf"), 0, HD_ERR_NONFINITE, 4, "finite"},
    {"off Infinity", HD_FORMAT_OFF, OFFV("Infinity 0 0"), 0, HD_ERR_NONFINITE, 4, "finite"},
    {"off 1e999", HD_FORMAT_OFF, OFFV("1e999 0 0"), 0, HD_ERR_NONFINITE, 4, "overflows"},
    {"off -1e309", HD_FORMAT_OFF, OFFV("0 -1e309 0"), 0, HD_ERR_NONFINITE, 4, "overflows"},
    {"off hex float", HD_FORMAT_OFF, OFFV("0x1p3 0 0"), 0, HD_ERR_PARSE, 4, "number"},
    {"off decimal comma", HD_FORMAT_OFF, OFFV("1,5 0 0"), 0, HD_ERR_PARSE, 4, "number"},
    {"off two points", HD_FORMAT_OFF, OFFV("1.2.3 0 0"), 0, HD_ERR_PARSE, 4, "number"},
    {"off bare exponent", HD_FORMAT_OFF, OFFV("1e 0 0"), 0, HD_ERR_PARSE, 4, "number"},
    {"off lone sign", HD_FORMAT_OFF, OFFV("+ 0 0"), 0, HD_ERR_PARSE, 4, "number"},
    {"off lone dot", HD_FORMAT_OFF, OFFV(". 0 0"), 0, HD_ERR_PARSE, 4, "number"},
    {"coff 5 values", HD_FORMAT_OFF, "COFF\n3 0 0\n0 0 0 1 1\n", 0, HD_ERR_PARSE, 3, "r g b"},
    {"noff no normal", HD_FORMAT_OFF, "NOFF\n3 0 0\n0 0 0\n", 0, HD_ERR_PARSE, 3, "nx ny nz"},
    /* OFF: faces */
    {"off truncated faces", HD_FORMAT_OFF, OFF3F, 0, HD_ERR_PARSE, 6, "end of file"},
    {"off face k=2", HD_FORMAT_OFF, OFF3F "2 0 1\n", 0, HD_ERR_PARSE, 6, "at least 3"},
    {"off face k=-3", HD_FORMAT_OFF, OFF3F "-3 0 1 2\n", 0, HD_ERR_PARSE, 6, "at least 3"},
    {"off face index high", HD_FORMAT_OFF, OFF3F "3 0 1 3\n", 0, HD_ERR_PARSE, 6, "out of range"},
    {"off face index negative", HD_FORMAT_OFF, OFF3F "3 0 1 -1\n", 0, HD_ERR_PARSE, 6,
     "out of range"},
    {"off face index huge", HD_FORMAT_OFF, OFF3F "3 0 1 99999999999999999999\n", 0, HD_ERR_PARSE,
     6, "out of range"},
    {"off face index word", HD_FORMAT_OFF, OFF3F "3 0 1 two\n", 0, HD_ERR_PARSE, 6, "integer"},
    {"off face missing index", HD_FORMAT_OFF, OFF3F "3 0 1\n", 0, HD_ERR_PARSE, 6, "indices"},
    {"off face k above nv", HD_FORMAT_OFF, OFF3F "4 0 1 2 0\n", 0, HD_ERR_PARSE, 6, "more than"},
    {"off face two colours", HD_FORMAT_OFF, OFF3F "3 0 1 2 1 1\n", 0, HD_ERR_PARSE, 6, "colour"},
    {"off face five colours", HD_FORMAT_OFF, OFF3F "3 0 1 2 1 1 1 1 1\n", 0, HD_ERR_PARSE, 6,
     "colour"},
    {"off face nan colour", HD_FORMAT_OFF, OFF3F "3 0 1 2 nan\n", 0, HD_ERR_NONFINITE, 6,
     "finite"},
    {"off more vertex lines", HD_FORMAT_OFF, OFF3F "1.5 1 0\n3 0 1 2\n", 0, HD_ERR_PARSE, 6,
     "more vertex lines"},
    {"off data after faces", HD_FORMAT_OFF, OFF3F "3 0 1 2\n3 0 1 2\n", 0, HD_ERR_PARSE, 7,
     "after the last face"},
    {"off extra vertex, no faces", HD_FORMAT_OFF, OFF3 "1 0 0\n0 1 0\n1 1 1\n", 0, HD_ERR_PARSE,
     6, "after the last face"},
    /* Binary data and line ends (any format) */
    {"off NUL byte", HD_FORMAT_OFF, BIN("OFF\n3 0 0\n0 0\0 0\n"), HD_ERR_PARSE, 3, "0x00"},
    {"off NUL in comment", HD_FORMAT_OFF, BIN("OFF # \0\n"), HD_ERR_PARSE, 1, "control byte"},
    {"off binary garbage", HD_FORMAT_OFF, "\x01\x02\x03\xff", 0, HD_ERR_PARSE, 1,
     "control byte"},
    {"off old mac line ends", HD_FORMAT_OFF, "OFF\r3 0 0\r0 0 0\r", 0, HD_ERR_PARSE, 1,
     "carriage return"},
    {"off DEL byte", HD_FORMAT_OFF, "OFF\n3 0 0\n0 0 \x7f\n", 0, HD_ERR_PARSE, 3, "0x7F"},
    {"xyz form feed", HD_FORMAT_XYZ, "1 2 3\n\f\n", 0, HD_ERR_PARSE, 2, "control byte"},
    /* OBJ */
    {"obj empty", HD_FORMAT_OBJ, "", 0, HD_ERR_EMPTY, 1, "no vertices"},
    {"obj no vertices", HD_FORMAT_OBJ, "# c\no thing\n", 0, HD_ERR_EMPTY, 3, "no vertices"},
    {"obj v two values", HD_FORMAT_OBJ, "v 1 2\n", 0, HD_ERR_PARSE, 1, "found 2 fields"},
    {"obj v five values", HD_FORMAT_OBJ, "v 1 2 3 4 5\n", 0, HD_ERR_PARSE, 1, "5 fields"},
    {"obj v seven values", HD_FORMAT_OBJ, "v 1 2 3 4 5 6 7\n", 0, HD_ERR_PARSE, 1, "7 fields"},
    {"obj v nan", HD_FORMAT_OBJ, OBJ3 "v 1 2 nan\n", 0, HD_ERR_NONFINITE, 4, "finite"},
    {"obj v inf weight", HD_FORMAT_OBJ, "v 1 2 3 inf\n", 0, HD_ERR_NONFINITE, 1, "finite"},
    {"obj v word", HD_FORMAT_OBJ, "v 1 two 3\n", 0, HD_ERR_PARSE, 1, "number"},
    {"obj face of two", HD_FORMAT_OBJ, OBJ3 "f 1 2\n", 0, HD_ERR_PARSE, 4, "at least 3"},
    {"obj index zero", HD_FORMAT_OBJ, OBJ3 "f 0 1 2\n", 0, HD_ERR_PARSE, 4, "start at 1"},
    {"obj relative too far", HD_FORMAT_OBJ, OBJ3 "f -1 -2 -4\n", 0, HD_ERR_PARSE, 4,
     "before the first"},
    {"obj index high", HD_FORMAT_OBJ, OBJ3 "f 1 2 3\nf 1 2 9\n# end\n", 0, HD_ERR_PARSE, 5,
     "out of range"},
    {"obj index huge", HD_FORMAT_OBJ, OBJ3 "f 1 2 99999999999999999999999\n", 0, HD_ERR_PARSE, 4,
     "out of range"},
    {"obj four slashes", HD_FORMAT_OBJ, OBJ3 "f 1/1/1/1 2 3\n", 0, HD_ERR_PARSE, 4, "corner"},
    {"obj trailing slash", HD_FORMAT_OBJ, OBJ3 "f 1/ 2 3\n", 0, HD_ERR_PARSE, 4, "corner"},
    {"obj leading slash", HD_FORMAT_OBJ, OBJ3 "f /1 2 3\n", 0, HD_ERR_PARSE, 4, "corner"},
    {"obj empty normal", HD_FORMAT_OBJ, OBJ3 "f 1// 2 3\n", 0, HD_ERR_PARSE, 4, "corner"},
    {"obj texture word", HD_FORMAT_OBJ, OBJ3 "f 1/x 2 3\n", 0, HD_ERR_PARSE, 4,
     "texture coordinate index: expected an integer"},
    {"obj vertex decimal", HD_FORMAT_OBJ, OBJ3 "f 1.0 2 3\n", 0, HD_ERR_PARSE, 4, "integer"},
    {"obj texture out of range", HD_FORMAT_OBJ, OBJ3 "vt 0 0\nvt 1 0\nf 1/1 2/2 3/5\n", 0,
     HD_ERR_PARSE, 6, "texture coordinate"},
    {"obj normal out of range", HD_FORMAT_OBJ, OBJ3 "vn 0 0 1\nf 1//1 2//1 3//2\n", 0,
     HD_ERR_PARSE, 5, "normal"},
    {"obj relative normal", HD_FORMAT_OBJ, OBJ3 "f 1//-1 2 3\n", 0, HD_ERR_PARSE, 4,
     "before the first"},
    {"obj OFF counts", HD_FORMAT_OBJ, "8 6 0\n", 0, HD_ERR_PARSE, 1, "statement"},
    {"obj NUL", HD_FORMAT_OBJ, BIN("v 0 0 0\0\n"), HD_ERR_PARSE, 1, "0x00"},
    /* XYZ */
    {"xyz empty", HD_FORMAT_XYZ, "", 0, HD_ERR_EMPTY, 1, "no points"},
    {"xyz comments only", HD_FORMAT_XYZ, "# a\n# b\n\n", 0, HD_ERR_EMPTY, 4, "no points"},
    {"xyz two values", HD_FORMAT_XYZ, "1 2\n", 0, HD_ERR_PARSE, 1, "found 2 fields"},
    {"xyz count line", HD_FORMAT_XYZ, "2\n1 2 3\n4 5 6\n", 0, HD_ERR_PARSE, 1, "found 1 field"},
    {"xyz four values", HD_FORMAT_XYZ, "1 2 3\n1 2 3 4\n", 0, HD_ERR_PARSE, 2, "4 fields"},
    {"xyz six values", HD_FORMAT_XYZ, "1 2 3 0 0 1\n", 0, HD_ERR_PARSE, 1, "6 fields"},
    {"xyz double comma", HD_FORMAT_XYZ, "1,,2,3\n", 0, HD_ERR_PARSE, 1, "empty field"},
    {"xyz leading comma", HD_FORMAT_XYZ, ",1,2,3\n", 0, HD_ERR_PARSE, 1, "empty field"},
    {"xyz trailing comma", HD_FORMAT_XYZ, "1,2,3,\n", 0, HD_ERR_PARSE, 1, "empty field"},
    {"xyz semicolons", HD_FORMAT_XYZ, "1;2;3\n", 0, HD_ERR_PARSE, 1, "number"},
    {"xyz nan", HD_FORMAT_XYZ, "1 2 3\n1 2 nan\n", 0, HD_ERR_NONFINITE, 2, "finite"},
    {"xyz overflow", HD_FORMAT_XYZ, "1 2 3\n1 2 -1e400\n", 0, HD_ERR_NONFINITE, 2, "overflows"},
    {"xyz line numbers with CRLF", HD_FORMAT_XYZ, "# h\r\n\r\n1 2 3\r\n#\r\n4 5 x\r\n", 0,
     HD_ERR_PARSE, 5, "number"},
};

static void test_error_table(void **state)
{
    (void)state;
    size_t n = sizeof k_cases / sizeof k_cases[0];
    print_message("%zu error cases\n", n);
    int failures = 0;
    for (size_t i = 0; i < n; ++i) {
        const io_case *c = &k_cases[i];
        hd_points pts = {0, NULL};
        hd_parse_error err;
        memset(&err, 0x55, sizeof err); /* must be overwritten with a NUL-terminated message */
        hd_status st = read_text(c->text, c->len, c->format, &pts, &err);
        char msg[600];
        hd_parse_error_format(&err, msg, (int)sizeof msg);
        int ok = st == c->status && err.line == c->line && strstr(err.message, c->keyword) &&
                 strcmp(err.file, "mem") == 0 && pts.count == 0 && pts.xyz == NULL;
        if (getenv("HEDRA_VERBOSE") != NULL) {
            print_message("%-28s %-16s %s\n", c->label, hd_status_str(st), msg);
        }
        if (!ok) {
            print_message("case '%s': status %s (expected %s), '%s' (expected line %d, '%s')\n",
                          c->label, hd_status_str(st), hd_status_str(c->status), msg, c->line,
                          c->keyword);
            ++failures;
        }
    }
    assert_int_equal(failures, 0);
}

static void test_overlong_line(void **state)
{
    (void)state;
    size_t n = 70000;
    char *text = malloc(n + 32);
    assert_non_null(text);
    strcpy(text, "1 2 3\n");
    memset(text + 6, ' ', n);
    strcpy(text + 6 + n, "4 5 6\n");
    hd_points pts = {0, NULL};
    hd_parse_error err;
    assert_int_equal(read_text(text, 0, HD_FORMAT_XYZ, &pts, &err), HD_ERR_PARSE);
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.message, "longer than"));
    /* One byte over the limit, without and with a CR. */
    memset(text, ' ', 65537);
    memcpy(text, "1 2 3", 5);
    strcpy(text + 65537, "\n");
    assert_int_equal(read_text(text, 0, HD_FORMAT_XYZ, &pts, &err), HD_ERR_PARSE);
    assert_int_equal(err.line, 1);
    strcpy(text + 65537, "\r\n");
    assert_int_equal(read_text(text, 0, HD_FORMAT_XYZ, &pts, &err), HD_ERR_PARSE);
    assert_non_null(strstr(err.message, "longer than 65536"));
    /* A line of exactly HD_IO_MAX_LINE (65536) bytes plus CRLF is accepted. */
    memset(text, ' ', 65536);
    memcpy(text, "1 2 3", 5);
    strcpy(text + 65536, "\r\n");
    static const double p[] = {1, 2, 3};
    read_ok(text, HD_FORMAT_XYZ, p, 1);
    free(text);
}

/* Many points: the array grows geometrically; the values are checked one by one. */
static void test_many_points(void **state)
{
    (void)state;
    int n = 100000;
    FILE *fp = tmpfile();
    assert_non_null(fp);
    for (int i = 0; i < n; ++i) {
        fprintf(fp, "%d %d.5 -%d\n", i, i, 2 * i);
    }
    rewind(fp);
    hd_points pts = {0, NULL};
    hd_parse_error err;
    assert_int_equal(hd_read_points_stream(fp, "big.xyz", HD_FORMAT_AUTO, &pts, &err), HD_OK);
    fclose(fp);
    assert_int_equal(pts.count, n);
    for (int i = 0; i < n; ++i) {
        assert_true(pts.xyz[3 * i] == i && pts.xyz[3 * i + 1] == i + 0.5 &&
                    pts.xyz[3 * i + 2] == -2.0 * i);
    }
    hd_points_free(&pts);
}

static void test_paths_and_formats(void **state)
{
    (void)state;
    hd_points pts = {0, NULL};
    hd_parse_error err;
    char msg[600];
    assert_int_equal(hd_read_points("/nonexistent/dir/x.off", HD_FORMAT_AUTO, &pts, &err),
                     HD_ERR_IO);
    assert_int_equal(err.line, 0);
    hd_parse_error_format(&err, msg, (int)sizeof msg);
    assert_non_null(strstr(msg, "/nonexistent/dir/x.off: cannot open"));
    assert_int_equal(hd_read_points("points.dat", HD_FORMAT_AUTO, &pts, &err),
                     HD_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "extension"));
    assert_int_equal(hd_read_points("-", HD_FORMAT_AUTO, &pts, &err), HD_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "standard input"));
    assert_int_equal(hd_read_points(NULL, HD_FORMAT_OFF, &pts, &err), HD_ERR_NULL);
    assert_int_equal(hd_read_points("x.off", HD_FORMAT_OFF, NULL, &err), HD_ERR_NULL);
    assert_int_equal(hd_read_points_stream(NULL, "x", HD_FORMAT_OFF, &pts, NULL), HD_ERR_NULL);
    assert_int_equal(hd_read_points_stream(stdin, "x.dat", HD_FORMAT_AUTO, &pts, &err),
                     HD_ERR_INVALID_ARG);
    assert_string_equal(err.file, "x.dat");
    assert_int_equal(hd_read_points_stream(stdin, "x.off", (hd_format)-1, &pts, &err),
                     HD_ERR_INVALID_ARG);
    assert_int_equal(hd_read_points("x.off", (hd_format)42, &pts, &err), HD_ERR_INVALID_ARG);
    /* A directory opens but cannot be read. */
    assert_int_equal(hd_read_points("/tmp/.", HD_FORMAT_XYZ, &pts, &err), HD_ERR_IO);

    /* Extensions, any case; the error names the file given. */
    const char *names[] = {"a.OFF", "b.Obj", "c.xyz", "d.TXT", "e.pts"};
    const char *texts[] = {"OFF\n1 0 0\n1 2 3\n", "v 1 2 3\n", "1 2 3\n", "1 2 3\n", "1 2 3\n"};
    for (int i = 0; i < 5; ++i) {
        FILE *fp = tmpfile();
        fputs(texts[i], fp);
        rewind(fp);
        assert_int_equal(hd_read_points_stream(fp, names[i], HD_FORMAT_AUTO, &pts, &err), HD_OK);
        assert_int_equal(pts.count, 1);
        assert_true(pts.xyz[0] == 1 && pts.xyz[1] == 2 && pts.xyz[2] == 3);
        hd_points_free(&pts);
        fclose(fp);
    }
    FILE *fp = tmpfile();
    fputs("1 2 3\n4 5\n", fp);
    rewind(fp);
    assert_int_equal(hd_read_points_stream(fp, "cloud.xyz", HD_FORMAT_AUTO, &pts, &err),
                     HD_ERR_PARSE);
    fclose(fp);
    hd_parse_error_format(&err, msg, (int)sizeof msg);
    assert_string_equal(msg, "cloud.xyz:2: point: expected 'x y z', found 2 fields");
    /* Formatting is bounded by the buffer. */
    char small[8];
    hd_parse_error_format(&err, small, (int)sizeof small);
    assert_string_equal(small, "cloud.x");
}

/* A file on disk, through hd_read_points and standard input ("-"). */
static void test_file_and_stdin(void **state)
{
    (void)state;
    char dir[] = "/tmp/hedra-io-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/tri.off", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("OFF\n3 1 0\n0 0 0\n1.5 0 0\n0 -2.25 1e-3\n3 0 1 2\n", fp);
    fclose(fp);
    hd_points pts = {0, NULL};
    hd_parse_error err;
    assert_int_equal(hd_read_points(path, HD_FORMAT_AUTO, &pts, &err), HD_OK);
    expect_points(&pts, k_tri, 3);
    hd_points_free(&pts);
    assert_non_null(freopen(path, "r", stdin));
    assert_int_equal(hd_read_points("-", HD_FORMAT_OFF, &pts, &err), HD_OK);
    expect_points(&pts, k_tri, 3);
    hd_points_free(&pts);
    remove(path);
    remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_off_happy),    cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_obj_happy),    cmocka_unit_test(test_xyz_happy),
        cmocka_unit_test(test_error_table),  cmocka_unit_test(test_overlong_line),
        cmocka_unit_test(test_many_points),  cmocka_unit_test(test_paths_and_formats),
        cmocka_unit_test(test_file_and_stdin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
