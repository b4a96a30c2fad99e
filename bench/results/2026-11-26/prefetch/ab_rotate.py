"""EXPERIMENT: the held grid's prefetch of each block's own places (own K) against places of K
other blocks spread over the team (rot K, Config::spread = 1); interleaved with copy."""
import sys
sys.path.insert(0, "bench")
import torch
from peers import BestLib, Timer, DTYPES, TOLERANCE, check

lib, dtype, cols_list, ks = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
ks = [int(k) for k in ks.split(",")]
tdtype, code = getattr(torch, DTYPES[dtype][0]), DTYPES[dtype][1]
esize = torch.tensor([], dtype=tdtype).element_size()
best = BestLib(lib)
timer = Timer(20)
for cols in [int(c) for c in cols_list.split(",")]:
    rows = max(1, (1 << 30) // (esize * cols))
    pick = best.auto(rows, cols, code)
    if pick["path"] != 3 or pick["lag"] != 0:
        print(f"{dtype} N={cols}: not the held grid", flush=True)
        continue
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float32).to(tdtype)
    y = torch.empty_like(x)
    fns = {"copy": lambda: y.copy_(x)}
    for k in [k for k in ks if k <= pick["packs"]]:
        for rot in (0, 1):
            v = best.values(dict(pick, prefetch=k, spread=rot))
            fns[f"{'rot' if rot else 'own'}{k}"] = (lambda v=v: best.run(x, y, code, v) or y)
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
    print(f"{dtype} N={cols} teams={pick['teams']} rule={pick['prefetch']} {line}"
          + (f"  WRONG {bad}" if bad else ""), flush=True)
