#!/bin/bash
# Temporary: 16-block stash shapes at 160-320 threads against the pick; small calls interleaved.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
[ -f /tmp/lib.so ] || bash bench/build_libsmlbest.sh /tmp/lib.so . || exit 1
(cd bench && for k in 1 2; do timeout 60 python3 scan_best.py --lib /tmp/lib.so --small; done > $OUT/small.txt 2>&1)
date -u >> $OUT/gpu.txt
timeout 420 python3 - > $OUT/dip2.txt 2>&1 <<'PY'
import random, subprocess, sys, math
sys.path.insert(0, "bench")
from peers import BestLib
lib = BestLib("/tmp/lib.so")
seed = random.SystemRandom().randrange(1 << 32)
print(f"seed {seed} (drawn at run time)", flush=True)
rng = random.Random(seed)
def slice_packs(packs, blocks): return -(-(-(-packs // blocks)) // 8) * 8
plan = [("fp16", 262145, 524288, 6, (160, 192, 224, 256, 288, 320)),
        ("bf16", 262145, 524288, 6, (160, 192, 224, 256, 288, 320)),
        ("fp32", 131073, 262144, 8, (160, 192, 224, 256, 288, 320)),
        ("fp16", 524289, 800000, 4, (256, 320, 384)),
        ("bf16", 524289, 800000, 4, (256, 320, 384))]
for dtype, lo, hi, count, threads in plan:
    for _ in range(count):
        n = int(math.exp(rng.uniform(math.log(lo), math.log(hi))))
        vec = 4 if dtype == "fp32" else 8
        packs = -(-(n + (vec - 1 if n % vec else 0)) // vec)
        sl = slice_packs(packs, 16)
        cmd = ["python3", "bench/peers.py", "--lib", "/tmp/lib.so", "--tune", "--no-peers",
               "--dtype", dtype, "--cols", str(n), "--only", "auto|cfg", "--samples", "30",
               "--out", "/tmp/dipout"]
        for t in threads:
            s = -(-sl // t) - 8
            if s >= 1:
                cmd += ["--config", f"path=1,cluster=16,threads={t},packs=8,stash={s}"]
        code = {"fp32": 0, "fp16": 1, "bf16": 2}[dtype]
        print(f"== {dtype} N={n}: {lib.describe(n, code)}", flush=True)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        print("\n".join(l for l in (r.stdout + r.stderr).splitlines()
                        if l.startswith("|") or "error" in l.lower() or "wrong" in l.lower()),
              flush=True)
PY
date -u >> $OUT/gpu.txt
