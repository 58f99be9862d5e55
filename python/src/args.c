/* Argument parsing for the vectorcall entry points (cheaper than building a tuple and a dict:
 * a single hedra.collide call costs little more than the C query), query options, thread
 * counts. */
#include "hedra_py.h" /* first: Python.h defines _GNU_SOURCE for sched_getaffinity */

#include <sched.h>
#include <string.h>
#include <unistd.h>

/* Index of keyword key in names[], or -1. */
static int keyword_index(PyObject *key, const char *const *names, int count)
{
    const char *k = PyUnicode_AsUTF8(key);
    if (k == NULL) {
        PyErr_Clear();
        return -1;
    }
    for (int i = 0; i < count; ++i) {
        if (strcmp(k, names[i]) == 0) {
            return i;
        }
    }
    return -1;
}

int hdpy_parse_args(const char *func, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                    const char *const *names, int count, int required, PyObject **out)
{
    if (nargs > count) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)", func, count,
                     nargs);
        return -1;
    }
    for (int i = 0; i < count; ++i) {
        out[i] = i < nargs ? args[i] : NULL;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; ++k) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int i = keyword_index(key, names, count);
        if (i < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", func,
                         key);
            return -1;
        }
        if (out[i] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", func,
                         names[i]);
            return -1;
        }
        out[i] = args[nargs + k];
    }
    for (int i = 0; i < required; ++i) {
        if (out[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", func, names[i]);
            return -1;
        }
    }
    return 0;
}

static int parse_algo(PyObject *algo, hd_algo *out)
{
    if (!PyUnicode_Check(algo)) {
        PyErr_SetString(PyExc_TypeError, "algo must be a string: 'gjk', 'cddual' or 'lp'");
        return -1;
    }
    const char *name = PyUnicode_AsUTF8(algo);
    if (name == NULL) {
        return -1;
    }
    if (hd_algo_parse(name, out) != HD_OK) {
        hdpy_invalid("algo must be 'gjk', 'cddual' or 'lp', not '%s'", name);
        return -1;
    }
    return 0;
}

int hdpy_options(PyObject *algo, PyObject *touch_rel, hd_options *opt)
{
    *opt = hd_options_default();
    if (algo != NULL && algo != Py_None && parse_algo(algo, &opt->algo) < 0) {
        return -1;
    }
    if (touch_rel != NULL && touch_rel != Py_None) {
        double v = PyFloat_AsDouble(touch_rel);
        if (v == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        opt->tol.touch_rel = v;
        if (hd_tolerance_validate(&opt->tol) != HD_OK) {
            hdpy_invalid("touch_rel must be finite, >= 0 and < 1e-3, not %R", touch_rel);
            return -1;
        }
    }
    return 0;
}

int hdpy_core_count(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) {
        return CPU_COUNT(&set);
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int hdpy_threads(PyObject *obj, int *threads)
{
    long n = 0;
    if (obj != NULL && obj != Py_None) {
        n = PyLong_AsLong(obj);
        if (n == -1 && PyErr_Occurred()) {
            return -1;
        }
    }
    if (n < 0 || n > HDPY_MAX_THREADS) {
        hdpy_invalid("threads must be 0 (every core) or 1..%d, not %ld", HDPY_MAX_THREADS, n);
        return -1;
    }
    *threads = n == 0 ? hdpy_core_count() : (int)n;
    if (*threads > HDPY_MAX_THREADS) {
        *threads = HDPY_MAX_THREADS;
    }
    return 0;
}
