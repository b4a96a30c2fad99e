#!/usr/bin/env bash
# The recorded per-line counters in replay (issue 23): the heat gutter beside a lesson file, and
# per instruction in the SASS listing where the measured build is the listing's (warp), at the
# workshop size (1280x720, text 1.5x) and the desktop size (1600x1000). No GPU is used: the
# counters come from the committed H100 session. Written to assets/screenshots/lab/ (or $1) as
# 256-colour PNGs.
#
#   scripts/lab-screenshots.sh [out-dir]     needs build/app/viewer/softmaxlab, xvfb-run and
#                                            pngquant (apt-get install pngquant)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-assets/screenshots/lab}"
mkdir -p "$out"
source scripts/screenshot-common.sh
# Step 5 with smem's code at N = 4096: instructions per line beside the lesson.
shot gutter-smem-1600 1600x1000 --predict off --lesson 5 --kernel smem --cols 4096
# Step 3: warp's SASS at N = 1024, a count on every instruction, the source beside it.
shot gutter-warp-sass-1600 1600x1000 --predict off --lesson 3 --kernel warp --cols 1024 --code sass --zoom code
# A projector: the code panel alone, text 1.5x.
shot gutter-warp-1280 1280x720 --predict off --lesson 3 --kernel warp --cols 1024 --zoom code --text-scale 1.5
