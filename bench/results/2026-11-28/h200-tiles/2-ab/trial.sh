#!/bin/bash
# Session 29, call 4: larger tiles (the fewest whole rounds reaching 56 KB, at most 74 KB: three
# an SM of 228 KB) for 16-bit rows of 32 lanes (TL) or every tile (TA), against c834901's.
set -o pipefail
export SML_GIT_COMMIT=$1
date -u +"start %F %T UTC" | tee $OUT/times.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/gpu.txt
bash bench/build_libsmlbest.sh --trial /tmp/trial old=. TL=tmp_trial/TL.diff TA=tmp_trial/TA.diff \
    > $OUT/build.txt 2>&1 || { tail -40 $OUT/build.txt; exit 1; }
cat /tmp/trial/*.units > $OUT/units.txt
date -u +"built %T" | tee -a $OUT/times.txt
L="old=/tmp/trial/old.so TL=/tmp/trial/TL.so TA=/tmp/trial/TA.so"
ab() {  # name args...
    local name=$1; shift
    timeout 200 python3 bench/ab_libs.py --rounds 2 "$@" --out $OUT/ab-$name.json > $OUT/ab-$name.txt 2>&1
    date -u +"$name %T" | tee -a $OUT/times.txt
}
ab 16-wide-tiles --draw 257:1024:16 --dtypes fp16,bf16 $L
ab 16-narrow-tiles --draw 16:256:12 --dtypes fp16,bf16 $L
ab fp32-tiles --draw 16:512:10 --dtypes fp32 $L
for f in $OUT/ab-*.txt; do echo "== $f"; grep -v "^round" $f | tail -30; done
cd $OUT && tar czf trial.tar.gz ab-* times.txt gpu.txt build.txt units.txt && rm -rf ab-* build.txt units.txt
