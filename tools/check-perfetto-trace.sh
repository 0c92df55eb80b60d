#!/usr/bin/env bash
# Decodes Perfetto traces with protoc against the official schema and fails on any field the
# schema does not know (protoc prints those as bare field numbers instead of names).
#
#   PERFETTO_PROTO=<perfetto>/protos/perfetto/trace/perfetto_trace.proto \
#     [PROTOC=<protoc>] tools/check-perfetto-trace.sh <trace.proto>...
#
# PERFETTO_PROTO is the one-file schema of google/perfetto (not kept in this repository). PROTOC
# defaults to the protoc of Maven Central in ~/.m2 (com.google.protobuf:protoc, classifier
# linux-x86_64, type exe: mvn dependency:copy -Dartifact=com.google.protobuf:protoc:4.33.2:exe:linux-x86_64
# -DoutputDirectory=<dir>), else protoc on the PATH. Prints one line per trace; exit status 1 when
# any trace fails to decode or holds an unknown field, 2 on a usage error.
set -u
proto=${PERFETTO_PROTO:-}
if [[ -z $proto || ! -f $proto || $# -eq 0 ]]; then
    echo "usage: PERFETTO_PROTO=<perfetto_trace.proto> [PROTOC=<protoc>] $0 <trace>..." >&2
    exit 2
fi
protoc=${PROTOC:-}
if [[ -z $protoc ]]; then
    # $HOME may be a test's own; the account's home holds the Maven repository
    for home in "${HOME:-}" "$(getent passwd "$(id -u)" | cut -d: -f6)"; do
        [[ -n $protoc || -z $home ]] && continue
        protoc=$(ls -1 "$home"/.m2/repository/com/google/protobuf/protoc/*/protoc-*-linux-x86_64.exe 2>/dev/null | sort -V | tail -1)
    done
    [[ -z $protoc ]] && protoc=$(command -v protoc || true)
fi
if [[ -z $protoc ]]; then
    echo "no protoc: set PROTOC or fetch com.google.protobuf:protoc (see the header of $0)" >&2
    exit 2
fi
if [[ ! -x $protoc ]]; then # Maven stores the exe without its execute bit: run a copy
    copy=$(mktemp /tmp/protoc.XXXXXX) && cp "$protoc" "$copy" && chmod +x "$copy" && protoc=$copy
    trap 'rm -f "$copy"' EXIT
fi
status=0
for trace in "$@"; do
    text=$("$protoc" --decode=perfetto.protos.Trace -I "$(dirname "$proto")" "$(basename "$proto")" < "$trace" 2>&1)
    rc=$?
    if [[ $rc -ne 0 ]]; then
        echo "FAIL $trace: protoc exit $rc: $(head -c 300 <<< "$text")"
        status=1
        continue
    fi
    # an unknown field is printed as its number: "  123: 4" or "  123 {"
    unknown=$(grep -nE '^[[:space:]]*[0-9]+(: | \{)' <<< "$text" | head -5)
    packets=$(grep -c '^packet {' <<< "$text")
    if [[ -n $unknown ]]; then
        echo "FAIL $trace: unknown fields (line: field): $(tr '\n' ' ' <<< "$unknown")"
        status=1
    else
        echo "ok $trace: $packets packets, every field known"
    fi
done
exit $status
