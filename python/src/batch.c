/* Batches: hedra.collide_many and hedra.distance_many run one query per pose of an (N, 7) or
 * (N, 4, 4) array in C, with the GIL released, on the thread pool (pool.c; the calling thread is
 * one of its workers). The batch is cut into contiguous chunks handed out in order; each chunk
 * keeps one hd_cache along its consecutive poses (warm start: the simplex and support vertices
 * of pose i start the query of pose i + 1). The answers do not depend on the thread count or the
 * chunking; the warm start changes only the time (distances may differ in the last bits). */
#include "hedra_py.h"

/* Chunks per thread: a few, so that a slow region of the batch does not idle the other threads,
 * but long enough for the warm start to pay and for the hand-out to cost nothing. */
#define HDPY_CHUNKS_PER_THREAD 4
#define HDPY_MIN_CHUNK 256

typedef struct batch {
    hdpy_job job; /* first: run_chunk gets the batch back from it */
    const hd_polytope *a, *b;
    const double *poses_a; /* NULL: pose_a fixed (fixed_a, or identity when !has_fixed_a) */
    const double *poses_b;
    int kind_a, kind_b;
    int has_fixed_a;
    hd_pose fixed_a;
    hd_options opt;
    int distance, warm;
    npy_int8 *verdict;            /* collide_many */
    double *dist, *wit_a, *wit_b; /* distance_many (witnesses optional) */
} batch;

/* One pair's query, its answer stored at index i. */
static hd_status query_pair(batch *bt, npy_intp i, const hd_pose *pose_a, const hd_pose *pose_b,
                            const hd_options *opt)
{
    if (!bt->distance) {
        hd_collide_result r;
        hd_status st = hd_collide(bt->a, pose_a, bt->b, pose_b, opt, &r);
        bt->verdict[i] = (npy_int8)r.verdict;
        return st;
    }
    hd_distance_result r;
    hd_status st = hd_distance(bt->a, pose_a, bt->b, pose_b, opt, &r);
    bt->dist[i] = r.distance;
    if (bt->wit_a != NULL) {
        memcpy(bt->wit_a + 3 * i, r.witness_a, 3 * sizeof(double));
        memcpy(bt->wit_b + 3 * i, r.witness_b, 3 * sizeof(double));
    }
    return st;
}

/* Poses lo..hi-1 with one warm-start cache; stops at the first failure (job.fail_*). */
static void run_chunk(hdpy_job *job, npy_intp lo, npy_intp hi)
{
    batch *bt = (batch *)job;
    hd_cache cache = HD_CACHE_INIT;
    hd_options opt = bt->opt;
    opt.cache = bt->warm ? &cache : NULL;
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

/* Runs the batch on `threads` threads (the caller's included); called without the GIL. */
static void run_batch(batch *bt, int threads)
{
    hdpy_job *job = &bt->job;
    npy_intp chunks = threads == 1 ? 1 : (npy_intp)threads * HDPY_CHUNKS_PER_THREAD;
    job->chunk = (job->n + chunks - 1) / chunks;
    if (threads > 1 && job->chunk < HDPY_MIN_CHUNK) {
        job->chunk = HDPY_MIN_CHUNK;
    }
    if (job->chunk < 1) {
        job->chunk = 1;
    }
    npy_intp used = (job->n + job->chunk - 1) / job->chunk;
    job->run = run_chunk;
    hdpy_pool_run(job, used < threads ? (int)(used > 0 ? used : 1) : threads);
}

/* Raises the batch's first error, naming the pose index (also as the exception's .index). */
static PyObject *raise_batch_error(const batch *bt, const char *func)
{
    char context[160];
    if (strcmp(bt->job.fail_what, "pair") == 0) {
        PyOS_snprintf(context, sizeof context, "%s: pair %zd", func,
                      (Py_ssize_t)bt->job.fail_index);
    } else {
        PyOS_snprintf(context, sizeof context, "%s: %s[%zd]", func, bt->job.fail_what,
                      (Py_ssize_t)bt->job.fail_index);
    }
    hdpy_raise(bt->job.fail_status, context);
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *index = PyLong_FromSsize_t((Py_ssize_t)bt->job.fail_index);
    if (value != NULL && index != NULL) {
        PyObject_SetAttrString(value, "index", index);
    }
    Py_XDECREF(index);
    PyErr_Restore(type, value, tb);
    return NULL;
}

/* Pose arrays and options shared by both batch functions; *arr_a, *arr_b keep the arrays. */
static int prepare(batch *bt, PyObject *a, PyObject *b, PyObject *poses_b, PyObject *poses_a,
                   PyObject *warm, PyArrayObject **arr_a, PyArrayObject **arr_b)
{
    int single;
    bt->a = hdpy_polytope_get(a, "a");
    bt->b = bt->a ? hdpy_polytope_get(b, "b") : NULL;
    if (bt->b == NULL ||
        (*arr_b = hdpy_pose_array(poses_b, "poses_b", 0, &bt->kind_b, &single)) == NULL) {
        return -1;
    }
    bt->job.n = PyArray_DIM(*arr_b, 0);
    bt->poses_b = (const double *)PyArray_DATA(*arr_b);
    bt->warm = warm == NULL ? 1 : PyObject_IsTrue(warm);
    if (bt->warm < 0) {
        return -1;
    }
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
    Py_BEGIN_ALLOW_THREADS
    run_batch(bt, threads);
    Py_END_ALLOW_THREADS
    if (bt->job.fail_index < bt->job.n) {
        raise_batch_error(bt, func);
        return -1;
    }
    return 0;
}

PyObject *hdpy_collide_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"a",       "b",    "poses_b",   "poses_a",
                                        "threads", "algo", "touch_rel", "warm_start"};
    PyObject *v[8], *out = NULL;
    PyArrayObject *arr_a = NULL, *arr_b = NULL;
    batch bt = {0};
    int threads;
    if (hdpy_parse_args("collide_many", args, nargs, kw, names, 8, 3, v) == 0 &&
        hdpy_threads(v[4], &threads) == 0 && hdpy_options(v[5], v[6], &bt.opt) == 0 &&
        prepare(&bt, v[0], v[1], v[2], v[3], v[7], &arr_a, &arr_b) == 0) {
        npy_intp n = bt.job.n;
        out = PyArray_SimpleNew(1, &n, NPY_INT8);
        if (out != NULL) {
            bt.verdict = (npy_int8 *)PyArray_DATA((PyArrayObject *)out);
            if (execute(&bt, threads, "collide_many") < 0) {
                Py_CLEAR(out);
            }
        }
    }
    Py_XDECREF(arr_a);
    Py_XDECREF(arr_b);
    return out;
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

PyObject *hdpy_distance_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"a",       "b",         "poses_b",    "poses_a",
                                        "threads", "touch_rel", "warm_start", "witnesses"};
    PyObject *v[8], *out = NULL;
    PyArrayObject *arr_a = NULL, *arr_b = NULL;
    batch bt = {0};
    int threads, witnesses = 0;
    bt.distance = 1;
    if (hdpy_parse_args("distance_many", args, nargs, kw, names, 8, 3, v) == 0 &&
        hdpy_threads(v[4], &threads) == 0 && hdpy_options(NULL, v[5], &bt.opt) == 0 &&
        (witnesses = v[7] ? PyObject_IsTrue(v[7]) : 0) >= 0 &&
        prepare(&bt, v[0], v[1], v[2], v[3], v[6], &arr_a, &arr_b) == 0) {
        out = distance_outputs(&bt, witnesses);
        if (out != NULL && execute(&bt, threads, "distance_many") < 0) {
            Py_CLEAR(out);
        }
    }
    Py_XDECREF(arr_a);
    Py_XDECREF(arr_b);
    return out;
}
