"""EXPERIMENT: the dispatcher's pick against the held grid in one team of 132 x 1024 (every SM
one block) with K places a thread prefetched into L2, at each N; interleaved with copy, 1 GiB a
point, 20 samples, after a check against float64."""
import sys
sys.path.insert(0, "bench")
import torch
from peers import BestLib, Timer, DTYPES, TOLERANCE, check, slice_packs

lib, dtype, cols_list, ks = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
ks = [int(k) for k in ks.split(",")]
tdtype, code = getattr(torch, DTYPES[dtype][0]), DTYPES[dtype][1]
esize = torch.tensor([], dtype=tdtype).element_size()
vec = 16 // esize
best = BestLib(lib)
timer = Timer(20)
sms = torch.cuda.get_device_properties(0).multi_processor_count
most_stash = (227 * 1024 - 2048) // (1024 * 16)
for cols in [int(c) for c in cols_list.split(",")]:
    rows = max(1, (1 << 30) // (esize * cols))
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float32).to(tdtype)
    y = torch.empty_like(x)
    pick = best.auto(rows, cols, code)
    fns = {"copy": lambda: y.copy_(x), "auto": lambda: best.run(x, y, code) or y}
    held = -(-slice_packs(cols // vec, sms) // 1024)
    stash = max(0, held - 8)
    if stash <= most_stash:
        for k in ks:
            cfg = dict(path=3, cluster=sms, threads=1024, packs=8, stash=stash, teams=1, lag=0,
                       prefetch=k)
            v = best.values(cfg)
            fns[f"one{k}"] = (lambda v=v: best.run(x, y, code, v) or y)
    sample = sorted(set([0, 1, rows // 2, rows - 1]))
    bad = []
    for n, fn in fns.items():
        p = check(n, fn, x, y, sample)
        if p["status"] != "ok" or (n != "copy" and p["max_rel_error"] > TOLERANCE[dtype]):
            bad.append(f"{n}: {p}")
    t = timer.interleaved(fns)
    c = t["copy"]["median_ms"]
    line = " ".join(f"{n} {100 * c / t[n]['median_ms']:.1f}" for n in fns
                    if n != "copy" and not isinstance(t[n], str))
    print(f"{dtype} N={cols} rows={rows} [{best.describe(cols, code)}] {line}"
          + (f"  WRONG {bad}" if bad else ""), flush=True)
