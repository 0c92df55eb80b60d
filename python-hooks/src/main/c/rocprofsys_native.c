/*
 * _rocprofsys_native: the rocprofsys package's fast way into the agent. Two calls, push(category,
 * name: bytes) and pop(category), each one METH_FASTCALL call straight into the agent's exported
 * rocprofsys_push_category_region / rocprofsys_pop_category_region, found with dlsym when the
 * module loads (the agent is LD_PRELOADed by rocprof-sys-run). Built against the stable ABI of
 * Python 3.11, so one build serves 3.11, 3.12 and later. Without the agent both calls do nothing.
 */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

typedef int (*region_fn)(int, const char *, void *, size_t);

static region_fn agent_push;
static region_fn agent_pop;

static PyObject *native_push(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "push(category, name) takes 2 arguments");
        return NULL;
    }
    long category = PyLong_AsLong(args[0]);
    char *name;
    Py_ssize_t len;
    if ((category == -1 && PyErr_Occurred()) || PyBytes_AsStringAndSize(args[1], &name, &len) < 0) {
        return NULL;
    }
    if (agent_push != NULL) {
        agent_push((int)category, name, NULL, 0);
    }
    Py_RETURN_NONE;
}

static PyObject *native_pop(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "pop(category) takes 1 argument");
        return NULL;
    }
    long category = PyLong_AsLong(args[0]);
    if (category == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (agent_pop != NULL) {
        agent_pop((int)category, NULL, NULL, 0);
    }
    Py_RETURN_NONE;
}

/*
 * The sys.monitoring callbacks of the common case, in C: a code object the Python engine has
 * given a label (label(code, name)) is pushed or popped right here; anything else (not decided
 * yet, excluded, labelled per call, running when profiling started) goes to the Python callback
 * registered with monitor(), which decides and may return DISABLE. The labels sit in a table
 * keyed by the code object's address: hashing a code object in a dict costs more than the push.
 */
struct label_entry {
    PyObject *code; /* owned */
    PyObject *label; /* owned bytes */
};

static struct label_entry *labels;
static size_t labels_cap; /* a power of two, or 0 */
static size_t labels_count;
static PyObject *slow_start;
static PyObject *slow_end;

static size_t slot_of(PyObject *code)
{
    uintptr_t h = (uintptr_t)code;
    h ^= h >> 17;
    h *= 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 20) & (labels_cap - 1);
}

static const char *decided_label(PyObject *code)
{
    if (labels_cap == 0) {
        return NULL;
    }
    for (size_t i = slot_of(code);; i = (i + 1) & (labels_cap - 1)) {
        if (labels[i].code == code) {
            return PyBytes_AsString(labels[i].label);
        }
        if (labels[i].code == NULL) {
            return NULL;
        }
    }
}

static int labels_insert(PyObject *code, PyObject *label)
{
    if ((labels_count + 1) * 2 > labels_cap) {
        size_t cap = labels_cap ? labels_cap * 2 : 1024;
        struct label_entry *old = labels;
        size_t old_cap = labels_cap;
        labels = PyMem_Calloc(cap, sizeof *labels);
        if (labels == NULL) {
            labels = old;
            PyErr_NoMemory();
            return -1;
        }
        labels_cap = cap;
        for (size_t j = 0; j < old_cap; j++) {
            if (old[j].code != NULL) {
                size_t i = slot_of(old[j].code);
                while (labels[i].code != NULL) {
                    i = (i + 1) & (labels_cap - 1);
                }
                labels[i] = old[j];
            }
        }
        PyMem_Free(old);
    }
    size_t i = slot_of(code);
    while (labels[i].code != NULL && labels[i].code != code) {
        i = (i + 1) & (labels_cap - 1);
    }
    Py_INCREF(label);
    if (labels[i].code == code) {
        Py_DECREF(labels[i].label);
    } else {
        Py_INCREF(code);
        labels[i].code = code;
        labels_count++;
    }
    labels[i].label = label;
    return 0;
}

static void labels_clear(void)
{
    for (size_t i = 0; i < labels_cap; i++) {
        if (labels[i].code != NULL) {
            Py_DECREF(labels[i].code);
            Py_DECREF(labels[i].label);
        }
    }
    PyMem_Free(labels);
    labels = NULL;
    labels_cap = 0;
    labels_count = 0;
}

/* monitor(on_start, on_end): a new profiling session; the table starts empty. */
static PyObject *native_monitor(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "monitor(on_start, on_end) takes 2 arguments");
        return NULL;
    }
    labels_clear();
    PyObject *old_start = slow_start;
    PyObject *old_end = slow_end;
    Py_INCREF(args[0]);
    Py_INCREF(args[1]);
    slow_start = args[0];
    slow_end = args[1];
    Py_XDECREF(old_start);
    Py_XDECREF(old_end);
    Py_RETURN_NONE;
}

/* label(code, name: bytes): the code object's functions are pushed as name from now on. */
static PyObject *native_label(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2 || !PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "label(code, name: bytes) takes 2 arguments");
        return NULL;
    }
    if (labels_insert(args[0], args[1]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *call_slow(PyObject *fn, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *tuple = PyTuple_New(nargs);
    if (tuple == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        Py_INCREF(args[i]);
        PyTuple_SetItem(tuple, i, args[i]);
    }
    PyObject *r = PyObject_CallObject(fn, tuple);
    Py_DECREF(tuple);
    return r;
}

static PyObject *native_on_start(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    const char *label = nargs >= 1 ? decided_label(args[0]) : NULL;
    if (label != NULL) {
        if (agent_push != NULL) {
            agent_push(1, label, NULL, 0);
        }
        Py_RETURN_NONE;
    }
    return call_slow(slow_start, args, nargs);
}

static PyObject *native_on_end(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    const char *label = nargs >= 1 ? decided_label(args[0]) : NULL;
    if (label != NULL) {
        if (agent_pop != NULL) {
            agent_pop(1, NULL, NULL, 0);
        }
        Py_RETURN_NONE;
    }
    return call_slow(slow_end, args, nargs);
}

static PyObject *native_agent_present(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyBool_FromLong(agent_push != NULL && agent_pop != NULL);
}

static PyMethodDef methods[] = {
    {"push", (PyCFunction)(void (*)(void))native_push, METH_FASTCALL, "push(category, name): open a region"},
    {"pop", (PyCFunction)(void (*)(void))native_pop, METH_FASTCALL, "pop(category): close the innermost region"},
    {"monitor", (PyCFunction)(void (*)(void))native_monitor, METH_FASTCALL,
     "monitor(on_start, on_end): a new session, the Python callbacks behind on_start / on_end"},
    {"label", (PyCFunction)(void (*)(void))native_label, METH_FASTCALL,
     "label(code, name): on_start / on_end push and pop this code object's calls as name"},
    {"on_start", (PyCFunction)(void (*)(void))native_on_start, METH_FASTCALL,
     "sys.monitoring PY_START / PY_RESUME / PY_THROW callback"},
    {"on_end", (PyCFunction)(void (*)(void))native_on_end, METH_FASTCALL,
     "sys.monitoring PY_RETURN / PY_YIELD callback"},
    {"agent_present", native_agent_present, METH_NOARGS, "whether the agent is in this process"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_rocprofsys_native", "rocprofsys's calls into the agent", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__rocprofsys_native(void)
{
    agent_push = (region_fn)dlsym(RTLD_DEFAULT, "rocprofsys_push_category_region");
    agent_pop = (region_fn)dlsym(RTLD_DEFAULT, "rocprofsys_pop_category_region");
    return PyModule_Create(&module);
}
