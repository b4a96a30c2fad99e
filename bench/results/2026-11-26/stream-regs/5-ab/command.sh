# A/B: the streamed held grid at 6 register packs (this tree) against HEAD's 8 (bench/ab_old),
# the dispatcher's own pick (auto), as the H100 and under the t4 and a100 profiles, alternating.
set -o pipefail
bash bench/build_libsmlbest.sh /tmp/lib-old.so bench/ab_old > $OUT/build-old.txt 2>&1 &
bash bench/build_libsmlbest.sh /tmp/lib-new.so . > $OUT/build-new.txt 2>&1 &
wait
ls /tmp/lib-old.so /tmp/lib-new.so || exit 1
run() { SML_DEVICE_PROFILE=$1 python3 bench/peers.py --lib /tmp/lib-$2.so --tune --samples 20 \
  --dtype $3 --cols $4 --only auto --out /tmp/abj 2>&1 | grep -E "^N=" | grep -v " copy " | tee -a $OUT/ab.txt; }
for r in 1 2; do for v in old new; do
  echo "## round $r $v" | tee -a $OUT/ab.txt
  run "" $v fp32 12000007,14500001,16777216,20000000
  run "" $v bf16 24000001,30000001
  run t4 $v fp32 1900007,2500000,4000037
  run t4 $v bf16 3700001,6000011
  run a100 $v fp32 8500007,12000007
  run a100 $v fp16 16000057
done; done
