/* Pair families of the cross-check suite: each generator fills a test pair (local points and a
 * pose for each polytope) from the suite's seeded generator. Placement never uses the library's
 * algorithms: B is translated along a direction n so that the gap of the two support planes
 * orthogonal to n takes a chosen value l (a separating plane when l > 0). */
#ifndef HD_FAMILIES_H
#define HD_FAMILIES_H

#include "testutil.h"

#define HD_FAM_MAX_POINTS 6000

/* Scalars first: zeroing the bytes before `a` resets a pair. */
typedef struct hd_test_pair {
    int na, nb;
    hd_pose pose_a, pose_b;
    double nominal; /* the placement's gap l along n (0 when the family fixes it otherwise) */
    int placed;     /* 1 when B was placed by hd_fam_place */
    double a[3 * HD_FAM_MAX_POINTS];
    double b[3 * HD_FAM_MAX_POINTS];
} hd_test_pair;

/* The posed (world) vertices of one side into out. */
void hd_fam_world(const double *local, int n, const hd_pose *pose, double *out);

/* Translates B (its pose) along unit n so that min_B n.b - max_A n.a = l in world coordinates. */
void hd_fam_place(hd_test_pair *p, const double n[3], double l);

/* Largest absolute world coordinate of either side (the scale of the pair). */
double hd_fam_scale(const hd_test_pair *p);

typedef void (*hd_fam_generator)(hd_rng *rng, int index, hd_test_pair *p);

typedef struct hd_family {
    const char *name;
    hd_fam_generator make;
    int count; /* pairs at scale factor 1 */
} hd_family;

/* The families, terminated by a NULL name. */
extern const hd_family hd_families[];

/* The needle family: a small shape (cube, tetrahedron or square of side 2 small, small from 1e-9
 * to 0.1) against a long one (segment, square or thin box of length 2 length, from 0.1 to 10),
 * both turned, A's centre within small of B's at the origin, so that the simplices of M = A - B
 * are needles far from the origin. Local points xa, xb (8 at most here, 48 in every family)
 * and poses. */
typedef struct hd_needle_pair {
    int na, nb;
    double small, length;
    double xa[3 * 48], xb[3 * 48];
    hd_pose pose_a, pose_b;
} hd_needle_pair;

void hd_needle_pair_make(hd_rng *rng, hd_needle_pair *p);

/* The same with hulls of random points: 4 to 23 in a cube of side 2 small against 4 to 43 on an
 * ellipsoid of semi-axes length and 0.1 small to 10 small (slivers of M: triangles as long as
 * B and as wide as A). */
void hd_needle_cloud_make(hd_rng *rng, hd_needle_pair *p);

/* Boxes stacked as in a physics scene: a box B resting on the top face of a box A (half sides
 * 0.2 to 2 times a scale of 1e-3 to 1e3), turned about the vertical by any angle and tilted by
 * 1e-12 to 1e-2 rad about a random horizontal axis, its centre over a random point of A's top
 * face (over its edge or corner too), its lowest point at a height above that face of +-1e-12 to
 * +-1e-6 of the scale (or exactly 0), and the pair turned as a whole: face-face, edge-face and
 * vertex-face contacts on both sides of the band. small is the height, length the scale. */
void hd_needle_stack_make(hd_rng *rng, hd_needle_pair *p);

/* Twins: a hull of 4 to 24 random points (half sides 1e-3 to 1e3) against a copy of itself, turned
 * by 1e-12 to 1e-1 rad about a random axis and moved by 1e-12 to 2 times the half side along a
 * random direction: a centrally symmetric M, deep overlaps, and contacts of nearly coincident
 * faces and edges. small is the move over the half side, length the half side. */
void hd_needle_twins_make(hd_rng *rng, hd_needle_pair *p);

/* The families of hd_needle_case. */
enum { HD_NEEDLE_SMALL_LONG = 0, HD_NEEDLE_CLOUD = 1, HD_NEEDLE_STACK = 2, HD_NEEDLE_TWINS = 3 };

/* A pair found by a stress program (tests/cross/stress.c): the index-th pair of a family
 * (HD_NEEDLE_SMALL_LONG: a small shape against a long one; HD_NEEDLE_CLOUD: a small cloud
 * against a long hull; HD_NEEDLE_STACK: stacked boxes; HD_NEEDLE_TWINS: a hull and its moved copy)
 * seeded with seed, drawn by hd_needle_next:
 * after each pair, when far > 0, both poses move by one translation with coordinates uniform in
 * [-far, far], and a unit vector (a direction for hd_gap) is drawn from the same generator;
 * when far is 0 the unit vector comes from a second generator seeded with seed + 1. */
typedef struct hd_needle_case {
    unsigned seed;
    int index;
    double far;
    int family;
} hd_needle_case;

/* The index-th pair of the family into np (the draw without the translation of far). */
void hd_needle_make(int family, hd_rng *rng, hd_needle_pair *np);

/* The next pair of c's family (c->seed and c->index unused) from the generators gen and dirs,
 * moved by c->far, and its unit vector into dir. */
void hd_needle_next(const hd_needle_case *c, hd_rng *gen, hd_rng *dirs, hd_needle_pair *np,
                    double dir[3]);

/* The pair of case c into np, and its unit vector into dir (may be NULL). */
void hd_needle_replay(const hd_needle_case *c, hd_needle_pair *np, double dir[3]);

#endif
