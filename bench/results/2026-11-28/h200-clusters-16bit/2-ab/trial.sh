#!/bin/bash
# Session 29, call 2: the 16-bit cluster rule (and the DRAM clock query) as a library against
# HEAD's, at fresh draws; the tune at the tile's 16-bit rows and the held grid's 3-team rows.
set -o pipefail
export SML_GIT_COMMIT=$1
date -u +"start %F %T UTC" | tee $OUT/times.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/gpu.txt
bash bench/build_libsmlbest.sh --trial /tmp/trial old=tmp_trial/old N=. > $OUT/build.txt 2>&1 ||
    { tail -40 $OUT/build.txt; exit 1; }
cat /tmp/trial/*.units > $OUT/units.txt
date -u +"built %T" | tee -a $OUT/times.txt
L="old=/tmp/trial/old.so N=/tmp/trial/N.so"
ab() {  # name args...
    local name=$1; shift
    timeout 200 python3 bench/ab_libs.py --rounds 2 "$@" --out $OUT/ab-$name.json > $OUT/ab-$name.txt 2>&1
    date -u +"$name %T" | tee -a $OUT/times.txt
}
ab 16-band --draw 380000:500000:16 --dtypes fp16,bf16 $L
ab 16-wide --draw 262144:1048576:10 --dtypes fp16,bf16 $L
ab fp32-wide --draw 131072:1048576:8 --dtypes fp32 $L
tune() {  # name dtype cols args...
    local name=$1 dtype=$2 cols=$3; shift 3
    timeout 150 python3 bench/peers.py --lib /tmp/trial/N.so --tune --no-peers --dtype $dtype \
        --cols $cols "$@" --out $OUT/tune-$name > $OUT/tune-$name.txt 2>&1
    date -u +"tune $name %T" | tee -a $OUT/times.txt
}
tune tile-fp16 fp16 567,671,822,985 --only "auto|tile"
tune tile-bf16 bf16 574,866,867,949 --only "auto|tile"
tune t3-fp32 fp32 3378722,3511685,3921059 --only auto --vary prefetch=0 --vary prefetch=2 --vary prefetch=6
tune t3-fp16 fp16 6314779,6899468,7585819 --only auto --vary prefetch=0 --vary prefetch=2 --vary prefetch=6
for f in $OUT/ab-*.txt; do echo "== $f"; grep -v "^round" $f | tail -30; done
cd $OUT && tar czf trial.tar.gz ab-* tune-* times.txt gpu.txt build.txt units.txt && rm -rf ab-* tune-* build.txt units.txt
