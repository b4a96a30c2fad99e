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
VARS="A B R AR"
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
timeout 170 python3 bench/ab_libs.py --rounds 2 --draw 300:32000:14 --dtypes fp32 \
    --out $OUT/ab-fp32.json old=/tmp/old.so A=/tmp/A.so R=/tmp/R.so AR=/tmp/AR.so > $OUT/ab-fp32.txt 2>&1
date -u +"ab1 %T" | tee -a $OUT/times.txt
timeout 150 python3 bench/ab_libs.py --rounds 2 --draw 1025:36000:14 --dtypes fp16,bf16 \
    --out $OUT/ab-16.json old=/tmp/old.so B=/tmp/B.so R=/tmp/R.so > $OUT/ab-16.txt 2>&1
date -u +"ab2 %T" | tee -a $OUT/times.txt
timeout 150 python3 bench/ab_libs.py --rounds 2 --draw 16:2097151:14 --dtypes fp32,fp16,bf16 \
    --out $OUT/ab-wide.json old=/tmp/old.so B=/tmp/B.so R=/tmp/R.so > $OUT/ab-wide.txt 2>&1
date -u +"ab3 %T" | tee -a $OUT/times.txt
tail -25 $OUT/ab-fp32.txt $OUT/ab-16.txt $OUT/ab-wide.txt
