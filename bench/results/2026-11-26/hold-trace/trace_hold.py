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
    bytes_row = 2 * cols * esize
    f = lambda v: f"{statistics.median(v) / 1000:.2f}" if v else "-"
    print(f"{dt} N={cols} rows={rows} {best.describe(cols, code)}: {ms:.3f} ms, "
          f"{2 * rows * cols * esize / ms / 1e6:.0f} GB/s; per row of a team (us, medians): "
          f"period {f(period)} (a team at copy speed {teams * bytes_row / 3.0e6:.2f}), publish spread {f(spread)}, "
          f"last publish -> merged {f(wait)}, store phase {f(store)}, stores issued -> next "
          f"publish {f(gap)}, step start -> publish {f(absorb)}", flush=True)
