/* The primitive constructors of hedra/shapes.h: the core's points, then
 * hd_polytope_build_rounded. Sizes are checked here so that each constructor reports its own
 * arguments (a NaN half extent is HD_ERR_NONFINITE, not a hull failure). */
#include <math.h>
#include <stdlib.h>

#include "hedra/shapes.h"

/* HD_OK for a finite size >= 0. */
static hd_status check_size(double s)
{
    if (isnan(s) || isinf(s)) {
        return HD_ERR_NONFINITE;
    }
    return s >= 0.0 ? HD_OK : HD_ERR_INVALID_ARG;
}

static hd_status check_sizes(const double *s, int n)
{
    for (int i = 0; i < n; ++i) {
        hd_status st = check_size(s[i]);
        if (st != HD_OK) {
            return st;
        }
    }
    return HD_OK;
}

hd_status hd_shape_sphere(double radius, const hd_tolerance *tol, hd_polytope **out)
{
    const double origin[3] = {0.0, 0.0, 0.0};
    return hd_polytope_build_rounded(origin, 1, radius, tol, out);
}

hd_status hd_shape_capsule(double half_length, double radius, const hd_tolerance *tol,
                           hd_polytope **out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    *out = NULL;
    hd_status st = check_size(half_length);
    if (st != HD_OK) {
        return st;
    }
    const double ends[6] = {0.0, 0.0, -half_length, 0.0, 0.0, half_length};
    return hd_polytope_build_rounded(ends, 2, radius, tol, out);
}

hd_status hd_shape_box(const double half[3], double radius, const hd_tolerance *tol,
                       hd_polytope **out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    *out = NULL;
    if (half == NULL) {
        return HD_ERR_NULL;
    }
    hd_status st = check_sizes(half, 3);
    if (st != HD_OK) {
        return st;
    }
    double xyz[24];
    for (int i = 0; i < 8; ++i) {
        for (int k = 0; k < 3; ++k) {
            xyz[3 * i + k] = (i >> k) & 1 ? half[k] : -half[k];
        }
    }
    return hd_polytope_build_rounded(xyz, 8, radius, tol, out);
}

/* The circumscribed polygon of `sides` sides about the circle of radius r at height z: vertex k
 * at angle 2 pi k / sides and distance r / cos(pi / sides), so that its edges touch the circle. */
static void ring(double *xyz, int sides, double r, double z)
{
    const double pi = 3.14159265358979323846;
    double rv = r / cos(pi / sides);
    for (int k = 0; k < sides; ++k) {
        double a = 2.0 * pi * k / sides;
        xyz[3 * k] = rv * cos(a);
        xyz[3 * k + 1] = rv * sin(a);
        xyz[3 * k + 2] = z;
    }
}

/* A prism (apex 0) or pyramid (apex 1) over the circumscribed polygon. */
static hd_status round_solid(double half_height, double radius, int sides, double rounding,
                             int apex, const hd_tolerance *tol, hd_polytope **out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    *out = NULL;
    const double sizes[2] = {half_height, radius};
    hd_status st = check_sizes(sizes, 2);
    if (st != HD_OK) {
        return st;
    }
    if (sides < 3 || sides > HD_SHAPE_SIDES_MAX) {
        return HD_ERR_INVALID_ARG;
    }
    int count = apex ? sides + 1 : 2 * sides;
    double *xyz = malloc((size_t)count * 3 * sizeof *xyz);
    if (xyz == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    ring(xyz, sides, radius, -half_height);
    if (apex) {
        xyz[3 * sides] = 0.0;
        xyz[3 * sides + 1] = 0.0;
        xyz[3 * sides + 2] = half_height;
    } else {
        ring(xyz + 3 * sides, sides, radius, half_height);
    }
    st = hd_polytope_build_rounded(xyz, count, rounding, tol, out);
    free(xyz);
    return st;
}

hd_status hd_shape_cylinder(double half_height, double radius, int sides, double rounding,
                            const hd_tolerance *tol, hd_polytope **out)
{
    return round_solid(half_height, radius, sides, rounding, 0, tol, out);
}

hd_status hd_shape_cone(double half_height, double radius, int sides, double rounding,
                        const hd_tolerance *tol, hd_polytope **out)
{
    return round_solid(half_height, radius, sides, rounding, 1, tol, out);
}
