#!/usr/bin/env bash
# One command: install dependencies, build, and run every test. GPU tests (CTest label "gpu")
# skip with a printed reason on machines without an NVIDIA GPU; run only them with
#   ctest --test-dir build -L gpu --output-on-failure
#
# Two configurations are tested:
#   build/         with the CUDA toolkit when there is one. On a machine with a GPU the kernels
#                  are built for it; without one (CI), for Turing (sm_75) and Hopper (sm_90)
#                  only, not every architecture: that keeps CI fast and still fails on a
#                  Hopper-only construct outside its guard.
#   build-nocuda/  the replay-only app, configured with nvcc hidden (SML_TEST_NO_CUDA=0 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
BUILD_DIR=${SML_BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ] && ! nvidia-smi >/dev/null 2>&1; then
  scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES="75-real;90"
else
  scripts/build.sh
fi
ctest --test-dir "$BUILD_DIR" --output-on-failure -j 2 "$@"

if [ "${SML_TEST_NO_CUDA:-1}" = 1 ]; then
  echo "== the replay-only build: no CUDA toolkit (nvcc hidden from PATH and CMake)"
  NOCUDA_DIR=${SML_NOCUDA_BUILD_DIR:-build-nocuda}
  # Every PATH folder that holds an nvcc (the toolkit's bin/, a wrapper in /usr/local/bin) is
  # left out, and CMake is told to look nowhere else.
  clean_path=$(printf '%s\n' "$PATH" | tr ':' '\n' | while read -r d; do
    [ -n "$d" ] && [ ! -e "$d/nvcc" ] && printf '%s\n' "$d"; done | paste -sd: -)
  env -u CUDACXX PATH="$clean_path" SML_BUILD_DIR="$NOCUDA_DIR" \
    scripts/build.sh -DSML_CUDA_HINTS= -DSML_WITH_CUDA=AUTO
  grep -q '^SML_HAVE_CUDA_FOUND:INTERNAL=OFF' "$NOCUDA_DIR/CMakeCache.txt" || {
    echo "error: $NOCUDA_DIR found a CUDA toolkit although nvcc was hidden" >&2; exit 1; }
  env -u CUDACXX PATH="$clean_path" ctest --test-dir "$NOCUDA_DIR" --output-on-failure -j 2 "$@"
fi
