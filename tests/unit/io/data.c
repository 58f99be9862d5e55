/* Data files: every file of tests/data/io (valid and malformed samples, inputs found by fuzzing)
 * against the expectations listed in tests/data/io/EXPECTED, and the bundled examples against
 * the counts and values known from how they were made. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hedra/hedra.h"

static const char *data_dir(const char *var, const char *fallback)
{
    const char *d = getenv(var);
    return d != NULL ? d : fallback;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Reads a file of any supported kind: points (count = points) or pairs (count = pairs read
 * before the end or the error). */
static hd_status read_any(const char *path, int *count, hd_parse_error *err)
{
    *count = 0;
    if (!ends_with(path, ".pair")) {
        hd_points pts = {0, NULL};
        hd_status st = hd_read_points(path, HD_FORMAT_AUTO, &pts, err);
        *count = pts.count;
        hd_points_free(&pts);
        return st;
    }
    hd_pair_reader *r = NULL;
    hd_status st = hd_pair_reader_open(path, &r, err);
    while (st == HD_OK) {
        hd_pair_data pd;
        bool done = false;
        st = hd_pair_reader_next(r, &pd, &done, err);
        if (st != HD_OK || done) {
            break;
        }
        ++*count;
    }
    hd_pair_reader_close(r);
    return st;
}

static int status_named(const char *name, hd_status *out)
{
    static const struct {
        const char *name;
        hd_status status;
    } k_names[] = {{"OK", HD_OK},
                   {"PARSE", HD_ERR_PARSE},
                   {"NONFINITE", HD_ERR_NONFINITE},
                   {"TOO_LARGE", HD_ERR_TOO_LARGE},
                   {"EMPTY", HD_ERR_EMPTY},
                   {"IO", HD_ERR_IO}};
    for (size_t i = 0; i < sizeof k_names / sizeof k_names[0]; ++i) {
        if (strcmp(name, k_names[i].name) == 0) {
            *out = k_names[i].status;
            return 1;
        }
    }
    return 0;
}

/* Checks one manifest entry; returns 1 when the file behaves as listed. */
static int check_entry(const char *dir, const char *file, const char *status_name, int number,
                       char *keyword)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int count = 0;
    hd_parse_error err;
    memset(&err, 0, sizeof err);
    hd_status st = read_any(path, &count, &err);
    char msg[600];
    hd_parse_error_format(&err, msg, (int)sizeof msg);
    if (strcmp(status_name, "ANY") == 0) {
        int ok = st == HD_OK || (err.message[0] != '\0' && strcmp(err.file, path) == 0);
        if (!ok) {
            print_message("%s: %s without a message\n", file, hd_status_str(st));
        }
        return ok;
    }
    hd_status want = HD_OK;
    assert_true(status_named(status_name, &want));
    for (char *c = keyword; *c != '\0'; ++c) {
        *c = *c == '_' ? ' ' : *c;
    }
    int ok = st == want && (want == HD_OK ? count == number
                                          : err.line == number && strstr(msg, keyword) != NULL);
    if (!ok) {
        print_message("%s: got %s, %d, '%s'; expected %s %d '%s'\n", file, hd_status_str(st),
                      count, msg, status_name, number, keyword);
    }
    return ok;
}

static void test_manifest(void **state)
{
    (void)state;
    const char *base = data_dir("HEDRA_DATA", "tests/data");
    char dir[1024], manifest[1100];
    snprintf(dir, sizeof dir, "%s/io", base);
    snprintf(manifest, sizeof manifest, "%s/EXPECTED", dir);
    FILE *fp = fopen(manifest, "r");
    assert_non_null(fp);
    char line[512];
    char listed[256][128];
    int n = 0, failures = 0;
    while (fgets(line, sizeof line, fp) != NULL) {
        char file[128], status[32], keyword[128] = "";
        int number = 0;
        if (line[0] == '#' || sscanf(line, "%127s %31s", file, status) != 2) {
            continue;
        }
        if (strcmp(status, "ANY") != 0) {
            assert_true(sscanf(line, "%*s %*s %d %127s", &number, keyword) >= 1);
        }
        assert_true(n < 256);
        strcpy(listed[n++], file);
        failures += !check_entry(dir, file, status, number, keyword);
    }
    fclose(fp);
    print_message("%d data files checked\n", n);
    assert_int_equal(failures, 0);

    /* Every file of the directory is listed. */
    DIR *d = opendir(dir);
    assert_non_null(d);
    int unlisted = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "EXPECTED") == 0) {
            continue;
        }
        int found = 0;
        for (int i = 0; i < n && !found; ++i) {
            found = strcmp(listed[i], e->d_name) == 0;
        }
        if (!found) {
            print_message("%s/%s is not listed in EXPECTED\n", dir, e->d_name);
            ++unlisted;
        }
    }
    closedir(d);
    assert_int_equal(unlisted, 0);
}

static hd_points read_example(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", data_dir("HEDRA_EXAMPLES", "examples"), name);
    hd_points pts = {0, NULL};
    hd_parse_error err;
    hd_status st = hd_read_points(path, HD_FORMAT_AUTO, &pts, &err);
    if (st != HD_OK) {
        char msg[600];
        hd_parse_error_format(&err, msg, (int)sizeof msg);
        print_message("%s\n", msg);
    }
    assert_int_equal(st, HD_OK);
    return pts;
}

/* Every point has coordinates in {lo, hi} and all 2^3 corners occur. */
static void expect_box_corners(const double *xyz, int n, const double lo[3], const double hi[3])
{
    assert_int_equal(n, 8);
    int seen = 0;
    for (int i = 0; i < n; ++i) {
        int corner = 0;
        for (int k = 0; k < 3; ++k) {
            double v = xyz[3 * i + k];
            assert_true(v == lo[k] || v == hi[k]);
            corner |= (v == hi[k]) << k;
        }
        seen |= 1 << corner;
    }
    assert_int_equal(seen, 0xff);
}

static void test_examples(void **state)
{
    (void)state;
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    hd_points p = read_example("cube.off");
    expect_box_corners(p.xyz, p.count, lo, hi);
    hd_points_free(&p);

    p = read_example("tetrahedron.off");
    static const double tet[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    assert_int_equal(p.count, 4);
    assert_memory_equal(p.xyz, tet, sizeof tet);
    hd_points_free(&p);

    p = read_example("square.obj");
    assert_int_equal(p.count, 4);
    for (int i = 0; i < 4; ++i) {
        assert_true(p.xyz[3 * i + 2] == 0.5); /* coplanar */
    }
    hd_points_free(&p);

    /* 200 points on (x/2)^2 + y^2 + z^2 = 1, the z values of the Fibonacci lattice. */
    p = read_example("ellipsoid.xyz");
    assert_int_equal(p.count, 200);
    for (int i = 0; i < 200; ++i) {
        const double *q = p.xyz + 3 * i;
        double r = (q[0] / 2) * (q[0] / 2) + q[1] * q[1] + q[2] * q[2];
        assert_true(fabs(r - 1.0) < 1e-12);
        assert_true(fabs(q[2] - (1.0 - (2.0 * i + 1.0) / 200.0)) < 1e-15);
    }
    hd_points_free(&p);
}

static void test_example_pairs(void **state)
{
    (void)state;
    static const char *const names[] = {"separated",
                                        "touching_faces",
                                        "intersecting",
                                        "square_through_cube",
                                        "square_on_cube",
                                        "tetra_vs_cube_corner",
                                        "point_in_cube",
                                        "segment_touching_cube"};
    static const int sizes[][2] = {{8, 8}, {8, 8}, {8, 8}, {4, 8}, {4, 8}, {4, 8}, {1, 8}, {2, 8}};
    char path[1024];
    snprintf(path, sizeof path, "%s/pairs.pair", data_dir("HEDRA_EXAMPLES", "examples"));
    hd_pair_reader *r = NULL;
    hd_parse_error err;
    assert_int_equal(hd_pair_reader_open(path, &r, &err), HD_OK);
    int k = 0;
    for (;; ++k) {
        hd_pair_data pd;
        bool done = false;
        assert_int_equal(hd_pair_reader_next(r, &pd, &done, &err), HD_OK);
        if (done) {
            break;
        }
        assert_true(k < 8);
        assert_string_equal(pd.name, names[k]);
        assert_int_equal(pd.a.count, sizes[k][0]);
        assert_int_equal(pd.b.count, sizes[k][1]);
    }
    assert_int_equal(k, 8);
    hd_pair_reader_close(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_manifest),
        cmocka_unit_test(test_examples),
        cmocka_unit_test(test_example_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
