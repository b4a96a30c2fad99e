#!/usr/bin/env bash
# One command: install dependencies, build, and run every test. GPU tests (CTest label "gpu")
# skip with a printed reason on machines without an NVIDIA GPU; run only them with
#   ctest --test-dir build -L gpu --output-on-failure
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
BUILD_DIR=${SML_BUILD_DIR:-build}
ctest --test-dir "$BUILD_DIR" --output-on-failure -j 2 "$@"
