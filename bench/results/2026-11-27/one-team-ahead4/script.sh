#!/bin/bash
# A/B: the one-team 4-pack grid (lag 4) with 4 rows ahead instead of 2
set -x
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
(bash bench/build_libsmlbest.sh /tmp/old.so bench/exOld > $OUT/build-old.log 2>&1) &
bash bench/build_libsmlbest.sh /tmp/new.so > $OUT/build-new.log 2>&1
wait
ls -la /tmp/old.so /tmp/new.so
date -u
timeout 200 python3 bench/ab_libs.py --draw 1360000:2162688:14 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-draw.json old=/tmp/old.so new=/tmp/new.so > $OUT/ab.txt 2>&1
timeout 150 python3 bench/ab_libs.py --draw 811000:1081344:10 --dtypes fp32 --rounds 2 --out $OUT/fp32-draw.json old=/tmp/old.so new=/tmp/new.so >> $OUT/ab.txt 2>&1
timeout 150 python3 bench/ab_libs.py --cols 1380001,1403905,1511199,1652486,1745827 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-cols.json old=/tmp/old.so new=/tmp/new.so >> $OUT/ab.txt 2>&1
date -u
