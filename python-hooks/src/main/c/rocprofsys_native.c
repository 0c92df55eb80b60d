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
 * keyed by the code object's address (hashing a code object in a dict costs more than the push),
 * each with the pointer to its bytes resolved once, so an event creates no Python object and
 * calls no Python API: the lookup, the agent's push or pop, and the returned None.
 */
struct label_entry {
    PyObject *code; /* owned */
    PyObject *label; /* owned bytes; NULL: an excluded subtree's root (exclude(code)) */
    const char *name; /* label's bytes */
};

static struct label_entry *labels;
static size_t labels_cap; /* a power of two, or 0 */
static size_t labels_count;
static PyObject *slow_start;
static PyObject *slow_end;
static PyObject *slow_unwind;

static inline size_t slot_of(PyObject *code)
{
    uintptr_t h = (uintptr_t)code;
    h ^= h >> 17;
    h *= 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 20) & (labels_cap - 1);
}

static inline const struct label_entry *decided(PyObject *code)
{
    if (labels_cap == 0) {
        return NULL;
    }
    for (size_t i = slot_of(code);; i = (i + 1) & (labels_cap - 1)) {
        if (labels[i].code == code) {
            return &labels[i];
        }
        if (labels[i].code == NULL) {
            return NULL;
        }
    }
}

static int labels_insert(PyObject *code, PyObject *label)
{
    const char *name = label != NULL ? PyBytes_AsString(label) : NULL;
    if (label != NULL && name == NULL) {
        return -1;
    }
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
    Py_XINCREF(label);
    if (labels[i].code == code) {
        Py_XDECREF(labels[i].label);
    } else {
        Py_INCREF(code);
        labels[i].code = code;
        labels_count++;
    }
    labels[i].label = label;
    labels[i].name = name;
    return 0;
}

static void labels_clear(void)
{
    for (size_t i = 0; i < labels_cap; i++) {
        if (labels[i].code != NULL) {
            Py_DECREF(labels[i].code);
            Py_XDECREF(labels[i].label);
        }
    }
    PyMem_Free(labels);
    labels = NULL;
    labels_cap = 0;
    labels_count = 0;
}

/*
 * Upstream's excluded subtree (-E): nothing below a function excluded by the user's function
 * filters is recorded. Such a function gets DISABLE like any excluded code (it runs at full speed),
 * so whether a recorded function runs beneath one is found when it starts, from its frame: the
 * callers are walked up to the nearest one that is either an excluded root (beneath: not
 * recorded) or a recorded function whose answer is known (it is on this thread's shadow stack of
 * recorded frames, with its answer). Only a session with such filters (monitor(..., True)) pays
 * for the frame objects and the walk; the others push and pop as before.
 */
struct shadow_entry {
    PyObject *frame; /* owned: its address cannot be reused while it is here */
    int beneath;
};

struct shadow_stack {
    struct shadow_entry *v;
    size_t n;
    size_t cap;
    unsigned long session;
};

static _Thread_local struct shadow_stack shadow;
static int subtree_rules;
static unsigned long session;
typedef PyObject *(*frame_back_fn)(PyObject *);
static frame_back_fn frame_back_direct; /* PyFrame_GetBack: exported, not in the limited API */
static PyObject *f_back_name;

static PyObject *frame_back(PyObject *frame)
{
    if (frame_back_direct != NULL) {
        return frame_back_direct(frame);
    }
    PyObject *back = PyObject_GetAttr(frame, f_back_name);
    if (back == Py_None) {
        Py_DECREF(back);
        return NULL;
    }
    if (back == NULL) {
        PyErr_Clear();
    }
    return back;
}

static void shadow_truncate(size_t n)
{
    while (shadow.n > n) {
        shadow.n--;
        Py_DECREF(shadow.v[shadow.n].frame);
    }
}

static struct shadow_stack *shadow_here(void)
{
    if (shadow.session != session) {
        shadow_truncate(0);
        shadow.session = session;
    }
    return &shadow;
}

/* Whether the function starting in `frame` runs beneath an excluded root; -1 on error. */
static int beneath_excluded(struct shadow_stack *st, PyObject *frame)
{
    PyObject *known = st->n > 0 ? st->v[st->n - 1].frame : NULL;
    int answer = 0;
    PyObject *f = frame_back(frame);
    while (f != NULL) {
        if (f == known) {
            answer = st->v[st->n - 1].beneath;
            break;
        }
        PyObject *code = (PyObject *)PyFrame_GetCode((PyFrameObject *)f);
        const struct label_entry *e = decided(code);
        Py_DECREF(code);
        if (e != NULL && e->label == NULL) {
            answer = 1;
            break;
        }
        PyObject *next = frame_back(f);
        Py_DECREF(f);
        f = next;
    }
    Py_XDECREF(f);
    return answer;
}

/* A recorded function starts in `frame`: push it unless beneath an excluded root. */
static void start_recorded(const struct label_entry *e, PyObject *frame)
{
    struct shadow_stack *st = shadow_here();
    if (frame == NULL) {
        return;
    }
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 64;
        struct shadow_entry *v = PyMem_Realloc(st->v, cap * sizeof *v);
        if (v == NULL) {
            return;
        }
        st->v = v;
        st->cap = cap;
    }
    int beneath = beneath_excluded(st, frame);
    Py_INCREF(frame);
    st->v[st->n].frame = frame;
    st->v[st->n].beneath = beneath;
    st->n++;
    if (!beneath && agent_push != NULL) {
        agent_push(1, e->name, NULL, 0);
    }
}

/* A recorded function returns, yields or unwinds in `frame`. */
static void end_recorded(PyObject *frame)
{
    struct shadow_stack *st = shadow_here();
    size_t i = st->n;
    while (i > 0 && st->v[i - 1].frame != frame) {
        i--;
    }
    if (i == 0) {
        /* not started in this session's sight (pushed before the shadow knew it): popped */
        if (agent_pop != NULL) {
            agent_pop(1, NULL, NULL, 0);
        }
        return;
    }
    /* entries above it ended unseen (events were off for a while): dropped with it */
    int beneath = st->v[i - 1].beneath;
    shadow_truncate(i - 1);
    if (!beneath && agent_pop != NULL) {
        agent_pop(1, NULL, NULL, 0);
    }
}

/*
 * monitor(on_start, on_end, on_unwind, subtree): a new profiling session, the Python callbacks
 * behind the C ones; subtree: the session's filters exclude subtrees (exclude(code) follows). The
 * table starts empty.
 */
static PyObject *native_monitor(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "monitor(on_start, on_end, on_unwind, subtree) takes 4 arguments");
        return NULL;
    }
    int subtree = PyObject_IsTrue(args[3]);
    if (subtree < 0) {
        return NULL;
    }
    labels_clear();
    PyObject *old[3] = {slow_start, slow_end, slow_unwind};
    for (int i = 0; i < 3; i++) {
        Py_INCREF(args[i]);
    }
    slow_start = args[0];
    slow_end = args[1];
    slow_unwind = args[2];
    for (int i = 0; i < 3; i++) {
        Py_XDECREF(old[i]);
    }
    subtree_rules = subtree;
    session++;
    shadow_here();
    Py_RETURN_NONE;
}

/* exclude(code): the code object's functions are roots of excluded subtrees. */
static PyObject *native_exclude(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "exclude(code) takes 1 argument");
        return NULL;
    }
    if (labels_insert(args[0], NULL) < 0) {
        return NULL;
    }
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
    const struct label_entry *e = nargs >= 1 ? decided(args[0]) : NULL;
    if (e != NULL && e->label != NULL) {
        if (!subtree_rules) {
            if (agent_push != NULL) {
                agent_push(1, e->name, NULL, 0);
            }
        } else {
            start_recorded(e, (PyObject *)PyEval_GetFrame());
        }
        Py_RETURN_NONE;
    }
    return call_slow(slow_start, args, nargs);
}

static PyObject *end_event(PyObject *slow, PyObject *const *args, Py_ssize_t nargs)
{
    const struct label_entry *e = nargs >= 1 ? decided(args[0]) : NULL;
    if (e != NULL && e->label != NULL) {
        if (!subtree_rules) {
            if (agent_pop != NULL) {
                agent_pop(1, NULL, NULL, 0);
            }
        } else {
            end_recorded((PyObject *)PyEval_GetFrame());
        }
        Py_RETURN_NONE;
    }
    return call_slow(slow, args, nargs);
}

static PyObject *native_on_end(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return end_event(slow_end, args, nargs);
}

/* PY_UNWIND: as on_end, but its Python callback never answers DISABLE (not allowed for it) */
static PyObject *native_on_unwind(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return end_event(slow_unwind, args, nargs);
}

/*
 * started(code, frame) / ended(code, frame): the Python callbacks' way to the C ones for a code
 * object just labelled (its first call), with the monitored function's frame: inside the Python
 * callback the current frame is the callback's own.
 */
static PyObject *native_started(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    const struct label_entry *e = nargs == 2 ? decided(args[0]) : NULL;
    if (e != NULL && e->label != NULL) {
        if (!subtree_rules) {
            if (agent_push != NULL) {
                agent_push(1, e->name, NULL, 0);
            }
        } else {
            start_recorded(e, args[1]);
        }
    }
    Py_RETURN_NONE;
}

static PyObject *native_ended(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    const struct label_entry *e = nargs == 2 ? decided(args[0]) : NULL;
    if (e != NULL && e->label != NULL) {
        if (!subtree_rules) {
            if (agent_pop != NULL) {
                agent_pop(1, NULL, NULL, 0);
            }
        } else {
            end_recorded(args[1]);
        }
    }
    Py_RETURN_NONE;
}

/*
 * The benchmark's floor: a callback that does nothing, registered for the same events as
 * on_start / on_end, measures what sys.monitoring's dispatch alone costs.
 */
static PyObject *native_noop(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    (void)args;
    (void)nargs;
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
    {"monitor", (PyCFunction)(void (*)(void))native_monitor, METH_FASTCALL,
     "monitor(on_start, on_end, on_unwind, subtree): a new session, the Python callbacks behind the C ones"},
    {"exclude", (PyCFunction)(void (*)(void))native_exclude, METH_FASTCALL,
     "exclude(code): nothing beneath this code object's functions is recorded"},
    {"label", (PyCFunction)(void (*)(void))native_label, METH_FASTCALL,
     "label(code, name): on_start / on_end push and pop this code object's calls as name"},
    {"on_start", (PyCFunction)(void (*)(void))native_on_start, METH_FASTCALL,
     "sys.monitoring PY_START / PY_RESUME / PY_THROW callback"},
    {"on_end", (PyCFunction)(void (*)(void))native_on_end, METH_FASTCALL,
     "sys.monitoring PY_RETURN / PY_YIELD callback"},
    {"started", (PyCFunction)(void (*)(void))native_started, METH_FASTCALL,
     "started(code, frame): on_start for a labelled code object, from a Python callback"},
    {"ended", (PyCFunction)(void (*)(void))native_ended, METH_FASTCALL,
     "ended(code, frame): on_end for a labelled code object, from a Python callback"},
    {"on_unwind", (PyCFunction)(void (*)(void))native_on_unwind, METH_FASTCALL, "sys.monitoring PY_UNWIND callback"},
    {"_noop", (PyCFunction)(void (*)(void))native_noop, METH_FASTCALL,
     "does nothing: the floor of a sys.monitoring callback (python benchmark)"},
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
    frame_back_direct = (frame_back_fn)dlsym(RTLD_DEFAULT, "PyFrame_GetBack");
    f_back_name = PyUnicode_InternFromString("f_back");
    if (f_back_name == NULL) {
        return NULL;
    }
    return PyModule_Create(&module);
}
