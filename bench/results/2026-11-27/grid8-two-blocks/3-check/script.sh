#!/bin/bash
# A/B 3: 9712e12 (new) vs 3903e29 (old) at the low points of 2-adopted's scan and at the rule's
# edges; then the same scan's seed again, and a fresh seed, with the new library.
set -x
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git log --oneline -1
(bash bench/build_libsmlbest.sh /tmp/old.so bench/exOld > $OUT/build-old.log 2>&1) &
bash bench/build_libsmlbest.sh /tmp/new.so > $OUT/build-new.log 2>&1
wait
ls -la /tmp/old.so /tmp/new.so; date -u
timeout 200 python3 bench/ab_libs.py --cols 562132,612085,664401,633753,667951,884959,989053,787409,700001,819200,860160,828906 --dtypes fp32 --rounds 2 --out $OUT/fp32-cols.json old=/tmp/old.so new=/tmp/new.so > $OUT/ab.txt 2>&1
date -u
cd bench && timeout 150 python3 scan_best.py --lib /tmp/new.so --seed 1038509241 --lo 524288 --hi 1048576 --count 30 --dtypes fp32 --out $OUT/scan-repeat.json > $OUT/scan-repeat.txt 2>&1
timeout 150 python3 scan_best.py --lib /tmp/new.so --lo 524288 --hi 1048576 --count 30 --dtypes fp32 --out $OUT/scan-fresh.json > $OUT/scan-fresh.txt 2>&1
date -u
