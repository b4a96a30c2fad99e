#!/usr/bin/env python3
"""Prints the README's per-profile table of `best` from one bench/profile_check.sh run: for each
device profile, the worst point at the sweep's N (fp32) and at the drawn N (fp32, fp16, bf16),
and how many drawn points reach 90% and 95% of the same run's copy. No GPU needed.

  python3 bench/profile_table.py bench/results/2026-11-26/profiles/4-sixteen-bit-6198852/sweeps.tar.gz
  python3 bench/profile_table.py out/sweeps            (the folder, before it is archived)
"""
import io
import json
import os
import sys
import tarfile

PROFILES = ["t4", "rtx3060", "a10g", "a100", "l4", "rtx4090", "h100", "rtx5090"]


def sessions(path):
    """{file name: session} of every sweep JSON in the folder or .tar.gz at path."""
    out = {}
    if os.path.isdir(path):
        for name in os.listdir(path):
            if name.endswith(".json"):
                with open(os.path.join(path, name)) as f:
                    out[name] = json.load(f)
    else:
        with tarfile.open(path) as tar:
            for m in tar.getmembers():
                if m.isfile() and m.name.endswith(".json") and "/tune-" not in m.name:
                    out[os.path.basename(m.name)] = json.load(
                        io.TextIOWrapper(tar.extractfile(m)))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        runs = sessions(sys.argv[1])
    except (OSError, tarfile.TarError, json.JSONDecodeError) as e:
        sys.exit(f"error: cannot read {sys.argv[1]}: {e}")
    if not runs:
        sys.exit(f"error: no sweep JSON in {sys.argv[1]}: give a profile_check.sh sweeps folder "
                 "or its sweeps.tar.gz")
    print("| profile | sweep's N (fp32) worst | drawn N worst | drawn >= 90% | drawn >= 95% |")
    print("|---|---|---|---|---|")
    for p in PROFILES:
        fixed = runs.get(f"fixed-fp32-{p}.json", {}).get("points", [])
        drawn = [(x["pct_of_copy"], x["cols"], d, x.get("within_tolerance"))
                 for d in ("fp32", "fp16", "bf16")
                 for x in runs.get(f"drawn-{d}-{p}.json", {}).get("points", [])
                 if x.get("pct_of_copy") is not None]
        if not fixed or not drawn:
            print(f"| {p} | not in this run | | | |")
            continue
        wf = min(fixed, key=lambda x: x["pct_of_copy"])
        wd = min(drawn)
        bad = sum(1 for x in fixed if not x.get("within_tolerance")) + sum(
            1 for x in drawn if not x[3])
        mark = f" ({bad} points outside tolerance)" if bad else ""
        print(f"| {p} | {wf['pct_of_copy']:.1f}% at {wf['cols']} | {wd[0]:.1f}% at {wd[2]} {wd[1]} "
              f"| {sum(x[0] >= 90 for x in drawn)} of {len(drawn)} "
              f"| {sum(x[0] >= 95 for x in drawn)} of {len(drawn)}{mark} |")


if __name__ == "__main__":
    main()
