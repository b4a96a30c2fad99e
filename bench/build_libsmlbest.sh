#!/bin/bash
# Builds libsmlbest.so: `best` behind the small C entry point of bench/best_capi.cu, which
# bench/peers.py loads with ctypes. For Hopper (sm_90). Run from the repository root.
# Usage: bash bench/build_libsmlbest.sh [OUTPUT] [KERNEL_CU]
#   OUTPUT defaults to /tmp/libsmlbest.so; KERNEL_CU to kernels/best_softmax.cu (another version
#   of it, for bench/ab_best.sh).
exec nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -lineinfo -Xcompiler -fPIC -shared \
    -I. bench/best_capi.cu "${2:-kernels/best_softmax.cu}" kernels/device_limits.cu \
    -o "${1:-/tmp/libsmlbest.so}"
