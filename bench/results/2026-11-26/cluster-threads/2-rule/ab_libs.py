"""DIAGNOSTIC (timing only, outputs not checked): the dispatcher's pick from several
libraries, interleaved with copy in one process. Usage: tmp_ab.py DTYPE N,N,... LIB..."""
import sys
sys.path.insert(0, "bench")
import torch
from peers import BestLib, Timer, DTYPES
dtype, cols_list, libs = sys.argv[1], sys.argv[2], sys.argv[3:]
tdtype, code = getattr(torch, DTYPES[dtype][0]), DTYPES[dtype][1]
esize = torch.tensor([], dtype=tdtype).element_size()
bests = {l.split("/")[-1].replace(".so", ""): BestLib(l) for l in libs}
timer = Timer(20)
for cols in [int(c) for c in cols_list.split(",")]:
    rows = max(1, (1 << 30) // (esize * cols))
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float32).to(tdtype)
    y = torch.empty_like(x)
    fns = {"copy": lambda: y.copy_(x)}
    for n, b in bests.items():
        fns[n] = lambda b=b: b.run(x, y, code) or y
    t = timer.interleaved(fns)
    c = t["copy"]["median_ms"]
    line = " ".join(f"{n} {100 * c / t[n]['median_ms']:.1f}" if not isinstance(t[n], str) else f"{n} {t[n]}" for n in bests)
    b0 = next(iter(bests.values()))
    print(f"{dtype} N={cols} {line} [" + " / ".join(b.describe(cols, code) for b in bests.values()) + "]", flush=True)
