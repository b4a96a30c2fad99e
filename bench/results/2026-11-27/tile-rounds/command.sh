#!/bin/bash
# Temporary: tile rows rounded up to 32 KB (working tree) against HEAD, over the tile region.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
rm -rf bench/exO; mkdir -p bench/exO; git archive HEAD kernels common bench/best_capi.cu | tar -x -C bench/exO
bash bench/build_libsmlbest.sh /tmp/old.so bench/exO & bash bench/build_libsmlbest.sh /tmp/new.so . & wait
[ -f /tmp/old.so ] && [ -f /tmp/new.so ] || exit 1
date -u >> $OUT/gpu.txt
{
timeout 200 python3 bench/ab_libs.py --draw 16:1024:36 --rounds 2 --out $OUT/ab-all.json old=/tmp/old.so new=/tmp/new.so
timeout 120 python3 bench/ab_libs.py --draw 513:1024:12 --dtypes fp16,bf16 --rounds 2 --out $OUT/ab-32lanes.json old=/tmp/old.so new=/tmp/new.so
} > $OUT/ab.txt 2>&1
date -u >> $OUT/gpu.txt
