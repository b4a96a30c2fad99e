#!/bin/bash
# Temporary: 16-bit tile rows, every tile shape the tune lists, at fresh N; SASS of one tile
# kernel; fp32 N = 148 against torch, five repeats.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
bash bench/build_libsmlbest.sh /tmp/lib.so . || exit 1
nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -DSML_HAVE_CUDA=1 -I. -cubin -o /tmp/tile.cubin kernels/best/tile.cu && cuobjdump -sass /tmp/tile.cubin | gzip > $OUT/tile-sass.txt.gz
date -u >> $OUT/gpu.txt
timeout 330 python3 - > $OUT/tile-tune.txt 2>&1 <<'PY'
import random, subprocess, math
seed = random.SystemRandom().randrange(1 << 32)
print(f"seed {seed} (drawn at run time)", flush=True)
rng = random.Random(seed)
pts = [(d, int(math.exp(rng.uniform(math.log(513), math.log(1024))))) for d in ("fp16", "bf16") for _ in range(5)]
pts += [(d, int(math.exp(rng.uniform(math.log(129), math.log(512))))) for d in ("fp16", "bf16") for _ in range(3)]
for dtype, n in pts:
    r = subprocess.run(["python3", "bench/peers.py", "--lib", "/tmp/lib.so", "--tune", "--no-peers",
                        "--dtype", dtype, "--cols", str(n), "--only", "auto|tile", "--samples", "30",
                        "--out", "/tmp/tt"], capture_output=True, text=True, timeout=90)
    print(f"== {dtype} N={n}", flush=True)
    print("\n".join(l for l in (r.stdout + r.stderr).splitlines() if l.startswith("|") or "rror" in l), flush=True)
PY
date -u >> $OUT/gpu.txt
(for k in 1 2 3 4 5; do timeout 60 python3 bench/peers.py --lib /tmp/lib.so --cols 148,150 --dtype fp32 --samples 30 --out /tmp/tie | grep -E "^\| 1"; done) > $OUT/tie-148.txt 2>&1
date -u >> $OUT/gpu.txt
