/* The pair file: streaming reader (happy paths, a table of malformed inputs with status, line and
 * key word, sticky errors, standard input), the writer, and a 100k-pair file read in constant
 * memory. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "hedra/hedra.h"
#include "io/internal.h"
#include "testutil.h"

/* Writes text (len bytes, 0 = strlen) to a fresh, uniquely named file; its path in path[64]. */
static void write_file(char *path, const char *text, size_t len)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, 64, "%s/hedra-pair-XXXXXX", dir ? dir : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "wb");
    assert_non_null(fp);
    if (len == 0) {
        len = strlen(text);
    }
    assert_int_equal(fwrite(text, 1, len, fp), len);
    fclose(fp);
}

static hd_pair_reader *open_text(const char *text, size_t len, char *path)
{
    write_file(path, text, len);
    hd_pair_reader *r = NULL;
    hd_parse_error err;
    assert_int_equal(hd_pair_reader_open(path, &r, &err), HD_OK);
    assert_non_null(r);
    return r;
}

static void expect_set(const hd_points *p, const double *xyz, int n)
{
    assert_int_equal(p->count, n);
    for (int i = 0; i < 3 * n; ++i) {
        assert_true(p->xyz[i] == xyz[i]);
    }
}

static void test_happy(void **state)
{
    (void)state;
    char path[64];
    hd_pair_reader *r = open_text("\xEF\xBB\xBF# two pairs\r\n\r\npair first # comment\r\n"
                                  "A 2\r\n0 0 0\r\n  1.5\t-2 3e2\r\n# between\r\nB 1\r\n"
                                  "-0.25 0 1\r\n\r\npair empty-A.1\nA 0\nB 3\n1 0 0\n0 1 0\n"
                                  "0 0 1",
                                  0, path);
    hd_pair_data pd;
    hd_parse_error err;
    bool done = true;
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_int_equal(done, 0);
    assert_string_equal(pd.name, "first");
    assert_int_equal(pd.line, 3);
    static const double a1[] = {0, 0, 0, 1.5, -2, 300};
    static const double b1[] = {-0.25, 0, 1};
    expect_set(&pd.a, a1, 2);
    expect_set(&pd.b, b1, 1);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_int_equal(done, 0);
    assert_string_equal(pd.name, "empty-A.1");
    assert_int_equal(pd.line, 11);
    assert_int_equal(pd.a.count, 0);
    static const double b2[] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    expect_set(&pd.b, b2, 3);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_int_equal(done, 1);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_int_equal(done, 1);
    hd_pair_reader_close(r);
    remove(path);

    /* An empty file (or only comments) holds no pairs. */
    r = open_text("# nothing\n\n", 0, path);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_int_equal(done, 1);
    hd_pair_reader_close(r);
    remove(path);
    hd_pair_reader_close(NULL);
}

typedef struct pair_case {
    const char *label;
    const char *text;
    size_t len;
    int good_pairs; /* pairs read successfully before the error */
    hd_status status;
    int line;
    const char *keyword;
} pair_case;

#define BIN(s) s, sizeof(s) - 1
#define A16 "aaaaaaaaaaaaaaaa"
#define A256 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 A16 /* 256 bytes */
#define P1 "pair a\nA 1\n0 0 0\nB 1\n1 1 1\n"

static const pair_case k_cases[] = {
    {"no name", "pair\n", 0, 0, HD_ERR_PARSE, 1, "name"},
    {"motion short", "pair a\nA 0\nB 0\nmotion 1 2 3\n", 0, 0, HD_ERR_PARSE, 4,
     "motion vx vy vz wx wy wz cx cy cz"},
    {"motion long", "pair a\nA 0\nB 0\nmotion 1 2 3 4 5 6 7 8 9 10\n", 0, 0, HD_ERR_PARSE, 4,
     "unexpected '10'"},
    {"motion nan", "pair a\nA 0\nB 0\nmotion 1 2 3 nan 5 6 7 8 9\n", 0, 0, HD_ERR_NONFINITE, 4, ""},
    {"motion twice", "pair a\nA 0\nB 0\nmotion 1 2 3 4 5 6 7 8 9\nmotion 1 2 3 4 5 6 7 8 9\n", 0, 1,
     HD_ERR_PARSE, 5, "expected 'pair <name>'"},
    {"wrong keyword", "pairs x\n", 0, 0, HD_ERR_PARSE, 1, "expected 'pair <name>'"},
    {"set before pair", "A 1\n0 0 0\n", 0, 0, HD_ERR_PARSE, 1, "expected 'pair <name>'"},
    {"name with space", "pair a b\nA 0\nB 0\n", 0, 0, HD_ERR_PARSE, 1, "unexpected 'b'"},
    {"name too long", "pair " A256 "\nA 0\nB 0\n", 0, 0, HD_ERR_PARSE, 1, "longer than 255"},
    {"eof after header", "pair a\n", 0, 0, HD_ERR_PARSE, 2, "end of file"},
    {"B before A", "pair a\nB 1\n0 0 0\n", 0, 0, HD_ERR_PARSE, 2, "expected 'A <count>'"},
    {"A without count", "pair a\nA\n", 0, 0, HD_ERR_PARSE, 2, "expected 'A <count>'"},
    {"A two counts", "pair a\nA 1 2\n", 0, 0, HD_ERR_PARSE, 2, "expected 'A <count>'"},
    {"A negative", "pair a\nA -1\n", 0, 0, HD_ERR_PARSE, 2, "negative"},
    {"A radius negative", "pair a\nA 1 radius -1\n0 0 0\n", 0, 0, HD_ERR_PARSE, 2,
     "radius of A: -1 is negative"},
    {"A radius missing", "pair a\nA 1 radius\n0 0 0\n", 0, 0, HD_ERR_PARSE, 2,
     "radius of A: expected a value"},
    {"A radius word", "pair a\nA 1 radius big\n0 0 0\n", 0, 0, HD_ERR_PARSE, 2, "radius of A"},
    {"A radius nan", "pair a\nA 1 radius nan\n0 0 0\n", 0, 0, HD_ERR_NONFINITE, 2, "radius of A"},
    {"A radius twice", "pair a\nA 1 radius 1 radius 2\n", 0, 0, HD_ERR_PARSE, 2,
     "found 'radius' after the count"},
    {"B radius overflow", "pair a\nA 0\nB 1 radius 1e999\n", 0, 0, HD_ERR_NONFINITE, 3,
     "radius of B"},
    {"B other keyword", "pair a\nA 0\nB 1 margin 1\n", 0, 0, HD_ERR_PARSE, 3,
     "found 'margin' after the count"},
    {"A 10^12", "pair a\nA 1000000000000\n0 0 0\n", 0, 0, HD_ERR_TOO_LARGE, 2, "too large"},
    {"A max+1", "pair a\nA 16777217\n", 0, 0, HD_ERR_TOO_LARGE, 2, "16777216"},
    {"A word", "pair a\nA three\n", 0, 0, HD_ERR_PARSE, 2, "integer"},
    {"A truncated", "pair a\nA 2\n0 0 0\n", 0, 0, HD_ERR_PARSE, 4, "point 2 of 2 of A"},
    {"A short point", "pair a\nA 1\n0 0\n", 0, 0, HD_ERR_PARSE, 3, "found 2 fields"},
    {"A long point", "pair a\nA 1\n0 0 0 0\n", 0, 0, HD_ERR_PARSE, 3, "4 fields"},
    {"A nan", "pair a\nA 1\n0 nan 0\n", 0, 0, HD_ERR_NONFINITE, 3, "finite"},
    {"A overflow", "pair a\nA 1\n0 0 1e999\n", 0, 0, HD_ERR_NONFINITE, 3, "overflows"},
    {"A word", "pair a\nA 1\n0 zero 0\n", 0, 0, HD_ERR_PARSE, 3, "number"},
    {"eof before B", "pair a\nA 1\n0 0 0\n", 0, 0, HD_ERR_PARSE, 4, "expected 'B <count>'"},
    {"A twice", "pair a\nA 1\n0 0 0\nA 1\n", 0, 0, HD_ERR_PARSE, 4, "expected 'B <count>'"},
    {"B fewer lines than count", "pair a\nA 1\n0 0 0\nB 2\n0 0 0\npair b\n", 0, 0, HD_ERR_PARSE, 6,
     "point 2 of 2 of B"},
    {"B more lines than count", "pair a\nA 0\nB 0\n1 2 3\n", 0, 1, HD_ERR_PARSE, 4,
     "more point lines"},
    {"error in second pair", P1 "\npair b\nA 1\n0 0 x\n", 0, 1, HD_ERR_PARSE, 9, "pair 'b'"},
    {"NUL byte", BIN(P1 "pair b\nA 1\n0 0\0 0\n"), 1, HD_ERR_PARSE, 8, "0x00"},
    {"binary garbage",
     "\x7f"
     "ELF\x02\x01\x01",
     0, 0, HD_ERR_PARSE, 1, "control byte"},
    {"lone CR", "pair a\rA 0\rB 0\r", 0, 0, HD_ERR_PARSE, 1, "carriage return"},
    {"compound of no piece", "pair a\nA pieces 0\nB 0\n", 0, 0, HD_ERR_EMPTY, 2,
     "piece count of A must be at least 1"},
    {"compound count missing", "pair a\nA pieces\n", 0, 0, HD_ERR_PARSE, 2, "'A <count>'"},
    {"compound count word", "pair a\nA pieces two\n", 0, 0, HD_ERR_PARSE, 2, "integer"},
    {"compound huge", "pair a\nA pieces 65537\n", 0, 0, HD_ERR_TOO_LARGE, 2, "piece count"},
    {"compound 10^12", "pair a\nA pieces 1000000000000\n", 0, 0, HD_ERR_TOO_LARGE, 2, "A"},
    {"compound extra", "pair a\nA pieces 1 2\n", 0, 0, HD_ERR_PARSE, 2, "'A <count>'"},
    {"piece without P", "pair a\nA pieces 1\n0 0 0\n", 0, 0, HD_ERR_PARSE, 3,
     "expected 'P <count>'"},
    {"piece empty", "pair a\nA pieces 1\nP 0\nB 0\n", 0, 0, HD_ERR_EMPTY, 3,
     "point count of piece 1 of A must be at least 1"},
    {"piece truncated", "pair a\nA pieces 2\nP 1\n0 0 0\nP 2\n1 1 1\n", 0, 0, HD_ERR_PARSE, 7,
     "point 2 of 2 of piece 2 of A"},
    {"pieces fewer than said", "pair a\nA pieces 2\nP 1\n0 0 0\nB 1\n1 1 1\n", 0, 0, HD_ERR_PARSE,
     5, "expected 'P <count>'"},
    {"piece nan", "pair a\nA 0\nB pieces 1\nP 1\n0 inf 0\n", 0, 0, HD_ERR_NONFINITE, 5, "finite"},
};

/* "A <n> radius <r>": the radius read into the pair, 0 where a set gives none */
static void test_radius(void **state)
{
    (void)state;
    char path[64];
    hd_pair_reader *r = open_text(BIN("pair s\nA 1 radius 0.25\n0 0 0\nB 2\n1 0 0\n2 0 0\n"
                                      "pair t\nA 0\nB 1   radius\t1e-3 # tiny\n3 3 3\n"),
                                  path);
    hd_pair_data pd;
    hd_parse_error err;
    bool done = false;
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_true(pd.radius_a == 0.25 && pd.radius_b == 0.0 && pd.a.count == 1 && pd.b.count == 2);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_true(pd.radius_a == 0.0 && pd.radius_b == 1e-3 && pd.b.count == 1);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_true(done);
    hd_pair_reader_close(r);
    remove(path);
}

/* Compound sets: the pieces' sizes and their points in order; a plain set beside says 0. */
static void test_compound_sets(void **state)
{
    (void)state;
    char path[64];
    hd_pair_reader *r = open_text("pair c\nA pieces 2\nP 1\n1 2 3\nP 2\n4 5 6\n7 8 9\n"
                                  "B 1\n0 0 0\n"
                                  "pair d\nA 1\n0 0 0\nB pieces 1\nP 3\n1 0 0\n0 1 0\n0 0 1\n",
                                  0, path);
    hd_pair_data pd;
    bool done = false;
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, NULL), HD_OK);
    double a[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, b[3] = {0, 0, 0};
    expect_set(&pd.a, a, 3);
    expect_set(&pd.b, b, 1);
    assert_int_equal(pd.pieces_a, 2);
    assert_int_equal(pd.piece_sizes_a[0], 1);
    assert_int_equal(pd.piece_sizes_a[1], 2);
    assert_int_equal(pd.pieces_b, 0);
    assert_null(pd.piece_sizes_b);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, NULL), HD_OK);
    assert_string_equal(pd.name, "d");
    assert_int_equal(pd.pieces_a, 0);
    assert_int_equal(pd.pieces_b, 1);
    assert_int_equal(pd.piece_sizes_b[0], 3);
    assert_int_equal(pd.b.count, 3);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, NULL), HD_OK);
    assert_true(done);
    hd_pair_reader_close(r);
    remove(path);
}

static void test_error_table(void **state)
{
    (void)state;
    size_t n = sizeof k_cases / sizeof k_cases[0];
    print_message("%zu error cases\n", n);
    int failures = 0;
    for (size_t i = 0; i < n; ++i) {
        const pair_case *c = &k_cases[i];
        char path[64];
        hd_pair_reader *r = open_text(c->text, c->len, path);
        hd_pair_data pd;
        hd_parse_error err;
        bool done = false;
        int good = 0;
        hd_status st = HD_OK;
        for (int k = 0; k < 10; ++k) {
            st = hd_pair_reader_next(r, &pd, &done, &err);
            if (st != HD_OK || done) {
                break;
            }
            ++good;
        }
        char msg[600];
        hd_parse_error_format(&err, msg, (int)sizeof msg);
        int ok = st == c->status && good == c->good_pairs && err.line == c->line &&
                 strstr(err.message, c->keyword) != NULL && strcmp(err.file, path) == 0 &&
                 done == 0 && pd.name == NULL;
        /* The error is sticky. */
        hd_parse_error again;
        ok = ok && hd_pair_reader_next(r, &pd, &done, &again) == st && again.line == err.line &&
             strcmp(again.message, err.message) == 0;
        if (getenv("HEDRA_VERBOSE") != NULL) {
            print_message("%-26s %-16s %s\n", c->label, hd_status_str(st), msg);
        }
        if (!ok) {
            print_message("case '%s': status %s (expected %s), %d good pairs, '%s' (expected line "
                          "%d, '%s')\n",
                          c->label, hd_status_str(st), hd_status_str(c->status), good, msg, c->line,
                          c->keyword);
            ++failures;
        }
        hd_pair_reader_close(r);
        remove(path);
    }
    assert_int_equal(failures, 0);
}

/* The optional motion line after B: read into the pair, absent from the next one, at the end of
 * the file too. */
static void test_motion_line(void **state)
{
    (void)state;
    char path[64];
    hd_pair_reader *r = open_text("pair m\nA 1\n0 0 0\nB 1\n1 0 0\n# twist\n"
                                  "motion 1 -2 3.5 0 0 6.25 0.5 0 0\npair still\nA 0\nB 0\n"
                                  "pair last\nA 0\nB 0\n  motion 0 0 0 1e-3 0 0 0 0 -1e6\n",
                                  0, path);
    hd_pair_data pd;
    hd_parse_error err;
    bool done = false;
    const double m1[9] = {1, -2, 3.5, 0, 0, 6.25, 0.5, 0, 0},
                 m3[9] = {0, 0, 0, 1e-3, 0, 0, 0, 0, -1e6};
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_true(pd.has_motion && memcmp(pd.motion, m1, sizeof m1) == 0);
    assert_int_equal(pd.b.count, 1);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_string_equal(pd.name, "still");
    assert_int_equal(pd.line, 8);
    assert_false(pd.has_motion);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_true(pd.has_motion && memcmp(pd.motion, m3, sizeof m3) == 0);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_true(done);
    hd_pair_reader_close(r);
    remove(path);
}

static void test_open_errors(void **state)
{
    (void)state;
    hd_pair_reader *r = (hd_pair_reader *)&r;
    hd_parse_error err;
    assert_int_equal(hd_pair_reader_open("/nonexistent/x.pair", &r, &err), HD_ERR_IO);
    assert_null(r);
    assert_int_equal(err.line, 0);
    assert_non_null(strstr(err.message, "cannot open"));
    assert_int_equal(hd_pair_reader_open(NULL, &r, &err), HD_ERR_NULL);
    assert_int_equal(hd_pair_reader_open("x", NULL, &err), HD_ERR_NULL);
    bool done = false;
    hd_pair_data pd;
    assert_int_equal(hd_pair_reader_next(NULL, &pd, &done, &err), HD_ERR_NULL);
    /* A directory opens but cannot be read. */
    assert_int_equal(hd_pair_reader_open("/tmp", &r, &err), HD_OK);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_ERR_IO);
    hd_pair_reader_close(r);
}

static void test_stdin(void **state)
{
    (void)state;
    char path[64];
    write_file(path, "pair s\nA 1\n1 2 3\nB 0\n", 0);
    assert_non_null(freopen(path, "r", stdin));
    hd_pair_reader *r = NULL;
    hd_parse_error err;
    assert_int_equal(hd_pair_reader_open("-", &r, &err), HD_OK);
    hd_pair_data pd;
    bool done = false;
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_string_equal(pd.name, "s");
    static const double a[] = {1, 2, 3};
    expect_set(&pd.a, a, 1);
    assert_int_equal(pd.b.count, 0);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_int_equal(done, 1);
    hd_pair_reader_close(r); /* does not close stdin */
    remove(path);
}

static void test_write_pair(void **state)
{
    (void)state;
    FILE *fp = tmpfile();
    assert_non_null(fp);
    const double a[] = {0.1, -1e-300, 3, 1.0 / 3.0, 2e300, -0.0};
    const double b[] = {5, 6, 7};
    const double bad[] = {1, NAN, 2};
    assert_int_equal(hd_write_pair(fp, "one", a, 2, b, 1), HD_OK);
    assert_int_equal(hd_write_pair(fp, "empty", NULL, 0, b, 1), HD_OK);
    /* Invalid arguments write nothing. */
    assert_int_equal(hd_write_pair(fp, "two words", a, 2, b, 1), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_write_pair(fp, "", a, 2, b, 1), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_write_pair(fp, "x#y", a, 2, b, 1), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_write_pair(fp, "x", a, -1, b, 1), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_write_pair(fp, "x", bad, 1, b, 1), HD_ERR_NONFINITE);
    assert_int_equal(hd_write_pair(fp, "x", NULL, 1, b, 1), HD_ERR_NULL);
    assert_int_equal(hd_write_pair(NULL, "x", a, 1, b, 1), HD_ERR_NULL);
    char name[HD_PAIR_NAME_MAX + 2];
    memset(name, 'n', sizeof name);
    name[HD_PAIR_NAME_MAX + 1] = '\0';
    assert_int_equal(hd_write_pair(fp, name, a, 1, b, 1), HD_ERR_INVALID_ARG);
    name[HD_PAIR_NAME_MAX] = '\0';
    assert_int_equal(hd_write_pair(fp, name, a, 1, b, 1), HD_OK);
    rewind(fp);
    hd_pair_reader *r = NULL;
    hd_parse_error err;
    assert_int_equal(hdi_pair_reader_open_stream(fp, "mem", 0, &r, &err), HD_OK);
    hd_pair_data pd;
    bool done = false;
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_string_equal(pd.name, "one");
    expect_set(&pd.a, a, 2); /* %.17g reads back to the identical doubles */
    expect_set(&pd.b, b, 1);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_string_equal(pd.name, "empty");
    assert_int_equal(pd.a.count, 0);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_string_equal(pd.name, name);
    assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
    assert_int_equal(done, 1);
    hd_pair_reader_close(r);
    fclose(fp);
}

/* 100k pairs of random sizes (1..12 points a side), written by hd_write_pair and read back:
 * every coordinate must come back identical, the reader's buffers must stop moving once the
 * largest pair has been seen, and the time is printed (not asserted). */
static void test_many_pairs(void **state)
{
    (void)state;
    const int pairs = 100000, max_n = 12;
    hd_rng rng;
    uint64_t seed = hd_test_seed("unit/io/pair");
    hd_rng_init(&rng, seed);
    char path[64];
    write_file(path, "", 0);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    double a[3 * 12], b[3 * 12];
    for (int k = 0; k < pairs; ++k) {
        int na = 1 + hd_rng_int(&rng, max_n), nb = 1 + hd_rng_int(&rng, max_n);
        if (k == 0) {
            na = nb = max_n; /* the largest first: buffers settle at once */
        }
        hd_points_cloud(&rng, na, 1, 2, 3, a);
        hd_points_cloud(&rng, nb, 1e-3, 1e3, 1, b);
        char name[32];
        snprintf(name, sizeof name, "p%d", k);
        assert_int_equal(hd_write_pair(fp, name, a, na, b, nb), HD_OK);
    }
    fclose(fp);

    hd_rng_init(&rng, seed);
    hd_pair_reader *r = NULL;
    hd_parse_error err;
    assert_int_equal(hd_pair_reader_open(path, &r, &err), HD_OK);
    clock_t t0 = clock();
    const double *a_buf = NULL, *b_buf = NULL;
    int count = 0, moved = 0, mismatches = 0;
    for (;;) {
        hd_pair_data pd;
        bool done = false;
        assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
        if (done) {
            break;
        }
        int na = 1 + hd_rng_int(&rng, max_n), nb = 1 + hd_rng_int(&rng, max_n);
        if (count == 0) {
            na = nb = max_n;
            a_buf = pd.a.xyz;
            b_buf = pd.b.xyz;
        }
        hd_points_cloud(&rng, na, 1, 2, 3, a);
        hd_points_cloud(&rng, nb, 1e-3, 1e3, 1, b);
        moved += pd.a.xyz != a_buf || pd.b.xyz != b_buf;
        mismatches += pd.a.count != na || pd.b.count != nb ||
                      memcmp(pd.a.xyz, a, sizeof(double) * 3 * (size_t)na) != 0 ||
                      memcmp(pd.b.xyz, b, sizeof(double) * 3 * (size_t)nb) != 0;
        ++count;
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    hd_pair_reader_close(r);
    remove(path);
    print_message("read %d pairs in %.3f s (%.0f pairs/s)\n", count, secs,
                  secs > 0 ? count / secs : 0.0);
    assert_int_equal(count, pairs);
    assert_int_equal(mismatches, 0);
    assert_int_equal(moved, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_happy),         cmocka_unit_test(test_radius),
        cmocka_unit_test(test_error_table),   cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_stdin),         cmocka_unit_test(test_write_pair),
        cmocka_unit_test(test_many_pairs),    cmocka_unit_test(test_motion_line),
        cmocka_unit_test(test_compound_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
