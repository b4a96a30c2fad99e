#!/bin/bash
# Session 29, call 1: bench/build_libsmlbest.sh --trial on the device; 16-bit 16-block clusters
# against the held grid (A/B of libraries and the tune); the held grid's 3-team rows against two
# rows a team (the tune).
set -o pipefail
export SML_GIT_COMMIT=$1
date -u +"start %F %T UTC" | tee $OUT/times.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/gpu.txt
bash bench/build_libsmlbest.sh --trial /tmp/trial old=. H=tmp_trial/H.diff HS=tmp_trial/HS.diff \
    > $OUT/build.txt 2>&1 || { tail -40 $OUT/build.txt; exit 1; }
cat /tmp/trial/*.units > $OUT/units.txt
date -u +"built %T" | tee -a $OUT/times.txt
L="old=/tmp/trial/old.so H=/tmp/trial/H.so HS=/tmp/trial/HS.so"
ab() {  # name args...
    local name=$1; shift
    timeout 200 python3 bench/ab_libs.py --rounds 2 "$@" --out $OUT/ab-$name.json > $OUT/ab-$name.txt 2>&1
    date -u +"$name %T" | tee -a $OUT/times.txt
}
ab 16-clusters --draw 262144:524288:16 --dtypes fp16,bf16 $L
tune() {  # name dtype cols
    timeout 150 python3 bench/peers.py --lib /tmp/trial/old.so --tune --no-peers --only "auto|held2" \
        --dtype $2 --cols $3 --out $OUT/tune-$1 > $OUT/tune-$1.txt 2>&1
    date -u +"tune $1 %T" | tee -a $OUT/times.txt
}
tune c16-fp16 fp16 326401,347703,403705,420787,474016,477684
tune c16-bf16 bf16 288550,310269,385744,406851,426251,461896
tune t3-fp32 fp32 3003593,3441048,3485322
tune t3-fp16 fp16 5955889,7023006,7522534
tune t3-bf16 bf16 5998006,7310484,7922175
for f in $OUT/ab-*.txt; do echo "== $f"; grep -v "^round" $f | tail -40; done
cd $OUT && tar czf trial.tar.gz ab-* tune-* times.txt gpu.txt build.txt units.txt && rm -rf ab-* tune-* build.txt units.txt
