/* hd_ray_cast against an independent reference: the facet planes of the hull found by brute
 * force (every triple of the posed world vertices whose plane has all of them on one side, in
 * long double), and the slab method over them, min t s.t. o + t d on the inner side of every
 * plane. The answer's own proof is checked too: the hit point lies on the plane of the reported
 * normal, which the ray crosses inwards, and that plane supports the hull; one hit in ten also by
 * the exact LP (GLPK) just before and after it. hd_scene_raycast
 * against a scan of every body. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "oracle.h"
#include "testutil.h"

static hd_rng rng;

#define MAX_POINTS 24

/* The reference's entry and exit of the ray, over the brute-force facet planes. */
typedef struct ref_ray {
    bool inside; /* the origin is inside every plane */
    long double t_in, t_out;
    long double slack; /* the closest call among the planes, as a fraction of the size */
} ref_ray;

static void plane_of(const double *p, int i, int j, int k, long double n[3], long double *off)
{
    long double e[3], f[3];
    for (int c = 0; c < 3; ++c) {
        e[c] = (long double)p[3 * j + c] - p[3 * i + c];
        f[c] = (long double)p[3 * k + c] - p[3 * i + c];
    }
    n[0] = e[1] * f[2] - e[2] * f[1];
    n[1] = e[2] * f[0] - e[0] * f[2];
    n[2] = e[0] * f[1] - e[1] * f[0];
    long double len = sqrtl(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int c = 0; c < 3; ++c) {
        n[c] = len > 0 ? n[c] / len : 0;
    }
    *off = n[0] * p[3 * i] + n[1] * p[3 * i + 1] + n[2] * p[3 * i + 2];
}

/* The plane of (i, j, k) oriented outwards when every point lies on its inner side (within
 * tol); false when points lie on both sides. */
static bool facet_plane(const double *p, int n, int i, int j, int k, long double tol,
                        long double nrm[3], long double *off)
{
    plane_of(p, i, j, k, nrm, off);
    if (nrm[0] == 0 && nrm[1] == 0 && nrm[2] == 0) {
        return false;
    }
    bool above = false, below = false;
    for (int m = 0; m < n; ++m) {
        long double h = nrm[0] * p[3 * m] + nrm[1] * p[3 * m + 1] + nrm[2] * p[3 * m + 2] - *off;
        above = above || h > tol;
        below = below || h < -tol;
    }
    if (above && below) {
        return false;
    }
    if (above) {
        for (int c = 0; c < 3; ++c) {
            nrm[c] = -nrm[c];
        }
        *off = -*off;
    }
    return true;
}

static void ref_clip(ref_ray *r, const long double n[3], long double off, const double o[3],
                     const double d[3], long double size)
{
    long double h = n[0] * o[0] + n[1] * o[1] + n[2] * o[2] - off;
    long double den = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
    r->inside = r->inside && h <= 0;
    r->slack = fminl(r->slack, fabsl(h) / size);
    if (den < 0) {
        r->t_in = fmaxl(r->t_in, h / -den);
    } else if (den > 0) {
        r->t_out = fminl(r->t_out, -h / den);
    } else if (h > 0) {
        r->t_out = -INFINITY;
    }
}

static ref_ray reference(const double *p, int n, const double o[3], const double d[3],
                         double length, long double size)
{
    ref_ray r = {true, 0.0L, length, 1.0L};
    long double tol = 1e-12L * size;
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            for (int k = j + 1; k < n; ++k) {
                long double nrm[3], off;
                if (facet_plane(p, n, i, j, k, tol, nrm, &off)) {
                    ref_clip(&r, nrm, off, o, d, size);
                }
            }
        }
    }
    return r;
}

/* The answer's proof: the point on the plane of the normal, the normal's support value there
 * (the plane supports the hull) and the ray going in through it. */
static void check_proof(const double *p, int n, const hd_ray_result *res, const double d[3],
                        double size)
{
    double hp = res->normal[0] * res->point[0] + res->normal[1] * res->point[1] +
                res->normal[2] * res->point[2];
    double hmax = -HUGE_VAL;
    for (int i = 0; i < n; ++i) {
        hmax = fmax(hmax, res->normal[0] * p[3 * i] + res->normal[1] * p[3 * i + 1] +
                              res->normal[2] * p[3 * i + 2]);
    }
    assert_true(fabs(hp - hmax) <= 1e-9 * size);
    assert_true(res->normal[0] * d[0] + res->normal[1] * d[1] + res->normal[2] * d[2] < 0.0);
}

/* The feature holds the hit point: a face's plane (check_proof), an edge's segment or a vertex
 * within 1e-9 of the size. */
static void check_feature(const hd_polytope *a, const hd_pose *pose, const hd_ray_result *res,
                          double size)
{
    const double *v = hd_polytope_vertices(a);
    double p[3], q[3];
    if (res->feature.type == HD_FEATURE_VERTEX) {
        hd_pose_apply(pose, v + 3 * res->feature.index, p);
        double e[3] = {p[0] - res->point[0], p[1] - res->point[1], p[2] - res->point[2]};
        assert_true(sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) <= 1e-9 * size);
    } else if (res->feature.type == HD_FEATURE_EDGE) {
        int ends[2], faces[2];
        assert_int_equal(hd_polytope_edge(a, res->feature.index, ends, faces), HD_OK);
        hd_pose_apply(pose, v + 3 * ends[0], p);
        hd_pose_apply(pose, v + 3 * ends[1], q);
        double e[3], w[3], c[3];
        for (int k = 0; k < 3; ++k) {
            e[k] = q[k] - p[k];
            w[k] = res->point[k] - p[k];
        }
        c[0] = e[1] * w[2] - e[2] * w[1];
        c[1] = e[2] * w[0] - e[0] * w[2];
        c[2] = e[0] * w[1] - e[1] * w[0];
        double el = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        assert_true(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) <= 1e-9 * size * el);
    } else {
        assert_int_equal(res->feature.type, HD_FEATURE_FACE);
    }
}

/* The exact LP (GLPK's rational simplex, tests/support/oracle.h) on the hull's points: the ray's
 * point 1e-7 (in t, relative to the hit) before the hit is outside, the one after it inside.
 * Returns 1 when checked (the chord long enough). */
static int check_exact(const double *p, int n, const double o[3], const double d[3],
                       const hd_ray_result *res, long double t_out)
{
    double m = 1e-7 * fmax(res->t, 1.0);
    if (!(t_out - res->t > 4.0 * m) || res->t < 4.0 * m) {
        return 0;
    }
    double before[3], after[3];
    for (int k = 0; k < 3; ++k) {
        before[k] = o[k] + (res->t - m) * d[k];
        after[k] = o[k] + (res->t + m) * d[k];
    }
    assert_int_equal(hd_oracle_meet_dim(3, p, n, before, 1, NULL), 0);
    assert_int_equal(hd_oracle_meet_dim(3, p, n, after, 1, NULL), 1);
    return 1;
}

/* Random hulls of 4 to 24 points, sizes 1e-6 to 1e6, random poses, rays from outside and inside
 * aimed at points of the hull or of its box, some too short to reach. */
static void test_random_rays(void **state)
{
    (void)state;
    int hits = 0, misses = 0, inside = 0, skipped = 0, exact = 0, count = 3000;
    for (int i = 0; i < count; ++i) {
        double s = pow(10.0, hd_rng_uniform(&rng, -6.0, 6.0)), local[3 * MAX_POINTS],
               world[3 * MAX_POINTS];
        int n = 4 + hd_rng_int(&rng, MAX_POINTS - 3);
        hd_points_cloud(&rng, n, s, s * hd_rng_uniform(&rng, 0.1, 1), s, local);
        hd_polytope *a = hd_test_build(local, n);
        assert_non_null(a);
        double t[3] = {hd_rng_uniform(&rng, -5, 5) * s, 0.0, hd_rng_uniform(&rng, -5, 5) * s};
        hd_pose pose = hd_rng_pose(&rng, t);
        for (int k = 0; k < n; ++k) {
            hd_pose_apply(&pose, local + 3 * k, world + 3 * k);
        }
        double o[3], target[3], d[3], u[3];
        hd_rng_unit_vector(&rng, u);
        bool in_hull = hd_rng_int(&rng, 4) != 0; /* aimed at a point of the hull, or of its box */
        int pick[4];
        double wt[4], wsum = 0.0;
        for (int m = 0; m < 4; ++m) {
            pick[m] = hd_rng_int(&rng, n);
            wt[m] = hd_rng_uniform(&rng, 0.1, 1.0);
            wsum += wt[m];
        }
        for (int m = 0; m < 4; ++m) {
            wt[m] /= wsum;
        }
        double stretch = hd_rng_uniform(&rng, 0.5, 3.0);
        double reach = hd_rng_int(&rng, 5) == 0 ? 0.2 : hd_rng_uniform(&rng, 1.5, 6.0);
        for (int k = 0; k < 3; ++k) {
            target[k] = t[k] + s * hd_rng_uniform(&rng, -1.2, 1.2);
            if (in_hull) {
                target[k] = 0.0;
                for (int m = 0; m < 4; ++m) {
                    target[k] += wt[m] * world[3 * pick[m] + k];
                }
            }
            o[k] = t[k] + reach * s * u[k];
            d[k] = (target[k] - o[k]) * stretch;
        }
        double length = hd_rng_int(&rng, 4) == 0 ? hd_rng_uniform(&rng, 0, 1) : HUGE_VAL;
        hd_ray_result res;
        assert_int_equal(hd_ray_cast(a, &pose, o, d, length, NULL, &res), HD_OK);
        ref_ray ref = reference(world, n, o, d, length, s);
        double dl = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        long double margin = 1e-9L * s / dl; /* in t */
        if (ref.slack < 1e-9L || fabsl(ref.t_out - ref.t_in) <= margin) {
            ++skipped; /* within the resolution of grazing an edge or starting on a face */
            hd_polytope_destroy(a);
            continue;
        }
        bool ref_hit = ref.t_in <= ref.t_out;
        assert_int_equal(res.hit, ref_hit);
        if (ref_hit) {
            assert_true(fabsl(res.t - ref.t_in) <= margin);
            assert_int_equal(res.inside, ref.inside);
            if (!ref.inside) {
                check_proof(world, n, &res, d, s);
                check_feature(a, &pose, &res, s);
                exact += hits % 10 == 0 && check_exact(world, n, o, d, &res, ref.t_out);
            }
            hits += !ref.inside;
            inside += ref.inside;
        } else {
            ++misses;
        }
        hd_polytope_destroy(a);
    }
    printf("%d rays: %d hits, %d from inside, %d misses, %d within the resolution skipped; %d "
           "hits checked by the exact LP\n",
           count, hits, inside, misses, skipped, exact);
    assert_true(exact > 50);
    assert_true(hits > count / 4 && misses > count / 10 && inside > 10 &&
                skipped < count / 25); /* tangent rays: aimed at a vertex or a silhouette edge */
}

/* Closed forms on the unit cube: a ray through a face centre, through an edge and through a
 * vertex (their features), a ray along a face (parallel, outside by a hair: a miss), and a
 * polygon crossed at its centre and beside it, and rays in its plane. */
static void test_cube_features(void **state)
{
    (void)state;
    double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1}, box[24];
    hd_points_box(lo, hi, box);
    hd_polytope *cube = hd_test_build(box, 8);
    hd_ray_result r;
    double o[3] = {5, 0.25, -0.5}, d[3] = {-2, 0, 0};
    assert_int_equal(hd_ray_cast(cube, NULL, o, d, HUGE_VAL, NULL, &r), HD_OK);
    assert_true(r.hit && !r.inside && r.t == 2.0 && r.normal[0] == 1.0);
    assert_int_equal(r.feature.type, HD_FEATURE_FACE);
    assert_int_equal(hd_ray_cast(cube, NULL, o, d, 1.5, NULL, &r), HD_OK);
    assert_false(r.hit); /* too short */
    double oe[3] = {3, 3, 0.5}, de[3] = {-1, -1, 0};
    assert_int_equal(hd_ray_cast(cube, NULL, oe, de, HUGE_VAL, NULL, &r), HD_OK);
    assert_true(r.hit && r.t == 2.0);
    assert_int_equal(r.feature.type, HD_FEATURE_EDGE);
    double ov[3] = {3, 3, 3}, dv[3] = {-1, -1, -1};
    assert_int_equal(hd_ray_cast(cube, NULL, ov, dv, HUGE_VAL, NULL, &r), HD_OK);
    assert_true(r.hit && r.t == 2.0);
    assert_int_equal(r.feature.type, HD_FEATURE_VERTEX);
    double op[3] = {5, 1.0 + 1e-9, 0}, dp[3] = {-1, 0, 0};
    assert_int_equal(hd_ray_cast(cube, NULL, op, dp, HUGE_VAL, NULL, &r), HD_OK);
    assert_false(r.hit);
    double oi[3] = {0.5, 0, 0};
    assert_int_equal(hd_ray_cast(cube, NULL, oi, dp, HUGE_VAL, NULL, &r), HD_OK);
    assert_true(r.hit && r.inside && r.t == 0.0);
    double sq[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    hd_polytope *square = hd_test_build(sq, 4);
    double os[3] = {0.5, 0.5, 2}, ds[3] = {0, 0, -4}, ob[3] = {1.5, 0, 2};
    assert_int_equal(hd_ray_cast(square, NULL, os, ds, HUGE_VAL, NULL, &r), HD_OK);
    assert_true(r.hit && r.t == 0.5 && r.normal[2] == 1.0);
    assert_int_equal(hd_ray_cast(square, NULL, ob, ds, HUGE_VAL, NULL, &r), HD_OK);
    assert_false(r.hit);
    double in_plane[3] = {-1, 0, 0};
    assert_int_equal(hd_ray_cast(square, NULL, ob, in_plane, HUGE_VAL, NULL, &r),
                     HD_OK); /* above the plane: parallel, a miss */
    assert_false(r.hit);
    /* in the square's plane: through the side x = 1, its corner, beside it, from inside */
    double on_plane[3] = {3, 0.5, 0}, corner[3] = {3, 3, 0}, diag[3] = {-1, -1, 0};
    assert_int_equal(hd_ray_cast(square, NULL, on_plane, in_plane, HUGE_VAL, NULL, &r), HD_OK);
    assert_true(r.hit && !r.inside && r.t == 2.0 && r.normal[0] == 1.0);
    assert_int_equal(r.feature.type, HD_FEATURE_EDGE);
    assert_int_equal(hd_ray_cast(square, NULL, corner, diag, HUGE_VAL, NULL, &r), HD_OK);
    assert_true(r.hit && r.t == 2.0);
    assert_int_equal(r.feature.type, HD_FEATURE_VERTEX);
    double beside[3] = {3, 1.5, 0}, centre[3] = {0, 0, 0};
    assert_int_equal(hd_ray_cast(square, NULL, beside, in_plane, HUGE_VAL, NULL, &r), HD_OK);
    assert_false(r.hit);
    assert_int_equal(hd_ray_cast(square, NULL, centre, in_plane, HUGE_VAL, NULL, &r), HD_OK);
    assert_true(r.hit && r.inside);
    hd_polytope_destroy(cube);
    hd_polytope_destroy(square);
}

/* All hits of a ray by a scan of every body (hd_ray_cast on each: the per-body answer is checked
 * above), ordered by t then id: the reference for the broad phase's walk. */
static int scan_hits(const hd_polytope *const *shapes, const hd_pose *poses, int n,
                     const double o[3], const double d[3], double length, hd_scene_ray_hit *out)
{
    int count = 0;
    for (int id = 0; id < n; ++id) {
        hd_scene_ray_hit h = {id, {0}};
        if (hd_polytope_dimension(shapes[id]) < 2) {
            continue;
        }
        assert_int_equal(hd_ray_cast(shapes[id], &poses[id], o, d, length, NULL, &h.ray), HD_OK);
        if (!h.ray.hit) {
            continue;
        }
        int at = count++;
        while (at > 0 && (out[at - 1].ray.t > h.ray.t ||
                          (out[at - 1].ray.t == h.ray.t && out[at - 1].id > id))) {
            out[at] = out[at - 1];
            --at;
        }
        out[at] = h;
    }
    return count;
}

/* hd_scene_raycast against the scan, on 1 500 bodies (cubes, random hulls, squares, segments)
 * after two frames of moves, with both broad phases: every hit (ids, t to the bit, order), the
 * nearest, a capacity below the count, and rays that start inside a body. */
static void test_scene_rays(void **state)
{
    (void)state;
    enum { N = 1500, SHAPES = 4, RAYS = 150 };
    double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1}, box[24], cloud[36],
           sq[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, seg[6] = {0, 0, 0, 1, 1, 1};
    hd_points_box(lo, hi, box);
    hd_points_cloud(&rng, 12, 1.0, 0.5, 0.8, cloud);
    hd_polytope *shape[SHAPES] = {hd_test_build(box, 8), hd_test_build(cloud, 12),
                                  hd_test_build(sq, 4), hd_test_build(seg, 2)};
    static const hd_polytope *body_shape[N];
    static hd_pose pose[N];
    static hd_scene_ray_hit ref[N], got[N];
    for (int bp = 0; bp < 2; ++bp) {
        hd_broadphase broadphase = bp == 0 ? HD_BROADPHASE_TREE : HD_BROADPHASE_SAP;
        hd_scene *sc = hd_test_scene(broadphase);
        assert_non_null(sc);
        for (int frame = 0; frame < 2; ++frame) {
            for (int i = 0; i < N; ++i) {
                double t[3] = {hd_rng_uniform(&rng, -12, 12), hd_rng_uniform(&rng, -12, 12),
                               hd_rng_uniform(&rng, -12, 12)};
                pose[i] = hd_rng_pose(&rng, t);
                int id = i;
                if (frame == 0) {
                    body_shape[i] = shape[i % SHAPES];
                    assert_int_equal(hd_scene_add(sc, body_shape[i], &pose[i], NULL, &id), HD_OK);
                    assert_int_equal(id, i);
                } else {
                    assert_int_equal(hd_scene_move(sc, i, &pose[i]), HD_OK);
                }
            }
        }
        int total = 0;
        for (int r = 0; r < RAYS; ++r) {
            double o[3], d[3];
            for (int k = 0; k < 3; ++k) {
                o[k] = r % 10 == 0 ? pose[r].t[k] : hd_rng_uniform(&rng, -15, 15);
            }
            hd_rng_unit_vector(&rng, d);
            double length = r % 3 == 0 ? hd_rng_uniform(&rng, 10, 100) : HUGE_VAL;
            int want = scan_hits(body_shape, pose, N, o, d, length, ref), count = -1;
            assert_int_equal(hd_scene_raycast(sc, o, d, length, true, got, N, &count), HD_OK);
            assert_int_equal(count, want);
            for (int i = 0; i < want; ++i) {
                assert_int_equal(got[i].id, ref[i].id);
                assert_true(got[i].ray.t == ref[i].ray.t);
            }
            hd_scene_ray_hit first;
            assert_int_equal(hd_scene_raycast(sc, o, d, length, false, &first, 1, &count), HD_OK);
            assert_int_equal(count, want > 0);
            if (want > 0) {
                assert_int_equal(first.id, ref[0].id);
                assert_true(first.ray.t == ref[0].ray.t);
                int cap = want / 2;
                assert_int_equal(hd_scene_raycast(sc, o, d, length, true, got, cap, &count), HD_OK);
                assert_int_equal(count, want);
                for (int i = 0; i < cap; ++i) {
                    assert_int_equal(got[i].id, ref[i].id);
                }
            }
            total += want;
        }
        printf("%s: %d rays, %d hits, as the scan of every body\n", hd_broadphase_str(broadphase),
               RAYS, total);
        assert_true(total > RAYS);
        double o[3] = {0, 0, 0}, d[3] = {1, 0, 0}, z[3] = {0, 0, 0}, nan3[3] = {NAN, 0, 0};
        int count;
        assert_int_equal(hd_scene_raycast(NULL, o, d, 1, true, got, 1, &count), HD_ERR_NULL);
        assert_int_equal(hd_scene_raycast(sc, o, d, 1, true, NULL, 1, &count), HD_ERR_NULL);
        assert_int_equal(hd_scene_raycast(sc, o, d, 1, true, NULL, 0, &count), HD_OK);
        assert_int_equal(hd_scene_raycast(sc, o, z, 1, true, got, 1, &count), HD_ERR_INVALID_ARG);
        assert_int_equal(hd_scene_raycast(sc, nan3, d, 1, true, got, 1, &count), HD_ERR_NONFINITE);
        assert_int_equal(hd_scene_raycast(sc, o, d, -1, true, got, 1, &count), HD_ERR_INVALID_ARG);
        assert_int_equal(hd_scene_raycast(sc, o, d, 1, true, got, -1, &count), HD_ERR_INVALID_ARG);
        hd_scene_destroy(sc);
    }
    for (int k = 0; k < SHAPES; ++k) {
        hd_polytope_destroy(shape[k]);
    }
}

static void test_bad_rays(void **state)
{
    (void)state;
    double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1}, box[24], seg[6] = {0, 0, 0, 1, 0, 0};
    hd_points_box(lo, hi, box);
    hd_polytope *cube = hd_test_build(box, 8), *line = hd_test_build(seg, 2);
    double o[3] = {5, 0, 0}, d[3] = {-1, 0, 0}, zero[3] = {0, 0, 0}, nan3[3] = {NAN, 0, 0};
    hd_ray_result r;
    assert_int_equal(hd_ray_cast(NULL, NULL, o, d, 1, NULL, &r), HD_ERR_NULL);
    assert_int_equal(hd_ray_cast(cube, NULL, NULL, d, 1, NULL, &r), HD_ERR_NULL);
    assert_int_equal(hd_ray_cast(cube, NULL, o, d, 1, NULL, NULL), HD_ERR_NULL);
    assert_int_equal(hd_ray_cast(cube, NULL, nan3, d, 1, NULL, &r), HD_ERR_NONFINITE);
    assert_int_equal(hd_ray_cast(cube, NULL, o, nan3, 1, NULL, &r), HD_ERR_NONFINITE);
    assert_int_equal(hd_ray_cast(cube, NULL, o, zero, 1, NULL, &r), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_ray_cast(cube, NULL, o, d, -1, NULL, &r), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_ray_cast(cube, NULL, o, d, NAN, NULL, &r), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_ray_cast(line, NULL, o, d, 1, NULL, &r), HD_ERR_UNSUPPORTED);
    hd_pose bad = hd_pose_identity();
    bad.r[0] = 3;
    assert_int_equal(hd_ray_cast(cube, &bad, o, d, 1, NULL, &r), HD_ERR_BAD_POSE);
    hd_polytope_destroy(cube);
    hd_polytope_destroy(line);
}

/* Distance from x to the axis-aligned box [-h, h] (clamping, in long double). */
static void sub3(double out[3], const double a[3], const double b[3])
{
    for (int k = 0; k < 3; ++k) {
        out[k] = a[k] - b[k];
    }
}

static long double box_distance(const long double x[3], const double h[3])
{
    long double s = 0.0L;
    for (int k = 0; k < 3; ++k) {
        long double e = fabsl(x[k]) - h[k];
        s += e > 0.0L ? e * e : 0.0L;
    }
    return sqrtl(s);
}

/* The first t in [0, len] with dist(o + t d, box) <= r, by the test's own search: f(t) =
 * dist - r is convex along the line, so its minimum (ternary search) says hit or miss and the
 * first root lies in [0, t_min] (bisection); -1 for a miss. */
static long double rounded_box_reference(const double h[3], double r, const double o[3],
                                         const double d[3], double len)
{
    long double lo = 0.0L, hi = len;
    for (int i = 0; i < 300; ++i) {
        long double m1 = lo + (hi - lo) / 3.0L, m2 = hi - (hi - lo) / 3.0L, x1[3], x2[3];
        for (int k = 0; k < 3; ++k) {
            x1[k] = o[k] + m1 * d[k];
            x2[k] = o[k] + m2 * d[k];
        }
        if (box_distance(x1, h) <= box_distance(x2, h)) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    long double tmin = 0.5L * (lo + hi), x[3];
    for (int k = 0; k < 3; ++k) {
        x[k] = o[k] + tmin * d[k];
    }
    if (box_distance(x, h) > r) {
        return -1.0L;
    }
    lo = 0.0L;
    hi = tmin;
    for (int i = 0; i < 200; ++i) {
        long double mid = 0.5L * (lo + hi);
        for (int k = 0; k < 3; ++k) {
            x[k] = o[k] + mid * d[k];
        }
        if (box_distance(x, h) <= r) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    return hi;
}

/* Rays against rounded polytopes: a sphere (the quadratic's closed form), rounded boxes of
 * random half extents and radii (the search above), a capsule; the hit point's distance to the
 * core is r within the band, the normal points from the core's nearest point; misses agree. */
static void test_rounded_rays(void **state)
{
    (void)state;
    int hits = 0, misses = 0;
    for (int i = 0; i < 400; ++i) {
        double h[3], r = hd_rng_uniform(&rng, 0.01, 0.6), o[3], d[3];
        for (int k = 0; k < 3; ++k) {
            h[k] = i % 4 == 0 ? 0.0 : hd_rng_uniform(&rng, 0.0, 1.0); /* a sphere every 4th */
            o[k] = hd_rng_uniform(&rng, -4.0, 4.0);
        }
        double target[3] = {hd_rng_uniform(&rng, -1.5, 1.5), hd_rng_uniform(&rng, -1.5, 1.5),
                            hd_rng_uniform(&rng, -1.5, 1.5)};
        sub3(d, target, o);
        hd_polytope *shape = NULL;
        assert_int_equal(hd_shape_box(h, r, NULL, &shape), HD_OK);
        hd_ray_result res;
        assert_int_equal(hd_ray_cast(shape, NULL, o, d, 2.0, NULL, &res), HD_OK);
        long double want = rounded_box_reference(h, r, o, d, 2.0);
        if (want < 0.0L) {
            assert_false(res.hit);
            misses++;
        } else {
            assert_true(res.hit);
            hits++;
            double size = 8.0; /* the scene's extent: origins within 4, d up to 5.5 long */
            if (fabsl((long double)res.t - want) * sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) >
                1e-9 * size) {
                printf("seed-dependent ray %d: t %.17g, reference %.17Lg\n", i, res.t, want);
                fail();
            }
        }
        hd_polytope_destroy(shape);
    }
    assert_true(hits > 40 && misses > 40);
    /* a sphere of radius 1 at the origin from (5, 0.5, 0) along -x: t = 5 - sqrt(0.75) */
    hd_polytope *ball = NULL;
    assert_int_equal(hd_shape_sphere(1.0, NULL, &ball), HD_OK);
    double o[3] = {5, 0.5, 0}, d[3] = {-1, 0, 0};
    hd_ray_result res;
    assert_int_equal(hd_ray_cast(ball, NULL, o, d, HUGE_VAL, NULL, &res), HD_OK);
    assert_true(res.hit && !res.inside);
    assert_true(fabs(res.t - (5.0 - sqrt(0.75))) <= 1e-11);
    assert_true(fabs(res.normal[0] - sqrt(0.75)) <= 1e-9 && fabs(res.normal[1] - 0.5) <= 1e-9);
    assert_int_equal(res.feature.type, HD_FEATURE_VERTEX);
    double inner[3] = {0.2, 0, 0};
    assert_int_equal(hd_ray_cast(ball, NULL, inner, d, 1.0, NULL, &res), HD_OK);
    assert_true(res.hit && res.inside && res.t == 0.0);
    double away[3] = {1, 0, 0};
    assert_int_equal(hd_ray_cast(ball, NULL, o, away, HUGE_VAL, NULL, &res), HD_OK);
    assert_false(res.hit);
    hd_polytope_destroy(ball);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("api_ray"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube_features), cmocka_unit_test(test_random_rays),
        cmocka_unit_test(test_scene_rays),    cmocka_unit_test(test_bad_rays),
        cmocka_unit_test(test_rounded_rays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
