set -o pipefail
bash bench/build_libsmlbest.sh /tmp/lib-old.so bench/ab_old > $OUT/build-old.txt 2>&1 &
bash bench/build_libsmlbest.sh /tmp/lib-new.so . > $OUT/build-new.txt 2>&1 &
wait
ls -la /tmp/lib-*.so
h="path=3,threads=1024,lag=0,cluster=132,teams=1,stash=14"
C=(--config "$h,packs=8,stream=1" --config "$h,packs=7,stream=1" --config "$h,packs=8")
for r in 1 2; do for v in old new; do
  for d in fp32:9000001,12000007,14500001,16777216 bf16:20000003,24000001,30000001; do
    echo "## round $r $v ${d%%:*}" | tee -a $OUT/ab.txt
    python3 bench/peers.py --lib /tmp/lib-$v.so --tune --samples 20 --dtype ${d%%:*} --cols ${d#*:} \
      --only "auto|cfg" "${C[@]}" --out /tmp/abj 2>&1 | grep -E "^N=|^\| " | tee -a $OUT/ab.txt
  done
done; done
