/* Single queries: hedra.collide, distance, gap, contains, point_inside. Each parses its
 * arguments without building a tuple, runs the C query and wraps the result. The GIL is kept for
 * small polytopes (the query takes about a microsecond: releasing would cost more than it gives)
 * and released for large ones. */
#include "hedra_py.h"

/* Above this many vertices in a pair a query is long enough to let other threads run. */
#define HDPY_RELEASE_GIL_VERTICES 2048

/* The query statement, with the GIL released when the pair is large. */
#define HDPY_RUN(heavy, stmt)                                                                      \
    do {                                                                                           \
        if (heavy) {                                                                               \
            Py_BEGIN_ALLOW_THREADS                                                                 \
            stmt;                                                                                  \
            Py_END_ALLOW_THREADS                                                                   \
        } else {                                                                                   \
            stmt;                                                                                  \
        }                                                                                          \
    } while (0)

/* A posed pair with its options, parsed from Python. */
typedef struct pair_call {
    const hd_polytope *a, *b;
    hd_pose pose_a, pose_b;
    int has_a, has_b;
    hd_options opt;
    int heavy;
} pair_call;

static int pair_setup(pair_call *pc, PyObject *a, PyObject *b, PyObject *pose_a, PyObject *pose_b)
{
    pc->a = hdpy_polytope_get(a, "a");
    pc->b = b ? hdpy_polytope_get(b, "b") : NULL;
    if (pc->a == NULL || (b != NULL && pc->b == NULL)) {
        return -1;
    }
    if (hdpy_pose(pose_a, "pose_a", &pc->pose_a, &pc->has_a) < 0 ||
        hdpy_pose(pose_b, "pose_b", &pc->pose_b, &pc->has_b) < 0) {
        return -1;
    }
    int n = hd_polytope_vertex_count(pc->a) + (pc->b ? hd_polytope_vertex_count(pc->b) : 0);
    pc->heavy = n > HDPY_RELEASE_GIL_VERTICES;
    return 0;
}

static const hd_pose *pa(const pair_call *pc)
{
    return pc->has_a ? &pc->pose_a : NULL;
}

static const hd_pose *pb(const pair_call *pc)
{
    return pc->has_b ? &pc->pose_b : NULL;
}

PyObject *hdpy_collide(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"a", "b", "pose_a", "pose_b", "algo", "touch_rel", "cache"};
    PyObject *v[7];
    pair_call pc;
    if (hdpy_parse_args("collide", args, nargs, kw, names, 7, 2, v) < 0 ||
        pair_setup(&pc, v[0], v[1], v[2], v[3]) < 0 || hdpy_options(v[4], v[5], &pc.opt) < 0 ||
        hdpy_cache_get(v[6], &pc.opt.cache) < 0) {
        return NULL;
    }
    hd_collide_result r;
    hd_status st;
    HDPY_RUN(pc.heavy, st = hd_collide(pc.a, pa(&pc), pc.b, pb(&pc), &pc.opt, &r));
    if (st != HD_OK) {
        return hdpy_raise(st, "collide");
    }
    return hdpy_collide_result_new(&r, v[0], v[1], pa(&pc), pb(&pc));
}

PyObject *hdpy_distance(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"a",         "b",     "pose_a",  "pose_b",
                                        "touch_rel", "cache", "gradient"};
    PyObject *v[7];
    pair_call pc;
    int gradient = 0;
    if (hdpy_parse_args("distance", args, nargs, kw, names, 7, 2, v) < 0 ||
        pair_setup(&pc, v[0], v[1], v[2], v[3]) < 0 || hdpy_options(NULL, v[4], &pc.opt) < 0 ||
        hdpy_cache_get(v[5], &pc.opt.cache) < 0 ||
        hdpy_contact_flags(NULL, v[6], &pc.opt, &gradient) < 0) {
        return NULL;
    }
    hd_distance_result r;
    hd_status st;
    HDPY_RUN(pc.heavy, st = hd_distance(pc.a, pa(&pc), pc.b, pb(&pc), &pc.opt, &r));
    if (st != HD_OK) {
        return hdpy_raise(st, "distance");
    }
    return hdpy_distance_result_new(&r, v[0], v[1], pa(&pc), pb(&pc), gradient);
}

int hdpy_vector3(PyObject *obj, const char *name, double out[3])
{
    PyArrayObject *arr =
        (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 0, 0, NPY_ARRAY_IN_ARRAY);
    if (arr == NULL) {
        return -1;
    }
    int ok = PyArray_NDIM(arr) == 1 && PyArray_DIM(arr, 0) == 3;
    if (ok) {
        memcpy(out, PyArray_DATA(arr), 3 * sizeof(double));
    }
    Py_DECREF(arr);
    if (!ok) {
        hdpy_invalid("%s must be 3 numbers (x, y, z)", name);
        return -1;
    }
    return 0;
}

PyObject *hdpy_gap(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"a", "b", "direction", "pose_a", "pose_b", "touch_rel"};
    PyObject *v[6];
    pair_call pc;
    double dir[3];
    if (hdpy_parse_args("gap", args, nargs, kw, names, 6, 3, v) < 0 ||
        pair_setup(&pc, v[0], v[1], v[3], v[4]) < 0 || hdpy_vector3(v[2], "direction", dir) < 0 ||
        hdpy_options(NULL, v[5], &pc.opt) < 0) {
        return NULL;
    }
    hd_gap_result r;
    hd_status st;
    HDPY_RUN(pc.heavy, st = hd_gap(pc.a, pa(&pc), pc.b, pb(&pc), dir, &pc.opt, &r));
    if (st != HD_OK) {
        return hdpy_raise(st, "gap");
    }
    return hdpy_gap_result_new(&r);
}

PyObject *hdpy_contains(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"a", "b", "pose_a", "pose_b", "touch_rel"};
    PyObject *v[5];
    pair_call pc;
    if (hdpy_parse_args("contains", args, nargs, kw, names, 5, 2, v) < 0 ||
        pair_setup(&pc, v[0], v[1], v[2], v[3]) < 0 || hdpy_options(NULL, v[4], &pc.opt) < 0) {
        return NULL;
    }
    bool inside = false;
    hd_status st;
    HDPY_RUN(pc.heavy, st = hd_contains(pc.a, pa(&pc), pc.b, pb(&pc), &pc.opt, &inside));
    if (st != HD_OK) {
        return hdpy_raise(st, "contains");
    }
    return PyBool_FromLong(inside);
}

PyObject *hdpy_point_inside(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"a", "point", "pose_a", "touch_rel"};
    PyObject *v[4];
    pair_call pc;
    double p[3];
    if (hdpy_parse_args("point_inside", args, nargs, kw, names, 4, 2, v) < 0 ||
        pair_setup(&pc, v[0], NULL, v[2], NULL) < 0 || hdpy_vector3(v[1], "point", p) < 0 ||
        hdpy_options(NULL, v[3], &pc.opt) < 0) {
        return NULL;
    }
    hd_verdict verdict;
    hd_status st;
    HDPY_RUN(pc.heavy, st = hd_point_inside(pc.a, pa(&pc), p, &pc.opt, &verdict));
    if (st != HD_OK) {
        return hdpy_raise(st, "point_inside");
    }
    return hdpy_verdict_str(verdict);
}
