/* hedra.Scene: many moving bodies (hedra/scene.h). The Python object keeps every body's Polytope
 * or Compound alive (the C scene shares the shapes without copying them): in `shapes`, id ->
 * shape, and a removed body's shape until the next step, after which the C scene no longer refers
 * to it.
 * step() runs without the GIL on the scene's own threads; a scene is used by one Python thread
 * at a time (`busy` refuses a second). */
#include <math.h>

#include "hedra_py.h"

#include <limits.h>

typedef struct hdpy_scene {
    PyObject_HEAD
    hd_scene *scene;
    PyObject *shapes;  /* dict: body id -> Polytope or Compound */
    PyObject *removed; /* list: shapes of bodies removed since the last step */
    PyObject *stats;   /* dict of the last step's stats, or None */
    PyObject *details; /* dict of arrays: the last step's contact details, or None */
    PyObject *pieces;  /* (K, 2) int array: the last step's piece ids, or None */
    PyObject *toi;     /* (K,) float64 array: the last step's times of impact, or None */
    hd_scene_detail detail;
    int gradient; /* details carry the contacts' pose gradients */
    int busy;
} hdpy_scene;

static int check_idle(hdpy_scene *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the scene is in use by another thread");
        return -1;
    }
    return 0;
}

static int scene_options(PyObject *args, PyObject *kwds, hd_scene_options *opt)
{
    static char *kwlist[] = {"threads",   "broadphase",      "margin",   "algo",
                             "touch_rel", "depth",           "manifold", "gradient",
                             "proximity", "sweep_threshold", NULL};
    PyObject *threads = NULL, *algo = NULL, *touch_rel = NULL;
    const char *broadphase = NULL;
    int depth = 0, manifold = 0, gradient = 0;
    hd_options q;
    *opt = hd_scene_options_default();
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OzdOOpppdd:Scene", kwlist, &threads, &broadphase,
                                     &opt->margin, &algo, &touch_rel, &depth, &manifold, &gradient,
                                     &opt->proximity, &opt->sweep_threshold) ||
        hdpy_threads(threads, &opt->threads) < 0 || hdpy_options(algo, touch_rel, &q) < 0) {
        return -1;
    }
    if (!(opt->sweep_threshold >= 0.0)) { /* NaN too; inf: no body is swept */
        PyObject *given = PyFloat_FromDouble(opt->sweep_threshold);
        if (given != NULL) {
            hdpy_invalid("Scene: sweep_threshold must be >= 0 (inf: no sweep), not %R", given);
            Py_DECREF(given);
        }
        return -1;
    }
    opt->gradient = gradient != 0;
    opt->detail = manifold ? HD_SCENE_MANIFOLD : depth ? HD_SCENE_DEPTH : HD_SCENE_VERDICT;
    if (opt->proximity > 0.0 && opt->detail == HD_SCENE_VERDICT) {
        opt->detail = HD_SCENE_DEPTH; /* as hd_scene_create does: near pairs carry details */
    }
    opt->algo = q.algo;
    opt->tol = q.tol;
    if (broadphase != NULL && hd_broadphase_parse(broadphase, &opt->broadphase) != HD_OK) {
        hdpy_invalid("broadphase must be 'tree' or 'sap', not '%s'", broadphase);
        return -1;
    }
    return 0;
}

static PyObject *scene_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    hd_scene_options opt;
    if (scene_options(args, kwds, &opt) < 0) {
        return NULL;
    }
    hdpy_scene *self = (hdpy_scene *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->shapes = PyDict_New();
    self->removed = PyList_New(0);
    self->stats = Py_NewRef(Py_None);
    self->details = Py_NewRef(Py_None);
    self->pieces = Py_NewRef(Py_None);
    self->toi = Py_NewRef(Py_None);
    self->detail = opt.detail;
    self->gradient = opt.gradient;
    if (self->shapes == NULL || self->removed == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    hd_status st;
    Py_BEGIN_ALLOW_THREADS
    st = hd_scene_create(&opt, &self->scene);
    Py_END_ALLOW_THREADS
    if (st != HD_OK) {
        Py_DECREF(self);
        return hdpy_raise(st, "Scene");
    }
    return (PyObject *)self;
}

static void scene_dealloc(hdpy_scene *self)
{
    if (self->scene != NULL) {
        Py_BEGIN_ALLOW_THREADS
        hd_scene_destroy(self->scene);
        Py_END_ALLOW_THREADS
    }
    Py_XDECREF(self->shapes);
    Py_XDECREF(self->removed);
    Py_XDECREF(self->stats);
    Py_XDECREF(self->details);
    Py_XDECREF(self->pieces);
    Py_XDECREF(self->toi);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* body(polytope or compound, pose) into the scene; -1 with the exception set. */
static int add_body(hdpy_scene *self, PyObject *shape, const hd_pose *pose, int *id)
{
    const hd_compound *compound = hdpy_compound_of(shape);
    const hd_polytope *poly = NULL;
    if (compound == NULL && !PyObject_TypeCheck(shape, &hdpy_PolytopeType)) {
        PyErr_Format(PyExc_TypeError,
                     "Scene.add: polytope must be a hedra.Polytope or hedra.Compound, not %.100s",
                     Py_TYPE(shape)->tp_name);
        return -1;
    }
    if (compound == NULL && (poly = hdpy_polytope_get(shape, "polytope")) == NULL) {
        return -1;
    }
    hd_status st = compound != NULL ? hd_scene_add_compound(self->scene, compound, pose, NULL, id)
                                    : hd_scene_add(self->scene, poly, pose, NULL, id);
    return st == HD_OK ? 0 : (hdpy_raise(st, "Scene.add"), -1);
}

/* add(polytope, pose=None) -> id; polytope may be a Compound */
static PyObject *scene_add(hdpy_scene *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"polytope", "pose", NULL};
    PyObject *shape, *pose_obj = Py_None;
    hd_pose pose;
    int has_pose, id;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:add", kwlist, &shape, &pose_obj) ||
        check_idle(self) < 0) {
        return NULL;
    }
    if (hdpy_pose(pose_obj, "pose", &pose, &has_pose) < 0 ||
        add_body(self, shape, has_pose ? &pose : NULL, &id) < 0) {
        return NULL;
    }
    PyObject *key = PyLong_FromLong(id);
    if (key == NULL || PyDict_SetItem(self->shapes, key, shape) < 0) {
        Py_XDECREF(key);
        hd_scene_remove(self->scene, id); /* keep the two sides in agreement */
        return NULL;
    }
    return key;
}

/* The Polytope of body id (borrowed), or NULL with InvalidInputError. */
static PyObject *body_shape(hdpy_scene *self, int id, PyObject **key)
{
    *key = PyLong_FromLong(id);
    PyObject *shape = *key ? PyDict_GetItemWithError(self->shapes, *key) : NULL;
    if (shape == NULL && !PyErr_Occurred()) {
        hdpy_invalid("no body %d in the scene", id);
    }
    return shape;
}

static PyObject *scene_remove(hdpy_scene *self, PyObject *arg)
{
    int id = PyLong_AsLong(arg);
    PyObject *key = NULL;
    if ((id == -1 && PyErr_Occurred()) || check_idle(self) < 0) {
        return NULL;
    }
    PyObject *shape = body_shape(self, id, &key);
    int bad = shape == NULL || PyList_Append(self->removed, shape) < 0;
    if (!bad) {
        hd_scene_remove(self->scene, id);
        bad = PyDict_DelItem(self->shapes, key) < 0;
    }
    Py_XDECREF(key);
    if (bad) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *scene_move(hdpy_scene *self, PyObject *args)
{
    int id, has_pose;
    PyObject *pose_obj;
    hd_pose pose;
    if (!PyArg_ParseTuple(args, "iO:move", &id, &pose_obj) || check_idle(self) < 0 ||
        hdpy_pose(pose_obj, "pose", &pose, &has_pose) < 0) {
        return NULL;
    }
    if (!has_pose) {
        pose = hd_pose_identity();
    }
    hd_status st = hd_scene_move(self->scene, id, &pose);
    if (st != HD_OK) {
        return hdpy_raise(st, "Scene.move");
    }
    Py_RETURN_NONE;
}

/* set_velocity(id, v, w=(0, 0, 0)): the body's twist over the next frames */
static PyObject *scene_set_velocity(hdpy_scene *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"id", "v", "w", NULL};
    int id;
    PyObject *v_obj, *w_obj = NULL;
    double v[3], w[3] = {0.0, 0.0, 0.0};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO|O:set_velocity", kwlist, &id, &v_obj,
                                     &w_obj) ||
        check_idle(self) < 0 || hdpy_vector3(v_obj, "v", v) < 0 ||
        (w_obj != NULL && hdpy_vector3(w_obj, "w", w) < 0)) {
        return NULL;
    }
    hd_status st = hd_scene_set_velocity(self->scene, id, v, w);
    if (st == HD_ERR_INVALID_ARG) {
        return hdpy_invalid("Scene.set_velocity: no body %d in the scene", id);
    }
    if (st != HD_OK) {
        return hdpy_raise(st, "Scene.set_velocity");
    }
    Py_RETURN_NONE;
}

/* set_filter(id, category=1, mask=0xffffffff, group=0) */
static PyObject *scene_set_filter(hdpy_scene *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"id", "category", "mask", "group", NULL};
    int id;
    unsigned long long category = 1, mask = 0xffffffffu;
    hd_scene_filter f = hd_scene_filter_default();
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "i|KKi:set_filter", kwlist, &id, &category, &mask,
                                     &f.group) ||
        check_idle(self) < 0) {
        return NULL;
    }
    if (category > 0xffffffffu || mask > 0xffffffffu) {
        return hdpy_invalid("category and mask must be in [0, 2**32 - 1]");
    }
    f.category = (uint32_t)category;
    f.mask = (uint32_t)mask;
    hd_status st = hd_scene_set_filter(self->scene, id, &f);
    if (st != HD_OK) {
        return hdpy_raise(st, "Scene.set_filter");
    }
    Py_RETURN_NONE;
}

/* filter(id) -> (category, mask, group) */
static PyObject *scene_filter(hdpy_scene *self, PyObject *arg)
{
    int id = PyLong_AsLong(arg);
    hd_scene_filter f;
    if (id == -1 && PyErr_Occurred()) {
        return NULL;
    }
    hd_status st = hd_scene_filter_of(self->scene, id, &f);
    if (st != HD_OK) {
        return hdpy_raise(st, "Scene.filter");
    }
    return Py_BuildValue("(kki)", (unsigned long)f.category, (unsigned long)f.mask, f.group);
}

/* ids as a 1-D int64 or uint64 array: any integer dtype (numpy's default int64 included); a
 * non-integer dtype is a TypeError, since a float is not a body id. */
static PyArrayObject *id_array(PyObject *obj)
{
    PyArrayObject *raw =
        (PyArrayObject *)PyArray_FROMANY(obj, NPY_NOTYPE, 1, 1, NPY_ARRAY_IN_ARRAY);
    if (raw == NULL) {
        return NULL;
    }
    if (!PyArray_ISINTEGER(raw) && PyArray_SIZE(raw) > 0) {
        PyErr_Format(PyExc_TypeError, "Scene.move_many: ids must be integers, not %s",
                     PyArray_DESCR(raw)->typeobj->tp_name);
        Py_DECREF(raw);
        return NULL;
    }
    int type = PyArray_ISUNSIGNED(raw) ? NPY_UINT64 : NPY_INT64;
    PyArrayObject *ids = (PyArrayObject *)PyArray_CastToType(raw, PyArray_DescrFromType(type), 0);
    Py_DECREF(raw);
    return ids;
}

/* ids[i] as a body id when it fits an int, else -1 (no body has it); whether a body has the id
 * is hd_scene_move's to say. */
static int id_at(PyArrayObject *ids, npy_intp i)
{
    const void *data = PyArray_DATA(ids);
    if (PyArray_TYPE(ids) == NPY_UINT64) {
        npy_uint64 u = ((const npy_uint64 *)data)[i];
        return u <= INT_MAX ? (int)u : -1;
    }
    npy_int64 v = ((const npy_int64 *)data)[i];
    return v >= 0 && v <= INT_MAX ? (int)v : -1;
}

/* InvalidInputError naming ids[i] with its value as given. */
static void no_such_body(PyArrayObject *ids, npy_intp i)
{
    char text[24];
    const void *data = PyArray_DATA(ids);
    if (PyArray_TYPE(ids) == NPY_UINT64) {
        PyOS_snprintf(text, sizeof text, "%llu", (unsigned long long)((const npy_uint64 *)data)[i]);
    } else {
        PyOS_snprintf(text, sizeof text, "%lld", (long long)((const npy_int64 *)data)[i]);
    }
    hdpy_invalid("Scene.move_many: ids[%zd] = %s: no such body in the scene", (Py_ssize_t)i, text);
}

/* move_many(ids, poses): body ids[i] to poses[i], (N, 7) or (N, 4, 4). A failure raises for its
 * index; the bodies before it are moved. */
static PyObject *scene_move_many(hdpy_scene *self, PyObject *args)
{
    PyObject *ids_obj, *poses_obj;
    int kind, single;
    if (!PyArg_ParseTuple(args, "OO:move_many", &ids_obj, &poses_obj) || check_idle(self) < 0) {
        return NULL;
    }
    PyArrayObject *ids = id_array(ids_obj);
    PyArrayObject *poses = ids ? hdpy_pose_array(poses_obj, "poses", 0, &kind, &single) : NULL;
    PyObject *result = NULL;
    if (poses != NULL && PyArray_DIM(poses, 0) != PyArray_DIM(ids, 0)) {
        hdpy_invalid("ids and poses differ in length");
    } else if (poses != NULL) {
        const double *v = (const double *)PyArray_DATA(poses);
        npy_intp n = PyArray_DIM(ids, 0), i = 0;
        hd_status st = HD_OK;
        for (; i < n && st == HD_OK; ++i) {
            int id = id_at(ids, i);
            hd_pose pose;
            /* HD_ERR_INVALID_ARG from hd_scene_move means the same: no body has the id */
            st = id < 0 ? HD_ERR_INVALID_ARG
                        : hdpy_pose_decode(v + i * kind, kind, HD_DEFAULT_POSE_TOL, &pose);
            st = st == HD_OK ? hd_scene_move(self->scene, id, &pose) : st;
        }
        if (st == HD_OK) {
            result = Py_NewRef(Py_None);
        } else if (st == HD_ERR_INVALID_ARG) {
            no_such_body(ids, i - 1);
        } else {
            char context[64];
            PyOS_snprintf(context, sizeof context, "Scene.move_many: body %zd",
                          (Py_ssize_t)(i - 1));
            hdpy_raise(st, context);
        }
    }
    Py_XDECREF(ids);
    Py_XDECREF(poses);
    return result;
}

static PyObject *stats_dict(const hd_scene_stats *s)
{
    return Py_BuildValue(
        "{si si si si si si si si si si si sL sL sL sL si ss si si}", "bodies", s->bodies, "moved",
        s->moved, "pairs", s->pairs, "pairs_added", s->pairs_added, "pairs_removed",
        s->pairs_removed, "tested", s->tested, "swept", s->swept, "contacts", s->contacts, "near",
        s->near, "reinserted", s->reinserted, "threads", s->threads, "boxes_ns", s->boxes_ns,
        "broad_ns", s->broad_ns, "narrow_ns", s->narrow_ns, "sort_ns", s->sort_ns, "failures",
        s->failures, "failed_status", s->failures ? hdpy_status_name(s->failed_status) : NULL,
        "failed_a", s->failed_a, "failed_b", s->failed_b);
}

/* The contacts as ((K, 2) ids, (K,) int8 verdicts). */
static PyObject *contact_arrays(const hd_scene_contact *c, int count)
{
    npy_intp dims[2] = {count, 2};
    PyObject *pairs = PyArray_SimpleNew(2, dims, NPY_INT);
    PyObject *verdicts = PyArray_SimpleNew(1, dims, NPY_INT8);
    if (pairs == NULL || verdicts == NULL) {
        Py_XDECREF(pairs);
        Py_XDECREF(verdicts);
        return NULL;
    }
    int *p = (int *)PyArray_DATA((PyArrayObject *)pairs);
    npy_int8 *v = (npy_int8 *)PyArray_DATA((PyArrayObject *)verdicts);
    for (int k = 0; k < count; ++k) {
        p[2 * k] = c[k].a;
        p[2 * k + 1] = c[k].b;
        v[k] = (npy_int8)c[k].verdict;
    }
    return Py_BuildValue("(NN)", pairs, verdicts);
}

/* The contacts' piece ids as a (K, 2) int array (-1 on the side of a plain body). */
static PyObject *piece_array(const hd_scene_contact *c, int count)
{
    npy_intp dims[2] = {count, 2};
    PyObject *pieces = PyArray_SimpleNew(2, dims, NPY_INT);
    int *p = pieces != NULL ? (int *)PyArray_DATA((PyArrayObject *)pieces) : NULL;
    for (int k = 0; p != NULL && k < count; ++k) {
        p[2 * k] = c[k].piece_a;
        p[2 * k + 1] = c[k].piece_b;
    }
    return pieces;
}

/* The contacts' times of impact as a (K,) float64 array (1 for a pair not swept). */
static PyObject *toi_array(const hd_scene_contact *c, int count)
{
    npy_intp n = count;
    PyObject *toi = PyArray_SimpleNew(1, &n, NPY_DOUBLE);
    double *t = toi != NULL ? (double *)PyArray_DATA((PyArrayObject *)toi) : NULL;
    for (int k = 0; t != NULL && k < count; ++k) {
        t[k] = c[k].toi;
    }
    return toi;
}

/* A new float64 array of shape dims[0 .. nd - 1]; NULL (exception set) on failure. */
static PyObject *new_doubles(int nd, npy_intp d0, npy_intp d1, npy_intp d2, double **data)
{
    npy_intp dims[3] = {d0, d1, d2};
    PyObject *a = PyArray_ZEROS(nd, dims, NPY_DOUBLE, 0);
    *data = a != NULL ? (double *)PyArray_DATA((PyArrayObject *)a) : NULL;
    return a;
}

/* The manifolds as (K,) counts, (K, 4, 3) points and (K, 4) separations (unused slots 0). */
static int manifold_arrays(PyObject *d, const hd_scene_contact *c, int count)
{
    npy_intp n = count;
    double *pt, *sep;
    PyObject *counts = PyArray_SimpleNew(1, &n, NPY_INT);
    PyObject *points = new_doubles(3, n, HD_MANIFOLD_MAX, 3, &pt);
    PyObject *seps = new_doubles(2, n, HD_MANIFOLD_MAX, 0, &sep);
    int ok = counts != NULL && points != NULL && seps != NULL;
    for (int k = 0; ok && k < count; ++k) {
        const hd_manifold *m = c[k].manifold;
        ((int *)PyArray_DATA((PyArrayObject *)counts))[k] = m->count;
        for (int i = 0; i < m->count; ++i) {
            memcpy(pt + 3 * (HD_MANIFOLD_MAX * k + i), m->points[i].point, 3 * sizeof(double));
            sep[HD_MANIFOLD_MAX * k + i] = m->points[i].separation;
        }
    }
    ok = ok && PyDict_SetItemString(d, "manifold_count", counts) == 0 &&
         PyDict_SetItemString(d, "manifold_points", points) == 0 &&
         PyDict_SetItemString(d, "manifold_separation", seps) == 0;
    Py_XDECREF(counts);
    Py_XDECREF(points);
    Py_XDECREF(seps);
    return ok ? 0 : -1;
}

/* The contacts' pose gradients as (K, 6) gradient_a, gradient_b and (K,) gradient_unique. */
static int gradient_arrays(PyObject *d, const hd_scene_contact *c, int count)
{
    npy_intp n = count;
    double *ga, *gb;
    PyObject *a = new_doubles(2, n, 6, 0, &ga);
    PyObject *b = new_doubles(2, n, 6, 0, &gb);
    PyObject *unique = PyArray_ZEROS(1, &n, NPY_BOOL, 0);
    int ok = a != NULL && b != NULL && unique != NULL;
    for (int k = 0; ok && k < count; ++k) {
        const hd_pose_gradient *g = &c[k].contact->gradient;
        memcpy(ga + 6 * k, g->a, 6 * sizeof(double));
        memcpy(gb + 6 * k, g->b, 6 * sizeof(double));
        ((npy_bool *)PyArray_DATA((PyArrayObject *)unique))[k] = (npy_bool)g->unique;
    }
    ok = ok && PyDict_SetItemString(d, "gradient_a", a) == 0 &&
         PyDict_SetItemString(d, "gradient_b", b) == 0 &&
         PyDict_SetItemString(d, "gradient_unique", unique) == 0;
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(unique);
    return ok ? 0 : -1;
}

/* The contacts' details (with depth=True) as a dict of arrays in the contacts' order; None
 * without. */
static PyObject *detail_arrays(hd_scene_detail detail, int gradient, const hd_scene_contact *c,
                               int count)
{
    if (detail == HD_SCENE_VERDICT) {
        Py_RETURN_NONE;
    }
    static const char *const names[5] = {"signed_distance", "normal", "witness_a", "witness_b",
                                         "bounds"};
    static const int width[5] = {1, 3, 3, 3, 2};
    PyObject *d = PyDict_New();
    double *v[5];
    for (int j = 0; d != NULL && j < 5; ++j) {
        PyObject *a = new_doubles(width[j] > 1 ? 2 : 1, count, width[j], 0, &v[j]);
        if (a == NULL || PyDict_SetItemString(d, names[j], a) < 0) {
            Py_XDECREF(a);
            Py_CLEAR(d);
            break;
        }
        Py_DECREF(a);
    }
    for (int k = 0; d != NULL && k < count; ++k) {
        const hd_signed_distance_result *x = c[k].contact;
        v[0][k] = x->signed_distance;
        memcpy(v[1] + 3 * k, x->normal, 3 * sizeof(double));
        memcpy(v[2] + 3 * k, x->witness_a, 3 * sizeof(double));
        memcpy(v[3] + 3 * k, x->witness_b, 3 * sizeof(double));
        v[4][2 * k] = x->lower; /* proven bounds on the signed distance */
        v[4][2 * k + 1] = x->upper;
    }
    if (d != NULL && ((detail == HD_SCENE_MANIFOLD && manifold_arrays(d, c, count) < 0) ||
                      (gradient && gradient_arrays(d, c, count) < 0))) {
        Py_CLEAR(d);
    }
    return d;
}

/* step() -> (pairs, verdicts): the pairs in contact after this frame, sorted. */
static PyObject *scene_step(hdpy_scene *self, PyObject *unused)
{
    (void)unused;
    const hd_scene_contact *contacts = NULL;
    int count = 0;
    hd_scene_stats stats;
    hd_status st;
    if (check_idle(self) < 0) {
        return NULL;
    }
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    st = hd_scene_step(self->scene, &contacts, &count, &stats);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (st == HD_ERR_NULL || st == HD_ERR_NO_MEMORY) {
        return hdpy_raise(st, "Scene.step");
    }
    Py_SETREF(self->stats, stats_dict(&stats));
    if (self->stats == NULL || PyList_SetSlice(self->removed, 0, PY_SSIZE_T_MAX, NULL) < 0) {
        return NULL;
    }
    Py_SETREF(self->details, detail_arrays(self->detail, self->gradient, contacts, count));
    Py_SETREF(self->pieces, piece_array(contacts, count));
    Py_SETREF(self->toi, toi_array(contacts, count));
    if (self->details == NULL || self->pieces == NULL || self->toi == NULL) {
        return NULL;
    }
    if (st != HD_OK) { /* a failed pair: the others are answered, stats name it */
        char context[96];
        PyOS_snprintf(context, sizeof context, "Scene.step: pair (%d, %d)", stats.failed_a,
                      stats.failed_b);
        return hdpy_raise(st, context);
    }
    return contact_arrays(contacts, count);
}

/* ids (and verdicts) of a query as arrays of their count; capacity = every body. */
static PyObject *id_arrays(const int *ids, const hd_verdict *verdicts, int count)
{
    npy_intp n = count;
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_INT);
    if (a == NULL) {
        return NULL;
    }
    memcpy(PyArray_DATA((PyArrayObject *)a), ids, (size_t)count * sizeof(int));
    if (verdicts == NULL) {
        return a;
    }
    PyObject *v = PyArray_SimpleNew(1, &n, NPY_INT8);
    if (v == NULL) {
        Py_DECREF(a);
        return NULL;
    }
    for (int k = 0; k < count; ++k) {
        ((npy_int8 *)PyArray_DATA((PyArrayObject *)v))[k] = (npy_int8)verdicts[k];
    }
    return Py_BuildValue("(NN)", a, v);
}

/* query_box(lo, hi) -> ids of the bodies whose box overlaps [lo, hi] */
static PyObject *scene_query_box(hdpy_scene *self, PyObject *args)
{
    double lo[3], hi[3];
    if (!PyArg_ParseTuple(args, "(ddd)(ddd):query_box", &lo[0], &lo[1], &lo[2], &hi[0], &hi[1],
                          &hi[2]) ||
        check_idle(self) < 0) {
        return NULL;
    }
    int capacity = hd_scene_body_count(self->scene), count = 0;
    int *ids = PyMem_Malloc(((size_t)capacity + 1) * sizeof(int));
    if (ids == NULL) {
        return PyErr_NoMemory();
    }
    hd_status st = hd_scene_query_box(self->scene, lo, hi, ids, capacity, &count);
    PyObject *out = st == HD_OK ? id_arrays(ids, NULL, count) : hdpy_raise(st, "Scene.query_box");
    PyMem_Free(ids);
    return out;
}

/* query_polytope(polytope, pose=None) -> (ids, verdicts) of the bodies it touches or intersects */
static PyObject *scene_query_polytope(hdpy_scene *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"polytope", "pose", NULL};
    PyObject *shape, *pose_obj = Py_None;
    hd_pose pose;
    int has_pose;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:query_polytope", kwlist, &shape, &pose_obj) ||
        check_idle(self) < 0) {
        return NULL;
    }
    const hd_polytope *poly = hdpy_polytope_get(shape, "polytope");
    if (poly == NULL || hdpy_pose(pose_obj, "pose", &pose, &has_pose) < 0) {
        return NULL;
    }
    int capacity = hd_scene_body_count(self->scene), count = 0;
    int *ids = PyMem_Malloc(((size_t)capacity + 1) * sizeof(int));
    hd_verdict *verdicts = PyMem_Malloc(((size_t)capacity + 1) * sizeof(hd_verdict));
    PyObject *out = NULL;
    if (ids == NULL || verdicts == NULL) {
        PyErr_NoMemory();
    } else {
        hd_status st = hd_scene_query_polytope(self->scene, poly, has_pose ? &pose : NULL, ids,
                                               verdicts, capacity, &count);
        out =
            st == HD_OK ? id_arrays(ids, verdicts, count) : hdpy_raise(st, "Scene.query_polytope");
    }
    PyMem_Free(ids);
    PyMem_Free(verdicts);
    return out;
}

/* The hits of hd_scene_raycast as a list of (id, RayResult) (NULL on failure). */
static PyObject *ray_hits(const hd_scene_ray_hit *hits, int count)
{
    PyObject *list = PyList_New(count);
    for (int k = 0; list != NULL && k < count; ++k) {
        PyObject *hit = Py_BuildValue("(iN)", hits[k].id, hdpy_ray_result_new(&hits[k].ray));
        if (hit == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, k, hit);
    }
    return list;
}

/* raycast(origin, dir, length=None, all=False) -> (id, RayResult) or None; all: a list */
static PyObject *scene_raycast(hdpy_scene *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"origin", "dir", "length", "all", NULL};
    PyObject *origin_obj, *dir_obj, *length_obj = Py_None;
    int all = 0;
    double origin[3], dir[3], length = HUGE_VAL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|Op:raycast", kwlist, &origin_obj, &dir_obj,
                                     &length_obj, &all) ||
        check_idle(self) < 0 || hdpy_vector3(origin_obj, "origin", origin) < 0 ||
        hdpy_vector3(dir_obj, "dir", dir) < 0) {
        return NULL;
    }
    if (length_obj != Py_None && (length = PyFloat_AsDouble(length_obj)) == -1.0 &&
        PyErr_Occurred()) {
        return NULL;
    }
    int capacity = all ? hd_scene_body_count(self->scene) : 1, count = 0;
    hd_scene_ray_hit *hits = PyMem_Malloc(((size_t)capacity + 1) * sizeof *hits);
    if (hits == NULL) {
        return PyErr_NoMemory();
    }
    hd_status st = hd_scene_raycast(self->scene, origin, dir, length, all, hits, capacity, &count);
    PyObject *out = NULL;
    if (st != HD_OK) {
        hdpy_raise(st, "Scene.raycast");
    } else if (all) {
        out = ray_hits(hits, count < capacity ? count : capacity);
    } else if (count == 0) {
        out = Py_NewRef(Py_None);
    } else {
        out = Py_BuildValue("(iN)", hits[0].id, hdpy_ray_result_new(&hits[0].ray));
    }
    PyMem_Free(hits);
    return out;
}

/* body(id) -> (polytope, 4x4 pose) */
static PyObject *scene_body(hdpy_scene *self, PyObject *arg)
{
    int id = PyLong_AsLong(arg);
    PyObject *key = NULL;
    if (id == -1 && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *shape = body_shape(self, id, &key);
    Py_XDECREF(key);
    hd_pose pose;
    if (shape == NULL || hd_scene_body(self->scene, id, NULL, &pose, NULL) != HD_OK) {
        return shape == NULL ? NULL : hdpy_invalid("no body %d in the scene", id);
    }
    npy_intp dims[2] = {4, 4};
    PyObject *m = PyArray_ZEROS(2, dims, NPY_DOUBLE, 0);
    if (m == NULL) {
        return NULL;
    }
    double *v = (double *)PyArray_DATA((PyArrayObject *)m);
    for (int i = 0; i < 3; ++i) {
        v[4 * i] = pose.r[3 * i];
        v[4 * i + 1] = pose.r[3 * i + 1];
        v[4 * i + 2] = pose.r[3 * i + 2];
        v[4 * i + 3] = pose.t[i];
    }
    v[15] = 1.0;
    return Py_BuildValue("(ON)", shape, m);
}

static Py_ssize_t scene_len(hdpy_scene *self)
{
    return hd_scene_body_count(self->scene);
}

static PyObject *get_ids(hdpy_scene *self, void *closure)
{
    (void)closure;
    PyObject *keys = PyDict_Keys(self->shapes);
    if (keys != NULL && PyList_Sort(keys) < 0) {
        Py_CLEAR(keys);
    }
    return keys;
}

static PyObject *get_stats(hdpy_scene *self, void *closure)
{
    (void)closure;
    return Py_NewRef(self->stats);
}

static PyObject *get_details(hdpy_scene *self, void *closure)
{
    (void)closure;
    return Py_NewRef(self->details);
}

static PyObject *get_pieces(hdpy_scene *self, void *closure)
{
    (void)closure;
    return Py_NewRef(self->pieces);
}

static PyObject *get_toi(hdpy_scene *self, void *closure)
{
    (void)closure;
    return Py_NewRef(self->toi);
}

static PyGetSetDef scene_getset[] = {
    {"details", (getter)get_details, NULL,
     "dict of arrays: the contact details of the last step's pairs (depth=True), or None", NULL},
    {"pieces", (getter)get_pieces, NULL,
     "(K, 2) int array: the pieces of the last step's pairs that decide (-1: a plain body), or "
     "None",
     NULL},
    {"toi", (getter)get_toi, NULL,
     "(K,) float64 array: the last step's times of impact in [0, 1] (1: a pair not swept), or "
     "None",
     NULL},
    {"ids", (getter)get_ids, NULL, "sorted list of the bodies' ids", NULL},
    {"stats", (getter)get_stats, NULL, "dict: what the last step did (hd_scene_stats), or None",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#define KW METH_VARARGS | METH_KEYWORDS
static PyMethodDef scene_methods[] = {
    {"add", (PyCFunction)(void (*)(void))scene_add, KW,
     "add($self, /, polytope, pose=None)\n--\n\n-> int id. A body from the next step on: a "
     "Polytope or a\n"
     "Compound (shared, kept alive by the scene)."},
    {"remove", (PyCFunction)scene_remove, METH_O,
     "remove($self, id, /)\n--\n\nThe body leaves at the next step."},
    {"move", (PyCFunction)scene_move, METH_VARARGS,
     "move($self, id, pose, /)\n--\n\nIts pose for the next step."},
    {"move_many", (PyCFunction)scene_move_many, METH_VARARGS,
     "move_many($self, ids, poses, /)\n--\n\nBodies ids[i] (any integer dtype) to poses[i], an (N, "
     "7)\n"
     "or (N, 4, 4) array. An id not in the scene raises InvalidInputError naming it."},
    {"step", (PyCFunction)scene_step, METH_NOARGS,
     "step($self, /)\n--\n\n-> (pairs, verdicts). One frame on the scene's threads, without the "
     "GIL: the\n"
     "(K, 2) int ids a < b of the pairs in contact, sorted, and their int8 verdict codes\n"
     "(1 touching, 2 intersecting; 0 for a pair within the proximity). .stats tells what it "
     "did."},
    {"set_velocity", (PyCFunction)(void (*)(void))scene_set_velocity, KW,
     "set_velocity($self, /, id, v, w=(0.0, 0.0, 0.0))\n--\n\nThe body's twist over the next "
     "frames for\n"
     "the continuous step: v the velocity of its frame origin, w its angular velocity (world\n"
     "axes, per frame). The scene does not move the body; zero v and w: at rest."},
    {"set_filter", (PyCFunction)(void (*)(void))scene_set_filter, KW,
     "set_filter($self, /, id, category=1, mask=0xffffffff, group=0)\n--\n\nThe body's "
     "collision\n"
     "filter from the next step on: bodies a, b are queried only when category_a & mask_b and\n"
     "category_b & mask_a are non-zero and they share no group other than 0."},
    {"filter", (PyCFunction)scene_filter, METH_O,
     "filter($self, id, /)\n--\n\n-> (category, mask, group): the body's collision filter."},
    {"query_box", (PyCFunction)scene_query_box, METH_VARARGS,
     "query_box($self, lo, hi, /)\n--\n\n-> int array: the bodies whose box overlaps [lo, hi], "
     "sorted."},
    {"raycast", (PyCFunction)(void (*)(void))scene_raycast, KW,
     "raycast($self, /, origin, dir, length=None, all=False)\n--\n\n-> (id, RayResult) of the "
     "nearest body\n"
     "the ray origin + t dir, 0 <= t <= length (None: unbounded), hits (the smallest id among\n"
     "equal t), or None; all=True: the list of every hit, by t then id (hd_scene_raycast).\n"
     "Point and segment bodies are never hit."},
    {"query_polytope", (PyCFunction)(void (*)(void))scene_query_polytope, KW,
     "query_polytope($self, /, polytope, pose=None)\n--\n\n-> (ids, verdicts): the bodies it "
     "touches or\n"
     "intersects, sorted."},
    {"body", (PyCFunction)scene_body, METH_O,
     "body($self, id, /)\n--\n\n-> (polytope or compound, 4x4 pose)"},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods scene_as_sequence = {
    .sq_length = (lenfunc)scene_len,
};

static PyTypeObject hdpy_SceneType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hedra.Scene",
    .tp_basicsize = sizeof(hdpy_scene),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Scene(threads=0, broadphase='tree', margin=0.5, algo='gjk', touch_rel=None,\n"
              "      depth=False, manifold=False, gradient=False, proximity=0.0,\n"
              "      sweep_threshold=0.0)\n--\n\n"
              "Many moving bodies, Polytopes or Compounds (hedra/scene.h): a broad phase kept as\n"
              "they move, a pair table with one warm-start cache per pair, the narrow phase on\n"
              "the scene's threads; .pieces names each contact's pieces (-1: a plain body).\n"
              "gradient=True (with depth or manifold): details also hold each contact's pose\n"
              "gradients gradient_a, gradient_b (K, 6) and gradient_unique (K,).\n"
              "proximity=d > 0: step also reports the separated pairs closer than d (verdict 0),\n"
              "with their details (depth is implied).\n"
              "sweep_threshold: a body given a twist (set_velocity) whose points may travel more\n"
              "than this over the frame is swept (continuous step); .toi holds each contact's\n"
              "time of impact. inf: no body is swept.",
    .tp_new = scene_new,
    .tp_dealloc = (destructor)scene_dealloc,
    .tp_getset = scene_getset,
    .tp_methods = scene_methods,
    .tp_as_sequence = &scene_as_sequence,
};

int hdpy_scene_init_type(PyObject *module)
{
    if (PyType_Ready(&hdpy_SceneType) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "Scene", (PyObject *)&hdpy_SceneType);
}
