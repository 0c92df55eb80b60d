#!/usr/bin/env bash
# The python benchmark without Java tools on the device machine (third pass, issue 17):
#   [PY=python3.12] device-bench.sh DIST BENCH SUBTREE PUSHPOP OUT
# DIST: an assembled distribution; BENCH: python_bench.py; SUBTREE: subtree.py; PUSHPOP: the
# agent-pushpop binary (agent-pushpop.c). Writes OUT/bench.txt and the sampling profile.
#  1. the agent's record of one call (push + pop) in a C loop, beside two bare rdtsc;
#  2. python_bench.py under rocprof-sys-run: unprofiled, floor (a no-op C callback on the same
#     sys.monitoring events), traced, excluded; sys.monitoring x3, setprofile and ctypes once;
#  3. upstream's excluded subtree: subtree.py -E ^skipme$ under both engines, profiles compared;
#  4. fib under rocprof-sys-sample at 1 kHz (PYTHONPERFSUPPORT through the launcher): its cost and
#     the samples that name Python functions (py:: frames of the perf map).
set -u
dist=$1 bench=$2 subtree=$3 pushpop=$4 out=$5
py=${PY:-$(command -v python3.12 || command -v python3)}
py=$("$py" -c 'import sys; print(sys.executable)')
work=$(mktemp -d)
exec > >(tee -a "$out/bench.txt") 2>&1
echo "== $("$py" --version) at $py; perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid); $(nproc) CPUs"
export ROCPROFSYS_OUTPUT_PATH=$work/out ROCPROFSYS_USE_PID=OFF ROCPROFSYS_TIME_OUTPUT=OFF
bench_env=(ROCPROFSYS_TRACE=OFF ROCPROFSYS_PROFILE=ON ROCPROFSYS_USE_SAMPLING=OFF ROCPROFSYS_USE_PROCESS_SAMPLING=OFF
           PYTHONPATH="$dist/lib/python/site-packages")
echo "== the agent's record of a call"
env "${bench_env[@]}" ROCPROFSYS_OUTPUT_PREFIX=pushpop/ "$dist/bin/rocprof-sys-run" -- "$pushpop" 2>&1 | grep -E '^AGENT'
for variant in monitoring-native monitoring-native monitoring-native setprofile-native monitoring-ctypes; do
    engine=${variant%-*} binding=${variant#*-}
    extra=()
    [[ $engine == setprofile ]] && extra+=(ROCPROFSYS_PYTHON_ENGINE=setprofile)
    [[ $binding == ctypes ]] && extra+=(ROCPROFSYS_PYTHON_BINDING=ctypes)
    echo "-- $variant"
    env "${bench_env[@]}" "${extra[@]}" ROCPROFSYS_OUTPUT_PREFIX="bench/" \
        timeout 60 "$dist/bin/rocprof-sys-run" -- "$py" "$bench" 27 7 2>&1 | grep -E '^(PHASE|ENGINE)'
done
echo "== excluded subtree (-E ^skipme$): label, count, depth"
for engine in monitoring setprofile; do
    env ROCPROFSYS_TRACE=OFF ROCPROFSYS_PROFILE=ON ROCPROFSYS_USE_SAMPLING=OFF ROCPROFSYS_USE_PROCESS_SAMPLING=OFF \
        ROCPROFSYS_PYTHON_ENGINE=$engine PYTHON_EXECUTABLE="$py" ROCPROFSYS_OUTPUT_PREFIX="subtree-$engine/" \
        timeout 60 "$dist/bin/rocprof-sys-python" -E '^skipme$' -- "$subtree" >"$work/subtree-$engine.log" 2>&1
    echo "-- $engine: exit $?"
    grep '>>>' "$work/out/subtree-$engine/wall_clock.txt" | cut -d'|' -f3-5 | tee "$work/subtree-$engine.txt"
done
cmp -s "$work/subtree-monitoring.txt" "$work/subtree-setprofile.txt" && echo "subtree: same profile" \
    || echo "subtree: profiles differ"
echo "== sampling at 1 kHz (CPU time of the target, best of 7)"
"$py" "$bench" 27 7 --plain | sed 's/^/plain: /'
"$py" -X perf "$bench" 27 7 --plain | sed 's/^/-X perf alone: /'
env ROCPROFSYS_OUTPUT_PREFIX=sample/ ROCPROFSYS_USE_PROCESS_SAMPLING=OFF ROCPROFSYS_SAMPLING_DELAY=0 \
    ROCPROFSYS_PROFILE=ON timeout 60 "$dist/bin/rocprof-sys-sample" -f 1000 -- "$py" "$bench" 27 7 --plain \
    >"$work/sample.log" 2>&1
echo "sample exit $?"
grep PHASE "$work/sample.log" | sed 's/^/sampled + trampoline: /'
grep -v '^ROCPROFSYS: ' "$work/sample.log" | grep -v PHASE | tail -8
ls -la "$work/out/sample"
f=$work/out/sample/sampling_wall_clock.txt
if [[ -f $f ]]; then
    # rows: "| |0>>> <tree>label | count | depth |": samples through py::fib = its outermost row's count
    sed -nE 's/^\| \|0>>> (.*[^ ]) +\| +([0-9]+) \| +([0-9]+) \|.*/\3 \2 \1/p' "$f" >"$work/rows.txt"
    echo "samples: $(awk '$1 == 0 {s += $2} END {print s + 0}' "$work/rows.txt"), through py::fib:" \
        "$(grep 'py::fib' "$work/rows.txt" | sort -n | head -1 | cut -d' ' -f2)"
    awk '$2 >= 10' "$work/rows.txt" | head -40
    cp "$f" "$out/sampling_wall_clock.txt"
fi
