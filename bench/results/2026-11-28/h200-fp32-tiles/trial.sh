#!/bin/bash
# Session 30, call 1: fp32 tiles of fewer rows (the fewest whole rounds reaching 12 KB: F12, or
# 16 KB: F16, where 32 KB), against a192258's; 16-bit tiles unchanged.
set -o pipefail
source bench/trial_steps.sh
trial_start "$1"
trial_libs old=. F12=tmp_trial/F12.diff F16=tmp_trial/F16.diff || exit 1
trial_ab fp32-tiles --draw 16:512:16 --dtypes fp32
trial_ab fp32-tiles-wide --draw 257:512:8 --dtypes fp32
trial_tune fp32-narrow fp32 "$(python3 -c 'import random,math;r=random.Random();print(",".join(str(int(math.exp(r.uniform(math.log(17),math.log(256))))) for _ in range(5)))')" --only "auto|tile"
trial_pack
