/* The vector support scans (support/kernels.h) against the plain scan of the vertices and against
 * this file's own argmax (the lowest index of the largest (x dx + y dy) + z dz, the plain scan's
 * definition): every available kernel, forced one by one, vertex for vertex, on the polytopes of
 * every test family and on random sets made for ties (repeated vertices, symmetric shapes, axis
 * and diagonal directions, huge and tiny coordinates, every padding count). A kernel this CPU
 * lacks is skipped with a message. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "families.h"
#include "polytope/internal.h"
#include "support/support.h"
#include "testutil.h"

static hd_rng rng;

static const char *const kernel_names[HDI_SCAN_KERNELS] = {"plain", "sse2", "avx2", "avx512"};

/* The lowest index of the largest value, the value computed as the plain scan rounds it; vertex
 * 0's NaN wins outright (nothing compares greater). */
static int expected_support(const double *xyz, int n, const double d[3])
{
    int best = 0;
    double best_value = xyz[0] * d[0] + xyz[1] * d[1] + xyz[2] * d[2];
    for (int i = 1; i < n; ++i) {
        const double *v = xyz + 3 * i;
        double x = v[0] * d[0] + v[1] * d[1] + v[2] * d[2];
        if (x > best_value) {
            best_value = x;
            best = i;
        }
    }
    return best;
}

static long checks[HDI_SCAN_KERNELS];

/* p's scan forced to kernel k (p itself keeps the one chosen at build). */
static int scan_by(const hd_polytope *p, const double d[3], int k)
{
    hd_polytope forced = *p;
    forced.scan_kernel = k;
    return hdi_support_scan_poly(&forced, d);
}

/* Every available kernel on p along d (p with blocks: at most HD_SCAN_BLOCKS_MAX vertices): the
 * oracle's index; the kernel the polytope was built with gives it through hdi_support_brute as
 * well. */
static void check_kernels(const hd_polytope *p, const double d[3])
{
    int want = expected_support(p->verts, p->vertex_count, d);
    assert_int_equal(hdi_support_brute(p, d), want);
    if (p->blocks == NULL) {
        assert_int_equal(p->scan_kernel, HDI_SCAN_PLAIN);
        return;
    }
    for (int k = 0; k < HDI_SCAN_KERNELS; ++k) {
        if (!hdi_scan_kernel_available(k)) {
            continue;
        }
        int got = scan_by(p, d, k);
        if (got != want) {
            printf("kernel %s: vertex %d, the plain scan's %d (n = %d, d = %.17g %.17g %.17g)\n",
                   kernel_names[k], got, want, p->vertex_count, d[0], d[1], d[2]);
        }
        assert_int_equal(got, want);
        checks[k]++;
    }
}

/* The pair scans of every available kernel (A along da, B along db in one call): each the
 * oracle's index of its own polytope. */
static void check_pair_kernels(const hd_polytope *a, const double da[3], const hd_polytope *b,
                               const double db[3])
{
    int want_a = expected_support(a->verts, a->vertex_count, da);
    int want_b = expected_support(b->verts, b->vertex_count, db);
    for (int k = 0; k < HDI_SCAN_KERNELS; ++k) {
        if (!hdi_scan_kernel_available(k)) {
            continue;
        }
        hd_polytope fa = *a, fb = *b;
        fa.scan_kernel = k;
        fb.scan_kernel = k;
        int ia = -1, ib = -1;
        hdi_support_scan_poly_pair(&fa, da, &fb, db, &ia, &ib);
        assert_int_equal(ia, want_a);
        assert_int_equal(ib, want_b);
    }
}

/* Directions that make ties: the axes, the face and space diagonals, and random ones. */
static void direction(int which, double d[3])
{
    static const double fixed[][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},   {0, -1, 0},  {0, 0, 1},
                                      {0, 0, -1}, {1, 1, 0},  {1, -1, 0},  {0, 1, 1},   {1, 0, -1},
                                      {1, 1, 1},  {-1, 1, 1}, {1, -1, -1}, {-1, -1, -1}};
    int count = (int)(sizeof fixed / sizeof fixed[0]);
    if (which < count) {
        d[0] = fixed[which][0];
        d[1] = fixed[which][1];
        d[2] = fixed[which][2];
    } else {
        hd_rng_unit_vector(&rng, d);
    }
}

enum { DIRECTIONS = 30 };

static void check_polytope(const hd_polytope *p)
{
    for (int j = 0; j < DIRECTIONS; ++j) {
        double d[3];
        direction(j, d);
        check_kernels(p, d);
    }
}

static void check_points(const double *xyz, int n)
{
    hd_polytope *p = NULL;
    if (hd_polytope_build(xyz, n, NULL, &p) == HD_OK) {
        check_polytope(p);
        hd_polytope_destroy(p);
    }
}

/* Both polytopes of every pair of every family (the first 40 pairs each: their sizes run from a
 * point to thousands of vertices). */
static void test_families(void **state)
{
    (void)state;
    hd_test_pair *tp = malloc(sizeof *tp);
    assert_non_null(tp);
    for (const hd_family *f = hd_families; f->name != NULL; ++f) {
        int pairs = f->count < 40 ? f->count : 40;
        for (int i = 0; i < pairs; ++i) {
            f->make(&rng, i, tp);
            check_points(tp->a, tp->na);
            check_points(tp->b, tp->nb);
        }
    }
    free(tp);
}

/* The blocks are the vertices, lane for lane, and the padding lanes repeat vertex 0; polytopes of
 * more than HD_SCAN_BLOCKS_MAX vertices have none. */
static void test_block_layout(void **state)
{
    (void)state;
    for (int n = 4; n <= HD_SCAN_BLOCKS_MAX + 8; ++n) {
        double xyz[3 * (HD_SCAN_BLOCKS_MAX + 8)];
        hd_points_ellipsoid(&rng, n, 1.0, 2.0, 3.0, xyz);
        hd_polytope *p = NULL;
        if (hd_polytope_build(xyz, n, NULL, &p) != HD_OK) {
            continue;
        }
        int m = p->vertex_count;
        if (m > HD_SCAN_BLOCKS_MAX) {
            assert_null(p->blocks);
            assert_int_equal(p->scan_kernel, HDI_SCAN_PLAIN);
            hd_polytope_destroy(p);
            continue;
        }
        int lanes = (m + HD_BLOCK_VERTS - 1) / HD_BLOCK_VERTS * HD_BLOCK_VERTS;
        assert_non_null(p->blocks);
        assert_int_equal((uintptr_t)p->blocks % 64, 0);
        for (int i = 0; i < lanes; ++i) {
            const double *v = p->verts + 3 * (i < m ? i : 0);
            const double *block = p->blocks + HD_BLOCK_DOUBLES * (i / HD_BLOCK_VERTS);
            for (int k = 0; k < 3; ++k) {
                assert_true(block[HD_BLOCK_VERTS * k + i % HD_BLOCK_VERTS] == v[k]);
            }
        }
        assert_true(hdi_scan_kernel_available(p->scan_kernel));
        assert_int_equal(p->scan_kernel, hdi_scan_kernel_default());
        hd_polytope_destroy(p);
    }
}

/* A vertex set of n points for tie hunting, of one of five kinds: integer grid points (many equal
 * values), a few points repeated, a centrally symmetric set, a cube's corners repeated, random
 * points times 1e-300 or 1e300. */
static void tie_set(int kind, int n, double *xyz)
{
    double scale = kind == 4 ? (hd_rng_int(&rng, 2) ? 1e300 : 1e-300) : 1.0;
    for (int i = 0; i < n; ++i) {
        double *v = xyz + 3 * i;
        for (int k = 0; k < 3; ++k) {
            switch (kind) {
                case 0:
                    v[k] = floor(hd_rng_uniform(&rng, -2, 3));
                    break;
                case 1:
                    v[k] = i >= 3 ? xyz[3 * hd_rng_int(&rng, 3) + k] : hd_rng_uniform(&rng, -1, 1);
                    break;
                case 2:
                    v[k] = i % 2 == 1 ? -xyz[3 * (i - 1) + k] : hd_rng_uniform(&rng, -1, 1);
                    break;
                case 3:
                    v[k] = ((i >> k) & 1) ? 1.0 : -1.0;
                    break;
                default:
                    v[k] = scale * hd_rng_uniform(&rng, -1, 1);
            }
        }
    }
}

/* A polytope of n raw points (no hull: repeated and interior points stay) for the scans alone:
 * its vertices xyz and their blocks, filled by hdi_poly_fill_blocks's rule, into blocks. */
static hd_polytope raw_polytope(double *xyz, int n, double *blocks)
{
    hd_polytope p = {0};
    p.vertex_count = n;
    p.verts = xyz;
    p.blocks = blocks;
    for (int i = 0; i < 4 * ((n + 3) / 4); ++i) {
        const double *v = xyz + 3 * (i < n ? i : 0);
        for (int k = 0; k < 3; ++k) {
            blocks[HD_BLOCK_DOUBLES * (i / 4) + 4 * k + i % 4] = v[k];
        }
    }
    return p;
}

/* Raw vertex sets (no hull: repeated and interior points stay) in a polytope whose blocks are
 * filled as at build, every n from 1 to HD_SCAN_BLOCKS_MAX (every padding count, odd and even
 * block counts), each also scanned as a pair with the set before it. */
static void test_random_ties(void **state)
{
    (void)state;
    enum { MAX_N = HD_SCAN_BLOCKS_MAX };
    double xyz[3 * MAX_N], prev_xyz[3 * MAX_N];
    _Alignas(64) double blocks[HD_BLOCK_DOUBLES * ((MAX_N + 3) / 4)];
    _Alignas(64) double prev_blocks[HD_BLOCK_DOUBLES * ((MAX_N + 3) / 4)];
    for (int rep = 0; rep < 200; ++rep) {
        tie_set(rep % 5, MAX_N, prev_xyz);
        for (int n = 1; n <= MAX_N; ++n) {
            tie_set(rep % 5, n, xyz);
            hd_polytope p = raw_polytope(xyz, n, blocks);
            int prev_n = n > 1 ? n - 1 : MAX_N;
            hd_polytope q = raw_polytope(prev_xyz, prev_n, prev_blocks);
            for (int j = 0; j < 16; ++j) {
                double d[3];
                direction(j < 14 ? j : 14, d);
                if (rep % 5 == 4 && j % 3 == 0) { /* huge and tiny directions too */
                    d[0] *= 1e-300;
                    d[1] *= 1e-300;
                    d[2] *= 1e-300;
                }
                check_kernels(&p, d);
                double e[3] = {-d[1], d[2], d[0]};
                check_pair_kernels(&p, d, &q, e);
                check_pair_kernels(&q, e, &p, d);
            }
            for (int i = 0; i < 3 * n; ++i) {
                prev_xyz[i] = xyz[i];
            }
        }
    }
}

/* Values that are not numbers or overflow: a NaN or infinite direction, vertex 0's value NaN
 * while others are finite, every value -inf. */
static void test_non_finite(void **state)
{
    (void)state;
    _Alignas(64) double blocks[HD_BLOCK_DOUBLES * 3];
    double xyz[3 * 9];
    for (int n = 1; n <= 9; ++n) {
        tie_set(0, n, xyz);
        xyz[0] = 0.0; /* 0 * inf = NaN at vertex 0 along an infinite x */
        hd_polytope p = raw_polytope(xyz, n, blocks);
        const double dirs[][3] = {{NAN, 0, 0},
                                  {INFINITY, 0, 0},
                                  {-INFINITY, 1, 0},
                                  {INFINITY, -INFINITY, 0},
                                  {1e308, 1e308, 1e308}};
        for (unsigned j = 0; j < sizeof dirs / sizeof dirs[0]; ++j) {
            check_kernels(&p, dirs[j]);
        }
    }
}

/* The kernels that ran, and the wide one skipped where the CPU lacks it. */
static void test_report(void **state)
{
    (void)state;
    for (int k = 0; k < HDI_SCAN_KERNELS; ++k) {
        if (hdi_scan_kernel_available(k)) {
            printf("kernel %s: %ld scans equal to the plain scan\n", kernel_names[k], checks[k]);
            assert_true(checks[k] > 0);
        } else {
            printf("kernel %s: skipped, this CPU does not have it\n", kernel_names[k]);
        }
    }
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("unit/support/kernels"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_layout), cmocka_unit_test(test_families),
        cmocka_unit_test(test_random_ties),  cmocka_unit_test(test_non_finite),
        cmocka_unit_test(test_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
