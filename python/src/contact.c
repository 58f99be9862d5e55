/* Contact queries: hedra.signed_distance and hedra.contact_manifold (hedra/contact.h). As the
 * single queries of query.c: arguments parsed without a tuple, the GIL kept for small polytopes
 * and released for large ones, errors raised with the C status. */
#include "hedra_py.h"

/* Above this many vertices in a pair the query runs without the GIL (as query.c). */
#define HDPY_RELEASE_GIL_VERTICES 2048

typedef struct contact_call {
    const hd_polytope *a, *b;
    hd_pose pose_a, pose_b;
    int has_a, has_b;
    hd_options opt;
    int vertices;
    int gradient;
} contact_call;

/* depth: None or 'epa' (default), 'sat' (the separating-axis method). */
static int parse_depth(PyObject *obj, hd_options *opt)
{
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    const char *name = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
    if (name == NULL) {
        PyErr_Clear();
        hdpy_invalid("depth must be 'epa' or 'sat', not %R", obj);
        return -1;
    }
    if (strcmp(name, "sat") == 0) {
        opt->flags |= HD_QUERY_DEPTH_SAT;
    } else if (strcmp(name, "epa") != 0) {
        hdpy_invalid("depth must be 'epa' or 'sat', not '%s'", name);
        return -1;
    }
    return 0;
}

/* gradient: any truth value; true asks for the pose gradient (HD_QUERY_GRADIENT). */
static int parse_gradient(PyObject *obj, hd_options *opt, int *asked)
{
    int truth = obj == NULL ? 0 : PyObject_IsTrue(obj);
    if (truth < 0) {
        return -1;
    }
    *asked = truth;
    if (truth) {
        opt->flags |= HD_QUERY_GRADIENT;
    }
    return 0;
}

int hdpy_contact_flags(PyObject *depth, PyObject *gradient, hd_options *opt, int *asked)
{
    return parse_depth(depth, opt) < 0 || parse_gradient(gradient, opt, asked) < 0 ? -1 : 0;
}

/* v: a, b, pose_a, pose_b, touch_rel, depth, cache, gradient. */
static int contact_setup(contact_call *cc, PyObject **v)
{
    cc->a = hdpy_polytope_get(v[0], "a");
    cc->b = cc->a ? hdpy_polytope_get(v[1], "b") : NULL;
    if (cc->b == NULL || hdpy_pose(v[2], "pose_a", &cc->pose_a, &cc->has_a) < 0 ||
        hdpy_pose(v[3], "pose_b", &cc->pose_b, &cc->has_b) < 0 ||
        hdpy_options(NULL, v[4], &cc->opt) < 0 ||
        hdpy_contact_flags(v[5], v[7], &cc->opt, &cc->gradient) < 0 ||
        hdpy_cache_get(v[6], &cc->opt.cache) < 0) {
        return -1;
    }
    cc->vertices = hd_polytope_vertex_count(cc->a) + hd_polytope_vertex_count(cc->b);
    return 0;
}

static const char *const contact_names[] = {"a",         "b",     "pose_a", "pose_b",
                                            "touch_rel", "depth", "cache",  "gradient"};

/* hd_signed_distance (m NULL) or hd_contact_manifold, with a workspace above
 * HDPY_CONTACT_STACK_VERTICES: the faces of the manifold may not fit the stack scratch, and the
 * expanding polytope may grow past HD_CONTACT_STACK_VERTICES. */
static hd_status run_contact(contact_call *cc, hd_signed_distance_result *c, hd_manifold *m)
{
    const hd_pose *pa = cc->has_a ? &cc->pose_a : NULL, *pb = cc->has_b ? &cc->pose_b : NULL;
    hd_workspace *ws = NULL;
    hd_status st = HD_OK;
    if (cc->vertices > HDPY_CONTACT_STACK_VERTICES) {
        st = hd_workspace_create(hd_contact_workspace_capacity(cc->a, cc->b), &ws);
        cc->opt.workspace = ws;
    }
    if (st == HD_OK) {
        st = m != NULL ? hd_contact_manifold(cc->a, pa, cc->b, pb, &cc->opt, c, m)
                       : hd_signed_distance(cc->a, pa, cc->b, pb, &cc->opt, c);
    }
    hd_workspace_destroy(ws);
    return st;
}

PyObject *hdpy_signed_distance(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kw)
{
    (void)self;
    PyObject *v[8];
    contact_call cc;
    if (hdpy_parse_args("signed_distance", args, nargs, kw, contact_names, 8, 2, v) < 0 ||
        contact_setup(&cc, v) < 0) {
        return NULL;
    }
    hd_signed_distance_result c;
    hd_status st;
    if (cc.vertices > HDPY_RELEASE_GIL_VERTICES) {
        Py_BEGIN_ALLOW_THREADS
        st = run_contact(&cc, &c, NULL);
        Py_END_ALLOW_THREADS
    } else {
        st = run_contact(&cc, &c, NULL);
    }
    if (st != HD_OK) {
        return hdpy_raise(st, "signed_distance");
    }
    return hdpy_contact_new(&c, cc.gradient);
}

PyObject *hdpy_contact_manifold(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kw)
{
    (void)self;
    PyObject *v[8];
    contact_call cc;
    if (hdpy_parse_args("contact_manifold", args, nargs, kw, contact_names, 8, 2, v) < 0 ||
        contact_setup(&cc, v) < 0) {
        return NULL;
    }
    hd_signed_distance_result c;
    hd_manifold m;
    hd_status st;
    if (cc.vertices > HDPY_RELEASE_GIL_VERTICES) {
        Py_BEGIN_ALLOW_THREADS
        st = run_contact(&cc, &c, &m);
        Py_END_ALLOW_THREADS
    } else {
        st = run_contact(&cc, &c, &m);
    }
    if (st != HD_OK) {
        return hdpy_raise(st, "contact_manifold");
    }
    return hdpy_manifold_new(&m, &c, cc.gradient);
}
