"""The GPU machine's Python tools, checked where there is no GPU: every script in bench/ and
scripts/ compiles, and bench/peers.py's tuning list is well formed at N drawn from 16 to 2^25 for
GPUs of several sizes. A broken line there is otherwise found only on a device call.

Usage: python3 tests/bench_scripts_check.py REPO_ROOT"""
import datetime
import glob
import json
import math
import os
import random
import re
import sys
import tempfile

root = sys.argv[1]
errors = []
scripts = sorted(glob.glob(os.path.join(root, "bench", "*.py")) +
                 glob.glob(os.path.join(root, "scripts", "*.py")))
if not scripts:
    errors.append(f"no scripts under {root}/bench or {root}/scripts")
for path in scripts:
    try:  # compiled in memory: nothing is written next to the sources
        with open(path, encoding="utf-8") as f:
            compile(f.read(), path, "exec")
    except SyntaxError as e:
        errors.append(f"{os.path.relpath(path, root)}:{e.lineno}: {e.msg}")

# The fields peers.py may set are sml::best::Config's (SML_BEST_CONFIG_FIELDS).
with open(os.path.join(root, "kernels", "best_softmax.h"), encoding="utf-8") as f:
    fields = set(re.findall(r"X\(\w+, (\w+), ", f.read()))
if "path" not in fields or "stash" not in fields:
    errors.append(f"could not read Config's fields from kernels/best_softmax.h: {sorted(fields)}")
# The held grid's register packs (kernels/best/shapes.h): its launch takes no other count.
with open(os.path.join(root, "kernels", "best", "shapes.h"), encoding="utf-8") as f:
    m = re.search(r"constexpr int kHoldPacks = (\d+), kStreamedHoldPacks = (\d+);", f.read())
if not m:
    errors.append("could not read kHoldPacks and kStreamedHoldPacks from kernels/best/shapes.h")
hold_packs = {0: int(m.group(1)), 1: int(m.group(2))} if m else {}
# The grid kernel's (lag, rows ahead) instantiations (with_grid_shape, kernels/best/grid.cu): for
# every pack count, and those inside its `if constexpr (P == 4)` block for 4 packs alone. A tune
# entry of another shape is refused at launch ("invalid configuration argument").
with open(os.path.join(root, "kernels", "best", "grid.cu"), encoding="utf-8") as f:
    grid_src = f.read()
body = grid_src[grid_src.find("static auto with_grid_shape"):]
body = body[:body.find("return none();\n    };")]
four_at = body.find("if constexpr (P == 4) {")
four_end = body.find("\n        }\n", four_at)  # the block's own closing line
grid_shapes = {"all": set(), "four": set()}
for m in re.finditer(r"c\.lag == (\d+) && ahead == (\d+)", body):
    inside = four_at >= 0 and four_at < m.start() < four_end
    grid_shapes["four" if inside else "all"].add((int(m.group(1)), int(m.group(2))))
if not grid_shapes["all"] or not grid_shapes["four"]:
    errors.append(f"could not read the grid kernel's shapes from kernels/best/grid.cu: {grid_shapes}")

if not any("peers.py" in e for e in errors):
    sys.path.insert(0, os.path.join(root, "bench"))
    import peers  # torch is optional for the tuning list

    # --config and --vary read FIELD=INTEGER lists; anything else is refused.
    if peers.parse_fields("prefetch=4, teams=2") != {"prefetch": 4, "teams": 2}:
        errors.append(f"parse_fields misreads 'prefetch=4, teams=2': "
                      f"{peers.parse_fields('prefetch=4, teams=2')}")
    for bad in ("prefetch", "prefetch=x", "=4", "prefetch=4,"):
        try:
            peers.parse_fields(bad)
            errors.append(f"parse_fields accepts {bad!r}")
        except ValueError:
            pass

    # Results files are named by device, date and dtype, the names readme_tables.py and the
    # chart tests sort by (main refuses to start where that file already exists).
    got = peers.results_path("bench/results", "NVIDIA H100 80GB HBM3",
                             datetime.datetime(2026, 11, 27, 23, 59), "bf16")
    if got != os.path.join("bench/results", "nvidia-h100-80gb-hbm3-2026-11-27-bf16.json"):
        errors.append(f"peers.results_path: {got}")

    # --show of a file that is missing, not JSON, or another tool's: a message, not a traceback.
    with tempfile.TemporaryDirectory() as tmp:
        cases = {"missing.json": None, "text.json": "not json", "other.json": '{"schema": "x"}'}
        for name, text in cases.items():
            path = os.path.join(tmp, name)
            if text is not None:
                with open(path, "w") as f:
                    f.write(text)
            try:
                peers.load_results(path, "softmaxlab-peers/1", "bench/peers.py")
                errors.append(f"peers.load_results accepts {name}")
            except SystemExit as e:
                if not str(e).startswith(f"error: {path}: "):
                    errors.append(f"peers.load_results({name}): {e}")

    rng = random.Random(20261126)
    checked = 0
    # Drawn shapes, and the top of the grid's range, where its 8-pack blocks pass 256 threads.
    shapes = [(2015938, 2, 132), (1007969, 4, 132)]
    for _ in range(400):
        shapes.append((round(math.exp(rng.uniform(math.log(16), math.log(1 << 25)))),
                       rng.choice((4, 2)), rng.choice((28, 40, 58, 80, 108, 114, 128, 132, 170))))
    for cols, dtype_bytes, sms in shapes:
        what = f"tune_configs({cols}, {dtype_bytes}, {sms})"
        try:
            configs = peers.tune_configs(cols, dtype_bytes, sms)
        except Exception as e:  # noqa: BLE001  (any failure is the finding)
            errors.append(f"{what} raised {type(e).__name__}: {e}")
            continue
        labels = [label for label, _ in configs]
        if "auto" not in labels:
            errors.append(f"{what} has no 'auto' entry")
        if len(set(labels)) != len(labels):
            errors.append(f"{what} repeats a label: "
                          f"{sorted({x for x in labels if labels.count(x) > 1})}")
        for label, cfg in configs:
            if cfg is None:
                continue
            unknown = set(cfg) - fields
            bad = [k for k, v in cfg.items() if not isinstance(v, int) or v < -1]
            if unknown or bad or cfg.get("path") not in range(5):
                errors.append(f"{what} '{label}': unknown fields {sorted(unknown)}, "
                              f"values not small ints {bad}, path {cfg.get('path')}")
            # The held grid's launch takes kHoldPacks or kStreamedHoldPacks register packs (the
            # latter alone when it streams or holds two rows a team, which it never does while
            # streaming), and prefetches at most its register places.
            if cfg.get("path") == 3 and cfg.get("lag", 0) == 0 and hold_packs:
                two = cfg.get("held", 0) == 2
                streams = cfg.get("stream", 0) != 0
                allowed = {hold_packs[1]} if streams or two else set(hold_packs.values())
                if cfg.get("packs") not in allowed or (two and streams) or \
                        cfg.get("held", 0) not in (0, 1, 2):
                    errors.append(f"{what} '{label}': a held grid with {cfg.get('packs')} "
                                  f"register packs, stream={cfg.get('stream', 0)} and "
                                  f"held={cfg.get('held', 0)}, which its launch refuses")
                if not 0 <= cfg.get("prefetch", 0) <= cfg.get("packs", 0):
                    errors.append(f"{what} '{label}': prefetch {cfg.get('prefetch')} outside "
                                  f"0..{cfg.get('packs')}, which its launch refuses")
            # The grid kernel is built for a few (lag, rows ahead) pairs only.
            if cfg.get("path") == 3 and cfg.get("lag", 0) > 0 and grid_shapes["all"]:
                shape = (cfg["lag"], cfg.get("ahead", 0) or 2)
                built = grid_shapes["all"] | (grid_shapes["four"] if cfg.get("packs") == 4
                                              else set())
                if shape not in built:
                    errors.append(f"{what} '{label}': the grid kernel is not built for lag "
                                  f"{shape[0]}, {shape[1]} rows ahead at {cfg.get('packs')} "
                                  f"packs, so its launch refuses it")
        checked += 1
    print(f"{len(scripts)} scripts compile; peers.py's tuning list checked at {checked} shapes")

# scan_best.py: an odd M for the misaligned check that a long row keeps within its memory bound,
# and a summary that counts a point which did not finish as not correct, without raising, and
# keeps points past 2^24 in a band of their own.
if not any("scan_best.py" in e for e in errors):
    import scan_best
    for cols in (1, 16, 1000, 3627506, 3627507, 1 << 24, 31122746, 1 << 30, (1 << 31) - 1):
        rows = scan_best.misaligned_rows(cols)
        if rows % 2 == 0 or not 3 <= rows <= 37 or (
                rows > 3 and rows * cols > scan_best.MISALIGNED_VALUES):
            errors.append(f"scan_best.misaligned_rows({cols}) = {rows}")
    points = [
        {"dtype": "fp32", "cols": 1000, "band": scan_best.band_of(1000), "max_rel_error": 0.0,
         "max_rowsum_error": 0.0, "misaligned_max_error": 0.0, "pct_of_copy": 99.0,
         "vs_torch": 1.1},
        {"dtype": "fp32", "cols": 31122746, "band": scan_best.band_of(31122746),
         "max_rel_error": 0.0, "max_rowsum_error": 0.0, "error": "CUDA out of memory"},
        {"dtype": "fp32", "cols": 20000000, "band": scan_best.band_of(20000000),
         "max_rel_error": 0.0, "max_rowsum_error": 0.0, "misaligned_max_error": 1.0,
         "pct_of_copy": 70.0, "vs_torch": 7.0},
    ]
    try:
        rows = scan_best.summary(points, 95.0)
    except Exception as e:  # noqa: BLE001
        errors.append(f"scan_best.summary raised {type(e).__name__}: {e}")
        rows = []
    past = [r for r in rows if r["band"] == scan_best.band_of(1 << 25)]
    if scan_best.band_of(1 << 25) == "other" or len(past) != 1 or past[0]["points"] != 2 or \
            past[0]["wrong"] != 2 or past[0]["median_pct"] != 70.0:
        errors.append(f"scan_best.summary past 2^24: {past}")
    if [scan_best.verdict(p).split()[0] for p in points] != ["ok", "ERROR", "WRONG"]:
        errors.append("scan_best.verdict: " + str([scan_best.verdict(p) for p in points]))

    # --history: a row per scan file under a folder, oldest first; other JSON and symlinks are
    # not read.
    with tempfile.TemporaryDirectory() as tmp:
        def scan_file(rel, created, command, pts, device="NVIDIA H100 80GB HBM3"):
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            with open(os.path.join(tmp, rel), "w") as f:
                json.dump({"schema": "softmaxlab-scan/1", "seed": 7, "seed_drawn": True,
                           "created_utc": created, "command": command, "points": pts,
                           "device": device}, f)
        scan_file("b/late.json", "2026-01-02T00:00:00Z", "scan_best.py --hi 1024", points[:1],
                  device="NVIDIA H200")
        scan_file("a/early.json", "2026-01-01T00:00:00Z", "scan_best.py --count 3", points)
        with open(os.path.join(tmp, "other.json"), "w") as f:
            json.dump({"schema": "softmaxlab-peers/1", "points": [1]}, f)
        os.symlink(os.path.join(tmp, "a", "early.json"), os.path.join(tmp, "link.json"))
        hist = scan_best.history(tmp)
        want = [("a/early.json", 16, 1 << 24, 3, 1, (1, 1), (0, 2), 70.0),
                ("b/late.json", 16, 1024, 1, 1, (1, 1), (0, 0), None)]
        got = [(r["file"], r["lo"], r["hi"], r["points"], r["correct"], r["under"], r["past"],
                r["median_past_2p21"]) for r in hist]
        if got != want:
            errors.append(f"scan_best.history: {got}")
        # Scans inside a device call's archive are read in memory, named ARCHIVE:MEMBER; other
        # members and an archive that cannot be read are skipped.
        import io
        import tarfile
        os.makedirs(os.path.join(tmp, "d"))
        with tarfile.open(os.path.join(tmp, "d", "check-measure.tar.gz"), "w:gz") as tar:
            for member, obj in (("check-measure/scan-full.json",
                                 {"schema": "softmaxlab-scan/1", "seed": 9, "seed_drawn": True,
                                  "created_utc": "2026-01-05T00:00:00Z", "device": "NVIDIA H200",
                                  "command": "scan_best.py --count 3", "points": points}),
                                ("check-measure/session.json", {"schema": "other", "points": [1]})):
                data = json.dumps(obj).encode()
                info = tarfile.TarInfo(member)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        with open(os.path.join(tmp, "d", "broken.tar.gz"), "wb") as f:
            f.write(b"not gzip")
        archived = [r["file"] for r in scan_best.history(tmp)][2:]
        if archived != ["d/check-measure.tar.gz:check-measure/scan-full.json"]:
            errors.append(f"scan_best.history in archives: {archived}")
        os.remove(os.path.join(tmp, "d", "check-measure.tar.gz"))
        os.remove(os.path.join(tmp, "d", "broken.tar.gz"))
        # --device: only the scans of GPUs so named, any case; each row names its GPU.
        if [r["device"] for r in hist] != ["H100 80GB HBM3", "H200"] or \
                [r["file"] for r in scan_best.history(tmp, device="h200")] != ["b/late.json"]:
            errors.append(f"scan_best.history by device: {[r['device'] for r in hist]}")

        # --shapes: draws grouped by the shape best ran (sizes taken out), since a time, in a
        # band of N; wrong and unfinished draws left out; weakest median first.
        held = ("held grid 88 blocks x 512 threads x 8 packs + {} in shared memory, 3 teams, "
                "2 prefetched into L2")
        if scan_best.shape_of(held.format(11)) != \
                "held grid 512 threads x 8 packs + stash, 3 teams":
            errors.append(f"scan_best.shape_of: {scan_best.shape_of(held.format(11))!r}")
        base = {"max_rel_error": 0.0, "max_rowsum_error": 0.0, "misaligned_max_error": 0.0,
                "vs_torch": 2.0}
        def pt(dtype, cols, pct, config, **extra):
            return dict(base, dtype=dtype, cols=cols, band=scan_best.band_of(cols),
                        pct_of_copy=pct, config=config, **extra)
        scan_file("c/shapes.json", "2026-01-03T00:00:00Z", "scan_best.py --lo 1048576", [
            pt("fp32", 3000000, 86.0, held.format(11)),
            pt("fp32", 3100000, 88.0, held.format(12)),
            pt("bf16", 6000000, 85.0, held.format(10)),
            pt("fp32", 3200000, 10.0, held.format(11), misaligned_max_error=1.0),  # wrong
            pt("fp32", 5000000, 90.0, "held grid 66 blocks x 1024 threads x 8 packs + 9 in "
               "shared memory, 2 teams, 6 prefetched into L2"),
            pt("fp32", 4000, 99.0, "cluster 1 x 1024 threads x 1 packs")])  # below --from
        got = [(r["shape"], r["dtypes"], r["draws"], r["median_pct"], r["least_n"], r["most_n"])
               for r in scan_best.shapes(tmp, since="2026-01-03")]
        want = [("held grid 512 threads x 8 packs + stash, 3 teams", "16-bit", 1, 85.0, 6000000,
                 6000000),
                ("held grid 512 threads x 8 packs + stash, 3 teams", "fp32", 2, 87.0, 3000000,
                 3100000),
                ("held grid 1024 threads x 8 packs + stash, 2 teams", "fp32", 1, 90.0, 5000000,
                 5000000)]
        if got != want:
            errors.append(f"scan_best.shapes: {got}")
        if scan_best.shapes(tmp, since="2026-01-04"):
            errors.append("scan_best.shapes: a scan before --since counted")
        if scan_best.shapes(tmp, since="2026-01-03", device="H200") or \
                len(scan_best.shapes(tmp, since="2026-01-03", device="h100")) != 3:
            errors.append("scan_best.shapes: --device let in another GPU's scan, or left out one")
        if len(scan_best.shapes(tmp, since="2026-01-03T00:00Z")) != 3:
            errors.append("scan_best.shapes: --since with a Z left out a scan made at that time")
        # A band ending at or below --from's default: exit 2, naming the default, when --from
        # was not given; without that note when it was.
        import subprocess
        script = os.path.join(os.path.dirname(scan_best.__file__), "scan_best.py")
        for extra, note in (([], True), (["--from", "4096"], False)):
            r = subprocess.run([sys.executable, script, "--shapes", tmp, "--to", "1024", *extra],
                               capture_output=True, text=True, timeout=60)
            if r.returncode != 2 or "--from must be below --to" not in r.stderr or \
                    ("defaults to 2^20" in r.stderr) != note:
                errors.append(f"scan_best --to 1024 {extra}: exit {r.returncode}, {r.stderr!r}")

# ab_libs.py: its arguments are refused before the GPU is touched, and a seed draws the same points.
try:
    import ab_libs
except Exception as e:  # noqa: BLE001
    errors.append(f"import ab_libs: {type(e).__name__}: {e}")
    ab_libs = None
if ab_libs is not None:
    if ab_libs.parse_libs(["old=/a.so", "/tmp/new.so"]) != [("old", "/a.so"), ("new", "/tmp/new.so")]:
        errors.append(f"ab_libs.parse_libs: {ab_libs.parse_libs(['old=/a.so', '/tmp/new.so'])}")
    for bad in (["a=/x.so", "a=/y.so"], ["=/x.so"], ["a="], ["/x/lib.so", "/y/lib.so"]):
        try:
            ab_libs.parse_libs(bad)
            errors.append(f"ab_libs.parse_libs accepts {bad}")
        except ValueError:
            pass
    for bad in ("16:100", "8:100:2", "100:16:2", "16:100:0", "a:b:c", "16:2147483648:1"):
        try:
            ab_libs.parse_draw(bad)
            errors.append(f"ab_libs.parse_draw accepts {bad!r}")
        except ValueError:
            pass

    class Args:
        cols, draw, seed, dtypes = None, "1000:5000000:12", 1234, "fp32,bf16"
    first, seed = ab_libs.points_of(Args)
    again, _ = ab_libs.points_of(Args)
    if seed != 1234 or first != again or len(first) != 12 or \
            any(d not in ("fp32", "bf16") or not 1000 <= n <= 5000000 for d, n in first):
        errors.append(f"ab_libs.points_of --draw: seed {seed}, {first} then {again}")
    Args.cols, Args.dtypes = "17,4096", "fp16,fp32"
    if ab_libs.points_of(Args) != ([("fp16", 17), ("fp16", 4096), ("fp32", 17), ("fp32", 4096)],
                                   None):
        errors.append(f"ab_libs.points_of --cols: {ab_libs.points_of(Args)}")
    results = [{"dtype": "fp32", "cols": 17, "pct_of_copy": {"a": 90.0, "b": 93.0}},
               {"dtype": "fp32", "cols": 17, "pct_of_copy": {"a": 92.0, "b": "wrong: error 1"}}]
    if "| fp32 | 17 | 91.0% | 93.0% (+2.0) |" not in ab_libs.summary(results, ["a", "b"]):
        errors.append("ab_libs.summary: " + ab_libs.summary(results, ["a", "b"]))

for e in errors:
    print("error:", e)
sys.exit(1 if errors else 0)
