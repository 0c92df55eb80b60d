# Sourced by launch: the JDK's AOT cache for one tool (JEP 483/514/515: its classes loaded and
# linked, lambdas resolved, method profiles), which cuts the JVM's start-up and warm-up.
#
# rocprofsys_aot_cache MAIN JVM_OPTS... sets ROCPROFSYS_AOT_OPTS to the options for this run:
# - the cache exists: use it;
# - it does not: this run records what it loads (-XX:AOTMode=record), and a watcher started here
#   makes the cache from that record once the run has ended, at nice 19, so no run waits for it;
#   one recording at a time (a lock directory; one older than 30 minutes is taken over);
# - nowhere to write: nothing (the JVM's own CDS archive still applies).
# The cache lives in lib/aot of the install when that is writable, else in
# $XDG_CACHE_HOME/rocprof-sys/aot (~/.cache). Its name holds a key of the JDK, the tool and the
# jars' names, sizes and times, so a rebuilt or upgraded install never uses a stale cache (the JDK
# itself checks only the jars' sizes); caches of older keys are removed when a new one is made.
# The JVM's own AOT/CDS messages are off: a cache it cannot use is simply not used.

rocprofsys_aot_dir() {
    local d
    for d in "$prefix/lib/aot" "${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/rocprof-sys/aot"; do
        if mkdir -p "$d" 2>/dev/null && [[ -w $d ]]; then
            echo "$d"
            return 0
        fi
    done
    return 1
}

rocprofsys_aot_cache() {
    local main=$1 dir key tool cache lock conf
    shift
    ROCPROFSYS_AOT_OPTS=(-Xlog:aot=off -Xlog:cds=off)
    dir=$(rocprofsys_aot_dir) || return 0
    key=$( {
        echo "$ROCPROFSYS_JAVA_HOME $main $*"
        cat "$ROCPROFSYS_JAVA_HOME/release" 2>/dev/null
        cd "$prefix/lib" && stat -c '%n %s %Y' -- *.jar
    } | cksum)
    tool=${main##*.}
    cache=$dir/$tool-${key%% *}.aot
    if [[ -f $cache ]]; then
        ROCPROFSYS_AOT_OPTS+=(-XX:AOTCache="$cache")
        return 0
    fi
    lock=$cache.lock
    if [[ -d $lock && -n $(find "$lock" -maxdepth 0 -mmin +30 2>/dev/null) ]]; then
        rmdir "$lock" 2>/dev/null || true
    fi
    mkdir "$lock" 2>/dev/null || return 0 # another run is recording or making it
    conf=$cache.$$.conf
    # (a recording JVM says so on stdout, which is the user's: its tty output is off for this run)
    ROCPROFSYS_AOT_OPTS+=(-XX:AOTMode=record -XX:AOTConfiguration="$conf" -XX:+UnlockDiagnosticVMOptions -XX:-DisplayVMOutput)
    # $$ is this shell, which becomes the JVM by exec: wait for it to end, then make the cache
    (
        set +e # (the launcher's errexit would leave the lock behind at the first failing step)
        trap '' INT TERM HUP
        while kill -0 $$ 2>/dev/null; do sleep 0.5; done
        if [[ -s $conf ]] && nice -n 19 "$ROCPROFSYS_JAVA" "$@" -XX:AOTMode=create -XX:AOTConfiguration="$conf" \
            -XX:AOTCache="$cache.$$.tmp" -Xlog:aot=off -Xlog:cds=off -cp "$prefix/lib/*"; then
            find "$dir" -maxdepth 1 -name "$tool-*.aot" ! -name "${cache##*/}" -delete 2>/dev/null
            mv -f "$cache.$$.tmp" "$cache"
        fi
        rm -f "$conf" "$cache.$$.tmp"
        rmdir "$lock"
    ) </dev/null >/dev/null 2>&1 &
}
