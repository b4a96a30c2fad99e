#!/usr/bin/env python3
"""Dumps the PTX that the Triton fused-softmax tutorial kernel compiles to, with its provenance.

Step 2 of the lessons shows this next to the CUDA port's PTX: the cp.async loads that num_stages
asks for, their commit and wait groups (the PTX walkthrough of the tutorial points out that the
wait is `cp.async.wait_group 0`, i.e. all loads before any exp), and the reductions. Run on a
machine with the GPU the PTX is for (the H100 for the committed file):

  python3 bench/dump_triton_ptx.py --cols 8192 --out assets/ptx/triton-fused-softmax-8192.ptx

Writes the PTX and, beside it, <out>.json: device, Triton, torch and CUDA versions, the block
size, num_warps, num_stages, registers and shared memory of the compiled kernel, the command and
the date. Refuses to overwrite either file.
"""
import argparse
import datetime
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cols", type=int, default=8192, help="N; BLOCK_SIZE = next_pow2(N)")
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--out", required=True, help="the .ptx to write (must not exist)")
    args = ap.parse_args()
    meta_path = args.out + ".json"
    for p in (args.out, meta_path):
        if os.path.exists(p):
            ap.error(f"{p} exists; give a new name")
    import torch
    import triton
    from triton_tutorial_softmax import TritonTutorialSoftmax
    x = torch.randn(args.rows, args.cols, device="cuda")
    y = torch.empty_like(x)
    t = TritonTutorialSoftmax()
    kernel, programs, block = t._compile(x, y)
    ptx = kernel.asm["ptx"]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "x") as f:
        f.write(ptx)
    meta = {
        "what": "PTX of bench/triton_tutorial_softmax.py's _fused_softmax_kernel (the Triton "
                "fused-softmax tutorial's design), as Triton compiled it",
        "device": torch.cuda.get_device_name(0),
        "created_utc": datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%dT%H:%M:%SZ"),
        "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
        "software": {"triton": triton.__version__, "torch": torch.__version__,
                     "cuda": torch.version.cuda},
        "cols": args.cols, "block_size": block, "num_warps": t.num_warps,
        "num_stages": t.num_stages, "registers": kernel.n_regs,
        "shared_bytes": kernel.metadata.shared, "programs": programs,
        "cp_async_lines": sum(1 for line in ptx.splitlines() if "cp.async" in line),
    }
    with open(meta_path, "x") as f:
        json.dump(meta, f, indent=1)
    print(json.dumps(meta, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
