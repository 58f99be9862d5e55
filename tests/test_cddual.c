/* CD-Dual (hd_collide with HD_ALGO_CDDUAL): verdicts against the exact GLPK oracle and the
 * long-double brute force, certificates through hd_certificate_check, and the optimum of the
 * search against a brute-force enumeration of the candidate face planes of M = A - B
 * (tests/support/mdiff.h: the largest dual distance over all FV, VF and EE planes, Theorem 6),
 * on thousands of random pairs of several families; the appendix's degenerate cases (parallel
 * edges and faces, aligned boxes, coincident features), nested and identical polytopes, lower
 * dimensions (polygons, segments, points) and their fallback; scale invariance; the workspace
 * (capacity, path), the iteration cap; frame coherence (cold vs warm faces visited). */
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
#include "mdiff.h"
#include "oracle.h"
#include "testutil.h"

#define MAXV 256

static hd_rng rng;

/* The search's optimum must match the brute force's to this relative precision in psi (the
 * objective, ~1 near contact): both are computed from the same planes, in double and long double. */
#define PSI_REL 1e-8

typedef struct tally {
    int queries;
    int verdict[3];
    int early;      /* stop = HD_STOP_EARLY_EXIT */
    int refined;    /* stop = HD_STOP_REFINED */
    int fallback;   /* stop = HD_STOP_FALLBACK */
    int optimum;    /* optimum checked against the brute force */
    int oracle;     /* verdict checked against the exact oracle */
    int kind[4];    /* face kind of the optimum */
    int ties;       /* optimum attained by several candidate planes */
    int all_oracle; /* every verdict to the exact oracle */
} tally;

static void tally_print(const char *name, const tally *t)
{
    printf("%s: %d queries: %d separated, %d touching, %d intersecting; stop early %d, refined %d, "
           "fallback %d; optimum checked %d (FV %d, VF %d, EE %d, ties %d), oracle %d\n",
           name, t->queries, t->verdict[0], t->verdict[1], t->verdict[2], t->early, t->refined,
           t->fallback, t->optimum, t->kind[1], t->kind[2], t->kind[3], t->ties, t->oracle);
}

static hd_options cddual_options(hd_workspace *ws, hd_cache *cache)
{
    hd_options opt = hd_options_default();
    opt.algo = HD_ALGO_CDDUAL;
    opt.workspace = ws;
    opt.cache = cache;
    return opt;
}

/* psi of a plane with world normal n (any length) for the ray from c along r, with h by brute
 * force over the world vertices; -inf when the plane does not have c strictly inside. */
static long double plane_psi(const double *wa, int na, const double *wb, int nb, const double n[3],
                             const double c[3], const double r[3])
{
    long double len = sqrtl((long double)n[0] * n[0] + (long double)n[1] * n[1] +
                            (long double)n[2] * n[2]);
    double u[3] = {(double)(n[0] / len), (double)(n[1] / len), (double)(n[2] / len)};
    double neg[3] = {-u[0], -u[1], -u[2]};
    long double h = (long double)hd_brute_support_value(wa, na, u, NULL) +
                    (long double)hd_brute_support_value(wb, nb, neg, NULL);
    long double den = h - ((long double)u[0] * c[0] + (long double)u[1] * c[1] +
                           (long double)u[2] * c[2]);
    if (!(den > 0)) {
        return -INFINITY;
    }
    return ((long double)u[0] * r[0] + (long double)u[1] * r[1] + (long double)u[2] * r[2]) / den;
}

static void world_dir(const hd_pose *p, const double d[3], double out[3])
{
    if (p == NULL) {
        memcpy(out, d, 3 * sizeof(double));
        return;
    }
    for (int i = 0; i < 3; ++i) {
        out[i] = p->r[3 * i] * d[0] + p->r[3 * i + 1] * d[1] + p->r[3 * i + 2] * d[2];
    }
}

/* psi of the face the result reports (its features), the better of the two signs for EE. */
static long double reported_psi(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                                const hd_pose *pb, const double *wa, int na, const double *wb,
                                int nb, const hd_collide_result *res, const double c[3], const double r[3])
{
    double n[3], off, w[3];
    const int *loop;
    switch (res->cddual.kind) {
    case HD_FACE_FV:
        hd_polytope_face(a, res->cddual.feature_a, n, &off, &loop);
        world_dir(pa, n, w);
        return plane_psi(wa, na, wb, nb, w, c, r);
    case HD_FACE_VF:
        hd_polytope_face(b, res->cddual.feature_b, n, &off, &loop);
        world_dir(pb, n, w);
        w[0] = -w[0];
        w[1] = -w[1];
        w[2] = -w[2];
        return plane_psi(wa, na, wb, nb, w, c, r);
    case HD_FACE_EE: {
        int va[2], vb[2], f[2];
        hd_polytope_edge(a, res->cddual.feature_a, va, f);
        hd_polytope_edge(b, res->cddual.feature_b, vb, f);
        double da[3], db[3];
        for (int i = 0; i < 3; ++i) {
            da[i] = wa[3 * va[1] + i] - wa[3 * va[0] + i];
            db[i] = wb[3 * vb[1] + i] - wb[3 * vb[0] + i];
        }
        w[0] = da[1] * db[2] - da[2] * db[1];
        w[1] = da[2] * db[0] - da[0] * db[2];
        w[2] = da[0] * db[1] - da[1] * db[0];
        long double p1 = plane_psi(wa, na, wb, nb, w, c, r);
        w[0] = -w[0];
        w[1] = -w[1];
        w[2] = -w[2];
        long double p2 = plane_psi(wa, na, wb, nb, w, c, r);
        return p1 > p2 ? p1 : p2;
    }
    default:
        return -INFINITY;
    }
}

/* The world vertices of a posed pair, for the brute force. */
typedef struct posed_pair {
    const hd_polytope *a, *b;
    const hd_pose *pa, *pb;
    int na, nb;
    double *wa, *wb;
} posed_pair;

static double comb_world(const hd_combination *c, const double *w, double p[3])
{
    double sum = 0.0;
    p[0] = p[1] = p[2] = 0.0;
    for (int k = 0; k < c->count; ++k) {
        for (int j = 0; j < 3; ++j) {
            p[j] += c->weight[k] * w[3 * c->index[k] + j];
        }
        sum += c->weight[k];
    }
    return sum;
}

static void print_certificate(const posed_pair *pp, const hd_collide_result *res)
{
    const hd_certificate *c = &res->cert;
    printf("certificate: plane %d gap %.17g, point %d depth %.17g, on_a %d on_b %d\n",
           c->has_plane, c->gap, c->has_point, c->depth_bound, c->on_a.count, c->on_b.count);
    double pa[3], pb[3], d[3], e[3];
    double sa = comb_world(&c->on_a, pp->wa, pa), sb = comb_world(&c->on_b, pp->wb, pb);
    for (int j = 0; j < 3; ++j) {
        d[j] = pa[j] - pb[j];
        e[j] = pa[j] - c->point[j];
    }
    printf("weights sum %.17g %.17g, |pa - pb| = %.3g, |pa - point| = %.3g\n", sa, sb,
           sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]));
}

/* The exact sign of delta and its magnitude for check_query's exact_sign == -2 (see there). */
static int decide_sign(const posed_pair *pp, const hd_mdiff *m, double eps, tally *t,
                       double *magnitude)
{
    double clear = 1e-6 * eps / HD_DEFAULT_TOUCH_REL; /* 1e-6 of the scale */
    double sat = m != NULL ? (double)hd_mdiff_sat(m) : 0.0;
    if (fabs(sat) > clear && t->queries % 8 != 0 && !t->all_oracle) {
        *magnitude = fabs(sat);
        return sat > 0 ? -1 : 1;
    }
    int sign = hd_oracle_sign(pp->wa, pp->na, pp->wb, pp->nb);
    assert_true(sign != -2);
    *magnitude = sign > 0 ? hd_brute_distance(pp->wa, pp->na, pp->wb, pp->nb, NULL, NULL)
                          : (sign < 0 ? hd_brute_sat(pp->wa, pp->na, pp->wb, pp->nb, NULL) : 0);
    t->oracle++;
    return sign;
}

/* The optimum (or, after an early exit, the separating face) against the brute-force planes of M:
 * the reported d and the reported face's own plane must both give the largest psi over all
 * candidate planes (Theorem 6), for one of the near-tied choices of c. */
static void check_optimum(const posed_pair *pp, const hd_mdiff *m, const hd_collide_result *res,
                          tally *t)
{
    double cs4[4][3];
    int nc = hd_mdiff_interior(pp->a, pp->pa, pp->b, pp->pb, cs4);
    int ok = 0;
    long double best = 0, psi_res = 0, psi_face = 0;
    for (int ci = 0; ci < nc && !ok; ++ci) {
        const double *c = cs4[ci];
        double r[3] = {-c[0], -c[1], -c[2]};
        best = hd_mdiff_exit(m, c, r, NULL);
        int ties = 0;
        for (int i = 0; i < m->count; ++i) {
            const double *n = m->n + 3 * i;
            long double den = m->h[i] - ((long double)n[0] * c[0] + (long double)n[1] * c[1] +
                                         (long double)n[2] * c[2]);
            long double psi =
                ((long double)n[0] * r[0] + (long double)n[1] * r[1] + (long double)n[2] * r[2]) /
                den;
            ties += den > 0 && fabsl(psi - best) <= 1e-12L * fabsl(best);
        }
        long double len = sqrtl((long double)c[0] * c[0] + (long double)c[1] * c[1] +
                                (long double)c[2] * c[2]);
        psi_res = 1.0L + (long double)res->cddual.dual_distance * len;
        psi_face = reported_psi(pp->a, pp->pa, pp->b, pp->pb, pp->wa, pp->na, pp->wb, pp->nb, res,
                                c, r);
        long double tol = PSI_REL * fabsl(best) + 1e-14L;
        if (res->stop == HD_STOP_EARLY_EXIT) {
            /* a face with positive dual distance, no better than the optimum */
            ok = res->cddual.dual_distance > 0.0 && psi_res <= best + tol &&
                 fabsl(psi_face - psi_res) <= tol;
        } else {
            ok = fabsl(psi_res - best) <= tol && fabsl(psi_face - best) <= tol;
            if (ok) {
                t->optimum++;
                t->kind[res->cddual.kind]++;
                t->ties += ties > 1;
            }
        }
    }
    if (!ok) {
        printf("optimum: psi result %.17Lg, face %.17Lg, brute force %.17Lg (stop %d kind %d "
               "features %d %d, %d choices of c)\n",
               psi_res, psi_face, best, res->stop, res->cddual.kind, res->cddual.feature_a, res->cddual.feature_b,
               nc);
        hd_test_dump_pair("cddual-opt", pp->wa, pp->na, NULL, pp->wb, pp->nb, NULL);
    }
    assert_true(ok);
}

/* One query checked every way we can. exact_sign: the sign of delta when the caller knows it
 * (analytic configurations, with its magnitude), -3 to skip the verdict check, or -2: decided
 * here, by the long-double separating-axis value of M's candidate planes when it is clear of the
 * band by far (it is the exact depth when overlapping and a lower bound of the distance when
 * separated), else (and for every 8th query) by the exact oracle with the brute-force distance. */
static void check_query(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                        const hd_pose *pb, const hd_options *opt, int exact_sign,
                        double magnitude, tally *t)
{
    hd_collide_result res;
    hd_status st = hd_collide(a, pa, b, pb, opt, &res);
    if (st != HD_OK) {
        printf("hd_collide: %s\n", hd_status_str(st));
    }
    assert_int_equal(st, HD_OK);
    t->queries++;
    t->verdict[res.verdict]++;
    t->early += res.stop == HD_STOP_EARLY_EXIT;
    t->refined += res.stop == HD_STOP_REFINED;
    t->fallback += res.stop == HD_STOP_FALLBACK;
    hd_status cs = hd_certificate_check(a, pa, b, pb, res.verdict, res.eps, &res.cert);
    posed_pair pp = {a, b, pa, pb, hd_polytope_vertex_count(a), hd_polytope_vertex_count(b),
                     NULL, NULL};
    pp.wa = malloc(3 * sizeof(double) * (size_t)(pp.na + pp.nb));
    assert_non_null(pp.wa);
    pp.wb = pp.wa + 3 * pp.na;
    hd_brute_posed_vertices(a, pa, pp.wa);
    hd_brute_posed_vertices(b, pb, pp.wb);
    int solid = hd_polytope_dimension(a) == 3 || hd_polytope_dimension(b) == 3;
    int brute = solid && res.stop != HD_STOP_FALLBACK && pp.na * pp.nb <= 4096;
    hd_mdiff m;
    if (brute) {
        assert_int_equal(hd_mdiff_build(&m, a, pa, b, pb), 0);
    }
    if (exact_sign == -2) {
        exact_sign = decide_sign(&pp, brute ? &m : NULL, res.eps, t, &magnitude);
    }
    int ok_verdict = exact_sign == -3 ||
                     hd_oracle_verdict_ok(exact_sign, magnitude, res.eps, 1.0, res.verdict);
    if (cs != HD_OK || !ok_verdict) {
        printf("verdict %s (stop %d) sign %d magnitude %.17g eps %g certificate %s\n",
               hd_verdict_str(res.verdict), res.stop, exact_sign, magnitude, res.eps,
               hd_status_str(cs));
        print_certificate(&pp, &res);
        hd_test_dump_pair("cddual", pp.wa, pp.na, NULL, pp.wb, pp.nb, NULL);
    }
    assert_int_equal(cs, HD_OK);
    assert_true(ok_verdict);
    if (brute) {
        check_optimum(&pp, &m, &res, t);
        hd_mdiff_free(&m);
    }
    free(pp.wa);
}

/* ---- random families ---- */

typedef enum family { FAM_ELLIPSOID, FAM_BOX, FAM_CLOUD, FAM_ELONGATED, FAM_COUNT } family;
static const char *const family_names[FAM_COUNT] = {"ellipsoid", "box", "cloud", "elongated"};

static int make_points(family f, double *xyz)
{
    switch (f) {
    case FAM_ELLIPSOID: {
        int n = 8 + hd_rng_int(&rng, 33);
        hd_points_ellipsoid(&rng, n, hd_rng_uniform(&rng, 0.5, 2), hd_rng_uniform(&rng, 0.5, 2),
                            hd_rng_uniform(&rng, 0.5, 2), xyz);
        return n;
    }
    case FAM_BOX: {
        double hi[3] = {hd_rng_uniform(&rng, 0.2, 2), hd_rng_uniform(&rng, 0.2, 2),
                        hd_rng_uniform(&rng, 0.2, 2)};
        double lo[3] = {-hi[0], -hi[1], -hi[2]};
        hd_points_box(lo, hi, xyz);
        return 8;
    }
    case FAM_CLOUD: {
        int n = 5 + hd_rng_int(&rng, 26);
        hd_points_cloud(&rng, n, 1, 1, 1, xyz);
        return n;
    }
    default: {
        int n = 10 + hd_rng_int(&rng, 31);
        if (hd_rng_int(&rng, 2)) {
            hd_points_ellipsoid(&rng, n, 10, 1, 1, xyz); /* needle */
        } else {
            hd_points_ellipsoid(&rng, n, 4, 4, 0.2, xyz); /* plate */
        }
        return n;
    }
    }
}

static double radius_of(const hd_polytope *p)
{
    double c[3], r;
    hd_polytope_sphere(p, c, &r);
    return r + sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
}

static void run_family(family f, int pairs, hd_workspace *ws)
{
    tally t;
    memset(&t, 0, sizeof t);
    double xa[3 * 64], xb[3 * 64];
    hd_cache cache = HD_CACHE_INIT;
    for (int i = 0; i < pairs; ++i) {
        int na = make_points(f, xa), nb = make_points(f, xb);
        hd_polytope *a = hd_test_build(xa, na), *b = hd_test_build(xb, nb);
        assert_non_null(a);
        assert_non_null(b);
        double dir[3], t3[3];
        hd_rng_unit_vector(&rng, dir);
        double reach = radius_of(a) + radius_of(b);
        double dist = hd_rng_uniform(&rng, 0.0, 1.2 * reach);
        for (int k = 0; k < 3; ++k) {
            t3[k] = dist * dir[k];
        }
        hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, t3);
        /* alternate: stack scratch / workspace, cold / (stale) cache */
        hd_options opt = cddual_options((i & 1) ? ws : NULL, (i & 2) ? &cache : NULL);
        check_query(a, &pa, b, &pb, &opt, -2, 0.0, &t);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    tally_print(family_names[f], &t);
    assert_int_equal(t.queries, pairs);
}

static void test_random_families(void **state)
{
    (void)state;
    hd_workspace *ws;
    assert_int_equal(hd_workspace_create(4096, &ws), HD_OK);
    for (int f = 0; f < FAM_COUNT; ++f) {
        run_family((family)f, 500, ws);
    }
    hd_workspace_destroy(ws);
}

/* Pairs placed at a controlled signed distance near contact: B is moved along a random direction
 * to where it leaves A (the end of the chord of M along that direction, brute force), then offset
 * by +-1e-6 .. 1e-2, so that many queries end close to the optimum with tiny gaps or depths. The
 * verdicts are checked against the exact oracle. */
static void test_near_contact(void **state)
{
    (void)state;
    tally t;
    memset(&t, 0, sizeof t);
    t.all_oracle = 1;
    double xa[3 * 64], xb[3 * 64];
    for (int i = 0; i < 300; ++i) {
        family f = (family)hd_rng_int(&rng, FAM_COUNT);
        int na = make_points(f, xa), nb = make_points(f, xb);
        hd_polytope *a = hd_test_build(xa, na), *b = hd_test_build(xb, nb);
        assert_non_null(a);
        assert_non_null(b);
        hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, NULL);
        /* B at the origin, moved by tau dir, touches A at the ends of the chord of M along dir
         * (M = A - B; a small cloud need not contain the origin, then the line may miss M) */
        hd_mdiff m;
        assert_int_equal(hd_mdiff_build(&m, a, &pa, b, &pb), 0);
        long double lo, hi;
        double dir[3];
        int tries = 0;
        do {
            hd_rng_unit_vector(&rng, dir);
        } while (!hd_mdiff_chord(&m, dir, &lo, &hi) && ++tries < 100);
        assert_true(tries < 100);
        hd_mdiff_free(&m);
        double off = pow(10.0, hd_rng_uniform(&rng, -6, -2)) * (hd_rng_int(&rng, 2) ? 1 : -1);
        for (int j = 0; j < 3; ++j) {
            pb.t[j] = (double)(hi + off) * dir[j];
        }
        hd_options opt = cddual_options(NULL, NULL);
        check_query(a, &pa, b, &pb, &opt, -2, 0.0, &t);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
    }
    tally_print("near contact", &t);
}

/* ---- degenerate configurations with analytic answers ---- */

static hd_polytope *box_poly(double hx, double hy, double hz)
{
    double lo[3] = {-hx, -hy, -hz}, hi[3] = {hx, hy, hz}, xyz[24];
    hd_points_box(lo, hi, xyz);
    hd_polytope *p = hd_test_build(xyz, 8);
    assert_non_null(p);
    return p;
}

/* Signed distance of two axis-aligned boxes (half sizes ha, hb, centre offset d). */
static double box_delta(const double ha[3], const double hb[3], const double d[3])
{
    double gap2 = 0.0, depth = HUGE_VAL;
    int apart = 0;
    for (int k = 0; k < 3; ++k) {
        double g = fabs(d[k]) - ha[k] - hb[k];
        if (g > 0) {
            apart = 1;
            gap2 += g * g;
        } else if (-g < depth) {
            depth = -g;
        }
    }
    return apart ? sqrt(gap2) : -depth;
}

/* Aligned boxes: every face of A is parallel to one of B (the appendix's case 3) and every edge
 * to edges and faces (case 2); offsets on a grid that hits exact face, edge and vertex contacts
 * (touching) and exact overlaps of coplanar faces. */
static void test_aligned_boxes(void **state)
{
    (void)state;
    tally t;
    memset(&t, 0, sizeof t);
    double ha[3] = {1.0, 0.75, 0.5}, hb[3] = {0.5, 0.5, 0.25};
    hd_polytope *a = box_poly(ha[0], ha[1], ha[2]), *b = box_poly(hb[0], hb[1], hb[2]);
    static const double steps[] = {0.0, 0.25, 0.5, 1.0, 1.25, 1.5, 1.75, 2.0};
    for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 8; ++j) {
            for (int k = 0; k < 8; ++k) {
                double d[3] = {steps[i], -steps[j], steps[k] * 0.5};
                hd_pose pb = hd_pose_identity();
                memcpy(pb.t, d, sizeof d);
                double delta = box_delta(ha, hb, d);
                int sign = delta > 0 ? 1 : (delta < 0 ? -1 : 0);
                hd_options opt = cddual_options(NULL, NULL);
                check_query(a, NULL, b, &pb, &opt, sign, fabs(delta), &t);
            }
        }
    }
    /* the same under a common random rotation: still parallel, no longer axis-aligned */
    for (int rep = 0; rep < 64; ++rep) {
        hd_pose pa = hd_rng_pose(&rng, NULL);
        double d[3] = {steps[hd_rng_int(&rng, 8)], steps[hd_rng_int(&rng, 8)],
                       steps[hd_rng_int(&rng, 8)] * 0.5};
        hd_pose pb = pa;
        world_dir(&pa, d, pb.t);
        double delta = box_delta(ha, hb, d);
        int sign = fabs(delta) < 1e-9 ? -3 : (delta > 0 ? 1 : -1); /* rotated: contact inexact */
        hd_options opt = cddual_options(NULL, NULL);
        check_query(a, &pa, b, &pb, &opt, sign, fabs(delta), &t);
    }
    tally_print("aligned boxes", &t);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* A cube turned 45 degrees about x rests on an edge parallel to the other cube's top face (case
 * 2); turned about x and then y it rests on a vertex; heights through contact. */
static void test_edge_on_face(void **state)
{
    (void)state;
    tally t;
    memset(&t, 0, sizeof t);
    hd_polytope *a = box_poly(1, 1, 1), *b = box_poly(0.5, 0.5, 0.5);
    double s = sqrt(0.5);
    double q_edge[4] = {cos(HD_PI / 8), sin(HD_PI / 8), 0, 0}; /* 45 degrees about x */
    double lift = 1.0 + 0.5 * sqrt(2.0);                       /* exact contact height */
    static const double offs[] = {-0.3, -1e-3, 0.0, 1e-3, 0.3};
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) {
            double t3[3] = {0.4 * (j - 2), 0.2, lift + offs[i]};
            hd_pose pb;
            assert_int_equal(hd_pose_from_quaternion(q_edge, t3, &pb), HD_OK);
            /* rounding of the rotation: the exact sign is the oracle's, not the nominal one */
            hd_options opt = cddual_options(NULL, NULL);
            check_query(a, NULL, b, &pb, &opt, -2, 0.0, &t);
        }
    }
    (void)s;
    /* vertex down: rotate so that a body diagonal is vertical */
    double axis[3] = {1, -1, 0}, ang = acos(1.0 / sqrt(3.0));
    double q_vert[4] = {cos(ang / 2), sin(ang / 2) * axis[0] / sqrt(2.0),
                        sin(ang / 2) * axis[1] / sqrt(2.0), 0};
    for (int i = 0; i < 5; ++i) {
        double t3[3] = {0.1, -0.2, 1.0 + 0.5 * sqrt(3.0) + offs[i]};
        hd_pose pb;
        assert_int_equal(hd_pose_from_quaternion(q_vert, t3, &pb), HD_OK);
        hd_options opt = cddual_options(NULL, NULL);
        check_query(a, NULL, b, &pb, &opt, -2, 0.0, &t);
    }
    /* edge crossing edge: both turned 45 degrees about perpendicular axes */
    double q_y[4] = {cos(HD_PI / 8), 0, sin(HD_PI / 8), 0};
    for (int i = 0; i < 5; ++i) {
        hd_pose pa, pb;
        double za[3] = {0, 0, 0}, tb[3] = {0, 0, (1.0 + 0.5) * sqrt(2.0) + offs[i]};
        assert_int_equal(hd_pose_from_quaternion(q_y, za, &pa), HD_OK);
        assert_int_equal(hd_pose_from_quaternion(q_edge, tb, &pb), HD_OK);
        hd_options opt = cddual_options(NULL, NULL);
        check_query(a, &pa, b, &pb, &opt, -2, 0.0, &t);
    }
    tally_print("edge/vertex on face", &t);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* Identical polytopes at the same pose (M symmetric about the origin, the two interior points
 * give c = 0 for two of the four pairs), a small polytope deep inside a big one and the reverse,
 * and coplanar neighbours: two boxes side by side sharing a face plane. */
static void test_nested_identical(void **state)
{
    (void)state;
    tally t;
    memset(&t, 0, sizeof t);
    double xyz[3 * 64];
    hd_points_ellipsoid(&rng, 40, 1, 1, 1, xyz);
    hd_polytope *e = hd_test_build(xyz, 40);
    hd_polytope *small = box_poly(0.1, 0.1, 0.1), *big = box_poly(3, 3, 3);
    assert_non_null(e);
    for (int rep = 0; rep < 20; ++rep) {
        hd_pose p = hd_rng_pose(&rng, NULL);
        hd_options opt = cddual_options(NULL, NULL);
        check_query(e, &p, e, &p, &opt, -2, 0.0, &t);
        check_query(small, &p, e, NULL, &opt, -2, 0.0, &t);
        check_query(e, NULL, small, &p, &opt, -2, 0.0, &t);
        check_query(big, NULL, e, &p, &opt, -2, 0.0, &t);
        check_query(e, &p, big, NULL, &opt, -2, 0.0, &t);
    }
    /* coplanar faces: side by side with tops, bottoms and fronts in common planes, then sliding
     * along the y = 1 plane (face against face, touching over an area) */
    hd_polytope *a = box_poly(1, 1, 1);
    static const double dx[] = {1.5, 2.0, 2.5};
    static const double dy[] = {0.0, 2.0};
    double one[3] = {1, 1, 1};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 2; ++j) {
            hd_pose pb = hd_pose_identity();
            pb.t[0] = dx[i];
            pb.t[1] = dy[j];
            double delta = box_delta(one, one, pb.t);
            hd_options opt = cddual_options(NULL, NULL);
            check_query(a, NULL, a, &pb, &opt, delta > 0 ? 1 : (delta < 0 ? -1 : 0), fabs(delta),
                        &t);
        }
    }
    tally_print("nested / identical / coplanar", &t);
    hd_polytope_destroy(e);
    hd_polytope_destroy(small);
    hd_polytope_destroy(big);
    hd_polytope_destroy(a);
}

/* Two coaxial prisms with 400-gon caps stacked cap to cap: the optimum is a face of M that is
 * the sum of two parallel 400-gons (case 3 with large faces). Its neighbours are found in time
 * linear in the caps' sizes (the candidates examined stay far below 400 x 400), at heights
 * through exact contact, and with B also turned about the common axis. */
static void test_stacked_prisms(void **state)
{
    (void)state;
    enum { N = 400 };
    double *xyz = malloc(3 * sizeof(double) * 2 * N);
    assert_non_null(xyz);
    hd_points_prism(N, 0.5, xyz);
    hd_polytope *a = hd_test_build(xyz, 2 * N);
    free(xyz);
    assert_non_null(a);
    assert_int_equal(hd_polytope_face_count(a), N + 2);
    hd_workspace *ws;
    assert_int_equal(hd_workspace_create(1 << 16, &ws), HD_OK);
    static const double heights[] = {0.5, 0.9, 0.999, 1.0, 1.001, 1.5};
    int most = 0;
    for (int i = 0; i < 6; ++i) {
        for (int turn = 0; turn < 2; ++turn) {
            double q[4] = {cos(0.3 * turn), 0, 0, sin(0.3 * turn)};
            double t3[3] = {0.05, -0.02, heights[i]};
            hd_pose pb;
            assert_int_equal(hd_pose_from_quaternion(q, t3, &pb), HD_OK);
            hd_options opt = cddual_options(ws, NULL);
            hd_collide_result res;
            assert_int_equal(hd_collide(a, NULL, a, &pb, &opt, &res), HD_OK);
            assert_int_equal(hd_certificate_check(a, NULL, a, &pb, res.verdict, res.eps, &res.cert), HD_OK);
            hd_verdict want = heights[i] < 1.0 ? HD_INTERSECTING
                                                : (heights[i] > 1.0 ? HD_SEPARATED : HD_TOUCHING);
            if (turn == 0 || heights[i] != 1.0) {
                assert_int_equal(res.verdict, want);
            }
            most = res.stats.iterations > most ? res.stats.iterations : most;
        }
    }
    printf("stacked prisms (caps of %d vertices): at most %d candidates examined per query\n", N,
           most);
    assert_true(most < 40 * N);
    hd_workspace_destroy(ws);
    hd_polytope_destroy(a);
}

/* ---- lower dimensions ---- */

static hd_polytope *flat_poly(int dim)
{
    double xyz[3 * 12];
    int n;
    if (dim == 0) {
        xyz[0] = 0.1;
        xyz[1] = -0.2;
        xyz[2] = 0.3;
        n = 1;
    } else if (dim == 1) {
        double p[6] = {-1.2, 0.1, 0.0, 0.9, -0.3, 0.2};
        memcpy(xyz, p, sizeof p);
        n = 2;
    } else {
        n = 7;
        for (int i = 0; i < n; ++i) {
            double ang = 2 * HD_PI * i / n + 0.1 * hd_rng_uniform(&rng, 0, 1);
            xyz[3 * i] = 1.1 * cos(ang);
            xyz[3 * i + 1] = 0.8 * sin(ang);
            xyz[3 * i + 2] = 0.0;
        }
    }
    hd_polytope *p = hd_test_build(xyz, n);
    assert_non_null(p);
    assert_int_equal(hd_polytope_dimension(p), dim);
    return p;
}

/* A polygon, a segment or a point against a solid, in both orders: CD-Dual proper (one solid is
 * enough for an interior point of M); two lower-dimensional polytopes: GJK fallback, said so. */
static void test_lower_dimensions(void **state)
{
    (void)state;
    tally t, tf;
    memset(&t, 0, sizeof t);
    memset(&tf, 0, sizeof tf);
    double xyz[3 * 64];
    hd_points_ellipsoid(&rng, 30, 1.0, 0.7, 0.5, xyz);
    hd_polytope *solid = hd_test_build(xyz, 30);
    hd_polytope *box = box_poly(0.6, 0.5, 0.4);
    assert_non_null(solid);
    for (int dim = 0; dim <= 2; ++dim) {
        hd_polytope *flat = flat_poly(dim);
        for (int i = 0; i < 150; ++i) {
            double dir[3], t3[3];
            hd_rng_unit_vector(&rng, dir);
            double dist = hd_rng_uniform(&rng, 0, 2.5);
            for (int k = 0; k < 3; ++k) {
                t3[k] = dist * dir[k];
            }
            hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, t3);
            const hd_polytope *s = (i & 4) ? box : solid;
            hd_options opt = cddual_options(NULL, NULL);
            check_query(flat, &pa, s, &pb, &opt, -2, 0.0, &t);
            check_query(s, &pa, flat, &pb, &opt, -2, 0.0, &t);
            /* aligned: polygon parallel to the box's faces */
            if (dim == 2 && (i & 4)) {
                check_query(flat, NULL, box, &pb, &opt, -2, 0.0, &t);
            }
        }
        for (int dim2 = 0; dim2 <= 2; ++dim2) {
            hd_polytope *other = flat_poly(dim2);
            for (int i = 0; i < 30; ++i) {
                double t3[3] = {hd_rng_uniform(&rng, -1, 1), hd_rng_uniform(&rng, -1, 1),
                                hd_rng_uniform(&rng, -1, 1)};
                hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, t3);
                hd_options opt = cddual_options(NULL, NULL);
                check_query(flat, &pa, other, &pb, &opt, -2, 0.0, &tf);
            }
            hd_polytope_destroy(other);
        }
        hd_polytope_destroy(flat);
    }
    tally_print("lower dimension vs solid", &t);
    tally_print("lower dimension vs lower dimension", &tf);
    assert_int_equal(t.fallback, 0);
    assert_int_equal(tf.fallback, tf.queries);
    hd_polytope_destroy(solid);
    hd_polytope_destroy(box);
}

/* ---- scale, workspace, path, cap ---- */

static hd_polytope *scaled_ellipsoid(double scale, uint64_t seed, int n)
{
    hd_rng r;
    hd_rng_init(&r, seed);
    double *xyz = malloc(3 * sizeof(double) * (size_t)n);
    assert_non_null(xyz);
    hd_points_ellipsoid(&r, n, 2 * scale, 1 * scale, 1 * scale, xyz);
    hd_polytope *p = hd_test_build(xyz, n);
    assert_non_null(p);
    free(xyz);
    return p;
}

/* The same configurations scaled by 1e-6 and 1e6 get the same verdict and the same optimal face
 * (every decision is relative to the scale). */
static void test_scale_invariance(void **state)
{
    (void)state;
    static const double scales[] = {1e-6, 1.0, 1e6};
    hd_polytope *a[3], *b[3];
    for (int s = 0; s < 3; ++s) {
        a[s] = scaled_ellipsoid(scales[s], 11, 60);
        b[s] = scaled_ellipsoid(scales[s], 12, 60);
    }
    int differ = 0;
    for (int i = 0; i < 200; ++i) {
        double dir[3];
        hd_rng_unit_vector(&rng, dir);
        double dist = hd_rng_uniform(&rng, 0, 5);
        hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, NULL);
        hd_collide_result res[3];
        for (int s = 0; s < 3; ++s) {
            for (int k = 0; k < 3; ++k) {
                pb.t[k] = dist * dir[k] * scales[s];
            }
            hd_options opt = cddual_options(NULL, NULL);
            assert_int_equal(hd_collide(a[s], &pa, b[s], &pb, &opt, &res[s]), HD_OK);
            assert_int_equal(hd_certificate_check(a[s], &pa, b[s], &pb, res[s].verdict, res[s].eps, &res[s].cert), HD_OK);
        }
        for (int s = 1; s < 3; ++s) {
            assert_int_equal(res[s].verdict, res[0].verdict);
            differ += res[s].cddual.kind != res[0].cddual.kind || res[s].cddual.feature_a != res[0].cddual.feature_a ||
                      res[s].stats.iterations != res[0].stats.iterations;
        }
    }
    printf("scale invariance: 200 configurations x 3 scales, %d differ in face or work\n", differ);
    assert_true(differ <= 4); /* rounding may tip an exact tie, never the verdict */
    for (int s = 0; s < 3; ++s) {
        hd_polytope_destroy(a[s]);
        hd_polytope_destroy(b[s]);
    }
}

/* Paths of cold queries on elongated pairs (many steps, the paper's hard case): SEARCH-FV's climb
 * comes first, then SEARCH-VF's, then SEARCH-EE's optima; each climb strictly increases d, each
 * SEARCH-EE step is above every step before it, and the largest d is the reported optimum. Some
 * of them must show all three phases at work. */
static void check_paths(hd_workspace *ws)
{
    double *xyz = malloc(3 * sizeof(double) * 300);
    assert_non_null(xyz);
    hd_points_ellipsoid(&rng, 300, 6, 1, 1, xyz);
    hd_polytope *a = hd_test_build(xyz, 300);
    hd_points_ellipsoid(&rng, 300, 6, 1, 1, xyz);
    hd_polytope *b = hd_test_build(xyz, 300);
    free(xyz);
    assert_non_null(a);
    assert_non_null(b);
    int full = 0, longest = 0;
    for (int i = 0; i < 200; ++i) {
        double dir[3], t3[3];
        hd_rng_unit_vector(&rng, dir);
        double dist = hd_rng_uniform(&rng, 0.5, 8);
        for (int k = 0; k < 3; ++k) {
            t3[k] = dist * dir[k];
        }
        hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, t3);
        hd_options opt = cddual_options(ws, NULL);
        opt.flags = HD_QUERY_RECORD_PATH;
        hd_collide_result res;
        assert_int_equal(hd_collide(a, &pa, b, &pb, &opt, &res), HD_OK);
        const hd_path_step *steps;
        int n = hd_workspace_path(ws, &steps);
        assert_true(n >= 1);
        assert_int_equal(steps[0].phase, 0);
        double best = -HUGE_VAL;
        int per_phase[3] = {0, 0, 0};
        for (int k = 0; k < n; ++k) {
            per_phase[steps[k].phase]++;
            if (k > 0) {
                assert_true(steps[k].phase >= steps[k - 1].phase);
                if (steps[k].phase == steps[k - 1].phase) {
                    assert_true(steps[k].dual_distance > steps[k - 1].dual_distance);
                }
            }
            if (steps[k].phase < 2) {
                assert_int_equal(steps[k].kind, steps[k].phase == 0 ? HD_FACE_FV : HD_FACE_VF);
            } else {
                assert_true(steps[k].dual_distance > best);
            }
            best = fmax(best, steps[k].dual_distance);
        }
        if (res.stop == HD_STOP_EARLY_EXIT) {
            /* the separating face, last; d as psi - 1 over |c| or by Eq. (1): rounding apart */
            assert_true(fabs(steps[n - 1].dual_distance - res.cddual.dual_distance) <=
                        1e-12 * fabs(res.cddual.dual_distance) + 1e-15);
        } else {
            assert_true(fabs(best - res.cddual.dual_distance) <= 1e-12 * fabs(best));
        }
        full += per_phase[0] >= 3 && per_phase[1] >= 2 && per_phase[2] >= 1;
        longest = n > longest ? n : longest;
    }
    printf("paths: 200 queries, %d with every phase at work, longest %d steps\n", full, longest);
    assert_true(full > 0);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

static void test_workspace(void **state)
{
    (void)state;
    hd_workspace *ws = NULL;
    assert_int_equal(hd_workspace_create(8, &ws), HD_ERR_INVALID_ARG);
    assert_null(ws);
    assert_int_equal(hd_workspace_create(16, NULL), HD_ERR_NULL);
    assert_int_equal(hd_workspace_path(NULL, NULL), 0);
    hd_workspace_destroy(NULL);
    hd_polytope *a = scaled_ellipsoid(100, 21, 1000), *b = scaled_ellipsoid(100, 22, 1000);
    hd_pose pb = hd_pose_identity();
    pb.t[0] = 150; /* deep overlap: SEARCH-EE needs more than 16 candidates */
    assert_int_equal(hd_workspace_create(16, &ws), HD_OK);
    hd_options opt = cddual_options(ws, NULL);
    hd_collide_result res;
    /* a workspace too small: GJK answers, and says so; hd_gap, which has no other method,
     * reports the lack of scratch */
    assert_int_equal(hd_collide(a, NULL, b, &pb, &opt, &res), HD_OK);
    assert_int_equal(res.stop, HD_STOP_FALLBACK);
    assert_int_equal(res.verdict, HD_INTERSECTING);
    assert_int_equal(hd_certificate_check(a, NULL, b, &pb, res.verdict, res.eps, &res.cert), HD_OK);
    assert_true(res.stats.visits_fv + res.stats.visits_vf + res.stats.visits_ee >= 16);
    hd_gap_result gap;
    static const double along_x[3] = {1, 0, 0};
    assert_int_equal(hd_gap(a, NULL, b, &pb, along_x, &opt, &gap), HD_ERR_WORKSPACE_FULL);
    hd_workspace_destroy(ws);
    /* the workspace hd_workspace_create_for makes: CD-Dual answers itself, within it */
    int capacity;
    assert_int_equal(hd_workspace_capacity_for(a, b, NULL, &capacity), HD_OK);
    assert_int_equal(capacity, 64 + 4 * (hd_polytope_vertex_count(a) + hd_polytope_vertex_count(b)) + 1);
    assert_int_equal(hd_workspace_create_for(a, b, NULL, &ws), HD_OK);
    assert_int_equal(hd_workspace_capacity(ws), capacity);
    opt = cddual_options(ws, NULL);
    assert_int_equal(hd_collide(a, NULL, b, &pb, &opt, &res), HD_OK);
    assert_int_not_equal(res.stop, HD_STOP_FALLBACK);
    assert_int_equal(res.verdict, HD_INTERSECTING);
    assert_int_equal(hd_gap(a, NULL, b, &pb, along_x, &opt, &gap), HD_OK);
    hd_workspace_destroy(ws);

    /* a big enough workspace, with the path recorded */
    assert_int_equal(hd_workspace_create(1 << 14, &ws), HD_OK);
    check_paths(ws);
    opt = cddual_options(ws, NULL);
    opt.flags = HD_QUERY_RECORD_PATH;
    assert_int_equal(hd_collide(a, NULL, b, &pb, &opt, &res), HD_OK);
    assert_int_equal(res.verdict, HD_INTERSECTING);
    assert_true(hd_workspace_path(ws, NULL) >= 1);
    /* the same query without recording, and without a workspace: same answer, no path */
    opt.flags = 0;
    hd_collide_result res2;
    assert_int_equal(hd_collide(a, NULL, b, &pb, &opt, &res2), HD_OK);
    assert_int_equal(hd_workspace_path(ws, NULL), 0);
    opt.workspace = NULL;
    hd_collide_result res3;
    assert_int_equal(hd_collide(a, NULL, b, &pb, &opt, &res3), HD_OK);
    assert_int_equal(res2.verdict, res.verdict);
    assert_int_equal(res3.verdict, res.verdict);
    assert_int_equal(res3.stats.iterations, res.stats.iterations);
    assert_true(res3.cddual.dual_distance == res.cddual.dual_distance);
    hd_workspace_destroy(ws);

    /* the iteration cap: an answer or HD_ERR_ITERATION_LIMIT, never a guess */
    opt = cddual_options(NULL, NULL);
    opt.tol.max_iterations = 3;
    assert_int_equal(hd_collide(a, NULL, b, &pb, &opt, &res), HD_ERR_ITERATION_LIMIT);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* ---- frame coherence (section 4.4) ---- */

/* A pair in smooth relative motion (B orbits A while spinning, passing in and out of contact):
 * the same queries cold and with the cache. The verdicts must agree; the faces visited are
 * reported (docs/algorithms/cddual.md) and the warm start must save work overall. */
static void test_coherence(void **state)
{
    (void)state;
    hd_polytope *a = scaled_ellipsoid(1, 31, 1000), *b = scaled_ellipsoid(1, 32, 1000);
    hd_cache cache = HD_CACHE_INIT;
    long cold = 0, warm = 0, cold_sep = 0, warm_sep = 0;
    int frames = 1000, separated = 0;
    for (int i = 0; i < frames; ++i) {
        double ang = 2 * HD_PI * i / frames;
        double q[4] = {cos(ang), 0.3 * sin(ang), 0.5 * sin(ang), 0.2};
        double rad = 3.0 + 1.2 * sin(5 * ang);
        double t3[3] = {rad * cos(ang), rad * sin(ang), 0.3 * sin(3 * ang)};
        hd_pose pb;
        assert_int_equal(hd_pose_from_quaternion(q, t3, &pb), HD_OK);
        hd_options oc = cddual_options(NULL, NULL), ow = cddual_options(NULL, &cache);
        hd_collide_result rc, rw;
        assert_int_equal(hd_collide(a, NULL, b, &pb, &oc, &rc), HD_OK);
        assert_int_equal(hd_collide(a, NULL, b, &pb, &ow, &rw), HD_OK);
        assert_int_equal(rc.verdict, rw.verdict);
        assert_int_equal(hd_certificate_check(a, NULL, b, &pb, rw.verdict, rw.eps, &rw.cert), HD_OK);
        cold += rc.stats.iterations;
        warm += rw.stats.iterations;
        if (rc.verdict == HD_SEPARATED) {
            separated++;
            cold_sep += rc.stats.iterations;
            warm_sep += rw.stats.iterations;
        }
    }
    printf("coherence: %d frames (%d separated): candidates examined per query cold %.1f, warm "
           "%.1f (separated frames: cold %.1f, warm %.1f; others: cold %.1f, warm %.1f)\n",
           frames, separated, (double)cold / frames, (double)warm / frames,
           (double)cold_sep / (separated ? separated : 1), (double)warm_sep / (separated ? separated : 1),
           (double)(cold - cold_sep) / (frames - separated ? frames - separated : 1),
           (double)(warm - warm_sep) / (frames - separated ? frames - separated : 1));
    assert_true(warm < cold);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

/* Large polytopes (the benchmark's 200:100:100 ellipsoids, n = 1000): CD-Dual against GJK's
 * verdict away from the band (GJK's distance decides how far from contact a pair is). */
static void test_large_vs_gjk(void **state)
{
    (void)state;
    hd_polytope *a, *b;
    hd_test_ellipsoid_pair(&rng, 1000, &a, &b);
    assert_non_null(a);
    assert_non_null(b);
    int checked = 0;
    for (int i = 0; i < 400; ++i) {
        double dir[3], t3[3];
        hd_rng_unit_vector(&rng, dir);
        double dist = hd_rng_uniform(&rng, 100, 450);
        for (int k = 0; k < 3; ++k) {
            t3[k] = dist * dir[k];
        }
        hd_pose pa = hd_rng_pose(&rng, NULL), pb = hd_rng_pose(&rng, t3);
        hd_options oc = cddual_options(NULL, NULL), og = hd_options_default();
        hd_collide_result rc;
        hd_distance_result rg;
        assert_int_equal(hd_collide(a, &pa, b, &pb, &oc, &rc), HD_OK);
        assert_int_equal(hd_certificate_check(a, &pa, b, &pb, rc.verdict, rc.eps, &rc.cert), HD_OK);
        assert_int_equal(hd_distance(a, &pa, b, &pb, &og, &rg), HD_OK);
        if (rg.verdict != HD_TOUCHING) {
            assert_int_equal(rc.verdict, rg.verdict);
            checked++;
        }
    }
    printf("large ellipsoids: %d of 400 verdicts compared with GJK\n", checked);
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

int main(void)
{
    hd_rng_init(&rng, hd_test_seed("test_cddual"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_families),
        cmocka_unit_test(test_near_contact),
        cmocka_unit_test(test_aligned_boxes),
        cmocka_unit_test(test_edge_on_face),
        cmocka_unit_test(test_nested_identical),
        cmocka_unit_test(test_stacked_prisms),
        cmocka_unit_test(test_lower_dimensions),
        cmocka_unit_test(test_scale_invariance),
        cmocka_unit_test(test_workspace),
        cmocka_unit_test(test_coherence),
        cmocka_unit_test(test_large_vs_gjk),
    };
    if (getenv("HEDRA_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("HEDRA_TEST_FILTER"));
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
