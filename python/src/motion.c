/* Motion queries (hedra/motion.h): hedra.toi, toi_twist, shape_cast and raycast, and their batch
 * forms toi_many and raycast_many on the library's thread pool without the GIL. Every row of a
 * batch starts cold (the time of impact's own local cache), so that each has the bits of the
 * single call on the same input whatever the thread count. */
#include <math.h>

#include "hedra_py.h"

static PyTypeObject ToiResultType, RayResultType, ToiBatchType, RayBatchType;

/* ---- options and arguments ---- */

/* touch_rel, time_tol (None: default), max_iterations (None: default). */
static int toi_options(PyObject *touch_rel, PyObject *time_tol, PyObject *iterations,
                       hd_toi_options *opt)
{
    *opt = hd_toi_options_default();
    if (hdpy_options(NULL, touch_rel, &opt->query) < 0) {
        return -1;
    }
    if (time_tol != NULL && time_tol != Py_None) {
        opt->time_tol = PyFloat_AsDouble(time_tol);
        if (opt->time_tol == -1.0 && PyErr_Occurred()) {
            return -1;
        }
    }
    if (iterations != NULL && iterations != Py_None) {
        long k = PyLong_AsLong(iterations);
        if (k == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (k < 1 || k > INT_MAX) {
            hdpy_invalid("max_iterations must be a positive int, got %ld", k);
            return -1;
        }
        opt->max_iterations = (int)k;
    }
    return 0;
}

/* A twist motion from (pose0, v, w) or (pose0, v, w, c); c None or absent: the frame origin. */
static int twist_motion(PyObject *obj, const char *name, hd_motion *out)
{
    PyObject *seq = PySequence_Check(obj) ? PySequence_Fast(obj, name) : NULL;
    Py_ssize_t n = seq ? PySequence_Fast_GET_SIZE(seq) : 0;
    int rc = -1;
    if (seq == NULL || n < 3 || n > 4) {
        PyErr_Clear();
        hdpy_invalid("%s must be (pose0, v, w) or (pose0, v, w, c)", name);
    } else {
        PyObject **it = PySequence_Fast_ITEMS(seq);
        if (hdpy_pose_or_identity(it[0], name, &out->pose0) == 0 &&
            hdpy_vector3(it[1], "v", out->v) == 0 && hdpy_vector3(it[2], "w", out->w) == 0) {
            rc = 0;
            memcpy(out->c, out->pose0.t, sizeof out->c);
            if (n == 4 && it[3] != Py_None) {
                rc = hdpy_vector3(it[3], "c", out->c);
            }
        }
    }
    Py_XDECREF(seq);
    return rc;
}

/* ---- results ---- */

static PyStructSequence_Field toi_fields[] = {
    {"hit", "True when the pair comes within the band on [0, 1]"},
    {"toi", "hi when hit, else 1"},
    {"lo", "proven: the pair is apart (distance > eps / 2) for every t < lo"},
    {"hi", "proven: at hi the pair touches or overlaps (hi - lo <= time_tol)"},
    {"normal", "(3,) unit normal from A towards B at hi (zero when not hit)"},
    {"witness_a", "(3,) A's point of the contact at hi (world frame)"},
    {"witness_b", "(3,) B's point of the contact at hi"},
    {"contact", "SignedDistanceResult at the poses of hi (None when not hit)"},
    {"pose_a", "(4, 4) A's pose at hi (None when not hit)"},
    {"pose_b", "(4, 4) B's pose at hi (None when not hit)"},
    {"eps", "the motion's band (absolute)"},
    {"iterations", "distance queries run"},
    {NULL, NULL},
};
static PyStructSequence_Desc toi_desc = {"hedra.ToiResult", "Time of impact, see hedra.toi.",
                                         toi_fields, 12};

static PyObject *toi_result_new(const hd_toi_result *r)
{
    const hd_signed_distance_result *c = &r->contact;
    PyObject *items[12] = {PyBool_FromLong(r->hit),
                           PyFloat_FromDouble(r->toi),
                           PyFloat_FromDouble(r->lo),
                           PyFloat_FromDouble(r->hi),
                           hdpy_vec3(c->normal),
                           hdpy_vec3(c->witness_a),
                           hdpy_vec3(c->witness_b),
                           r->hit ? hdpy_contact_new(c, 0) : NULL,
                           r->hit ? hdpy_pose_matrix(&r->pose_a) : NULL,
                           r->hit ? hdpy_pose_matrix(&r->pose_b) : NULL,
                           PyFloat_FromDouble(r->eps),
                           PyLong_FromLong(r->iterations)};
    return hdpy_fill(&ToiResultType, items, 12);
}

static PyStructSequence_Field ray_fields[] = {
    {"hit", "True when some point origin + t dir, 0 <= t <= length, lies in the shape"},
    {"inside", "the origin itself lies in the shape (t = 0, normal zero)"},
    {"t", "the least such t (in units of dir)"},
    {"point", "(3,) origin + t dir"},
    {"normal", "(3,) outward unit normal of the face the ray enters through"},
    {"feature", "('vertex'|'edge'|'face', index): that face, or the edge or vertex it enters at"},
    {NULL, NULL},
};
static PyStructSequence_Desc ray_desc = {"hedra.RayResult", "A ray cast, see hedra.raycast.",
                                         ray_fields, 6};

PyObject *hdpy_ray_result_new(const hd_ray_result *r)
{
    PyObject *items[6] = {PyBool_FromLong(r->hit),  PyBool_FromLong(r->inside),
                          PyFloat_FromDouble(r->t), hdpy_vec3(r->point),
                          hdpy_vec3(r->normal),     hdpy_feature_new(r->feature)};
    return hdpy_fill(&RayResultType, items, 6);
}

static PyStructSequence_Field toi_batch_fields[] = {
    {"hit", "(N,) bool"},
    {"toi", "(N,)"},
    {"lo", "(N,)"},
    {"hi", "(N,)"},
    {"normal", "(N, 3)"},
    {"witness_a", "(N, 3)"},
    {"witness_b", "(N, 3)"},
    {"iterations", "(N,) int32"},
    {NULL, NULL},
};
static PyStructSequence_Desc toi_batch_desc = {
    "hedra.ToiBatch", "Times of impact, row i of pose i, see hedra.toi_many.", toi_batch_fields, 8};

static PyStructSequence_Field ray_batch_fields[] = {
    {"hit", "(N,) bool"},
    {"inside", "(N,) bool"},
    {"t", "(N,)"},
    {"point", "(N, 3)"},
    {"normal", "(N, 3)"},
    {"feature", "(N, 2) int32: feature type (0 vertex, 1 edge, 2 face) and index"},
    {NULL, NULL},
};
static PyStructSequence_Desc ray_batch_desc = {
    "hedra.RayBatch", "Ray casts, row i of ray i, see hedra.raycast_many.", ray_batch_fields, 6};

int hdpy_motion_init_types(PyObject *module)
{
    if (PyStructSequence_InitType2(&ToiResultType, &toi_desc) < 0 ||
        PyStructSequence_InitType2(&RayResultType, &ray_desc) < 0 ||
        PyStructSequence_InitType2(&ToiBatchType, &toi_batch_desc) < 0 ||
        PyStructSequence_InitType2(&RayBatchType, &ray_batch_desc) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "ToiResult", (PyObject *)&ToiResultType) ||
           PyModule_AddObjectRef(module, "RayResult", (PyObject *)&RayResultType) ||
           PyModule_AddObjectRef(module, "ToiBatch", (PyObject *)&ToiBatchType) ||
           PyModule_AddObjectRef(module, "RayBatch", (PyObject *)&RayBatchType);
}

/* ---- single queries ---- */

static PyObject *run_toi(const hd_polytope *a, const hd_motion *ma, const hd_polytope *b,
                         const hd_motion *mb, const hd_toi_options *opt, const char *func)
{
    hd_toi_result r;
    hd_status st;
    Py_BEGIN_ALLOW_THREADS
    st = hd_toi(a, ma, b, mb, opt, &r);
    Py_END_ALLOW_THREADS
    return st == HD_OK ? toi_result_new(&r) : hdpy_raise(st, func);
}

/* The motion from pose0 to pose1 (pose0 None: the identity; pose1 None: at rest at pose0). */
static int motion_of(PyObject *p0, PyObject *p1, const char *n0, const char *n1, hd_motion *out)
{
    hd_pose a, b;
    if (hdpy_pose_or_identity(p0, n0, &a) < 0 ||
        hdpy_pose_or_identity(p1 == NULL || p1 == Py_None ? p0 : p1, n1, &b) < 0) {
        return -1;
    }
    hd_status st = hd_motion_from_poses(&a, &b, out);
    return st == HD_OK ? 0 : (hdpy_raise(st, n1), -1);
}

PyObject *hdpy_toi(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"a",         "b",        "pose0_a",
                                        "pose1_a",   "pose0_b",  "pose1_b",
                                        "touch_rel", "time_tol", "max_iterations"};
    PyObject *v[9];
    hd_toi_options opt;
    hd_motion ma, mb;
    const hd_polytope *a, *b;
    if (hdpy_parse_args("toi", args, nargs, kw, names, 9, 2, v) < 0 ||
        (a = hdpy_polytope_get(v[0], "a")) == NULL || (b = hdpy_polytope_get(v[1], "b")) == NULL ||
        motion_of(v[2], v[3], "pose0_a", "pose1_a", &ma) < 0 ||
        motion_of(v[4], v[5], "pose0_b", "pose1_b", &mb) < 0 ||
        toi_options(v[6], v[7], v[8], &opt) < 0) {
        return NULL;
    }
    return run_toi(a, &ma, b, &mb, &opt, "toi");
}

PyObject *hdpy_toi_twist(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"a",         "b",        "motion_a",      "motion_b",
                                        "touch_rel", "time_tol", "max_iterations"};
    PyObject *v[7];
    hd_toi_options opt;
    hd_motion ma, mb;
    const hd_polytope *a, *b;
    if (hdpy_parse_args("toi_twist", args, nargs, kw, names, 7, 4, v) < 0 ||
        (a = hdpy_polytope_get(v[0], "a")) == NULL || (b = hdpy_polytope_get(v[1], "b")) == NULL ||
        twist_motion(v[2], "motion_a", &ma) < 0 || twist_motion(v[3], "motion_b", &mb) < 0 ||
        toi_options(v[4], v[5], v[6], &opt) < 0) {
        return NULL;
    }
    return run_toi(a, &ma, b, &mb, &opt, "toi_twist");
}

PyObject *hdpy_shape_cast(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"a",      "b",         "translation_b", "pose_a",
                                        "pose_b", "touch_rel", "time_tol",      "max_iterations"};
    PyObject *v[8];
    hd_toi_options opt;
    hd_pose pa, pb;
    double move[3];
    const hd_polytope *a, *b;
    if (hdpy_parse_args("shape_cast", args, nargs, kw, names, 8, 3, v) < 0 ||
        (a = hdpy_polytope_get(v[0], "a")) == NULL || (b = hdpy_polytope_get(v[1], "b")) == NULL ||
        hdpy_vector3(v[2], "translation_b", move) < 0 ||
        hdpy_pose_or_identity(v[3], "pose_a", &pa) < 0 ||
        hdpy_pose_or_identity(v[4], "pose_b", &pb) < 0 || toi_options(v[5], v[6], v[7], &opt) < 0) {
        return NULL;
    }
    hd_toi_result r;
    hd_status st;
    Py_BEGIN_ALLOW_THREADS
    st = hd_shape_cast(a, &pa, b, &pb, move, &opt, &r);
    Py_END_ALLOW_THREADS
    return st == HD_OK ? toi_result_new(&r) : hdpy_raise(st, "shape_cast");
}

/* length: None (an unbounded ray) or a number. */
static int ray_length(PyObject *obj, double *out)
{
    *out = HUGE_VAL;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    *out = PyFloat_AsDouble(obj);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

PyObject *hdpy_raycast(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"polytope", "pose", "origin", "dir", "length", "touch_rel"};
    PyObject *v[6];
    hd_options opt;
    hd_pose pose;
    int has_pose;
    double origin[3], dir[3], length;
    const hd_polytope *a;
    if (hdpy_parse_args("raycast", args, nargs, kw, names, 6, 4, v) < 0 ||
        (a = hdpy_polytope_get(v[0], "polytope")) == NULL ||
        hdpy_pose(v[1], "pose", &pose, &has_pose) < 0 || hdpy_vector3(v[2], "origin", origin) < 0 ||
        hdpy_vector3(v[3], "dir", dir) < 0 || ray_length(v[4], &length) < 0 ||
        hdpy_options(NULL, v[5], &opt) < 0) {
        return NULL;
    }
    hd_ray_result r;
    hd_status st = hd_ray_cast(a, has_pose ? &pose : NULL, origin, dir, length, &opt, &r);
    return st == HD_OK ? hdpy_ray_result_new(&r) : hdpy_raise(st, "raycast");
}

/* ---- batches ---- */

/* Row i's pose of an array argument: data NULL is the identity, stride 0 one pose for all. */
typedef struct pose_rows {
    const double *data;
    int kind;
    npy_intp stride;
} pose_rows;

static hd_status pose_row(const pose_rows *p, npy_intp i, double tol, hd_pose *out)
{
    if (p->data == NULL) {
        *out = hd_pose_identity();
        return HD_OK;
    }
    return hdpy_pose_decode(p->data + i * p->stride, p->kind, tol, out);
}

/* A pose array argument of n rows (or one pose for all when single_ok); None is the identity.
 * *keep holds the array. n < 0: this array sets n. */
static int pose_rows_parse(PyObject *obj, const char *name, int single_ok, npy_intp *n,
                           pose_rows *out, PyArrayObject **keep)
{
    int single = 0;
    out->data = NULL;
    out->stride = 0;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    *keep = hdpy_pose_array(obj, name, single_ok, &out->kind, &single);
    if (*keep == NULL) {
        return -1;
    }
    out->data = (const double *)PyArray_DATA(*keep);
    if (single) {
        return 0;
    }
    out->stride = out->kind;
    if (*n < 0) {
        *n = PyArray_DIM(*keep, 0);
    } else if (PyArray_DIM(*keep, 0) != *n) {
        hdpy_invalid("%s holds %zd poses, expected %zd (or one for all)", name,
                     (Py_ssize_t)PyArray_DIM(*keep, 0), (Py_ssize_t)*n);
        return -1;
    }
    return 0;
}

typedef struct toi_job {
    hdpy_job job; /* first: the chunk function gets the job back from it */
    const hd_polytope *a, *b;
    pose_rows rows[4]; /* pose0_b, pose1_b, pose0_a, pose1_a */
    hd_toi_options opt;
    npy_bool *hit;
    double *toi, *lo, *hi, *normal, *wit_a, *wit_b;
    npy_int32 *iterations;
} toi_job;

static const char *const toi_row_names[4] = {"poses0_b", "poses1_b", "poses0_a", "poses1_a"};

static void toi_store(toi_job *tj, npy_intp i, const hd_toi_result *r)
{
    tj->hit[i] = (npy_bool)r->hit;
    tj->toi[i] = r->toi;
    tj->lo[i] = r->lo;
    tj->hi[i] = r->hi;
    memcpy(tj->normal + 3 * i, r->contact.normal, 3 * sizeof(double));
    memcpy(tj->wit_a + 3 * i, r->contact.witness_a, 3 * sizeof(double));
    memcpy(tj->wit_b + 3 * i, r->contact.witness_b, 3 * sizeof(double));
    tj->iterations[i] = r->iterations;
}

static hd_status toi_row(toi_job *tj, npy_intp i, const char **what)
{
    hd_pose p[4];
    double tol = tj->opt.query.tol.pose_tol;
    for (int k = 0; k < 4; ++k) {
        hd_status st = pose_row(&tj->rows[k], i, tol, &p[k]);
        if (st != HD_OK) {
            *what = toi_row_names[k];
            return st;
        }
    }
    hd_motion mb, ma;
    hd_toi_result r;
    *what = "pair";
    hd_status st = hd_motion_from_poses(&p[0], &p[1], &mb);
    st = st == HD_OK ? hd_motion_from_poses(&p[2], &p[3], &ma) : st;
    st = st == HD_OK ? hd_toi(tj->a, &ma, tj->b, &mb, &tj->opt, &r) : st;
    if (st == HD_OK) {
        toi_store(tj, i, &r);
    }
    return st;
}

static void toi_chunk(hdpy_job *job, int worker, npy_intp lo, npy_intp hi)
{
    (void)worker;
    for (npy_intp i = lo; i < hi; ++i) {
        const char *what;
        hd_status st = toi_row((toi_job *)job, i, &what);
        if (st != HD_OK) {
            hdpy_job_fail(job, i, st, what);
            return;
        }
    }
}

/* One output column: numpy type and width (1: an (n,) array, else (n, width)). */
typedef struct column {
    int type, width;
} column;

/* New arrays of n rows, their data pointers in *data; on failure the items stay NULL with an
 * exception set. */
static void new_columns(npy_intp n, const column *cols, int count, PyObject **items, void ***data)
{
    for (int j = 0; j < count; ++j) {
        npy_intp dims[2] = {n, cols[j].width};
        items[j] = PyErr_Occurred()
                       ? NULL
                       : PyArray_SimpleNew(cols[j].width > 1 ? 2 : 1, dims, cols[j].type);
        *data[j] = items[j] ? PyArray_DATA((PyArrayObject *)items[j]) : NULL;
    }
}

static PyObject *run_job(hdpy_job *job, void (*run)(hdpy_job *, int, npy_intp, npy_intp),
                         int threads, PyTypeObject *type, PyObject **items, int count,
                         const char *func)
{
    PyObject *out = hdpy_fill(type, items, count);
    if (out == NULL) {
        return NULL;
    }
    job->run = run;
    job->fail_index = job->n;
    Py_BEGIN_ALLOW_THREADS
    hdpy_run_chunked(job, threads);
    Py_END_ALLOW_THREADS
    if (job->fail_index < job->n) {
        Py_DECREF(out);
        return hdpy_raise_job(job, func);
    }
    return out;
}

PyObject *hdpy_toi_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {
        "a",        "b",       "poses0_b",  "poses1_b", "poses0_a",
        "poses1_a", "threads", "touch_rel", "time_tol", "max_iterations"};
    static const column width[8] = {{NPY_BOOL, 1},   {NPY_DOUBLE, 1}, {NPY_DOUBLE, 1},
                                    {NPY_DOUBLE, 1}, {NPY_DOUBLE, 3}, {NPY_DOUBLE, 3},
                                    {NPY_DOUBLE, 3}, {NPY_INT32, 1}};
    PyObject *v[10], *items[8] = {NULL}, *out = NULL;
    PyArrayObject *keep[4] = {NULL};
    toi_job tj = {0};
    int threads;
    tj.job.n = -1;
    if (hdpy_parse_args("toi_many", args, nargs, kw, names, 10, 4, v) == 0 &&
        (tj.a = hdpy_polytope_get(v[0], "a")) != NULL &&
        (tj.b = hdpy_polytope_get(v[1], "b")) != NULL && hdpy_threads(v[6], &threads) == 0 &&
        toi_options(v[7], v[8], v[9], &tj.opt) == 0 &&
        pose_rows_parse(v[2], "poses0_b", 0, &tj.job.n, &tj.rows[0], &keep[0]) == 0 &&
        pose_rows_parse(v[3], "poses1_b", 0, &tj.job.n, &tj.rows[1], &keep[1]) == 0 &&
        pose_rows_parse(v[4], "poses0_a", 1, &tj.job.n, &tj.rows[2], &keep[2]) == 0 &&
        pose_rows_parse(v[5], "poses1_a", 1, &tj.job.n, &tj.rows[3], &keep[3]) == 0) {
        if (tj.rows[3].data == NULL) {
            tj.rows[3] = tj.rows[2]; /* A at rest at poses0_a */
        }
        void **data[8] = {(void **)&tj.hit,   (void **)&tj.toi,       (void **)&tj.lo,
                          (void **)&tj.hi,    (void **)&tj.normal,    (void **)&tj.wit_a,
                          (void **)&tj.wit_b, (void **)&tj.iterations};
        new_columns(tj.job.n, width, 8, items, data);
        out = run_job(&tj.job, toi_chunk, threads, &ToiBatchType, items, 8, "toi_many");
    }
    for (int k = 0; k < 4; ++k) {
        Py_XDECREF(keep[k]);
    }
    return out;
}

typedef struct ray_job {
    hdpy_job job;
    const hd_polytope *a;
    const hd_pose *pose;
    const double *origin, *dir, *length; /* dir_stride, length_stride: 0 for one for all */
    npy_intp dir_stride, length_stride;
    hd_options opt;
    npy_bool *hit, *inside;
    double *t, *point, *normal;
    npy_int32 *feature;
} ray_job;

static void ray_chunk(hdpy_job *job, int worker, npy_intp lo, npy_intp hi)
{
    (void)worker;
    ray_job *rj = (ray_job *)job;
    for (npy_intp i = lo; i < hi; ++i) {
        hd_ray_result r;
        hd_status st =
            hd_ray_cast(rj->a, rj->pose, rj->origin + 3 * i, rj->dir + rj->dir_stride * i,
                        rj->length[rj->length_stride * i], &rj->opt, &r);
        if (st != HD_OK) {
            hdpy_job_fail(job, i, st, "rays");
            return;
        }
        rj->hit[i] = (npy_bool)r.hit;
        rj->inside[i] = (npy_bool)r.inside;
        rj->t[i] = r.t;
        memcpy(rj->point + 3 * i, r.point, 3 * sizeof(double));
        memcpy(rj->normal + 3 * i, r.normal, 3 * sizeof(double));
        rj->feature[2 * i] = (npy_int32)r.feature.type;
        rj->feature[2 * i + 1] = r.feature.index;
    }
}

/* An (n, 3) float64 array, or one 3-vector for all rows when single_ok (*stride 0). */
static PyArrayObject *rows3(PyObject *obj, const char *name, int single_ok, npy_intp *n,
                            npy_intp *stride)
{
    PyArrayObject *arr =
        (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 1, 2, NPY_ARRAY_IN_ARRAY);
    if (arr == NULL) {
        return NULL;
    }
    int nd = PyArray_NDIM(arr);
    *stride = nd == 2 ? 3 : 0;
    if (PyArray_DIM(arr, nd - 1) == 3 && (nd == 2 || single_ok) &&
        (nd == 1 || *n < 0 || PyArray_DIM(arr, 0) == *n)) {
        *n = nd == 2 ? PyArray_DIM(arr, 0) : *n;
        return arr;
    }
    char shape[64];
    hdpy_shape_str(arr, shape, sizeof shape);
    Py_DECREF(arr);
    return (PyArrayObject *)hdpy_invalid("%s must be an (%zd, 3) array%s, got shape %s", name,
                                         (Py_ssize_t)*n, single_ok ? " or 3 numbers" : "", shape);
}

/* length: None (unbounded), one number, or (n,) numbers. */
static PyArrayObject *lengths(PyObject *obj, npy_intp n, npy_intp *stride)
{
    double inf = HUGE_VAL;
    PyObject *src = obj == NULL || obj == Py_None ? PyFloat_FromDouble(inf) : Py_NewRef(obj);
    PyArrayObject *arr =
        src ? (PyArrayObject *)PyArray_FROMANY(src, NPY_DOUBLE, 0, 1, NPY_ARRAY_IN_ARRAY) : NULL;
    Py_XDECREF(src);
    if (arr == NULL) {
        return NULL;
    }
    *stride = PyArray_NDIM(arr) == 1 ? 1 : 0;
    if (*stride == 1 && PyArray_DIM(arr, 0) != n) {
        Py_DECREF(arr);
        return (PyArrayObject *)hdpy_invalid("length must be a number or %zd numbers",
                                             (Py_ssize_t)n);
    }
    return arr;
}

PyObject *hdpy_raycast_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"polytope", "origins", "dirs",     "length",
                                        "pose",     "threads", "touch_rel"};
    static const column width[6] = {{NPY_BOOL, 1},   {NPY_BOOL, 1},   {NPY_DOUBLE, 1},
                                    {NPY_DOUBLE, 3}, {NPY_DOUBLE, 3}, {NPY_INT32, 2}};
    PyObject *v[7], *items[6] = {NULL}, *out = NULL;
    PyArrayObject *org = NULL, *dirs = NULL, *len = NULL;
    ray_job rj = {0};
    hd_pose pose;
    int has_pose, threads;
    npy_intp stride;
    rj.job.n = -1;
    if (hdpy_parse_args("raycast_many", args, nargs, kw, names, 7, 3, v) == 0 &&
        (rj.a = hdpy_polytope_get(v[0], "polytope")) != NULL &&
        hdpy_pose(v[4], "pose", &pose, &has_pose) == 0 && hdpy_threads(v[5], &threads) == 0 &&
        hdpy_options(NULL, v[6], &rj.opt) == 0 &&
        (org = rows3(v[1], "origins", 0, &rj.job.n, &stride)) != NULL &&
        (dirs = rows3(v[2], "dirs", 1, &rj.job.n, &rj.dir_stride)) != NULL &&
        (len = lengths(v[3], rj.job.n, &rj.length_stride)) != NULL) {
        rj.pose = has_pose ? &pose : NULL;
        rj.origin = (const double *)PyArray_DATA(org);
        rj.dir = (const double *)PyArray_DATA(dirs);
        rj.length = (const double *)PyArray_DATA(len);
        void **data[6] = {(void **)&rj.hit,   (void **)&rj.inside, (void **)&rj.t,
                          (void **)&rj.point, (void **)&rj.normal, (void **)&rj.feature};
        new_columns(rj.job.n, width, 6, items, data);
        out = run_job(&rj.job, ray_chunk, threads, &RayBatchType, items, 6, "raycast_many");
    }
    Py_XDECREF(org);
    Py_XDECREF(dirs);
    Py_XDECREF(len);
    return out;
}
