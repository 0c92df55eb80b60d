#!/usr/bin/env bash
# Builds what the benchmarks need (agent, collector, the distribution, this module with its C
# programs) and runs them: benchmarks/run.sh [--quick] [pushpop] [ingest] [perfetto] [finalize] [rss]
# See docs/benchmarks.md. Not part of `mvn verify`: nothing here is a test.
#   ROCPROFSYS_BENCH_NO_BUILD=1  skip the Maven build (use what is already built)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
# shellcheck source=../run/src/main/dist/libexec/find-java.sh
source "$root/run/src/main/dist/libexec/find-java.sh"
rocprofsys_find_java
export JAVA_HOME=$ROCPROFSYS_JAVA_HOME
java=$ROCPROFSYS_JAVA
if [[ -z ${ROCPROFSYS_BENCH_NO_BUILD:-} ]]; then
    # -am builds config, core, agent and run (whose package phase assembles run/target/dist);
    # test sources are neither compiled nor run.
    (cd "$root" && mvn -q -B -pl benchmarks -am package -DskipTests -DskipITs)
fi
# The collector runs with the serial GC (libexec/launch); so do the in-process benchmarks.
# (JMH 1.37 still calls sun.misc.Unsafe; allowing it silences the JDK's warnings.)
exec "$java" -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
    -Drocprofsys.root="$root" \
    -cp "$root/benchmarks/target/classes:$root/benchmarks/target/lib/*" org.rocprofsys.benchmarks.Main "$@"
