#!/bin/bash
# Session 30, call 2: 16-bit tiles of 8 and 16 values a lane on faster DRAM than an H100's, of
# the fewest whole rounds reaching 12 KB (H12), 16 KB (H16) or 24 KB (H24), where 32 KB, against
# 3d0116f's (fp32 tiles 12 KB there).
set -o pipefail
source bench/trial_steps.sh
trial_start "$1"
trial_libs old=. H12=tmp_trial/H12.diff H16=tmp_trial/H16.diff H24=tmp_trial/H24.diff || exit 1
trial_ab 16-tiles --draw 16:512:16 --dtypes fp16,bf16
trial_ab 16-tiles-mid --draw 96:512:10 --dtypes fp16,bf16
trial_tune fp16-narrow fp16 "$(python3 -c 'import random,math;r=random.Random();print(",".join(str(int(math.exp(r.uniform(math.log(17),math.log(512))))) for _ in range(4)))')" --only "auto|tile"
trial_pack
