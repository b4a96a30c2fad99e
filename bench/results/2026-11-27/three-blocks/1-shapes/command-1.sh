#!/bin/bash
# Temporary: a fresh scan at HEAD, then the 16-bit 16-block region against stash shapes.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
bash bench/build_libsmlbest.sh /tmp/lib.so . || exit 1
date -u >> $OUT/gpu.txt
(cd bench && timeout 200 python3 scan_best.py --lib /tmp/lib.so --count 90 --out $OUT/scan-full.json > $OUT/scan-full.txt 2>&1
 timeout 60 python3 scan_best.py --lib /tmp/lib.so --small > $OUT/small.txt 2>&1)
date -u >> $OUT/gpu.txt
timeout 300 python3 - > $OUT/dip.txt 2>&1 <<'PY'
import random, subprocess, sys, math
sys.path.insert(0, "bench")
from peers import BestLib
lib = BestLib("/tmp/lib.so")
seed = random.SystemRandom().randrange(1 << 32)
print(f"seed {seed} (drawn at run time)", flush=True)
rng = random.Random(seed)
def slice_packs(packs, blocks): return -(-(-(-packs // blocks)) // 8) * 8
for dtype in ("fp16", "bf16"):
    for _ in range(12):
        n = int(math.exp(rng.uniform(math.log(262145), math.log(524288))))
        vec = 8
        packs = -(-(n + (vec - 1 if n % vec else 0)) // vec)
        sl = slice_packs(packs, 16)
        cmd = ["python3", "bench/peers.py", "--lib", "/tmp/lib.so", "--tune", "--no-peers",
               "--dtype", dtype, "--cols", str(n), "--only", "auto|cfg", "--samples", "30",
               "--out", "/tmp/dipout"]
        for t in (256, 288, 320):
            s = -(-sl // t) - 8
            if s >= 1:
                cmd += ["--config", f"path=1,cluster=16,threads={t},packs=8,stash={s}"]
        print(f"== {dtype} N={n}: {lib.describe(n, 1 if dtype == 'fp16' else 2)}", flush=True)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        print("\n".join(l for l in (r.stdout + r.stderr).splitlines() if l.startswith("|") or "error" in l.lower() or "auto" in l), flush=True)
PY
