#!/bin/bash
# Trial: libraries of main (old) and four variants, built from tmp_<v>/ trees; then ab_libs.
set -o pipefail
date -u +"start %F %T UTC" | tee $OUT/times.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/gpu.txt
NV="nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -lineinfo -Xcompiler -fPIC -DSML_HAVE_CUDA=1"
compile() {  # root src objdir
    local obj="$3/$(echo "$2" | tr / _).o"
    if [[ $2 == *.cpp ]]; then
        g++ -O3 -std=c++20 -fPIC -DSML_HAVE_CUDA=1 -I"$1" -I/usr/local/cuda/include -c "$1/$2" -o "$obj"
    else
        $NV -I"$1" -c "$1/$2" -o "$obj"
    fi || echo "FAILED $1 $2" >> $OUT/build-failed.txt
}
cd tmp_old
ALL=(bench/best_capi.cu kernels/*.cu kernels/*.cpp kernels/best/*.cu)
BEST=(kernels/best_softmax.cu kernels/best/*.cu)
cd ..
mkdir -p /tmp/o/base
for s in "${ALL[@]}"; do compile tmp_old "$s" /tmp/o/base & done
VARS="FR FR6"
for v in $VARS; do
    mkdir -p /tmp/o/$v
    for s in "${BEST[@]}"; do compile tmp_$v "$s" /tmp/o/$v & done
done
wait
date -u +"built %T" | tee -a $OUT/times.txt
[ -f $OUT/build-failed.txt ] && { cat $OUT/build-failed.txt; exit 1; }
nvcc -arch=sm_90 -shared /tmp/o/base/*.o -o /tmp/old.so &
for v in $VARS; do
    mkdir -p /tmp/o/link_$v
    cp /tmp/o/base/*.o /tmp/o/link_$v/ && cp /tmp/o/$v/*.o /tmp/o/link_$v/
    nvcc -arch=sm_90 -shared /tmp/o/link_$v/*.o -o /tmp/$v.so &
done
wait
ls -la /tmp/*.so
date -u +"linked %T" | tee -a $OUT/times.txt
L6="old=/tmp/old.so F=/tmp/F.so R3=/tmp/R3.so FR3=/tmp/FR3.so R=/tmp/R.so FR=/tmp/FR.so"
ab() {  # name args...
    local name=$1; shift
    timeout 150 python3 bench/ab_libs.py --rounds 2 "$@" --out $OUT/ab-$name.json > $OUT/ab-$name.txt 2>&1
    date -u +"$name %T" | tee -a $OUT/times.txt
}
L3="old=/tmp/old.so FR=/tmp/FR.so FR6=/tmp/FR6.so"
ab 16-block --draw 1025:40000:20 --dtypes fp16,bf16 $L3
ab fp32-block --draw 257:32768:16 --dtypes fp32 $L3
ab 16-cluster --draw 36000:330000:14 --dtypes fp16,bf16 $L3
ab fp32-cluster --draw 20000:165000:12 --dtypes fp32 $L3
for f in $OUT/ab-*.txt; do echo "== $f"; grep -v "^round" $f; done
cd $OUT && tar czf trial.tar.gz ab-* times.txt gpu.txt && rm -f ab-* times.txt gpu.txt
