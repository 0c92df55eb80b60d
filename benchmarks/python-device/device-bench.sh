#!/usr/bin/env bash
# Second device pass: the python benchmark only, and call-stack sampling of Python with its log.
#   device-bench.sh DIST BENCH OUT
set -u
dist=$1 bench=$2 out=$3
py=$(command -v python3.12 || command -v python3)
py=$("$py" -c 'import sys; print(sys.executable)')
work=$(mktemp -d)
exec > >(tee -a "$out/bench.txt") 2>&1
echo "== $("$py" --version); perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)"
export ROCPROFSYS_OUTPUT_PATH=$work/out ROCPROFSYS_USE_PID=OFF ROCPROFSYS_TIME_OUTPUT=OFF
bench_env=(ROCPROFSYS_TRACE=OFF ROCPROFSYS_PROFILE=ON ROCPROFSYS_USE_SAMPLING=OFF ROCPROFSYS_USE_PROCESS_SAMPLING=OFF
           PYTHONPATH="$dist/lib/python/site-packages")
for round in 1 2; do
    for variant in monitoring-native setprofile-native monitoring-ctypes; do
        engine=${variant%-*} binding=${variant#*-}
        extra=()
        [[ $engine == setprofile ]] && extra+=(ROCPROFSYS_PYTHON_ENGINE=setprofile)
        [[ $binding == ctypes ]] && extra+=(ROCPROFSYS_PYTHON_BINDING=ctypes)
        echo "-- $variant (round $round)"
        env "${bench_env[@]}" "${extra[@]}" ROCPROFSYS_OUTPUT_PREFIX="bench/" \
            "$dist/bin/rocprof-sys-run" -- "$py" "$bench" 27 5 2>&1 | grep -E '^(PHASE|ENGINE)'
    done
done
echo "== sampling at 1 kHz (CPU time of the target, best of 5)"
"$py" "$bench" 27 5 --plain | sed 's/^/plain: /'
"$py" -X perf "$bench" 27 5 --plain | sed 's/^/-X perf alone: /'
env ROCPROFSYS_OUTPUT_PREFIX=sample/ ROCPROFSYS_USE_PROCESS_SAMPLING=OFF \
    "$dist/bin/rocprof-sys-sample" -f 1000 -- "$py" "$bench" 27 5 --plain >"$work/sample.log" 2>&1
echo "sample exit $?"
grep PHASE "$work/sample.log" | sed 's/^/sampled + trampoline: /'
grep -v '^ROCPROFSYS: ' "$work/sample.log" | grep -v PHASE | tail -25
ls -la "$work/out/sample"
cp "$work/out/sample/perfetto-trace.proto" "$out/sample-perfetto-trace.proto" 2>/dev/null
