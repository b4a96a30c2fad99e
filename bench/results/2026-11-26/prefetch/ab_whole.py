"""EXPERIMENT: the held grid in blocks of 1024 threads, one an SM (as many teams as hold the row,
as hold_for does for 512), with a quarter or a twelfth of the L2 prefetched, against the
dispatcher's pick (two of 512 an SM); interleaved with copy."""
import sys
sys.path.insert(0, "bench")
import torch
from peers import BestLib, Timer, DTYPES, TOLERANCE, check, slice_packs

lib, dtype, cols_list = sys.argv[1], sys.argv[2], sys.argv[3]
tdtype, code = getattr(torch, DTYPES[dtype][0]), DTYPES[dtype][1]
esize = torch.tensor([], dtype=tdtype).element_size()
vec = 16 // esize
best = BestLib(lib)
timer = Timer(20)
props = torch.cuda.get_device_properties(0)
sms, l2 = props.multi_processor_count, props.L2_cache_size


def shape(cols, threads, per_sm, share):
    most = (min(227 * 1024, 228 * 1024 // per_sm) - 2048) // (threads * 16)
    for teams in range(min(sms * per_sm, 64), 0, -1):
        blocks = sms * per_sm // teams
        held = -(-slice_packs(cols // vec, blocks) // threads)
        if held > 8 + most or blocks > threads:
            continue
        pf = max(0, min(8, l2 // share // (blocks * teams * threads * 16)))
        return dict(path=3, threads=threads, packs=8, stash=max(0, held - 8), cluster=blocks,
                    teams=teams, lag=0, prefetch=pf)
    return None


for cols in [int(c) for c in cols_list.split(",")]:
    rows = max(1, (1 << 30) // (esize * cols))
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float32).to(tdtype)
    y = torch.empty_like(x)
    fns = {"copy": lambda: y.copy_(x), "auto": lambda: best.run(x, y, code) or y}
    q = shape(cols, 1024, 1, 4)
    if q:
        for share in (4, 12):
            v = best.values(shape(cols, 1024, 1, share))
            fns[f"w1024/{share}"] = lambda v=v: best.run(x, y, code, v) or y
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
    qs = f"w=[{q['cluster']}x1024 teams {q['teams']} stash {q['stash']} pf {q['prefetch']}]" if q else "q=none"
    print(f"{dtype} N={cols} [{best.describe(cols, code)}] {qs} {line}"
          + (f"  WRONG {bad}" if bad else ""), flush=True)
