"""EXPERIMENT (not kept in bench/): the held grid with the block's first K places of row r + 1
prefetched into L2 while it waits for the team's merge (Config::prefetch), each the dispatcher's own pick otherwise; interleaved, 1 GiB a point, with copy."""
import os, sys
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
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float32).to(tdtype)
    y = torch.empty_like(x)
    pick = best.auto(rows, cols, code)
    if pick["path"] != 3 or pick["lag"] != 0:
        print(f"{dtype} N={cols}: not the held grid ({best.describe(cols, code)})", flush=True)
        continue
    fns = {"copy": lambda: y.copy_(x)}
    for k in [k for k in ks if k <= pick["packs"]]:
        v = best.values(dict(pick, prefetch=k))
        fns[f"pf{k}"] = (lambda v=v: best.run(x, y, code, v) or y)
    sample = sorted(set([0, 1, rows // 2, rows - 1]))
    bad = []
    for n, fn in fns.items():
        p = check(n, fn, x, y, sample)
        if p["status"] != "ok" or (n != "copy" and p["max_rel_error"] > TOLERANCE[dtype]):
            bad.append(f"{n}: {p}")
    t = timer.interleaved(fns)
    c = t["copy"]["median_ms"]
    desc = f"cluster={pick['cluster']} threads={pick['threads']} stash={pick['stash']} teams={pick['teams']} stream={pick.get('stream')} rule={pick.get('prefetch')}"
    line = " ".join(f"{n} {100 * c / t[n]['median_ms']:.1f}" for n in fns if n != "copy" and not isinstance(t[n], str))
    print(f"{dtype} N={cols} rows={rows} [{desc}] {line}" + (f"  WRONG {bad}" if bad else ""), flush=True)
