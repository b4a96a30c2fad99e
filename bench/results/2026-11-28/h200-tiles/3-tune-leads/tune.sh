#!/bin/bash
# Session 29, call 7: leads for the next session, by the tune (one process, interleaved, with
# torch): fp32 tiles of 16 lanes (N 129-256), and 16-bit rows just past 1024 values.
set -o pipefail
export SML_GIT_COMMIT=$1
date -u +"start %F %T UTC" | tee $OUT/times.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/gpu.txt
bash bench/build_libsmlbest.sh /tmp/lib.so > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
date -u +"built %T" | tee -a $OUT/times.txt
C=""
for r in 48 64; do C="$C --config path=4,width=16,packs=16,threads=256,rows=$r"; done
timeout 100 python3 bench/peers.py --lib /tmp/lib.so --tune --torch --no-peers --dtype fp32 \
    --cols 133,137,169,175,206,212 $C > $OUT/tune-fp32-tiles.txt 2>&1
date -u +"fp32 %T" | tee -a $OUT/times.txt
timeout 60 python3 bench/peers.py --lib /tmp/lib.so --tune --torch --no-peers --dtype bf16 \
    --cols 1060,1111,1164,1208 > $OUT/tune-bf16-1k.txt 2>&1
date -u +"bf16 %T" | tee -a $OUT/times.txt
grep -E "GB/s|auto =" $OUT/tune-*.txt | sed 's/  (0.[0-9] s)//' | tail -80
