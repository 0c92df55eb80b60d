#!/usr/bin/env python3
"""The `python` benchmark's target: recursive fib in one process, several ways, same-run ratios.

    python_bench.py [N] [ROUNDS]

run under rocprof-sys-run with PYTHONPATH holding the rocprofsys package (the agent preloaded):
  unprofiled   fib(N) with no profiler installed
  floor        (sys.monitoring with the extension only) a C callback that does nothing, registered
               for the events the profiler uses: what sys.monitoring's dispatch alone costs
  traced       every call of fib recorded (the engine of this interpreter: sys.monitoring on
               3.12+, sys.setprofile before; ROCPROFSYS_PYTHON_ENGINE=setprofile forces the old one)
  excluded     the profiler on, fib excluded by -E ^fib$ (sys.monitoring: DISABLE at fib's first call)
The phases take turns, ROUNDS times; each keeps its best, in CPU time of this process (the
collector runs in its own). One line per phase: `PHASE <name> <seconds> <calls>`.
Without the profiler package (plain `python3 python_bench.py --plain`) only the unprofiled phase.
"""

import sys
import time


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def once(n):
    t0 = time.process_time()
    fib(n)
    return time.process_time() - t0


def best(rounds, n):
    return min(once(n) for _ in range(rounds))


def calls(n):
    a, b = 1, 1
    for _ in range(n):
        a, b = b, a + b + 1
    return a


def floor_phase(native):
    """fib(n) with sys.monitoring calling a do-nothing C function for the profiler's events."""
    mon = sys.monitoring
    E = mon.events
    tool = next(t for t in (5, 4, 3) if mon.get_tool(t) is None)
    events = (E.PY_START, E.PY_RESUME, E.PY_THROW, E.PY_RETURN, E.PY_YIELD, E.PY_UNWIND)

    def run(n):
        mon.use_tool_id(tool, "rocprofsys-floor")
        mask = 0
        for e in events:
            mon.register_callback(tool, e, native._noop)
            mask |= e
        mon.set_events(tool, mask)
        try:
            return once(n)
        finally:
            mon.set_events(tool, 0)
            for e in events:
                mon.register_callback(tool, e, None)
            mon.free_tool_id(tool)

    return run


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 27
    rounds = int(args[1]) if len(args) > 1 else 3
    if "--plain" in sys.argv:
        print(f"PHASE unprofiled {best(rounds, n):.6f} {calls(n)}", flush=True)
        return
    import rocprofsys
    from rocprofsys.profiler import config

    engine = rocprofsys.profiler._state.engine_for_use()
    native = rocprofsys._agent.agent.native
    print(f"ENGINE {engine.name} {rocprofsys._agent.agent.kind} python{sys.version_info[0]}.{sys.version_info[1]}")
    prof = rocprofsys.Profiler()

    def profiled(exclude):
        def run(n):
            if exclude:
                config.exclude_functions.append("^fib$")
            try:
                with prof:
                    return once(n)
            finally:
                if exclude:
                    config.exclude_functions.remove("^fib$")

        return run

    phases = {"unprofiled": once}
    if engine.name == "sys.monitoring" and native is not None and hasattr(native, "_noop"):
        phases["floor"] = floor_phase(native)
    phases["traced"] = profiled(False)
    phases["excluded"] = profiled(True)
    times = {name: float("inf") for name in phases}
    for _ in range(rounds):
        for name, run in phases.items():
            times[name] = min(times[name], run(n))
    for name, t in times.items():
        print(f"PHASE {name} {t:.6f} {calls(n)}", flush=True)


if __name__ == "__main__":
    main()
