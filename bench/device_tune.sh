#!/bin/bash
# One device call for `best`: builds libsmlbest.so (bench/best_capi.cu) and, in a scratch copy,
# gpu_test_best and softmaxlab-cli; runs the GPU test, times best's alternative configurations
# (peers.py --tune; TUNE_TIMEOUT seconds each dtype, 240 by default), then the side-by-side peer
# benchmark. Few files land in $OUT (the device
# tool returns a limited number): build.txt, tune.txt, test.txt, peers.txt, peers/<device>.json.
# Usage: bash bench/device_tune.sh [TUNE_COLS] (empty TUNE_COLS skips tuning; PEERS=0 skips the
# peer benchmark, for a call that only tunes; TUNE_DTYPES="fp32 fp16 bf16" tunes each dtype,
# into tune.txt, tune-fp16.txt, tune-bf16.txt; TUNE_HALF_COLS sets the N list of fp16/bf16;
# ONLY="TEXT|TEXT" tunes only the configurations whose label holds one of them)
set -o pipefail
OUT=${OUT:-/tmp/sml-out}
mkdir -p "$OUT"
TUNE_COLS=${1-128,131072,262144}
SRC=/tmp/sml-src  # scratch copy without tests/*.cmake (end-to-end extras not needed here)
rm -rf $SRC && mkdir -p $SRC && tar -cf - --exclude='./build*' . | tar -xf - -C $SRC
rm -f $SRC/tests/*.cmake
{
    bash bench/build_libsmlbest.sh /tmp/libsmlbest.so 2>&1 || echo "libsmlbest build failed"
} > "$OUT/build.txt" &
(cmake -S $SRC -B $SRC/build -G Ninja -DSML_WITH_GUI=OFF -DCMAKE_CUDA_ARCHITECTURES=90 \
    > /tmp/cmake.log 2>&1 && cmake --build $SRC/build -j 12 --target gpu_test_best softmaxlab-cli \
    > /tmp/test-build.log 2>&1; echo "cmake build rc=$?" >> /tmp/test-build.log) &
wait
tail -n 5 /tmp/cmake.log /tmp/test-build.log >> "$OUT/build.txt"
export PYTHONUNBUFFERED=1
# The test first: a kernel that hangs or fails shows here, before the tuning spends the call.
if [ -x $SRC/build/tests/gpu_test_best ]; then
    timeout ${TEST_TIMEOUT:-300} $SRC/build/tests/gpu_test_best --gtest_color=no > "$OUT/test.txt" 2>&1
    echo "gpu_test_best rc=$?" >> "$OUT/test.txt"
fi
if [ -n "$TUNE_COLS" ]; then
    for dtype in ${TUNE_DTYPES:-fp32}; do
        name=tune; cols=$TUNE_COLS
        [ "$dtype" != fp32 ] && name=tune-$dtype && cols=${TUNE_HALF_COLS:-$TUNE_COLS}
        timeout ${TUNE_TIMEOUT:-240} python3 bench/peers.py --lib /tmp/libsmlbest.so --tune \
            --samples 20 --dtype $dtype --cols $cols ${ONLY:+--only "$ONLY"} > "$OUT/$name.txt" 2>&1
        echo "tune rc=$?" >> "$OUT/$name.txt"
    done
fi
CLI=$(find $SRC/build -name softmaxlab-cli -type f -perm -u+x | head -1)
if [ "${PEERS:-1}" != 0 ]; then
    python3 bench/peers.py --lib /tmp/libsmlbest.so --samples 30 --out "$OUT/peers" \
        ${CLI:+--cli $CLI} > "$OUT/peers.txt" 2>&1
    echo "peers rc=$?" >> "$OUT/peers.txt"
    tail -30 "$OUT/peers.txt"
fi
grep -E "FAILED|PASSED|rc=" "$OUT/test.txt"
