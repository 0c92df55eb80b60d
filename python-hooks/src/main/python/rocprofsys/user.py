"""User regions from Python (category "user") and trace control, as upstream's rocprofsys.user.

stop_trace()/start_trace() stop and restart the recording of Python functions for every thread
while user regions go on being recorded (upstream's python-source profile keeps all its
main_loop regions after stop_trace); the *_thread_trace variants do so for the calling thread.
"""


from ._scope import Scope
from ._agent import agent, CATEGORY_USER
from .profiler import _state

__all__ = [
    "region",
    "Region",
    "start_trace",
    "start_thread_trace",
    "stop_trace",
    "stop_thread_trace",
    "push_region",
    "pop_region",
]


def _encode(label):
    return label.encode("utf-8", "replace") if isinstance(label, str) else bytes(label)


def push_region(label):
    return agent.push(CATEGORY_USER, _encode(label))


def pop_region(label=None):
    return agent.pop(CATEGORY_USER)


def start_trace():
    _state.start_trace()
    return 0


def stop_trace():
    _state.stop_trace()
    return 0


def start_thread_trace():
    _state.resume_thread()
    return 0


def stop_thread_trace():
    _state.pause_thread()
    return 0


class Region(Scope):
    """A user region: start()/stop(), a decorator, or a context manager."""

    _counter = 0

    def __init__(self, label):
        self._active = False
        self._label = label
        self._encoded = _encode(label)
        self._count = 0

    def __del__(self):
        self.stop()

    def start(self):
        if not self._active:
            self._active = True
            self._count = Region._counter
            Region._counter += 1
            agent.push(CATEGORY_USER, self._encoded)

    def stop(self):
        if self._active:
            Region._counter -= 1
            self._active = False
            if Region._counter != self._count:
                raise RuntimeError(
                    f"{self._label} was not popped in the order it was pushed. Current stack number: "
                    f"{Region._counter}, expected stack number: {self._count}"
                )
            agent.pop(CATEGORY_USER)


region = Region
