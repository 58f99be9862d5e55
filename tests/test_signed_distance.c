/* hd_signed_distance against independent answers: the brute-force separating-axis depth in long
 * double (tests/support/depth_oracle.c) on random overlapping pairs of every size from 1e-6 to 1e6,
 * the brute-force distance on separated pairs, the library's two depth methods (expanding
 * polytope and separating axes) against each other, flat and degenerate pairs, and the known
 * failures of other libraries' EPA with answers derived by hand. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "brute.h"
#include "families.h"
#include "depth_oracle.h"
#include "testutil.h"

static hd_rng rng;

/* The contract's tolerance: 1e-9 of the pair's size. */
#define ACCURACY 1e-9

typedef struct case_stats {
    int count;
    double worst_depth;  /* largest |depth - oracle| / size */
    double worst_normal; /* largest (h_M(n) - depth) / size */
    int epa, sat;
} case_stats;

/* Checks one answer against the oracle: depth, bounds, normal gap, witnesses. Returns the
 * normalised depth error. */
static double check_overlap(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                            const hd_pose *pb, const hd_signed_distance_result *c, case_stats *cs)
{
    long double oracle = hd_oracle_depth(a, pa, b, pb, NULL);
    long double slack = hd_oracle_error(a, pa, b, pb);
    double depth = -c->signed_distance;
    double err = fabs((double)((long double)depth - oracle)) / c->size;
    long double h = hd_oracle_support(a, pa, b, pb, c->normal);
    double gap = (double)(h - (long double)depth) / c->size;
    int ok = err <= ACCURACY && gap <= ACCURACY && gap >= -ACCURACY &&
             (long double)(-c->upper) <= oracle + slack &&
             oracle - slack <= (long double)(-c->lower);
    double d[3];
    for (int k = 0; k < 3; ++k) {
        d[k] = c->witness_b[k] - c->witness_a[k] - c->signed_distance * c->normal[k];
    }
    double werr = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / c->size;
    double out_a = (double)hd_oracle_outside(a, pa, c->witness_a) / c->size;
    double out_b = (double)hd_oracle_outside(b, pb, c->witness_b) / c->size;
    ok = ok && werr <= ACCURACY && out_a <= ACCURACY && out_b <= ACCURACY;
    if (!ok) {
        printf("depth %.17g oracle %.17Lg (err %.3g size) bounds [%.17g, %.17g] normal gap %.3g "
               "witness err %.3g outside %.3g %.3g method %d size %.3g\n",
               depth, oracle, err, (-c->upper), (-c->lower), gap, werr, out_a, out_b,
               (int)c->method, c->size);
        hd_test_dump_pair("signed_distance", hd_polytope_vertices(a), hd_polytope_vertex_count(a),
                          pa, hd_polytope_vertices(b), hd_polytope_vertex_count(b), pb);
    }
    assert_true(ok);
    if (cs != NULL) {
        cs->count++;
        cs->worst_depth = fmax(cs->worst_depth, err);
        cs->worst_normal = fmax(cs->worst_normal, gap);
        cs->epa += c->method == HD_DEPTH_EPA;
        cs->sat += c->method == HD_DEPTH_SAT;
    }
    return err;
}

static hd_signed_distance_result query(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                        const hd_pose *pb, unsigned flags)
{
    hd_options opt = hd_options_default();
    opt.flags = flags;
    hd_signed_distance_result c;
    hd_status st = hd_signed_distance(a, pa, b, pb, &opt, &c);
    if (st != HD_OK) {
        printf("hd_signed_distance: %s\n", hd_status_str(st));
    }
    assert_int_equal(st, HD_OK);
    return c;
}

/* A random hull of k points in a box of half-size s, with a random pose near centre c. */
static hd_polytope *random_hull(int k, double s, double *xyz)
{
    hd_points_cloud(&rng, k, s, s * hd_rng_uniform(&rng, 0.2, 1.0),
                    s * hd_rng_uniform(&rng, 0.2, 1.0), xyz);
    return hd_test_build(xyz, k);
}

/* Thousands of random overlapping pairs: sizes 1e-6 to 1e6, any orientation, overlaps from
 * shallow to deep; the depth, bounds, normal and witnesses against the oracle, and the two
 * methods against each other. */
static void test_random_overlaps(void **state)
{
    (void)state;
    case_stats epa = {0}, sat = {0};
    double xyz[3 * 40];
    for (int i = 0; i < 2000; ++i) {
        double s = pow(10.0, hd_rng_uniform(&rng, -6.0, 6.0));
        hd_polytope *a = random_hull(4 + hd_rng_int(&rng, 20), s, xyz);
        hd_polytope *b =
            random_hull(4 + hd_rng_int(&rng, 20), s * hd_rng_uniform(&rng, 0.3, 2), xyz);
        double t[3], off = s * pow(10.0, hd_rng_uniform(&rng, -3.0, 0.0));
        hd_rng_unit_vector(&rng, t);
        for (int k = 0; k < 3; ++k) {
            t[k] = t[k] * off + s * pow(10.0, hd_rng_uniform(&rng, -1, 6)) * (i % 3 == 0);
        }
        hd_pose pa = hd_rng_pose(&rng, t), pb = hd_rng_pose(&rng, t);
        pb.t[0] += off * hd_rng_uniform(&rng, -1, 1);
        long double oracle = hd_oracle_depth(a, &pa, b, &pb, NULL);
        if (oracle > 0) {
            hd_signed_distance_result c1 = query(a, &pa, b, &pb, 0);
            hd_signed_distance_result c2 = query(a, &pa, b, &pb, HD_QUERY_DEPTH_SAT);
            check_overlap(a, &pa, b, &pb, &c1, &epa);
            check_overlap(a, &pa, b, &pb, &c2, &sat);
            assert_true(fabs(c1.signed_distance - c2.signed_distance) <= ACCURACY * c1.size);
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    printf("random overlaps: %d pairs; worst |depth - oracle| / size: default %.3g (%d by the "
           "expanding polytope, %d by separating axes), separating axes %.3g; worst normal gap / "
           "size %.3g and %.3g\n",
           epa.count, epa.worst_depth, epa.epa, epa.sat, sat.worst_depth, epa.worst_normal,
           sat.worst_normal);
    assert_true(epa.count > 500);
}

static hd_polytope *box(double x0, double y0, double z0, double x1, double y1, double z1)
{
    double lo[3] = {x0, y0, z0}, hi[3] = {x1, y1, z1}, xyz[24];
    hd_points_box(lo, hi, xyz);
    hd_polytope *p = hd_test_build(xyz, 8);
    assert_non_null(p);
    return p;
}

/* Expected depth (derived by hand), normal (NULL: not checked) and the answer's agreement with
 * it to tol; the oracle must agree too. */
static void expect(const hd_signed_distance_result *c, double depth, const double n[3], double tol)
{
    double err = fabs(-c->signed_distance - depth);
    int ok = err <= tol && (-c->upper) <= depth + tol && depth - tol <= (-c->lower);
    for (int k = 0; n != NULL && k < 3; ++k) {
        ok = ok && fabs(c->normal[k] - n[k]) <= 1e-9;
    }
    if (!ok) {
        printf("expected depth %.17g got %.17g (bounds [%.17g, %.17g]) normal %g %g %g\n", depth,
               -c->signed_distance, (-c->upper), (-c->lower), c->normal[0], c->normal[1],
               c->normal[2]);
    }
    assert_true(ok);
}

/* Stacked boxes: a small box resting on a large one, overlapping by d along z (d = 0: resting
 * exactly). Depth d, normal +z, a face of each (FCL #244, Bullet #1623 report wrong normals
 * and depths here). */
static void test_stacked_boxes(void **state)
{
    (void)state;
    static const double ds[] = {0.0, 1e-12, 1e-9, 1e-3, 0.25};
    static const double up[3] = {0, 0, 1};
    hd_polytope *a = box(-1, -1, -1, 1, 1, 1), *b = box(-0.5, -0.5, -0.5, 0.5, 0.5, 0.5);
    hd_polytope *c = box(-1, -1, -1, 1, 1, 1);
    for (unsigned i = 0; i < sizeof ds / sizeof ds[0]; ++i) {
        hd_pose pb = hd_test_translation(0.2, -0.1, 1.5 - ds[i]);
        hd_signed_distance_result r = query(a, NULL, b, &pb, 0);
        expect(&r, ds[i], up, 1e-15);
        assert_int_equal(r.feature_a.type, HD_FEATURE_FACE);
        assert_int_equal(r.feature_b.type, HD_FEATURE_FACE);
        assert_int_equal(r.verdict, ds[i] > 2 * r.eps ? HD_INTERSECTING : HD_TOUCHING);
        /* two equal boxes stacked exactly on top of each other: their faces coincide */
        hd_pose pc = hd_test_translation(0.0, 0.0, 2.0 - ds[i]);
        r = query(a, NULL, c, &pc, 0);
        expect(&r, ds[i], up, 1e-15);
        r = query(a, NULL, c, &pc, HD_QUERY_DEPTH_SAT);
        expect(&r, ds[i], up, 1e-15);
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    hd_polytope_destroy(c);
}

/* Touching boxes across an edge and at a corner (the origin on an edge or vertex of A - B), and a
 * box touching a rotated one with an edge: signed distance 0 to rounding, verdict touching. */
static void test_touching_boxes(void **state)
{
    (void)state;
    hd_polytope *a = box(-1, -1, -1, 1, 1, 1);
    static const double offsets[][3] = {{2, 0.5, 0}, {2, 2, 0.3}, {2, 2, 2}, {2, -2, 0}};
    for (unsigned i = 0; i < sizeof offsets / sizeof offsets[0]; ++i) {
        hd_pose pb = hd_test_translation(offsets[i][0], offsets[i][1], offsets[i][2]);
        for (unsigned flags = 0; flags <= HD_QUERY_DEPTH_SAT; flags += HD_QUERY_DEPTH_SAT) {
            hd_signed_distance_result r = query(a, NULL, a, &pb, flags);
            expect(&r, 0.0, NULL, 1e-15);
            assert_int_equal(r.verdict, HD_TOUCHING);
        }
    }
    /* B turned 45 degrees about z, its vertical edge touching A's face x = 1 */
    double q[4] = {cos(HD_PI / 8), 0, 0, sin(HD_PI / 8)}, t[3] = {1 + sqrt(2.0), 0.3, 0.1};
    hd_pose pb;
    assert_int_equal(hd_pose_from_quaternion(q, t, &pb), HD_OK);
    hd_signed_distance_result r = query(a, NULL, a, &pb, 0);
    expect(&r, 0.0, NULL, 1e-14);
    assert_int_equal(r.verdict, HD_TOUCHING);
    hd_polytope_destroy(a);
}

/* The hull of a slab whose large face, normal u = (1, 1, 1) / sqrt 3, lies across the corner
 * (1, 1, 1) of a box: the depth facet is the slab's face against the box's vertex, so the normal
 * is u and the depth is how far the corner passes the face (d), for every d small against the
 * slab. */
static void test_hull_against_box_vertex(void **state)
{
    (void)state;
    hd_polytope *a = box(-1, -1, -1, 1, 1, 1);
    double u[3] = {1 / sqrt(3.0), 1 / sqrt(3.0), 1 / sqrt(3.0)};
    double e1[3] = {1 / sqrt(2.0), -1 / sqrt(2.0), 0}, e2[3];
    e2[0] = u[1] * e1[2] - u[2] * e1[1];
    e2[1] = u[2] * e1[0] - u[0] * e1[2];
    e2[2] = u[0] * e1[1] - u[1] * e1[0];
    static const double ds[] = {1e-6, 0.01, 0.3};
    for (unsigned i = 0; i < sizeof ds / sizeof ds[0]; ++i) {
        double xyz[3 * 8], base = sqrt(3.0) - ds[i];
        for (int j = 0; j < 8; ++j) {
            double s1 = (j & 1) ? 10 : -10, s2 = (j & 2) ? 10 : -10, s3 = (j & 4) ? 5 : 0;
            for (int k = 0; k < 3; ++k) {
                xyz[3 * j + k] = (base + s3) * u[k] + s1 * e1[k] + s2 * e2[k];
            }
        }
        hd_polytope *b = hd_test_build(xyz, 8);
        hd_signed_distance_result r = query(a, NULL, b, NULL, 0);
        expect(&r, ds[i], u, 1e-13);
        assert_int_equal(r.feature_a.type, HD_FEATURE_VERTEX);
        assert_int_equal(r.feature_b.type, HD_FEATURE_FACE);
        check_overlap(a, NULL, b, NULL, &r, NULL);
        hd_polytope_destroy(b);
    }
    hd_polytope_destroy(a);
}

/* Degenerate triangles in the expanding polytope: prisms over regular 64-gons, coaxial, so that
 * A - B has caps with hundreds of coplanar vertices (coplanar and near-collinear support points);
 * the caps overlap by d along the axis, which is the depth (the radial depth is about 2). Then a
 * box whose corners come with near-duplicates 1e-13 apart. */
static void test_degenerate_expanding_polytope(void **state)
{
    (void)state;
    double *xyz = malloc(sizeof(double) * 3 * 128);
    hd_points_prism(64, 0.5, xyz);
    hd_polytope *a = hd_test_build(xyz, 128);
    static const double ds[] = {1e-9, 1e-4, 0.1};
    static const double up[3] = {0, 0, 1};
    for (unsigned i = 0; i < sizeof ds / sizeof ds[0]; ++i) {
        hd_pose pb = hd_test_translation(0, 0, 1.0 - ds[i]);
        for (unsigned flags = 0; flags <= HD_QUERY_DEPTH_SAT; flags += HD_QUERY_DEPTH_SAT) {
            hd_signed_distance_result r = query(a, NULL, a, &pb, flags);
            expect(&r, ds[i], up, 1e-14);
        }
        /* turned about the axis by half a sector: the caps' vertices interleave */
        double q[4] = {cos(HD_PI / 128), 0, 0, sin(HD_PI / 128)}, t[3] = {0.01, -0.02, 1.0 - ds[i]};
        assert_int_equal(hd_pose_from_quaternion(q, t, &pb), HD_OK);
        hd_signed_distance_result r = query(a, NULL, a, &pb, 0);
        expect(&r, ds[i], up, 1e-14);
    }
    hd_polytope_destroy(a);
    double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    hd_points_box(lo, hi, xyz);
    for (int j = 0; j < 24; ++j) {
        xyz[24 + j] = xyz[j] * (1 - 1e-13 * (j % 5));
    }
    hd_polytope *c = hd_test_build(xyz, 16);
    hd_pose pb = hd_test_translation(1.7, 0.2, 0.1);
    hd_signed_distance_result r = query(c, NULL, c, &pb, 0);
    check_overlap(c, NULL, c, &pb, &r, NULL);
    expect(&r, 0.3, NULL, 1e-12);
    hd_polytope_destroy(c);
    free(xyz);
}

/* Boxes far from the origin: unit boxes around (1e6, 1e6, 1e6), overlapping by 0.25 along x,
 * given by their coordinates and by poses; the depth is 0.25 to 1e-9 of the size (about 2.6). */
static void test_far_from_origin(void **state)
{
    (void)state;
    static const double x[3] = {1, 0, 0};
    double c = 1e6;
    hd_polytope *a = box(c - 0.5, c - 0.5, c - 0.5, c + 0.5, c + 0.5, c + 0.5);
    hd_polytope *b = box(c + 0.25, c - 0.3, c - 0.2, c + 1.25, c + 0.7, c + 0.8);
    hd_signed_distance_result r = query(a, NULL, b, NULL, 0);
    expect(&r, 0.25, x, 1e-9 * r.size);
    check_overlap(a, NULL, b, NULL, &r, NULL);
    hd_polytope *u = box(-0.5, -0.5, -0.5, 0.5, 0.5, 0.5);
    hd_pose pa = hd_test_translation(c, c, c), pb = hd_test_translation(c + 0.75, c + 0.2, c + 0.3);
    r = query(u, &pa, u, &pb, 0);
    expect(&r, 0.25, x, 1e-9 * r.size);
    check_overlap(u, &pa, u, &pb, &r, NULL);
    r = query(u, &pa, u, &pb, HD_QUERY_DEPTH_SAT);
    expect(&r, 0.25, x, 1e-9 * r.size);
    /* and turned: the same configuration under a common rotation keeps its depth */
    hd_pose rot = hd_rng_pose(&rng, NULL);
    double d[3] = {0.75, 0.2, 0.3};
    for (int i = 0; i < 3; ++i) {
        pa.t[i] = c;
        pb.t[i] = c + rot.r[3 * i] * d[0] + rot.r[3 * i + 1] * d[1] + rot.r[3 * i + 2] * d[2];
    }
    memcpy(pa.r, rot.r, sizeof pa.r);
    memcpy(pb.r, rot.r, sizeof pb.r);
    r = query(u, &pa, u, &pb, 0);
    expect(&r, 0.25, NULL, 1e-9 * r.size);
    check_overlap(u, &pa, u, &pb, &r, NULL);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    hd_polytope_destroy(u);
}

/* Needle pairs at 4e13 whose depth facet is badly shaped, with depths computed in rational
 * arithmetic (the least h_M(n) / |n| over the cross products of every two vertex differences, a
 * superset of the facet normals, all exact). First the fuzz finding regress-sat-needle-depth: a
 * 7-vertex needle solid and a needle triangle, depth 106836.5439259170392823; its facet is an
 * edge pair 6e-9 rad from parallel, whose double cross product turns by about 2^-53 / 6e-9 and
 * put the separating-axis answer 1.1e-9 of the size too deep. Then a needle tetrahedron (a face
 * 1e3 wide and 7e13 long) holding a small one, depth 135.2333901225011325 through the needle
 * face: its Newell normal put both methods 43 too deep (FV), and as much with A and B swapped
 * (VF). Each pair is also turned and moved as a whole (random pose), which keeps its depth.
 * Tolerance 1: about 2^-46 of the coordinates (up to 7e13), a few roundings of the vertices. */
static void test_needle_facets(void **state)
{
    (void)state;
    static const double ee_a[8][3] = {
        {0x0.00000000000ffp-1022, 0x0.0p+0, 0x0.0p+0},
        {-0x1.0000000000000p+17, -0x1.1c1c1c1c1c1c1p+29, -0x1.1c1c1c1c1c1c1p+29},
        {-0x1.1c1c1c1c1c1c1p+29, -0x1.1c1c1c125c1c1p+29, -0x1.1c9c1cbc1c1c1p+29},
        {0x1.ff800c1c1c1c1p-1008, 0x1.0000000000000p+0, 0x0.0p+0},
        {-0x1.1c1c100000000p+29, -0x1.1c3c1c1c1c1c1p+29, -0x1.1c1c1c1c1c1c1p+29},
        {-0x1.2c2c2c2c1c1c1p+45, -0x1.2c2c2c2c2c2c2p+45, -0x1.2c2c2c2c2c2c2p+45},
        {-0x1.2c2c2c2c0c2c2p+45, -0x1.2c2c2c2c2c2c2p+45, -0x1.2c2c2c2c2c2c2p+45},
        {-0x1.1c1c2c2c2c2c2p+29, 0x0.7070000af0000p-1022, -0x1.2c2c2c2c20000p+45}};
    static const double ee_b[3][3] = {
        {-0x1.2c2c2c0c2c2c2p+45, -0x1.2c2c2c2c2c2c2p+45, -0x1.2c2c2c2c2c2c2p+45},
        {-0x1.1c2c2c2c2c2c2p+29, 0x1.70000af0000c1p-911, 0x0.0004000000000p-1022},
        {0.0, 0.0, 0.0}};
    static const double fv_a[4][3] = {
        {-0x1.2309ce5410609p+45, -0x1.2309ce53fd3c5p+45, -0x1.2309ce540820bp+45},
        {-0x1.2309ce540f140p+45, -0x1.2309ce53ddfc5p+45, -0x1.2309ce5428f30p+45},
        {-0x1.b2789cae4cd0bp+9, -0x1.e6d4fe8165cfbp+9, 0x1.517815c3a76f5p+9},
        {-0x1.8fec9ddd7c74ap+44, -0x1.7dba6633c4085p+44, -0x1.7e80353ef5486p+44}};
    static const double fv_b[4][3] = {
        {-0x1.77153bd465e5dp+44, -0x1.77153bd443db9p+44, -0x1.77153bd4524e9p+44},
        {-0x1.77153bd4795f0p+44, -0x1.77153bd43d870p+44, -0x1.77153bd46c06ap+44},
        {-0x1.77153bd4736d5p+44, -0x1.77153bd434f0dp+44, -0x1.77153bd45e0e0p+44},
        {-0x1.77153bd46f700p+44, -0x1.77153bd43c508p+44, -0x1.77153bd46f45ep+44}};
    hd_polytope *ea = hd_test_build(&ee_a[0][0], 8), *eb = hd_test_build(&ee_b[0][0], 3);
    hd_polytope *fa = hd_test_build(&fv_a[0][0], 4), *fb = hd_test_build(&fv_b[0][0], 4);
    const hd_polytope *pairs[3][2] = {{ea, eb}, {fa, fb}, {fb, fa}};
    const double depths[3] = {106836.5439259170392823, 135.2333901225011325, 135.2333901225011325};
    const double tol = 1.0;
    for (int i = 0; i < 3; ++i) {
        hd_pose pose = hd_rng_pose(&rng, NULL);
        for (unsigned flags = 0; flags <= HD_QUERY_DEPTH_SAT; flags += HD_QUERY_DEPTH_SAT) {
            hd_signed_distance_result r = query(pairs[i][0], NULL, pairs[i][1], NULL, flags);
            expect(&r, depths[i], NULL, tol);
            check_overlap(pairs[i][0], NULL, pairs[i][1], NULL, &r, NULL);
            r = query(pairs[i][0], &pose, pairs[i][1], &pose, flags);
            expect(&r, depths[i], NULL, tol);
        }
    }
    hd_polytope_destroy(ea);
    hd_polytope_destroy(eb);
    hd_polytope_destroy(fa);
    hd_polytope_destroy(fb);
}

/* A cube of side 2e-5 and a segment of length 2 through its centre, both turned (found by
 * fuzz_scene): GJK's simplex became a sliver triangle of M passing 1.5e-14 from the origin, and
 * the solve of the tetrahedron with the next support point dropped that point again and again,
 * until the iteration cap failed the signed distance, the manifold and the distance. Every query
 * must answer, and the depth must match the oracle. */
static void test_sliver_simplex(void **state)
{
    (void)state;
    hd_polytope *cube = box(-1e-5, -1e-5, -1e-5, 1e-5, 1e-5, 1e-5);
    double seg[6] = {-1, 0, 0, 1, 0, 0};
    hd_polytope *segment = hd_test_build(seg, 2);
    const hd_pose pa = {{-0.93311036789297663, 0.34113712374581939, 0.11371237458193979,
                         0.34113712374581939, 0.93979933110367897, -0.020066889632107024,
                         -0.11371237458193979, 0.020066889632107024, -0.99331103678929766},
                        {0, 0, 0}};
    const hd_pose pb = {{0.98152770843734394, -0.1887169246130804, 0.031452820768846729,
                         -0.1887169246130804, -0.98202695956065922, -0.002995506739890165,
                         0.031452820768846729, -0.002995506739890165, -0.99950074887668516},
                        {0, 0, 0}};
    for (unsigned flags = 0; flags <= HD_QUERY_DEPTH_SAT; flags += HD_QUERY_DEPTH_SAT) {
        hd_signed_distance_result c = query(cube, &pa, segment, &pb, flags);
        assert_int_equal(c.verdict, HD_INTERSECTING);
        check_overlap(cube, &pa, segment, &pb, &c, NULL);
        c = query(segment, &pb, cube, &pa, flags);
        check_overlap(segment, &pb, cube, &pa, &c, NULL);
    }
    hd_options opt = hd_options_default();
    hd_signed_distance_result c;
    hd_manifold m;
    assert_int_equal(hd_contact_manifold(cube, &pa, segment, &pb, &opt, &c, &m), HD_OK);
    assert_true(m.count >= 1);
    hd_distance_result r;
    assert_int_equal(hd_distance(cube, &pa, segment, &pb, &opt, &r), HD_OK);
    assert_int_equal(r.verdict, HD_INTERSECTING);
    assert_true(r.distance == 0.0);
    opt.flags = HD_QUERY_NO_PORTAL;
    hd_collide_result rc;
    assert_int_equal(hd_collide(cube, &pa, segment, &pb, &opt, &rc), HD_OK);
    assert_int_equal(rc.verdict, HD_INTERSECTING);
    hd_polytope_destroy(cube);
    hd_polytope_destroy(segment);
}

/* The polytopes of a needle pair and the brute force's signed distance, the vertices posed about
 * A's translation (exact to the pair's size). */
static double needle_setup(const hd_needle_pair *np, hd_polytope **a, hd_polytope **b)
{
    *a = hd_test_build(np->xa, np->na);
    *b = hd_test_build(np->xb, np->nb);
    double va[3 * 48], vb[3 * 48];
    hd_brute_posed_near(*a, &np->pose_a, np->pose_a.t, va);
    hd_brute_posed_near(*b, &np->pose_b, np->pose_a.t, vb);
    return hd_brute_signed_distance(va, hd_polytope_vertex_count(*a), vb,
                                    hd_polytope_vertex_count(*b));
}

/* One pair of a needle family against the brute force: the signed distance, the verdict of
 * hd_collide outside the band, the manifold and the distance with its witnesses. Returns the
 * signed distance's error over the size; *fallback: the distance came from the LP fallback. */
static double check_needle_pair(const hd_needle_pair *np, int index, int *fallback)
{
    hd_polytope *a, *b;
    double brute = needle_setup(np, &a, &b);
    hd_pose pa = np->pose_a, pb = np->pose_b;
    hd_options opt = hd_options_default();
    hd_signed_distance_result c = query(a, &pa, b, &pb, 0);
    double err = fabs(c.signed_distance - brute) / c.size;
    if (err > ACCURACY) {
        printf("pair %d: signed distance %.17g, brute force %.17g\n", index, c.signed_distance,
               brute);
    }
    assert_true(err <= ACCURACY);
    hd_collide_result r;
    assert_int_equal(hd_collide(a, &pa, b, &pb, &opt, &r), HD_OK);
    /* outside the band and its edges' fuzz (docs/ALGORITHMS.md: the checker's slack) */
    double fuzz = hd_test_band_fuzz(c.eps);
    if (fabs(brute) > c.eps + fuzz) {
        assert_int_equal(r.verdict, brute > 0 ? HD_SEPARATED : HD_INTERSECTING);
    }
    hd_manifold m;
    assert_int_equal(hd_contact_manifold(a, &pa, b, &pb, &opt, &c, &m), HD_OK);
    hd_distance_result rd;
    hd_status st = hd_distance(a, &pa, b, &pb, &opt, &rd);
    if (st != HD_OK) {
        printf("pair %d: hd_distance %s, brute force %.17g\n", index, hd_status_str(st), brute);
    }
    assert_int_equal(st, HD_OK);
    /* the distance is 0 for a touching verdict (a pair far from the origin has a band wider than
     * 1e-9 of its size), which the brute force must then place within the band */
    if (rd.verdict == HD_TOUCHING) {
        assert_true(rd.distance == 0.0 && fabs(brute) <= rd.eps + ACCURACY * c.size);
    } else {
        assert_true(fabs(rd.distance - fmax(brute, 0.0)) <= ACCURACY * c.size);
    }
    /* the witnesses are points of A and B, as far apart as the distance (or the band, to its
     * edge's fuzz) */
    double apart = hypot(hypot(rd.witness_a[0] - rd.witness_b[0], rd.witness_a[1] - rd.witness_b[1]),
                         rd.witness_a[2] - rd.witness_b[2]);
    assert_true(fabs(apart - rd.distance) <= rd.eps + fuzz);
    *fallback = rd.stop == HD_STOP_FALLBACK;
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    return err;
}

/* count pairs of a needle family (tests/support/families.h) against the brute force. */
static void needle_family(const char *name, void (*make)(hd_rng *, hd_needle_pair *), int count)
{
    int fallbacks = 0;
    double worst = 0.0;
    for (int i = 0; i < count; ++i) {
        hd_needle_pair np;
        make(&rng, &np);
        int fallback;
        worst = fmax(worst, check_needle_pair(&np, i, &fallback));
        fallbacks += fallback;
    }
    printf("%s: %d pairs, worst |signed distance - brute force| / size %.3g; "
           "hd_distance answered %d by the LP fallback\n",
           name, count, worst, fallbacks);
}

/* A small shape and one up to 10^9 times longer, crossing or passing near each other (a bolt
 * against a beam): a cube, tetrahedron or square of side 1e-9 to 0.1 against a segment, a square
 * or a long thin box of length 0.1 to 10, both turned, close together. The simplices of M are
 * needles there, whose double solve loses the digits of their short edges (kernel/gjk_core.c,
 * hdi_gjk_polish; docs/algorithms/gjk.md section 4). */
static void test_small_against_long(void **state)
{
    (void)state;
    needle_family("small against long", hd_needle_pair_make, 2000);
}

/* Slivers of M whose polished foot, formed as W_i + s e + t f, was 1e-10 off (gjk.md, 4). */
static void test_cloud_against_long(void **state)
{
    (void)state;
    needle_family("cloud against long", hd_needle_cloud_make, 600);
}

/* Pairs found by the stress programs (tests/support/families.h), each against the brute force. */
static void check_needle_cases(const hd_needle_case *found, size_t count)
{
    for (size_t k = 0; k < count; ++k) {
        hd_needle_pair np;
        hd_needle_replay(&found[k], &np, NULL);
        int fallback;
        check_needle_pair(&np, found[k].index, &fallback);
    }
}

/* Pairs of the cloud family, each the index-th of the generator seeded with seed, on which
 * hd_distance (and on the first, hd_collide) failed: GJK's tetrahedron or triangle, thin (3e-9
 * wide, 0.3 to 6 long) but with no short edge, held the origin or passed within the band of it in
 * the double solve while the pair was 13 to 160 eps apart (gjk.md, section 4: a needle is a simplex
 * with a small height, not only a short edge), or the tetrahedron missed the origin in exact
 * arithmetic on a pair overlapping by 1.4 eps (a tetrahedron holding it found by the polish). */
static void test_cloud_regressions(void **state)
{
    (void)state;
    static const hd_needle_case found[] = {{10, 633, 0, 1},  {3, 1266, 0, 1}, {6, 4115, 0, 1},
                                           {18, 4053, 0, 1}, {9, 3792, 0, 1}, {14, 1886, 0, 1},
                                           {18, 1169, 0, 1}, {40, 959, 0, 1}};
    check_needle_cases(found, sizeof found / sizeof found[0]);
}

/* Pairs of the small-against-long family moved far from the world origin (both poses by the same
 * random translation, its three coordinates uniform in [-far, far], then a random unit vector
 * drawn, as the stress program that found them did). At far = 1e3: the band is then 7e-10 wide, as
 * wide as the small shape, and M a needle that thin around GJK's segment through the origin. On the
 * first (0.7 eps deep) the expanding polytope could not be built, and hd_collide failed with
 * every algorithm (contact/classify.c, least_facet_side: the separating-axis method's least
 * facet places it); on the second (1.02 eps apart) the polish stopped within GJK's tolerance,
 * 2.2e-11 apart, across the band edge, and hd_distance failed (kernel/gjk_core.c,
 * hdi_gjk_polish). Moved 1e5 and 1e6 away: GJK's tolerances, relative to the world scale, left
 * the signed distance 1.1e-9 to 2e-9 of the size off (contact/signed_distance.c, hdi_sd_pair), and
 * a tetrahedron of almost no volume gave a touching pair's point pair 4.9e-4 apart at eps =
 * 6.8e-8 (contact/classify.c, common_point_within). A pair of the cloud family 1e3 away,
 * overlapping by 7.9 eps, on which GJK and its LP fallback failed and CD-Dual answers
 * (query/query.c, fallbacks). Last, stacked boxes 0.03 in size 1e6 away, 1.67e-6 apart: hd_distance
 * stopped at the world scale's tolerance, 1.35e-9 off (query/query.c, pair_query: GJK's
 * tolerances in A's frame, as hd_signed_distance's), and a needle pair 1e6 away touching within
 * the band, on which those tighter tolerances stalled GJK (pair_query: the world's decide it
 * then). Each fails on the code before its change. */
static void test_far_needles(void **state)
{
    (void)state;
    static const hd_needle_case found[] = {{6, 5601, 1e3, 0},  {5, 7216, 1e3, 0}, {5, 1809, 1e6, 0},
                                           {6, 10348, 1e6, 0}, {7, 4805, 1e5, 0}, {31, 485, 1e3, 1},
                                           {2, 15263, 1e6, 2}, {13, 8043, 1e6, 0}};
    check_needle_cases(found, sizeof found / sizeof found[0]);
}

/* One needle pair overlapping beyond the band, which every algorithm of hd_collide stalled on:
 * each algorithm answers it intersecting with a certificate hd_certificate_check accepts and a
 * depth bound above eps and below the brute force's depth; hd_distance gives 0, hd_signed_distance
 * bounds that prove the overlap, and hd_gap an answer along the case's direction. */
static void check_proven_overlap(const hd_needle_case *found)
{
    hd_needle_pair np;
    double dir[3];
    hd_needle_replay(found, &np, dir);
    hd_polytope *a, *b;
    double brute = needle_setup(&np, &a, &b);
    hd_pose pa = np.pose_a, pb = np.pose_b;
    static const hd_algo algos[] = {HD_ALGO_GJK, HD_ALGO_CDDUAL, HD_ALGO_LP};
    hd_options opt = hd_options_default();
    hd_collide_result rc;
    for (size_t k = 0; k < sizeof algos / sizeof algos[0]; ++k) {
        opt.algo = algos[k];
        hd_status st = hd_collide(a, &pa, b, &pb, &opt, &rc);
        printf("{%u, %d, %g, %d} %s: %s, depth bound %.17g, brute force depth %.17g, eps %.3g\n",
               found->seed, found->index, found->far, found->family, hd_algo_str(algos[k]),
               hd_status_str(st), rc.cert.depth_bound, -brute, rc.eps);
        assert_int_equal(st, HD_OK);
        assert_true(brute < -rc.eps); /* the reference: an overlap beyond the band */
        assert_int_equal(rc.verdict, HD_INTERSECTING);
        assert_int_equal(hd_certificate_check(a, &pa, b, &pb, rc.verdict, rc.eps, &rc.cert), HD_OK);
        assert_true(rc.cert.depth_bound > rc.eps && rc.cert.depth_bound <= -brute + 1e-12 * np.length);
    }
    hd_distance_result r;
    opt.algo = HD_ALGO_GJK;
    assert_int_equal(hd_distance(a, &pa, b, &pb, &opt, &r), HD_OK);
    assert_true(r.verdict == HD_INTERSECTING && r.distance == 0.0);
    /* the signed distance's bounds prove the overlap too, and hold the brute force's depth */
    hd_signed_distance_result c;
    assert_int_equal(hd_signed_distance(a, &pa, b, &pb, &opt, &c), HD_OK);
    printf("  signed distance: depth in [%.17g, %.17g]\n", (-c.upper), (-c.lower));
    assert_int_equal(c.verdict, HD_INTERSECTING);
    double slack = 1e-12 * np.length;
    assert_true((-c.upper) > c.eps && (-c.upper) <= -brute + slack &&
                -brute <= (-c.lower) + slack);
    hd_gap_result g;
    assert_int_equal(hd_gap(a, &pa, b, &pb, dir, &opt, &g), HD_OK);
    assert_int_equal(g.verdict, HD_INTERSECTING);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* Needle pairs 1e3 and 1e4 from the origin overlapping by 1.04 to 3.3 eps (eps 4.6e-10 to
 * 5.6e-9, the small shape 1e-9 to 9e-9 wide): GJK stalls (its simplex inside M cannot hold the
 * origin in double), and so did the LP method and CD-Dual, with HD_ERR_ITERATION_LIMIT from
 * hd_collide, hd_distance and hd_gap. The overlap proof from the facets of M
 * (contact/overlap.c; docs/algorithms/gjk.md section 5) answers them. Found by the stress
 * program (docs/TESTING.md); each fails on the code before the proof. */
static void test_needle_overlaps_proven(void **state)
{
    (void)state;
    static const hd_needle_case found[] = {
        {5, 13550, 1e3, 0}, {5, 15445, 1e3, 0},  {11, 3799, 1e3, 0},  {11, 14691, 1e3, 0},
        {13, 917, 1e3, 0},  {13, 11384, 1e3, 0}, {14, 14826, 1e3, 0}, {15, 8754, 1e3, 0},
        {1, 818, 1e3, 1},   {31, 6668, 1e4, 0}};
    for (size_t k = 0; k < sizeof found / sizeof found[0]; ++k) {
        check_proven_overlap(&found[k]);
    }
    check_needle_cases(found, sizeof found / sizeof found[0]);
}

/* Flat and lower-dimensional polytopes: A - B without interior has depth 0 with the normal of
 * its plane; a flat or thin polytope against a solid has the solid's depth. */
static void test_flat_and_degenerate(void **state)
{
    (void)state;
    double sq[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    double sq2[12] = {0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0};
    double seg[6] = {-2, 0.1, 0.2, 2, 0.1, 0.2}, seg2[6] = {0, -2, 0, 0, 2, 0};
    double pt[3] = {0.1, 0.2, 0.3};
    hd_polytope *square = hd_test_build(sq, 4), *square2 = hd_test_build(sq2, 4);
    hd_polytope *segment = hd_test_build(seg, 2), *segment2 = hd_test_build(seg2, 2);
    hd_polytope *point = hd_test_build(pt, 1), *cube = box(-1, -1, -1, 1, 1, 1);
    static const double z[3] = {0, 0, 1};
    /* coplanar overlapping squares: flat A - B, depth 0 along the plane's normal (either sign) */
    hd_signed_distance_result r = query(square, NULL, square2, NULL, 0);
    expect(&r, 0.0, NULL, 1e-15);
    assert_true(fabs(fabs(r.normal[2]) - 1) <= 1e-12);
    assert_int_equal(r.verdict, HD_TOUCHING);
    /* crossing segments in the plane z = 0 (after moving the first down): flat, depth 0 */
    hd_pose down = hd_test_translation(0, -0.1, -0.2);
    r = query(segment, &down, segment2, NULL, 0);
    expect(&r, 0.0, NULL, 1e-15);
    assert_true(fabs(fabs(r.normal[2]) - 1) <= 1e-12);
    /* collinear overlapping segments and coincident points: depth 0 */
    hd_pose shift = hd_test_translation(1, 0, 0);
    r = query(segment, NULL, segment, &shift, 0);
    expect(&r, 0.0, NULL, 1e-15);
    r = query(point, NULL, point, NULL, 0);
    expect(&r, 0.0, NULL, 1e-15);
    /* the point inside the cube at height 0.3: B must move down by 0.7 */
    double down_n[3] = {0, 0, -1};
    r = query(point, NULL, cube, NULL, 0);
    expect(&r, 0.7, down_n, 1e-15);
    r = query(point, NULL, cube, NULL, HD_QUERY_DEPTH_SAT);
    expect(&r, 0.7, down_n, 1e-15);
    /* a square crossing the cube half-way: depth 1 along +-z; a segment through it: 0.8 */
    hd_pose half = hd_test_translation(0, 0, 0);
    r = query(square, &half, cube, NULL, 0);
    expect(&r, 1.0, NULL, 1e-15);
    assert_true(fabs(fabs(r.normal[2]) - 1) <= 1e-12);
    r = query(segment, NULL, cube, NULL, 0);
    expect(&r, 0.8, NULL, 1e-15);
    r = query(cube, NULL, segment, NULL, HD_QUERY_DEPTH_SAT);
    expect(&r, 0.8, NULL, 1e-15);
    /* a square resting on the cube's top face: touching, normal +z */
    hd_pose top = hd_test_translation(0.3, 0.3, 1.0);
    r = query(cube, NULL, square, &top, 0);
    expect(&r, 0.0, z, 1e-15);
    assert_int_equal(r.feature_a.type, HD_FEATURE_FACE);
    assert_int_equal(r.feature_b.type, HD_FEATURE_FACE);
    hd_polytope_destroy(square);
    hd_polytope_destroy(square2);
    hd_polytope_destroy(segment);
    hd_polytope_destroy(segment2);
    hd_polytope_destroy(point);
    hd_polytope_destroy(cube);
}

/* Separated pairs: the signed distance against the brute-force distance (long double over
 * vertex, edge and triangle pairs), the normal along the witnesses, the witnesses on A and B. */
static void test_separated(void **state)
{
    (void)state;
    double xa[3 * 12], xb[3 * 12], wa[3 * 12], wb[3 * 12];
    double worst = 0.0;
    int count = 0;
    for (int i = 0; i < 300; ++i) {
        double s = pow(10.0, hd_rng_uniform(&rng, -6.0, 6.0));
        int na = 4 + hd_rng_int(&rng, 8), nb = 4 + hd_rng_int(&rng, 8);
        hd_polytope *a = random_hull(na, s, xa), *b = random_hull(nb, s, xb);
        double t[3];
        hd_rng_unit_vector(&rng, t);
        for (int k = 0; k < 3; ++k) {
            t[k] *= s * hd_rng_uniform(&rng, 0.5, 4.0);
        }
        hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, t);
        na = hd_polytope_vertex_count(a);
        nb = hd_polytope_vertex_count(b);
        hd_brute_posed_vertices(a, &pa, wa);
        hd_brute_posed_vertices(b, &pb, wb);
        if (hd_brute_sat(wa, na, wb, nb, NULL) < 0) {
            double dist = hd_brute_distance(wa, na, wb, nb, NULL, NULL);
            hd_signed_distance_result r = query(a, &pa, b, &pb, 0);
            double err = fabs(r.signed_distance - dist) / r.size;
            double d[3];
            for (int k = 0; k < 3; ++k) {
                d[k] = r.witness_b[k] - r.witness_a[k] - r.signed_distance * r.normal[k];
            }
            double werr = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / r.size;
            double out_a = (double)hd_oracle_outside(a, &pa, r.witness_a) / r.size;
            double out_b = (double)hd_oracle_outside(b, &pb, r.witness_b) / r.size;
            if (!(err <= ACCURACY && werr <= ACCURACY && out_a <= ACCURACY && out_b <= ACCURACY &&
                  (-r.upper) <= -dist + 1e-12 * r.size &&
                  -dist - 1e-12 * r.size <= (-r.lower))) {
                printf("separated: %.17g against %.17g, witness err %.3g, outside %.3g %.3g\n",
                       r.signed_distance, dist, werr, out_a, out_b);
            }
            assert_true(err <= ACCURACY && werr <= ACCURACY);
            assert_true(out_a <= ACCURACY && out_b <= ACCURACY);
            assert_int_equal(r.method, HD_DEPTH_NONE);
            worst = fmax(worst, err);
            count++;
        }
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    printf("separated: %d pairs, worst |distance - brute force| / size %.3g\n", count, worst);
    assert_true(count > 100);
}

/* A pair moving through contact with one hd_cache: the warm answers equal the cold ones. */
static void test_warm_start(void **state)
{
    (void)state;
    hd_polytope *a, *b;
    hd_test_ellipsoid_pair(&rng, 200, &a, &b);
    hd_cache cache = HD_CACHE_INIT;
    hd_options warm = hd_options_default();
    warm.cache = &cache;
    for (int f = 0; f < 200; ++f) {
        double q[4] = {cos(0.005 * f), sin(0.005 * f), 0, 0},
               t[3] = {150 + 100 * cos(0.05 * f), 20, 10};
        hd_pose pb;
        assert_int_equal(hd_pose_from_quaternion(q, t, &pb), HD_OK);
        hd_signed_distance_result cold = query(a, NULL, b, &pb, 0), hot;
        assert_int_equal(hd_signed_distance(a, NULL, b, &pb, &warm, &hot), HD_OK);
        assert_true(fabs(cold.signed_distance - hot.signed_distance) <= 1e-12 * cold.size);
        assert_int_equal(cold.verdict, hot.verdict);
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* Argument errors are hd_collide's. */
static void test_errors(void **state)
{
    (void)state;
    hd_polytope *a = box(-1, -1, -1, 1, 1, 1);
    hd_options opt = hd_options_default();
    hd_signed_distance_result c;
    hd_collide_result res;
    hd_manifold m;
    hd_pose bad = hd_pose_identity(), nan_pose = hd_pose_identity(),
            far = hd_test_translation(1e31, 0, 0);
    bad.r[0] = 2;
    nan_pose.t[1] = NAN;
    assert_int_equal(hd_signed_distance(NULL, NULL, a, NULL, NULL, &c), HD_ERR_NULL);
    assert_int_equal(hd_signed_distance(a, NULL, a, NULL, NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_contact_manifold(a, NULL, a, NULL, NULL, &c, NULL), HD_ERR_NULL);
    const hd_pose *poses[] = {&bad, &nan_pose, &far};
    for (int i = 0; i < 3; ++i) {
        hd_status expected = hd_collide(a, NULL, a, poses[i], NULL, &res);
        assert_int_not_equal(expected, HD_OK);
        assert_int_equal(hd_signed_distance(a, NULL, a, poses[i], NULL, &c), expected);
        assert_int_equal(hd_contact_manifold(a, poses[i], a, NULL, NULL, &c, &m),
                         hd_collide(a, poses[i], a, NULL, NULL, &res));
    }
    opt.algo = (hd_algo)7;
    assert_int_equal(hd_signed_distance(a, NULL, a, NULL, &opt, &c), HD_ERR_INVALID_ARG);
    opt = hd_options_default();
    opt.tol.touch_rel = -1;
    assert_int_equal(hd_signed_distance(a, NULL, a, NULL, &opt, &c), HD_ERR_INVALID_ARG);
    assert_string_equal(hd_feature_type_str(HD_FEATURE_EDGE), "edge");
    assert_string_equal(hd_feature_type_str((hd_feature_type)9), "unknown");
    hd_polytope_destroy(a);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("test_signed_distance"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_overlaps),
        cmocka_unit_test(test_stacked_boxes),
        cmocka_unit_test(test_touching_boxes),
        cmocka_unit_test(test_hull_against_box_vertex),
        cmocka_unit_test(test_degenerate_expanding_polytope),
        cmocka_unit_test(test_far_from_origin),
        cmocka_unit_test(test_needle_facets),
        cmocka_unit_test(test_sliver_simplex),
        cmocka_unit_test(test_small_against_long),
        cmocka_unit_test(test_cloud_against_long),
        cmocka_unit_test(test_cloud_regressions),
        cmocka_unit_test(test_far_needles),
        cmocka_unit_test(test_needle_overlaps_proven),
        cmocka_unit_test(test_flat_and_degenerate),
        cmocka_unit_test(test_separated),
        cmocka_unit_test(test_warm_start),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
