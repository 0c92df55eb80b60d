#!/usr/bin/env bash
# Records the outputs of the example programs in a form that two runs of the same deterministic
# program share, so that a refactoring can be checked to change no output:
#
#   examples/compare/compare-outputs.sh DIR        # with the tree as it is now -> DIR
#   git stash / checkout the other version, rebuild, then again with DIR2
#   diff -r DIR DIR2                              # nothing printed: the outputs are identical
#
# What is compared: the timemory text and JSON profiles with measured values replaced by '#'
# (counts, depths, labels, units and the order of entries stay), the decoded Perfetto trace
# (examples/compare/TraceText.java: tracks, and per track every slice's depth, category, name
# and annotations, with times and addresses as '#'), and the launcher's own stderr lines with
# pids, paths and times as tokens. Only programs whose recorded events are deterministic are run
# (no sampling: sample counts differ from run to run). One race is left in: whether segv's worker
# ends its pthread_barrier_wait before the crash (closed_by_profiler on it, and where its regions
# land in wall_clock) differs between two runs of the same tree.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
out=$(readlink -f "${1:?usage: compare-outputs.sh OUTPUT_DIR}")
source "$root/run/src/main/dist/libexec/find-java.sh"
rocprofsys_find_java
java_home=$ROCPROFSYS_JAVA_HOME
"$root/bin/rocprof-sys-avail" --version >/dev/null 2>&1 || true   # builds the distribution if needed
dist=$root/run/target/dist
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$out" && mkdir -p "$out"

make -s -C "$root/examples" OUT="$work/bin" LIB="$dist/lib" INC="$dist/include" >/dev/null
cp=$(find "$dist/lib" -name '*.jar' | tr '\n' ':')
"$java_home/bin/javac" -nowarn -d "$work/classes" -cp "$cp" \
    "$root/core/src/test/java/org/rocprofsys/tracetest/DecodedTrace.java" "$root/examples/compare/TraceText.java"

normalise_log() {   # stderr/stdout of a run: pids, paths, times and sizes become tokens
    sed -E -e "s#$work#<work>#g" -e "s#$root#<root>#g" \
        -e 's/\[[0-9]+\]/[<pid>]/g' -e 's/-[0-9]{3,}(\.|-)/-<pid>\1/g' \
        -e 's/[0-9]+\.[0-9]+ (KB|MB|GB)/# \1/g' -e 's/[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)? ?(sec|s|ms|us|ns)\b/# \3/g' \
        -e 's/\b(pid|tid|PID|TID)[ =:]+[0-9]+/\1 <n>/g' \
        | grep -v -e '^\s*$' -e 'WARNING: ' | sort
}

record() {   # record NAME ENV... -- COMMAND...
    local name=$1; shift
    local envs=()
    while [[ $1 != -- ]]; do envs+=("$1"); shift; done
    shift
    local dir=$work/out/$name
    mkdir -p "$dir" "$out/$name"
    (cd "$work/bin" && exec env ROCPROFSYS_OUTPUT_PATH="$dir" ROCPROFSYS_USE_PID=OFF ROCPROFSYS_TIME_OUTPUT=OFF \
        "${envs[@]}" "$@" >"$work/stdout" 2>"$work/stderr") || echo "exit $?" >"$out/$name/exit"
    normalise_log <"$work/stderr" >"$out/$name/stderr.txt"
    grep -v '^\[rocprof-sys' "$work/stdout" | sed -E -e 's/\[[0-9]+\]/[<pid>]/g' -e 's/\b[0-9]{4,}\b/<n>/g' \
        -e 's/-?[0-9]+\.[0-9]+(e[-+]?[0-9]+)?/#/g' -e 's/ +/ /g' -e 's/-{2,}/-/g' | sort >"$out/$name/stdout.txt" || true
    (cd "$dir" && find . -type f | sed -E 's/-[0-9]{3,}\././; s/-[0-9]{3,}-/-<pid>-/' | sort) >"$out/$name/files.txt"
    while IFS= read -r f; do
        local base
        base=$(basename "$f" | sed -E 's/-[0-9]{3,}\././')
        case $f in
            *.proto) "$java_home/bin/java" -Xmx4g -cp "$work/classes:$cp" TraceText "$f" >"$out/$name/$base.text" ;;
            *.txt|*.json)
                [[ $base == metadata.json ]] && continue
                # where threads race (which call path a thread's first region lands under, which
                # thread a node is first seen on), only the trace and the lists are compared
                [[ -n ${threads_race:-} && $f != */instrumentation/* ]] && continue
                sed -E -e "s#$dir#<out>#g" -e "s#$work#<work>#g" -e 's/-?[0-9]+(\.[0-9]+)?e[-+]?[0-9]+/#/g' \
                    -e 's/-?[0-9]+\.[0-9]+/#/g' -e 's/"(value|accum|pid)":(\[)?-?[0-9]+/"\1":\2#/g' \
                    -e 's/ +/ /g' -e 's/-{2,}/-/g' \
                    "$f" >"$out/$name/$base" ;;
        esac
    done < <(find "$dir" -type f -name '*.*' | sort)
}

run=$root/bin/rocprof-sys-run
instr=$root/bin/rocprof-sys-instrument
threads_race=1 record user-api ROCPROFSYS_TIMEMORY_COMPONENTS="wall_clock trip_count" -- "$run" -T -P -- ./user-api 10 4 1000
record user-api-serial ROCPROFSYS_TIMEMORY_COMPONENTS="wall_clock trip_count" -- "$run" -T -P -- ./user-api 10 0 1000
record regions -- "$run" -T -P -- ./regions 2000
record fork ROCPROFSYS_USE_PID=ON -- "$run" -T -P -- ./fork
record segv -- "$run" -T -P -- ./segv segv
record abort -- "$run" -T -P -- ./segv abort
record ring-lossless ROCPROFSYS_RING_BUFFER_SIZE_KB=16 ROCPROFSYS_RING_BUFFER_LOSSLESS=ON \
    ROCPROFSYS_TIMEMORY_COMPONENTS=trip_count -- "$run" -P -- ./regions 200000
record rewrite-caller-instr -- "$instr" -o "$work/bin/rewrite-caller.inst" -e -i 256 --caller-include '^inner' -v 2 -- ./rewrite-caller
record rewrite-caller ROCPROFSYS_COUT_OUTPUT=ON -- "$run" -T -P -- ./rewrite-caller.inst 17
record po-rewrite-instr -- "$instr" -o "$work/bin/po.inst" --min-instructions=8 -- ./parallel-overhead
threads_race=1 record po-rewrite -- "$run" -T -P -- ./po.inst 12 2 200
threads_race=1 record po-runtime ROCPROFSYS_PROFILE=ON -- "$instr" --min-instructions=8 --label file line return args -- ./parallel-overhead 12 2 200
record uses-lib-runtime ROCPROFSYS_PROFILE=ON -- "$instr" -i 1 -- ./uses-lib
record dlopen-lib-runtime ROCPROFSYS_PROFILE=ON -- "$instr" -i 1 -- ./dlopen-lib
echo "outputs recorded in $out ($(find "$out" -type f | wc -l) files)"
