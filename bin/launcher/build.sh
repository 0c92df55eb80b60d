#!/usr/bin/env bash
# Builds the rocprof-sys distribution (run/target/dist) from this source tree, installing missing
# system packages first where it can. Serialised with a lock so concurrent launches build once.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
dist=$root/run/target/dist
# shellcheck source=../../run/src/main/dist/libexec/find-java.sh
source "$root/run/src/main/dist/libexec/find-java.sh"
rocprofsys_find_java
"$root/bin/launcher/ensure-packages.sh" build

mkdir -p "$root/run/target"
exec 9>"$root/run/target/.build.lock"
flock 9
echo "[rocprof-sys] building the distribution in $dist (first use, or the sources changed)..."
# the assembly only adds files: start from an empty tree so nothing removed from the sources lingers
rm -rf "$dist"
log=$(mktemp)
if ! JAVA_HOME=$ROCPROFSYS_JAVA_HOME mvn -B -q -f "$root/pom.xml" -DskipTests package >"$log" 2>&1; then
    cat "$log"
    rm -f "$log"
    echo "[rocprof-sys] error: the build failed (output above)." >&2
    exit 1
fi
rm -f "$log"
echo "[rocprof-sys] built."
