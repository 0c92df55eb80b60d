#!/usr/bin/env bash
# Records the fixtures of PythonDeviceRecordingTest with the device's Python 3.12.
set -u
dist=$1 examples=$2 out=$3
py=$(command -v python3.12 || command -v python3)
py=$("$py" -c 'import sys; print(sys.executable)')
"$py" --version
w=$(mktemp -d)
export PYTHON_EXECUTABLE=$py ROCPROFSYS_OUTPUT_PATH=$w ROCPROFSYS_USE_PID=OFF ROCPROFSYS_TIME_OUTPUT=OFF ROCPROFSYS_TRACE=ON \
    ROCPROFSYS_PROFILE=ON ROCPROFSYS_USE_SAMPLING=OFF ROCPROFSYS_USE_PROCESS_SAMPLING=OFF ROCPROFSYS_TREE_OUTPUT=OFF \
    "ROCPROFSYS_TIMEMORY_COMPONENTS=wall_clock trip_count"
ROCPROFSYS_OUTPUT_PREFIX=python-builtin/ "$dist/bin/rocprof-sys-python" -b --label file line -- "$examples/builtin.py" -v 10 -n 5 >/dev/null 2>&1; echo "builtin $?"
ROCPROFSYS_OUTPUT_PREFIX=python-builtin-annotated/ "$dist/bin/rocprof-sys-python" -b --label file line -a -- "$examples/builtin.py" -v 10 -n 5 >/dev/null 2>&1; echo "annotated $?"
ROCPROFSYS_OUTPUT_PREFIX=python-source/ PYTHONPATH="$dist/lib/python/site-packages" "$dist/bin/rocprof-sys-run" -- "$py" "$examples/source.py" -v 5 -n 5 -s 3 >/dev/null 2>&1; echo "source $?"
for t in python-builtin python-builtin-annotated python-source; do
    cp "$w/$t/trip_count.json" "$out/$t.trip_count.json"
    cp "$w/$t/perfetto-trace.proto" "$out/$t.perfetto-trace.proto"
done
ls -la "$out"
