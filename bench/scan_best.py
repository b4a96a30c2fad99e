#!/usr/bin/env python3
"""`best` at N nobody tuned on: a seeded, log-uniform scan against the same run's copy and torch.

For --count draws of (dtype, N), N log-uniform in [--lo, --hi] and the dtype drawn from --dtypes,
it times copy, torch.softmax and `best` interleaved on the same 1 GiB tensor (bench/peers.py's
Timer: CUDA events, L2 flushed before every sample, median of --samples), and checks `best`
against float64 at every point:
  - the timed tensor itself, output poisoned with NaN first, sampled rows;
  - an odd M (37; fewer for long rows, 3 at the least) with rows that start 1 and 3 elements off
    16 bytes (input and output), holding random rows and rows of NaN, +-inf, all -inf and 1e30.
A point that cannot finish (out of memory, say) is reported as ERROR with the reason, and is not
counted correct.
Outputs below the dtype's smallest normal may be flushed to zero; they are compared absolutely.

The seed is drawn at run time unless given, and printed first: commit results of drawn seeds,
tune on your own. The summary is per band of N and dtype:
  points, how many reach --target % of copy, median, worst, and the worst ratio to torch.

  python3 bench/scan_best.py --lib /tmp/libsmlbest.so --count 60 --out scan.json
  python3 bench/scan_best.py --lib ... --seed 1234 --count 20 --dtypes bf16
  python3 bench/scan_best.py --lib ... --small        # launch-bound calls, time per call
  python3 bench/scan_best.py --show scan.json         # the summary again, no GPU needed
  python3 bench/scan_best.py --history bench/results  # every recorded scan, a row each
  python3 bench/scan_best.py --shapes bench/results --since 2026-11-27T17:02 --from 1048576
                                                      # those scans' draws by the shape best ran
"""
import argparse
import datetime
import json
import math
import os
import random
import re
import statistics
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peers  # noqa: E402  (BestLib, Timer, DTYPES, TOLERANCE, max_error, rowsum_tolerance)

BANDS = [(16, 64), (64, 1024), (1024, 1 << 20), (1 << 20, 1 << 21), (1 << 21, (1 << 24) + 1),
         ((1 << 24) + 1, 1 << 31)]  # the last: past the range (--hi above 2^24)
# Values the misaligned check moves at most (its float64 reference takes 8 bytes of each, several
# times over): at N = 31122746, 37 rows needed more than an H100's 80 GB.
MISALIGNED_VALUES = 1 << 27
# Calls where launch latency rules (M * N <= 2^20): rows x cols.
SMALL_SHAPES = [(1, 1024), (1, 151936), (64, 4096), (32, 128256)]
# --small: rounds of back-to-back calls per shape, torch and best alternating; the median.
SMALL_ROUNDS = 7


def band_of(n):
    for lo, hi in BANDS:
        if lo <= n < hi:
            return f"{lo} <= N < {hi}" if hi != (1 << 24) + 1 else f"{lo} <= N <= {hi - 1}"
    return "other"


def draws(seed, count, lo, hi, dtypes):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))
        out.append((rng.choice(dtypes), max(lo, min(hi, n))))
    return out


def special_rows(torch, rows, cols, tdtype):
    """An odd-M input holding random rows and rows of special values."""
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float32)
    specials = [float("nan"), float("inf"), -float("inf"), 1e30]
    for r in range(min(rows, 8)):
        kind = r % 5
        if kind == 0:
            x[r, r % cols] = specials[0]                  # a NaN makes the row NaN
        elif kind == 1:
            x[r, (r * 7) % cols] = specials[1]            # +inf: inf - inf = NaN, like torch
        elif kind == 2:
            x[r, :] = specials[2]                         # all -inf: NaN
        elif kind == 3:
            x[r, (r * 3) % cols] = specials[3]            # 1e30 dominates: one-hot
        else:
            x[r, ::2] = specials[2]                       # some -inf: exact zeros there
    return x.to(tdtype)


def compare(torch, got, x, tdtype):
    """Max error of `got` against float64 softmax of x, relative above the smallest normal and
    absolute below it (flush to zero allowed); NaN must match NaN exactly where torch has it."""
    ref = torch.softmax(x.double(), dim=-1)
    g = got.double()
    nan_ref, nan_got = torch.isnan(ref), torch.isnan(g)
    if not torch.equal(nan_ref, nan_got):
        return float("inf")
    ok = ~nan_ref
    tiny = torch.finfo(tdtype).tiny
    err = (g[ok] - ref[ok]).abs() / ref[ok].abs().clamp_min(tiny)
    # Below the smallest normal the dtype has only absolute precision, and flushing to zero is
    # allowed: an output within one smallest normal of a subnormal reference passes.
    flushed = (ref[ok].abs() < tiny) & (g[ok].abs() <= tiny) & ((g[ok] - ref[ok]).abs() <= tiny)
    err = torch.where(flushed, torch.zeros_like(err), err)
    return err.max().item() if err.numel() else 0.0


def misaligned_rows(cols, most=37):
    """An odd M for the misaligned check: `most`, or fewer (3 at the least) where that many rows
    would pass MISALIGNED_VALUES."""
    rows = min(most, max(3, MISALIGNED_VALUES // cols))
    return rows if rows % 2 else rows - 1


def check_misaligned(torch, best, code, tdtype, cols, rows=None):
    """best on rows that start 1 and 3 elements past 16 bytes, with special-value rows."""
    rows = misaligned_rows(cols) if rows is None else rows
    worst = 0.0
    for off in (1, 3):
        x = special_rows(torch, rows, cols, tdtype)
        xin = torch.empty(rows * cols + off, device="cuda", dtype=tdtype)
        xout = torch.full((rows * cols + off,), float("nan"), device="cuda", dtype=tdtype)
        xin[off:] = x.reshape(-1)
        src, dst = xin[off:].view(rows, cols), xout[off:].view(rows, cols)
        best.run(src, dst, code)
        torch.cuda.synchronize()
        worst = max(worst, compare(torch, dst, x, tdtype))
    return worst


def correct(p):
    """A point's verdict from its stored errors (so --show applies the same rule to old files)."""
    if p.get("error"):  # the point did not finish (out of memory, say): not shown correct
        return False
    if "max_rel_error" not in p:
        return bool(p.get("correct"))
    return (p.get("misaligned_max_error", float("inf")) <= peers.TOLERANCE[p["dtype"]] and
            peers.within_tolerance(p, p["dtype"], p["cols"]))


def scan(args, torch):
    best = peers.BestLib(args.lib)
    timer = peers.Timer(args.samples)
    points = []
    for i, (dtype, cols) in enumerate(draws(args.seed, args.count, args.lo, args.hi,
                                            args.dtypes.split(","))):
        tdtype, code = getattr(torch, peers.DTYPES[dtype][0]), peers.DTYPES[dtype][1]
        esize = torch.tensor([], dtype=tdtype).element_size()
        rows = max(1, args.bytes // (esize * cols))
        x = torch.randn(rows, cols, device="cuda", dtype=torch.float32).to(tdtype)
        y = torch.full_like(x, float("nan"))
        p = {"dtype": dtype, "cols": cols, "rows": rows, "band": band_of(cols)}
        try:
            best.run(x, y, code)
            torch.cuda.synchronize()
            sample = sorted(set([0, rows // 2, rows - 1] + list(range(min(rows, 8)))))
            rel, rowsum = peers.max_error(x, y, sample)
            p["max_rel_error"], p["max_rowsum_error"] = rel, rowsum
            p["misaligned_rows"] = misaligned_rows(cols)
            p["misaligned_max_error"] = check_misaligned(torch, best, code, tdtype, cols)
            p["rowsum_tolerance"] = peers.rowsum_tolerance(dtype, cols)
            p["correct"] = correct(p)
            fns = {"copy": lambda: y.copy_(x), "torch": lambda: torch.softmax(x, dim=-1),
                   "best": lambda: best.run(x, y, code)}
            timed = timer.interleaved(fns)
            bytes_moved = 2 * rows * cols * esize
            for name, t in timed.items():
                if isinstance(t, str):
                    p[name] = t
                else:
                    p[name + "_gbps"] = bytes_moved / (t["median_ms"] * 1e-3) / 1e9
            if "best_gbps" in p and "copy_gbps" in p:
                p["pct_of_copy"] = 100.0 * p["best_gbps"] / p["copy_gbps"]
            if "best_gbps" in p and "torch_gbps" in p:
                p["vs_torch"] = p["best_gbps"] / p["torch_gbps"]
            p["config"] = best.describe(cols, code)
        except Exception as e:  # noqa: BLE001 -- a failed point is data, the scan goes on
            p["error"] = str(e).strip()[:200]
            p["correct"] = False
        points.append(p)
        print(f"[{i + 1:3d}/{args.count}] {dtype} N={cols:9d} M={rows:9d} "
              f"{p.get('pct_of_copy', float('nan')):6.1f}% of copy, "
              f"{p.get('vs_torch', float('nan')):5.2f}x torch, "
              f"{verdict(p)}  {p.get('config', '')}",
              flush=True)
        del x, y
        torch.cuda.empty_cache()
    return points


def verdict(p):
    """ok, WRONG (a check failed), or ERROR and why (the point did not finish)."""
    if p.get("error"):
        return "ERROR " + p["error"]
    return "ok" if correct(p) else "WRONG"


def small_calls(args, torch):
    """GPU time per call, back to back, for launch-bound shapes: torch vs best."""
    best = peers.BestLib(args.lib)
    out = []
    for dtype in args.dtypes.split(","):
        tdtype, code = getattr(torch, peers.DTYPES[dtype][0]), peers.DTYPES[dtype][1]
        for rows, cols in SMALL_SHAPES:
            x = torch.randn(rows, cols, device="cuda", dtype=torch.float32).to(tdtype)
            y = torch.empty_like(x)
            res = {"dtype": dtype, "rows": rows, "cols": cols}
            fns = {"torch": lambda: torch.softmax(x, dim=-1), "best": lambda: best.run(x, y, code)}
            per_call = {name: [] for name in fns}
            for fn in fns.values():
                for _ in range(50):
                    fn()
            # Rounds alternate torch and best, so a slow stretch of the host or the GPU lands on
            # both alike; each round is `calls` back-to-back calls between two events.
            for _ in range(SMALL_ROUNDS):
                for name, fn in fns.items():
                    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(
                        enable_timing=True)
                    start.record()
                    for _ in range(args.calls):
                        fn()
                    end.record()
                    end.synchronize()
                    per_call[name].append(start.elapsed_time(end) * 1e3 / args.calls)
            for name, times in per_call.items():
                res[name + "_us"] = statistics.median(times)
            res["best_over_torch"] = res["best_us"] / res["torch_us"]
            out.append(res)
            print(f"{dtype} {rows}x{cols}: torch {res['torch_us']:.2f} us, best "
                  f"{res['best_us']:.2f} us per call ({res['best_over_torch']:.2f}x)", flush=True)
    return out


def summary(points, target):
    rows = []
    for lo, hi in BANDS:
        band = band_of(lo)
        for dtype in ("fp32", "fp16", "bf16"):
            ps = [p for p in points if p["band"] == band and p["dtype"] == dtype]
            if not ps:
                continue
            pct = [p["pct_of_copy"] for p in ps if "pct_of_copy" in p]
            vs = [p["vs_torch"] for p in ps if "vs_torch" in p]
            worst = min(ps, key=lambda p: p.get("pct_of_copy", -1))
            rows.append({
                "band": band, "dtype": dtype, "points": len(ps),
                "at_target": sum(1 for v in pct if v >= target),
                "median_pct": statistics.median(pct) if pct else None,
                "worst_pct": worst.get("pct_of_copy"), "worst_n": worst["cols"],
                "worst_vs_torch": min(vs) if vs else None,
                "wrong": sum(1 for p in ps if not correct(p)),
            })
    return rows


def print_summary(rows, target):
    print(f"\n| N band | dtype | points | >= {target:g}% of copy | median | worst | "
          "vs torch, worst | wrong |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        med = f"{r['median_pct']:.1f}%" if r["median_pct"] is not None else "-"
        worst = f"{r['worst_pct']:.1f}% (N={r['worst_n']})" if r["worst_pct"] is not None else "-"
        vs = f"{r['worst_vs_torch']:.2f}x" if r["worst_vs_torch"] is not None else "-"
        print(f"| {r['band']} | {r['dtype']} | {r['points']} | {r['at_target']} | {med} | "
              f"{worst} | {vs} | {r['wrong']} |")


def is_scan(res):
    """Whether a loaded JSON is a scan's results with timed points (not a --small run)."""
    return isinstance(res, dict) and res.get("schema") == "softmaxlab-scan/1" and \
        isinstance(res.get("points"), list) and bool(res["points"])


def archived_scans(path):
    """[(name inside, results)] of the scans in a .tar.gz (a device call's check-measure.tar.gz
    keeps its scans so), read in memory; none where it cannot be read."""
    out = []
    try:
        with tarfile.open(path, "r:gz") as tar:
            for m in tar.getmembers():
                if not m.isfile() or not m.name.endswith(".json") or m.size > 64 << 20:
                    continue
                try:
                    res = json.load(tar.extractfile(m))
                except (ValueError, UnicodeDecodeError):
                    continue
                if is_scan(res):
                    out.append((m.name, res))
    except (OSError, tarfile.TarError, EOFError):
        return []
    return out


def scan_files(root):
    """[(created_utc, path relative to root, results)] of every scan results file under `root`
    (softmaxlab-scan/1 files with points), and of those inside the .tar.gz archives there (as
    "ARCHIVE:NAME"), oldest first. Symlinks are not followed."""
    found = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            if os.path.islink(path):
                continue
            rel = os.path.relpath(path, root)
            if name.endswith(".tar.gz"):
                found += [(res.get("created_utc", ""), f"{rel}:{inner}", res)
                          for inner, res in archived_scans(path)]
                continue
            if not name.endswith(".json"):
                continue
            res, _ = peers.read_results(path, "softmaxlab-scan/1", "bench/scan_best.py")
            if not is_scan(res):  # not a scan (or unreadable), or a --small run
                continue
            found.append((res.get("created_utc", ""), rel, res))
    return sorted(found, key=lambda x: (x[0], x[1]))


def on_device(res, device):
    """Whether a scan ran on a GPU whose name holds `device` (any case; "" matches every scan)."""
    return device.lower() in res.get("device", "").lower()


def history(root, target=95.0, device=""):
    """One row per scan results file under `root` (on a GPU whose name holds `device`), oldest
    first: what each scan drew, on which GPU, and how it went."""
    rows = []
    for created, rel, res in scan_files(root):
        if not on_device(res, device):
            continue
        words = res.get("command", "").split()
        def arg(flag, default):
            return int(words[words.index(flag) + 1]) if flag in words[:-1] else default
        lo, hi = arg("--lo", 16), arg("--hi", 1 << 24)
        pts = res["points"]
        under = [p for p in pts if p["cols"] < (1 << 20)]
        past = [p for p in pts if p["cols"] >= (1 << 20)]
        long_pct = [p["pct_of_copy"] for p in pts if p["cols"] >= (1 << 21) and "pct_of_copy" in p]
        met = lambda ps: sum(1 for p in ps if p.get("pct_of_copy", -1) >= target)  # noqa: E731
        vs = [p["vs_torch"] for p in pts if "vs_torch" in p]
        rows.append({
            "created": created[:16].replace("T", " "), "file": rel, "seed": res.get("seed"),
            "device": res.get("device", "?").removeprefix("NVIDIA "),
            "drawn": res.get("seed_drawn", False), "lo": lo, "hi": hi, "points": len(pts),
            "correct": sum(1 for p in pts if correct(p)),
            "under": (met(under), len(under)), "past": (met(past), len(past)),
            "median_past_2p21": statistics.median(long_pct) if long_pct else None,
            "least_vs_torch": min(vs) if vs else None})
    return rows


def shape_of(config):
    """A pick's description (Config::describe) without what only sizes it to the row: block
    counts, stash packs and prefetched places. "held grid 88 blocks x 512 threads x 8 packs + 11
    in shared memory, 3 teams, 2 prefetched into L2" -> "held grid 512 threads x 8 packs +
    stash, 3 teams"."""
    s = re.sub(r"\b\d+ blocks x ", "", config)
    s = re.sub(r"\+ \d+ in shared memory", "+ stash", s)
    s = re.sub(r", \d+ prefetched into L2", "", s)
    return s


def shapes(root, since="", lo=1 << 20, hi=1 << 31, device=""):
    """Every correct, timed draw of the scans under `root` created at or after `since` (an ISO
    UTC prefix, e.g. 2026-11-27T17:02) on a GPU whose name holds `device` (every GPU where it
    is empty), lo <= N < hi, grouped by the shape best ran (shape_of)
    and by fp32 / 16-bit: one row a group, weakest median first. For finding which shape a band's
    shortfall comes from across scans of different draws; a lead to time side by side, not a
    comparison in itself."""
    since = since[:-1] if since.endswith("Z") else since  # "...17:02Z" is "...17:02"
    groups = {}
    for created, _, res in scan_files(root):
        if created < since or not on_device(res, device):
            continue
        for p in res["points"]:
            if not correct(p) or "pct_of_copy" not in p or not lo <= p["cols"] < hi:
                continue
            key = (shape_of(p.get("config", "?")), "fp32" if p["dtype"] == "fp32" else "16-bit")
            groups.setdefault(key, []).append((p["pct_of_copy"], p["cols"]))
    rows = []
    for (shape, dtypes), pts in groups.items():
        pct = [x[0] for x in pts]
        rows.append({"shape": shape, "dtypes": dtypes, "draws": len(pts),
                     "median_pct": statistics.median(pct), "least_pct": min(pct),
                     "most_pct": max(pct), "least_n": min(x[1] for x in pts),
                     "most_n": max(x[1] for x in pts)})
    return sorted(rows, key=lambda r: (r["median_pct"], r["shape"], r["dtypes"]))


def print_shapes(rows):
    print("| shape best ran | dtypes | draws | median % of copy | range | N drawn |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['shape']} | {r['dtypes']} | {r['draws']} | {r['median_pct']:.1f}% | "
              f"{r['least_pct']:.1f}-{r['most_pct']:.1f}% | {r['least_n']}-{r['most_n']} |")


def print_history(rows, target=95.0):
    print(f"| UTC | GPU | file | seed | N drawn | points | correct | N < 2^20 at >= {target:g}% | "
          f"N >= 2^20 at >= {target:g}% | median, N >= 2^21 | least vs torch |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        span = lambda n: f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 and n > 1024 else str(n)  # noqa: E731
        under = f"{r['under'][0]} of {r['under'][1]}" if r["under"][1] else "-"
        past = f"{r['past'][0]} of {r['past'][1]}" if r["past"][1] else "-"
        med = f"{r['median_past_2p21']:.1f}%" if r["median_past_2p21"] is not None else "-"
        vs = f"{r['least_vs_torch']:.3f}x" if r["least_vs_torch"] is not None else "-"
        seed = f"{r['seed']}" + ("" if r["drawn"] else " (given)")
        print(f"| {r['created']} | {r['device']} | `{r['file']}` | {seed} | "
              f"{span(r['lo'])}-{span(r['hi'])} | {r['points']} | {r['correct']} | {under} | "
              f"{past} | {med} | {vs} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lib", help="libsmlbest.so (bench/build_libsmlbest.sh)")
    ap.add_argument("--seed", type=int, help="default: drawn at run time and printed")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--lo", type=int, default=16)
    ap.add_argument("--hi", type=int, default=1 << 24)
    ap.add_argument("--dtypes", default="fp32,fp16,bf16")
    ap.add_argument("--bytes", type=int, default=1 << 30, help="input size per point (1 GiB)")
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--target", type=float, default=95.0, help="%% of copy counted as met")
    ap.add_argument("--small", action="store_true", help="time launch-bound calls instead")
    ap.add_argument("--calls", type=int, default=1000, help="--small: back-to-back calls")
    ap.add_argument("--show", metavar="JSON", help="print the summary of a results file")
    ap.add_argument("--history", metavar="DIR",
                    help="print one row per scan results file under DIR, oldest first (no GPU "
                         "needed), e.g. bench/results")
    ap.add_argument("--shapes", metavar="DIR",
                    help="the draws of every scan under DIR grouped by the shape best ran, "
                         "weakest first (no GPU needed); with --since, --from, --to")
    ap.add_argument("--since", default="", metavar="UTC",
                    help="--shapes: scans created at or after this ISO time, e.g. 2026-11-27T17:02")
    ap.add_argument("--device", default="", metavar="TEXT",
                    help="--history, --shapes: only scans run on a GPU whose name holds TEXT "
                         "(any case), e.g. H200; scans of different GPUs do not compare")
    ap.add_argument("--from", dest="from_n", type=int, metavar="N",
                    help="--shapes: draws with N >= this (default 2^20)")
    ap.add_argument("--to", dest="to_n", type=int, default=1 << 31, metavar="N",
                    help="--shapes: draws with N < this")
    ap.add_argument("--out", help="write the results JSON here (a new file: never overwritten)")
    args = ap.parse_args()
    from_given = args.from_n is not None
    if not from_given:
        args.from_n = 1 << 20
    on = f" on a GPU named like {args.device!r}" if args.device else ""  # for the errors below
    if args.shapes:
        if not os.path.isdir(args.shapes):
            ap.error(f"--shapes {args.shapes}: not a folder")
        if args.since and not re.fullmatch(
                r"\d{4}(-\d\d(-\d\d(T\d\d(:\d\d(:\d\d)?)?)?)?)?Z?", args.since):
            ap.error(f"--since {args.since!r}: give an ISO UTC time such as 2026-11-27T17:02")
        if args.from_n >= args.to_n:
            ap.error(f"--from {args.from_n} --to {args.to_n}: --from must be below --to"
                     + ("" if from_given else " (--from defaults to 2^20, for the long rows; give "
                        "a lower one, e.g. --from 16)"))
        rows = shapes(args.shapes, args.since, args.from_n, args.to_n, args.device)
        if not rows:
            print(f"error: no timed, correct draws with {args.from_n} <= N < {args.to_n} in scans "
                  f"under {args.shapes}{on} since {args.since or 'the first'}", file=sys.stderr)
            return 1
        print_shapes(rows)
        return 0
    if args.history:
        if not os.path.isdir(args.history):
            ap.error(f"--history {args.history}: not a folder")
        rows = history(args.history, args.target, args.device)
        if not rows:
            print(f"error: no scan results (softmaxlab-scan/1 JSON) under {args.history}{on}",
                  file=sys.stderr)
            return 1
        print_history(rows, args.target)
        return 0
    if args.show:
        res = peers.load_results(args.show, "softmaxlab-scan/1", "bench/scan_best.py")
        print(f"seed {res.get('seed')}, {res.get('device')}, {res.get('created_utc')}")
        target = res.get("target", args.target)
        if res["points"]:
            print_summary(summary(res["points"], target), target)
        for r in res.get("small", []):  # a --small run: time per call
            print(f"{r['dtype']} {r['rows']}x{r['cols']}: torch {r['torch_us']:.2f} us, best "
                  f"{r['best_us']:.2f} us per call ({r['best_over_torch']:.2f}x)")
        return 0
    if not args.lib:
        ap.error("--lib is required")
    if args.samples < 20:
        ap.error("--samples must be >= 20")
    if args.lo < 1 or args.hi < args.lo:
        ap.error("need 1 <= --lo <= --hi")
    if args.out and os.path.exists(args.out):
        ap.error(f"--out {args.out} exists; give a new file name")
    import torch
    if not torch.cuda.is_available():
        print("error: no CUDA device", file=sys.stderr)
        return 1
    if args.seed is None:
        args.seed = int.from_bytes(os.urandom(4), "little")
    print(f"seed {args.seed} ({'given' if '--seed' in sys.argv else 'drawn at run time'})",
          flush=True)
    torch.manual_seed(args.seed)
    result = {"schema": "softmaxlab-scan/1", "seed": args.seed,
              "seed_drawn": "--seed" not in sys.argv,
              "device": torch.cuda.get_device_name(0),
              "created_utc": datetime.datetime.now(datetime.timezone.utc).strftime(
                  "%Y-%m-%dT%H:%M:%SZ"),
              "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
              "target": args.target, "bytes_per_point": args.bytes, "samples": args.samples}
    if args.small:
        result["small"] = small_calls(args, torch)
        result["points"] = []
    else:
        result["points"] = scan(args, torch)
        print_summary(summary(result["points"], args.target), args.target)
    if args.out:
        with open(args.out, "x") as f:  # "x": fails rather than overwrite
            json.dump(result, f, indent=1)
        print(f"wrote {args.out}")
    wrong = sum(1 for p in result["points"] if not correct(p))
    return 1 if wrong else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the reader stopped early (| head): end quietly, as a tool that
        # SIGPIPE stops does (status 141), and without a second error when stdout is flushed
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(128 + 13)
