#!/bin/bash
# A/B: 16-bit rows with the edge warp whose grid is one team take the held grid (any thread count)
set -x
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ls -la /tmp/old.so || (bash bench/build_libsmlbest.sh /tmp/old.so bench/exOld > $OUT/build-old.log 2>&1) &
cp /tmp/new.so /tmp/wide.so
bash bench/build_libsmlbest.sh /tmp/new.so > $OUT/build-new.log 2>&1
wait
ls -la /tmp/old.so /tmp/new.so /tmp/wide.so
date -u
timeout 240 python3 bench/ab_libs.py --draw 1300000:2040000:16 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-draw.json old=/tmp/old.so new=/tmp/new.so > $OUT/ab.txt 2>&1
timeout 200 python3 bench/ab_libs.py --cols 1380001,1403905,1511199,1600001,1652486,1745827,1797564,1900001,2000001 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-cols.json old=/tmp/old.so new=/tmp/new.so >> $OUT/ab.txt 2>&1
date -u
