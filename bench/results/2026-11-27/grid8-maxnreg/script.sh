#!/bin/bash
# A/B: the 16-bit 8-pack lag-2 grid kernel as its own __global__ with __maxnreg__(144)
set -x
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
(bash bench/build_libsmlbest.sh /tmp/old.so bench/exOld > $OUT/build-old.log 2>&1) &
bash bench/build_libsmlbest.sh /tmp/new.so > $OUT/build-new.log 2>&1
wait
ls -la /tmp/old.so /tmp/new.so
date -u
timeout 240 python3 bench/ab_libs.py --draw 1100000:2162688:16 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-draw.json old=/tmp/old.so new=/tmp/new.so > $OUT/ab.txt 2>&1
timeout 200 python3 bench/ab_libs.py --cols 1380001,1403905,1403904,1511199,1377044,1131836,1224784,1797564,1600001 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-cols.json old=/tmp/old.so new=/tmp/new.so >> $OUT/ab.txt 2>&1
timeout 100 python3 bench/ab_libs.py --cols 700001,755675,811009,600001 --dtypes fp32 --rounds 2 --out $OUT/fp32-cols.json old=/tmp/old.so new=/tmp/new.so >> $OUT/ab.txt 2>&1
date -u
