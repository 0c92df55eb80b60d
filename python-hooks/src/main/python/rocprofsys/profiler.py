"""@profile / with profile: (Profiler) and @noprofile (FakeProfiler), upstream's builtin mode.

Profiling is one process-wide state, reference counted: the first start() installs the engine,
the last stop() removes it, so nested and recursive @profile calls profile the outermost extent.
"""

import sys
import threading

from ._agent import agent
from ._engines import choose
from ._rules import Config
from ._scope import Scope

__all__ = ["profile", "noprofile", "config", "Profiler", "FakeProfiler", "Config"]

config = Config()


class _State:
    def __init__(self):
        self.lock = threading.RLock()
        self.count = 0
        self.engine = None
        self.stopped_trace = False

    def engine_for_use(self):
        if self.engine is None:
            self.engine = choose()
        return self.engine

    def start(self):
        with self.lock:
            self.count += 1
            if self.count == 1:
                engine = self.engine_for_use()
                config._is_running = True
                engine.install(config.rules())
                if config.verbosity > 0:
                    sys.stderr.write(f"[rocprofsys] profiling with {engine.name}, events through {agent.kind}\n")

    def stop(self):
        with self.lock:
            if self.count == 0:
                return
            self.count -= 1
            if self.count == 0:
                self.engine.uninstall()
                config._is_running = False

    def pause_thread(self):
        if self.engine is not None:
            self.engine.pause_thread()

    def resume_thread(self):
        if self.engine is not None:
            self.engine.resume_thread()

    def stop_trace(self):
        with self.lock:
            if not self.stopped_trace:
                self.stopped_trace = True
                self.engine_for_use().suspend()

    def start_trace(self):
        with self.lock:
            if self.stopped_trace:
                self.stopped_trace = False
                self.engine_for_use().resume()


_state = _State()


def _default_functor():
    return True


class Profiler(Scope):
    """Profiles Python functions while started: decorator, context manager, or start()/stop()."""

    _conditional_functor = _default_functor

    @staticmethod
    def condition(functor):
        """Assign a function evaluating whether to enable the profiler."""
        Profiler._conditional_functor = functor

    @staticmethod
    def is_enabled():
        try:
            return Profiler._conditional_functor() is True
        except Exception:
            return False

    def __init__(self, **kwargs):
        self._started = 0
        self.debug = kwargs.get("debug", False)

    def start(self):
        """Start profiling (nested starts are counted); returns this instance's count."""
        if Profiler.is_enabled():
            _state.start()
            self._started += 1
        return self._started

    def stop(self):
        """Undo one start() of this instance; returns the count left."""
        if self._started > 0:
            self._started -= 1
            _state.stop()
        return self._started

    def run(self, cmd):
        import __main__

        d = __main__.__dict__
        return self.runctx(cmd if isinstance(cmd, str) else " ".join(cmd), d, d)

    def runctx(self, cmd, globals, locals):
        self.start()
        try:
            exec(cmd, globals, locals)
        finally:
            self.stop()
        return self


profile = Profiler


class FakeProfiler(Scope):
    """Pauses the profiler for a call (decorator) or a block (context manager) and its callees."""

    @staticmethod
    def condition(functor):
        pass

    @staticmethod
    def is_enabled():
        return False

    def __init__(self, *args, **kwargs):
        pass

    def start(self):
        _state.pause_thread()

    def stop(self):
        _state.resume_thread()


noprofile = FakeProfiler
