"""Warp stall samples of the held grid's SASS page (profile_best.sh SOURCE=1), split at the
kernel's two __syncthreads (BAR.SYNC) a row: the samples before the first (loads, steps 1-2),
on the first instruction after each barrier (warps waiting there), and after the second
(step 4, the store phase). Usage: python3 phases.py sass-*.csv.gz"""
import csv
import gzip
import sys

for f in sys.argv[1:]:
    rows = list(csv.reader(gzip.open(f, "rt")))
    hdr, data = rows[1], rows[2:]
    si = hdr.index("Warp Stall Sampling (All Samples)")
    reasons = [h for h in hdr if h.startswith("stall_") and "Not Issued" not in h]
    total = sum(int(r[si]) for r in data)
    bars = [k for k, r in enumerate(data) if "BAR.SYNC" in r[1]]
    if len(bars) != 2:
        sys.exit(f"{f}: expected two BAR.SYNC, found {len(bars)}")
    samples = lambda a, b: sum(int(r[si]) for r in data[a:b])
    after1 = int(data[bars[0] + 1][si])
    # the second barrier's waiting warps are sampled on the BSSY a few instructions after it
    wait2 = max(int(data[k][si]) for k in range(bars[1] + 1, bars[1] + 5))
    parts = [("steps 1-2 (loads land, (max, sum))", samples(0, bars[0] + 1)),
             ("waiting at the block's first barrier", after1),
             ("publish, prefetch, slots", samples(bars[0] + 2, bars[1] + 1)),
             ("waiting at the second barrier (team merge)", wait2),
             ("step 4 (store row r, load row r + 1)", samples(bars[1] + 1, len(data)) - wait2)]
    print(f"{f}: {total} samples")
    for name, s in parts:
        print(f"  {100 * s / total:5.1f}%  {name}")
    by = {h: sum(float(r[hdr.index(h)]) for r in data if r[hdr.index(h)] not in ("", "-"))
          for h in reasons}
    print("  reasons: " + ", ".join(f"{h[6:]} {100 * v / total:.1f}%"
                                    for h, v in sorted(by.items(), key=lambda x: -x[1])[:6]))
