/* Exceptions: every hd_status other than HD_OK becomes a hedra.HedraError (or a subclass) whose
 * attributes name the status (.status "HD_ERR_PARSE", .code 16), its message, and for files
 * .file and .line. */
#include <stdarg.h>

#include "hedra_py.h"

PyObject *hdpy_HedraError;
PyObject *hdpy_InvalidInputError;
PyObject *hdpy_ParseError;
PyObject *hdpy_FileError;

/* The enum's names, in its order; the assertion catches a status added to core.h. */
static const char *const status_names[] = {
    "HD_OK",
    "HD_ERR_NULL",
    "HD_ERR_INVALID_ARG",
    "HD_ERR_EMPTY",
    "HD_ERR_NONFINITE",
    "HD_ERR_TOO_LARGE",
    "HD_ERR_BAD_POSE",
    "HD_ERR_NOT_CONVEX",
    "HD_ERR_BAD_MESH",
    "HD_ERR_HULL",
    "HD_ERR_NO_MEMORY",
    "HD_ERR_ITERATION_LIMIT",
    "HD_ERR_WORKSPACE_FULL",
    "HD_ERR_UNSUPPORTED",
    "HD_ERR_CERTIFICATE",
    "HD_ERR_IO",
    "HD_ERR_PARSE",
    "HD_ERR_RANGE",
};
_Static_assert(sizeof status_names / sizeof status_names[0] == HD_STATUS_COUNT,
               "status_names must list every hd_status");

const char *hdpy_status_name(hd_status status)
{
    if ((int)status < 0 || status >= HD_STATUS_COUNT) {
        return "HD_UNKNOWN";
    }
    return status_names[status];
}

/* Statuses that mean the caller's input was wrong: InvalidInputError (a ValueError). */
static int is_input_status(hd_status st)
{
    switch (st) {
        case HD_ERR_NULL:
        case HD_ERR_INVALID_ARG:
        case HD_ERR_EMPTY:
        case HD_ERR_NONFINITE:
        case HD_ERR_TOO_LARGE:
        case HD_ERR_BAD_POSE:
        case HD_ERR_NOT_CONVEX:
        case HD_ERR_BAD_MESH:
        case HD_ERR_RANGE:
            return 1;
        default:
            return 0;
    }
}

static PyObject *class_of(hd_status st)
{
    if (st == HD_ERR_PARSE) {
        return hdpy_ParseError;
    }
    if (st == HD_ERR_IO) {
        return hdpy_FileError;
    }
    return is_input_status(st) ? hdpy_InvalidInputError : hdpy_HedraError;
}

static int set_attr(PyObject *exc, const char *name, PyObject *value)
{
    if (value == NULL) {
        return -1;
    }
    int rc = PyObject_SetAttrString(exc, name, value);
    Py_DECREF(value);
    return rc;
}

/* Raises cls(message) with the status attributes; file may be NULL (then .file is None). */
static PyObject *raise_with(hd_status st, const char *message, const char *file, int line)
{
    PyObject *cls = class_of(st);
    PyObject *exc = PyObject_CallFunction(cls, "s", message);
    if (exc == NULL) {
        return NULL;
    }
    int bad = set_attr(exc, "status", PyUnicode_FromString(hdpy_status_name(st))) ||
              set_attr(exc, "code", PyLong_FromLong((long)st)) ||
              set_attr(exc, "message", PyUnicode_FromString(message)) ||
              set_attr(exc, "file", file ? PyUnicode_DecodeFSDefault(file) : Py_NewRef(Py_None)) ||
              set_attr(exc, "line", file ? PyLong_FromLong(line) : Py_NewRef(Py_None));
    if (!bad) {
        PyErr_SetObject(cls, exc);
    }
    Py_DECREF(exc);
    return NULL;
}

PyObject *hdpy_raise(hd_status status, const char *context)
{
    return hdpy_raise_hint(status, context, NULL);
}

PyObject *hdpy_raise_hint(hd_status status, const char *context, const char *hint)
{
    char message[512];
    PyOS_snprintf(message, sizeof message, "%s: %s (%s)%s%s", context, hd_status_str(status),
                  hdpy_status_name(status), hint ? ": " : "", hint ? hint : "");
    return raise_with(status, message, NULL, 0);
}

PyObject *hdpy_raise_parse(hd_status status, const hd_parse_error *err)
{
    char where[600], message[700];
    hd_parse_error_format(err, where, (int)sizeof where);
    PyOS_snprintf(message, sizeof message, "%s (%s)", where, hdpy_status_name(status));
    return raise_with(status, message, err->file, err->line);
}

PyObject *hdpy_invalid(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    PyObject *message = PyUnicode_FromFormatV(format, ap); /* %R, %U, %s, %d, %zd; no %g */
    va_end(ap);
    if (message == NULL) {
        return NULL;
    }
    const char *text = PyUnicode_AsUTF8(message);
    if (text != NULL) {
        raise_with(HD_ERR_INVALID_ARG, text, NULL, 0);
    }
    Py_DECREF(message);
    return NULL;
}

static PyObject *new_error(PyObject *module, const char *name, const char *doc, PyObject *bases,
                           PyObject *attrs)
{
    char qualified[64];
    PyOS_snprintf(qualified, sizeof qualified, "hedra.%s", name);
    PyObject *cls = PyErr_NewExceptionWithDoc(qualified, doc, bases, attrs);
    Py_XDECREF(bases);
    Py_XDECREF(attrs);
    if (cls == NULL || PyModule_AddObjectRef(module, name, cls) < 0) {
        Py_XDECREF(cls);
        return NULL;
    }
    return cls;
}

int hdpy_errors_init(PyObject *module)
{
    hdpy_HedraError = new_error(
        module, "HedraError",
        "An error reported by hedra. Attributes: status (the hd_status name, e.g.\n"
        "'HD_ERR_NONFINITE'), code (its value), message, file and line (files only, else None),\n"
        "index (the failing pose of a batch, else None).",
        Py_NewRef(PyExc_Exception),
        Py_BuildValue("{szszszszszsz}", "status", NULL, "code", NULL, "message", NULL, "file", NULL,
                      "line", NULL, "index", NULL));
    if (hdpy_HedraError == NULL) {
        return -1;
    }
    hdpy_InvalidInputError = new_error(
        module, "InvalidInputError",
        "Bad input: an array of the wrong shape, NaN or infinity, an empty point set, a pose\n"
        "that is not a rotation, an unknown option. Also a ValueError.",
        PyTuple_Pack(2, hdpy_HedraError, PyExc_ValueError), NULL);
    hdpy_ParseError = new_error(module, "ParseError",
                                "A malformed file; .file and .line say where. Also a ValueError.",
                                PyTuple_Pack(2, hdpy_HedraError, PyExc_ValueError), NULL);
    hdpy_FileError =
        new_error(module, "FileError", "A file that could not be opened or read. Also an OSError.",
                  PyTuple_Pack(2, hdpy_HedraError, PyExc_OSError), NULL);
    return (hdpy_InvalidInputError && hdpy_ParseError && hdpy_FileError) ? 0 : -1;
}
