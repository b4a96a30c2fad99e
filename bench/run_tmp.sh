set -o pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
bash bench/build_libsmlbest.sh /tmp/lib.so . > $OUT/build.txt 2>&1 || { tail -20 $OUT/build.txt; exit 1; }
cd bench
python3 scan_best.py --lib /tmp/lib.so --count 90 --out $OUT/scan-full.json > $OUT/scan-full.txt 2>&1; echo "full rc=$?" | tee -a $OUT/gpu.txt
date -u >> $OUT/gpu.txt
python3 scan_best.py --lib /tmp/lib.so --small > $OUT/small.txt 2>&1; echo "small rc=$?" | tee -a $OUT/gpu.txt
date -u >> $OUT/gpu.txt
tail -20 $OUT/scan-full.txt; tail -20 $OUT/small.txt
