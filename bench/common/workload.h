/* The benchmark workload of CD-Dual section 5, in self-contained C11 (libc and libm only, no hedra
 * headers) so that tests and other programs can compile it as is.
 *
 * - Polyhedra: n random points on the surface of an ellipsoid with semi-axes a:b:c (default
 *   200:100:100), reproducible from a 64-bit seed.
 * - Orientations: uniformly random rotations of the moving polytope B (A stays fixed).
 * - Pair files: the format of include/hedra/io.h ("pair <name>", "A n", n lines, "B m", m lines),
 *   written with %.17g so that every reader sees the same doubles, and read back.
 *
 * The placement along a direction (the gap l) needs an exact LP solver and lives in placement.h. */
#ifndef HD_BENCH_WORKLOAD_H
#define HD_BENCH_WORKLOAD_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* splitmix64 generator: 64-bit state, every seed valid. */
typedef struct hd_wl_rng {
    uint64_t state;
} hd_wl_rng;

void hd_wl_rng_init(hd_wl_rng *rng, uint64_t seed);
uint64_t hd_wl_rng_next(hd_wl_rng *rng);
double hd_wl_rng_uniform(hd_wl_rng *rng); /* [0, 1) with 53 random bits */
int hd_wl_rng_int(hd_wl_rng *rng, int n); /* [0, n), n > 0 */
void hd_wl_rng_unit(hd_wl_rng *rng, double out[3]); /* uniform on the unit sphere */

/* A seed derived from a base seed and up to three integers (experiment, size, orientation...),
 * so that every polytope and orientation is reproducible on its own, whatever else is run. */
uint64_t hd_wl_seed(uint64_t base, uint64_t i, uint64_t j, uint64_t k);

/* Ellipsoid semi-axes. */
typedef struct hd_wl_shape {
    double a, b, c;
} hd_wl_shape;

/* n points uniform in direction on the unit sphere, scaled by (a, b, c): points on the surface of
 * the ellipsoid x^2/a^2 + y^2/b^2 + z^2/c^2 = 1, as in CD-Dual section 5. xyz holds 3n doubles. */
void hd_wl_ellipsoid_points(hd_wl_rng *rng, int n, hd_wl_shape shape, double *xyz);

/* A uniformly random rotation (from a uniformly random unit quaternion), row-major r[3*i+j]. */
void hd_wl_random_rotation(hd_wl_rng *rng, double r[9]);

/* The rotation by angle (radians) about a unit axis, row-major. */
void hd_wl_axis_rotation(const double axis[3], double angle, double r[9]);

/* out = r * m (3x3 row-major; out may not alias). */
void hd_wl_mat_mul(const double r[9], const double m[9], double out[9]);

/* out[i] = r * xyz[i] + t for n points (out may alias xyz). t may be NULL. */
void hd_wl_transform(const double r[9], const double t[3], const double *xyz, int n, double *out);

/* Writes one pair in the pair-file format with full precision. Returns 0, or -1 on a write error. */
int hd_wl_write_pair(FILE *fp, const char *name, const double *a, int na, const double *b, int nb);

/* One pair read back: name and the two point sets (malloc'd; free with hd_wl_pair_free). */
typedef struct hd_wl_pair {
    char name[256];
    int na, nb;
    double *a, *b;
} hd_wl_pair;

/* Reads the next pair; '#' comments and blank lines are skipped. Returns 1 with a pair, 0 at the
 * end of the file, -1 on a malformed file (message in err, err_size bytes). */
int hd_wl_read_pair(FILE *fp, hd_wl_pair *pair, char *err, int err_size);
void hd_wl_pair_free(hd_wl_pair *pair);

#ifdef __cplusplus
}
#endif

#endif
