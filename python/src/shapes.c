/* The primitives of hedra/shapes.h as hedra.Polytope: hedra.Sphere, Capsule, Box, Cylinder and
 * Cone, each a (rounded) polytope built by the C constructor of the same name, so that Python and
 * C give the same shape bit for bit. */
#include "hedra_py.h"

/* Default sides of a cylinder's or cone's polygon: within 0.5 % of the round shape. */
#define HDPY_SHAPE_SIDES 32

/* A number argument (obj NULL: fallback); -1 with TypeError. */
static int number(PyObject *obj, double fallback, double *out)
{
    *out = obj == NULL ? fallback : PyFloat_AsDouble(obj);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

static int side_count(PyObject *obj, int *out)
{
    long sides = obj == NULL ? HDPY_SHAPE_SIDES : PyLong_AsLong(obj);
    if (sides == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (sides < 3 || sides > HD_SHAPE_SIDES_MAX) {
        hdpy_invalid("sides must be in [3, %d], got %ld", HD_SHAPE_SIDES_MAX, sides);
        return -1;
    }
    *out = (int)sides;
    return 0;
}

/* The constructor's answer (called before: poly is only set by it). */
static PyObject *result(hd_status st, hd_polytope *poly, const char *context)
{
    return st == HD_OK ? hdpy_polytope_wrap(poly) : hdpy_raise(st, context);
}

PyObject *hdpy_sphere(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"radius", "centre"};
    PyObject *v[2];
    double radius, centre[3] = {0.0, 0.0, 0.0};
    if (hdpy_parse_args("Sphere", args, nargs, kw, names, 2, 1, v) < 0 ||
        number(v[0], 0.0, &radius) < 0 ||
        (v[1] != NULL && hdpy_vector3(v[1], "centre", centre) < 0)) {
        return NULL;
    }
    hd_polytope *poly = NULL;
    /* a one-point core rounded by the radius: hd_shape_sphere's shape moved to the centre */
    hd_status st = hd_polytope_build_rounded(centre, 1, radius, NULL, &poly);
    return result(st, poly, "Sphere");
}

PyObject *hdpy_capsule(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"half_length", "radius"};
    PyObject *v[2];
    double half, radius;
    if (hdpy_parse_args("Capsule", args, nargs, kw, names, 2, 2, v) < 0 ||
        number(v[0], 0.0, &half) < 0 || number(v[1], 0.0, &radius) < 0) {
        return NULL;
    }
    hd_polytope *poly = NULL;
    hd_status st = hd_shape_capsule(half, radius, NULL, &poly);
    return result(st, poly, "Capsule");
}

PyObject *hdpy_box(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"half_extents", "radius"};
    PyObject *v[2];
    double half[3], radius;
    if (hdpy_parse_args("Box", args, nargs, kw, names, 2, 1, v) < 0 ||
        hdpy_vector3(v[0], "half_extents", half) < 0 || number(v[1], 0.0, &radius) < 0) {
        return NULL;
    }
    hd_polytope *poly = NULL;
    hd_status st = hd_shape_box(half, radius, NULL, &poly);
    return result(st, poly, "Box");
}

/* Cylinder and Cone: (half_height, radius, sides=32, rounding=0.0). */
static int round_args(const char *func, PyObject *const *args, Py_ssize_t nargs, PyObject *kw,
                      double *half, double *radius, int *sides, double *rounding)
{
    static const char *const names[] = {"half_height", "radius", "sides", "rounding"};
    PyObject *v[4];
    if (hdpy_parse_args(func, args, nargs, kw, names, 4, 2, v) < 0 || number(v[0], 0.0, half) < 0 ||
        number(v[1], 0.0, radius) < 0 || side_count(v[2], sides) < 0 ||
        number(v[3], 0.0, rounding) < 0) {
        return -1;
    }
    return 0;
}

PyObject *hdpy_cylinder(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    double half, radius, rounding;
    int sides;
    if (round_args("Cylinder", args, nargs, kw, &half, &radius, &sides, &rounding) < 0) {
        return NULL;
    }
    hd_polytope *poly = NULL;
    hd_status st = hd_shape_cylinder(half, radius, sides, rounding, NULL, &poly);
    return result(st, poly, "Cylinder");
}

PyObject *hdpy_cone(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    double half, radius, rounding;
    int sides;
    if (round_args("Cone", args, nargs, kw, &half, &radius, &sides, &rounding) < 0) {
        return NULL;
    }
    hd_polytope *poly = NULL;
    hd_status st = hd_shape_cone(half, radius, sides, rounding, NULL, &poly);
    return result(st, poly, "Cone");
}
