#!/bin/bash
# A/B: 8-pack lag-2 grid kernel built for two blocks an SM (launch bounds min 2 -> 128 regs)
set -x
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1
(bash bench/build_libsmlbest.sh /tmp/old.so bench/exOld > $OUT/build-old.log 2>&1) &
bash bench/build_libsmlbest.sh /tmp/new.so > $OUT/build-new.log 2>&1
wait
ls -la /tmp/old.so /tmp/new.so
date -u
timeout 200 python3 bench/ab_libs.py --draw 560000:1081344:12 --dtypes fp32 --rounds 2 --out $OUT/fp32-draw.json old=/tmp/old.so new=/tmp/new.so > $OUT/ab.txt 2>&1
timeout 200 python3 bench/ab_libs.py --draw 1100000:2162688:14 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-draw.json old=/tmp/old.so new=/tmp/new.so >> $OUT/ab.txt 2>&1
timeout 120 python3 bench/ab_libs.py --cols 680001,700001,740001,600032,786432,1000001 --dtypes fp32 --rounds 2 --out $OUT/fp32-cols.json old=/tmp/old.so new=/tmp/new.so >> $OUT/ab.txt 2>&1
timeout 120 python3 bench/ab_libs.py --cols 1380001,1403905,1403904,1800001 --dtypes fp16,bf16 --rounds 2 --out $OUT/b16-cols.json old=/tmp/old.so new=/tmp/new.so >> $OUT/ab.txt 2>&1
date -u
