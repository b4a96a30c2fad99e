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
viewer=build/app/viewer/softmaxlab
session=$(ls assets/sessions/*.json | sort | tail -1)  # the newest recording
mkdir -p "$out"
shot() {  # name, WxH, extra args...
  local name=$1 size=$2
  shift 2
  local tmp
  tmp=$(mktemp --suffix=.png)
  CUDA_VISIBLE_DEVICES= xvfb-run -a -s "-screen 0 ${size}x24" "$viewer" --no-settings \
    --size "$size" --frames 6 --predict off --session "$session" --screenshot "$tmp" "$@" \
    >/dev/null 2>&1
  pngquant --force --quality 70-95 --speed 1 --output "$out/$name.png" 256 "$tmp"
  rm -f "$tmp"
  echo "$out/$name.png"
}
# Step 5 with smem's code at N = 4096: instructions per line beside the lesson.
shot gutter-smem-1600 1600x1000 --lesson 5 --kernel smem --cols 4096
# Step 3: warp's SASS at N = 1024, a count on every instruction, the source beside it.
shot gutter-warp-sass-1600 1600x1000 --lesson 3 --kernel warp --cols 1024 --code sass --zoom code
# A projector: the code panel alone, text 1.5x.
shot gutter-warp-1280 1280x720 --lesson 3 --kernel warp --cols 1024 --zoom code --text-scale 1.5
