#!/usr/bin/env bash
# The one script to run on the GPU machine (through the device tool): build, run the GPU tests,
# record the sweep session, and record the kernels' SASS and PTX (bench/record_code.sh). Everything
# it keeps goes to $OUT (at most 8 files, as the device tool returns no more): build.log,
# ctest_gpu.log, session.json, session.csv, sweep.log, code.tar.xz, summary.txt.
#
# Usage: bench/device_run.sh [options]
#   --skip-build        reuse an existing build dir
#   --skip-tests        do not run `ctest -L gpu`
#   --skip-sweep        do not run the sweep
#   --skip-sass         do not record SASS and PTX (code.tar.xz)
#   --quick             a reduced sweep for checking this script: 4 N values
#   --cols LIST         sweep N values (default: the CLI's ~20 values from 32 to 1048576)
#   --kernels LIST      sweep kernels (default: all)
#   --elements N        elements per point (default 268435456 = 1 GiB of fp32)
#   --metrics SET       off | default | deep (default: default)
#   --samples N         timed samples per point (default 20)
#   --variants SET      default | all (all: also smem's bank-conflicted layout)
#   --extra LIST        extra points <kernel>[/<variant>]:<rows>x<cols>, comma-separated
#   --build-dir DIR     build directory (default: build-device)
#   --jobs N            build parallelism (default 16)
# Example (from the repository root, through the device tool):
#   OUT=$OUT bench/device_run.sh --quick
set -uo pipefail
SCRIPT=$(readlink -f "$0")
cd "$(dirname "$SCRIPT")/.."

OUT=${OUT:-$PWD/out}
BUILD=build-device
JOBS=16
DO_BUILD=1 DO_TESTS=1 DO_SWEEP=1 DO_SASS=1
SWEEP_ARGS=()
die() { echo "device_run: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) DO_BUILD=0 ;;
    --skip-tests) DO_TESTS=0 ;;
    --skip-sweep) DO_SWEEP=0 ;;
    --skip-sass) DO_SASS=0 ;;
    --quick) SWEEP_ARGS+=(--cols 32,1024,16385,1048576) ;;
    --cols|--kernels|--elements|--metrics|--samples|--variants|--extra)
      [ $# -ge 2 ] || die "$1 needs a value"; SWEEP_ARGS+=("$1" "$2"); shift ;;
    --build-dir) [ $# -ge 2 ] || die "$1 needs a value"; BUILD=$2; shift ;;
    --jobs) [ $# -ge 2 ] || die "$1 needs a value"; JOBS=$2; shift ;;
    -h|--help) sed -n '2,24p' "$SCRIPT"; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
  shift
done
mkdir -p "$OUT"
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
say() { echo "$*" | tee -a "$SUMMARY"; }
say "device_run on $(hostname) at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
say "git: ${SML_GIT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
command -v nvidia-smi >/dev/null && say "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null)"
STATUS=0

# --- build ------------------------------------------------------------------------------------
if [ $DO_BUILD = 1 ]; then
  t0=$(date +%s)
  if cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSML_WITH_GUI=OFF \
       -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/build.log" 2>&1 &&
     cmake --build "$BUILD" -j"$JOBS" >>"$OUT/build.log" 2>&1; then
    say "build: ok in $(( $(date +%s) - t0 )) s"
  else
    say "build: FAILED (last lines of build.log follow)"
    grep -E "error|FAILED" "$OUT/build.log" | head -20 | tee -a "$SUMMARY"
    tail -15 "$OUT/build.log"
    exit 1
  fi
fi
CLI=$BUILD/app/cli/softmaxlab-cli
[ -x "$CLI" ] || { say "no $CLI: build first (drop --skip-build)"; exit 1; }
"$CLI" device 2>&1 | tee -a "$SUMMARY"

# --- GPU tests --------------------------------------------------------------------------------
if [ $DO_TESTS = 1 ]; then
  if ! ls "$BUILD"/tests/gpu_test_* >/dev/null 2>&1; then
    say "gpu tests: NOT BUILT (GoogleTest missing on this machine?)"
    STATUS=1
  elif ctest --test-dir "$BUILD" -L gpu --output-on-failure >"$OUT/ctest_gpu.log" 2>&1; then
    say "gpu tests: $(grep -E 'tests passed' "$OUT/ctest_gpu.log")"
  else
    say "gpu tests: FAILED: $(grep -E 'tests passed' "$OUT/ctest_gpu.log")"
    grep -E "\*\*\*|Failed|SKIPPED" "$OUT/ctest_gpu.log" | head -20 | tee -a "$SUMMARY"
    STATUS=1
  fi
fi

# --- sweep ------------------------------------------------------------------------------------
if [ $DO_SWEEP = 1 ]; then
  t0=$(date +%s%N)
  "$CLI" sweep "${SWEEP_ARGS[@]}" --out "$OUT/session.json" --csv "$OUT/session.csv" \
    >"$OUT/sweep.log" 2>&1
  rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  secs="$((ms / 1000)).$(printf %03d $((ms % 1000)))"
  say "sweep: exit $rc in ${secs} s (budget: 90 s for the full sweep with default metrics)"
  grep -v '^\[' "$OUT/sweep.log" | tee -a "$SUMMARY"
  [ $rc = 0 ] || STATUS=1
fi

# --- SASS and PTX -----------------------------------------------------------------------------
# Per kernel file, the entry points this session launched, with line info and the hashes of the
# sources (bench/record_code.sh). Commit code.tar.xz as assets/code/<device>-<date>-code.tar.xz.
if [ $DO_SASS = 1 ]; then
  session=""
  [ -f "$OUT/session.json" ] && session=$OUT/session.json
  if bash bench/record_code.sh "$BUILD" "$OUT/code.tar.xz" $session >"$OUT/code.log" 2>&1; then
    say "code: $(tail -1 "$OUT/code.log")"
  else
    say "code: FAILED (see code.log)"
    tail -5 "$OUT/code.log" | tee -a "$SUMMARY"
    STATUS=1
  fi
fi
say "device_run: exit $STATUS"
exit $STATUS
