/* Brute-force geometric references for the tests, sharing no code with the library's algorithms.
 * Everything is computed in long double (64-bit mantissa on x86-64) from the raw vertex lists, so
 * that the reference's own rounding stays well below what the tests compare. Point sets are
 * xyz triples; their convex hulls are never built: every triangle (triple of points) and every
 * segment (pair) is a subset of the hull, and the hull's boundary features are among them. */
#ifndef HD_TEST_BRUTE_H
#define HD_TEST_BRUTE_H

#include "hedra/hedra.h"

/* Distance between conv(a) and conv(b), valid when they are disjoint: the minimum over
 * vertex-vertex, vertex-segment, vertex-triangle and segment-segment pairs (the closest points of
 * two disjoint polytopes lie on a pair of boundary features of those kinds). When the sets
 * overlap the value is meaningless (use hd_brute_sat first). wa, wb (may be NULL) receive the
 * closest points. O(na * nb^3 + nb * na^3 + na^2 nb^2): keep the sets small (a few dozen). */
double hd_brute_distance(const double *a, int na, const double *b, int nb, double wa[3],
                         double wb[3]);

/* Separating-axis test over candidate directions n: normals of every triangle of a and of b, and
 * cross products of every segment of a with every segment of b (for solid sets these include
 * every facet normal of the Minkowski difference M = A - B); for sets that may be flat or
 * collinear, also the in-plane normals of every triangle's edges and normals of every segment;
 * and the directions between the brute-force closest points and between every vertex pair.
 * Returns m = min over candidates of h_M(n) = max_a n.a - min_b n.b (n unit, both signs):
 *   m < 0: the sets are separated (-m is a lower bound on their distance);
 *   m >= 0: they overlap, and m is the penetration depth (exact when M is solid).
 * normal (may be NULL) receives the minimising direction. */
double hd_brute_sat(const double *a, int na, const double *b, int nb, double normal[3]);

/* Signed distance: hd_brute_distance when hd_brute_sat says separated, else -depth. */
double hd_brute_signed_distance(const double *a, int na, const double *b, int nb);

/* Largest d.p over the points (long double accumulation), and the index attaining it. */
double hd_brute_support_value(const double *pts, int n, const double d[3], int *index);

/* The hull vertices of a polytope under a pose (NULL = identity), into out (3 * count). */
void hd_brute_posed_vertices(const hd_polytope *p, const hd_pose *pose, double *out);

/* The same minus origin (R v + t - origin in long double, then rounded): for a pair far from the
 * world origin, posed about one of its own points, every reference that a common translation does
 * not change (distances, supports, depths) keeps the rounding of the pair's size rather than of
 * its position (1e-10 at 1e6). */
void hd_brute_posed_near(const hd_polytope *p, const hd_pose *pose, const double origin[3],
                         double *out);

/* The same in the plane, for 2D point sets (x, y pairs): distance between the hulls (valid when
 * disjoint: minimum over point-point and point-segment pairs), the separating-axis minimum
 * m = min over the normals of every segment, the axes and every vertex difference of
 * h_M(n) (m < 0: separated; m >= 0: overlap of depth m, exact when M has an interior), and the
 * signed distance. */
double hd_brute2d_distance(const double *a, int na, const double *b, int nb);
double hd_brute2d_sat(const double *a, int na, const double *b, int nb);
double hd_brute2d_signed_distance(const double *a, int na, const double *b, int nb);

/* Distance from point p to the point set's hull element (segment a b, triangle a b c). */
long double hd_brute_point_segment(const double p[3], const double a[3], const double b[3]);
long double hd_brute_point_triangle(const double p[3], const double a[3], const double b[3],
                                    const double c[3]);

#endif
