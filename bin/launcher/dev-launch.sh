#!/usr/bin/env bash
# Runs a rocprof-sys tool from the source tree: dev-launch.sh TOOL ARGS...
# Builds the distribution (run/target/dist) first when it is missing or older than any source,
# then runs the tool from it. Works from any directory and through symlinks.
set -euo pipefail
tool=$1
shift
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
dist=$root/run/target/dist
stamp=$dist/.build-stamp

stale() {
    [[ -f $stamp && -x $dist/bin/$tool ]] || return 0
    [[ -n $(find "$root" \( -name target -o -name .git \) -prune -o -type f \
        \( -name pom.xml -o -path '*/src/*' \) -newer "$stamp" -print -quit) ]]
}

if stale; then
    "$root/bin/launcher/build.sh" >&2
fi
exec "$dist/bin/$tool" "$@"
