/* Shared declarations of the hedra Python extension (hedra._hedra): the CPython and numpy C APIs
 * over libhedra. Every cross-file symbol has the hdpy_ prefix; only PyInit__hedra is exported. */
#ifndef HEDRA_PY_H
#define HEDRA_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* module.c defines HDPY_MAIN: the numpy API table lives there */
#ifndef HDPY_MAIN
#define NO_IMPORT_ARRAY
#endif
#define PY_ARRAY_UNIQUE_SYMBOL hdpy_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <hedra/hedra.h>

/* ---- errors.c: exceptions carrying an hd_status ---- */
extern PyObject *hdpy_HedraError;        /* base: every error of the library */
extern PyObject *hdpy_InvalidInputError; /* also ValueError: bad arrays, poses, options */
extern PyObject *hdpy_ParseError;        /* also ValueError: malformed file (file, line) */
extern PyObject *hdpy_FileError;         /* also OSError: a file could not be opened or read */

int hdpy_errors_init(PyObject *module);
/* "HD_ERR_PARSE" etc., "HD_UNKNOWN" outside the enum. */
const char *hdpy_status_name(hd_status status);
/* Raises the exception of status with "context: description" as message; returns NULL. */
PyObject *hdpy_raise(hd_status status, const char *context);
/* The same with ": hint" after the status, saying what would be accepted. */
PyObject *hdpy_raise_hint(hd_status status, const char *context, const char *hint);
/* Raises ParseError / FileError from a reader's error (file and line as attributes). */
PyObject *hdpy_raise_parse(hd_status status, const hd_parse_error *err);
/* InvalidInputError with status HD_ERR_INVALID_ARG and a formatted message; returns NULL. */
PyObject *hdpy_invalid(const char *format, ...);

/* ---- args.c: vectorcall argument parsing, options ---- */
/* Fills out[0..count-1] from positional args and keywords named names[]; missing ones are NULL.
 * The first `required` must be present. Returns 0, or -1 with TypeError set. */
int hdpy_parse_args(const char *func, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                    const char *const *names, int count, int required, PyObject **out);
/* Query options from the keywords algo (str or None) and touch_rel (float or None). */
int hdpy_options(PyObject *algo, PyObject *touch_rel, hd_options *opt);
/* threads: None or 0 = every core available to the process, else 1..HDPY_MAX_THREADS. */
#define HDPY_MAX_THREADS 256
int hdpy_threads(PyObject *obj, int *threads);
int hdpy_core_count(void);

/* ---- pose.c: poses from a 7-sequence (qw, qx, qy, qz, tx, ty, tz) or a 4x4 matrix ---- */
/* obj None: *is_set = 0 (identity); else the pose, validated, *is_set = 1. name for messages. */
int hdpy_pose(PyObject *obj, const char *name, hd_pose *out, int *is_set);
/* The same with None (or NULL) giving the identity pose. */
int hdpy_pose_or_identity(PyObject *obj, const char *name, hd_pose *out);
/* A pose from 7 or 16 doubles (kind HDPY_POSE_QUAT or HDPY_POSE_MATRIX). */
enum { HDPY_POSE_QUAT = 7, HDPY_POSE_MATRIX = 16 };
hd_status hdpy_pose_decode(const double *v, int kind, double pose_tol, hd_pose *out);
/* A pose array: (N, 7) or (N, 4, 4) (or a single pose when allow_single: (7,) or (4, 4), given
 * N = 1 and *single = 1). The result is a C-contiguous float64 array (a copy when needed). */
/* "(3, 5)": an array's shape for messages. */
void hdpy_shape_str(PyArrayObject *arr, char *buf, size_t size);
PyArrayObject *hdpy_pose_array(PyObject *obj, const char *name, int allow_single, int *kind,
                               int *single);

/* ---- polytope.c: hedra.Polytope ---- */
typedef struct hdpy_polytope {
    PyObject_HEAD
    hd_polytope *poly;
} hdpy_polytope;
extern PyTypeObject hdpy_PolytopeType;
int hdpy_polytope_init_type(PyObject *module);
/* The hd_polytope of a hedra.Polytope argument, or NULL with TypeError. */
const hd_polytope *hdpy_polytope_get(PyObject *obj, const char *name);
/* A new hedra.Polytope owning poly (destroyed on failure). */
PyObject *hdpy_polytope_wrap(hd_polytope *poly);
/* A C-contiguous (n, 3) float64 array from an array-like; InvalidInputError on wrong shape. */
PyArrayObject *hdpy_points_array(PyObject *obj, const char *name);

/* ---- shapes.c: hedra.Sphere, Capsule, Box, Cylinder, Cone (hedra/shapes.h) ---- */
PyObject *hdpy_sphere(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_capsule(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_box(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_cylinder(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_cone(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
/* A 3-vector argument (direction, point) as doubles; -1 with InvalidInputError. */
int hdpy_vector3(PyObject *obj, const char *name, double out[3]);

/* ---- motion.c: hedra.toi, toi_twist, shape_cast, raycast, toi_many, raycast_many ---- */
int hdpy_motion_init_types(PyObject *module);
PyObject *hdpy_ray_result_new(const hd_ray_result *r); /* hedra.RayResult */
PyObject *hdpy_toi(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_toi_twist(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_shape_cast(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_raycast(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_toi_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_raycast_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);

/* ---- compound.c: hedra.Compound and its queries, hedra.enclosure ---- */
int hdpy_compound_init_type(PyObject *module);
PyObject *hdpy_compound_collide(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kw);
PyObject *hdpy_compound_distance(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kw);
PyObject *hdpy_compound_signed_distance(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                        PyObject *kw);
PyObject *hdpy_compound_contact_manifold(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                         PyObject *kw);
PyObject *hdpy_enclosure(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
/* The hd_compound of a hedra.Compound, or NULL (no exception) for any other object. */
const hd_compound *hdpy_compound_of(PyObject *obj);
/* The workspace capacity of the contact queries between two compounds, 0 when their largest
 * pieces fit the stack scratch (single calls and batches alike, for the same bits). */
int hdpy_compound_contact_capacity(const hd_compound *a, const hd_compound *b);
PyObject *hdpy_compound_collide_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kw);
PyObject *hdpy_compound_distance_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                      PyObject *kw);
PyObject *hdpy_compound_signed_distance_many(PyObject *self, PyObject *const *args,
                                             Py_ssize_t nargs, PyObject *kw);

/* ---- result.c: result objects ---- */
int hdpy_result_init_types(PyObject *module);
/* hedra.CollideResult and hedra.DistanceResult from a query's output; a and b are kept for
 * check(). */
PyObject *hdpy_collide_result_new(const hd_collide_result *r, PyObject *a, PyObject *b,
                                  const hd_pose *pose_a, const hd_pose *pose_b);
PyObject *hdpy_distance_result_new(const hd_distance_result *r, PyObject *a, PyObject *b,
                                   const hd_pose *pose_a, const hd_pose *pose_b, int with_gradient);
PyObject *hdpy_gap_result_new(const hd_gap_result *r);
PyObject *hdpy_verdict_str(hd_verdict v);    /* new reference to an interned string */
PyObject *hdpy_vec3(const double v[3]);      /* a new float64 array (3,) */
PyObject *hdpy_feature_new(hd_feature_id f); /* ('vertex'|'edge'|'face', index) */
/* A named tuple of type from count new references (NULL: None); NULL when any failed. */
PyObject *hdpy_fill(PyTypeObject *type, PyObject **items, int count);
PyObject *hdpy_stats_new(const hd_stats *s);
/* hedra.SignedDistanceResult of hd_signed_distance; hedra.Manifold of hd_contact_manifold. */
PyObject *hdpy_contact_new(const hd_signed_distance_result *c, int with_gradient);
PyObject *hdpy_manifold_new(const hd_manifold *m, const hd_signed_distance_result *c,
                            int with_gradient);

/* hedra.SignedDistanceBatch (signed_distance_many) from HDPY_SIGNED_BATCH_FIELDS new references
 * (NULL: None; any failure leaves an exception set and gives NULL). */
#define HDPY_SIGNED_BATCH_FIELDS 7
PyObject *hdpy_signed_batch_new(PyObject **items);

/* ---- cache.c: hedra.Cache (warm start for single calls) ---- */
extern PyTypeObject hdpy_CacheType;
int hdpy_cache_init_type(PyObject *module);
/* NULL or None gives *out = NULL; a hedra.Cache its hd_cache; else TypeError (-1). */
int hdpy_cache_get(PyObject *obj, hd_cache **out);

/* ---- scene.c: hedra.Scene ---- */
int hdpy_scene_init_type(PyObject *module);

/* ---- pool.c: the batch functions on the library's thread pool ---- */
typedef struct hdpy_job hdpy_job;
struct hdpy_job {
    npy_intp n, chunk; /* range [0, n) and chunk length */
    /* one chunk on worker `worker` (0 .. threads - 1; one chunk at a time each), without the GIL */
    void (*run)(hdpy_job *job, int worker, npy_intp lo, npy_intp hi);
    npy_intp fail_index; /* lowest failure reported by hdpy_job_fail, n when none */
    hd_status fail_status;
    const char *fail_what;
};
/* Runs every chunk of job (no chunk starting after a failure's index) on the calling thread and
 * threads - 1 workers of a library pool; returns when all are done. Call without the GIL. */
void hdpy_pool_run(hdpy_job *job, int threads);
/* Records a failure at index (the lowest one wins); chunks past it are not started. */
void hdpy_job_fail(hdpy_job *job, npy_intp index, hd_status status, const char *what);
int hdpy_pool_init(void); /* fork handlers */
/* Cuts job into chunks (one for one thread, else HDPY_CHUNKS_PER_THREAD per thread of at least
 * HDPY_MIN_CHUNK) and runs them with hdpy_pool_run; job->run must be set. Without the GIL. */
void hdpy_run_chunked(hdpy_job *job, int threads);
/* Raises a failed job's error, naming its index ("func: poses_b[12]: ..."; also .index). */
PyObject *hdpy_raise_job(const hdpy_job *job, const char *func);
/* A 4x4 float64 array of a pose. */
PyObject *hdpy_pose_matrix(const hd_pose *pose);

/* ---- query.c / batch.c: the module's functions ---- */
PyObject *hdpy_collide(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_distance(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_gap(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_contains(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_point_inside(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_collide_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_distance_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw);
PyObject *hdpy_signed_distance_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kw);
/* ---- contact.c ---- */
/* Up to this many vertices in a pair the contact queries run on the stack scratch; above, on a
 * workspace of hd_contact_workspace_capacity (the single calls and signed_distance_many alike,
 * so that both give the same bits). */
#define HDPY_CONTACT_STACK_VERTICES 64
/* The keywords depth (None, 'epa', 'sat') and gradient (truth value) into opt->flags; *gradient
 * says whether the gradient was asked. */
int hdpy_contact_flags(PyObject *depth, PyObject *gradient, hd_options *opt, int *asked);
PyObject *hdpy_signed_distance(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kw);
PyObject *hdpy_contact_manifold(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kw);

#endif
