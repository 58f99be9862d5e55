/* Result objects, one per query. hedra.CollideResult and hedra.DistanceResult hold their C
 * result by value and build Python values only when an attribute is read, so a query returns
 * after one small allocation; they share one object layout (the fields common to both queries
 * and each one's own), each type exposing only its query's attributes. Certificate, Stats,
 * GapResult and SignedDistanceResult are named tuples (struct sequences). */
#include "hedra_py.h"

typedef struct hdpy_result {
    PyObject_HEAD
    hd_verdict verdict;
    hd_stop stop;
    double eps;
    hd_certificate cert;
    hd_stats stats;
    hd_algo algo;          /* CollideResult */
    hd_cddual_face cddual; /* CollideResult */
    double distance;       /* DistanceResult */
    double witness_a[3];   /* DistanceResult */
    double witness_b[3];
    hd_pose_gradient gradient; /* DistanceResult, with gradient=True (has_gradient) */
    int has_gradient;
    int has_pose_a, has_pose_b;
    hd_pose pose_a, pose_b;
    PyObject *a, *b; /* the polytopes, for check() */
} hdpy_result;

static PyTypeObject CollideResultType, DistanceResultType;
static PyObject *gradient_new(const hd_pose_gradient *g, int asked);
static PyTypeObject CertificateType, StatsType, GapResultType;
static PyObject *verdict_names[3];

PyObject *hdpy_verdict_str(hd_verdict v)
{
    if ((int)v < 0 || (int)v > 2) {
        return PyUnicode_FromString("unknown");
    }
    return Py_NewRef(verdict_names[v]);
}

PyObject *hdpy_vec3(const double v[3])
{
    npy_intp n = 3;
    PyObject *arr = PyArray_SimpleNew(1, &n, NPY_DOUBLE);
    if (arr != NULL) {
        memcpy(PyArray_DATA((PyArrayObject *)arr), v, 3 * sizeof(double));
    }
    return arr;
}

/* ---- named tuples ---- */

static PyStructSequence_Field stats_fields[] = {
    {"iterations", "main-loop iterations (GJK), pivots (LP), faces visited (CD-Dual)"},
    {"support_calls", "support-mapping evaluations on either polytope"},
    {"visits_fv", "CD-Dual: candidates of SEARCH-FV"},
    {"visits_vf", "CD-Dual: candidates of SEARCH-VF"},
    {"visits_ee", "CD-Dual: candidates of SEARCH-EE"},
    {"refine_steps", "steps of the shared contact classifier (0 when not needed)"},
    {NULL, NULL},
};
static PyStructSequence_Desc stats_desc = {"hedra.Stats", "Work counters of a query.", stats_fields,
                                           6};

PyObject *hdpy_stats_new(const hd_stats *s)
{
    PyObject *t = PyStructSequence_New(&StatsType);
    const int v[6] = {s->iterations, s->support_calls, s->visits_fv,
                      s->visits_vf,  s->visits_ee,     s->refine_steps};
    for (int i = 0; t != NULL && i < 6; ++i) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (x == NULL) {
            Py_CLEAR(t);
            break;
        }
        PyStructSequence_SET_ITEM(t, i, x);
    }
    return t;
}

static PyStructSequence_Field cert_fields[] = {
    {"normal", "separating plane's unit normal, from A towards B (None without a plane)"},
    {"offset", "plane offset: n . x = offset between the two (None without a plane)"},
    {"gap", "gap across the plane (None without a plane)"},
    {"point", "common point (None without one)"},
    {"a_indices", "vertices of A combined into point (indices into A.vertices)"},
    {"a_weights", "their convex weights"},
    {"b_indices", "vertices of B combined into point"},
    {"b_weights", "their convex weights"},
    {"depth_bound", "proven lower bound on the penetration depth (intersecting only)"},
    {NULL, NULL},
};
static PyStructSequence_Desc cert_desc = {
    "hedra.Certificate",
    "What proves a verdict (world frame): a separating plane, a common point as convex\n"
    "combinations of vertices of both polytopes, or both for touching.",
    cert_fields, 9};

/* (indices, weights) arrays of a convex combination into items[0], items[1] (NULL on failure). */
static void combination(const hd_combination *c, PyObject **items)
{
    npy_intp n = c->count;
    items[0] = PyArray_SimpleNew(1, &n, NPY_INT);
    items[1] = PyArray_SimpleNew(1, &n, NPY_DOUBLE);
    if (items[0] != NULL) {
        memcpy(PyArray_DATA((PyArrayObject *)items[0]), c->index, (size_t)n * sizeof(int));
    }
    if (items[1] != NULL) {
        memcpy(PyArray_DATA((PyArrayObject *)items[1]), c->weight, (size_t)n * sizeof(double));
    }
}

/* A named tuple from items (absent ones None). Any item whose construction failed left a Python
 * error set: the tuple is then dropped. */
PyObject *hdpy_fill(PyTypeObject *type, PyObject **items, int count)
{
    PyObject *t = PyStructSequence_New(type);
    for (int i = 0; i < count; ++i) {
        if (t != NULL) {
            PyStructSequence_SET_ITEM(t, i, items[i] ? items[i] : Py_NewRef(Py_None));
        } else {
            Py_XDECREF(items[i]);
        }
    }
    if (t != NULL && PyErr_Occurred()) {
        Py_CLEAR(t);
    }
    return t;
}

static PyObject *certificate_new(const hdpy_result *r)
{
    const hd_certificate *c = &r->cert;
    PyObject *items[9] = {NULL};
    if (c->has_plane) {
        items[0] = hdpy_vec3(c->normal);
        items[1] = PyFloat_FromDouble(c->offset);
        items[2] = PyFloat_FromDouble(c->gap);
    }
    if (c->has_point) {
        items[3] = hdpy_vec3(c->point);
        combination(&c->on_a, items + 4);
        combination(&c->on_b, items + 6);
    }
    if (r->verdict == HD_INTERSECTING) {
        items[8] = PyFloat_FromDouble(c->depth_bound);
    }
    return hdpy_fill(&CertificateType, items, 9);
}

static PyStructSequence_Field gap_fields[] = {
    {"contact", "False when the sweep of B along the line never meets A"},
    {"verdict", "the pair as given: 'separated', 'touching' or 'intersecting'"},
    {"distance", "travel along s_sign * direction to first contact (separated) or out"},
    {"s_sign", "+1 or -1"},
    {"direction", "the unit direction"},
    {"stats", "work counters"},
    {NULL, NULL},
};
static PyStructSequence_Desc gap_desc = {
    "hedra.GapResult", "Directional gap (CD-Dual section 6), see hedra.gap.", gap_fields, 6};

PyObject *hdpy_gap_result_new(const hd_gap_result *r)
{
    PyObject *items[6] = {PyBool_FromLong(r->contact),     hdpy_verdict_str(r->verdict),
                          PyFloat_FromDouble(r->distance), PyLong_FromLong(r->s_sign),
                          hdpy_vec3(r->direction),         hdpy_stats_new(&r->stats)};
    return hdpy_fill(&GapResultType, items, 6);
}

/* ---- hedra.CollideResult, hedra.DistanceResult ---- */

/* A result object with the fields both queries answer; the caller adds its query's own. */
static hdpy_result *result_alloc(PyTypeObject *type, hd_verdict verdict, hd_stop stop, double eps,
                                 const hd_certificate *cert, const hd_stats *stats, PyObject *a,
                                 PyObject *b, const hd_pose *pose_a, const hd_pose *pose_b)
{
    hdpy_result *self = PyObject_New(hdpy_result, type);
    if (self == NULL) {
        return NULL;
    }
    self->verdict = verdict;
    self->stop = stop;
    self->eps = eps;
    self->cert = *cert;
    self->stats = *stats;
    self->has_pose_a = pose_a != NULL;
    self->has_pose_b = pose_b != NULL;
    if (pose_a != NULL) {
        self->pose_a = *pose_a;
    }
    if (pose_b != NULL) {
        self->pose_b = *pose_b;
    }
    self->a = Py_NewRef(a);
    self->b = Py_NewRef(b);
    return self;
}

PyObject *hdpy_collide_result_new(const hd_collide_result *r, PyObject *a, PyObject *b,
                                  const hd_pose *pose_a, const hd_pose *pose_b)
{
    hdpy_result *self = result_alloc(&CollideResultType, r->verdict, r->stop, r->eps, &r->cert,
                                     &r->stats, a, b, pose_a, pose_b);
    if (self != NULL) {
        self->algo = r->algo;
        self->cddual = r->cddual;
    }
    return (PyObject *)self;
}

PyObject *hdpy_distance_result_new(const hd_distance_result *r, PyObject *a, PyObject *b,
                                   const hd_pose *pose_a, const hd_pose *pose_b, int with_gradient)
{
    hdpy_result *self = result_alloc(&DistanceResultType, r->verdict, r->stop, r->eps, &r->cert,
                                     &r->stats, a, b, pose_a, pose_b);
    if (self != NULL) {
        self->distance = r->distance;
        memcpy(self->witness_a, r->witness_a, sizeof self->witness_a);
        memcpy(self->witness_b, r->witness_b, sizeof self->witness_b);
        self->gradient = r->gradient;
        self->has_gradient = with_gradient;
    }
    return (PyObject *)self;
}

static void result_dealloc(hdpy_result *self)
{
    Py_DECREF(self->a);
    Py_DECREF(self->b);
    PyObject_Free(self);
}

static PyObject *get_verdict(hdpy_result *self, void *c)
{
    (void)c;
    return hdpy_verdict_str(self->verdict);
}

static PyObject *get_code(hdpy_result *self, void *c)
{
    (void)c;
    return PyLong_FromLong((long)self->verdict);
}

static PyObject *get_algo(hdpy_result *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(hd_algo_str(self->algo));
}

static PyObject *get_stop(hdpy_result *self, void *c)
{
    (void)c;
    static const char *const names[] = {"converged", "early_exit", "refined", "fallback"};
    int s = (int)self->stop;
    return PyUnicode_FromString(s >= 0 && s < 4 ? names[s] : "unknown");
}

static PyObject *get_eps(hdpy_result *self, void *c)
{
    (void)c;
    return PyFloat_FromDouble(self->eps);
}

static PyObject *get_distance(hdpy_result *self, void *c)
{
    (void)c;
    return PyFloat_FromDouble(self->distance);
}

static PyObject *get_witness(hdpy_result *self, void *which)
{
    return hdpy_vec3(which ? self->witness_b : self->witness_a);
}

static PyObject *get_gradient(hdpy_result *self, void *c)
{
    (void)c;
    return gradient_new(&self->gradient, self->has_gradient);
}

static PyObject *get_certificate(hdpy_result *self, void *c)
{
    (void)c;
    return certificate_new(self);
}

static PyObject *get_stats(hdpy_result *self, void *c)
{
    (void)c;
    return hdpy_stats_new(&self->stats);
}

/* CD-Dual's optimal face of A - B: (kind, feature_a, feature_b, dual distance), else None. */
static PyObject *get_cddual(hdpy_result *self, void *c)
{
    (void)c;
    static const char *const kinds[] = {"none", "fv", "vf", "ee"};
    int k = (int)self->cddual.kind;
    if (k <= 0 || k > 3) {
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(siid)", kinds[k], self->cddual.feature_a, self->cddual.feature_b,
                         self->cddual.dual_distance);
}

/* What both queries answer, on the base type the two result types inherit from. */
static PyGetSetDef common_getset[] = {
    {"verdict", (getter)get_verdict, NULL, "'separated', 'touching' or 'intersecting'", NULL},
    {"code", (getter)get_code, NULL, "the verdict as 0, 1, 2 (hedra.SEPARATED, ...)", NULL},
    {"stop", (getter)get_stop, NULL,
     "why it stopped: 'converged', 'early_exit', 'refined' (the shared contact classifier\n"
     "decided inside the touching band) or 'fallback' (another algorithm answered)",
     NULL},
    {"eps", (getter)get_eps, NULL, "the absolute touching half-width: touch_rel * scale", NULL},
    {"certificate", (getter)get_certificate, NULL, "the hedra.Certificate proving the verdict",
     NULL},
    {"stats", (getter)get_stats, NULL, "hedra.Stats work counters", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyGetSetDef collide_getset[] = {
    {"algo", (getter)get_algo, NULL, "the algorithm asked for: 'gjk', 'cddual' or 'lp'", NULL},
    {"cddual_face", (getter)get_cddual, NULL,
     "CD-Dual's optimum (kind 'fv'|'vf'|'ee', feature_a, feature_b, dual distance) when a CD-Dual\n"
     "search produced the answer, else None",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyGetSetDef distance_getset[] = {
    {"distance", (getter)get_distance, NULL,
     "Euclidean distance >= 0 (0 when touching or intersecting)", NULL},
    {"witness_a", (getter)get_witness, NULL,
     "point of A (world): the closest one when separated, the common point when intersecting",
     NULL},
    {"witness_b", (getter)get_witness, NULL, "point of B (world), as witness_a", (void *)1},
    {"gradient", (getter)get_gradient, NULL,
     "with gradient=True: (gradient_a, gradient_b, unique), the derivatives of the distance\n"
     "with respect to each pose as in hedra.signed_distance (separated pairs; zero when\n"
     "intersecting, zero and not unique when touching); else None",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *result_check(hdpy_result *self, PyObject *unused)
{
    (void)unused;
    const hd_polytope *a = ((hdpy_polytope *)self->a)->poly;
    const hd_polytope *b = ((hdpy_polytope *)self->b)->poly;
    hd_status st = hd_certificate_check(a, self->has_pose_a ? &self->pose_a : NULL, b,
                                        self->has_pose_b ? &self->pose_b : NULL, self->verdict,
                                        self->eps, &self->cert);
    if (st == HD_OK || st == HD_ERR_CERTIFICATE) {
        return PyBool_FromLong(st == HD_OK);
    }
    return hdpy_raise(st, "check");
}

static PyObject *collide_repr(hdpy_result *self)
{
    return PyUnicode_FromFormat("<hedra.CollideResult verdict='%s' algo='%s'>",
                                hd_verdict_str(self->verdict), hd_algo_str(self->algo));
}

static PyObject *distance_repr(hdpy_result *self)
{
    char d[40];
    PyOS_snprintf(d, sizeof d, "%.17g", self->distance);
    return PyUnicode_FromFormat("<hedra.DistanceResult verdict='%s' distance=%s>",
                                hd_verdict_str(self->verdict), d);
}

static PyMethodDef result_methods[] = {
    {"check", (PyCFunction)result_check, METH_NOARGS,
     "check($self, /)\n--\n\n-> bool. Verifies the certificate by brute force over the posed "
     "vertices\n"
     "(hd_certificate_check), independently of the algorithm that produced it."},
    {NULL, NULL, 0, NULL},
};

/* The base of CollideResult and DistanceResult (not exported: never returned itself). */
static PyTypeObject ResultBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hedra._QueryResult",
    .tp_basicsize = sizeof(hdpy_result),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "What hedra.collide and hedra.distance both answer.",
    .tp_dealloc = (destructor)result_dealloc,
    .tp_getset = common_getset,
    .tp_methods = result_methods,
};

static PyTypeObject CollideResultType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hedra.CollideResult",
    .tp_basicsize = sizeof(hdpy_result),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The answer of hedra.collide (read-only).",
    .tp_dealloc = (destructor)result_dealloc,
    .tp_repr = (reprfunc)collide_repr,
    .tp_getset = collide_getset,
};

static PyTypeObject DistanceResultType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hedra.DistanceResult",
    .tp_basicsize = sizeof(hdpy_result),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The answer of hedra.distance (read-only).",
    .tp_dealloc = (destructor)result_dealloc,
    .tp_repr = (reprfunc)distance_repr,
    .tp_getset = distance_getset,
};

/* ---- contact queries: SignedDistanceResult, ContactPoint, Manifold ---- */

static PyTypeObject SignedDistanceResultType, ContactPointType, ManifoldType;

static PyStructSequence_Field contact_fields[] = {
    {"verdict", "'separated', 'touching' or 'intersecting' (from signed_distance and eps)"},
    {"signed_distance", "distance when separated, minus the penetration depth when overlapping"},
    {"normal", "unit normal from A towards B: moving B by depth * normal makes an overlap touch"},
    {"witness_a", "point of A: closest (separated) or deepest along normal (overlapping)"},
    {"witness_b", "point of B, with witness_b - witness_a = signed_distance * normal"},
    {"lower", "proven lower bound on signed_distance (every regime)"},
    {"upper", "proven upper bound on signed_distance (every regime)"},
    {"feature_a", "(type, index): A's supporting 'vertex', 'edge' or 'face' along normal"},
    {"feature_b", "(type, index): B's supporting feature along -normal"},
    {"method", "how the depth was computed: 'none' (separated: GJK), 'epa' or 'sat'"},
    {"eps", "the touching band's half-width: touch_rel * scale"},
    {"size", "diagonal of the bounding box of the two posed polytopes"},
    {"stats", "work counters"},
    {"gradient", "with gradient=True: (gradient_a, gradient_b, unique), see hedra.signed_distance;"
                 " else None"},
    {NULL, NULL},
};
static PyStructSequence_Desc contact_desc = {
    "hedra.SignedDistanceResult",
    "Signed distance of a pair and what attains it, see hedra.signed_distance.", contact_fields,
    14};

static PyStructSequence_Field point_fields[] = {
    {"point", "world point half-way between the two surfaces along the normal"},
    {"separation", "signed distance of the surfaces there along the normal (< 0: penetrating)"},
    {"feature_a", "(type, index): A's feature that produced the point"},
    {"feature_b", "(type, index): B's feature that produced the point"},
    {NULL, NULL},
};
static PyStructSequence_Desc point_desc = {
    "hedra.ContactPoint", "One point of a contact manifold (world frame).", point_fields, 4};

static PyStructSequence_Field manifold_fields[] = {
    {"normal", "the contact's unit normal, from A towards B, shared by every point"},
    {"points", "tuple of 0 to 4 hedra.ContactPoint (empty when separated beyond eps)"},
    {"contact", "the hedra.SignedDistanceResult it was built from"},
    {NULL, NULL},
};
static PyStructSequence_Desc manifold_desc = {
    "hedra.Manifold", "A contact manifold, see hedra.contact_manifold.", manifold_fields, 3};

PyObject *hdpy_feature_new(hd_feature_id f)
{
    return Py_BuildValue("(si)", hd_feature_type_str(f.type), f.index);
}

/* (a, b, unique): two 6-tuples and a bool, or None when not asked. */
static PyObject *gradient_new(const hd_pose_gradient *g, int asked)
{
    if (!asked) {
        Py_RETURN_NONE;
    }
    const double *a = g->a, *b = g->b;
    return Py_BuildValue("((dddddd)(dddddd)O)", a[0], a[1], a[2], a[3], a[4], a[5], b[0], b[1],
                         b[2], b[3], b[4], b[5], g->unique ? Py_True : Py_False);
}

PyObject *hdpy_contact_new(const hd_signed_distance_result *c, int with_gradient)
{
    static const char *const methods[] = {"none", "epa", "sat"};
    int k = (int)c->method;
    PyObject *items[14] = {hdpy_verdict_str(c->verdict),
                           PyFloat_FromDouble(c->signed_distance),
                           hdpy_vec3(c->normal),
                           hdpy_vec3(c->witness_a),
                           hdpy_vec3(c->witness_b),
                           PyFloat_FromDouble(c->lower),
                           PyFloat_FromDouble(c->upper),
                           hdpy_feature_new(c->feature_a),
                           hdpy_feature_new(c->feature_b),
                           PyUnicode_FromString(k >= 0 && k < 3 ? methods[k] : "unknown"),
                           PyFloat_FromDouble(c->eps),
                           PyFloat_FromDouble(c->size),
                           hdpy_stats_new(&c->stats),
                           gradient_new(&c->gradient, with_gradient)};
    return hdpy_fill(&SignedDistanceResultType, items, 14);
}

static PyObject *contact_point_new(const hd_contact_point *p)
{
    PyObject *items[4] = {hdpy_vec3(p->point), PyFloat_FromDouble(p->separation),
                          hdpy_feature_new(p->feature_a), hdpy_feature_new(p->feature_b)};
    return hdpy_fill(&ContactPointType, items, 4);
}

PyObject *hdpy_manifold_new(const hd_manifold *m, const hd_signed_distance_result *c,
                            int with_gradient)
{
    int n = m->count < 0 ? 0 : (m->count > HD_MANIFOLD_MAX ? HD_MANIFOLD_MAX : m->count);
    PyObject *points = PyTuple_New(n);
    for (int i = 0; points != NULL && i < n; ++i) {
        PyObject *p = contact_point_new(&m->points[i]);
        if (p == NULL) {
            Py_CLEAR(points);
            break;
        }
        PyTuple_SET_ITEM(points, i, p);
    }
    PyObject *items[3] = {hdpy_vec3(m->normal), points, hdpy_contact_new(c, with_gradient)};
    return hdpy_fill(&ManifoldType, items, 3);
}

static PyTypeObject SignedBatchType;

static PyStructSequence_Field signed_batch_fields[] = {
    {"signed_distance", "(N,) float64: distance when separated, minus the depth when overlapping"},
    {"normal", "(N, 3) float64: unit normals from A towards B"},
    {"witness_a", "(N, 3) float64: points of A (closest, or deepest along the normal)"},
    {"witness_b", "(N, 3) float64: points of B, witness_b - witness_a = signed_distance * normal"},
    {"gradient_a", "(N, 6) float64 with gradient=True: d signed_distance / d pose_a (else None)"},
    {"gradient_b", "(N, 6) float64 with gradient=True: d signed_distance / d pose_b (else None)"},
    {"unique", "(N,) bool with gradient=True: False where a subgradient (else None)"},
    {NULL, NULL},
};
static PyStructSequence_Desc signed_batch_desc = {
    "hedra.SignedDistanceBatch",
    "The answers of hedra.signed_distance_many, one row per pose (read-only named tuple).",
    signed_batch_fields, HDPY_SIGNED_BATCH_FIELDS};

PyObject *hdpy_signed_batch_new(PyObject **items)
{
    return hdpy_fill(&SignedBatchType, items, HDPY_SIGNED_BATCH_FIELDS);
}

static int contact_init_types(PyObject *module)
{
    if (PyStructSequence_InitType2(&SignedDistanceResultType, &contact_desc) < 0 ||
        PyStructSequence_InitType2(&ContactPointType, &point_desc) < 0 ||
        PyStructSequence_InitType2(&ManifoldType, &manifold_desc) < 0 ||
        PyStructSequence_InitType2(&SignedBatchType, &signed_batch_desc) < 0) {
        return -1;
    }
    if (PyModule_AddObjectRef(module, "SignedDistanceResult",
                              (PyObject *)&SignedDistanceResultType) < 0 ||
        PyModule_AddObjectRef(module, "ContactPoint", (PyObject *)&ContactPointType) < 0 ||
        PyModule_AddObjectRef(module, "Manifold", (PyObject *)&ManifoldType) < 0 ||
        PyModule_AddObjectRef(module, "SignedDistanceBatch", (PyObject *)&SignedBatchType) < 0) {
        return -1;
    }
    return 0;
}

int hdpy_result_init_types(PyObject *module)
{
    const char *names[3] = {"separated", "touching", "intersecting"};
    for (int i = 0; i < 3; ++i) {
        verdict_names[i] = PyUnicode_InternFromString(names[i]);
        if (verdict_names[i] == NULL) {
            return -1;
        }
    }
    CollideResultType.tp_base = &ResultBaseType;
    DistanceResultType.tp_base = &ResultBaseType;
    if (PyType_Ready(&ResultBaseType) < 0 || PyType_Ready(&CollideResultType) < 0 ||
        PyType_Ready(&DistanceResultType) < 0 ||
        PyStructSequence_InitType2(&StatsType, &stats_desc) < 0 ||
        PyStructSequence_InitType2(&CertificateType, &cert_desc) < 0 ||
        PyStructSequence_InitType2(&GapResultType, &gap_desc) < 0) {
        return -1;
    }
    if (PyModule_AddObjectRef(module, "CollideResult", (PyObject *)&CollideResultType) < 0 ||
        PyModule_AddObjectRef(module, "DistanceResult", (PyObject *)&DistanceResultType) < 0 ||
        PyModule_AddObjectRef(module, "Certificate", (PyObject *)&CertificateType) < 0 ||
        PyModule_AddObjectRef(module, "Stats", (PyObject *)&StatsType) < 0 ||
        PyModule_AddObjectRef(module, "GapResult", (PyObject *)&GapResultType) < 0) {
        return -1;
    }
    return contact_init_types(module);
}
