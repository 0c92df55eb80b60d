"""The one binding to the agent's exported C API (librocprof-sys.so, preloaded by rocprof-sys-run).

Two ways in, the fastest that loads: the small extension module ``_rocprofsys_native`` (stable ABI,
one build for every Python >= 3.11: a push is one METH_FASTCALL call), else ctypes on the process's
own symbols. Without the agent in the process (plain ``python3 script.py``) every call does
nothing, so annotated scripts run unchanged.
"""

import ctypes
import os

CATEGORY_PYTHON = 1
CATEGORY_USER = 2

# rocprofsys_annotation_type_t
STRING = 1
INT32 = 7


class Annotation(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("type", ctypes.c_size_t), ("value", ctypes.c_void_p)]


def _nothing(*_args):
    return 0


def _load_ctypes():
    try:
        process = ctypes.CDLL(None)
        push = process.rocprofsys_push_category_region
        pop = process.rocprofsys_pop_category_region
    except (OSError, AttributeError):
        return None
    for fn in (push, pop):
        fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t]
        fn.restype = ctypes.c_int
    control = {}
    for name in ("start_trace", "stop_trace", "start_thread_trace", "stop_thread_trace"):
        fn = getattr(process, "rocprofsys_" + name)
        fn.argtypes = []
        fn.restype = ctypes.c_int
        control[name] = fn
    return push, pop, control


def _load_native():
    if os.environ.get("ROCPROFSYS_PYTHON_BINDING", "") == "ctypes":
        return None
    try:
        from . import _rocprofsys_native as native
    except ImportError:
        return None
    return native if native.agent_present() else None


class _Binding:
    """push(category, name) / pop(category) and the annotated and trace-control calls."""

    def __init__(self):
        self.kind = "none"
        self.native = None
        self.push = _nothing
        self.pop = _nothing
        loaded = _load_ctypes()
        self._push_annotated = loaded[0] if loaded else _nothing
        self._control = loaded[2] if loaded else {}
        native = _load_native()
        if native is not None:
            self.kind = "native"
            self.native = native
            self.push = native.push
            self.pop = native.pop
        elif loaded is not None:
            self.kind = "ctypes"
            c_push, c_pop = loaded[0], loaded[1]
            self.push = lambda category, name: c_push(category, name, None, 0)
            self.pop = lambda category: c_pop(category, None, None, 0)

    @property
    def present(self):
        return self.kind != "none"

    def push_annotated(self, category, name, annotations):
        """annotations: a ctypes array of Annotation, kept alive by the caller during the call."""
        return self._push_annotated(category, name, ctypes.addressof(annotations), len(annotations))

    def trace_control(self, name):
        fn = self._control.get(name)
        return fn() if fn is not None else 0


agent = _Binding()
