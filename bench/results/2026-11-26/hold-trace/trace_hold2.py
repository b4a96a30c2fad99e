# Per-block timestamps of the held grid (globaltimer, ns), from a libsmlbest.so built with
# SML_HOLD_TRACE: 0 step start, 1 published (its copies landed and taken in), 2 merged, 3 stores
# and next loads issued. Prints, per case, medians over rows of: the spread of blocks' publish
# times, the wait from the last publish to a block's merged result, the store phase, the period.
import ctypes, statistics, sys
import torch
sys.path.insert(0, "bench")
from peers import BestLib, DTYPES
path = sys.argv[1]
lib = ctypes.CDLL(path)
best = BestLib(path)
R, B, K = 128, 264, 4
buf = (ctypes.c_ulonglong * (R * B * K))()
cases = [(d, int(n)) for d, n in (a.split(":") for a in sys.argv[2:])]
for dt, cols in cases:
    tdtype, code = getattr(torch, DTYPES[dt][0]), DTYPES[dt][1]
    esize = torch.tensor([], dtype=tdtype).element_size()
    rows = (1 << 30) // (esize * cols)
    x = torch.randn(rows, cols, device="cuda").to(tdtype)
    y = torch.empty_like(x)
    cfg = best.auto(rows, cols, code)
    vals = best.values(cfg)
    for _ in range(3):
        best.run(x, y, code, vals)
    lib.sml_hold_trace_clear()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize(); s.record()
    best.run(x, y, code, vals)
    e.record(); torch.cuda.synchronize()
    ms = s.elapsed_time(e)
    lib.sml_hold_trace_read(buf, ctypes.sizeof(buf))
    blocks, teams = cfg["cluster"], max(1, cfg["teams"])
    T = lambda r, b, k: buf[(r * B + b) * K + k]
    spread, wait, store, absorb, period, gap = [], [], [], [], [], []
    n = min(rows, R)
    for r in range(n):
        t1 = [T(r, b, 1) for b in range(blocks)]
        t0 = [T(r, b, 0) for b in range(blocks)]
        t2 = [T(r, b, 2) for b in range(blocks)]
        t3 = [T(r, b, 3) for b in range(blocks)]
        if min(t1) == 0 or min(t3) == 0:
            continue
        spread.append(max(t1) - min(t1))
        wait.append(statistics.median(t2) - max(t1))
        store.append(statistics.median([b - a for a, b in zip(t2, t3)]))
        absorb.append(statistics.median([b - a for a, b in zip(t0, t1)]))
        if r + teams < n and min(T(r + teams, b, 2) for b in range(blocks)) > 0:
            period.append(statistics.median(T(r + teams, b, 2) for b in range(blocks)) -
                          statistics.median(t2))
            # from a block's stores issued to its next publish: its loads landing and its pass
            gap.append(statistics.median([T(r + teams, b, 1) - T(r, b, 3) for b in range(blocks)]))
    # Do the same blocks finish late row after row? Spearman correlation of the blocks' publish
    # times (minus the row's first) between rows r and r + teams of the same team, and the
    # blocks that were among the slowest tenth in more than half of the rows.
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        out = [0] * len(v)
        for k, i in enumerate(order):
            out[i] = k
        return out
    corr, slow_count = [], [0] * blocks
    tenth = max(1, blocks // 10)
    good = [r for r in range(n) if min(T(r, b, 1) for b in range(blocks)) > 0]
    for r in good:
        t1 = [T(r, b, 1) for b in range(blocks)]
        rk = ranks(t1)
        for b in range(blocks):
            if rk[b] >= blocks - tenth:
                slow_count[b] += 1
        if r + teams in good:
            rk2 = ranks([T(r + teams, b, 1) for b in range(blocks)])
            d2 = sum((a - b) ** 2 for a, b in zip(rk, rk2))
            corr.append(1 - 6 * d2 / (blocks * (blocks * blocks - 1)))
    persistent = sorted(b for b in range(blocks) if slow_count[b] > len(good) / 2)
    print(f"  rank correlation of publish times, row to next row: median "
          f"{statistics.median(corr) if corr else float('nan'):.2f} over {len(corr)} pairs; blocks "
          f"in the slowest tenth in more than half the rows: {persistent} (of {blocks}, "
          f"{len(good)} rows)", flush=True)
    bytes_row = 2 * cols * esize
    f = lambda v: f"{statistics.median(v) / 1000:.2f}" if v else "-"
    print(f"{dt} N={cols} rows={rows} {best.describe(cols, code)}: {ms:.3f} ms, "
          f"{2 * rows * cols * esize / ms / 1e6:.0f} GB/s; per row of a team (us, medians): "
          f"period {f(period)} (a team at copy speed {teams * bytes_row / 3.0e6:.2f}), publish spread {f(spread)}, "
          f"last publish -> merged {f(wait)}, store phase {f(store)}, stores issued -> next "
          f"publish {f(gap)}, step start -> publish {f(absorb)}", flush=True)
