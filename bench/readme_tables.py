#!/usr/bin/env python3
"""Prints the result tables of README.md and bench/README-peers.md from the recorded files.

The tables are generated, never typed: after a re-recording, run this and paste its output.
No GPU needed.

  python3 bench/readme_tables.py session   # README: the lesson kernels, from the session JSON
  python3 bench/readme_tables.py peers     # README: best in three dtypes next to its peers
  python3 bench/readme_tables.py fp32      # README-peers: one dtype, every N, with the targets
                                           # (also fp16, bf16)
(`peers.py --show FILE` prints the raw table of one results file, every contender.)
"""
import argparse
import glob
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The newest files by name (names carry the date), as the viewer and the tests find them.
SESSION = sorted(glob.glob(os.path.join(ROOT, "assets/sessions/*.json")))[-1]
RESULTS = {dtype: sorted(glob.glob(os.path.join(ROOT, f"bench/results/*-{dtype}.json")))[-1]
           for dtype in ("fp32", "fp16", "bf16")}
LESSON_KERNELS = ["naive", "fused", "warp", "block", "smem", "online", "online_tiled", "best"]
SESSION_COLS = [32, 128, 1024, 4096, 8192, 8193, 16384, 16385, 32768, 131072, 1048576]
PEERS_COLS = [32, 64, 128, 1024, 1025, 2049, 8192, 16384, 16385, 32768, 65536, 100003, 131072,
              262144, 300001, 524288, 600001, 1000003, 1048576]


def session_table():
    with open(SESSION) as f:
        session = json.load(f)
    # The 1 GiB points only (the session also holds an L2-resident naive point at N = 1024).
    points = {(p["kernel"], p["cols"]): p for p in session["points"]
              if p["variant"] == "" and p["dtype"] == "fp32" and p["rows"] * p["cols"] > 1 << 27}
    print("| N | " + " | ".join(LESSON_KERNELS) + " |")
    print("|---:|" + "---:|" * len(LESSON_KERNELS))
    for cols in SESSION_COLS:
        cells = []
        for kernel in LESSON_KERNELS:
            p = points.get((kernel, cols))
            cells.append(f"{p['gbps']:.0f} ({p['pct_of_copy']:.0f}%)" if p else "–")
        print(f"| {cols} | " + " | ".join(cells) + " |")


def load_peers(dtype):
    with open(RESULTS[dtype]) as f:
        result = json.load(f)
    return result, {(p["contender"], p["cols"]): p for p in result["points"]}


def gbps(point, pct=False):
    if point is None:
        return "not reached"  # the run stopped (time limit) before this point
    if point["status"].startswith("skipped"):
        return "not run"  # peers.py --triton-max-block
    if point["status"] != "ok":
        return "fails"
    return f"{point['gbps']:.0f} ({point['pct_of_copy']:.1f}%)" if pct else f"{point['gbps']:.0f}"


def peers_table():
    _, fp32 = load_peers("fp32")
    halves = [load_peers(t)[1] for t in ("fp16", "bf16")]
    print("| N | copy | torch.softmax | Triton tutorial | best, fp32 | best, fp16 | best, bf16 |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for cols in PEERS_COLS:
        cells = [gbps(fp32.get((who, cols))) for who in ("copy", "torch", "triton")]
        cells += [gbps(d.get(("best", cols)), pct=True) for d in [fp32] + halves]
        print(f"| {cols} | " + " | ".join(cells) + " |")


def issue7_target(cols):
    """Issue 7's bar for best, % of copy (None: no target at this N)."""
    if cols == 32:
        return 85
    if 128 <= cols <= 16384:
        return 95
    return 90 if cols >= 16385 else None


def dtype_table(dtype):
    result, points = load_peers(dtype)
    print(f"{dtype}: created {result['created_utc']} complete={result.get('complete')}")
    print("| N | copy GB/s | torch.softmax | Triton tutorial | best | best % of copy "
          "| issue-7 target | vs peers | best's shape |")
    print("|---:|---:|---:|---:|---:|---:|---|---|---|")
    for cols in sorted({c for (_, c) in points}):
        best = points.get(("best", cols))
        if best is None or best["status"] != "ok":
            continue
        copy, torch, triton = (points.get((who, cols)) for who in ("copy", "torch", "triton"))
        pct = best["pct_of_copy"]
        target = issue7_target(cols)
        met = "–" if target is None else \
            f"≥{target}% met" if pct >= target else f"≥{target}% **missed**"
        ahead = [name for name, p in (("torch", torch), ("Triton", triton))
                 if p and p["status"] == "ok" and p["gbps"] > best["gbps"]]
        versus = "≥ both" if not ahead else "below " + " and ".join(ahead)
        cells = [gbps(copy), gbps(torch), gbps(triton), f"{best['gbps']:.0f}", f"{pct:.1f}%",
                 met, versus, best.get("config", "")]
        print(f"| {cols} | " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("table", choices=["session", "peers", "fp32", "fp16", "bf16"])
    args = ap.parse_args()
    if args.table == "session":
        session_table()
    elif args.table == "peers":
        peers_table()
    else:
        dtype_table(args.table)


if __name__ == "__main__":
    main()
