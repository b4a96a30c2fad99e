"""The GPU machine's Python tools, checked where there is no GPU: every script in bench/ and
scripts/ compiles, and bench/peers.py's tuning list is well formed at N drawn from 16 to 2^25 for
GPUs of several sizes. A broken line there is otherwise found only on a device call.

Usage: python3 tests/bench_scripts_check.py REPO_ROOT"""
import glob
import math
import os
import random
import re
import sys

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

    rng = random.Random(20261126)
    checked = 0
    for _ in range(400):
        cols = round(math.exp(rng.uniform(math.log(16), math.log(1 << 25))))
        dtype_bytes = rng.choice((4, 2))
        sms = rng.choice((28, 40, 58, 80, 108, 114, 128, 132, 170))
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
            if cfg.get("path") == 3 and cfg.get("lag", 0) == 0 and hold_packs and \
                    cfg.get("packs") != hold_packs.get(cfg.get("stream", 0)):
                errors.append(f"{what} '{label}': a held grid with {cfg.get('packs')} register "
                              f"packs and stream={cfg.get('stream', 0)}, which its launch refuses")
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

for e in errors:
    print("error:", e)
sys.exit(1 if errors else 0)
