#!/bin/bash
# Tuning run for `best` on the GPU machine (one device call): builds libsmlbest.so variants that
# differ only in the cache hints under test, times best's configurations with bench/peers.py
# --tune, and builds + runs tests/gpu_test_best. Everything lands in $OUT.
set -o pipefail
OUT=${OUT:-/tmp/sml-out}
mkdir -p "$OUT"
lib() {  # lib NAME FLAGS...
    local name=$1
    shift
    nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -lineinfo -Xcompiler -fPIC -shared \
        -I. "$@" bench/best_capi.cu kernels/best_softmax.cu kernels/device_limits.cu \
        -o "/tmp/lib-$name.so" > "$OUT/build-$name.log" 2>&1 || echo "build $name failed"
}
lib cs_cs -DSML_BEST_LOAD=0 -DSML_BEST_STORE=0 &
lib plain_plain -DSML_BEST_LOAD=1 -DSML_BEST_STORE=1 &
lib plain_cs -DSML_BEST_LOAD=1 -DSML_BEST_STORE=0 &
lib nc_cs -DSML_BEST_LOAD=2 -DSML_BEST_STORE=0 &
lib rows8 -DSML_BEST_ROWS1=8 &
# The test builds in a scratch copy without tests/*.cmake (extra end-to-end tests that other
# work in progress may leave unconfigurable); only gpu_test_best is needed here.
SRC=/tmp/sml-src
rm -rf $SRC && mkdir -p $SRC && tar -cf - --exclude='./build*' . | tar -xf - -C $SRC
rm -f $SRC/tests/*.cmake
(cmake -S $SRC -B $SRC/build -G Ninja -DSML_WITH_GUI=OFF -DCMAKE_CUDA_ARCHITECTURES=90 \
    > "$OUT/cmake.log" 2>&1 && cmake --build $SRC/build -j 10 --target gpu_test_best \
    > "$OUT/test-build.log" 2>&1; echo "test build rc=$?" >> "$OUT/test-build.log") &
wait
export PYTHONUNBUFFERED=1
AUTO_COLS=32,64,128,256,512,1024,2048,4096,8192,12288,16384,32768,65536,131072
for v in cs_cs plain_plain plain_cs nc_cs rows8; do
    python3 bench/peers.py --lib /tmp/lib-$v.so --no-peers --samples 20 --cols $AUTO_COLS \
        --out "$OUT/auto-$v" > "$OUT/auto-$v.log" 2>&1
done
TUNE_COLS=2048,4096,8192,12288,16384,32768,65536,131072,262144,524288,1048576
python3 bench/peers.py --lib /tmp/lib-cs_cs.so --tune --samples 20 --cols $TUNE_COLS \
    > "$OUT/tune-cs_cs.log" 2>&1
if [ -x $SRC/build/tests/gpu_test_best ]; then
    timeout 300 $SRC/build/tests/gpu_test_best --gtest_color=no > "$OUT/gpu_test_best.log" 2>&1
    echo "gpu_test_best rc=$?"
fi
tail -3 "$OUT/test-build.log"; tail -25 "$OUT/gpu_test_best.log"
for v in cs_cs plain_plain plain_cs nc_cs rows8; do echo "== $v"; grep "^| [0-9]" "$OUT/auto-$v.log"; done
