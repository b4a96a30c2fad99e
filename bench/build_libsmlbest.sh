#!/bin/bash
# Builds libsmlbest.so: `best` behind the small C entry point of bench/best_capi.cu, which
# bench/peers.py loads with ctypes. For Hopper (sm_90). Run from the repository root.
# Usage: bash bench/build_libsmlbest.sh [OUTPUT] [ROOT]
#   OUTPUT defaults to /tmp/libsmlbest.so. ROOT (default .) is the tree to build from: another
#   version of best for bench/ab_best.sh, as a folder holding its kernels/ (and common/, where
#   that version has it) and bench/best_capi.cu.
# Every unit of kernels/ (best's in kernels/best/, the launch and registry code the entry point
# reads the GPU's limits with) compiles in parallel, then they link into one library.
set -o pipefail
OUTPUT=${1:-/tmp/libsmlbest.so}
ROOT=${2:-.}
SOURCES=(bench/best_capi.cu)
for f in "$ROOT"/kernels/*.cu "$ROOT"/kernels/*.cpp "$ROOT"/kernels/best/*.cu; do
    [ -f "$f" ] && SOURCES+=("${f#"$ROOT"/}")  # kernels/best/ is absent in older versions
done
OBJ=$(mktemp -d)
trap 'rm -rf "$OBJ"' EXIT
pids=()
for src in "${SOURCES[@]}"; do
    obj="$OBJ/$(echo "$src" | tr / _).o"
    if [[ $src == *.cpp ]]; then
        g++ -O3 -std=c++20 -fPIC -DSML_HAVE_CUDA=1 -I"$ROOT" -I/usr/local/cuda/include \
            -c "$ROOT/$src" -o "$obj" &
    else
        nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -lineinfo -Xcompiler -fPIC \
            -DSML_HAVE_CUDA=1 -I"$ROOT" -c "$ROOT/$src" -o "$obj" &
    fi
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
    wait "$pid" || status=1
done
[ $status -eq 0 ] || { echo "build_libsmlbest: a unit failed to compile" >&2; exit 1; }
nvcc -arch=sm_90 -shared "$OBJ"/*.o -o "$OUTPUT"
