#!/usr/bin/env bash
# The python benchmark and the acceptance runs on a machine with Python 3.12 (sys.monitoring):
#   device-run.sh DIST EXAMPLES BENCH OUT
# DIST: an assembled distribution; EXAMPLES: examples/python; BENCH: python_bench.py.
# Writes OUT/summary.txt and OUT/outputs.tgz (the profiles).
set -u
dist=$1 examples=$2 bench=$3 out=$4
py=$(command -v python3.12 || command -v python3)
py=$("$py" -c 'import sys; print(sys.executable)')
work=$(mktemp -d)
log=$out/summary.txt
exec > >(tee -a "$log") 2>&1
echo "== $("$py" --version) at $py; $(nproc) CPUs; $(uname -r)"
export ROCPROFSYS_OUTPUT_PATH=$work/out ROCPROFSYS_USE_PID=OFF ROCPROFSYS_TIME_OUTPUT=OFF ROCPROFSYS_CI=ON
export PYTHON_EXECUTABLE=$py
py_env=(ROCPROFSYS_TRACE=ON ROCPROFSYS_PROFILE=ON ROCPROFSYS_USE_SAMPLING=OFF ROCPROFSYS_USE_PROCESS_SAMPLING=OFF
        ROCPROFSYS_TREE_OUTPUT=OFF "ROCPROFSYS_TIMEMORY_COMPONENTS=wall_clock trip_count")
t0=$SECONDS
accept() {  # NAME ARGS...
    local name=$1
    shift
    env "${py_env[@]}" ROCPROFSYS_OUTPUT_PREFIX="$name/" "$dist/bin/rocprof-sys-python" "$@" >"$work/$name.log" 2>&1
    echo "== $name: exit $? ($((SECONDS - t0)) s)"
    grep '>>>' "$work/out/$name/trip_count.txt" | grep -v '\[.*\]\[\(argparse\|gettext\|locale\|__init__\|enum\|shutil\|os\|genericpath\|posixpath\)\.py' | head -16
}
accept python-external --label file -- "$examples/external.py" -v 10 -n 5
grep -c '>>>' "$work/out/python-external/trip_count.txt"
grep -E '\[compile\]|\[run\]\[external.py\]' "$work/out/python-external/trip_count.txt" | head -3
accept python-external-exclude-inefficient -E '^inefficient$' -- "$examples/external.py" -v 10 -n 5
accept python-builtin -b --label file line -- "$examples/builtin.py" -v 10 -n 5
accept python-builtin-annotated -b --label file line --annotate-trace -- "$examples/builtin.py" -v 10 -n 5
accept python-builtin-noprofile -b --label file -- "$examples/noprofile.py" -v 15 -n 5
env "${py_env[@]}" ROCPROFSYS_OUTPUT_PREFIX=python-source/ PYTHONPATH="$dist/lib/python/site-packages" \
    "$dist/bin/rocprof-sys-run" -- "$py" "$examples/source.py" -v 5 -n 5 -s 3 >"$work/python-source.log" 2>&1
echo "== python-source: exit $?"
grep '>>>' "$work/out/python-source/trip_count.txt"
for s in raises.py os-exit.py killed.py threads-fork.py; do
    accept "end-$s" -- "$examples/$s"
done

echo "== benchmark: fib(27), best of 3, same process (unprofiled / traced / fib excluded)"
bench_env=(ROCPROFSYS_TRACE=OFF ROCPROFSYS_PROFILE=ON ROCPROFSYS_USE_SAMPLING=OFF ROCPROFSYS_USE_PROCESS_SAMPLING=OFF
           PYTHONPATH="$dist/lib/python/site-packages")
for variant in monitoring-native monitoring-ctypes setprofile-native setprofile-ctypes; do
    engine=${variant%-*} binding=${variant#*-}
    extra=()
    [[ $engine == setprofile ]] && extra+=(ROCPROFSYS_PYTHON_ENGINE=setprofile)
    [[ $binding == ctypes ]] && extra+=(ROCPROFSYS_PYTHON_BINDING=ctypes)
    echo "-- $variant"
    env "${bench_env[@]}" "${extra[@]}" ROCPROFSYS_OUTPUT_PREFIX="bench-$variant/" \
        "$dist/bin/rocprof-sys-run" -- "$py" "$bench" 27 3 2>&1 | grep -E '^(PHASE|ENGINE)|exited'
done

echo "== -X perf sampling overhead: fib(27) best of 5, plain / -X perf / rocprof-sys-sample -f 1000"
"$py" "$bench" 27 5 --plain | sed 's/^/plain: /'
"$py" -X perf "$bench" 27 5 --plain | sed 's/^/-X perf: /'
env ROCPROFSYS_OUTPUT_PREFIX=sample-perf/ ROCPROFSYS_USE_PROCESS_SAMPLING=OFF \
    "$dist/bin/rocprof-sys-sample" -f 1000 -- "$py" "$bench" 27 5 --plain 2>&1 | grep -E '^PHASE|exited' | sed 's/^/sampled 1kHz (PYTHONPERFSUPPORT by the launcher): /'
env ROCPROFSYS_OUTPUT_PREFIX=sample-noperf/ ROCPROFSYS_USE_PROCESS_SAMPLING=OFF PYTHONPERFSUPPORT=0 \
    "$dist/bin/rocprof-sys-sample" -f 1000 -- "$py" "$bench" 27 5 --plain 2>&1 | grep -E '^PHASE|exited' | sed 's/^/sampled 1kHz without trampoline: /'
for d in sample-perf sample-noperf; do
    echo "-- $d: sampled frames naming fib / py:: / _PyEval_EvalFrameDefault"
    ls "$work/out/$d"
    for f in "$work/out/$d"/*.txt; do
        echo "$(basename "$f"): fib=$(grep -c 'fib' "$f") py::=$(grep -c 'py::' "$f") evalframe=$(grep -c '_PyEval_EvalFrameDefault' "$f")"
    done
    grep -h 'fib' "$work/out/$d"/sampling_wall_clock.txt 2>/dev/null | head -8
done
rm -rf "$work"/out/bench-*
tar czf "$out/outputs.tgz" -C "$work" out $(cd "$work" && ls *.log)
echo "== done in $((SECONDS - t0)) s"
