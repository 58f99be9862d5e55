/* Shared helpers of the test suite: a seeded random generator (the seed is printed and can be
 * set with the HEDRA_SEED environment variable), random rotations and the usual point clouds. */
#ifndef HD_TESTUTIL_H
#define HD_TESTUTIL_H

#include <stdint.h>

#include "hedra/hedra.h"

typedef struct hd_rng {
    uint64_t state;
} hd_rng;

/* The suite's seed: HEDRA_SEED if set, else a fixed default; printed once to stdout as
 * "seed: N (set HEDRA_SEED to reproduce)" with the name of the test program. */
uint64_t hd_test_seed(const char *program);

void hd_rng_init(hd_rng *rng, uint64_t seed);
uint64_t hd_rng_next(hd_rng *rng);
double hd_rng_uniform(hd_rng *rng, double lo, double hi); /* [lo, hi) */
int hd_rng_int(hd_rng *rng, int n);                       /* [0, n) */
double hd_rng_normal(hd_rng *rng);
void hd_rng_unit_vector(hd_rng *rng, double out[3]);

/* A uniformly random rotation (from a random unit quaternion) and translation t. */
hd_pose hd_rng_pose(hd_rng *rng, const double t[3]);

/* n points on the surface of the ellipsoid with semi-axes ax, ay, az (CD-Dual section 5). */
void hd_points_ellipsoid(hd_rng *rng, int n, double ax, double ay, double az, double *xyz);

/* n points uniformly in the box [-hx, hx] x [-hy, hy] x [-hz, hz]. */
void hd_points_cloud(hd_rng *rng, int n, double hx, double hy, double hz, double *xyz);

#define HD_PI 3.14159265358979323846

/* The 8 corners of the box [lo, hi]. */
void hd_points_box(const double lo[3], const double hi[3], double xyz[24]);

/* The 2k vertices of the right prism over the regular k-gon inscribed in the unit circle, from
 * z = -half_height to z = half_height: vertex 2j + 0 (bottom) and 2j + 1 (top) at angle 2 pi j / k.
 */
void hd_points_prism(int k, double half_height, double *xyz);

/* The pose that translates by (x, y, z) and does not rotate. */
hd_pose hd_test_translation(double x, double y, double z);

/* Builds a polytope from points, failing the test (via assert in the caller) on error: returns
 * NULL and prints the status when construction fails. */
hd_polytope *hd_test_build(const double *xyz, int n);

/* The fuzz of the touching band's edges at band eps (default tolerances): a verdict on either side
 * of eps is accepted within the rounding hd_certificate_check allows a certificate,
 * HD_CHECK_ROUNDING_UNITS units of DBL_EPSILON times the pair's scale (docs/ALGORITHMS.md, "The
 * verdict and its tolerance band"). */
double hd_test_band_fuzz(double eps);

/* Two polytopes, each the hull of n points on the ellipsoid with semi-axes 200, 100, 100 (the
 * benchmark's shape), drawn from a generator seeded from rng. */
void hd_test_ellipsoid_pair(hd_rng *rng, int n, hd_polytope **a, hd_polytope **b);

/* A scene on the caller's thread alone with the broad phase bp (NULL, printed, on failure). */
hd_scene *hd_test_scene(hd_broadphase bp);

/* Writes a pair file reproducing a failing case to $TMPDIR (or /tmp) and prints its path. */
void hd_test_dump_pair(const char *tag, const double *a, int na, const hd_pose *pa, const double *b,
                       int nb, const hd_pose *pb);

#endif
