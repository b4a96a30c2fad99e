#!/usr/bin/env bash
# One command: install dependencies, build, and start the softmaxlab viewer.
# Extra arguments go to the viewer (e.g. --lesson 2, --lang zh). Without a GPU the viewer replays
# the recorded H100 session in assets/sessions/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
BUILD_DIR=${SML_BUILD_DIR:-build}
if [ -x "$BUILD_DIR/app/viewer/softmaxlab" ]; then
  exec "$BUILD_DIR/app/viewer/softmaxlab" "$@"
fi
echo "viewer not built (GUI libraries missing); running the CLI instead" >&2
exec "$BUILD_DIR/app/cli/softmaxlab-cli" list
