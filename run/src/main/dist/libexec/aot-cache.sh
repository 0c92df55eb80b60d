# Sourced by launch: the JDK's AOT cache for one tool (JEP 483/514/515: its classes loaded and
# linked, lambdas resolved, method profiles), which cuts the JVM's start-up and warm-up.
#
# rocprofsys_aot_cache MAIN JVM_OPTS... sets ROCPROFSYS_AOT_OPTS to the options for this run:
# - the cache exists: use it;
# - it does not: this run records what it loads (-XX:AOTMode=record), and a watcher started here
#   makes the cache from that record once the run has ended, at nice 19, so no run waits for it;
#   one recording at a time (a lock directory; one older than 30 minutes is taken over);
# - rocprof-sys-run's cache is recorded from a training run instead, made by that watcher after the
#   user's run (which runs without recording): rocprof-sys-aot-train, two threads pushing 4 M region
#   events, traced and profiled. The cache keeps the method profiles C2 compiles from, and a cache
#   recorded from a short first run (`rocprof-sys-run -- /bin/echo`) left every later run to profile
#   the ingest path afresh, at about half the rate in most runs (docs/benchmarks.md). A training run
#   that fails leaves a marker, and the next run is recorded as for the other tools;
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
    local train=
    if [[ $main == org.rocprofsys.run.RunCommand && -x $libexec/rocprof-sys-aot-train && ! -e $cache.untrained ]]; then
        train=$libexec/rocprof-sys-aot-train
    else
        # (a recording JVM says so on stdout, which is the user's: its tty output is off for this run)
        ROCPROFSYS_AOT_OPTS+=(-XX:AOTMode=record -XX:AOTConfiguration="$conf" -XX:+UnlockDiagnosticVMOptions -XX:-DisplayVMOutput)
    fi
    # $$ is this shell, which becomes the JVM by exec: wait for it to end, then make the cache
    (
        set +e # (the launcher's errexit would leave the lock behind at the first failing step)
        trap '' INT TERM HUP
        # The descriptors the launcher inherited are the run's, not the watcher's: a parallel
        # launcher waits for their other ends to close (MPICH's Hydra for the PMI socket of
        # PMI_FD), and a watcher that outlived the run kept the job from ending.
        for fd in /proc/$BASHPID/fd/*; do
            fd=${fd##*/}
            if ((fd > 2)); then
                eval "exec $fd>&-"
            fi
        done 2>/dev/null
        while kill -0 $$ 2>/dev/null; do sleep 0.5; done
        if [[ -n $train ]] && ! rocprofsys_aot_train "$main" "$train" "$conf" "$@"; then
            rm -f "$conf"
            touch "$cache.untrained"
        fi
        if [[ -s $conf ]] && nice -n 19 "$ROCPROFSYS_JAVA" "$@" -XX:AOTMode=create -XX:AOTConfiguration="$conf" \
            -XX:AOTCache="$cache.$$.tmp" -Xlog:aot=off -Xlog:cds=off -cp "$prefix/lib/*"; then
            find "$dir" -maxdepth 1 \( -name "$tool-*.aot" -o -name "$tool-*.aot.untrained" \) \
                ! -name "${cache##*/}" -delete 2>/dev/null
            mv -f "$cache.$$.tmp" "$cache"
        fi
        rm -f "$conf" "$cache.$$.tmp"
        rmdir "$lock"
    ) </dev/null >/dev/null 2>&1 &
}

# rocprofsys_aot_train MAIN TARGET CONF JVM_OPTS...: records CONF from MAIN profiling TARGET, at
# nice 19, with none of the user's settings (a config file, a filter or an output path of theirs
# would change what is trained), into a scratch output folder; fails when the run does.
rocprofsys_aot_train() {
    local main=$1 target=$2 conf=$3 java=$ROCPROFSYS_JAVA out rc name
    shift 3
    out=$(mktemp -d "${TMPDIR:-/tmp}/rocprof-sys-aot-train.XXXXXX") || return 1
    (
        # (the launcher's own ROCPROFSYS_JAVA may be exported too: the java path is kept above)
        for name in $(compgen -e); do
            [[ $name == ROCPROFSYS_* ]] && unset "$name"
        done
        export ROCPROFSYS_OUTPUT_PATH=$out ROCPROFSYS_SUPPRESS_CONFIG=ON ROCPROFSYS_TRACE=ON \
            ROCPROFSYS_PROFILE=ON ROCPROFSYS_RING_BUFFER_LOSSLESS=ON
        exec timeout 600 nice -n 19 "$java" "$@" -XX:AOTMode=record -XX:AOTConfiguration="$conf" \
            -XX:+UnlockDiagnosticVMOptions -XX:-DisplayVMOutput -Xlog:aot=off -Xlog:cds=off \
            -Drocprofsys.prefix="$prefix" -cp "$prefix/lib/*" "$main" -- "$target"
    )
    rc=$?
    rm -rf "$out"
    return $rc
}
