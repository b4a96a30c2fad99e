set -o pipefail
bash bench/build_libsmlbest.sh /tmp/lib-new.so . > $OUT/build-new.txt 2>&1 || exit 1
one="path=3,threads=1024,lag=0,cluster=132,teams=1,stash=14"
C=(--config "$one,packs=8" --config "$one,packs=7" --config "$one,packs=6" --config "$one,packs=8,stream=1" --config "$one,packs=7,stream=1" --config "$one,packs=6,stream=1")
four="path=3,threads=512,lag=0,cluster=66,teams=4"
D=(--config "$four,packs=8,stash=11" --config "$four,packs=7,stash=12" --config "$four,packs=6,stash=13")
run() { python3 bench/peers.py --lib /tmp/lib-new.so --tune --samples 20 --dtype $1 --cols $2 \
      --only "auto|cfg" "${@:3}" --out /tmp/abj 2>&1 | grep -E "^\| " | tee -a $OUT/ab.txt; }
for r in 1 2; do
  echo "## round $r" | tee -a $OUT/ab.txt
  run fp32 9000001,12000007,16777216 "${C[@]}"
  run bf16 13000007,20000003,24000001 "${C[@]}"
  run fp16 9000011,16000057 "${C[@]}"
  run bf16 5000003 "${D[@]}"
  run fp16 5000011 "${D[@]}"
done
