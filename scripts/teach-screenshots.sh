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
mkdir -p "$out"
source scripts/screenshot-common.sh
# A learner's first guess for each step's first question (then R reveals the rest).
guesses=(90 3 85 4 3 5e6 66 80 1.4)
teach() { shot "$1" 1280x720 --text-scale 1.5 "${@:2}"; }  # name, viewer args...
for k in $(seq 0 8); do
  teach "step$k-predict" --lesson "$k"
  teach "step$k-revealed" --lesson "$k" --guess "${guesses[$k]}" --reveal
  teach "step$k-zh" --lesson "$k" --lang zh --guess "${guesses[$k]}" --reveal
done
