#!/bin/bash
# A/B: 16-bit rows with the edge warp on the 4-pack grid in two teams take the 8-pack grid in two teams
set -x
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
(bash bench/build_libsmlbest.sh /tmp/old.so bench/exOld > $OUT/build-old.log 2>&1) &
bash bench/build_libsmlbest.sh /tmp/new.so > $OUT/build-new.log 2>&1
wait
ls -la /tmp/old.so /tmp/new.so
date -u
timeout 200 python3 bench/ab_libs.py --draw 600000:1000000:16 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-draw.json old=/tmp/old.so new=/tmp/new.so > $OUT/ab.txt 2>&1
timeout 150 python3 bench/ab_libs.py --cols 812760,889256,686888,776408,770504,880472,859336,940888 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-cols.json old=/tmp/old.so new=/tmp/new.so >> $OUT/ab.txt 2>&1
date -u
