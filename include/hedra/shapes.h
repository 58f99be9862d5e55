/* hedra shapes: constructors for the common primitives as (rounded) polytopes. Each returns a
 * polytope of hd_polytope_build_rounded (free with hd_polytope_destroy), centred at its local
 * origin with its axis along z; docs/algorithms/rounded.md. tol may be NULL (defaults).
 * Errors: HD_ERR_NULL (out), HD_ERR_NONFINITE (a NaN or infinite size or radius),
 * HD_ERR_INVALID_ARG (a negative size or radius, a side count outside [3, HD_SHAPE_SIDES_MAX]),
 * HD_ERR_RANGE (a shape reaching beyond HD_MAX_COORD), HD_ERR_NO_MEMORY. *out is NULL on error. */
#ifndef HEDRA_SHAPES_H
#define HEDRA_SHAPES_H

#include "hedra/core.h"
#include "hedra/polytope.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most sides of a cylinder's or cone's polygon: keeps the vertex count far below HD_MAX_POINTS. */
#define HD_SHAPE_SIDES_MAX 65536

/* A ball of the given radius: one point (the origin) rounded by radius; exact. */
HD_API hd_status hd_shape_sphere(double radius, const hd_tolerance *tol, hd_polytope **out);

/* A capsule: the segment from (0, 0, -half_length) to (0, 0, half_length) rounded by radius;
 * exact. half_length 0 is a sphere. */
HD_API hd_status hd_shape_capsule(double half_length, double radius, const hd_tolerance *tol,
                                  hd_polytope **out);

/* The box [-h_x, h_x] x [-h_y, h_y] x [-h_z, h_z] rounded by radius (0 for a sharp box); exact.
 * The box stays the caller's: the rounded box reaches h + radius along each axis. A zero half
 * extent gives a flat box (a rectangle, a segment or a point). */
HD_API hd_status hd_shape_box(const double half[3], double radius, const hd_tolerance *tol,
                              hd_polytope **out);

/* A cylinder of the given radius from z = -half_height to z = half_height, approximated by a
 * prism over the regular polygon of `sides` sides circumscribed about its circle (vertices at
 * radius / cos(pi / sides), the first on +x), then rounded by `rounding` (0: sharp). The prism
 * encloses the cylinder and lies within radius (1 / cos(pi / sides) - 1) of it (the largest
 * error, at the polygon's vertices: 2.0 % for 16 sides, 0.12 % for 64). half_height 0 gives a
 * flat disc polygon. */
HD_API hd_status hd_shape_cylinder(double half_height, double radius, int sides, double rounding,
                                   const hd_tolerance *tol, hd_polytope **out);

/* A cone with its base circle of the given radius at z = -half_height and its apex at
 * z = half_height, approximated by the pyramid over the same circumscribed polygon as
 * hd_shape_cylinder (enclosing the cone, within radius (1 / cos(pi / sides) - 1) of it), then
 * rounded by `rounding`. */
HD_API hd_status hd_shape_cone(double half_height, double radius, int sides, double rounding,
                               const hd_tolerance *tol, hd_polytope **out);

#ifdef __cplusplus
}
#endif

#endif
