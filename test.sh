#!/usr/bin/env bash
# Runs the whole rocprof-sys test suite: unit tests, then end-to-end tests on the assembled
# distribution (Maven verify). Installs missing system packages where it can (see bin/launcher/).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# shellcheck source=run/src/main/dist/libexec/find-java.sh
source "$root/run/src/main/dist/libexec/find-java.sh"
rocprofsys_find_java
"$root/bin/launcher/ensure-packages.sh" test
export JAVA_HOME=$ROCPROFSYS_JAVA_HOME
exec mvn -B -f "$root/pom.xml" verify "$@"
