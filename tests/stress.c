/* hedra_stress: every query of the library on the needle families of the test support
 * (tests/support/families.h: a small shape against a long one; --cloud, a small cloud against a
 * long hull; --stack, stacked boxes; --twins, a hull against its slightly moved copy), optionally
 * moved far from the world origin, each answer checked against references that share no code
 * with the library:
 *   - sd:       hd_signed_distance against the long-double brute force (tests/support/brute.h):
 *               |delta - exact| <= 1e-9 size, the proven bounds hold the exact value to 1e-9 size
 *               (the brute-force distance itself is off by up to about 3e-12 of the size on
 *               needle triangles 1e9 times longer than wide, so a stricter test of the bounds
 *               would measure the reference), and for an overlap the normal's support gap
 *               h_M(n) - depth is at most 1e-9 size;
 *   - collide:  hd_collide with GJK (portal first, and GJK alone), CD-Dual and the LP method: the
 *               verdict is the brute force's wherever that lies outside the band, and
 *               hd_certificate_check accepts every certificate;
 *   - distance: hd_distance: the distance within 1e-9 size of the brute force's (0 when touching,
 *               the brute force then within the band), witnesses as far apart as the distance;
 *   - manifold: hd_contact_manifold: every point's separation between delta and the band;
 *   - gap:      hd_gap along a random direction against the exact chord of the line through
 *               M = A - B (tests/support/mdiff.h), within 1e-9 of the size, where the
 *               chord's ends lie outside four bands of 0.
 * A query that returns an error status on these valid inputs counts as failed; one whose answer
 * contradicts the reference counts as wrong. Each problem is printed with the pair's replay case,
 * {seed, index, far, family} as tests/support/families.h's hd_needle_case, ready to become a
 * regression test (pairs and gap directions are drawn by hd_needle_next, as hd_needle_replay
 * draws them again). The brute-force references take the vertices posed relative to A's
 * translation, in long double (the gap's chord: in the world frame, in long double): the answers
 * do not depend on a common translation, and far from the origin the world coordinates' rounding
 * in double (1e-10 at 1e6) would blur the reference more than the 1e-9 of the size it checks.
 *
 * usage: hedra_stress [--cloud | --stack | --twins] [--far X] [--seed S] [--count N] [--only I]
 *                     [--checks LIST] [--allow-failed]
 * --only I replays pair I of the sequence alone; the count defaults to 1000, or to I + 1 with it.
 * Exit status: 1 when an answer was wrong, or (without --allow-failed) a query failed; else 0.
 * Not a ctest suite (a seed of the cloud family takes minutes); ctest runs a short smoke of it.
 * docs/TESTING.md, "Stress runs", has the figures it gave. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute.h"
#include "families.h"
#include "hedra/hedra.h"
#include "mdiff.h"

#define ACCURACY 1e-9

enum { CHECK_SD, CHECK_COLLIDE, CHECK_DISTANCE, CHECK_MANIFOLD, CHECK_GAP, CHECKS };
static const char *const check_names[CHECKS] = {"sd", "collide", "distance", "manifold", "gap"};

typedef struct stress_options {
    hd_needle_case family; /* seed, far, family; index unused */
    int count;
    int only; /* -1: every pair */
    unsigned checks;
    int allow_failed;
} stress_options;

typedef struct tally {
    long checked, failed, wrong;
    double worst; /* largest error / size where the check measures one */
} tally;

/* One drawn pair with what every check shares. */
typedef struct stress_pair {
    hd_needle_case id;
    hd_polytope *a, *b;
    hd_pose pa, pb;
    double dir[3];
    double exact;                  /* brute-force signed distance */
    double size;                   /* diagonal of the box holding both posed vertex sets */
    double va[3 * 48], vb[3 * 48]; /* posed vertices */
    int na, nb;
    hd_signed_distance_result sd; /* hd_signed_distance's answer (status in sd_status) */
    hd_status sd_status;
} stress_pair;

static void report(const stress_pair *p, int check, const char *kind, const char *what)
{
    printf("%s %s: {%u, %d, %g, %d}: %s\n", check_names[check], kind, p->id.seed, p->id.index,
           p->id.far, p->id.family, what);
}

static void failed(tally *t, const stress_pair *p, int check, hd_status st, const char *query)
{
    char what[128];
    snprintf(what, sizeof what, "%s returned %s (exact signed distance %.17g)", query,
             hd_status_str(st), p->exact);
    report(p, check, "failed", what);
    t->failed++;
}

static void wrong(tally *t, const stress_pair *p, int check, const char *what)
{
    report(p, check, "WRONG", what);
    t->wrong++;
}

/* Whether a verdict contradicts the brute force (which is exact to far below the band). */
static int verdict_contradicts(hd_verdict v, double exact, double eps)
{
    double edge = eps + hd_test_band_fuzz(eps);
    return (exact > edge && v != HD_SEPARATED) || (exact < -edge && v != HD_INTERSECTING);
}

/* h_M(n) + delta by brute force (never negative: delta >= -h_M(n) for every unit n): for an
 * overlap, how far moving B by the depth along n is from making the pair touch (the normal's
 * contract: at most 1e-9 size). A separated pair's normal is the direction between the closest
 * points, whose rounding grows as the distance shrinks: it has no such contract. */
static double normal_gap(const stress_pair *p, const double n[3])
{
    double neg[3] = {-n[0], -n[1], -n[2]};
    double h = hd_brute_support_value(p->va, p->na, n, NULL) +
               hd_brute_support_value(p->vb, p->nb, neg, NULL);
    return h + p->exact;
}

static void check_sd(const stress_pair *p, tally *t)
{
    if (p->sd_status != HD_OK) {
        failed(t, p, CHECK_SD, p->sd_status, "hd_signed_distance");
        return;
    }
    const hd_signed_distance_result *c = &p->sd;
    double err = fabs(c->signed_distance - p->exact) / c->size;
    double slack = ACCURACY * c->size;
    char what[160];
    t->worst = fmax(t->worst, err);
    if (err > ACCURACY) {
        snprintf(what, sizeof what, "signed distance %.17g, exact %.17g", c->signed_distance,
                 p->exact);
        wrong(t, p, CHECK_SD, what);
    } else if (!((-c->upper) <= -p->exact + slack && -p->exact - slack <= (-c->lower))) {
        snprintf(what, sizeof what, "depth bounds [%.17g, %.17g] miss the exact %.17g",
                 (-c->upper), (-c->lower), -p->exact);
        wrong(t, p, CHECK_SD, what);
    } else if (p->exact < 0.0 && normal_gap(p, c->normal) > slack) {
        snprintf(what, sizeof what, "normal's support gap h_M(n) - depth = %.3g",
                 normal_gap(p, c->normal));
        wrong(t, p, CHECK_SD, what);
    }
}

static void collide_with(const stress_pair *p, hd_algo algo, unsigned flags, const char *name,
                         tally *t)
{
    hd_options opt = hd_options_default();
    opt.algo = algo;
    opt.flags = flags;
    hd_collide_result r;
    hd_status st = hd_collide(p->a, &p->pa, p->b, &p->pb, &opt, &r);
    if (st != HD_OK) {
        failed(t, p, CHECK_COLLIDE, st, name);
        return;
    }
    char what[160];
    if (verdict_contradicts(r.verdict, p->exact, r.eps)) {
        snprintf(what, sizeof what, "%s says %s, exact signed distance %.17g, eps %.3g", name,
                 hd_verdict_str(r.verdict), p->exact, r.eps);
        wrong(t, p, CHECK_COLLIDE, what);
    } else if (hd_certificate_check(p->a, &p->pa, p->b, &p->pb, r.verdict, r.eps, &r.cert) != HD_OK) {
        snprintf(what, sizeof what, "%s's certificate of %s rejected", name,
                 hd_verdict_str(r.verdict));
        wrong(t, p, CHECK_COLLIDE, what);
    }
}

static void check_collide(const stress_pair *p, tally *t)
{
    collide_with(p, HD_ALGO_GJK, 0, "hd_collide (GJK)", t);
    collide_with(p, HD_ALGO_GJK, HD_QUERY_NO_PORTAL, "hd_collide (GJK, no portal)", t);
    collide_with(p, HD_ALGO_CDDUAL, 0, "hd_collide (CD-Dual)", t);
    collide_with(p, HD_ALGO_LP, 0, "hd_collide (LP)", t);
}

static void check_distance(const stress_pair *p, tally *t)
{
    hd_options opt = hd_options_default();
    hd_distance_result r;
    hd_status st = hd_distance(p->a, &p->pa, p->b, &p->pb, &opt, &r);
    if (st != HD_OK) {
        failed(t, p, CHECK_DISTANCE, st, "hd_distance");
        return;
    }
    double want = fmax(p->exact, 0.0), slack = ACCURACY * p->size;
    double apart = hypot(hypot(r.witness_a[0] - r.witness_b[0], r.witness_a[1] - r.witness_b[1]),
                         r.witness_a[2] - r.witness_b[2]);
    char what[160];
    if (r.verdict == HD_TOUCHING) {
        /* the distance is 0 for a touching verdict: the exact value must lie in the band */
        if (!(r.distance == 0.0 && fabs(p->exact) <= r.eps + hd_test_band_fuzz(r.eps) + slack)) {
            snprintf(what, sizeof what, "touching with distance %.17g, exact %.17g, eps %.3g",
                     r.distance, p->exact, r.eps);
            wrong(t, p, CHECK_DISTANCE, what);
        }
        return;
    }
    t->worst = fmax(t->worst, fabs(r.distance - want) / p->size);
    if (fabs(r.distance - want) > slack || verdict_contradicts(r.verdict, p->exact, r.eps)) {
        snprintf(what, sizeof what, "%s at distance %.17g, exact signed distance %.17g",
                 hd_verdict_str(r.verdict), r.distance, p->exact);
        wrong(t, p, CHECK_DISTANCE, what);
    } else if (fabs(apart - r.distance) > r.eps) {
        snprintf(what, sizeof what, "witnesses %.17g apart at distance %.17g", apart, r.distance);
        wrong(t, p, CHECK_DISTANCE, what);
    }
}

static void check_manifold(const stress_pair *p, tally *t)
{
    hd_options opt = hd_options_default();
    hd_signed_distance_result c;
    hd_manifold m;
    hd_status st = hd_contact_manifold(p->a, &p->pa, p->b, &p->pb, &opt, &c, &m);
    if (st != HD_OK) {
        failed(t, p, CHECK_MANIFOLD, st, "hd_contact_manifold");
        return;
    }
    double slack = ACCURACY * p->size;
    for (int k = 0; k < m.count; ++k) {
        double s = m.points[k].separation;
        if (!(s >= p->exact - slack && s <= c.eps + slack)) {
            char what[160];
            snprintf(what, sizeof what, "point %d separated by %.17g, exact signed distance %.17g",
                     k, s, p->exact);
            wrong(t, p, CHECK_MANIFOLD, what);
            return;
        }
    }
}

static void check_gap(const stress_pair *p, tally *t)
{
    hd_options opt = hd_options_default();
    hd_gap_result g;
    hd_status st = hd_gap(p->a, &p->pa, p->b, &p->pb, p->dir, &opt, &g);
    if (st == HD_ERR_UNSUPPORTED) {
        return; /* M is flat: the gap is not defined */
    }
    if (st != HD_OK) {
        failed(t, p, CHECK_GAP, st, "hd_gap");
        return;
    }
    hd_mdiff m;
    if (hd_mdiff_build(&m, p->a, &p->pa, p->b, &p->pb) != 0) {
        return;
    }
    long double lo, hi;
    int meets = hd_mdiff_chord(&m, p->dir, &lo, &hi);
    hd_mdiff_free(&m);
    double band = 4 * p->sd.eps;
    if (!meets || p->sd_status != HD_OK || !g.contact || g.verdict == HD_TOUCHING ||
        fabsl(lo) <= band || fabsl(hi) <= band || fabsl(hi + lo) <= band) {
        return; /* chords whose ends lie within the band of 0 are only required to answer */
    }
    long double want = hd_mdiff_chord_travel(lo, hi);
    double err = (double)fabsl((long double)g.distance - want);
    t->worst = fmax(t->worst, err / p->size);
    if (err > ACCURACY * p->size) {
        char what[160];
        snprintf(what, sizeof what, "travel %.17g, exact %.17Lg (chord [%.6Lg, %.6Lg])", g.distance,
                 want, lo, hi);
        wrong(t, p, CHECK_GAP, what);
    }
}

static void box_diagonal(stress_pair *p, const double *va, int na, const double *vb, int nb)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < na + nb; ++i) {
        const double *v = i < na ? va + 3 * i : vb + 3 * (i - na);
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], v[k]);
            hi[k] = fmax(hi[k], v[k]);
        }
    }
    p->size = hypot(hypot(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
}

/* Builds the pair's polytopes and references; 0 when a hull cannot be built (skipped). */
static int prepare(stress_pair *p, const hd_needle_pair *np)
{
    hd_polytope *a = NULL, *b = NULL;
    if (hd_polytope_build(np->xa, np->na, NULL, &a) != HD_OK ||
        hd_polytope_build(np->xb, np->nb, NULL, &b) != HD_OK) {
        hd_polytope_destroy(a);
        return 0;
    }
    p->a = a;
    p->b = b;
    p->pa = np->pose_a;
    p->pb = np->pose_b;
    p->na = hd_polytope_vertex_count(a);
    p->nb = hd_polytope_vertex_count(b);
    hd_brute_posed_near(a, &p->pa, p->pa.t, p->va);
    hd_brute_posed_near(b, &p->pb, p->pa.t, p->vb);
    p->exact = hd_brute_signed_distance(p->va, p->na, p->vb, p->nb);
    box_diagonal(p, p->va, p->na, p->vb, p->nb);
    hd_options opt = hd_options_default();
    p->sd_status = hd_signed_distance(a, &p->pa, b, &p->pb, &opt, &p->sd);
    return 1;
}

static void run_checks(const stress_options *o, stress_pair *p, tally t[CHECKS])
{
    static void (*const check[CHECKS])(const stress_pair *, tally *) = {
        check_sd, check_collide, check_distance, check_manifold, check_gap};
    for (int k = 0; k < CHECKS; ++k) {
        if (o->checks & (1u << k)) {
            t[k].checked++;
            check[k](p, &t[k]);
        }
    }
}

static int parse(int argc, char **argv, stress_options *o)
{
    memset(o, 0, sizeof *o);
    o->family.seed = 1;
    int count_given = 0;
    o->count = 1000;
    o->only = -1;
    o->checks = (1u << CHECKS) - 1;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--cloud") == 0) {
            o->family.family = HD_NEEDLE_CLOUD;
        } else if (strcmp(arg, "--stack") == 0) {
            o->family.family = HD_NEEDLE_STACK;
        } else if (strcmp(arg, "--twins") == 0) {
            o->family.family = HD_NEEDLE_TWINS;
        } else if (strcmp(arg, "--allow-failed") == 0) {
            o->allow_failed = 1;
        } else if (val != NULL && strcmp(arg, "--far") == 0) {
            o->family.far = atof(val), ++i;
        } else if (val != NULL && strcmp(arg, "--seed") == 0) {
            o->family.seed = (unsigned)strtoul(val, NULL, 10), ++i;
        } else if (val != NULL && strcmp(arg, "--count") == 0) {
            o->count = atoi(val), ++i;
            count_given = 1;
        } else if (val != NULL && strcmp(arg, "--only") == 0) {
            o->only = atoi(val), ++i;
        } else if (val != NULL && strcmp(arg, "--checks") == 0) {
            o->checks = 0;
            for (int k = 0; k < CHECKS; ++k) {
                o->checks |= strstr(val, check_names[k]) != NULL ? 1u << k : 0;
            }
            ++i;
        } else {
            return 0;
        }
    }
    if (!count_given && o->only >= o->count) {
        o->count = o->only + 1; /* replaying a pair past the default count */
    }
    return o->count > 0 && o->checks != 0 && o->family.far >= 0.0 && o->only < o->count;
}

int main(int argc, char **argv)
{
    stress_options o;
    if (!parse(argc, argv, &o)) {
        fprintf(
            stderr,
            "usage: hedra_stress [--cloud | --stack | --twins] [--far X] [--seed S] [--count N] "
            "[--only I] [--checks sd,collide,distance,manifold,gap] [--allow-failed]\n");
        return 2;
    }
    static const char *const family_names[] = {"small against long", "cloud against long",
                                               "stacked boxes", "twins"};
    printf("hedra_stress: %s, seed %u, far %g, %d pairs\n", family_names[o.family.family],
           o.family.seed, o.family.far, o.count);
    hd_rng gen, dirs;
    hd_rng_init(&gen, o.family.seed);
    hd_rng_init(&dirs, o.family.seed + 1);
    tally t[CHECKS];
    memset(t, 0, sizeof t);
    long skipped = 0;
    for (int i = 0; i < o.count; ++i) {
        hd_needle_pair np;
        stress_pair p;
        memset(&p, 0, sizeof p);
        p.id = o.family;
        p.id.index = i;
        hd_needle_next(&o.family, &gen, &dirs, &np, p.dir);
        if (o.only >= 0 && i != o.only) {
            continue;
        }
        if (!prepare(&p, &np)) {
            skipped++;
            continue;
        }
        run_checks(&o, &p, t);
        hd_polytope_destroy(p.a);
        hd_polytope_destroy(p.b);
    }
    long wrong_total = 0, failed_total = 0;
    for (int k = 0; k < CHECKS; ++k) {
        if (o.checks & (1u << k)) {
            printf("%-9s %8ld pairs %6ld failed %6ld wrong", check_names[k], t[k].checked,
                   t[k].failed, t[k].wrong);
            if (k == CHECK_SD || k == CHECK_DISTANCE || k == CHECK_GAP) {
                printf("   worst error / size %.3g", t[k].worst);
            }
            printf("\n");
            wrong_total += t[k].wrong;
            failed_total += t[k].failed;
        }
    }
    printf("skipped (a hull could not be built): %ld\n", skipped);
    return wrong_total > 0 || (failed_total > 0 && !o.allow_failed) ? 1 : 0;
}
