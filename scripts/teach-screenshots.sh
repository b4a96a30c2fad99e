#!/usr/bin/env bash
# The projector screenshots of issue 22: every lesson step at 1280x720 with text at 1.5x, in
# predict mode before and after the reveal, and in Chinese, replaying the recorded H100 session.
# Written to assets/screenshots/teach/ (or $1), as 256-colour PNGs to keep the repository small.
#
#   scripts/teach-screenshots.sh [out-dir]     needs build/app/viewer/softmaxlab, xvfb-run and
#                                              pngquant (apt-get install pngquant)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-assets/screenshots/teach}"
viewer=build/app/viewer/softmaxlab
session=$(ls assets/sessions/*.json | sort | tail -1)  # the newest recording
mkdir -p "$out"
# A learner's first guess for each step's first question (then R reveals the rest).
guesses=(90 3 85 4 3 5e6 66 80 1.4)
shot() {  # name, extra args...
  local name=$1
  shift
  local tmp
  tmp=$(mktemp --suffix=.png)
  xvfb-run -a -s "-screen 0 1280x720x24" "$viewer" --no-settings --size 1280x720 --frames 6 \
    --text-scale 1.5 --session "$session" --screenshot "$tmp" "$@" >/dev/null 2>&1
  pngquant --force --quality 70-95 --speed 1 --output "$out/$name.png" 256 "$tmp"
  rm -f "$tmp"
  echo "$out/$name.png"
}
for k in $(seq 0 8); do
  shot "step$k-predict" --lesson "$k"
  shot "step$k-revealed" --lesson "$k" --guess "${guesses[$k]}" --reveal
  shot "step$k-zh" --lesson "$k" --lang zh --guess "${guesses[$k]}" --reveal
done
