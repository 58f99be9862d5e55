/* Compound bodies (hedra/compound.h): hedra.Compound, its queries compound_collide,
 * compound_distance, compound_signed_distance, compound_contact_manifold and hedra.enclosure.
 * A Compound keeps a reference to each piece's Polytope (the C compound borrows them); one read
 * from an OBJ file is rebuilt over Polytopes of its pieces' hulls, so that every answer's pair
 * can be checked on Python objects. */
#include "hedra_py.h"

typedef struct hdpy_compound {
    PyObject_HEAD
    hd_compound *compound;
    PyObject *pieces; /* tuple of hedra.Polytope, piece i at index i */
} hdpy_compound;

static PyTypeObject CompoundType, CollideType, DistanceType, SignedType, PointType, ManifoldType,
    EnclosureType;

/* Builds over the tuple of Polytopes with poses (NULL: identity); steals pieces. */
static PyObject *compound_wrap(PyTypeObject *type, PyObject *pieces, const hd_pose *poses)
{
    Py_ssize_t k = PyTuple_GET_SIZE(pieces);
    const hd_polytope **polys = PyMem_Calloc((size_t)k + 1, sizeof *polys);
    if (polys == NULL) {
        Py_DECREF(pieces);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < k; ++i) {
        polys[i] = ((hdpy_polytope *)PyTuple_GET_ITEM(pieces, i))->poly;
    }
    hd_compound *c = NULL;
    hd_status st =
        k > HD_COMPOUND_MAX_PIECES ? HD_ERR_TOO_LARGE : hd_compound_build(polys, poses, (int)k, &c);
    PyMem_Free(polys);
    hdpy_compound *self = st == HD_OK ? (hdpy_compound *)type->tp_alloc(type, 0) : NULL;
    if (self == NULL) {
        hd_compound_destroy(c);
        Py_DECREF(pieces);
        return st == HD_OK ? NULL : hdpy_raise(st, "Compound");
    }
    self->compound = c;
    self->pieces = pieces;
    return (PyObject *)self;
}

/* A tuple of the Polytopes of a sequence; TypeError for anything else. */
static PyObject *piece_tuple(PyObject *obj)
{
    PyObject *t = PySequence_Tuple(obj);
    for (Py_ssize_t i = 0; t != NULL && i < PyTuple_GET_SIZE(t); ++i) {
        if (hdpy_polytope_get(PyTuple_GET_ITEM(t, i), "each piece") == NULL) {
            Py_CLEAR(t);
        }
    }
    return t;
}

/* poses: None, or one pose per piece ((k, 7), (k, 4, 4) or a sequence of poses). */
static hd_pose *piece_poses(PyObject *obj, Py_ssize_t k)
{
    int kind, single;
    PyArrayObject *arr = hdpy_pose_array(obj, "poses", 0, &kind, &single);
    if (arr == NULL) {
        return NULL;
    }
    hd_pose *poses = NULL;
    if (PyArray_DIM(arr, 0) != k) {
        hdpy_invalid("poses holds %zd poses for %zd pieces", (Py_ssize_t)PyArray_DIM(arr, 0), k);
    } else if ((poses = PyMem_Calloc((size_t)k + 1, sizeof *poses)) == NULL) {
        PyErr_NoMemory();
    }
    const double *data = (const double *)PyArray_DATA(arr);
    for (Py_ssize_t i = 0; poses != NULL && i < k; ++i) {
        hd_status st = hdpy_pose_decode(data + i * kind, kind, HD_DEFAULT_POSE_TOL, &poses[i]);
        if (st != HD_OK) {
            char context[64];
            PyOS_snprintf(context, sizeof context, "poses[%zd]", i);
            hdpy_raise(st, context);
            PyMem_Free(poses);
            poses = NULL;
        }
    }
    Py_DECREF(arr);
    return poses;
}

static PyObject *compound_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"pieces", "poses", NULL};
    PyObject *pieces_arg, *poses_arg = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:Compound", kwlist, &pieces_arg, &poses_arg)) {
        return NULL;
    }
    PyObject *pieces = piece_tuple(pieces_arg);
    if (pieces == NULL) {
        return NULL;
    }
    hd_pose *poses = NULL;
    if (poses_arg != Py_None &&
        (poses = piece_poses(poses_arg, PyTuple_GET_SIZE(pieces))) == NULL) {
        Py_DECREF(pieces);
        return NULL;
    }
    PyObject *self = compound_wrap(type, pieces, poses);
    PyMem_Free(poses);
    return self;
}

/* Piece i of a compound read from a file as a Polytope of its own: the hull of its hull's
 * vertices (the same polytope) with its radius. */
static PyObject *own_piece(const hd_polytope *piece)
{
    hd_polytope *poly = NULL;
    hd_status st =
        hd_polytope_build_rounded(hd_polytope_vertices(piece), hd_polytope_vertex_count(piece),
                                  hd_polytope_radius(piece), NULL, &poly);
    return st == HD_OK ? hdpy_polytope_wrap(poly) : hdpy_raise(st, "Compound.from_obj");
}

/* A file's compound rebuilt over Polytopes of its pieces (with their poses). */
static PyObject *rebuild(PyTypeObject *type, const hd_compound *read)
{
    int k = hd_compound_piece_count(read);
    PyObject *pieces = PyTuple_New(k);
    hd_pose *poses = PyMem_Calloc((size_t)k + 1, sizeof *poses);
    for (int i = 0; pieces != NULL && poses != NULL && i < k; ++i) {
        PyObject *p = own_piece(hd_compound_piece(read, i, &poses[i]));
        if (p == NULL) {
            Py_CLEAR(pieces);
            break;
        }
        PyTuple_SET_ITEM(pieces, i, p);
    }
    PyObject *self = NULL;
    if (pieces != NULL && poses == NULL) {
        Py_CLEAR(pieces);
        PyErr_NoMemory();
    }
    if (pieces != NULL) {
        self = compound_wrap(type, pieces, poses);
    }
    PyMem_Free(poses);
    return self;
}

/* Compound.from_obj(path): a convex decomposition from an OBJ file, a piece per o/g group. */
static PyObject *compound_from_obj(PyObject *cls, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"path", NULL};
    PyObject *path_bytes = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O&:from_obj", kwlist, PyUnicode_FSConverter,
                                     &path_bytes)) {
        return NULL;
    }
    hd_compound *read = NULL;
    hd_parse_error err;
    hd_status st;
    const char *path = PyBytes_AS_STRING(path_bytes);
    Py_BEGIN_ALLOW_THREADS
    st = hd_compound_read_obj(path, NULL, &read, &err);
    Py_END_ALLOW_THREADS
    Py_DECREF(path_bytes);
    if (st != HD_OK) {
        return hdpy_raise_parse(st, &err);
    }
    PyObject *self = rebuild((PyTypeObject *)cls, read);
    hd_compound_destroy(read);
    return self;
}

static void compound_dealloc(hdpy_compound *self)
{
    hd_compound_destroy(self->compound);
    Py_XDECREF(self->pieces);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *get_pieces(hdpy_compound *self, void *closure)
{
    (void)closure;
    return Py_NewRef(self->pieces);
}

/* (k, 4, 4): each piece's pose in the body's frame. */
static PyObject *get_poses(hdpy_compound *self, void *closure)
{
    (void)closure;
    int k = hd_compound_piece_count(self->compound);
    npy_intp dims[3] = {k, 4, 4};
    PyObject *arr = PyArray_SimpleNew(3, dims, NPY_DOUBLE);
    for (int i = 0; arr != NULL && i < k; ++i) {
        hd_pose pose;
        hd_compound_piece(self->compound, i, &pose);
        PyObject *m = hdpy_pose_matrix(&pose);
        if (m == NULL) {
            Py_CLEAR(arr);
            break;
        }
        memcpy((double *)PyArray_DATA((PyArrayObject *)arr) + 16 * i,
               PyArray_DATA((PyArrayObject *)m), 16 * sizeof(double));
        Py_DECREF(m);
    }
    return arr;
}

static PyObject *get_cbounds(hdpy_compound *self, void *closure)
{
    (void)closure;
    npy_intp dims[2] = {2, 3};
    PyObject *arr = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    if (arr != NULL) {
        double *out = (double *)PyArray_DATA((PyArrayObject *)arr);
        hd_compound_bounds(self->compound, out, out + 3);
    }
    return arr;
}

static PyGetSetDef compound_getset[] = {
    {"pieces", (getter)get_pieces, NULL, "tuple of Polytope: piece i is pieces[i]", NULL},
    {"poses", (getter)get_poses, NULL, "(k, 4, 4): each piece's pose in the body's frame", NULL},
    {"bounds", (getter)get_cbounds, NULL, "(2, 3): the whole body's box in its own frame", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static Py_ssize_t compound_len(hdpy_compound *self)
{
    return hd_compound_piece_count(self->compound);
}

static PyMethodDef compound_methods[] = {
    {"from_obj", (PyCFunction)(void (*)(void))compound_from_obj,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "from_obj($type, /, path)\n--\n\n-> Compound. A convex decomposition from a Wavefront OBJ "
     "file (as CoACD and\nV-HACD write them): each 'o' or 'g' group is a piece, the hull of its "
     "points\n(hd_compound_read_obj). ParseError with .file and .line for a malformed file."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods compound_as_sequence = {
    .sq_length = (lenfunc)compound_len,
};

static PyTypeObject CompoundType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hedra.Compound",
    .tp_basicsize = sizeof(hdpy_compound),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Compound(pieces, poses=None)\n--\n\nSeveral convex pieces (Polytopes, rounded or "
              "not) moving as one body:\npiece i placed in the body's frame by poses[i] ((k, 7), "
              "(k, 4, 4) or a sequence\nof poses; None: as they are). Immutable; len() is the "
              "piece count.",
    .tp_new = compound_new,
    .tp_dealloc = (destructor)compound_dealloc,
    .tp_getset = compound_getset,
    .tp_methods = compound_methods,
    .tp_as_sequence = &compound_as_sequence,
};

/* ---- queries ---- */

typedef struct compound_call {
    hdpy_compound *a, *b;
    hd_pose pose_a, pose_b;
    hd_options opt;
    int gradient;
} compound_call;

static hdpy_compound *compound_get(PyObject *obj, const char *name)
{
    if (!PyObject_TypeCheck(obj, &CompoundType)) {
        PyErr_Format(PyExc_TypeError, "%s must be a hedra.Compound, not %.100s", name,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return (hdpy_compound *)obj;
}

const hd_compound *hdpy_compound_of(PyObject *obj)
{
    return PyObject_TypeCheck(obj, &CompoundType) ? ((hdpy_compound *)obj)->compound : NULL;
}

/* v: a, b, pose_a, pose_b, touch_rel[, depth, gradient] (contact: 1 for the last two). */
static int call_setup(compound_call *cc, PyObject **v, int contact)
{
    cc->gradient = 0;
    if ((cc->a = compound_get(v[0], "a")) == NULL || (cc->b = compound_get(v[1], "b")) == NULL ||
        hdpy_pose_or_identity(v[2], "pose_a", &cc->pose_a) < 0 ||
        hdpy_pose_or_identity(v[3], "pose_b", &cc->pose_b) < 0 ||
        hdpy_options(NULL, v[4], &cc->opt) < 0 ||
        (contact && hdpy_contact_flags(v[5], v[6], &cc->opt, &cc->gradient) < 0)) {
        return -1;
    }
    return 0;
}

/* The piece's Polytope and world pose (under the body pose), for a pair's result. */
static PyObject *piece_obj(const hdpy_compound *c, int i)
{
    return PyTuple_GET_ITEM(c->pieces, i);
}

static void world_pose(const hdpy_compound *c, const hd_pose *body, int i, hd_pose *out)
{
    if (hd_compound_piece_pose(c->compound, body, i, out) != HD_OK) {
        *out = hd_pose_identity();
    }
}

static PyObject *stats_new(const hd_compound_stats *s)
{
    return Py_BuildValue("{sLsL}", "node_pairs", s->node_pairs, "piece_pairs", s->piece_pairs);
}

static PyStructSequence_Field collide_fields[] = {
    {"verdict", "'separated', 'touching' or 'intersecting'"},
    {"piece_a", "A's piece of the deciding pair (-1 when separated)"},
    {"piece_b", "B's piece of the deciding pair (-1 when separated)"},
    {"pair", "that pair's CollideResult (check() on the two pieces), None when separated"},
    {"stats", "dict: node_pairs, piece_pairs"},
    {NULL, NULL},
};
static PyStructSequence_Desc collide_desc = {"hedra.CompoundCollideResult",
                                             "See hedra.compound_collide.", collide_fields, 5};

PyObject *hdpy_compound_collide(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"a", "b", "pose_a", "pose_b", "touch_rel"};
    PyObject *v[5];
    compound_call cc;
    if (hdpy_parse_args("compound_collide", args, nargs, kw, names, 5, 2, v) < 0 ||
        call_setup(&cc, v, 0) < 0) {
        return NULL;
    }
    hd_compound_collide_result r;
    hd_status st;
    Py_BEGIN_ALLOW_THREADS
    st = hd_compound_collide(cc.a->compound, &cc.pose_a, cc.b->compound, &cc.pose_b, &cc.opt, &r);
    Py_END_ALLOW_THREADS
    if (st != HD_OK) {
        return hdpy_raise(st, "compound_collide");
    }
    PyObject *pair = NULL;
    if (r.piece_a >= 0 && r.piece_b >= 0) {
        hd_pose wa, wb;
        world_pose(cc.a, &cc.pose_a, r.piece_a, &wa);
        world_pose(cc.b, &cc.pose_b, r.piece_b, &wb);
        pair = hdpy_collide_result_new(&r.pair, piece_obj(cc.a, r.piece_a),
                                       piece_obj(cc.b, r.piece_b), &wa, &wb);
    }
    PyObject *items[5] = {hdpy_verdict_str(r.verdict), PyLong_FromLong(r.piece_a),
                          PyLong_FromLong(r.piece_b), pair, stats_new(&r.stats)};
    return hdpy_fill(&CollideType, items, 5);
}

static PyStructSequence_Field distance_fields[] = {
    {"verdict", "the compounds' verdict"},
    {"distance", "the least distance over the pairs of pieces (0 in contact)"},
    {"piece_a", "A's piece of the pair attaining it"},
    {"piece_b", "B's piece of the pair attaining it"},
    {"pair", "that pair's DistanceResult (witnesses in the world frame)"},
    {"stats", "dict: node_pairs, piece_pairs"},
    {NULL, NULL},
};
static PyStructSequence_Desc distance_desc = {"hedra.CompoundDistanceResult",
                                              "See hedra.compound_distance.", distance_fields, 6};

PyObject *hdpy_compound_distance(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"a", "b", "pose_a", "pose_b", "touch_rel"};
    PyObject *v[5];
    compound_call cc;
    if (hdpy_parse_args("compound_distance", args, nargs, kw, names, 5, 2, v) < 0 ||
        call_setup(&cc, v, 0) < 0) {
        return NULL;
    }
    hd_compound_distance_result r;
    hd_status st;
    Py_BEGIN_ALLOW_THREADS
    st = hd_compound_distance(cc.a->compound, &cc.pose_a, cc.b->compound, &cc.pose_b, &cc.opt, &r);
    Py_END_ALLOW_THREADS
    if (st != HD_OK) {
        return hdpy_raise(st, "compound_distance");
    }
    hd_pose wa, wb;
    world_pose(cc.a, &cc.pose_a, r.piece_a, &wa);
    world_pose(cc.b, &cc.pose_b, r.piece_b, &wb);
    PyObject *pair = hdpy_distance_result_new(&r.pair, piece_obj(cc.a, r.piece_a),
                                              piece_obj(cc.b, r.piece_b), &wa, &wb, 0);
    PyObject *items[6] = {hdpy_verdict_str(r.verdict),
                          PyFloat_FromDouble(r.distance),
                          PyLong_FromLong(r.piece_a),
                          PyLong_FromLong(r.piece_b),
                          pair,
                          stats_new(&r.stats)};
    return hdpy_fill(&DistanceType, items, 6);
}

/* The vertex count of the compound's largest piece, and that piece into *big. */
static int largest_piece(const hd_compound *c, const hd_polytope **big)
{
    *big = NULL;
    for (int i = 0; i < hd_compound_piece_count(c); ++i) {
        const hd_polytope *p = hd_compound_piece(c, i, NULL);
        if (*big == NULL || hd_polytope_vertex_count(p) > hd_polytope_vertex_count(*big)) {
            *big = p;
        }
    }
    return hd_polytope_vertex_count(*big);
}

int hdpy_compound_contact_capacity(const hd_compound *a, const hd_compound *b)
{
    const hd_polytope *big_a, *big_b;
    if (largest_piece(a, &big_a) + largest_piece(b, &big_b) <= HDPY_CONTACT_STACK_VERTICES) {
        return 0;
    }
    return hd_contact_workspace_capacity(big_a, big_b);
}

/* The contact queries' workspace when the largest pieces do not fit the stack scratch (one
 * workspace must suit every pair of pieces). */
static hd_status contact_workspace(const hdpy_compound *a, const hdpy_compound *b,
                                   hd_workspace **ws)
{
    int capacity = hdpy_compound_contact_capacity(a->compound, b->compound);
    *ws = NULL;
    return capacity == 0 ? HD_OK : hd_workspace_create(capacity, ws);
}

static hd_status run_contact(compound_call *cc, hd_compound_signed_distance_result *c,
                             hd_compound_manifold *m)
{
    hd_workspace *ws = NULL;
    hd_status st = contact_workspace(cc->a, cc->b, &ws);
    cc->opt.workspace = ws;
    const hd_compound *a = cc->a->compound, *b = cc->b->compound;
    if (st == HD_OK) {
        st = m != NULL
                 ? hd_compound_contact_manifold(a, &cc->pose_a, b, &cc->pose_b, &cc->opt, c, m)
                 : hd_compound_signed_distance(a, &cc->pose_a, b, &cc->pose_b, &cc->opt, c);
    }
    hd_workspace_destroy(ws);
    return st;
}

static PyStructSequence_Field signed_fields[] = {
    {"signed_distance", "the least signed distance over the pairs of pieces"},
    {"piece_a", "A's piece of the pair attaining it"},
    {"piece_b", "B's piece of the pair attaining it"},
    {"pair", "that pair's SignedDistanceResult (verdict: the compounds')"},
    {"stats", "dict: node_pairs, piece_pairs"},
    {NULL, NULL},
};
static PyStructSequence_Desc signed_desc = {
    "hedra.CompoundSignedDistanceResult", "See hedra.compound_signed_distance.", signed_fields, 5};

static PyObject *signed_new(const hd_compound_signed_distance_result *r, int gradient)
{
    PyObject *items[5] = {PyFloat_FromDouble(r->signed_distance), PyLong_FromLong(r->piece_a),
                          PyLong_FromLong(r->piece_b), hdpy_contact_new(&r->pair, gradient),
                          stats_new(&r->stats)};
    return hdpy_fill(&SignedType, items, 5);
}

static const char *const contact_names[] = {"a",         "b",     "pose_a",  "pose_b",
                                            "touch_rel", "depth", "gradient"};

PyObject *hdpy_compound_signed_distance(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                        PyObject *kw)
{
    (void)self;
    PyObject *v[7];
    compound_call cc;
    if (hdpy_parse_args("compound_signed_distance", args, nargs, kw, contact_names, 7, 2, v) < 0 ||
        call_setup(&cc, v, 1) < 0) {
        return NULL;
    }
    hd_compound_signed_distance_result r;
    hd_status st;
    Py_BEGIN_ALLOW_THREADS
    st = run_contact(&cc, &r, NULL);
    Py_END_ALLOW_THREADS
    return st == HD_OK ? signed_new(&r, cc.gradient) : hdpy_raise(st, "compound_signed_distance");
}

static PyStructSequence_Field point_fields[] = {
    {"point", "(3,) half-way between the surfaces"},
    {"separation", "negative when penetrating"},
    {"feature_a", "feature of piece_a"},
    {"feature_b", "feature of piece_b"},
    {"piece_a", "A's piece"},
    {"piece_b", "B's piece"},
    {"normal", "(3,) that pair's normal"},
    {NULL, NULL},
};
static PyStructSequence_Desc point_desc = {"hedra.CompoundContactPoint",
                                           "A point of a compound manifold.", point_fields, 7};

static PyStructSequence_Field manifold_fields[] = {
    {"normal", "(3,) the deepest pair's normal"},
    {"points", "list of up to 4 CompoundContactPoint"},
    {"pairs", "the number of pairs of pieces in contact"},
    {"contact", "CompoundSignedDistanceResult"},
    {NULL, NULL},
};
static PyStructSequence_Desc manifold_desc = {
    "hedra.CompoundManifold", "See hedra.compound_contact_manifold.", manifold_fields, 4};

static PyObject *point_new(const hd_compound_contact_point *p)
{
    PyObject *items[7] = {hdpy_vec3(p->contact.point),
                          PyFloat_FromDouble(p->contact.separation),
                          hdpy_feature_new(p->contact.feature_a),
                          hdpy_feature_new(p->contact.feature_b),
                          PyLong_FromLong(p->piece_a),
                          PyLong_FromLong(p->piece_b),
                          hdpy_vec3(p->normal)};
    return hdpy_fill(&PointType, items, 7);
}

PyObject *hdpy_compound_contact_manifold(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                         PyObject *kw)
{
    (void)self;
    PyObject *v[7];
    compound_call cc;
    if (hdpy_parse_args("compound_contact_manifold", args, nargs, kw, contact_names, 7, 2, v) < 0 ||
        call_setup(&cc, v, 1) < 0) {
        return NULL;
    }
    hd_compound_signed_distance_result c;
    hd_compound_manifold m;
    hd_status st;
    Py_BEGIN_ALLOW_THREADS
    st = run_contact(&cc, &c, &m);
    Py_END_ALLOW_THREADS
    if (st != HD_OK) {
        return hdpy_raise(st, "compound_contact_manifold");
    }
    PyObject *points = PyList_New(m.count);
    for (int i = 0; points != NULL && i < m.count; ++i) {
        PyObject *p = point_new(&m.points[i]);
        if (p == NULL) {
            Py_CLEAR(points);
            break;
        }
        PyList_SET_ITEM(points, i, p);
    }
    PyObject *items[4] = {hdpy_vec3(m.normal), points, PyLong_FromLong(m.pairs),
                          signed_new(&c, cc.gradient)};
    return hdpy_fill(&ManifoldType, items, 4);
}

static PyStructSequence_Field enclosure_fields[] = {
    {"distance", "the largest distance of a point to the union of the pieces (0: all inside)"},
    {"vertex", "the point attaining it (-1 when every point is inside)"},
    {"piece", "the piece nearest to that point"},
    {"witness", "(3,) that piece's point nearest to it (body frame)"},
    {"inside", "the number of points at distance 0"},
    {"stats", "dict: node_pairs, piece_pairs"},
    {NULL, NULL},
};
static PyStructSequence_Desc enclosure_desc = {"hedra.EnclosureResult", "See hedra.enclosure.",
                                               enclosure_fields, 6};

PyObject *hdpy_enclosure(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw)
{
    (void)self;
    static const char *const names[] = {"points", "compound", "touch_rel"};
    PyObject *v[3];
    hdpy_compound *c;
    hd_options opt;
    if (hdpy_parse_args("enclosure", args, nargs, kw, names, 3, 2, v) < 0 ||
        (c = compound_get(v[1], "compound")) == NULL || hdpy_options(NULL, v[2], &opt) < 0) {
        return NULL;
    }
    PyArrayObject *pts = hdpy_points_array(v[0], "points");
    if (pts == NULL) {
        return NULL;
    }
    hd_enclosure_result r;
    hd_status st;
    const double *xyz = (const double *)PyArray_DATA(pts);
    int n = (int)PyArray_DIM(pts, 0);
    Py_BEGIN_ALLOW_THREADS
    st = hd_compound_enclosure(c->compound, xyz, n, &opt, &r);
    Py_END_ALLOW_THREADS
    Py_DECREF(pts);
    if (st != HD_OK) {
        return hdpy_raise(st, "enclosure");
    }
    PyObject *items[6] = {PyFloat_FromDouble(r.distance), PyLong_FromLong(r.vertex),
                          PyLong_FromLong(r.piece),       hdpy_vec3(r.witness),
                          PyLong_FromLong(r.inside),      stats_new(&r.stats)};
    return hdpy_fill(&EnclosureType, items, 6);
}

int hdpy_compound_init_type(PyObject *module)
{
    if (PyType_Ready(&CompoundType) < 0 ||
        PyStructSequence_InitType2(&CollideType, &collide_desc) < 0 ||
        PyStructSequence_InitType2(&DistanceType, &distance_desc) < 0 ||
        PyStructSequence_InitType2(&SignedType, &signed_desc) < 0 ||
        PyStructSequence_InitType2(&PointType, &point_desc) < 0 ||
        PyStructSequence_InitType2(&ManifoldType, &manifold_desc) < 0 ||
        PyStructSequence_InitType2(&EnclosureType, &enclosure_desc) < 0) {
        return -1;
    }
    PyTypeObject *types[7] = {&CompoundType, &CollideType,  &DistanceType, &SignedType,
                              &PointType,    &ManifoldType, &EnclosureType};
    static const char *const type_names[7] = {"Compound",
                                              "CompoundCollideResult",
                                              "CompoundDistanceResult",
                                              "CompoundSignedDistanceResult",
                                              "CompoundContactPoint",
                                              "CompoundManifold",
                                              "EnclosureResult"};
    for (int i = 0; i < 7; ++i) {
        if (PyModule_AddObjectRef(module, type_names[i], (PyObject *)types[i]) < 0) {
            return -1;
        }
    }
    return 0;
}
