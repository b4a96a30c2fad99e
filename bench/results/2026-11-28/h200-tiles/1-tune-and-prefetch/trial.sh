#!/bin/bash
# Session 29, call 3: a quarter of the L2 prefetched by held rows of one row a team in teams
# (P) against the rule's sixth; the tile's 16-bit rows of 32 lanes at more rows than the pick.
set -o pipefail
export SML_GIT_COMMIT=$1
date -u +"start %F %T UTC" | tee $OUT/times.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/gpu.txt
bash bench/build_libsmlbest.sh --trial /tmp/trial old=. P=tmp_trial/P.diff > $OUT/build.txt 2>&1 ||
    { tail -40 $OUT/build.txt; exit 1; }
cat /tmp/trial/*.units > $OUT/units.txt
date -u +"built %T" | tee -a $OUT/times.txt
L="old=/tmp/trial/old.so P=/tmp/trial/P.so"
ab() {  # name args...
    local name=$1; shift
    timeout 200 python3 bench/ab_libs.py --rounds 2 "$@" --out $OUT/ab-$name.json > $OUT/ab-$name.txt 2>&1
    date -u +"$name %T" | tee -a $OUT/times.txt
}
ab fp32-3teams --draw 2700000:3960000:8 --dtypes fp32 $L
ab 16-3teams --draw 5400000:7920000:8 --dtypes fp16,bf16 $L
ab held-wide --draw 1048576:16777216:10 --dtypes fp32,fp16,bf16 $L
tune() {  # name dtype cols args...
    local name=$1 dtype=$2 cols=$3; shift 3
    timeout 150 python3 bench/peers.py --lib /tmp/trial/old.so --tune --no-peers --dtype $dtype \
        --cols $cols "$@" --out $OUT/tune-$name > $OUT/tune-$name.txt 2>&1
    date -u +"tune $name %T" | tee -a $OUT/times.txt
}
T="--only auto|cfg"
for r in 32 40 48 56 64; do T="$T --config path=4,width=32,packs=32,threads=256,rows=$r"; done
tune tile-fp16 fp16 601,681,752,771 $T
tune tile-bf16 bf16 536,842,928,953 $T
for f in $OUT/ab-*.txt; do echo "== $f"; grep -v "^round" $f | tail -30; done
cd $OUT && tar czf trial.tar.gz ab-* tune-* times.txt gpu.txt build.txt units.txt && rm -rf ab-* tune-* build.txt units.txt
