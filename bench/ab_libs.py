#!/usr/bin/env python3
"""Several builds of `best` side by side in one process: each library's dispatcher pick and the
same run's copy, interleaved at every N (peers.py's Timer: CUDA events, L2 flushed before each
sample, median), so the GPU's slow stretches land on all of them alike. For A/B tests of a change
to the kernels or the dispatcher: build each version with bench/build_libsmlbest.sh (several at
once, sharing the units a change does not reach: --trial DIR old=. new=/tmp/new.diff), then

  python3 bench/ab_libs.py --draw 2000000:16000000:6 old=/tmp/lib-old.so new=/tmp/lib-new.so
  python3 bench/ab_libs.py --cols 9000001,3000017 --dtypes fp32 --rounds 2 a=/tmp/a.so b=/tmp/b.so

--draw LO:HI:COUNT draws COUNT (dtype, N) points, N log-uniform in [LO, HI], from --seed (drawn at
run time and printed unless given); --cols takes N as given, in each of --dtypes. Every library's
output is checked against float64 on sampled rows (output poisoned with NaN first) unless
--no-check (diagnostic builds whose output is wrong on purpose); a wrong or failing library is
reported at that point and not timed there. Rounds repeat the whole list; the summary gives each
library's median % of copy over the rounds, and its difference from the first library's.
A library's pick is printed where the libraries' picks differ.
"""
import argparse
import json
import os
import random
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peers  # noqa: E402  (BestLib, Timer, DTYPES, check, within_tolerance; torch optional)
from scan_best import draws  # noqa: E402  (the scan's log-uniform draw, the same seed rule)


def parse_libs(specs):
    """["NAME=PATH" or "PATH", ...] -> [(name, path)]; ValueError on a repeated or empty name."""
    out = []
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep:
            name, path = os.path.splitext(os.path.basename(spec))[0], spec
        if not name or not path:
            raise ValueError(f"{spec!r}: give NAME=PATH (e.g. old=/tmp/lib-old.so) or a PATH")
        if name in [n for n, _ in out]:
            raise ValueError(f"{spec!r}: the name {name!r} is given twice; name each library "
                             "(old=..., new=...)")
        out.append((name, path))
    return out


def parse_draw(spec):
    """"LO:HI:COUNT" -> (lo, hi, count); ValueError unless 16 <= LO <= HI < 2^31, COUNT >= 1."""
    parts = spec.split(":")
    if len(parts) != 3:
        raise ValueError(f"--draw {spec!r}: give LO:HI:COUNT, e.g. 2000000:16000000:6")
    try:
        lo, hi, count = (int(p) for p in parts)
    except ValueError:
        raise ValueError(f"--draw {spec!r}: LO, HI and COUNT must be integers") from None
    if not (16 <= lo <= hi < 1 << 31) or count < 1:
        raise ValueError(f"--draw {spec!r}: needs 16 <= LO <= HI < 2^31 and COUNT >= 1")
    return lo, hi, count


def points_of(args):
    """The (dtype, N) list a run times, in order, and the seed it was drawn from (or None)."""
    dtypes = [d.strip() for d in args.dtypes.split(",")]
    unknown = [d for d in dtypes if d not in peers.DTYPES]
    if unknown or not dtypes:
        raise ValueError(f"--dtypes {args.dtypes!r}: choose from {', '.join(peers.DTYPES)}")
    if args.cols:
        try:
            cols = [int(c) for c in args.cols.split(",")]
        except ValueError:
            raise ValueError(f"--cols {args.cols!r}: give integers separated by commas") from None
        if any(c < 1 or c >= 1 << 31 for c in cols):
            raise ValueError(f"--cols {args.cols!r}: every N must be in 1 .. 2^31 - 1")
        return [(d, n) for d in dtypes for n in cols], None
    lo, hi, count = parse_draw(args.draw)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    return draws(seed, count, lo, hi, dtypes), seed


def summary(results, names):
    """Median % of copy per (dtype, N) and library over the rounds, as markdown."""
    lines = ["| dtype | N | " + " | ".join(names) + " |", "|---" * (len(names) + 2) + "|"]
    keys = []
    for r in results:
        if (r["dtype"], r["cols"]) not in keys:
            keys.append((r["dtype"], r["cols"]))
    for dtype, cols in keys:
        here = [r for r in results if (r["dtype"], r["cols"]) == (dtype, cols)]
        medians = {}
        for n in names:
            pcts = [r["pct_of_copy"][n] for r in here if isinstance(r["pct_of_copy"].get(n), float)]
            if pcts:
                medians[n] = statistics.median(pcts)
        base = medians.get(names[0])
        cells = []
        for n in names:
            if n not in medians:
                cells.append("-")
            elif n == names[0] or base is None:
                cells.append(f"{medians[n]:.1f}%")
            else:
                cells.append(f"{medians[n]:.1f}% ({medians[n] - base:+.1f})")
        lines.append(f"| {dtype} | {cols} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("libs", nargs="+", metavar="NAME=LIB",
                    help="libsmlbest.so builds to compare, the first the baseline")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--cols", help="N,N,...: these N in each of --dtypes")
    where.add_argument("--draw", metavar="LO:HI:COUNT", help="COUNT points drawn log-uniform")
    ap.add_argument("--seed", type=int, help="--draw: default drawn at run time and printed")
    ap.add_argument("--dtypes", default="fp32,fp16,bf16")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--bytes", type=int, default=1 << 30, help="input size per point (1 GiB)")
    ap.add_argument("--no-check", action="store_true",
                    help="time without checking the output (diagnostic builds)")
    ap.add_argument("--out", help="write the results JSON here (a new file: never overwritten)")
    args = ap.parse_args()
    try:  # every argument is checked before the GPU is touched
        libs = parse_libs(args.libs)
        points, seed = points_of(args)
    except ValueError as e:
        ap.error(str(e))
    missing = [p for _, p in libs if not os.path.isfile(p)]
    if missing:
        ap.error(f"no such library: {', '.join(missing)} (bench/build_libsmlbest.sh builds one)")
    if args.rounds < 1 or args.samples < 1:
        ap.error("--rounds and --samples must be at least 1")
    if args.out and os.path.exists(args.out):
        ap.error(f"--out {args.out} exists; give a new file name")

    try:
        import torch
    except ImportError:
        print("error: ab_libs.py needs PyTorch with CUDA (the GPU machine has it)", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("error: ab_libs.py needs a CUDA GPU (torch.cuda.is_available() is false)",
              file=sys.stderr)
        return 2
    if seed is not None:
        print(f"seed {seed} (drawn at run time)" if args.seed is None else f"seed {seed}")
    bests = {name: peers.BestLib(path) for name, path in libs}
    names = list(bests)
    timer = peers.Timer(args.samples)
    results = []
    for rnd in range(args.rounds):
        for dtype, cols in points:
            tdtype, code = getattr(torch, peers.DTYPES[dtype][0]), peers.DTYPES[dtype][1]
            esize = torch.tensor([], dtype=tdtype).element_size()
            rows = max(1, args.bytes // (esize * cols))
            x = torch.randn(rows, cols, device="cuda", dtype=torch.float32).to(tdtype)
            y = torch.empty_like(x)
            sample = sorted(set([0, 1, rows // 2, rows - 1]))
            fns, status = {"copy": lambda: y.copy_(x)}, {}
            for n, b in bests.items():
                fn = (lambda b=b: b.run(x, y, code) or y)
                if not args.no_check:
                    p = peers.check(n, fn, x, y, sample)
                    if p["status"] != "ok":
                        status[n] = p["status"]
                        continue
                    if not peers.within_tolerance(p, dtype, cols):
                        status[n] = (f"wrong: error {p['max_rel_error']:.3g} above "
                                     f"{peers.TOLERANCE[dtype]}")
                        continue
                fns[n] = fn
            timed = timer.interleaved(fns)
            copy = timed.get("copy")
            pct = {}
            for n in names:
                if n in status:
                    pct[n] = status[n]
                elif isinstance(timed.get(n), dict) and isinstance(copy, dict):
                    pct[n] = 100.0 * copy["median_ms"] / timed[n]["median_ms"]
                else:
                    pct[n] = str(timed.get(n, "not timed"))
            picks = {n: b.describe(cols, code) for n, b in bests.items()}
            results.append({"round": rnd + 1, "dtype": dtype, "cols": cols, "rows": rows,
                            "pct_of_copy": pct, "picks": picks})
            shown = " ".join(f"{n} {v:.1f}" if isinstance(v, float) else f"{n} [{v}]"
                             for n, v in pct.items())
            pick = (" [" + " / ".join(picks.values()) + "]" if len(set(picks.values())) > 1
                    else f" [{picks[names[0]]}]")
            print(f"round {rnd + 1} {dtype} N={cols} {shown}{pick}", flush=True)
            del x, y
            torch.cuda.empty_cache()
    print()
    print(summary(results, names))
    if args.out:
        doc = {"schema": "softmaxlab-ab/1", "command": " ".join([os.path.basename(sys.executable)]
                                                                  + sys.argv),
               "device": torch.cuda.get_device_name(0), "seed": seed,
               "libraries": dict(libs), "samples": args.samples, "bytes_per_point": args.bytes,
               "checked": not args.no_check, "results": results}
        with open(args.out, "x") as f:  # "x": fails rather than overwrite
            json.dump(doc, f, indent=1)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
