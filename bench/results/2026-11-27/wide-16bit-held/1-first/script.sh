#!/bin/bash
# A/B: 16-bit rows that would take the kWide grid (edge warp on 512 main threads) take the held grid
set -x
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ls -la /tmp/old.so || (bash bench/build_libsmlbest.sh /tmp/old.so bench/exOld > $OUT/build-old.log 2>&1) &
bash bench/build_libsmlbest.sh /tmp/new.so > $OUT/build-new.log 2>&1
wait
ls -la /tmp/old.so /tmp/new.so
date -u
timeout 200 python3 bench/ab_libs.py --draw 1990000:2162688:12 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-draw.json old=/tmp/old.so new=/tmp/new.so > $OUT/ab.txt 2>&1
timeout 150 python3 bench/ab_libs.py --cols 2155991,2082397,2075957,2053480,2103145,2162687 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-cols.json old=/tmp/old.so new=/tmp/new.so >> $OUT/ab.txt 2>&1
date -u
