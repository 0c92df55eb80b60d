"""Which Python functions are recorded and under which label (upstream's rules, libpyrocprofsys).

A decision is made once per code object and cached: None (not recorded), SUBTREE (excluded by the
user's function excludes: upstream ignores its callees too), or the label as bytes.
"""

import os
import re

DEFAULT_EXCLUDE_FUNCTIONS = ["^<.*>$"]
DEFAULT_EXCLUDE_MODULES = ["(encoder|decoder|threading).py$", "^<.*>$"]
SUBTREE = 0

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class Config:
    """The profiler's settings (upstream's rocprofsys.profiler.config): set before start()."""

    def __init__(self):
        self.trace_c = False
        self.include_internal = False
        self.include_args = False
        self.include_line = False
        self.include_filename = False
        self.full_filepath = False
        self.annotate_trace = False
        self.verbosity = 0
        self.restrict_functions = []
        self.restrict_modules = []
        self.include_functions = []
        self.include_modules = []
        self.exclude_functions = list(DEFAULT_EXCLUDE_FUNCTIONS)
        self.exclude_modules = list(DEFAULT_EXCLUDE_MODULES)
        self._is_running = False

    def rules(self):
        return Rules(self)


def _compiled(patterns):
    return [re.compile(p) for p in patterns]


def _matches(patterns, text):
    for p in patterns:
        if p.search(text):
            return True
    return False


class Rules:
    """A frozen copy of a Config's filters and label options, with the per-code cache."""

    def __init__(self, config):
        self.trace_c = bool(config.trace_c)
        self.include_args = bool(config.include_args)
        self.include_line = bool(config.include_line)
        self.full_filepath = bool(config.full_filepath)
        self.include_filename = bool(config.include_filename) or self.full_filepath
        self.annotate = bool(config.annotate_trace)
        self.include_internal = bool(config.include_internal)
        self.restrict_functions = _compiled(config.restrict_functions)
        self.restrict_modules = _compiled(config.restrict_modules)
        self.include_functions = _compiled(config.include_functions)
        self.include_modules = _compiled(config.include_modules)
        self.exclude_functions = _compiled(config.exclude_functions)
        self.exclude_modules = _compiled(config.exclude_modules)
        self.default_exclude_functions = _compiled(DEFAULT_EXCLUDE_FUNCTIONS)
        # whether any decision can be SUBTREE (a function exclude of the user's)
        self.subtree = any(p not in DEFAULT_EXCLUDE_FUNCTIONS for p in config.exclude_functions)
        self.decisions = {}

    def decide(self, code):
        """None, SUBTREE or the label (bytes) of functions of this code object; cached."""
        d = self._decide(code.co_name, code.co_filename)
        if d is not None and d is not SUBTREE:
            d = None if self.include_args else self.label(code.co_name, code.co_filename, code.co_firstlineno)
            if d is None:
                d = b""  # labelled per call (arguments)
        self.decisions[code] = d
        return d

    def decide_c(self, name, filename):
        """The label of a C function called from a file, or None (trace_c)."""
        d = self._decide(name, filename)
        if d is None or d is SUBTREE:
            return None
        return self.label(name, filename, None)

    def _decide(self, func, full):
        force = False
        if self.restrict_functions:
            force = _matches(self.restrict_functions, func)
            if not force:
                return None
        if not force:
            if _matches(self.include_functions, func):
                force = True
            elif _matches(self.exclude_functions, func):
                return None if _matches(self.default_exclude_functions, func) else SUBTREE
        if not self.include_internal and full.startswith(_PACKAGE_DIR):
            return None
        if not force and self.restrict_modules:
            force = _matches(self.restrict_modules, full)
            if not force:
                return None
        if not force:
            if _matches(self.include_modules, full):
                force = True
            elif _matches(self.exclude_modules, full):
                return None
        return True

    def label(self, func, full, line, args=""):
        """[name(args)][file:line], [name][file], name:line or name (upstream's encoding)."""
        out = func
        if self.include_filename:
            out = "[" + out + args + "]"
        else:
            out = out + args
        if self.include_filename:
            out += "[" + (full if self.full_filepath else os.path.basename(full))
        if line is not None and self.include_line and self.include_filename:
            out += ":" + str(line) + "]"
        elif line is not None and self.include_line:
            out += ":" + str(line)
        elif self.include_filename:
            out += "]"
        return out.encode("utf-8", "replace")

    def call_label(self, frame):
        """The label of one call when it carries the call's arguments."""
        import inspect

        try:
            args = inspect.formatargvalues(*inspect.getargvalues(frame))
        except Exception:
            args = ""
        code = frame.f_code
        return self.label(code.co_name, code.co_filename, code.co_firstlineno, args)
