/* Batches: hedra.collide_many, hedra.distance_many and hedra.signed_distance_many run one query
 * per pose of an (N, 7) or (N, 4, 4) array in C, with the GIL released, on the library's thread
 * pool (pool.c; the calling thread is one of its workers); compound_collide_many,
 * compound_distance_many and compound_signed_distance_many do the same for two Compounds, each
 * pose cold (the compound queries keep no cache), so that every answer has the bits of the
 * single call on that pose. The batch is cut into contiguous
 * chunks; with warm start each chunk keeps one hd_cache along its consecutive poses (the simplex
 * and support vertices of pose i start the query of pose i + 1). The answers do not depend on the
 * thread count or the chunking; the warm start changes only the time (distances may differ in
 * the last bits). signed_distance_many starts every pose cold, so that each answer has the bits
 * of hedra.signed_distance on the same pose, and gives each worker its own workspace. */
#include "hedra_py.h"

/* Chunks per thread: a few, so that a slow region of the batch does not idle the other threads,
 * but long enough for the warm start to pay and for the hand-out to cost nothing. */
#define HDPY_CHUNKS_PER_THREAD 4
#define HDPY_MIN_CHUNK 256

typedef enum batch_query { BATCH_COLLIDE, BATCH_DISTANCE, BATCH_SIGNED } batch_query;

/* signed_distance_many's outputs, one row per pose (the gradients' NULL without gradient=True). */
typedef struct signed_out {
    double *delta, *normal, *wit_a, *wit_b;
    double *grad_a, *grad_b;
    npy_bool *unique;
} signed_out;

typedef struct batch {
    hdpy_job job; /* first: run_chunk gets the batch back from it */
    const hd_polytope *a, *b;
    const hd_compound *ca, *cb; /* the compound batches: a and b are NULL */
    const double *poses_a;      /* NULL: pose_a fixed (fixed_a, or identity when !has_fixed_a) */
    const double *poses_b;
    int kind_a, kind_b;
    int has_fixed_a;
    hd_pose fixed_a;
    hd_options opt;
    batch_query query;
    int warm;
    npy_int8 *verdict;            /* collide_many */
    double *dist, *wit_a, *wit_b; /* distance_many (witnesses optional) */
    signed_out sd;                /* signed_distance_many */
    hd_workspace **ws;            /* signed_distance_many: one per worker, made on first use */
    int ws_capacity;              /* 0: no workspace (the pair fits the stack scratch) */
} batch;

/* hd_signed_distance (or hd_compound_signed_distance) at pose i, its answer in row i of the
 * outputs. */
static hd_status signed_pair(batch *bt, npy_intp i, const hd_pose *pose_a, const hd_pose *pose_b,
                             const hd_options *opt)
{
    hd_signed_distance_result r;
    hd_status st;
    if (bt->ca != NULL) {
        hd_compound_signed_distance_result c;
        st = hd_compound_signed_distance(bt->ca, pose_a, bt->cb, pose_b, opt, &c);
        r = c.pair;
        r.signed_distance = c.signed_distance;
    } else {
        st = hd_signed_distance(bt->a, pose_a, bt->b, pose_b, opt, &r);
    }
    const signed_out *o = &bt->sd;
    o->delta[i] = r.signed_distance;
    memcpy(o->normal + 3 * i, r.normal, 3 * sizeof(double));
    memcpy(o->wit_a + 3 * i, r.witness_a, 3 * sizeof(double));
    memcpy(o->wit_b + 3 * i, r.witness_b, 3 * sizeof(double));
    if (o->grad_a != NULL) {
        memcpy(o->grad_a + 6 * i, r.gradient.a, 6 * sizeof(double));
        memcpy(o->grad_b + 6 * i, r.gradient.b, 6 * sizeof(double));
        o->unique[i] = (npy_bool)r.gradient.unique;
    }
    return st;
}

/* One pair's query, its answer stored at index i. */
static hd_status query_pair(batch *bt, npy_intp i, const hd_pose *pose_a, const hd_pose *pose_b,
                            const hd_options *opt)
{
    if (bt->query == BATCH_SIGNED) {
        return signed_pair(bt, i, pose_a, pose_b, opt);
    }
    hd_status st;
    if (bt->query == BATCH_COLLIDE) {
        hd_collide_result r;
        hd_compound_collide_result c;
        st = bt->ca != NULL ? hd_compound_collide(bt->ca, pose_a, bt->cb, pose_b, opt, &c)
                            : hd_collide(bt->a, pose_a, bt->b, pose_b, opt, &r);
        bt->verdict[i] = (npy_int8)(bt->ca != NULL ? c.verdict : r.verdict);
        return st;
    }
    hd_distance_result r;
    if (bt->ca != NULL) {
        hd_compound_distance_result c;
        st = hd_compound_distance(bt->ca, pose_a, bt->cb, pose_b, opt, &c);
        r = c.pair;
        r.distance = c.distance;
    } else {
        st = hd_distance(bt->a, pose_a, bt->b, pose_b, opt, &r);
    }
    bt->dist[i] = r.distance;
    if (bt->wit_a != NULL) {
        memcpy(bt->wit_a + 3 * i, r.witness_a, 3 * sizeof(double));
        memcpy(bt->wit_b + 3 * i, r.witness_b, 3 * sizeof(double));
    }
    return st;
}

/* The worker's workspace into opt, made on its first chunk (a worker runs one chunk at a time:
 * its slot is its own); -1 with the failure recorded at lo. */
static int attach_workspace(batch *bt, int worker, npy_intp lo, hd_options *opt)
{
    if (bt->ws[worker] == NULL && hd_workspace_create(bt->ws_capacity, &bt->ws[worker]) != HD_OK) {
        hdpy_job_fail(&bt->job, lo, HD_ERR_NO_MEMORY, "pair");
        return -1;
    }
    opt->workspace = bt->ws[worker];
    return 0;
}

/* Poses lo..hi-1 with one warm-start cache; stops at the first failure (job.fail_*). */
static void run_chunk(hdpy_job *job, int worker, npy_intp lo, npy_intp hi)
{
    batch *bt = (batch *)job;
    hd_cache cache = HD_CACHE_INIT;
    hd_options opt = bt->opt;
    opt.cache = bt->warm ? &cache : NULL;
    if (bt->ws_capacity > 0 && attach_workspace(bt, worker, lo, &opt) < 0) {
        return;
    }
    const double tol = opt.tol.pose_tol;
    const hd_pose *pose_a = bt->has_fixed_a ? &bt->fixed_a : NULL;
    hd_pose own_a, pose_b;
    for (npy_intp i = lo; i < hi; ++i) {
        hd_status st;
        if (bt->poses_a != NULL) {
            st = hdpy_pose_decode(bt->poses_a + i * bt->kind_a, bt->kind_a, tol, &own_a);
            if (st != HD_OK) {
                hdpy_job_fail(job, i, st, "poses_a");
                return;
            }
            pose_a = &own_a;
        }
        st = hdpy_pose_decode(bt->poses_b + i * bt->kind_b, bt->kind_b, tol, &pose_b);
        if (st != HD_OK) {
            hdpy_job_fail(job, i, st, "poses_b");
            return;
        }
        st = query_pair(bt, i, pose_a, &pose_b, &opt);
        if (st != HD_OK) {
            hdpy_job_fail(job, i, st, "pair");
            return;
        }
    }
}

void hdpy_run_chunked(hdpy_job *job, int threads)
{
    npy_intp chunks = threads == 1 ? 1 : (npy_intp)threads * HDPY_CHUNKS_PER_THREAD;
    job->chunk = (job->n + chunks - 1) / chunks;
    if (threads > 1 && job->chunk < HDPY_MIN_CHUNK) {
        job->chunk = HDPY_MIN_CHUNK;
    }
    if (job->chunk < 1) {
        job->chunk = 1;
    }
    npy_intp used = (job->n + job->chunk - 1) / job->chunk;
    hdpy_pool_run(job, used < threads ? (int)(used > 0 ? used : 1) : threads);
}

/* Raises the batch's first error, naming the pose index (also as the exception's .index). */
PyObject *hdpy_raise_job(const hdpy_job *job, const char *func)
{
    char context[160];
    if (strcmp(job->fail_what, "pair") == 0) {
        PyOS_snprintf(context, sizeof context, "%s: pair %zd", func, (Py_ssize_t)job->fail_index);
    } else {
        PyOS_snprintf(context, sizeof context, "%s: %s[%zd]", func, job->fail_what,
                      (Py_ssize_t)job->fail_index);
    }
    hdpy_raise(job->fail_status, context);
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *index = PyLong_FromSsize_t((Py_ssize_t)job->fail_index);
    if (value != NULL && index != NULL) {
        PyObject_SetAttrString(value, "index", index);
    }
    Py_XDECREF(index);
    PyErr_Restore(type, value, tb);
    return NULL;
}

/* The compound of a compound batch's argument, or NULL with TypeError. */
static const hd_compound *compound_arg(PyObject *obj, const char *func, const char *name)
{
    const hd_compound *c = hdpy_compound_of(obj);
    if (c == NULL) {
        PyErr_Format(PyExc_TypeError, "%s: %s must be a hedra.Compound, not %.100s", func, name,
                     Py_TYPE(obj)->tp_name);
    }
    return c;
}

/* a and b: Polytopes, or Compounds for a compound batch (func starting "compound_"). */
static int shapes(batch *bt, PyObject *a, PyObject *b, const char *func)
{
    if (strncmp(func, "compound_", 9) == 0) {
        bt->ca = compound_arg(a, func, "a");
        bt->cb = bt->ca ? compound_arg(b, func, "b") : NULL;
        return bt->cb != NULL ? 0 : -1;
    }
    bt->a = hdpy_polytope_get(a, "a");
    bt->b = bt->a ? hdpy_polytope_get(b, "b") : NULL;
    return bt->b != NULL ? 0 : -1;
}

/* Pose arrays and options shared by the batch functions; *arr_a, *arr_b keep the arrays. */
static int prepare(batch *bt, PyObject *a, PyObject *b, PyObject *poses_b, PyObject *poses_a,
                   PyObject *warm, const char *func, PyArrayObject **arr_a, PyArrayObject **arr_b)
{
    int single;
    if (shapes(bt, a, b, func) < 0 ||
        (*arr_b = hdpy_pose_array(poses_b, "poses_b", 0, &bt->kind_b, &single)) == NULL) {
        return -1;
    }
    bt->job.n = PyArray_DIM(*arr_b, 0);
    bt->poses_b = (const double *)PyArray_DATA(*arr_b);
    bt->warm = warm == NULL ? 1 : PyObject_IsTrue(warm);
    if (bt->warm < 0) {
        return -1;
    }
    bt->warm = bt->warm && bt->ca == NULL; /* the compound queries take no cache */
    if (poses_a == NULL || poses_a == Py_None) {
        return 0;
    }
    if ((*arr_a = hdpy_pose_array(poses_a, "poses_a", 1, &bt->kind_a, &single)) == NULL) {
        return -1;
    }
    const double *data = (const double *)PyArray_DATA(*arr_a);
    if (single) {
        bt->has_fixed_a = 1;
        hd_status st = hdpy_pose_decode(data, bt->kind_a, bt->opt.tol.pose_tol, &bt->fixed_a);
        return st == HD_OK ? 0 : (hdpy_raise(st, "poses_a"), -1);
    }
    if (PyArray_DIM(*arr_a, 0) != bt->job.n) {
        hdpy_invalid("poses_a holds %zd poses but poses_b %zd: give one for all, or one each",
                     (Py_ssize_t)PyArray_DIM(*arr_a, 0), (Py_ssize_t)bt->job.n);
        return -1;
    }
    bt->poses_a = data;
    return 0;
}

/* Runs a prepared batch without the GIL; raises its first error. */
static int execute(batch *bt, int threads, const char *func)
{
    bt->job.run = run_chunk;
    Py_BEGIN_ALLOW_THREADS
    hdpy_run_chunked(&bt->job, threads);
    Py_END_ALLOW_THREADS
    if (bt->job.fail_index < bt->job.n) {
        hdpy_raise_job(&bt->job, func);
        return -1;
    }
    return 0;
}

static PyObject *collide_many(const char *func, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kw)
{
    static const char *const names[] = {"a",       "b",    "poses_b",   "poses_a",
                                        "threads", "algo", "touch_rel", "warm_start"};
    PyObject *v[8], *out = NULL;
    PyArrayObject *arr_a = NULL, *arr_b = NULL;
    batch bt = {0};
    int threads;
    if (hdpy_parse_args(func, args, nargs, kw, names, 8, 3, v) == 0 &&
        hdpy_threads(v[4], &threads) == 0 && hdpy_options(v[5], v[6], &bt.opt) == 0 &&
        prepare(&bt, v[0], v[1], v[2], v[3], v[7], func, &arr_a, &arr_b) == 0) {
        npy_intp n = bt.job.n;
        out = PyArray_SimpleNew(1, &n, NPY_INT8);
        if (out != NULL) {
            bt.verdict = (npy_int8 *)PyArray_DATA((PyArrayObject *)out);
            if (execute(&bt, threads, func) < 0) {
                Py_CLEAR(out);
            }
        }
    }
    Py_XDECREF(arr_a);
    Py_XDECREF(arr_b);
    return out;
}

PyObject *hdpy_collide_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    return collide_many("collide_many", args, nargs, kw);
}

PyObject *hdpy_compound_collide_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kw)
{
    (void)self;
    return collide_many("compound_collide_many", args, nargs, kw);
}

/* The output arrays of distance_many: (N,) distances, and (N, 3) witnesses when asked. */
static PyObject *distance_outputs(batch *bt, int witnesses)
{
    npy_intp dims[2] = {bt->job.n, 3};
    PyObject *d = PyArray_SimpleNew(1, dims, NPY_DOUBLE);
    if (d == NULL || !witnesses) {
        bt->dist = d ? (double *)PyArray_DATA((PyArrayObject *)d) : NULL;
        return d;
    }
    PyObject *wa = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    PyObject *wb = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    if (wa == NULL || wb == NULL) {
        Py_DECREF(d);
        Py_XDECREF(wa);
        Py_XDECREF(wb);
        return NULL;
    }
    bt->dist = (double *)PyArray_DATA((PyArrayObject *)d);
    bt->wit_a = (double *)PyArray_DATA((PyArrayObject *)wa);
    bt->wit_b = (double *)PyArray_DATA((PyArrayObject *)wb);
    return Py_BuildValue("(NNN)", d, wa, wb);
}

static PyObject *distance_many(const char *func, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kw)
{
    static const char *const names[] = {"a",       "b",         "poses_b",    "poses_a",
                                        "threads", "touch_rel", "warm_start", "witnesses"};
    PyObject *v[8], *out = NULL;
    PyArrayObject *arr_a = NULL, *arr_b = NULL;
    batch bt = {0};
    int threads, witnesses = 0;
    bt.query = BATCH_DISTANCE;
    if (hdpy_parse_args(func, args, nargs, kw, names, 8, 3, v) == 0 &&
        hdpy_threads(v[4], &threads) == 0 && hdpy_options(NULL, v[5], &bt.opt) == 0 &&
        (witnesses = v[7] ? PyObject_IsTrue(v[7]) : 0) >= 0 &&
        prepare(&bt, v[0], v[1], v[2], v[3], v[6], func, &arr_a, &arr_b) == 0) {
        out = distance_outputs(&bt, witnesses);
        if (out != NULL && execute(&bt, threads, func) < 0) {
            Py_CLEAR(out);
        }
    }
    Py_XDECREF(arr_a);
    Py_XDECREF(arr_b);
    return out;
}

PyObject *hdpy_distance_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    return distance_many("distance_many", args, nargs, kw);
}

PyObject *hdpy_compound_distance_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                      PyObject *kw)
{
    (void)self;
    return distance_many("compound_distance_many", args, nargs, kw);
}

/* signed_distance_many's result (hdpy_signed_batch_new) over new arrays, bt->sd pointing into
 * them: signed distances (N,), normals and witnesses (N, 3), with gradient the gradients (N, 6)
 * and the unique flags (N,). */
static PyObject *signed_outputs(batch *bt, int gradient)
{
    static const int width[6] = {1, 3, 3, 3, 6, 6};
    double **rows[6] = {&bt->sd.delta, &bt->sd.normal, &bt->sd.wit_a,
                        &bt->sd.wit_b, &bt->sd.grad_a, &bt->sd.grad_b};
    PyObject *items[HDPY_SIGNED_BATCH_FIELDS] = {NULL};
    int arrays = gradient ? 6 : 4;
    for (int j = 0; j < arrays; ++j) {
        npy_intp dims[2] = {bt->job.n, width[j]};
        items[j] = PyArray_SimpleNew(width[j] > 1 ? 2 : 1, dims, NPY_DOUBLE);
        *rows[j] = items[j] ? (double *)PyArray_DATA((PyArrayObject *)items[j]) : NULL;
    }
    if (gradient) {
        items[6] = PyArray_SimpleNew(1, &bt->job.n, NPY_BOOL);
        bt->sd.unique = items[6] ? (npy_bool *)PyArray_DATA((PyArrayObject *)items[6]) : NULL;
    }
    return hdpy_signed_batch_new(items);
}

/* The batch's workspace capacity: 0 when the pair (the largest pieces) fits the stack scratch. */
static int signed_capacity(const batch *bt)
{
    if (bt->ca != NULL) {
        return hdpy_compound_contact_capacity(bt->ca, bt->cb);
    }
    int vertices = hd_polytope_vertex_count(bt->a) + hd_polytope_vertex_count(bt->b);
    return vertices > HDPY_CONTACT_STACK_VERTICES ? hd_contact_workspace_capacity(bt->a, bt->b) : 0;
}

/* Runs the batch with a workspace per worker when the pair does not fit the stack scratch. */
static int execute_signed(batch *bt, int threads, const char *func)
{
    bt->ws_capacity = signed_capacity(bt);
    if (bt->ws_capacity > 0) {
        bt->ws = PyMem_Calloc((size_t)threads, sizeof *bt->ws);
        if (bt->ws == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    int rc = execute(bt, threads, func);
    for (int k = 0; bt->ws != NULL && k < threads; ++k) {
        hd_workspace_destroy(bt->ws[k]);
    }
    PyMem_Free(bt->ws);
    return rc;
}

static PyObject *signed_distance_many(const char *func, PyObject *const *args, Py_ssize_t nargs,
                                      PyObject *kw)
{
    static const char *const names[] = {"a",       "b",         "poses_b", "poses_a",
                                        "threads", "touch_rel", "depth",   "gradient"};
    PyObject *v[8], *out = NULL;
    PyArrayObject *arr_a = NULL, *arr_b = NULL;
    batch bt = {0};
    int threads, gradient = 0;
    bt.query = BATCH_SIGNED;
    if (hdpy_parse_args(func, args, nargs, kw, names, 8, 3, v) == 0 &&
        hdpy_threads(v[4], &threads) == 0 && hdpy_options(NULL, v[5], &bt.opt) == 0 &&
        hdpy_contact_flags(v[6], v[7], &bt.opt, &gradient) == 0 &&
        prepare(&bt, v[0], v[1], v[2], v[3], Py_False, func, &arr_a, &arr_b) == 0) {
        out = signed_outputs(&bt, gradient);
        if (out != NULL && execute_signed(&bt, threads, func) < 0) {
            Py_CLEAR(out);
        }
    }
    Py_XDECREF(arr_a);
    Py_XDECREF(arr_b);
    return out;
}

PyObject *hdpy_signed_distance_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kw)
{
    (void)self;
    return signed_distance_many("signed_distance_many", args, nargs, kw);
}

PyObject *hdpy_compound_signed_distance_many(PyObject *self, PyObject *const *args,
                                             Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    return signed_distance_many("compound_signed_distance_many", args, nargs, kw);
}
