#!/bin/bash
# claims A/B: old = 23dfcab kernels; new = claims in the held grid (env SML_CLAIM frac, SML_CLAIM_K)
M=$OUT/meta.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $M; date -u >> $M
( bash bench/build_libsmlbest.sh /tmp/old.so bench/exOld > /tmp/build_old.log 2>&1 ) &
( bash bench/build_libsmlbest.sh /tmp/new.so > /tmp/build_new.log 2>&1 ) &
wait
tail -5 /tmp/build_old.log /tmp/build_new.log >> $M
ls -la /tmp/old.so /tmp/new.so >> $M 2>&1 || { cat $M; exit 1; }
SEED=${SEED:-$(python3 -c 'import random;print(random.randrange(1<<31))')}
echo "seed $SEED" | tee -a $M
run() { # tag frac k early
  SML_CLAIM=$2 SML_CLAIM_K=$3 SML_CLAIM_EARLY=$4 timeout ${T:-170} python3 bench/ab_libs.py --cols 7000003,4122621,2500000,13000007,2836542 --dtypes fp32,bf16 --rounds 1 --out $OUT/$1.json old=/tmp/old.so new=/tmp/new.so > $OUT/$1.txt 2>&1
  echo "== $1 rc=$?"; tail -14 $OUT/$1.txt
}
run stash-only 5.0 2 2
run f75k2wait 0.75 2 -1
run f75k1wait 0.75 1 -1
date -u >> $M
