/* hedra.Cache: warm-start state for a sequence of single queries on one ordered pair (frame
 * coherence). Like hd_cache it only saves time: a cache used with another pair is still
 * correct. One cache per pair and thread. */
#include "hedra_py.h"

typedef struct hdpy_cache {
    PyObject_HEAD
    hd_cache cache;
} hdpy_cache;

static PyObject *cache_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) != 0 || (kwds != NULL && PyDict_GET_SIZE(kwds) != 0)) {
        PyErr_SetString(PyExc_TypeError, "Cache() takes no arguments");
        return NULL;
    }
    hdpy_cache *self = (hdpy_cache *)type->tp_alloc(type, 0);
    if (self != NULL) {
        hd_cache_reset(&self->cache);
    }
    return (PyObject *)self;
}

static PyObject *cache_reset(hdpy_cache *self, PyObject *unused)
{
    (void)unused;
    hd_cache_reset(&self->cache);
    Py_RETURN_NONE;
}

static PyObject *cache_repr(hdpy_cache *self)
{
    return PyUnicode_FromFormat("<hedra.Cache %s>", self->cache.valid ? "warm" : "cold");
}

static PyMethodDef cache_methods[] = {
    {"reset", (PyCFunction)cache_reset, METH_NOARGS,
     "reset($self, /)\n--\n\nForget the last query (cold)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject hdpy_CacheType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hedra.Cache",
    .tp_basicsize = sizeof(hdpy_cache),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Cache()\n--\n\nWarm start for repeated queries of one ordered pair along a motion:\n"
              "pass cache=... to hedra.collide / hedra.distance. It never changes an answer.",
    .tp_new = cache_new,
    .tp_repr = (reprfunc)cache_repr,
    .tp_methods = cache_methods,
};

int hdpy_cache_init_type(PyObject *module)
{
    if (PyType_Ready(&hdpy_CacheType) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "Cache", (PyObject *)&hdpy_CacheType);
}

int hdpy_cache_get(PyObject *obj, hd_cache **out)
{
    *out = NULL;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    if (!PyObject_TypeCheck(obj, &hdpy_CacheType)) {
        PyErr_Format(PyExc_TypeError, "cache must be a hedra.Cache or None, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    *out = &((hdpy_cache *)obj)->cache;
    return 0;
}
