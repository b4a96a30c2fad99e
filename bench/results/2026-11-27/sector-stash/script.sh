#!/bin/bash
# A/B: 16-bit rows of whole packs off a 32-byte sector keep the stash instead of the edge-warp grid
set -x
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ls -la /tmp/old.so || (bash bench/build_libsmlbest.sh /tmp/old.so bench/exOld > $OUT/build-old.log 2>&1) &
bash bench/build_libsmlbest.sh /tmp/new.so > $OUT/build-new.log 2>&1
wait
ls -la /tmp/old.so /tmp/new.so
date -u
timeout 150 python3 bench/ab_libs.py --cols 812760,889256,880472,859336,940888,818888,928104,889304,939832,561320,931640 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-cols.json old=/tmp/old.so new=/tmp/new.so > $OUT/ab.txt 2>&1
date -u
