#!/bin/bash
# Temporary: A/B of the two prepared held-grid candidates against HEAD.
set -x
C=bench/results/2026-11-26/ncu-hold
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
date -u >> $OUT/gpu.txt
mk() { # name, diffs...
  local n=$1; shift; rm -rf bench/ex$n; mkdir -p bench/ex$n
  git archive HEAD kernels common bench/best_capi.cu | tar -x -C bench/ex$n
  for d in "$@"; do (cd bench/ex$n && patch -p1 -s < ../../$C/candidate-$d.diff) || exit 1; done
}
mk O; mk E edges; mk I inplace; mk B edges inplace
B() { # name
  local n=$1 obj=/tmp/obj$1; mkdir -p $obj
  for src in bench/best_capi.cu bench/ex$n/kernels/*.cu bench/ex$n/kernels/*.cpp bench/ex$n/kernels/best/*.cu; do
    rel=${src#bench/ex$n/}; o=$obj/$(echo $rel | tr / _).o
    if [ $n != O ] && [[ $rel != kernels/best/hold.cu ]]; then continue; fi
    if [[ $src == *.cpp ]]; then g++ -O3 -std=c++20 -fPIC -DSML_HAVE_CUDA=1 -Ibench/ex$n -I/usr/local/cuda/include -c $src -o $o &
    else nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -lineinfo -Xcompiler -fPIC -DSML_HAVE_CUDA=1 -Ibench/ex$n -Xptxas -v -c $src -o $o 2> $obj/$(basename $src).ptxas & fi
  done; wait
}
t0=$(date +%s)
B O & B E & B I & B B & wait
for n in E I B; do for o in /tmp/objO/*.o; do b=$(basename $o); [ -f /tmp/obj$n/$b ] || cp $o /tmp/obj$n/$b; done; done
for n in O E I B; do nvcc -arch=sm_90 -shared /tmp/obj$n/*.o -o /tmp/lib$n.so || exit 1; done
echo build $(( $(date +%s) - t0 )) s
for n in O E I B; do echo "== $n"; cat /tmp/obj$n/hold.cu.ptxas; done > $OUT/ptxas-hold.txt
L="base=/tmp/libO.so edges=/tmp/libE.so inplace=/tmp/libI.so both=/tmp/libB.so"
{
timeout 200 python3 bench/ab_libs.py --cols 14000000,15435074,14973038,9284949 --dtypes fp16,bf16 --rounds 2 --out $OUT/ab-16bit.json $L
timeout 150 python3 bench/ab_libs.py --cols 7000000,4190484,14500000,1500007 --dtypes fp32 --rounds 2 --out $OUT/ab-fp32.json $L
timeout 200 python3 bench/ab_libs.py --draw 1048576:16777216:12 --rounds 2 --out $OUT/ab-draw.json $L
} 2>&1 | tee $OUT/ab.txt
