#!/usr/bin/env bash
# Rows past what the whole GPU holds on chip, in one device call: builds libsmlbest.so (and, with
# TESTS=1, gpu_test_best, run first), then times the dispatcher's pick against the two-pass
# shapes -- a cluster a row, and the grid two-pass (kernels/best/two_pass.cu) at 1, 2 and 4 blocks
# an SM and lags 1 and 2 -- at long N in fp32 and fp16 (bench/peers.py --tune --only), 1 GiB a
# point against the same run's copy. With SCAN=1, a seeded scan of N >= 2^20 as well (seed drawn
# at run time). Output under $OUT; a summary on stdout.
#
#   SML_GIT_COMMIT=<hash> [TESTS=1] [SCAN=1] [COLS_FP32=..] [COLS_HALF=..] bash bench/long_check.sh
set -uo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
START=$(date +%s)
say() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a "$OUT/long-check.txt"; }
say "long_check on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), $(date -u +%Y-%m-%dT%H:%M:%SZ), commit ${SML_GIT_COMMIT:-unknown}"
LIB=/tmp/libsmlbest.so
(bash bench/build_libsmlbest.sh "$LIB" . >"$OUT/lib-build.log" 2>&1; echo $? >/tmp/lib.rc) &
if [ "${TESTS:-0}" = 1 ]; then
  cmake -S . -B build-dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DSML_WITH_GUI=OFF \
    -DSML_WITH_CAIRO=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/configure.log" 2>&1
  cmake --build build-dev -j12 --target gpu_test_best >"$OUT/build.log" 2>&1
  say "gpu_test_best build rc=$?"
fi
wait
say "libsmlbest build rc=$(cat /tmp/lib.rc)"
if [ "${TESTS:-0}" = 1 ]; then
  ./build-dev/tests/gpu_test_best --gtest_filter="${FILTER:-*}" >"$OUT/gpu_test_best.log" 2>&1
  say "gpu_test_best rc=$?: $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/gpu_test_best.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED  \]" "$OUT/gpu_test_best.log" | head -20 | tee -a "$OUT/long-check.txt"
fi
[ -f "$LIB" ] || { tail -30 "$OUT/lib-build.log"; exit 1; }
for dt in fp32 fp16; do
  case $dt in
    fp32) cols=${COLS_FP32:-1171593,2097152,4194304,8388608,16777216} ;;
    *) cols=${COLS_HALF:-2321896,4194304,9510265,16777216} ;;
  esac
  [ -n "$cols" ] || continue
  say "tune $dt N=$cols"
  timeout "${TUNE_TIMEOUT:-200}" python3 bench/peers.py --lib "$LIB" --tune --dtype $dt \
    --cols "$cols" --samples 20 --only "${ONLY:-auto|two-pass 16x1024 l2=1|grid-two-pass}" \
    --out "$OUT" >"$OUT/tune-$dt.txt" 2>&1
  say "tune $dt rc=$?"
  grep -E "^N=" "$OUT/tune-$dt.txt"
done
if [ "${SCAN:-0}" = 1 ]; then
  say "scan: N >= 2^20"
  timeout "${SCAN_TIMEOUT:-200}" python3 bench/scan_best.py --lib "$LIB" --count "${SCAN_COUNT:-20}" \
    --lo 1048576 --out "$OUT/scan-long.json" >"$OUT/scan-long.txt" 2>&1
  say "scan long rc=$?"
  tail -12 "$OUT/scan-long.txt"
fi
say "done"
