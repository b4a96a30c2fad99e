#!/usr/bin/env python3
"""Side-by-side softmax benchmark: softmaxlab's `best` against its peers, in one process.

Runs on a machine with an NVIDIA GPU, torch and triton. For every N of the sweep it times, on the
same input tensor and with the same method:
  copy      torch device-to-device copy (out.copy_(x)): the speed of light for read N + write N
  torch     torch.softmax(x, dim=-1)
  triton    the Triton fused-softmax tutorial kernel (bench/triton_tutorial_softmax.py); above
            N = 16384 it cannot compile on an H100 and the point is recorded as "fails: <why>";
            where its block would exceed --triton-max-block it is recorded as "skipped"
  best      softmaxlab's `best` kernel through a small C entry point (bench/best_capi.cu), with
            ctypes, on torch's tensors and torch's stream
The project's lesson kernels are added from a `softmaxlab-cli sweep` session when --cli is given
(that is the project runner's own measurement, in a child process, not this one).

Method (the same as core/measure): CUDA events around one call; before each sample an L2-sized
buffer is overwritten so the input comes from DRAM, and the GPU is kept busy (torch.cuda._sleep)
while the call is enqueued, so host launch overhead stays outside the timed region. Median of
--samples (>= 20) after warm-up. GB/s = 2 * M * N * element_bytes / median time.

  python3 bench/peers.py --lib build/libsmlbest.so --out bench/results
  python3 bench/peers.py --lib ... --tune          # times best's alternative configurations
"""
import argparse
import ctypes
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import torch
except ImportError:  # --show needs no GPU and no torch
    torch = None

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# 27 N from 32 to 2^20: powers of two plus the awkward ones (not a multiple of the vector
# width, just past a power of two, a multiple of 3).
# It holds every N of the CLI's default sweep (core/runner/sweep.cpp), so both tables line up,
# and three odd N between the long powers of two (300001, 600001, 1000003): rows that start off
# 16 bytes, where best's long-row paths are weakest (bench/README-peers.md).
DEFAULT_COLS = [32, 64, 128, 256, 512, 1000, 1024, 1025, 2048, 2049, 3000, 4096, 8192, 8193,
                12288, 16384, 16385, 32768, 65536, 100003, 131072, 262144, 300001, 524288, 600001,
                1000003, 1048576]
DTYPES = {"fp32": ("float32", 0), "fp16": ("float16", 1), "bf16": ("bfloat16", 2)}
# Error allowed against float64: rounding of the stored output dominates (see tests/gpu_test_best).
TOLERANCE = {"fp32": 1e-5, "fp16": 2e-3, "bf16": 1.6e-2}


class BestLib:
    """ctypes wrapper over bench/best_capi.cu.

    A configuration is a dict of sml::best::Config's fields (see config() below); the library
    reports the fields' names, their order and their defaults (Config{}), so a field added to
    kernels/best_softmax.h reaches the tuning harness with no edit here."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        ll, i, vp = ctypes.c_longlong, ctypes.c_int, ctypes.c_void_p
        self.lib.sml_best_softmax.argtypes = [vp, vp, ll, ll, i]
        self.lib.sml_best_describe.argtypes = [ll, i, ctypes.c_char_p, i]
        self.lib.sml_error_string.restype = ctypes.c_char_p
        self.fields, self.defaults = None, None
        if hasattr(self.lib, "sml_best_config_fields"):  # absent in libraries built before it
            self.lib.sml_best_config_fields.restype = ctypes.c_char_p
            self.fields = self.lib.sml_best_config_fields().decode().split(",")
            values = (i * len(self.fields))()
            self.lib.sml_best_config_defaults.argtypes = [ctypes.POINTER(i), i]
            if self.lib.sml_best_config_defaults(values, len(self.fields)) != len(self.fields):
                raise RuntimeError(f"{path}: sml_best_config_defaults disagrees on the fields")
            self.defaults = dict(zip(self.fields, values))
            self.lib.sml_best_softmax_with.argtypes = [vp, vp, ll, ll, i, ctypes.POINTER(i), i]
            if hasattr(self.lib, "sml_best_config_auto"):
                self.lib.sml_best_config_auto.argtypes = [ll, ll, i, ctypes.POINTER(i), i]

    def _check(self, code):
        if code != 0:
            raise RuntimeError("best: " + self.lib.sml_error_string(code).decode())

    def values(self, config):
        """The C API's array for a config() dict: every field, the ones left out at Config{}'s
        default."""
        if self.fields is None:
            raise RuntimeError("this libsmlbest.so predates sml_best_config_fields: it runs only "
                               "the dispatcher's own pick (auto)")
        unknown = set(config) - set(self.fields)
        assert not unknown, f"not fields of sml::best::Config: {sorted(unknown)}"
        return (ctypes.c_int * len(self.fields))(
            *[config.get(f, self.defaults[f]) for f in self.fields])

    def auto(self, rows, cols, code):
        """The dispatcher's own pick for a contiguous [rows, cols] problem, as a config() dict
        (None where the library predates sml_best_config_auto)."""
        if self.fields is None or not hasattr(self.lib, "sml_best_config_auto"):
            return None
        values = (ctypes.c_int * len(self.fields))()
        if self.lib.sml_best_config_auto(rows, cols, code, values, len(self.fields)) != len(
                self.fields):
            raise RuntimeError("sml_best_config_auto disagrees on the fields")
        return dict(zip(self.fields, values))

    def run(self, x, y, code, values=None):
        """best on x into y: the dispatcher's pick, or the configuration values() made."""
        args = (x.data_ptr(), y.data_ptr(), x.shape[0], x.shape[1], code)
        if values is None:
            self._check(self.lib.sml_best_softmax(*args))
        else:
            self._check(self.lib.sml_best_softmax_with(*args, values, len(values)))

    def describe(self, cols, code):
        buf = ctypes.create_string_buffer(256)
        self.lib.sml_best_describe(cols, code, buf, 256)
        return buf.value.decode()


class Timer:
    """CUDA-event samples of one launch each, from a cold L2.

    Contenders are timed interleaved: sample k of every contender at one N is taken before
    sample k + 1 of any, so a slow stretch of the GPU (clocks, a neighbour on the host) lands on
    all of them alike instead of on whichever was being timed -- one contender's 20 samples in a
    row once read 11% slow at one N, and that N alone, in two runs of the same build."""

    def __init__(self, samples, warmup=3):
        self.samples, self.warmup = samples, warmup
        l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 50 << 20)
        self.flush = torch.empty(2 * l2 // 4, dtype=torch.float32, device="cuda")
        self.start = torch.cuda.Event(enable_timing=True)
        self.end = torch.cuda.Event(enable_timing=True)

    def one(self, fn):
        self.flush.fill_(1.0)       # evicts the input from L2: every sample reads DRAM
        torch.cuda._sleep(100_000)  # ~50 us of GPU work: the launch below is queued in time
        self.start.record()
        fn()
        self.end.record()
        self.end.synchronize()
        return self.start.elapsed_time(self.end)

    def interleaved(self, fns):
        """{name: fn} -> {name: stats, or the exception's text}; each fn warmed up first."""
        times, failed = {n: [] for n in fns}, {}
        for name, fn in fns.items():
            try:
                for _ in range(self.warmup):
                    fn()
                torch.cuda.synchronize()
            except Exception as e:  # noqa: BLE001
                failed[name] = e
        for k in range(self.samples):
            names = [n for n in fns if n not in failed]
            for name in names[k % len(names):] + names[:k % len(names)] if names else []:
                try:
                    times[name].append(self.one(fns[name]))
                except Exception as e:  # noqa: BLE001
                    failed[name] = e
        out = {n: failure_text(e) for n, e in failed.items()}
        for n, t in times.items():
            if n not in failed:
                out[n] = {"min_ms": min(t), "median_ms": statistics.median(t), "max_ms": max(t),
                          "samples": len(t)}
        return out


def failure_text(e):
    torch.cuda.synchronize()
    return "fails: " + (str(e).strip().splitlines() or [type(e).__name__])[0][:200]


def rowsum_tolerance(dtype, cols):
    """How far from 1 a correctly rounded output row may sum. fp16 is normal only down to 2^-14:
    an output below that is a subnormal, on a grid of 2^-24, so each may be off by 2^-25 however
    it is rounded, and a row of N of them (N past ~16000, where 1/N is subnormal) may sum to
    1 +- N * 2^-25. bf16 and fp32 keep fp32's range: their tolerance alone."""
    tol = TOLERANCE[dtype]
    return tol + (cols * 2.0 ** -25 if dtype == "fp16" else 0.0)


def within_tolerance(point, dtype, cols):
    """Whether a checked point's errors (check()'s max_rel_error and max_rowsum_error; a missing
    one is not within) are within the dtype's tolerance at this N."""
    inf = float("inf")
    return (point.get("max_rel_error", inf) <= TOLERANCE[dtype] and
            point.get("max_rowsum_error", inf) <= rowsum_tolerance(dtype, cols))


def max_error(x, y, rows):
    """Worst relative error over sampled rows, and worst |sum(row) - 1|, against float64.

    Relative to max(|ref|, smallest normal of the dtype): below that the format itself has only
    absolute precision (fp16 subnormals start at 6.1e-5)."""
    ref = torch.softmax(x[rows].double(), dim=-1)
    got = y[rows].double()
    if not torch.isfinite(got).all():
        return float("inf"), float("inf")
    floor = torch.finfo(y.dtype).tiny
    rel = ((got - ref).abs() / ref.abs().clamp_min(floor)).max().item()
    rowsum = (got.sum(dim=-1) - 1).abs().max().item()
    return rel, rowsum


def check(name, fn, x, y, rows):
    """Compiles (first call) and checks one contender at one point; a failure is recorded, never
    raised. `fn` returns its output tensor (y, or a new one for torch.softmax); y is poisoned with
    NaN first so an element nobody wrote cannot pass the check."""
    point = {"contender": name}
    try:
        y.fill_(float("nan"))
        result = fn()
        torch.cuda.synchronize()
        if name != "copy":
            point["max_rel_error"], point["max_rowsum_error"] = max_error(x, result, rows)
        del result
    except Exception as e:  # noqa: BLE001 -- e.g. Triton's OutOfResources above N = 16384
        point["status"] = failure_text(e)
        return point
    point["status"] = "ok"
    return point


def parse_fields(spec):
    """"FIELD=V,FIELD=V..." (integers) -> dict; ValueError on anything else."""
    given = {}
    for kv in spec.split(","):
        key, sep, value = kv.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"{kv!r} is not FIELD=INTEGER")
        given[key.strip()] = int(value)
    return given


def config(path, **fields):
    """One configuration of best: its path (0 group, 1 cluster, 2 two-pass, 3 grid, 4 tile) and the
    fields of sml::best::Config it sets (kernels/best_softmax.h says what each means; sizes in
    16-byte packs). Fields left out keep Config{}'s defaults; BestLib.values() checks the names."""
    return dict(fields, path=path)


def slice_packs(packs, blocks):
    """A block's share of `packs`, in whole 128-byte lines (slice_packs, kernels/best/shapes.h)."""
    return -(-(-(-packs // blocks)) // 8) * 8


def held_prefetch(l2_bytes, regs, blocks, teams, threads, per_sm, stream=False, pair=False):
    """Places a thread of the held grid prefetches into L2 (held_prefetch, kernels/best_softmax.cu):
    a share of the L2 over the whole grid, a quarter where one team's blocks run alone on their
    SMs, a sixth in several teams, a twelfth where two blocks share an SM or the row streams; at
    most the register places. Two rows a team (`pair`): a twelfth in teams, at most a row's
    register places; none in one team."""
    if pair and teams == 1:
        return 0
    parts = 12 if per_sm > 1 or stream or pair else 4 if teams == 1 else 6
    places = l2_bytes // parts // (blocks * teams * threads * 16)
    return max(0, min(regs // 2 if pair else regs, places))


def grid_threads(cols, vec, blocks, ppt, edges=0):
    """The grid kernel's block for rows of `cols` values over `blocks` blocks at `ppt` packs a
    thread (best_grid_kernel), and the most threads it may have (grid_max_threads,
    kernels/best/shapes.h): main threads for the block's slice of the row's main packs -- all of
    a row of whole 128-byte lines, else all but a line's worth -- and at least one per block of a
    team (the first `blocks` threads read the slots), plus the edge warp for every other row (and
    for every row with `edges` 1, Config's field of that name; none on whole packs with -1)."""
    whole = cols % (8 * vec) == 0 and edges <= 0  # whole 128-byte lines (grid_whole_lines)
    if edges < 0:  # Config's edges = -1: rows of whole packs without the edge warp
        whole = cols % vec == 0
    inner = max(0, cols // vec - (0 if whole else 8))
    main = max(-(-(-(-slice_packs(inner, blocks) // ppt)) // 32) * 32, -(-blocks // 32) * 32)
    edge = 0 if whole else 32
    return main + edge, (1024 if ppt <= 2 else 2048 // ppt + edge)


def tune_configs(cols, dtype_bytes, sm_count, l2_bytes=50 << 20):
    """The configurations of best worth trying at this N: (label, config() dict).

    "auto" (None) is the dispatcher's own pick. l2_bytes: the GPU's L2 (the held grid's
    prefetch is a share of it)."""
    vec = 16 // dtype_bytes
    packs = -(-(cols + (vec - 1 if cols % vec else 0)) // vec)  # odd N: rows start unaligned
    out = [("auto", None)]
    if cols <= 1024 and cols * dtype_bytes <= 2048:  # the tile path (tile_for)
        # Lanes for up to 8 values a lane, and half as many lanes with up to 16; runs of 16 to
        # 40 KB in whole rounds of rows (a row for every group of lanes).
        for per_lane in (8, 16):
            width = 1
            while width < 32 and width * per_lane < cols:
                width *= 2
            values = 8 if cols <= width * 8 else (16 if cols <= width * 16 else 32)
            groups = 256 // width
            for tile_bytes in (16384, 24576, 32768, 40960):
                rows = max(1, tile_bytes // (cols * dtype_bytes) // groups) * groups
                label = f"tile w{width} k{values} r{rows}"
                if label not in [l for l, _ in out]:
                    out.append((label, config(4, width=width, packs=values, threads=256,
                                              rows=rows)))
                    # a warp's groups on rows 3, 5 or 7 apart (tile_spread picks one of them)
                    for spread in (3, 5, 7) if tile_bytes == 32768 and width < 32 else ():
                        out.append((f"{label} s{spread}",
                                    config(4, width=width, packs=values, threads=256, rows=rows,
                                           spread=spread)))
    if packs <= 64:  # the sub-warp group kernel, at five block sizes
        width, per_lane = 1, 1
        while width < 32 and width < packs:
            width *= 2
        while 32 * per_lane < packs:
            per_lane *= 2
        for threads in (32, 64, 128, 256, 512):
            if threads < width:
                continue
            out.append((f"group w{width} p{per_lane} t{threads}",
                        config(0, width=width, packs=per_lane, threads=threads)))
            if per_lane == 1:  # 2 rows a group by default; 4 and 8 as well
                for rows in (4, 8):
                    out.append((f"group w{width} p1 t{threads} r{rows}",
                                config(0, width=width, packs=1, threads=threads, rows=rows)))
        return out

    def threads_for(cluster, per_thread):
        threads = -(-(-(-packs // cluster)) // per_thread)
        return -(-threads // 32) * 32

    for ppt in (2, 4, 8):  # one block per row (1 pack a thread measured slow everywhere)
        threads = threads_for(1, ppt)
        if 32 <= threads <= 1024:
            out.append((f"cluster 1x{threads}x{ppt}p", config(1, packs=ppt, threads=threads)))
    if packs > 4096:  # clusters of 2-8 and 16 blocks at 8 packs a thread (the dispatcher's), and
        # 4 packs at the sizes that ever measured well with it (3, 5, 6, 12 blocks did not)
        for cluster in (2, 3, 4, 5, 6, 7, 8, 16):
            for ppt in (4, 8) if cluster in (2, 4, 7, 8, 16) else (8,):
                threads = threads_for(cluster, ppt)
                if 128 <= threads <= 1024:
                    out.append((f"cluster {cluster}x{threads}x{ppt}p",
                                config(1, packs=ppt, threads=threads, cluster=cluster)))
    if packs > 32768:  # 8 or 16 blocks of 8 packs a thread in registers, the rest of the slice
        # in shared memory (best_stash_kernel), at 512 and 384 threads
        for cluster in (8, 16):
            slice = slice_packs(packs, cluster)
            for threads in (512, 384):
                stash = -(-slice // threads) - 8
                if 1 <= stash and stash * threads * 16 <= 116 * 1024:
                    out.append((f"cluster {cluster}x{threads}x8p+{stash}",
                                config(1, packs=8, threads=threads, cluster=cluster,
                                       stash=stash)))
    if packs >= 65536:  # the grid: a block per SM in each of 1-4 teams, each on every teams-th row
        blocks = sm_count
        for ppt in (2, 4, 8):  # 1 pack a thread measured slower at every N (tune-5)
            threads, max_threads = grid_threads(cols, vec, blocks, ppt)
            if not 128 <= threads <= max_threads:
                continue
            for teams in (1, 2, 3, 4):
                if threads * teams > 1024:  # beyond that, registers run out at any shape
                    continue  # (a shape too large to be resident fails its launch, and says so)
                lags = ((2, 2), (3, 2), (4, 2)) if ppt == 4 else ((2, 2), (4, 2))
                if threads > 2048 // ppt:  # a warp over 512: the kWide kernel, built for lag 3
                    if ppt != 4:  # and for 4 packs alone
                        continue
                    lags = ((3, 2),)
                for lag, ahead in lags:  # (4, 4) measured no faster (tune-6)
                    if (lag + 1) * ppt * 4 + 36 > 65536 // max_threads:
                        continue  # the register ring of exps would spill (a rough bound)
                    if (ahead + 1) * ppt * threads * 16 * teams > 227 * 1024:
                        continue  # the shared-memory rings would not fit
                    out.append((f"grid {blocks}x{threads}x{ppt}p lag{lag} ahead{ahead} "
                                f"teams{teams}",
                                config(3, packs=ppt, threads=threads, cluster=blocks, lag=lag,
                                       ahead=ahead, teams=teams)))
        for cluster in (8, 16):
            for l2 in (1, 3):  # 0 and 2 (no L2 policies) measured slower at every N
                out.append((f"two-pass {cluster}x1024 l2={l2}",
                            config(2, threads=1024, cluster=cluster, l2=l2)))
    if packs >= 32768:  # the held grid (hold.cu): a team of blocks holds one row, 8 packs a
        # thread in registers (16-bit rows: 6 where the stash has room, hold_register_packs,
        # and 8 beside it) and the rest in shared memory; one block of 1024 threads an SM (the
        # dispatcher's, hold_for), or two of 512; as many teams as hold the row, and half as
        # many; the L2 prefetch as held_prefetch gives it. From 16-bit N = 262144 (fp32 131072),
        # below where the dispatcher takes it, so that rows on clusters and the grid can be
        # timed beside it.
        for threads, per_sm in ((1024, 1), (512, 2)):
            most_stash = (min(227 * 1024, 228 * 1024 // per_sm) - 2048) // (threads * 16)

            def places(teams):  # places a thread needs for the row in `teams` teams, or None
                blocks = sm_count * per_sm // teams  # where a team has more blocks than threads
                return -(-slice_packs(cols // vec, blocks) // threads) if blocks <= threads \
                    else None

            def most_teams(most_places):  # the most teams whose threads hold the row, or 0
                return next((t for t in range(min(64, sm_count * per_sm), 0, -1)
                             if places(t) is not None and places(t) <= most_places), 0)

            fits = most_teams(8 + most_stash)
            for teams in sorted({fits, max(1, fits // 2)}, reverse=True) if fits else ():
                blocks = sm_count * per_sm // teams
                held = places(teams)
                for regs in sorted({8, 6 if vec == 8 and held - 6 <= most_stash else 8}):
                    stash = max(0, held - regs)
                    prefetch = held_prefetch(l2_bytes, regs, blocks, teams, threads, per_sm)
                    out.append((f"held {blocks}x{threads}x{regs}p+{stash} teams{teams} "
                                f"pf{prefetch}",
                                config(3, packs=regs, threads=threads, cluster=blocks,
                                       stash=stash, teams=teams, lag=0, prefetch=prefetch)))
            # Two rows a team (Config::held = 2), one block of 1024 an SM: each row has half of
            # the 6 register packs (on 8 the kernel spilled and ran 10-17 points slower) and of
            # the stash; as many teams as hold two rows.
            two = most_teams(3 + most_stash // 2) if per_sm == 1 else 0
            if two:
                blocks = sm_count // two
                stash = 2 * max(0, places(two) - 3)
                pf = held_prefetch(l2_bytes, 6, blocks, two, threads, 1, pair=True)
                for prefetch in sorted({0, pf}):
                    out.append((f"held2 {blocks}x{threads}x6p+{stash} teams{two} pf{prefetch}",
                                config(3, packs=6, threads=threads, cluster=blocks, stash=stash,
                                       teams=two, lag=0, held=2, prefetch=prefetch)))
            if not fits:  # longer than the GPU holds: one team, every place full, the rest
                # of each thread's packs read twice (stream=1), 6 packs in registers (the
                # streamed kernel's, kStreamedHoldPacks in kernels/best/shapes.h), the
                # streamed rows' share of the L2 prefetched
                blocks = sm_count * per_sm
                prefetch = held_prefetch(l2_bytes, 6, blocks, 1, threads, per_sm, stream=True)
                out.append((f"held {blocks}x{threads}x6p+{most_stash} stream pf{prefetch}",
                            config(3, packs=6, threads=threads, cluster=blocks, stash=most_stash,
                                   teams=1, lag=0, stream=1, prefetch=prefetch)))
    if packs > 8192:  # past one block's registers: two passes of one block a row, as on a GPU
        # without clusters; blocks of fewer threads let two or four rows share an SM, so one
        # row's second pass overlaps another's first
        for threads in (256, 512, 1024):
            for l2 in (1, 3):
                out.append((f"two-pass 1x{threads} l2={l2}",
                            config(2, threads=threads, cluster=1, l2=l2)))
    return out


def cli_points(cli, cols, elements, workdir):
    """The project's own sweep of every registry kernel, read from its session JSON."""
    out = os.path.join(workdir, "cli_session.json")
    cmd = [cli, "sweep", "--kernels", "all", "--cols", ",".join(map(str, cols)),
           "--elements", str(elements), "--metrics", "off", "--out", out]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return cmd, [], proc.stderr.strip()[-500:]
    with open(out) as f:
        session = json.load(f)
    points = []
    for p in session.get("points", []):
        t = p.get("time", {})
        points.append({"contender": "cli:" + p.get("kernel", "?"), "cols": p.get("cols"),
                       "rows": p.get("rows"), "dtype": p.get("dtype"), "gbps": p.get("gbps"),
                       "median_ms": t.get("median_ms"), "pct_of_copy": p.get("pct_of_copy"),
                       "max_rel_error": p.get("max_rel_error"), "status": "ok"})
    return cmd, points, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lib", help="libsmlbest.so built from bench/best_capi.cu")
    ap.add_argument("--show", metavar="RESULTS_JSON",
                    help="print the markdown table of a results file (no GPU needed) and exit")
    ap.add_argument("--cols", default=",".join(map(str, DEFAULT_COLS)))
    ap.add_argument("--bytes", type=int, default=1 << 30, help="input size per point (1 GiB)")
    ap.add_argument("--dtype", default="fp32", choices=sorted(DTYPES))
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--tune", action="store_true", help="time best's alternatives, not peers")
    ap.add_argument("--only", metavar="TEXT", help="--tune: only the configurations whose label "
                    "contains TEXT (\"grid 132x256x4p lag4 ahead2 teams2\"), e.g. under ncu; "
                    "TEXT|TEXT... for any of several")
    ap.add_argument("--config", action="append", default=[], metavar="FIELD=V,FIELD=V...",
                    help="--tune: also time this configuration of best, given as fields of "
                    "sml::best::Config (kernels/best_softmax.h), e.g. path=3,cluster=13,"
                    "threads=288,packs=4,lag=4,ahead=2,teams=10; labelled \"cfg\" and its "
                    "fields; may be repeated")
    ap.add_argument("--vary", action="append", default=[], metavar="FIELD=V,FIELD=V...",
                    help="--tune: also time the dispatcher's own pick with these fields of "
                    "sml::best::Config changed, e.g. prefetch=0 or prefetch=4,teams=2; labelled "
                    "\"auto\" and the fields; may be repeated")
    ap.add_argument("--no-peers", action="store_true", help="only copy and best")
    ap.add_argument("--torch", action="store_true",
                    help="--tune: time torch.softmax beside the configurations too, interleaved "
                         "with them (for a shape that must beat torch, not only the pick)")
    ap.add_argument("--triton-max-block", type=int, default=1 << 19, metavar="ELEMENTS",
                    help="skip the Triton tutorial where its BLOCK_SIZE (next_pow2(N)) is larger: "
                         "compiling the tutorial for 2^20 fp16 values had not finished after more "
                         "than 4 minutes on an H100, and 2^19 took 191 s (default 2^19)")
    ap.add_argument("--cli", help="softmaxlab-cli, to add the lesson kernels from its sweep")
    ap.add_argument("--chart", metavar="PNG",
                    help="also draw the results with `softmaxlab-cli chart --chart peers` (needs "
                         "--cli, or softmaxlab-cli on PATH); .svg, .pdf or .csv work too")
    ap.add_argument("--out", default=os.path.join(HERE, "results"),
                    help="folder for the JSON, named <device>-<date>-<dtype>.json; a file of "
                         "that name already there is refused, never replaced")
    args = ap.parse_args()
    if args.show:
        result = load_results(args.show, "softmaxlab-peers/1", "bench/peers.py")
        cols = sorted({p["cols"] for p in result["points"]})
        print(f"{result['device']['name']}, {result['created_utc']}, {result['method']['dtype']}, "
              f"median of {result['method']['samples']}; GB/s (% of the same run's copy)")
        print_table(result["points"], cols)
        return 0
    if not args.lib:
        ap.error("--lib is required (build it from bench/best_capi.cu, see bench/README-peers.md)")
    if args.samples < 20:
        ap.error("--samples must be >= 20 (the project's method takes the median of >= 20)")
    configs, variations = [], []
    for spec in args.config:
        try:
            given = parse_fields(spec)
        except ValueError:
            ap.error(f"--config {spec!r}: give FIELD=INTEGER pairs separated by commas, e.g. "
                     "path=3,cluster=13,threads=288")
        if "path" not in given:
            ap.error(f"--config {spec!r}: name the path (path=0 group, 1 cluster, 2 two-pass, "
                     "3 grid, 4 tile)")
        configs.append((spec, given))
    for spec in args.vary:
        try:
            variations.append((spec, parse_fields(spec)))
        except ValueError:
            ap.error(f"--vary {spec!r}: give FIELD=INTEGER pairs separated by commas, e.g. "
                     "prefetch=0")
    if (configs or variations) and not args.tune:
        ap.error("--config and --vary need --tune")
    if torch is None or not torch.cuda.is_available():
        print("error: no CUDA device; run this on a machine with an NVIDIA GPU", file=sys.stderr)
        return 1

    if not args.tune:
        # The results file is named by device, date and dtype. One already there is an earlier
        # run's (a second run the same day, say): refused now, before any GPU time is spent,
        # never replaced. This run's own file is rewritten after every N.
        args.results_path = results_path(
            args.out, torch.cuda.get_device_properties(0).name,
            datetime.datetime.now(datetime.timezone.utc), args.dtype)
        if os.path.lexists(args.results_path):
            print(f"error: {args.results_path} exists (an earlier run's results); pass --out "
                  "with another folder, or move that file away first", file=sys.stderr)
            return 2
        try:
            os.makedirs(args.out, exist_ok=True)
        except OSError as e:
            print(f"error: --out {args.out}: cannot create the folder ({e.strerror})",
                  file=sys.stderr)
            return 2

    torch.manual_seed(0)
    tdtype, code = getattr(torch, DTYPES[args.dtype][0]), DTYPES[args.dtype][1]
    esize = torch.tensor([], dtype=tdtype).element_size()
    best = BestLib(args.lib)
    timer = Timer(args.samples)
    sm_count = torch.cuda.get_device_properties(0).multi_processor_count
    l2_bytes = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 50 << 20)
    triton_softmax = None
    if not (args.tune or args.no_peers):
        from triton_tutorial_softmax import TritonTutorialSoftmax
        triton_softmax = TritonTutorialSoftmax()

    cols_list = [int(c) for c in args.cols.split(",")]
    points = []
    for cols in cols_list:
        rows = max(1, args.bytes // (esize * cols))
        x = torch.randn(rows, cols, device="cuda", dtype=torch.float32).to(tdtype)
        y = torch.empty_like(x)
        bytes_moved = 2 * rows * cols * esize
        sample_rows = sorted(set([0, 1, rows // 2, rows - 1] + list(range(min(rows, 16)))))
        contenders = [("copy", lambda: y.copy_(x))]
        if args.tune:
            candidates = tune_configs(cols, esize, sm_count, l2_bytes)
            # The dispatcher's grid on rows of whole 128-byte lines (no edge warp) through the
            # kernel with the edge warp, which every other row takes (grid_whole_lines); on rows
            # of whole packs off a line, without it.
            pick = best.auto(rows, cols, code)
            if (pick is not None and pick["path"] == 3 and "edges" in pick
                    and cols % (16 // esize) == 0):
                blocks, ppt = pick["cluster"], pick["packs"]
                lines = cols * esize % 128 == 0
                edges = 1 if lines else -1
                threads, most = grid_threads(cols, 16 // esize, blocks, ppt, edges=edges)
                if threads <= most:  # over 512 threads at 4 packs: the kWide kernel, lag 3
                    lag = 3 if threads > 2048 // ppt else 4
                    candidates.append(("auto edges" if lines else "auto no edges",
                                       dict(pick, edges=edges, threads=threads, lag=lag)))
            candidates += [("cfg " + spec, given) for spec, given in configs]
            if variations and pick is None:
                print("error: --vary needs a library that reports its pick (sml_best_config_auto)",
                      file=sys.stderr)
                return 2
            candidates += [("auto " + spec, dict(pick, **given)) for spec, given in variations]
            if args.torch:
                contenders.append(("torch", lambda: torch.softmax(x, dim=-1)))
            for label, cfg in candidates:
                if args.only and not any(t in label for t in args.only.split("|")):
                    continue
                values = None if cfg is None else best.values(cfg)
                contenders.append((label, lambda v=values: best.run(x, y, code, v) or y))
        else:
            if triton_softmax is not None:
                contenders.append(("torch", lambda: torch.softmax(x, dim=-1)))
                contenders.append(("triton", lambda: triton_softmax(x, y)))
                block = 1 << (cols - 1).bit_length()  # the tutorial's BLOCK_SIZE
                if block > args.triton_max_block:
                    contenders[-1] = ("triton", None)
            contenders.append(("best", lambda: best.run(x, y, code) or y))
        points_here = []
        for name, fn in contenders:
            started = time.monotonic()
            if fn is None:  # not run (see --triton-max-block)
                p = {"contender": name, "status": f"skipped: BLOCK_SIZE {block} is above "
                     f"--triton-max-block {args.triton_max_block}"}
            else:
                p = check(name, fn, x, y, sample_rows)
            p["wall_s"] = round(time.monotonic() - started, 1)  # compile + check
            p.update({"cols": cols, "rows": rows, "dtype": args.dtype})
            points_here.append(p)
        fns = {n: fn for (n, fn), p in zip(contenders, points_here)
               if fn is not None and p["status"] == "ok"}
        timed = timer.interleaved(fns)
        copy_gbps = None
        for (name, _), p in zip(contenders, points_here):
            if name in timed:
                if isinstance(timed[name], str):
                    p["status"] = timed[name]
                else:
                    p.update(timed[name])
                    p["gbps"] = bytes_moved / (p["median_ms"] * 1e-3) / 1e9
            if name == "copy":
                copy_gbps = p.get("gbps")
            if name == "best" or (args.tune and name == "auto"):  # the pick, in words
                p["config"] = best.describe(cols, code)
            if p["status"] == "ok" and copy_gbps:
                p["pct_of_copy"] = 100.0 * p["gbps"] / copy_gbps
                if name != "copy" and not within_tolerance(p, args.dtype, cols):
                    p["status"] = f"wrong: error above {TOLERANCE[args.dtype]}"
            points.append(p)
            shown = f"{p['gbps']:8.0f} GB/s {p.get('pct_of_copy', 100):6.1f}%" \
                if p["status"] == "ok" else p["status"]
            print(f"N={cols:8d} {name:28s} {shown}  ({p['wall_s']} s)", flush=True)
            if args.tune and name == "auto":
                print(f"N={cols:8d} {'':28s} auto = {p['config']}", flush=True)
        del x, y
        torch.cuda.empty_cache()
        if not args.tune:  # after every N, so a run cut short still leaves its measurements
            write_results(args, points, None, "", complete=False, quiet=True)

    print_table(points, cols_list)
    if args.tune:
        return 0
    cli_cmd, cli_error = None, ""
    if args.cli:
        with tempfile.TemporaryDirectory() as tmp:
            cli_cmd, extra, cli_error = cli_points(args.cli, cols_list, args.bytes // esize, tmp)
        points += extra
    path = write_results(args, points, cli_cmd, cli_error)
    if args.chart:  # through the project's own chart exporter (core/chart), not matplotlib
        cli = args.cli or "softmaxlab-cli"
        proc = subprocess.run([cli, "chart", "--chart", "peers", "--peers", path,
                               "--out", args.chart], capture_output=True, text=True)
        print((proc.stdout + proc.stderr).strip())
        if proc.returncode != 0:
            return proc.returncode
    return 0


def print_table(points, cols_list):
    names = []
    for p in points:
        if p["contender"] not in names:
            names.append(p["contender"])
    cells = {(p["contender"], p["cols"]): p for p in points}
    print("\n| N | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for cols in cols_list:
        row = []
        for n in names:
            p = cells.get((n, cols))
            if p is None:
                row.append("")
            elif p["status"] != "ok":
                row.append(p["status"][:40])
            else:
                row.append(f"{p['gbps']:.0f} ({p.get('pct_of_copy') or 100:.1f}%)")
        print(f"| {cols} | " + " | ".join(row) + " |")


def read_results(path, schema, writer):
    """(result, None) for a results file that this project's `writer` wrote (its JSON `schema`,
    a dict with a list of points), else (None, why not)."""
    try:
        with open(path) as f:
            result = json.load(f)
    except OSError as e:
        return None, f"cannot read it ({e.strerror})"
    except (ValueError, UnicodeDecodeError) as e:
        return None, f"not a JSON file ({e})"
    if not isinstance(result, dict) or result.get("schema") != schema or \
            not isinstance(result.get("points"), list):
        return None, (f"not a results file of {writer} (schema {schema}); give one that "
                      f"{writer} --out wrote")
    return result, None


def load_results(path, schema, writer):
    """read_results, or SystemExit with a message that names the file and the problem."""
    result, why = read_results(path, schema, writer)
    if result is None:
        raise SystemExit(f"error: {path}: {why}")
    return result


def results_path(out_dir, device_name, when, dtype):
    """Where a run's results go: <device>-<date>-<dtype>.json in out_dir, the name the README
    tables and the chart tests find (the newest by name)."""
    slug = "".join(c if c.isalnum() else "-" for c in device_name.lower()).strip("-")
    while "--" in slug:
        slug = slug.replace("--", "-")
    return os.path.join(out_dir, f"{slug}-{when.strftime('%Y-%m-%d')}-{dtype}.json")


def write_results(args, points, cli_cmd, cli_error, complete=True, quiet=False):
    props = torch.cuda.get_device_properties(0)
    now = datetime.datetime.now(datetime.timezone.utc)
    import triton
    result = {
        "schema": "softmaxlab-peers/1",
        "device": {"name": props.name, "sm_count": props.multi_processor_count,
                   "l2_bytes": getattr(props, "L2_cache_size", None),
                   "memory_bytes": props.total_memory},
        "created_utc": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
        "software": {"torch": torch.__version__, "triton": triton.__version__,
                     "cuda": torch.version.cuda},
        "method": {"timing": "CUDA events around one call, L2 flushed before each sample, "
                             "GPU kept busy while the call is enqueued",
                   "order": "interleaved: sample k of every contender before sample k + 1 of any",
                   "samples": args.samples, "statistic": "median",
                   "gbps": "2 * rows * cols * element_bytes / median time",
                   "bytes_per_point": args.bytes, "dtype": args.dtype,
                   "best_via": "bench/best_capi.cu through ctypes, same process"},
        "cli_command": cli_cmd, "cli_error": cli_error,
        "complete": complete,  # false: the run stopped before its last N (e.g. a time limit)
        "points": points,
    }
    path = args.results_path  # named when the run started (main): one file, past midnight too
    with open(path + ".tmp", "w") as f:  # written whole, then renamed: never half a file
        json.dump(result, f, indent=1)
    os.replace(path + ".tmp", path)
    if not quiet:
        print(f"\nwrote {path}")
    return path


if __name__ == "__main__":
    sys.exit(main())
