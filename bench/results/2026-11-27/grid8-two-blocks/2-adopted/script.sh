#!/bin/bash
# A/B 2: 9a9b56f (new) vs its parent (old), whole-line fp32 rows the cap newly admits, fresh draws;
# then a seeded scan of fp32 N in 2^19-2^20 with the new library.
set -x
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1
(bash bench/build_libsmlbest.sh /tmp/old.so bench/exOld > $OUT/build-old.log 2>&1) &
bash bench/build_libsmlbest.sh /tmp/new.so > $OUT/build-new.log 2>&1
wait
ls -la /tmp/old.so /tmp/new.so; date -u
timeout 150 python3 bench/ab_libs.py --cols 811008,819200,860160,901120,946176,800001,811001,811009 --dtypes fp32 --rounds 2 --out $OUT/fp32-cols.json old=/tmp/old.so new=/tmp/new.so > $OUT/ab.txt 2>&1
timeout 200 python3 bench/ab_libs.py --draw 600000:1000000:14 --dtypes fp32 --rounds 2 --out $OUT/fp32-draw.json old=/tmp/old.so new=/tmp/new.so >> $OUT/ab.txt 2>&1
timeout 100 python3 bench/ab_libs.py --draw 1100000:1600000:4 --dtypes fp16,bf16 --rounds 1 --out $OUT/b16-draw.json old=/tmp/old.so new=/tmp/new.so >> $OUT/ab.txt 2>&1
date -u
cd bench && timeout 240 python3 scan_best.py --lib /tmp/new.so --lo 524288 --hi 1048576 --count 30 --dtypes fp32 --out $OUT/scan-fp32-half.json > $OUT/scan-fp32-half.txt 2>&1
date -u
