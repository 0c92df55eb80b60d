#!/usr/bin/env bash
# ensure-packages.sh build|test: makes sure the system packages rocprof-sys needs are installed.
# As root on Debian/Ubuntu they are installed with apt-get; otherwise the exact command is printed.
set -euo pipefail
purpose=${1:-build}

# What each package is for: maven/gcc/make build the Java and C halves; libcapstone4, libelf1 and
# libdw1 are loaded through FFM by the instrumenter and the sampler; the MPI headers build the MPI
# wrapper libraries and the MPI implementations run the MPI tests (MpiIT).
packages=(maven gcc make libcapstone4 libelf1 libdw1)
if [[ $purpose == test ]]; then
    packages+=(g++ libopenmpi-dev openmpi-bin libmpich-dev mpich)
fi

command -v dpkg-query >/dev/null 2>&1 || exit 0   # not Debian/Ubuntu: nothing we can check
missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ $status == "install ok installed" ]] || missing+=("$p")
done
(( ${#missing[@]} == 0 )) && exit 0

if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "[rocprof-sys] installing missing system packages: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
    echo "[rocprof-sys] error: missing system packages: ${missing[*]}" >&2
    echo "[rocprof-sys] install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
