"""rocprofsys: Python function profiling for rocprof-sys (rocprof-sys-python, python3 -m rocprofsys).

Function calls become regions of category "python" on the calling thread's track, recorded by
the rocprof-sys agent the launcher preloads; without it every call here does nothing.
"""

from . import user
from .profiler import Config, FakeProfiler, Profiler, config, noprofile, profile

__all__ = ["profile", "noprofile", "Profiler", "FakeProfiler", "config", "Config", "user", "is_recording"]


def is_recording():
    """Whether the agent is in this process (events are recorded)."""
    from ._agent import agent

    return agent.present
