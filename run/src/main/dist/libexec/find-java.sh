# Sourced by the launchers: sets ROCPROFSYS_JAVA to a java >= 25 and ROCPROFSYS_JAVA_HOME to its home.
# Looks at JAVA_HOME, then java on PATH, then /usr/lib/jvm/*. Reads each candidate's `release`
# file instead of running `java -version`, which would cost a JVM start per candidate.

rocprofsys_java_major() {
    local home=$1 v
    [[ -x $home/bin/java && -r $home/release ]] || return 1
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
    [[ -n $v ]] && echo "$v"
}

rocprofsys_find_java() {
    local candidates=() c major
    [[ -n ${JAVA_HOME:-} ]] && candidates+=("$JAVA_HOME")
    if c=$(command -v java 2>/dev/null); then
        c=$(readlink -f "$c")
        candidates+=("${c%/bin/java}")
    fi
    for c in /usr/lib/jvm/*; do
        [[ -d $c ]] && candidates+=("$c")
    done
    for c in "${candidates[@]}"; do
        major=$(rocprofsys_java_major "$c") || continue
        if (( major >= 25 )); then
            ROCPROFSYS_JAVA_HOME=$c
            ROCPROFSYS_JAVA=$c/bin/java
            return 0
        fi
    done
    echo "[rocprof-sys] error: no Java 25 or newer found (looked at JAVA_HOME, java on PATH and /usr/lib/jvm/*)." >&2
    echo "[rocprof-sys] Install a JDK >= 25 (for example Temurin 25) and set JAVA_HOME to it." >&2
    return 1
}
