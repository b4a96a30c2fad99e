#!/usr/bin/env bash
# Checks issues 19-21 ask for on the GPU machine, a phase a device call of under ten minutes.
# Everything kept goes to $OUT as check-<phase>.tar.gz (logs, JSON) plus a summary on stdout.
#
#   bash bench/device_check.sh tests     builds (this GPU's architecture, and sm_80 only), then
#                                        ctest -L gpu on both builds and, on the first, the
#                                        dispatch-dependent GPU suites under every device profile
#                                        (those the time left does not hold are named in the
#                                        summary, for the `profiles` phase);
#                                        QUICK=1: this GPU's build and suite, then the lab check
#   bash bench/device_check.sh profiles  (reuses build-dev/) the dispatch-dependent GPU suites
#                                        under PROFILES (default: every profile)
#   bash bench/device_check.sh measure   (reuses build-dev/ if the machine is still warm) best at
#                                        the sweep's N under every profile, the full sweep with
#                                        counters compared with the recorded session, the code
#                                        views' recording, the lab bench's GPU checks, and the
#                                        README's three seeded scans of best (bench/scan_best.py:
#                                        16-2^24, 2^21-2^24, 2^20-2^21) as far as time is left
#   bash bench/device_check.sh peers     best, torch.softmax and the Triton tutorial at the
#                                        sweep's N in fp16, bf16 and fp32 (bench/peers.py), the
#                                        files the README's peers tables and charts are made from
# Environment: SCAN_COUNT (default 90) draws for the full-range scan, SCAN_BAND_COUNT (default 30)
# for each of the other two; SKIP_SCAN=1 leaves the scans out. CALL_LIMIT (default 560) is the
# seconds a phase plans to end within, so that its files come back from a ten-minute call.
set -uo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
PHASE=${1:-tests}
case $PHASE in
  tests | profiles | measure | peers) ;;
  *) echo "usage: bench/device_check.sh tests|profiles|measure|peers" >&2; exit 2 ;;
esac
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
L=$(mktemp -d)/check-$PHASE
mkdir -p "$L"
export PYTHONUNBUFFERED=1
START=$(date +%s)
say() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a "$L/summary.txt"; }
finish() {
  tar -C "$(dirname "$L")" -czf "$OUT/check-$PHASE.tar.gz" "$(basename "$L")"
  say "done; logs in check-$PHASE.tar.gz"
}
trap finish EXIT
say "device_check $PHASE on $(hostname), $(date -u +%Y-%m-%dT%H:%M:%SZ), commit ${SML_GIT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
say "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1)"

configure_build() {  # dir, extra cmake args..., then -- targets...
  local dir=$1; shift
  local args=() targets=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  targets=("$@")
  [ -f "$dir/CMakeCache.txt" ] ||
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSML_WITH_GUI=OFF \
      -DSML_WITH_CAIRO=OFF "${args[@]}" >"$L/$dir.configure.log" 2>&1 || return 1
  if [ ${#targets[@]} -gt 0 ]; then
    cmake --build "$dir" -j"${JOBS:-8}" --target "${targets[@]}" >"$L/$dir.build.log" 2>&1
  else
    cmake --build "$dir" -j"${JOBS:-8}" >"$L/$dir.build.log" 2>&1
  fi
}

CLI=build-dev/app/cli/softmaxlab-cli
GPU_TARGETS=(softmaxlab-cli gpu_test_best gpu_test_kernels gpu_test_profiler gpu_test_runner
             test_viewmodel_gpu test_viewmodel_lab_gpu sml_ptx)

elapsed() { echo $(( $(date +%s) - START )); }
left() { echo $(( ${CALL_LIMIT:-560} - $(elapsed) )); }

# The suites whose paths depend on the GPU's limits, under each profile named, while the call has
# time for one more (about 30 s each); the rest are named in the summary.
profile_suites() {
  local skipped=()
  for p in "$@"; do
    if [ "$(left)" -lt 40 ]; then skipped+=("$p"); continue; fi
    SML_DEVICE_PROFILE=$p ctest_line "profile-$p" --test-dir build-dev -L gpu \
      -R '(BestPaths|BestAllN|KernelRange|KernelCorrectness|GpuRunner)' -j6
  done
  [ ${#skipped[@]} -eq 0 ] ||
    say "profiles not run (time): ${skipped[*]}; run them with PROFILES='${skipped[*]}' bash bench/device_check.sh profiles"
}

ctest_line() {  # label, ctest args...: runs ctest and says one line with its totals
  local label=$1; shift
  local log="$L/ctest-$label.log"
  ctest --output-on-failure "$@" >"$log" 2>&1
  local rc=$?
  say "ctest $label: rc=$rc, $(grep -E 'tests passed' "$log" | tail -1)"
  grep -E "\(Failed\)|\(Timeout\)|\*\*\*Failed|Not Run" "$log" | head -8 | tee -a "$L/summary.txt"
  return $rc
}

if [ "$PHASE" = tests ]; then
  t0=$(date +%s)
  JOBS=10 configure_build build-dev -- "${GPU_TARGETS[@]}" &
  p1=$!
  if [ "${QUICK:-0}" = 1 ]; then  # this GPU's build only: no sm_80 build, profiles or tuning
    true &
  else
    JOBS=6 configure_build build-sm80 -DCMAKE_CUDA_ARCHITECTURES=80 -- softmaxlab-cli \
      gpu_test_best gpu_test_kernels gpu_test_profiler gpu_test_runner test_viewmodel_gpu &
  fi
  p2=$!
  wait $p1; r1=$?
  wait $p2; r2=$?
  say "build-dev (this GPU): rc=$r1; build-sm80 (sm_80 only): rc=$r2; $(( $(date +%s) - t0 )) s"
  [ $r1 = 0 ] || { tail -30 "$L/build-dev.build.log"; exit 1; }
  "$CLI" device 2>&1 | tee -a "$L/summary.txt"
  # Counters need the GPU to themselves, and the lab's faults and loops run alone: those suites
  # are RUN_SERIAL (tests/CMakeLists.txt), everything else 4 at a time.
  ctest_line default --test-dir build-dev -L gpu -j4
  if [ "${QUICK:-0}" = 1 ]; then
    BUILD=build-dev SKIP_BUILD=1 OUT="$L/lab" timeout 300 bash bench/lab_device_check.sh \
      >"$L/lab.log" 2>&1
    say "lab check: rc=$?"
    sed -n '/=== lab device check: summary ===/,$p' "$L/lab.log" | tee -a "$L/summary.txt"
    exit 0
  fi
  if [ $r2 = 0 ]; then
    build-sm80/app/cli/softmaxlab-cli device 2>&1 | grep -E "kernel code|GPU" | tee -a "$L/summary.txt"
    ctest_line sm80 --test-dir build-sm80 -L gpu -j4 -E 'test_viewmodel_lab_gpu_not_built' 
  else
    tail -20 "$L/build-sm80.build.log"
  fi
  # Every device profile: the suites whose paths depend on the GPU's limits.
  profile_suites $("$CLI" list --profiles | awk '{print $1}')
  # Best's one-block two-pass shapes on classes without clusters, where rows of 32768-65536
  # fp32 values take two passes (bench/peers.py --tune).
  # (The library build takes 60-90 s and each run up to 120 s: not begun without time for one.)
  if [ "${SKIP_TUNE:-0}" = 1 ]; then
    :
  elif [ "$(left)" -lt 220 ]; then
    say "tune two-pass: not run ($(left) s left of the call; it needs about 220)"
  elif bash bench/build_libsmlbest.sh /tmp/libsmlbest.so >"$L/lib.log" 2>&1; then
    for p in a100 l4 t4; do
      for d in fp32 bf16; do
        [ "$(left)" -gt 130 ] || { say "tune two-pass under $p $d: not run (time)"; continue; }
        SML_DEVICE_PROFILE=$p timeout 120 python3 bench/peers.py --lib /tmp/libsmlbest.so --tune \
          --only "two-pass|auto" --cols 32769,40000,49152,65536 --dtype $d --samples 20 \
          --out "$L/tune-$p-$d" >"$L/tune-$p-$d.log" 2>&1
        say "tune two-pass under $p $d: rc=$?"
        sed -n '/^| N |/,$p' "$L/tune-$p-$d.log" | tee -a "$L/summary.txt"
      done
    done
  fi
  exit 0
fi

if [ "$PHASE" = profiles ]; then
  JOBS=14 configure_build build-dev -- "${GPU_TARGETS[@]}" || { say "build failed"; exit 1; }
  profile_suites ${PROFILES:-$("$CLI" list --profiles | awk '{print $1}')}
  exit 0
fi

if [ "$PHASE" = peers ]; then
  # The peers tables' runs (README, "best against torch.softmax and the Triton tutorial").
  bash bench/build_libsmlbest.sh /tmp/libsmlbest.so >"$L/libsmlbest.log" 2>&1 ||
    { say "libsmlbest build failed"; tail -20 "$L/libsmlbest.log"; exit 1; }
  for d in fp16 bf16 fp32; do
    [ "$(left)" -gt 60 ] || { say "peers $d: not run (time)"; continue; }
    timeout "$(left)" python3 bench/peers.py --lib /tmp/libsmlbest.so --samples 20 --dtype "$d" \
      --triton-max-block 262144 --out "$L/peers" >"$L/peers-$d.txt" 2>&1
    say "peers $d: rc=$?"
  done
  exit 0
fi

if [ "$PHASE" = measure ]; then
  JOBS=14 configure_build build-dev -- softmaxlab-cli || { say "build failed"; exit 1; }
  bash bench/build_libsmlbest.sh /tmp/libsmlbest.so >"$L/libsmlbest.log" 2>&1 &
  lib=$!
  # 1. best at the sweep's N from 128 to 65536 under every profile (1 GiB of fp32 a point).
  COLS=128,256,512,1000,1024,1025,2048,3000,4096,8192,8193,12288,16384,16385,32768,65536
  for p in $("$CLI" list --profiles | awk '{print $1}'); do
    "$CLI" --device-profile "$p" sweep --kernels best --cols "$COLS" --metrics off \
      --out "$L/best-$p.json" >"$L/best-$p.log" 2>&1
    say "best under $p: rc=$?"
  done
  python3 - "$L" <<'EOF' | tee -a "$L/summary.txt"
import glob, json, os, sys
rows = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], "best-*.json"))):
    s = json.load(open(f))
    pts = [p for p in s["points"] if p.get("pct_of_copy") is not None]
    if not pts:
        continue
    worst = min(pts, key=lambda p: p["pct_of_copy"])
    rows.append((os.path.basename(f)[5:-5], len(pts), min(p["pct_of_copy"] for p in pts),
                 worst["cols"], sum(1 for p in pts if p["pct_of_copy"] >= 90)))
print("| profile | points | worst % of copy | at N | >= 90% |")
print("|---|---|---|---|---|")
for r in rows:
    print(f"| {r[0]} | {r[1]} | {r[2]:.1f}% | {r[3]} | {r[4]} |")
EOF
  # 2. The full sweep with counters, as the recorded session was made, and best against it.
  "$CLI" sweep --variants all --extra naive:4096x1024 --out "$L/session.json" \
    --csv "$L/session.csv" >"$L/sweep.log" 2>&1
  say "full sweep: rc=$? ($(tail -1 "$L/sweep.log"))"
  python3 - "$L/session.json" assets/sessions/h100-2026-11-23.json <<'EOF' | tee -a "$L/summary.txt"
import json, sys
new, old = (json.load(open(p)) for p in sys.argv[1:3])
def best(s):
    return {p["cols"]: p["pct_of_copy"] for p in s["points"]
            if p["kernel"] == "best" and p.get("pct_of_copy") is not None}
a, b = best(new), best(old)
gpus = [s.get("device", {}).get("name", "?") for s in (new, old)]
print(f"this run on {gpus[0]}; the recorded session on {gpus[1]}" +
      ("" if gpus[0] == gpus[1] else ": different GPUs, so the differences are the GPUs' as well"))
print("| N | best now (% of copy) | 2026-11-23 | difference |")
print("|---|---|---|---|")
diffs = []
for n in sorted(set(a) & set(b)):
    diffs.append(a[n] - b[n])
    print(f"| {n} | {a[n]:.1f} | {b[n]:.1f} | {a[n] - b[n]:+.1f} |")
if diffs:
    print(f"best: {len(diffs)} N, mean difference {sum(diffs) / len(diffs):+.2f} points, "
          f"largest {max(diffs, key=abs):+.2f}")
EOF
  # 3. The code views' recording (SASS + PTX with the sources' hashes) of this build and sweep.
  timeout 240 bash bench/record_code.sh build-dev "$L/code.tar.xz" "$L/session.json" \
    >"$L/record-code.log" 2>&1
  say "record code: rc=$? ($(ls -la "$L/code.tar.xz" 2>/dev/null | awk '{print $5}') bytes)"
  # 4. The lab bench's GPU paths (bench/lab_device_check.sh) on this build.
  BUILD=build-dev OUT="$L/lab" timeout 360 bash bench/lab_device_check.sh >"$L/lab.log" 2>&1
  say "lab check: rc=$?"
  sed -n '/=== lab device check: summary ===/,$p' "$L/lab.log" | tee -a "$L/summary.txt"
  # 5. The README's seeded scans of best at N nobody tuned on, as far as the call has time.
  wait $lib
  if [ "${SKIP_SCAN:-0}" != 1 ] && [ -f /tmp/libsmlbest.so ]; then
    scan() {  # name, scan_best.py arguments...
      local name=$1; shift
      [ "$(left)" -gt 30 ] || { say "scan $name: not run (time)"; return; }
      timeout "$(left)" python3 bench/scan_best.py --lib /tmp/libsmlbest.so "$@" \
        --out "$L/scan-$name.json" >"$L/scan-$name.txt" 2>&1
      say "scan $name: rc=$? ($(head -1 "$L/scan-$name.txt"))"
      sed -n '/^| N band/,/^wrote/p' "$L/scan-$name.txt" | grep '^|' | tee -a "$L/summary.txt"
    }
    scan full --count "${SCAN_COUNT:-90}"
    scan past2m --lo 2097152 --count "${SCAN_BAND_COUNT:-30}"
    scan 1m2m --lo 1048576 --hi 2097152 --count "${SCAN_BAND_COUNT:-30}"
  fi
  exit 0
fi
