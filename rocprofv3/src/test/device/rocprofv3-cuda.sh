#!/usr/bin/env bash
# For the lead, on the GPU host: runs bin/rocprofv3 on examples/cuda programs and prints, per
# program, the rows of each rocprofv3 CSV against the same run's rocpd database (the trace's
# content) and the stats' call counts. Every line should say "ok".
#
#   rocprofv3/src/test/device/rocprofv3-cuda.sh [program ...]      (default: vector-add streams nvtx templated)
#
# Needs nvcc (CUDA_HOME, default /usr/local/cuda) unless ROCPROFSYS_CUDA_EXAMPLES names a folder of
# prebuilt examples, and sqlite3. Builds the distribution through bin/rocprofv3 on first use.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
examples=${ROCPROFSYS_CUDA_EXAMPLES:-}
if [[ -z $examples ]]; then
    examples=$work/examples
    make -s -C "$root/examples/cuda" OUT="$examples" NVCC="${CUDA_HOME:-/usr/local/cuda}/bin/nvcc"
fi
programs=("$@")
[[ ${#programs[@]} -gt 0 ]] || programs=(vector-add streams nvtx templated)

rows() { [[ -f $1 ]] && echo $(($(wc -l <"$1") - 1)) || echo 0; }
calls() { [[ -f $1 ]] && awk -F, 'NR > 1 { n += $(NF-6) } END { print n + 0 }' "$1" || echo 0; }
check() { # name got want
    if [[ $2 == "$3" ]]; then echo "  ok   $1: $2"; else echo "  DIFF $1: csv $2, trace $3"; fi
}

status=0
for p in "${programs[@]}"; do
    out=$work/out-$p
    echo "== $p"
    "$root/bin/rocprofv3" --kernel-trace --memory-copy-trace --hip-trace --marker-trace --stats \
        --output-format csv rocpd -d "$out" -o run -- "$examples/$p" >"$work/$p.log" 2>&1 ||
        { echo "  rocprofv3 failed: see below"; tail -20 "$work/$p.log"; status=1; continue; }
    db=$(ls "$out"/*.db | head -1)
    q() { sqlite3 "$db" "$1"; }
    check "kernel_trace.csv rows vs rocpd kernels" "$(rows "$out/run_kernel_trace.csv")" "$(q 'select count(*) from kernels')"
    check "kernel_stats.csv calls vs kernel rows" "$(calls "$out/run_kernel_stats.csv")" "$(rows "$out/run_kernel_trace.csv")"
    check "memory_copy_trace.csv rows vs rocpd copies" "$(rows "$out/run_memory_copy_trace.csv")" "$(q 'select count(*) from memory_copies')"
    check "cuda_api_trace.csv rows vs rocpd API regions" "$(rows "$out/run_cuda_api_trace.csv")" \
        "$(q "select count(*) from regions where category in ('cuda_runtime_api','cuda_driver_api')")"
    check "marker_api_trace.csv rows vs rocpd NVTX regions" "$(rows "$out/run_marker_api_trace.csv")" \
        "$(q "select count(*) from regions where category = 'cuda_nvtx'")"
    # every kernel inside the run: end after start
    bad=$(awk -F, 'NR > 1 && $(NF-11) < $(NF-12) { n++ } END { print n + 0 }' "$out/run_kernel_trace.csv")
    check "kernels ending before they start" "$bad" 0
done
exit $status
