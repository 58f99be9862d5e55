/* hd_pair_reader_resume: after a pair's content fails, the reader skips to the next 'pair' line
 * and reads on, so that the pairs around a bad one are read exactly; the names and points read
 * back are the ones written, and each failure is reported at its own line. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hedra/hedra.h"

typedef struct outcome {
    const char *name; /* the pair read, or NULL for an error */
    double a0;        /* with a name: x of A's first point */
    int line;         /* the pair's header line, or the error's line */
} outcome;

/* Reads text to the end, resuming after each error; checks the sequence against want[n]. */
static void expect_sequence(const char *text, const outcome *want, int n)
{
    hd_pair_reader *r = NULL;
    hd_parse_error err;
    memset(&err, 0, sizeof err);
    char path[] = "/tmp/hedra-resume-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "wb");
    assert_non_null(out);
    fputs(text, out);
    fclose(out);
    assert_int_equal(hd_pair_reader_open(path, &r, &err), HD_OK);
    int k = 0;
    bool done = false;
    while (!done) {
        hd_pair_data pd;
        hd_status st = hd_pair_reader_next(r, &pd, &done, &err);
        if (done) {
            break;
        }
        assert_true(k < n);
        if (want[k].name != NULL) {
            assert_int_equal(st, HD_OK);
            assert_string_equal(pd.name, want[k].name);
            assert_true(pd.a.xyz[0] == want[k].a0);
            assert_int_equal(pd.line, want[k].line);
        } else {
            assert_int_not_equal(st, HD_OK);
            assert_int_equal(err.line, want[k].line);
            assert_int_equal(hd_pair_reader_resume(r, &err), HD_OK);
        }
        ++k;
    }
    assert_int_equal(k, n);
    hd_pair_reader_close(r);
    remove(path);
}

static void test_resume_after_short_and_bad_sets(void **state)
{
    (void)state;
    const char *text = "pair one\nA 1\n1 0 0\nB 1\n0 0 0\n"    /* lines 1-5 */
                       "pair short\nA 1\n0 0 0\nB 2\n0 0 0\n"  /* 6-10: B has 1 of 2 */
                       "pair two\nA 1\n2 0 0\nB 1\n0 0 0\n"    /* 11-15 */
                       "pair nan\nA 1\nnan 0 0\nB 1\n0 0 0\n"  /* 16-20 */
                       "pair three\nA 1\n3 0 0\nB 1\n0 0 0\n"; /* 21-25 */
    const outcome want[] = {
        {"one", 1, 1}, {NULL, 0, 11}, {"two", 2, 11}, {NULL, 0, 18}, {"three", 3, 21}};
    expect_sequence(text, want, 5);
}

static void test_resume_after_extra_lines_and_bad_header(void **state)
{
    (void)state;
    const char *text = "pair one\nA 1\n1 0 0\nB 1\n0 0 0\n9 9 9\n" /* 1-6: an extra point */
                       "pair two words\nA 1\n0 0 0\nB 1\n0 0 0\n"  /* 7-11: bad header */
                       "  pair last\nA 1\n4 0 0\nB 0\n";           /* 12-15 */
    const outcome want[] = {{"one", 1, 1}, {NULL, 0, 6}, {NULL, 0, 7}, {"last", 4, 12}};
    expect_sequence(text, want, 4);
}

static void test_resume_at_end_and_without_error(void **state)
{
    (void)state;
    /* a bad last pair: resuming finds no further pair and the next call ends cleanly */
    const outcome want[] = {{"one", 1, 1}, {NULL, 0, 7}};
    expect_sequence("pair one\nA 1\n1 0 0\nB 1\n0 0 0\npair bad\nA x\n", want, 2);
    assert_int_equal(hd_pair_reader_resume(NULL, NULL), HD_ERR_NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resume_after_short_and_bad_sets),
        cmocka_unit_test(test_resume_after_extra_lines_and_bad_header),
        cmocka_unit_test(test_resume_at_end_and_without_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
