/* hedra.Polytope: an immutable convex polytope (the hull of a point set, a convex mesh, or a
 * file), shared freely between threads. Its arrays are read-only views or fresh copies. */
#include <limits.h>

#include "hedra_py.h"

PyArrayObject *hdpy_points_array(PyObject *obj, const char *name)
{
    PyArrayObject *arr =
        (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 0, 0, NPY_ARRAY_IN_ARRAY);
    if (arr == NULL) {
        return NULL;
    }
    if (PyArray_SIZE(arr) == 0) {
        Py_DECREF(arr);
        return (PyArrayObject *)hdpy_raise(HD_ERR_EMPTY, name);
    }
    if (PyArray_NDIM(arr) != 2 || PyArray_DIM(arr, 1) != 3) {
        char shape[64];
        hdpy_shape_str(arr, shape, sizeof shape);
        Py_DECREF(arr);
        return (PyArrayObject *)hdpy_invalid("%s must be an (n, 3) array of points, got shape %s",
                                             name, shape);
    }
    if (PyArray_DIM(arr, 0) > HD_MAX_POINTS) {
        Py_DECREF(arr);
        return (PyArrayObject *)hdpy_raise(HD_ERR_TOO_LARGE, name);
    }
    return arr;
}

static PyObject *wrap(PyTypeObject *type, hd_polytope *poly);

const hd_polytope *hdpy_polytope_get(PyObject *obj, const char *name)
{
    if (!PyObject_TypeCheck(obj, &hdpy_PolytopeType)) {
        PyErr_Format(PyExc_TypeError, "%s must be a hedra.Polytope, not %.100s", name,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return ((hdpy_polytope *)obj)->poly;
}

PyObject *hdpy_polytope_wrap(hd_polytope *poly)
{
    return wrap(&hdpy_PolytopeType, poly);
}

static PyObject *wrap(PyTypeObject *type, hd_polytope *poly)
{
    hdpy_polytope *self = (hdpy_polytope *)type->tp_alloc(type, 0);
    if (self == NULL) {
        hd_polytope_destroy(poly);
        return NULL;
    }
    self->poly = poly;
    return (PyObject *)self;
}

/* The hull of pts rounded by radius (0: hd_polytope_build's polytope, bit for bit). */
static PyObject *build(PyTypeObject *type, PyArrayObject *pts, double radius, const char *context)
{
    hd_polytope *poly = NULL;
    hd_status st;
    const double *xyz = (const double *)PyArray_DATA(pts);
    int n = (int)PyArray_DIM(pts, 0);
    Py_BEGIN_ALLOW_THREADS
    st = hd_polytope_build_rounded(xyz, n, radius, NULL, &poly);
    Py_END_ALLOW_THREADS
    if (st != HD_OK) {
        return hdpy_raise(st, context);
    }
    return wrap(type, poly);
}

static PyObject *polytope_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"points", "radius", NULL};
    PyObject *points;
    double radius = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|d:Polytope", kwlist, &points, &radius)) {
        return NULL;
    }
    PyArrayObject *pts = hdpy_points_array(points, "points");
    if (pts == NULL) {
        return NULL;
    }
    PyObject *self = build(type, pts, radius, "Polytope");
    Py_DECREF(pts);
    return self;
}

static void polytope_dealloc(hdpy_polytope *self)
{
    hd_polytope_destroy(self->poly);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int parse_format(PyObject *obj, hd_format *out)
{
    static const char *const names[] = {"auto", "off", "obj", "xyz"};
    *out = HD_FORMAT_AUTO;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    const char *s = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
    for (int i = 0; s != NULL && i < 4; ++i) {
        if (strcmp(s, names[i]) == 0) {
            *out = (hd_format)i;
            return 0;
        }
    }
    if (!PyErr_Occurred()) {
        hdpy_invalid("format must be None, 'auto', 'off', 'obj' or 'xyz', not %R", obj);
    }
    return -1;
}

/* Polytope.read(path, format=None): the hull of a file's points. */
static PyObject *polytope_read(PyObject *cls, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"path", "format", NULL};
    PyObject *path_bytes = NULL, *format = NULL;
    hd_format fmt;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O&|O:read", kwlist, PyUnicode_FSConverter,
                                     &path_bytes, &format)) {
        return NULL;
    }
    if (parse_format(format, &fmt) < 0) {
        Py_DECREF(path_bytes);
        return NULL;
    }
    const char *path = PyBytes_AS_STRING(path_bytes);
    hd_points pts = {0, NULL};
    hd_parse_error err;
    hd_polytope *poly = NULL;
    hd_status st;
    Py_BEGIN_ALLOW_THREADS
    st = hd_read_points(path, fmt, &pts, &err);
    Py_END_ALLOW_THREADS
    if (st != HD_OK) {
        Py_DECREF(path_bytes);
        return hdpy_raise_parse(st, &err);
    }
    Py_BEGIN_ALLOW_THREADS
    st = hd_polytope_build(pts.xyz, pts.count, NULL, &poly);
    Py_END_ALLOW_THREADS
    hd_points_free(&pts);
    PyObject *result = st == HD_OK ? wrap((PyTypeObject *)cls, poly) : hdpy_raise(st, path);
    Py_DECREF(path_bytes);
    return result;
}

/* One face's indices as int64; TypeError unless they are integers (numpy would truncate
 * 1.5 to 1 without a word). */
static PyArrayObject *face_loop(PyObject *obj)
{
    PyArrayObject *raw = (PyArrayObject *)PyArray_FROM_O(obj);
    if (raw == NULL) {
        return NULL;
    }
    PyArrayObject *loop = NULL;
    if (PyArray_NDIM(raw) != 1 || !(PyArray_ISINTEGER(raw) || PyArray_SIZE(raw) == 0)) {
        PyErr_SetString(PyExc_TypeError, "each face must be a sequence of integer indices");
    } else {
        loop = (PyArrayObject *)PyArray_FROMANY((PyObject *)raw, NPY_INT64, 1, 1,
                                                NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
    }
    Py_DECREF(raw);
    return loop;
}

/* Face loops from a sequence of index sequences into *sizes and *indices (PyMem). */
static int mesh_faces(PyObject *faces, int **sizes, int **indices, int *face_count)
{
    PyObject *seq = PySequence_Fast(faces, "faces must be a sequence of index sequences");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t nf = PySequence_Fast_GET_SIZE(seq), total = 0, used = 0;
    PyArrayObject **loops = PyMem_Calloc((size_t)nf + 1, sizeof *loops);
    int rc = loops ? 0 : (PyErr_NoMemory(), -1);
    for (Py_ssize_t f = 0; rc == 0 && f < nf; ++f) {
        loops[f] = face_loop(PySequence_Fast_GET_ITEM(seq, f));
        rc = loops[f] ? 0 : -1;
        total += rc == 0 ? PyArray_DIM(loops[f], 0) : 0;
    }
    if (rc == 0 && (nf > INT_MAX || total > INT_MAX)) {
        rc = (hdpy_raise(HD_ERR_TOO_LARGE, "faces"), -1);
    }
    *sizes = rc == 0 ? PyMem_Malloc(((size_t)nf + 1) * sizeof **sizes) : NULL;
    *indices = rc == 0 ? PyMem_Malloc(((size_t)total + 1) * sizeof **indices) : NULL;
    if (rc == 0 && (*sizes == NULL || *indices == NULL)) {
        rc = (PyErr_NoMemory(), -1);
    }
    for (Py_ssize_t f = 0; rc == 0 && f < nf; ++f) {
        const npy_int64 *ix = (const npy_int64 *)PyArray_DATA(loops[f]);
        Py_ssize_t k = PyArray_DIM(loops[f], 0);
        (*sizes)[f] = (int)k;
        for (Py_ssize_t i = 0; i < k; ++i) {
            /* out of int range is certainly out of the vertex range: the library says so */
            (*indices)[used++] = (ix[i] < 0 || ix[i] > INT_MAX) ? -1 : (int)ix[i];
        }
    }
    for (Py_ssize_t f = 0; loops && f < nf; ++f) {
        Py_XDECREF(loops[f]);
    }
    PyMem_Free(loops);
    Py_DECREF(seq);
    *face_count = (int)nf;
    return rc;
}

static PyObject *mesh_error(hd_status st, const hd_mesh_violation *v)
{
    char context[200];
    if (st == HD_ERR_NOT_CONVEX && v->face >= 0) {
        PyOS_snprintf(context, sizeof context, "mesh: vertex %d lies %.3g outside face %d",
                      v->vertex, v->excess, v->face);
        return hdpy_raise(st, context);
    }
    return hdpy_raise(st, "mesh");
}

/* Polytope.from_mesh(vertices, faces, convex_rel=None): an explicit convex mesh. */
static PyObject *polytope_from_mesh(PyObject *cls, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"vertices", "faces", "convex_rel", NULL};
    PyObject *vertices, *faces;
    double convex_rel = HD_DEFAULT_CONVEX_REL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|d:from_mesh", kwlist, &vertices, &faces,
                                     &convex_rel)) {
        return NULL;
    }
    hd_tolerance tol = hd_tolerance_default();
    tol.convex_rel = convex_rel;
    PyArrayObject *pts = hdpy_points_array(vertices, "vertices");
    int *sizes = NULL, *indices = NULL, nf = 0;
    if (pts == NULL || mesh_faces(faces, &sizes, &indices, &nf) < 0) {
        Py_XDECREF(pts);
        PyMem_Free(sizes);
        PyMem_Free(indices);
        return NULL;
    }
    hd_polytope *poly = NULL;
    hd_mesh_violation violation = {-1, -1, 0.0};
    hd_status st;
    const double *xyz = (const double *)PyArray_DATA(pts);
    int nv = (int)PyArray_DIM(pts, 0);
    Py_BEGIN_ALLOW_THREADS
    st = hd_polytope_from_mesh(xyz, nv, sizes, indices, nf, &tol, &poly, &violation);
    Py_END_ALLOW_THREADS
    Py_DECREF(pts);
    PyMem_Free(sizes);
    PyMem_Free(indices);
    return st == HD_OK ? wrap((PyTypeObject *)cls, poly) : mesh_error(st, &violation);
}

/* ---- accessors ---- */

static PyObject *get_vertices(hdpy_polytope *self, void *closure)
{
    (void)closure;
    npy_intp dims[2] = {hd_polytope_vertex_count(self->poly), 3};
    PyObject *arr =
        PyArray_New(&PyArray_Type, 2, dims, NPY_DOUBLE, NULL,
                    (void *)hd_polytope_vertices(self->poly), 0, NPY_ARRAY_CARRAY_RO, NULL);
    if (arr == NULL) {
        return NULL;
    }
    /* a read-only view that keeps the polytope alive */
    if (PyArray_SetBaseObject((PyArrayObject *)arr, Py_NewRef((PyObject *)self)) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}

static PyObject *get_faces(hdpy_polytope *self, void *closure)
{
    (void)closure;
    int nf = hd_polytope_face_count(self->poly);
    PyObject *list = PyList_New(nf);
    for (int f = 0; list != NULL && f < nf; ++f) {
        double normal[3], offset;
        const int *loop;
        npy_intp k = hd_polytope_face(self->poly, f, normal, &offset, &loop);
        PyObject *arr = PyArray_SimpleNew(1, &k, NPY_INT);
        if (arr == NULL) {
            Py_CLEAR(list);
            break;
        }
        memcpy(PyArray_DATA((PyArrayObject *)arr), loop, (size_t)k * sizeof(int));
        PyList_SET_ITEM(list, f, arr);
    }
    return list;
}

/* (F, 4) array of the face planes: unit outward normal and offset, n.x = offset. */
static PyObject *get_planes(hdpy_polytope *self, void *closure)
{
    (void)closure;
    npy_intp dims[2] = {hd_polytope_face_count(self->poly), 4};
    PyObject *arr = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    if (arr == NULL) {
        return NULL;
    }
    double *out = (double *)PyArray_DATA((PyArrayObject *)arr);
    for (npy_intp f = 0; f < dims[0]; ++f) {
        const int *loop;
        hd_polytope_face(self->poly, (int)f, out + 4 * f, out + 4 * f + 3, &loop);
    }
    return arr;
}

static PyObject *get_edges(hdpy_polytope *self, void *closure)
{
    (void)closure;
    npy_intp dims[2] = {hd_polytope_edge_count(self->poly), 2};
    PyObject *arr = PyArray_SimpleNew(2, dims, NPY_INT);
    if (arr == NULL) {
        return NULL;
    }
    int *out = (int *)PyArray_DATA((PyArrayObject *)arr);
    for (npy_intp e = 0; e < dims[0]; ++e) {
        int faces[2];
        hd_polytope_edge(self->poly, (int)e, out + 2 * e, faces);
    }
    return arr;
}

static PyObject *get_dimension(hdpy_polytope *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(hd_polytope_dimension(self->poly));
}

static PyObject *get_bounds(hdpy_polytope *self, void *closure)
{
    (void)closure;
    npy_intp dims[2] = {2, 3};
    PyObject *arr = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    if (arr != NULL) {
        double *out = (double *)PyArray_DATA((PyArrayObject *)arr);
        hd_polytope_bounds(self->poly, out, out + 3);
    }
    return arr;
}

static PyObject *get_sphere(hdpy_polytope *self, void *closure)
{
    (void)closure;
    double centre[3], radius;
    hd_polytope_sphere(self->poly, centre, &radius);
    return Py_BuildValue("(ddd)d", centre[0], centre[1], centre[2], radius);
}

static PyObject *get_radius(hdpy_polytope *self, void *closure)
{
    (void)closure;
    return PyFloat_FromDouble(hd_polytope_radius(self->poly));
}

static PyGetSetDef polytope_getset[] = {
    {"radius", (getter)get_radius, NULL,
     "the rounding radius r: the shape is every point within r of the hull of .vertices\n"
     "(0.0 for a sharp polytope).",
     NULL},
    {"vertices", (getter)get_vertices, NULL,
     "(V, 3) float64, read-only: the hull vertices in the polytope's own frame. Every vertex\n"
     "index of the API (faces, edges, certificates) indexes this array.",
     NULL},
    {"faces", (getter)get_faces, NULL,
     "list of int arrays: each face's vertex loop, counter-clockwise seen from outside\n"
     "(a polygon has its two sides; segments and points have none).",
     NULL},
    {"face_planes", (getter)get_planes, NULL,
     "(F, 4) float64: unit outward normal and offset of each face (n . x = offset).", NULL},
    {"edges", (getter)get_edges, NULL, "(E, 2) int: the two end vertices of each edge.", NULL},
    {"dimension", (getter)get_dimension, NULL,
     "affine dimension: 0 point, 1 segment, 2 polygon, 3 solid", NULL},
    {"bounds", (getter)get_bounds, NULL, "(2, 3) float64: lower and upper box corners.", NULL},
    {"sphere", (getter)get_sphere, NULL, "((cx, cy, cz), radius): a bounding sphere.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static Py_ssize_t polytope_len(hdpy_polytope *self)
{
    return hd_polytope_vertex_count(self->poly);
}

static PyObject *polytope_repr(hdpy_polytope *self)
{
    char radius[40] = "";
    double r = hd_polytope_radius(self->poly);
    if (r > 0.0) {
        PyOS_snprintf(radius, sizeof radius, " radius=%.17g", r);
    }
    return PyUnicode_FromFormat(
        "<hedra.Polytope dimension=%d vertices=%d faces=%d%s>", hd_polytope_dimension(self->poly),
        hd_polytope_vertex_count(self->poly), hd_polytope_face_count(self->poly), radius);
}

/* Pickles as its vertices and radius (the hull of the hull's vertices is the same polytope). */
static PyObject *polytope_reduce(hdpy_polytope *self, PyObject *unused)
{
    (void)unused;
    PyObject *view = get_vertices(self, NULL);
    if (view == NULL) {
        return NULL;
    }
    PyObject *copy = PyArray_NewCopy((PyArrayObject *)view, NPY_CORDER);
    Py_DECREF(view);
    if (copy == NULL) {
        return NULL;
    }
    return Py_BuildValue("O(Nd)", (PyObject *)Py_TYPE(self), copy, hd_polytope_radius(self->poly));
}

static PyMethodDef polytope_methods[] = {
    {"read", (PyCFunction)(void (*)(void))polytope_read, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "read($type, /, path, format=None)\n--\n\n-> Polytope. The hull of the points of an OFF, OBJ "
     "or XYZ file\n"
     "(format None or 'auto' picks by extension; 'off', 'obj', 'xyz'). A malformed file raises\n"
     "ParseError with .file and .line; a missing one FileError."},
    {"from_mesh", (PyCFunction)(void (*)(void))polytope_from_mesh,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "from_mesh($type, /, vertices, faces, convex_rel=1e-9)\n--\n\n-> Polytope. A solid from an "
     "explicit convex\n"
     "mesh: faces are index loops, counter-clockwise seen from outside."},
    {"__reduce__", (PyCFunction)polytope_reduce, METH_NOARGS,
     "__reduce__($self, /)\n--\n\npickle support"},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods polytope_as_sequence = {
    .sq_length = (lenfunc)polytope_len,
};

PyTypeObject hdpy_PolytopeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hedra.Polytope",
    .tp_basicsize = sizeof(hdpy_polytope),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc =
        "Polytope(points, radius=0.0)\n--\n\nThe convex hull of an (n, 3) array-like of points "
        "(any real\n"
        "dtype; n >= 1; duplicates and interior points allowed), rounded by radius >= 0 (every\n"
        "point within radius of the hull: one point is a sphere, two a capsule). Immutable; share\n"
        "it between threads and queries freely; len() is the vertex count.",
    .tp_new = polytope_new,
    .tp_dealloc = (destructor)polytope_dealloc,
    .tp_repr = (reprfunc)polytope_repr,
    .tp_getset = polytope_getset,
    .tp_methods = polytope_methods,
    .tp_as_sequence = &polytope_as_sequence,
};

int hdpy_polytope_init_type(PyObject *module)
{
    if (PyType_Ready(&hdpy_PolytopeType) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "Polytope", (PyObject *)&hdpy_PolytopeType);
}
