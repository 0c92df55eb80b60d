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

static PyObject *native_agent_present(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyBool_FromLong(agent_push != NULL && agent_pop != NULL);
}

static PyMethodDef methods[] = {
    {"push", (PyCFunction)(void (*)(void))native_push, METH_FASTCALL, "push(category, name): open a region"},
    {"pop", (PyCFunction)(void (*)(void))native_pop, METH_FASTCALL, "pop(category): close the innermost region"},
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
