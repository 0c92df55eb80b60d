"""The two ways Python calls reach the agent: sys.monitoring (PEP 669, Python >= 3.12) and
sys.setprofile (older Pythons).

sys.monitoring is the fast path: the filters run once per code object and excluded code gets
DISABLE, after which the interpreter no longer calls us for it (it runs at full speed). With
sys.setprofile the interpreter calls us on every call and return of every function.
"""

import sys
import threading

from ._agent import agent, Annotation, CATEGORY_PYTHON, STRING, INT32
from ._rules import SUBTREE

import ctypes


def _annotations(code, frame):
    """upstream's annotations: file, line, lasti, argcount, nlocals, stacksize."""
    values = [
        ctypes.c_char_p(code.co_filename.encode("utf-8", "replace")),
        ctypes.c_int32(frame.f_lineno if frame is not None and frame.f_lineno else code.co_firstlineno),
        ctypes.c_int32(frame.f_lasti if frame is not None else 0),
        ctypes.c_int32(code.co_argcount),
        ctypes.c_int32(code.co_nlocals),
        ctypes.c_int32(code.co_stacksize),
    ]
    names = (b"file", b"line", b"lasti", b"argcount", b"nlocals", b"stacksize")
    array = (Annotation * 6)()
    for i, (name, value) in enumerate(zip(names, values)):
        array[i].name = name
        if i == 0:
            array[i].type = STRING
            array[i].value = ctypes.cast(value, ctypes.c_void_p)
        else:
            array[i].type = INT32
            array[i].value = ctypes.addressof(value)
    return array, values


def _push_slow(rules, code, frame, label):
    if rules.include_args:
        label = rules.call_label(frame)
    if rules.annotate:
        array, keep = _annotations(code, frame)
        agent.push_annotated(CATEGORY_PYTHON, label, array)
        del keep
    else:
        agent.push(CATEGORY_PYTHON, label)


class _Running:
    """The decision of a function that was running when profiling started (see install)."""

    __slots__ = ("label",)

    def __init__(self, label):
        self.label = label


class MonitoringEngine:
    """sys.monitoring: one tool id, callbacks per code location, DISABLE for excluded code."""

    name = "sys.monitoring"

    def __init__(self):
        self.mon = sys.monitoring
        self.tool = None
        self.events = 0
        self.suspended = 0

    def _claim_tool(self):
        mon = self.mon
        for tool in (mon.PROFILER_ID, 3, 4, 5):
            owner = mon.get_tool(tool)
            if owner == "rocprofsys":
                return tool
            if owner is None:
                mon.use_tool_id(tool, "rocprofsys")
                return tool
        return None

    def available(self):
        if self.tool is None:
            self.tool = self._claim_tool()
        return self.tool is not None

    def install(self, rules):
        mon = self.mon
        E = mon.events
        tool = self.tool
        decisions = rules.decisions
        decide = rules.decide
        push = agent.push
        pop = agent.pop
        DISABLE = mon.DISABLE
        PY = CATEGORY_PYTHON
        slow = rules.include_args or rules.annotate
        getframe = sys._getframe
        local = threading.local()
        # the common case in C when the extension is there: a code object given a label is
        # pushed without entering Python; the functions below handle the rest
        native = agent.native if not slow else None
        subtree = rules.subtree

        # Functions already running here return without having been pushed: their decision is
        # wrapped (_Running), and their pops only match pushes counted on the calling thread.
        # An excluded root among them still hides what it calls (the C table learns it below).
        running_roots = []
        frame = getframe(1)
        while frame is not None:
            code = frame.f_code
            d = decisions.get(code)
            if d is None and code not in decisions:
                d = decide(code)
            if d is SUBTREE:
                running_roots.append(code)
            elif d is not None and type(d) is not _Running:
                decisions[code] = _Running(d)
            frame = frame.f_back

        def decided(code):
            d = decisions.get(code)
            if d is None and code not in decisions:
                d = decide(code)
                if native is not None:
                    if d:
                        native.label(code, d)
                    elif d is SUBTREE:
                        native.exclude(code)
            return d

        # Upstream's excluded subtree without the extension (the C callbacks keep their own):
        # a recorded function is not pushed when an excluded root is among its callers, found by
        # walking up to the nearest excluded root or recorded frame of this thread's shadow stack.
        def shadow():
            s = getattr(local, "shadow", None)
            if s is None:
                s = local.shadow = []
            return s

        def shadow_start(frame):
            s = shadow()
            known = s[-1][0] if s else None
            beneath = False
            f = frame.f_back
            while f is not None:
                if f is known:
                    beneath = s[-1][1]
                    break
                if decisions.get(f.f_code, 1) is SUBTREE:
                    beneath = True
                    break
                f = f.f_back
            s.append((frame, beneath))
            return beneath

        def shadow_end(frame):
            s = shadow()
            for i in range(len(s) - 1, -1, -1):
                if s[i][0] is frame:
                    beneath = s[i][1]
                    del s[i:]
                    return beneath
            return False

        def on_running(code, label, step, frame_depth):
            depth = getattr(local, "depth", None)
            if depth is None:
                depth = local.depth = {}
            n = depth.get(code, 0)
            if step > 0:
                depth[code] = n + 1
                if slow or not label:
                    _push_slow(rules, code, getframe(frame_depth), label)
                else:
                    push(PY, label)
            elif n > 0:
                depth[code] = n - 1
                pop(PY)
            return None

        def on_start(code, offset):
            d = decided(code)
            if d is None or d is SUBTREE:
                return DISABLE
            if type(d) is _Running:
                return on_running(code, d.label, 1, 2)
            frame = getframe(1)
            if native is not None:
                return native.started(code, frame)
            if subtree and shadow_start(frame):
                return None
            if slow or not d:
                _push_slow(rules, code, frame, d)
            else:
                push(PY, d)
            return None

        def ended(code, d, frame):
            if type(d) is _Running:
                return on_running(code, d.label, -1, 0)
            if native is not None:
                return native.ended(code, frame)
            if subtree and shadow_end(frame):
                return None
            pop(PY)
            return None

        def on_end(code, offset, retval):
            d = decided(code)
            if d is None or d is SUBTREE:
                return DISABLE
            return ended(code, d, getframe(1))

        def on_unwind(code, offset, exc):
            d = decisions.get(code)
            if d is None or d is SUBTREE:
                return None
            return ended(code, d, getframe(1))

        if native is not None:
            native.monitor(on_start, on_end, on_unwind, subtree)
            for code in running_roots:
                native.exclude(code)
            start_cb, end_cb, unwind_cb = native.on_start, native.on_end, native.on_unwind
        else:
            start_cb, end_cb, unwind_cb = on_start, on_end, on_unwind
        events = E.PY_START | E.PY_RESUME | E.PY_THROW | E.PY_RETURN | E.PY_YIELD | E.PY_UNWIND
        mon.register_callback(tool, E.PY_START, start_cb)
        mon.register_callback(tool, E.PY_RESUME, start_cb)
        mon.register_callback(tool, E.PY_THROW, start_cb)
        mon.register_callback(tool, E.PY_RETURN, end_cb)
        mon.register_callback(tool, E.PY_YIELD, end_cb)
        mon.register_callback(tool, E.PY_UNWIND, unwind_cb)
        if rules.trace_c:
            events |= E.CALL | E.C_RETURN | E.C_RAISE
            c_labels = {}

            def on_call(code, offset, callable, arg0):
                if type(callable).__name__ not in ("builtin_function_or_method", "method_descriptor"):
                    return None
                key = (callable.__qualname__ if hasattr(callable, "__qualname__") else str(callable), code.co_filename)
                label = c_labels.get(key, False)
                if label is False:
                    label = c_labels[key] = rules.decide_c(key[0], key[1])
                if label:
                    push(PY, label)
                return None

            def on_c_return(code, offset, callable, arg0):
                if type(callable).__name__ not in ("builtin_function_or_method", "method_descriptor"):
                    return None
                key = (callable.__qualname__ if hasattr(callable, "__qualname__") else str(callable), code.co_filename)
                if c_labels.get(key):
                    pop(PY)
                return None

            mon.register_callback(tool, E.CALL, on_call)
            mon.register_callback(tool, E.C_RETURN, on_c_return)
            mon.register_callback(tool, E.C_RAISE, on_c_return)
        self.events = events
        mon.restart_events()
        if not self.suspended:
            mon.set_events(tool, events)

    def uninstall(self):
        self.mon.set_events(self.tool, 0)
        self.events = 0

    def pause_thread(self):
        # sys.monitoring has no per-thread switch: a pause holds for every thread
        self.suspend()

    def resume_thread(self):
        self.resume()

    def suspend(self):
        self.suspended += 1
        if self.suspended == 1:
            self.mon.set_events(self.tool, 0)

    def resume(self):
        if self.suspended > 0:
            self.suspended -= 1
            if self.suspended == 0 and self.events:
                self.mon.set_events(self.tool, self.events)


class SetprofileEngine:
    """sys.setprofile on each thread (threading.setprofile for threads started later)."""

    name = "sys.setprofile"

    def __init__(self):
        self.callbacks = {}
        self.rules = None
        self.paused = {}
        self.suspended = [False]

    def available(self):
        return True

    def _thread_callback(self, skip=0):
        rules = self.rules
        decisions = rules.decisions
        decide = rules.decide
        push = agent.push
        pop = agent.pop
        PY = CATEGORY_PYTHON
        slow = rules.include_args or rules.annotate
        trace_c = rules.trace_c
        suspended = self.suspended
        state = [0, skip]  # regions pushed and not yet popped, depth inside an excluded subtree
        c_labels = {}

        def callback(frame, event, arg):
            if suspended[0]:
                return
            if event == "call":
                if state[1]:
                    state[1] += 1
                    return
                code = frame.f_code
                d = decisions.get(code)
                if d is None and code not in decisions:
                    d = decide(code)
                if d is None:
                    return
                if d is SUBTREE:
                    state[1] = 1
                    return
                if slow or not d:
                    _push_slow(rules, code, frame, d)
                else:
                    push(PY, d)
                state[0] += 1
            elif event == "return":
                if state[1]:
                    state[1] -= 1
                    return
                d = decisions.get(frame.f_code)
                if d is not None and d is not SUBTREE and state[0]:
                    state[0] -= 1
                    pop(PY)
            elif trace_c and not state[1]:
                if event == "c_call":
                    key = (getattr(arg, "__qualname__", None) or str(arg), frame.f_code.co_filename)
                    label = c_labels.get(key, False)
                    if label is False:
                        label = c_labels[key] = rules.decide_c(key[0], key[1])
                    if label:
                        push(PY, label)
                        state[0] += 1
                elif event in ("c_return", "c_exception"):
                    key = (getattr(arg, "__qualname__", None) or str(arg), frame.f_code.co_filename)
                    if c_labels.get(key) and state[0]:
                        state[0] -= 1
                        pop(PY)

        return callback

    def _bootstrap(self, frame, event, arg):
        callback = self._thread_callback()
        self.callbacks[threading.get_ident()] = callback
        sys.setprofile(callback)
        callback(frame, event, arg)

    @staticmethod
    def _running_subtree(rules):
        """Frames from here up to the outermost excluded root already running (0: none): their
        returns, which the profile function sees, end the excluded subtree."""
        n = skip = 0
        frame = sys._getframe(1)
        while frame is not None:
            n += 1
            code = frame.f_code
            d = rules.decisions.get(code)
            if d is None and code not in rules.decisions:
                d = rules.decide(code)
            if d is SUBTREE:
                skip = n
            frame = frame.f_back
        return skip

    def install(self, rules):
        self.rules = rules
        self.callbacks = {}
        callback = self._thread_callback(self._running_subtree(rules))
        self.callbacks[threading.get_ident()] = callback
        sys.setprofile(callback)
        threading.setprofile(self._bootstrap)

    def uninstall(self):
        sys.setprofile(None)
        threading.setprofile(None)
        self.callbacks = {}

    def pause_thread(self):
        ident = threading.get_ident()
        self.paused[ident] = self.paused.get(ident, 0) + 1
        if self.paused[ident] == 1:
            sys.setprofile(None)

    def resume_thread(self):
        ident = threading.get_ident()
        n = self.paused.get(ident, 0)
        if n > 0:
            self.paused[ident] = n - 1
            callback = self.callbacks.get(ident)
            if n == 1 and callback is not None:
                sys.setprofile(callback)

    def suspend(self):
        self.suspended[0] = True

    def resume(self):
        self.suspended[0] = False


def choose():
    """The engine for this interpreter (ROCPROFSYS_PYTHON_ENGINE=setprofile forces the old one)."""
    import os

    wanted = os.environ.get("ROCPROFSYS_PYTHON_ENGINE", "")
    if wanted != "setprofile" and hasattr(sys, "monitoring"):
        engine = MonitoringEngine()
        if engine.available():
            return engine
    return SetprofileEngine()
