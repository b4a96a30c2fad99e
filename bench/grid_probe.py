#!/usr/bin/env python3
"""Can best's grid kernel, with small teams, hold fp32 rows that one block cannot, on GPUs
without clusters? Times, at fp32 N past one block's registers (1 GiB a point, median of 20,
interleaved with copy): the dispatcher's pick, one block's two passes (what a 99 KB or 64 KB class
runs there now), the one-block stash, and the grid kernel with teams of 4, 8 and 16 blocks, each
team on every teams-th row. Checks each against float64 on sampled rows first.

    python3 bench/grid_probe.py --lib /tmp/libsmlbest.so [--cols 49152,57345,65536]
"""
import argparse
import sys

import torch

import peers


def grid_shape(cols, blocks, sm_count, ppt=4):
    """The grid path's block for `blocks` blocks a row of fp32 (peers.grid_threads), the most
    threads it may have, and as many teams as fit one block an SM."""
    threads, most = peers.grid_threads(cols, 4, blocks, ppt)
    return threads, most, max(1, sm_count // blocks)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--cols", default="40001,49152,57345,65536")
    ap.add_argument("--samples", type=int, default=20)
    args = ap.parse_args()
    best = peers.BestLib(args.lib)
    timer = peers.Timer(args.samples)
    sm_count = torch.cuda.get_device_properties(0).multi_processor_count
    for cols in map(int, args.cols.split(",")):
        rows = (1 << 30) // (4 * cols)
        x = torch.randn(rows, cols, device="cuda", dtype=torch.float32)
        y = torch.empty_like(x)
        packs = -(-cols // 4)
        shapes = {"auto": None,
                  "two-pass 1x1024": peers.config(2, cluster=1, threads=1024, l2=1)}
        stash = -(-peers.slice_packs(packs, 1) // 1024) - 8
        shapes[f"stash 1x1024 +{stash}"] = peers.config(1, cluster=1, threads=1024, packs=8,
                                                          stash=stash)
        for blocks in (4, 8, 16):
            for ppt in (4, 8):
                threads, most, teams = grid_shape(cols, blocks, sm_count, ppt)
                if threads > most:
                    continue
                for lag in (2, 4) if ppt == 4 else (2,):
                    shapes[f"grid {blocks}x{threads}x{ppt}p teams{teams} lag{lag}"] = \
                        peers.config(3, packs=ppt, threads=threads, cluster=blocks, lag=lag,
                                     ahead=2, teams=teams)
        fns = {"copy": lambda: y.copy_(x)}
        for label, cfg in shapes.items():
            vals = None if cfg is None else best.values(cfg)
            try:
                y.fill_(float("nan"))
                best.run(x, y, 0, vals)
                torch.cuda.synchronize()
                rel, rowsum = peers.max_error(x, y, [0, 1, rows // 2, rows - 1])
                ok = rel <= peers.TOLERANCE["fp32"] and rowsum <= peers.TOLERANCE["fp32"]
            except Exception as e:  # noqa: BLE001
                print(f"N={cols:6d} {label:36s} fails: {peers.failure_text(e)}", flush=True)
                continue
            fns[label] = (lambda v: (lambda: best.run(x, y, 0, v)))(vals)
            if not ok:
                print(f"N={cols:6d} {label:36s} WRONG (rel {rel:.2e}, rowsum {rowsum:.2e})")
        timed = timer.interleaved(fns)
        copy_ms = timed["copy"]["median_ms"]
        for label, t in timed.items():
            if isinstance(t, str):
                print(f"N={cols:6d} {label:36s} {t}")
            else:
                print(f"N={cols:6d} {label:36s} {100 * copy_ms / t['median_ms']:6.1f}% of copy",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
