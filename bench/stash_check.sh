#!/usr/bin/env bash
# best on GPUs without clusters (the one-block stash, kernels/best/cluster.cu, then the grid in
# teams, kernels/best/grid.cu), in one device call:
# builds softmaxlab-cli and gpu_test_best for this GPU, runs gpu_test_best as this GPU and under
# the device profiles whose dispatch it changes (a100: 163 KB opt-in; rtx4090: 99 KB; t4: 64 KB),
# then times best at N around one block's registers under each profile, 1 GiB of fp32 a point
# against the same run's copy. This is emulation: the kernels run on this GPU with dispatch,
# ranges and grid sizes restricted to each class's limits. Output under $OUT.
#
#   SML_GIT_COMMIT=<hash> bash bench/stash_check.sh
set -uo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
START=$(date +%s)
say() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a "$OUT/stash-check.txt"; }
say "stash_check on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), $(date -u +%Y-%m-%dT%H:%M:%SZ), commit ${SML_GIT_COMMIT:-unknown}"
LIB=/tmp/libsmlbest.so
source bench/device_build.sh
device_build "$LIB" gpu_test_best softmaxlab-cli
CLI=build-dev/app/cli/softmaxlab-cli
for p in "" a100 rtx4090 t4; do
  SML_DEVICE_PROFILE=$p ./build-dev/tests/gpu_test_best >"$OUT/gpu_test_best-${p:-gpu}.log" 2>&1
  say "gpu_test_best ${p:-this GPU} rc=$?: $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/gpu_test_best-${p:-gpu}.log" | tr '\n' ' ')"
done
COLS=${COLS:-16384,32768,32769,40000,49152,57344,65536,65537,73728,73729,100003,262144,1000003}
for p in h100 a100 rtx4090 t4; do
  "$CLI" --device-profile "$p" sweep --kernels best --cols "$COLS" --metrics off \
    --out "$OUT/best-$p.json" >"$OUT/best-$p.log" 2>&1
  say "sweep $p rc=$?"
  python3 - "$OUT/best-$p.json" "$p" <<'PY' | tee -a "$OUT/stash-check.txt"
import json, sys
s = json.load(open(sys.argv[1]))
for pt in s["points"]:
    launch = pt["launches"][0] if pt["launches"] else {}
    print(f"  {sys.argv[2]:8s} N={pt['cols']:6d} {pt['pct_of_copy']:6.1f}% of copy  "
          f"{launch.get('name', '')} grid {launch.get('grid', [0])[0]} x {launch.get('block', [0])[0]} "
          f"smem {launch.get('dynamic_smem_bytes', 0)}  ok={pt['within_tolerance']}")
PY
done
# The dispatcher's pick under a profile next to one block's two passes and fixed team grids,
# side by side in one process (bench/grid_probe.py; the library reads SML_DEVICE_PROFILE).
for p in ${PROBE_PROFILES:-rtx4090 t4}; do
  (cd bench && SML_DEVICE_PROFILE=$p timeout 150 python3 grid_probe.py --lib "$LIB" \
    --cols "${PROBE_COLS:-49152,65536,100003,262144}" >"$OUT/grid-probe-$p.txt" 2>&1)
  say "grid probe $p rc=$?"
  grep -E " (auto|two-pass 1x1024) " "$OUT/grid-probe-$p.txt" | sed "s/^/  $p /" | tee -a "$OUT/stash-check.txt"
done
say "done"
