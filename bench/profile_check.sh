#!/usr/bin/env bash
# best under every device profile (issue 20), in one device call: builds softmaxlab-cli and
# gpu_test_best for this GPU, runs gpu_test_best as this GPU and under TEST_PROFILES, then
# sweeps best (1 GiB a point, against the same run's copy) under every profile at the sweep's
# N from 128 to 65536 (fp32) and at DRAWS N drawn log-uniformly from 128 to 65536 in each of
# fp32, fp16 and bf16 plus DRAWS_LONG drawn uniformly from 16385 to 65536 (rows past one
# block's registers), from a seed drawn at run time unless SEED is given (it is printed).
# Prints one table per set. This is emulation: the kernels run on this GPU with dispatch,
# ranges and shared memory restricted to each class's limits. Output under $OUT, three files
# (the device tool brings back eight at most): profile-check.txt, sweeps.tar.gz, logs.tar.gz.
#
#   SML_GIT_COMMIT=<hash> bash bench/profile_check.sh
# Environment: TEST_PROFILES (default "t4 rtx3060 l4 a10g"), SWEEP_PROFILES (default every
# profile; "none" skips the sweeps), DRAWS (8), DRAWS_LONG (6), SEED; TUNE and TUNE_ONLY (below)
# for bench/peers.py --tune runs in the same call.
set -uo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
OUT=${OUT:-$PWD/out}
LOGS="$OUT/logs"
mkdir -p "$LOGS" "$OUT/sweeps"
START=$(date +%s)
LOG="$OUT/profile-check.txt"
say() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a "$LOG"; }
say "profile_check on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), $(date -u +%Y-%m-%dT%H:%M:%SZ), commit ${SML_GIT_COMMIT:-unknown}"
source bench/device_build.sh
OUT="$LOGS" device_build /tmp/libsmlbest.so gpu_test_best softmaxlab-cli
CLI=build-dev/app/cli/softmaxlab-cli
for p in "" ${TEST_PROFILES:-t4 rtx3060 l4 a10g}; do
  SML_DEVICE_PROFILE=$p ./build-dev/tests/gpu_test_best >"$LOGS/gpu_test_best-${p:-gpu}.log" 2>&1
  say "gpu_test_best ${p:-this GPU} rc=$?: $(grep -E '^\[  (PASSED|FAILED) ' "$LOGS/gpu_test_best-${p:-gpu}.log" | tr '\n' ' ')"
done
SEED=${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
DRAWN=$(python3 -c "
import math, random
r = random.Random($SEED)
n = [round(math.exp(r.uniform(math.log(128), math.log(65536)))) for _ in range(${DRAWS:-8})]
n += [r.randint(16385, 65536) for _ in range(${DRAWS_LONG:-6})]  # past one block's registers
print(','.join(map(str, n)))")
say "drawn N (seed $SEED): $DRAWN"
FIXED=128,256,512,1000,1024,1025,2048,3000,4096,8192,8193,12288,16384,16385,32768,40000,49152,65536
SWEEP_PROFILES=${SWEEP_PROFILES:-$("$CLI" list --profiles | awk '{print $1}')}
[ "$SWEEP_PROFILES" = none ] && SWEEP_PROFILES=
for p in $SWEEP_PROFILES; do
  "$CLI" --device-profile "$p" sweep --kernels best --cols "$FIXED" --metrics off \
    --out "$OUT/sweeps/fixed-fp32-$p.json" >"$OUT/sweeps/fixed-fp32-$p.log" 2>&1
  say "sweep $p fp32 at the sweep's N: rc=$?"
  for d in fp32 fp16 bf16; do
    "$CLI" --device-profile "$p" sweep --kernels best --dtype $d --cols "$DRAWN" --metrics off \
      --out "$OUT/sweeps/drawn-$d-$p.json" >"$OUT/sweeps/drawn-$d-$p.log" 2>&1
    say "sweep $p $d at the drawn N: rc=$?"
  done
done
python3 - "$OUT/sweeps" <<'PY' | tee -a "$LOG"
import glob, json, os, sys
for kind in ("fixed", "drawn"):
    print(f"\n{kind}: best, % of the same run's copy")
    print("| profile | dtype | points | worst % of copy | at N | >= 90% | all correct | paths at the worst |")
    print("|---|---|---|---|---|---|---|---|")
    for f in sorted(glob.glob(os.path.join(sys.argv[1], f"{kind}-*.json"))):
        _, dtype, profile = os.path.basename(f)[:-5].split("-", 2)
        pts = [p for p in json.load(open(f))["points"] if p.get("pct_of_copy") is not None]
        if not pts:
            print(f"| {profile} | {dtype} | 0 | | | | | |")
            continue
        w = min(pts, key=lambda p: p["pct_of_copy"])
        names = "+".join(l.get("name", "") for l in w.get("launches", []))
        ok = all(p.get("within_tolerance") for p in pts)
        print(f"| {profile} | {dtype} | {len(pts)} | {w['pct_of_copy']:.1f}% | {w['cols']} | "
              f"{sum(p['pct_of_copy'] >= 90 for p in pts)} | {ok} | {names} |")
PY
python3 bench/profile_table.py "$OUT/sweeps" | tee -a "$LOG"  # the README's table
# Side by side in one process (bench/peers.py --tune): each "profile:dtype:N,N...[:CFG;CFG...]"
# of TUNE ("-" for this GPU as it is), the configurations whose labels match TUNE_ONLY, and each
# CFG (peers.py --config FIELD=V,FIELD=V..., labelled "cfg ...": give TUNE_ONLY "auto|cfg").
k=0
for t in ${TUNE:-}; do
  IFS=: read -r p d cols cfgs <<<"$t"
  [ "$p" = - ] && p=""
  k=$((k + 1))
  given=()
  IFS=';' read -ra specs <<<"${cfgs:-}"
  for c in "${specs[@]}"; do given+=(--config "$c"); done
  name="tune-$k-${p:-gpu}-$d"
  (cd bench && SML_DEVICE_PROFILE=$p timeout 150 python3 peers.py --lib /tmp/libsmlbest.so --tune \
    --dtype "$d" --cols "$cols" --only "${TUNE_ONLY:-auto}" --samples 20 "${given[@]}" \
    --out "$OUT/sweeps/$name" >"$OUT/sweeps/$name.txt" 2>&1)
  say "tune ${p:-this GPU} $d at $cols ${cfgs:+(and $cfgs)}: rc=$?"
  sed -n '/^| N |/,$p' "$OUT/sweeps/$name.txt" | tee -a "$LOG"
done
tar -C "$OUT" -czf "$OUT/sweeps.tar.gz" sweeps && rm -rf "$OUT/sweeps"
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$LOGS"
say "done"
