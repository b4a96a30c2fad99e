# gpu_test_best on this tree (the H100, t4, rtx3060), then A/B: the held grid's shared-memory
# copies in 4 cp.async groups (this tree) against 2 (HEAD, bench/ab_old), the dispatcher's pick.
set -o pipefail
bash bench/build_libsmlbest.sh /tmp/lib-old.so bench/ab_old > $OUT/build-old.txt 2>&1 &
TEST_PROFILES="t4 rtx3060" SWEEP_PROFILES=none bash bench/profile_check.sh > /dev/null 2>&1
wait
cp /tmp/libsmlbest.so /tmp/lib-new.so
run() { python3 bench/peers.py --lib /tmp/lib-$1.so --tune --samples 20 \
  --dtype $2 --cols $3 --only auto --out /tmp/abj 2>&1 | grep -E "^N=" | grep -v " copy " | tee -a $OUT/ab.txt; }
for r in 1 2; do for v in old new; do
  echo "## round $r $v" | tee -a $OUT/ab.txt
  run $v fp32 1600033,3600011,7000003,9000001,11000009,16777216
  run $v fp16 2700019,5000011,16000057
  run $v bf16 7937118,13000007
done; done
