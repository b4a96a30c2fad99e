#!/usr/bin/env bash
# The tile path (kernels/best/tile.cu) on a GPU, in one device call: builds libsmlbest.so and
# gpu_test_best, runs best's correctness cases that reach the tile path (and those around it),
# then times every short-row alternative at N where rows are off their packs and at N where they
# are not (bench/peers.py --tune: the dispatcher's pick, the tile shapes, the group and one-block
# shapes), 1 GiB a point against the same run's copy. Output under $OUT.
#
#   SML_GIT_COMMIT=<hash> [SCAN=1] bash bench/tile_check.sh   (SCAN=1: also two seeded scans of
#                                       bench/scan_best.py, all N and N <= 2048, and its
#                                       launch-bound calls; SCAN_COUNT, SCAN_SMALL_COUNT and
#                                       SCAN_SMALL_HI change them)
set -uo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
START=$(date +%s)
say() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a "$OUT/tile-check.txt"; }
say "tile_check on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), $(date -u +%Y-%m-%dT%H:%M:%SZ), commit ${SML_GIT_COMMIT:-unknown}"
LIB=/tmp/libsmlbest.so
source bench/device_build.sh
device_build "$LIB" gpu_test_best
./build-dev/tests/gpu_test_best --gtest_filter="${FILTER:-*}" >"$OUT/gpu_test_best.log" 2>&1
say "gpu_test_best rc=$?: $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/gpu_test_best.log" | tr '\n' ' ')"
grep -E "^\[  FAILED  \]" "$OUT/gpu_test_best.log" | head -20 | tee -a "$OUT/tile-check.txt"
[ -f "$LIB" ] || exit 1
for dt in fp16 bf16 fp32; do
  case $dt in
    fp32) cols=${COLS_FP32:-29,64,100,255,256,333,500} ;;
    *) cols=${COLS_HALF:-22,49,64,75,130,205,256,331,500,666,1000} ;;
  esac
  say "tune $dt N=$cols"
  timeout 240 python3 bench/peers.py --lib "$LIB" --tune --dtype $dt --cols "$cols" --samples 20 \
    --out "$OUT" >"$OUT/tune-$dt.txt" 2>&1
  say "tune $dt rc=$?"
done
# Seeded scans (seeds drawn at run time, printed): the whole range, then rows up to 2048 values.
if [ "${SCAN:-0}" = 1 ]; then
  say "scan: all N"
  timeout 300 python3 bench/scan_best.py --lib "$LIB" --count "${SCAN_COUNT:-30}" \
    --out "$OUT/scan-all.json" >"$OUT/scan-all.txt" 2>&1
  say "scan all rc=$?"
  say "scan: N <= 2048"
  timeout 200 python3 bench/scan_best.py --lib "$LIB" --count "${SCAN_SMALL_COUNT:-24}" \
    --hi "${SCAN_SMALL_HI:-2048}" --out "$OUT/scan-small.json" >"$OUT/scan-small.txt" 2>&1
  say "scan small rc=$?"
  say "launch-bound calls (M*N <= 2^20): GPU time per call, torch vs best"
  timeout 200 python3 bench/scan_best.py --lib "$LIB" --small --out "$OUT/small-calls.json" \
    >"$OUT/small-calls.txt" 2>&1
  say "small calls rc=$?"
fi
say "done"
