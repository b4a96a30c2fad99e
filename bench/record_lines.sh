#!/usr/bin/env bash
# Adds per-line counters of the built-in lesson kernels to a recorded session, on the GPU
# machine (issue 23): builds softmaxlab-cli for this GPU, then runs
#   softmaxlab-cli lab lines --session SESSION --out $OUT/<same name>
# which runs each lesson file as a lab job (NVRTC, line info, CUPTI SASS metrics) at the shape
# of the session's point at N=4096 (1024 for kernels whose range ends there) and attaches the
# per-line counters to that point. The session's timings and counters are left as measured.
#
#   SML_GIT_COMMIT=$(git rev-parse --short HEAD) bash bench/record_lines.sh assets/sessions/h100-2026-11-25.json
set -uo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
SESSION=${1:?usage: record_lines.sh SESSION.json}
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
START=$(date +%s)
say() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a "$OUT/record-lines.txt"; }
say "record_lines on $(hostname), $(date -u +%Y-%m-%dT%H:%M:%SZ), commit ${SML_GIT_COMMIT:-unknown}"
say "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
[ -f build-lines/CMakeCache.txt ] ||
  cmake -S . -B build-lines -G Ninja -DCMAKE_BUILD_TYPE=Release -DSML_WITH_GUI=OFF \
    -DSML_WITH_CAIRO=OFF >"$OUT/configure.log" 2>&1 || { say "configure failed"; exit 1; }
cmake --build build-lines -j"${JOBS:-16}" --target softmaxlab-cli >"$OUT/build.log" 2>&1 ||
  { tail -30 "$OUT/build.log"; say "build failed"; exit 1; }
say "built"
CMD=(build-lines/app/cli/softmaxlab-cli lab lines --session "$SESSION"
     --out "$OUT/$(basename "$SESSION")" --time-limit 120)
say "command: ${CMD[*]}"
"${CMD[@]}" 2>&1 | tee -a "$OUT/record-lines.txt"
say "rc=${PIPESTATUS[0]}"
