/* Rounded and compound bodies in scenes, and the continuous step, against independent answers:
 * - random scenes of plain bodies (sharp and rounded hulls, capsules, spheres), or of sharp
 *   plain and compound bodies (random_compound says why not rounded ones): every step lists
 *   exactly the pairs whose signed distance, by the long-double brute force of
 *   tests/support/brute.c on the cores minus the two radii and the least over pairs of pieces
 *   (hedra/compound.h's definition), is below the proximity (0, or 0.2), with the right verdict,
 *   signed distance and pieces; pairs within the band are not judged. Filters apply; a compound
 *   alone has no contact (closed form). Output is the same on 1 and 2 threads (and both broad
 *   phases without a proximity).
 * - a thin fast body that passes through a plate between two frames is caught with the time of
 *   impact of the closed form; random moving scenes agree with hd_toi run pair by pair over
 *   every pair of pieces (the brute force: no broad phase). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "brute.h"
#include "hedra/shapes.h"
#include "testutil.h"

#define T_SHAPES 6
#define T_BODIES 24
#define T_MAX_PIECES 3
#define T_MAX_VERTS 12

static hd_polytope *t_shapes[T_SHAPES];
static uint64_t t_seed;

/* Small hulls, sharp and rounded (the brute force grows as n^4). */
static int setup(void **state)
{
    (void)state;
    t_seed = hd_test_seed("api/scene_bodies");
    hd_rng rng;
    hd_rng_init(&rng, t_seed);
    double xyz[3 * T_MAX_VERTS];
    hd_points_ellipsoid(&rng, 8, 0.8, 0.6, 0.4, xyz);
    t_shapes[0] = hd_test_build(xyz, 8);
    assert_int_equal(hd_polytope_build_rounded(xyz, 8, 0.2, NULL, &t_shapes[1]), HD_OK);
    double lo[3] = {-0.4, -0.3, -0.2}, hi[3] = {0.4, 0.3, 0.2};
    hd_points_box(lo, hi, xyz);
    t_shapes[2] = hd_test_build(xyz, 8);
    assert_int_equal(hd_polytope_build_rounded(xyz, 8, 0.15, NULL, &t_shapes[3]), HD_OK);
    double segment[6] = {-0.5, 0, 0, 0.5, 0, 0};
    assert_int_equal(hd_polytope_build_rounded(segment, 2, 0.25, NULL, &t_shapes[4]), HD_OK);
    double point[3] = {0, 0, 0};
    assert_int_equal(hd_polytope_build_rounded(point, 1, 0.4, NULL, &t_shapes[5]), HD_OK);
    for (int i = 0; i < T_SHAPES; ++i) {
        assert_non_null(t_shapes[i]);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < T_SHAPES; ++i) {
        hd_polytope_destroy(t_shapes[i]);
    }
    return 0;
}

/* The test's own copy of a body: its pieces (shape indices and poses in the body's frame; one
 * piece at the identity for a plain body), its pose and filter; the compound the scene holds. */
typedef struct body {
    int pieces; /* 0: a plain body of shape[0] */
    int shape[T_MAX_PIECES];
    hd_pose piece_pose[T_MAX_PIECES];
    hd_pose pose;
    hd_scene_filter filter;
    hd_compound *compound;
} body;

typedef struct model {
    int count;
    body b[T_BODIES];
} model;

/* Piece i's pose in the world, composed here: x -> R (Ri x + ti) + t. */
static hd_pose world_piece(const body *b, int i)
{
    if (b->pieces == 0) {
        return b->pose;
    }
    const hd_pose *p = &b->piece_pose[i], *q = &b->pose;
    hd_pose w;
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
            double sum = 0.0;
            for (int k = 0; k < 3; ++k) {
                sum += q->r[3 * r + k] * p->r[3 * k + c];
            }
            w.r[3 * r + c] = sum;
        }
        w.t[r] = q->t[r];
        for (int k = 0; k < 3; ++k) {
            w.t[r] += q->r[3 * r + k] * p->t[k];
        }
    }
    return w;
}

/* The brute signed distance of two pieces: the cores' by brute force minus both radii. */
static double brute_pieces(const body *a, int i, const body *b, int j)
{
    double pa[3 * T_MAX_VERTS], pb[3 * T_MAX_VERTS];
    const hd_polytope *sa = t_shapes[a->shape[i]], *sb = t_shapes[b->shape[j]];
    hd_pose wa = world_piece(a, i), wb = world_piece(b, j);
    hd_brute_posed_vertices(sa, &wa, pa);
    hd_brute_posed_vertices(sb, &wb, pb);
    return hd_brute_signed_distance(pa, hd_polytope_vertex_count(sa), pb,
                                    hd_polytope_vertex_count(sb)) -
           hd_polytope_radius(sa) - hd_polytope_radius(sb);
}

static int count_of(const body *b)
{
    return b->pieces > 0 ? b->pieces : 1;
}

/* The least over the pairs of pieces (a compound's signed distance). */
static double brute_bodies(const body *a, const body *b)
{
    double best = INFINITY;
    for (int i = 0; i < count_of(a); ++i) {
        for (int j = 0; j < count_of(b); ++j) {
            double d = brute_pieces(a, i, b, j);
            best = d < best ? d : best;
        }
    }
    return best;
}

static hd_pose random_pose(hd_rng *rng, double world)
{
    double t[3];
    for (int k = 0; k < 3; ++k) {
        t[k] = hd_rng_uniform(rng, 0.0, world);
    }
    return hd_rng_pose(rng, t);
}

/* A compound of 2 or 3 sharp pieces whose poses spread them over about a unit. (Rounded pieces
 * and rounded bodies beside compounds wait for the compound module's boxes to include the
 * rounding: its tree prunes a rounded piece by its core's box.) */
static void random_compound(hd_rng *rng, body *b)
{
    b->pieces = 2 + hd_rng_int(rng, 2);
    const hd_polytope *pieces[T_MAX_PIECES];
    for (int i = 0; i < b->pieces; ++i) {
        b->shape[i] = 2 * hd_rng_int(rng, 2); /* shapes 0 and 2: sharp */
        b->piece_pose[i] = random_pose(rng, 1.0);
        pieces[i] = t_shapes[b->shape[i]];
    }
    assert_int_equal(hd_compound_build(pieces, b->piece_pose, b->pieces, &b->compound), HD_OK);
}

static void random_model(hd_rng *rng, model *m, double world, int compounds)
{
    memset(m, 0, sizeof *m);
    m->count = T_BODIES;
    for (int i = 0; i < T_BODIES; ++i) {
        body *b = &m->b[i];
        b->filter = hd_scene_filter_default();
        if (compounds && hd_rng_int(rng, 2) == 0) {
            random_compound(rng, b);
        } else { /* with compounds, sharp shapes only (random_compound) */
            b->shape[0] = compounds ? 2 * hd_rng_int(rng, 2) : hd_rng_int(rng, T_SHAPES);
        }
        b->pose = random_pose(rng, world);
    }
}

static void free_model(model *m)
{
    for (int i = 0; i < m->count; ++i) {
        hd_compound_destroy(m->b[i].compound);
    }
}

static hd_scene *make_scene(const model *m, const hd_scene_options *o)
{
    hd_scene *s = NULL;
    assert_int_equal(hd_scene_create(o, &s), HD_OK);
    for (int i = 0; i < m->count; ++i) {
        const body *b = &m->b[i];
        int id = -1;
        hd_status st = b->compound != NULL
                           ? hd_scene_add_compound(s, b->compound, &b->pose, NULL, &id)
                           : hd_scene_add(s, t_shapes[b->shape[0]], &b->pose, NULL, &id);
        assert_int_equal(st, HD_OK);
        assert_int_equal(id, i);
        assert_int_equal(hd_scene_set_filter(s, id, &b->filter), HD_OK);
    }
    return s;
}

static int filter_lets(const hd_scene_filter *a, const hd_scene_filter *b)
{
    if (a->group != 0 && a->group == b->group) {
        return 0;
    }
    return (a->category & b->mask) != 0 && (b->category & a->mask) != 0;
}

/* The pieces a contact names are the body's (or -1 for a plain body) and in contact. */
static void check_pieces(const model *m, const hd_scene_contact *c, double band)
{
    const body *a = &m->b[c->a], *b = &m->b[c->b];
    int pa = c->piece_a, pb = c->piece_b;
    assert_true(a->pieces == 0 ? pa == -1 : pa >= 0 && pa < a->pieces);
    assert_true(b->pieces == 0 ? pb == -1 : pb >= 0 && pb < b->pieces);
    double d = brute_pieces(a, pa < 0 ? 0 : pa, b, pb < 0 ? 0 : pb);
    if (c->contact != NULL) { /* the pair of the signed distance */
        assert_true(fabs(d - c->contact->signed_distance) <= 1e-9);
    } else {
        assert_true(d <= band);
    }
    if (c->manifold == NULL) {
        assert_null(c->point_pieces);
        return;
    }
    assert_true((c->point_pieces != NULL) == (a->pieces > 0 || b->pieces > 0));
    for (int i = 0; c->point_pieces != NULL && i < c->manifold->count; ++i) {
        int qa = c->point_pieces[2 * i], qb = c->point_pieces[2 * i + 1];
        assert_true(a->pieces == 0 ? qa == -1 : qa >= 0 && qa < a->pieces);
        assert_true(b->pieces == 0 ? qb == -1 : qb >= 0 && qb < b->pieces);
        assert_true(brute_pieces(a, qa < 0 ? 0 : qa, b, qb < 0 ? 0 : qb) <= band);
    }
}

/* The step's contacts against the brute force over every pair: those closer than the proximity
 * d (0: in contact). */
static void check_step(const model *m, double d, const hd_scene_contact *c, int count)
{
    const double band = 1e-9; /* the shapes' size is about 1 */
    int k = 0;
    for (int a = 0; a < m->count; ++a) {
        for (int b = a + 1; b < m->count; ++b) {
            int listed = k < count && c[k].a == a && c[k].b == b;
            int lets = filter_lets(&m->b[a].filter, &m->b[b].filter);
            double delta = lets ? brute_bodies(&m->b[a], &m->b[b]) : INFINITY;
            const hd_scene_contact *hit = listed ? &c[k++] : NULL;
            if (fabs(delta) <= band || fabs(delta - d) <= band) {
                continue; /* touching by the band, or at the proximity: either answer is right */
            }
            if (listed != (delta < d)) {
                hd_signed_distance_result sd;
                hd_pose wa = world_piece(&m->b[a], 0), wb = world_piece(&m->b[b], 0);
                hd_signed_distance(t_shapes[m->b[a].shape[0]], &wa, t_shapes[m->b[b].shape[0]], &wb,
                                   NULL, &sd);
                printf("seed %llu: pair (%d, %d) brute %.17g listed %d shapes %d %d (%d %d) "
                       "first pieces' signed distance %.17g\n",
                       (unsigned long long)t_seed, a, b, delta, listed, m->b[a].shape[0],
                       m->b[b].shape[0], m->b[a].pieces, m->b[b].pieces, sd.signed_distance);
                fail();
            }
            if (hit == NULL) {
                continue;
            }
            assert_int_equal(hit->verdict, delta < 0.0 ? HD_INTERSECTING : HD_SEPARATED);
            assert_true(hit->toi == 1.0);
            if (hit->contact != NULL) {
                assert_true(fabs(hit->contact->signed_distance - delta) <= 1e-9);
            }
            check_pieces(m, hit, band);
        }
    }
    assert_int_equal(k, count); /* every contact is a pair, in order */
}

/* The same contacts to the bit: ids, verdicts, pieces, times of impact, signed distances. */
static void assert_same(const hd_scene_contact *x, int nx, const hd_scene_contact *y, int ny)
{
    assert_int_equal(nx, ny);
    for (int i = 0; i < nx; ++i) {
        assert_int_equal(x[i].a, y[i].a);
        assert_int_equal(x[i].b, y[i].b);
        assert_int_equal(x[i].verdict, y[i].verdict);
        assert_int_equal(x[i].piece_a, y[i].piece_a);
        assert_int_equal(x[i].piece_b, y[i].piece_b);
        assert_memory_equal(&x[i].toi, &y[i].toi, sizeof x[i].toi);
        if (x[i].contact != NULL) {
            assert_memory_equal(&x[i].contact->signed_distance, &y[i].contact->signed_distance,
                                sizeof(double));
        }
    }
}

/* Scenes of plain, rounded and compound bodies, each judged at every detail level (and some with
 * a proximity of 0.2), moved three times; the first bodies share a group. Two thread counts
 * agree to the bit, and both broad phases without a proximity. */
static void test_bodies_brute(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, t_seed + 1);
    int judged = 0;
    for (int round = 0; round < 8; ++round) {
        model m;
        random_model(&rng, &m, 4.0, round % 2);
        m.b[0].filter.group = m.b[1].filter.group = 7;
        hd_scene_options o = hd_scene_options_default();
        o.detail = (hd_scene_detail)(round % HD_SCENE_DETAIL_COUNT);
        o.proximity = round % 4 == 3 ? 0.2 : 0.0;
        o.threads = 1;
        hd_scene *s1 = make_scene(&m, &o);
        o.threads = 2;
        /* with a proximity, a separated pair's distance is warm-started from its cache, whose
         * history differs with the broad phase (a fattened box keeps a pair that sweep-and-prune
         * drops and adds again cold): the same broad phase, to the bit */
        o.broadphase = o.proximity > 0.0 ? HD_BROADPHASE_TREE : HD_BROADPHASE_SAP;
        hd_scene *s2 = make_scene(&m, &o);
        for (int frame = 0; frame < 3; ++frame) {
            const hd_scene_contact *c1, *c2;
            int n1 = 0, n2 = 0;
            assert_int_equal(hd_scene_step(s1, &c1, &n1, NULL), HD_OK);
            assert_int_equal(hd_scene_step(s2, &c2, &n2, NULL), HD_OK);
            check_step(&m, o.proximity, c1, n1);
            assert_same(c1, n1, c2, n2);
            judged += n1;
            for (int i = 0; i < m.count; i += 2) {
                m.b[i].pose = random_pose(&rng, 4.0);
                assert_int_equal(hd_scene_move(s1, i, &m.b[i].pose), HD_OK);
                assert_int_equal(hd_scene_move(s2, i, &m.b[i].pose), HD_OK);
            }
        }
        hd_scene_destroy(s1);
        hd_scene_destroy(s2);
        free_model(&m);
    }
    printf("scene_bodies: %d contacts judged (seed %llu)\n", judged, (unsigned long long)t_seed);
    assert_true(judged > 20);
}

/* Closed form: two unit cubes at x = +-2 as one compound, a cube of half side h at the origin:
 * its distance to each cube is 1 - h. h = 1.25 intersects both by 0.25 (the deepest pair
 * either), h = 0.5 neither. */
static void test_compound_closed_form(void **state)
{
    (void)state;
    hd_polytope *cube = NULL, *big = NULL, *small = NULL;
    double half[3] = {1, 1, 1}, big_half[3] = {1.25, 1.25, 1.25}, small_half[3] = {0.5, 0.5, 0.5};
    assert_int_equal(hd_shape_box(half, 0.0, NULL, &cube), HD_OK);
    assert_int_equal(hd_shape_box(big_half, 0.0, NULL, &big), HD_OK);
    assert_int_equal(hd_shape_box(small_half, 0.0, NULL, &small), HD_OK);
    const hd_polytope *pieces[2] = {cube, cube};
    hd_pose poses[2] = {hd_test_translation(-2, 0, 0), hd_test_translation(2, 0, 0)};
    hd_compound *pair = NULL;
    assert_int_equal(hd_compound_build(pieces, poses, 2, &pair), HD_OK);
    hd_scene_options o = hd_scene_options_default();
    o.detail = HD_SCENE_MANIFOLD;
    hd_scene *s = NULL;
    assert_int_equal(hd_scene_create(&o, &s), HD_OK);
    int c_id = -1, big_id = -1, small_id = -1;
    assert_int_equal(hd_scene_add_compound(s, pair, NULL, NULL, &c_id), HD_OK);
    const hd_scene_contact *c;
    int n = -1;
    assert_int_equal(hd_scene_step(s, &c, &n, NULL), HD_OK);
    assert_int_equal(n, 0); /* never the pieces of one body with each other */
    assert_int_equal(hd_scene_add(s, big, NULL, NULL, &big_id), HD_OK);
    hd_pose far = hd_test_translation(0, 10, 0);
    assert_int_equal(hd_scene_add(s, small, &far, NULL, &small_id), HD_OK);
    assert_int_equal(hd_scene_step(s, &c, &n, NULL), HD_OK);
    assert_int_equal(n, 1);
    assert_int_equal(c[0].a, c_id);
    assert_int_equal(c[0].b, big_id);
    assert_int_equal(c[0].verdict, HD_INTERSECTING);
    assert_true(c[0].piece_a == 0 || c[0].piece_a == 1);
    assert_int_equal(c[0].piece_b, -1);
    assert_true(fabs(c[0].contact->signed_distance - (1.0 - 1.25)) <= 1e-12);
    assert_non_null(c[0].point_pieces);
    assert_true(c[0].manifold->count >= 1);
    hd_pose origin = hd_pose_identity();
    assert_int_equal(hd_scene_move(s, small_id, &origin), HD_OK);
    assert_int_equal(hd_scene_remove(s, big_id), HD_OK);
    assert_int_equal(hd_scene_step(s, &c, &n, NULL), HD_OK);
    assert_int_equal(n, 0); /* 1 - 0.5 apart from both cubes */
    const hd_compound *back = NULL;
    assert_int_equal(hd_scene_body_compound(s, c_id, &back), HD_OK);
    assert_ptr_equal(back, pair);
    assert_int_equal(hd_scene_body_compound(s, small_id, &back), HD_OK);
    assert_null(back);
    /* the small cube at x = 2.5 overlaps the piece at x = 2 (and the other small cube, at the
     * origin, is 2 away): one body, intersecting */
    hd_pose probe = hd_test_translation(2.5, 0, 0);
    int ids[4];
    hd_verdict verdicts[4];
    assert_int_equal(hd_scene_query_polytope(s, small, &probe, ids, verdicts, 4, &n), HD_OK);
    assert_int_equal(n, 1);
    assert_int_equal(ids[0], c_id);
    assert_int_equal(verdicts[0], HD_INTERSECTING);
    /* a ray along x from far away enters the cube at x = 3 first */
    double ro[3] = {10, 0, 0}, rd[3] = {-1, 0, 0};
    hd_scene_ray_hit hit;
    int hits = 0;
    assert_int_equal(hd_scene_raycast(s, ro, rd, HUGE_VAL, false, &hit, 1, &hits), HD_OK);
    assert_int_equal(hits, 1);
    assert_int_equal(hit.id, c_id);
    assert_true(fabs(hit.ray.t - 7.0) <= 1e-12);
    hd_scene_destroy(s);
    hd_compound_destroy(pair);
    hd_polytope_destroy(cube);
    hd_polytope_destroy(big);
    hd_polytope_destroy(small);
}

/* A plate [-5, 5]^2 x [-0.01, 0.01] and a cube of half side 0.05 at z = 5 falling by 10 per
 * frame: at both ends of the frame it is far from the plate; the continuous step catches the
 * impact at t = (5 - 0.05 - 0.01) / 10, and the plain step does not. */
static void test_tunnel(void **state)
{
    (void)state;
    hd_polytope *plate = NULL, *bullet = NULL;
    double ph[3] = {5, 5, 0.01}, bh[3] = {0.05, 0.05, 0.05};
    assert_int_equal(hd_shape_box(ph, 0.0, NULL, &plate), HD_OK);
    assert_int_equal(hd_shape_box(bh, 0.0, NULL, &bullet), HD_OK);
    for (int sweep = 0; sweep < 2; ++sweep) {
        hd_scene_options o = hd_scene_options_default();
        o.sweep_threshold = sweep ? 0.1 : HUGE_VAL;
        o.detail = HD_SCENE_DEPTH;
        hd_scene *s = NULL;
        assert_int_equal(hd_scene_create(&o, &s), HD_OK);
        int p = -1, b = -1;
        hd_pose top = hd_test_translation(0.3, -0.2, 5);
        assert_int_equal(hd_scene_add(s, plate, NULL, NULL, &p), HD_OK);
        assert_int_equal(hd_scene_add(s, bullet, &top, NULL, &b), HD_OK);
        double v[3] = {0, 0, -10}, w[3] = {0, 0, 0};
        assert_int_equal(hd_scene_set_velocity(s, b, v, w), HD_OK);
        const hd_scene_contact *c;
        int n = -1;
        hd_scene_stats st;
        assert_int_equal(hd_scene_step(s, &c, &n, &st), HD_OK);
        assert_int_equal(st.swept, sweep); /* the one pair, given to hd_toi */
        if (!sweep) {
            assert_int_equal(n, 0);
        } else {
            assert_int_equal(n, 1);
            assert_int_equal(c[0].verdict, HD_TOUCHING);
            double expect = (5.0 - 0.05 - 0.01) / 10.0;
            assert_true(fabs(c[0].toi - expect) <= 1e-8);
            assert_true(fabs(c[0].contact->normal[2]) > 0.999);
        }
        hd_scene_destroy(s);
    }
    hd_polytope_destroy(plate);
    hd_polytope_destroy(bullet);
}

/* The brute force of the continuous step for one pair: in contact at the start -> toi 0 (1 when
 * neither moves: not a swept pair); else the
 * least hd_toi over the pairs of pieces, each moving with its body's twist about the body's
 * frame origin. Returns 1 and *toi when they meet over the frame. */
static int brute_toi(const body *a, const double *va, const body *b, const double *vb, double *toi)
{
    int moving = 0;
    for (int k = 0; k < 6; ++k) {
        moving |= va[k] != 0.0 || vb[k] != 0.0;
    }
    if (brute_bodies(a, b) < -1e-9) {
        *toi = moving ? 0.0 : 1.0; /* a pair of bodies at rest is not swept */
        return 1;
    }
    int found = 0;
    for (int i = 0; i < count_of(a); ++i) {
        for (int j = 0; j < count_of(b); ++j) {
            hd_motion ma = {world_piece(a, i),
                            {va[0], va[1], va[2]},
                            {va[3], va[4], va[5]},
                            {a->pose.t[0], a->pose.t[1], a->pose.t[2]}};
            hd_motion mb = {world_piece(b, j),
                            {vb[0], vb[1], vb[2]},
                            {vb[3], vb[4], vb[5]},
                            {b->pose.t[0], b->pose.t[1], b->pose.t[2]}};
            hd_toi_result r;
            assert_int_equal(
                hd_toi(t_shapes[a->shape[i]], &ma, t_shapes[b->shape[j]], &mb, NULL, &r), HD_OK);
            if (r.hit && (!found || r.toi < *toi)) {
                *toi = r.toi;
                found = 1;
            }
        }
    }
    return found;
}

/* Random moving scenes (twists up to several body sizes and a turn per frame): the listed pairs
 * and their times of impact are those of the pair-by-pair brute force, on 1 and 2 threads (the
 * tree, and sweep-and-prune on every other round). */
static void test_continuous_brute(void **state)
{
    (void)state;
    hd_rng rng;
    hd_rng_init(&rng, t_seed + 2);
    int hits = 0;
    for (int round = 0; round < 4; ++round) {
        model m;
        random_model(&rng, &m, 8.0, round % 2);
        double vel[T_BODIES][6];
        hd_scene_options o = hd_scene_options_default();
        o.threads = 1;
        hd_scene *s1 = make_scene(&m, &o);
        o.threads = 2;
        o.broadphase = round % 2 ? HD_BROADPHASE_SAP : HD_BROADPHASE_TREE;
        hd_scene *s2 = make_scene(&m, &o);
        for (int i = 0; i < m.count; ++i) {
            for (int k = 0; k < 6; ++k) {
                vel[i][k] = i % 3 == 0 ? 0.0 : hd_rng_uniform(&rng, k < 3 ? -4.0 : -3.0, 3.0);
            }
            assert_int_equal(hd_scene_set_velocity(s1, i, vel[i], vel[i] + 3), HD_OK);
            assert_int_equal(hd_scene_set_velocity(s2, i, vel[i], vel[i] + 3), HD_OK);
        }
        const hd_scene_contact *c1, *c2;
        int n1 = 0, n2 = 0;
        assert_int_equal(hd_scene_step(s1, &c1, &n1, NULL), HD_OK);
        assert_int_equal(hd_scene_step(s2, &c2, &n2, NULL), HD_OK);
        assert_same(c1, n1, c2, n2);
        int k = 0;
        for (int a = 0; a < m.count; ++a) {
            for (int b = a + 1; b < m.count; ++b) {
                double toi = 1.0;
                int expect = brute_toi(&m.b[a], vel[a], &m.b[b], vel[b], &toi);
                int listed = k < n1 && c1[k].a == a && c1[k].b == b;
                if (listed != expect && fabs(brute_bodies(&m.b[a], &m.b[b])) > 1e-9) {
                    printf("seed %llu: pair (%d, %d) listed %d, brute toi %d %.17g\n",
                           (unsigned long long)t_seed, a, b, listed, expect, toi);
                    fail();
                }
                if (listed && expect) {
                    if (!(fabs(c1[k].toi - toi) <= 1e-8)) {
                        printf("seed %llu: pair (%d, %d) toi %.17g, brute %.17g (pieces %d %d) "
                               "at rest %.17g\n",
                               (unsigned long long)t_seed, a, b, c1[k].toi, toi, m.b[a].pieces,
                               m.b[b].pieces, brute_bodies(&m.b[a], &m.b[b]));
                        fail();
                    }
                    hits += toi > 0.0;
                }
                k += listed;
            }
        }
        assert_int_equal(k, n1);
        hd_scene_destroy(s1);
        hd_scene_destroy(s2);
        free_model(&m);
    }
    printf("scene_bodies: %d impacts within the frame (seed %llu)\n", hits,
           (unsigned long long)t_seed);
    assert_true(hits > 5);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    hd_scene *s = NULL;
    assert_int_equal(hd_scene_create(NULL, &s), HD_OK);
    int id = 5;
    assert_int_equal(hd_scene_add_compound(s, NULL, NULL, NULL, &id), HD_ERR_NULL);
    assert_int_equal(id, -1);
    assert_int_equal(hd_scene_add(s, t_shapes[0], NULL, NULL, &id), HD_OK);
    double v[3] = {0, 0, 0}, bad[3] = {0, NAN, 0};
    assert_int_equal(hd_scene_set_velocity(s, id, v, bad), HD_ERR_NONFINITE);
    assert_int_equal(hd_scene_set_velocity(s, id + 1, v, v), HD_ERR_INVALID_ARG);
    assert_int_equal(hd_scene_set_velocity(s, id, NULL, v), HD_ERR_NULL);
    const hd_compound *c = NULL;
    assert_int_equal(hd_scene_body_compound(s, -1, &c), HD_ERR_INVALID_ARG);
    hd_scene_destroy(s);
    hd_scene_options o = hd_scene_options_default();
    o.sweep_threshold = -1.0;
    assert_int_equal(hd_scene_create(&o, &s), HD_ERR_INVALID_ARG);
    o.sweep_threshold = NAN;
    assert_int_equal(hd_scene_create(&o, &s), HD_ERR_INVALID_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bodies_brute),  cmocka_unit_test(test_compound_closed_form),
        cmocka_unit_test(test_tunnel),        cmocka_unit_test(test_continuous_brute),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
