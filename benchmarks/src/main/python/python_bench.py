#!/usr/bin/env python3
"""The `python` benchmark's target: recursive fib in one process, three ways, same-run ratios.

    python_bench.py [N] [ROUNDS]

run under rocprof-sys-run with PYTHONPATH holding the rocprofsys package (the agent preloaded):
  unprofiled   fib(N) with no profiler installed
  traced       every call of fib recorded (the engine of this interpreter: sys.monitoring on
               3.12+, sys.setprofile before; ROCPROFSYS_PYTHON_ENGINE=setprofile forces the old one)
  excluded     the profiler on, fib excluded by -E ^fib$ (sys.monitoring: DISABLE at fib's first call)
Each phase takes the best of ROUNDS, in CPU time of this process (the collector runs in its own). One line per phase: `PHASE <name> <seconds> <calls>`.
Without the profiler package (plain `python3 python_bench.py --plain`) only the unprofiled phase.
"""

import sys
import time


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def best(rounds, n):
    t = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        fib(n)
        t = min(t, time.process_time() - t0)
    return t


def calls(n):
    a, b = 1, 1
    for _ in range(n):
        a, b = b, a + b + 1
    return a


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 27
    rounds = int(args[1]) if len(args) > 1 else 3
    print(f"PHASE unprofiled {best(rounds, n):.6f} {calls(n)}", flush=True)
    if "--plain" in sys.argv:
        return
    import rocprofsys
    from rocprofsys.profiler import config

    engine = rocprofsys.profiler._state.engine_for_use()
    print(f"ENGINE {engine.name} {rocprofsys._agent.agent.kind} python{sys.version_info[0]}.{sys.version_info[1]}")
    prof = rocprofsys.Profiler()
    with prof:
        t = best(rounds, n)
    print(f"PHASE traced {t:.6f} {calls(n)}", flush=True)
    config.exclude_functions.append("^fib$")
    with prof:
        t = best(rounds, n)
    print(f"PHASE excluded {t:.6f} {calls(n)}", flush=True)


if __name__ == "__main__":
    main()
