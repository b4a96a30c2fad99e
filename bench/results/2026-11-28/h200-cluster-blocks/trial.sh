#!/bin/bash
# Session 30, call 6: portable clusters of two blocks an SM or fewer, on faster DRAM than an
# H100's: 16 blocks where those keep more blocks an SM and at least the rows in flight (T),
# against 3d0116f's.
set -o pipefail
source bench/trial_steps.sh
trial_start "$1"
trial_libs old=. T=tmp_trial/T.diff || exit 1
trial_ab fp32-clusters --draw 50000:140000:10 --dtypes fp32
trial_ab 16-clusters --draw 100000:280000:12 --dtypes fp16,bf16
trial_pack
