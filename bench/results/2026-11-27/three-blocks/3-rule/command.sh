#!/bin/bash
# Temporary: the three-blocks rule (working tree) against HEAD, at fresh N of its region.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
rm -rf bench/exO; mkdir -p bench/exO; git archive HEAD kernels common bench/best_capi.cu | tar -x -C bench/exO
bash bench/build_libsmlbest.sh /tmp/old.so bench/exO & bash bench/build_libsmlbest.sh /tmp/new.so . & wait
[ -f /tmp/old.so ] && [ -f /tmp/new.so ] || exit 1
date -u >> $OUT/gpu.txt
{
timeout 240 python3 bench/ab_libs.py --draw 262145:524288:16 --dtypes fp16,bf16 --rounds 2 --out $OUT/ab-16bit.json old=/tmp/old.so new=/tmp/new.so
timeout 150 python3 bench/ab_libs.py --draw 131073:262144:10 --dtypes fp32 --rounds 2 --out $OUT/ab-fp32.json old=/tmp/old.so new=/tmp/new.so
} > $OUT/ab.txt 2>&1
date -u >> $OUT/gpu.txt
(cd bench && timeout 120 python3 scan_best.py --lib /tmp/new.so --lo 131073 --hi 524288 --count 30 --out $OUT/scan-band.json > $OUT/scan-band.txt 2>&1)
date -u >> $OUT/gpu.txt
