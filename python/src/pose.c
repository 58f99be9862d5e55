/* Poses from Python: a 7-sequence (qw, qx, qy, qz, tx, ty, tz), the quaternion of any non-zero
 * length (it is normalized), or a 4x4 homogeneous matrix [R t; 0 0 0 1] with R a rotation. The
 * same two layouts make the batch arrays, (N, 7) and (N, 4, 4). */
#include <math.h>

#include "hedra_py.h"

/* "(3, 5)" into buf. */
void hdpy_shape_str(PyArrayObject *arr, char *buf, size_t size)
{
    int n = PyArray_NDIM(arr);
    size_t used = (size_t)PyOS_snprintf(buf, size, "(");
    for (int i = 0; i < n && used < size; ++i) {
        used += (size_t)PyOS_snprintf(buf + used, size - used, "%s%zd", i ? ", " : "",
                                      (Py_ssize_t)PyArray_DIM(arr, i));
    }
    if (used < size) {
        PyOS_snprintf(buf + used, size - used, n == 1 ? ",)" : ")");
    }
}

static hd_status decode_matrix(const double *v, double pose_tol, hd_pose *out)
{
    for (int i = 0; i < 16; ++i) {
        if (!isfinite(v[i])) {
            return HD_ERR_NONFINITE;
        }
    }
    /* the last row of a rigid motion; products of such matrices keep it exactly */
    if (fabs(v[12]) > pose_tol || fabs(v[13]) > pose_tol || fabs(v[14]) > pose_tol ||
        fabs(v[15] - 1.0) > pose_tol) {
        return HD_ERR_BAD_POSE;
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            out->r[3 * i + j] = v[4 * i + j];
        }
        out->t[i] = v[4 * i + 3];
    }
    return hd_pose_validate(out, pose_tol);
}

hd_status hdpy_pose_decode(const double *v, int kind, double pose_tol, hd_pose *out)
{
    if (kind == HDPY_POSE_QUAT) {
        return hd_pose_from_quaternion(v, v + 4, out);
    }
    return decode_matrix(v, pose_tol, out);
}

static int pose_error(hd_status st, const char *name)
{
    hdpy_raise_hint(st, name,
                    "a pose is (qw, qx, qy, qz, tx, ty, tz) with a non-zero quaternion, or a 4x4 "
                    "matrix [R t; 0 0 0 1] with R a rotation");
    return -1;
}

/* The common case without numpy: a tuple or list of 7 numbers. 1 done, 0 not this case, -1. */
static int pose_from_sequence(PyObject *obj, double v[7])
{
    if (!(PyTuple_CheckExact(obj) || PyList_CheckExact(obj)) ||
        PySequence_Fast_GET_SIZE(obj) != 7) {
        return 0;
    }
    PyObject **items = PySequence_Fast_ITEMS(obj);
    for (int i = 0; i < 7; ++i) {
        if (!PyFloat_Check(items[i]) && !PyLong_Check(items[i])) { /* numpy float64 is a float */
            return 0; /* let numpy convert (or refuse) anything else */
        }
        v[i] = PyFloat_AsDouble(items[i]);
        if (v[i] == -1.0 && PyErr_Occurred()) {
            return -1;
        }
    }
    return 1;
}

/* Kind of a single pose array: HDPY_POSE_QUAT for (7,), HDPY_POSE_MATRIX for (4, 4), else 0. */
static int single_kind(PyArrayObject *arr)
{
    if (PyArray_NDIM(arr) == 1 && PyArray_DIM(arr, 0) == 7) {
        return HDPY_POSE_QUAT;
    }
    if (PyArray_NDIM(arr) == 2 && PyArray_DIM(arr, 0) == 4 && PyArray_DIM(arr, 1) == 4) {
        return HDPY_POSE_MATRIX;
    }
    return 0;
}

int hdpy_pose(PyObject *obj, const char *name, hd_pose *out, int *is_set)
{
    *is_set = 0;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    double v[7];
    int rc = pose_from_sequence(obj, v);
    if (rc < 0) {
        return -1;
    }
    hd_status st;
    if (rc == 1) {
        st = hd_pose_from_quaternion(v, v + 4, out);
    } else {
        PyArrayObject *arr =
            (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 0, 0, NPY_ARRAY_IN_ARRAY);
        if (arr == NULL) {
            return -1;
        }
        int kind = single_kind(arr);
        if (kind == 0) {
            char shape[64];
            hdpy_shape_str(arr, shape, sizeof shape);
            Py_DECREF(arr);
            hdpy_invalid("%s must be 7 numbers (qw, qx, qy, qz, tx, ty, tz) or a 4x4 matrix, "
                         "got shape %s",
                         name, shape);
            return -1;
        }
        st = hdpy_pose_decode((const double *)PyArray_DATA(arr), kind, HD_DEFAULT_POSE_TOL, out);
        Py_DECREF(arr);
    }
    if (st != HD_OK) {
        return pose_error(st, name);
    }
    *is_set = 1;
    return 0;
}

PyArrayObject *hdpy_pose_array(PyObject *obj, const char *name, int allow_single, int *kind,
                               int *single)
{
    PyArrayObject *arr =
        (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 0, 0, NPY_ARRAY_IN_ARRAY);
    if (arr == NULL) {
        return NULL;
    }
    int nd = PyArray_NDIM(arr);
    *single = 0;
    *kind = 0;
    if (nd == 2 && PyArray_DIM(arr, 1) == 7) {
        *kind = HDPY_POSE_QUAT;
    } else if (nd == 3 && PyArray_DIM(arr, 1) == 4 && PyArray_DIM(arr, 2) == 4) {
        *kind = HDPY_POSE_MATRIX;
    } else if (allow_single && (*kind = single_kind(arr)) != 0) {
        *single = 1;
    }
    if (*kind == 0) {
        char shape[64];
        hdpy_shape_str(arr, shape, sizeof shape);
        Py_DECREF(arr);
        hdpy_invalid("%s must have shape (N, 7) or (N, 4, 4)%s, got %s", name,
                     allow_single ? ", or be one pose (7,) or (4, 4)" : "", shape);
        return NULL;
    }
    return arr;
}

PyObject *hdpy_pose_matrix(const hd_pose *pose)
{
    npy_intp dims[2] = {4, 4};
    PyObject *arr = PyArray_ZEROS(2, dims, NPY_DOUBLE, 0);
    if (arr != NULL) {
        double *m = (double *)PyArray_DATA((PyArrayObject *)arr);
        for (int i = 0; i < 3; ++i) {
            memcpy(m + 4 * i, pose->r + 3 * i, 3 * sizeof(double));
            m[4 * i + 3] = pose->t[i];
        }
        m[15] = 1.0;
    }
    return arr;
}

int hdpy_pose_or_identity(PyObject *obj, const char *name, hd_pose *out)
{
    int set;
    if (hdpy_pose(obj, name, out, &set) < 0) {
        return -1;
    }
    if (!set) {
        *out = hd_pose_identity();
    }
    return 0;
}
