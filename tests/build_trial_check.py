"""bench/build_libsmlbest.sh --trial, checked where there is no GPU (and no nvcc): several versions
of best built as one, each variant compiling only the units its change reaches; and
bench/trial_steps.sh, the steps of a trial's device call, around it. Stub compilers
stand in for nvcc and g++ (SML_NVCC, SML_CXX): an object holds its source's text, its dependency
file the quoted includes the source reaches through the -I folder, and a library the objects it
was linked from. The trees are copies of this repository's kernels/, so the units and includes
are the real ones.

Usage: python3 tests/build_trial_check.py REPO_ROOT"""
import difflib
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

root = os.path.abspath(sys.argv[1])
script = os.path.join(root, "bench", "build_libsmlbest.sh")
errors = []

STUB = r'''#!/usr/bin/env python3
import os, re, sys
args = sys.argv[1:]
def arg(flag):
    return args[args.index(flag) + 1] if flag in args else None
out = arg("-o")
if "-shared" in args:
    objs = [a for a in args if a.endswith(".o") and a != out]
    with open(out, "w") as f:
        for o in objs:
            f.write("OBJECT " + o + "\n" + open(o).read())
    sys.exit(0)
src = arg("-c")
inc = [a[2:] for a in args if a.startswith("-I") and len(a) > 2]
text = open(src).read()
if "#error stub" in text:
    sys.stderr.write(src + ": error: stub says no\n")
    sys.exit(1)
seen, todo = [], [src]
while todo:
    p = todo.pop()
    if p in seen:
        continue
    seen.append(p)
    for name in re.findall(r'^\s*#include "([^"]+)"', open(p).read(), re.M):
        for d in [os.path.dirname(p)] + inc:
            q = os.path.join(d, name)
            if os.path.isfile(q):
                todo.append(q)
                break
if "-MF" in args:
    with open(arg("-MF"), "w") as f:
        f.write(out + " : " + " \\\n    ".join(seen) + "\n")
with open(out, "w") as f:
    f.write("SOURCE " + src + "\n" + text)
'''


def copy_tree(dest):
    for part in ("kernels", "common"):
        if os.path.isdir(os.path.join(root, part)):
            shutil.copytree(os.path.join(root, part), os.path.join(dest, part))
    os.makedirs(os.path.join(dest, "bench"))
    shutil.copy(os.path.join(root, "bench", "best_capi.cu"), os.path.join(dest, "bench"))


def units(tree):
    out = ["bench/best_capi.cu"]
    for sub, exts in (("kernels", (".cu", ".cpp")), ("kernels/best", (".cu",))):
        for name in sorted(os.listdir(os.path.join(tree, sub))):
            if name.endswith(exts) and os.path.isfile(os.path.join(tree, sub, name)):
                out.append(f"{sub}/{name}")
    return out


def reaches(tree, unit, header):
    """Whether `unit` includes `header` (both relative to tree), directly or through others."""
    seen, todo = set(), [unit]
    while todo:
        p = todo.pop()
        if p == header:
            return True
        if p in seen:
            continue
        seen.add(p)
        for name in re.findall(r'^\s*#include "([^"]+)"', open(os.path.join(tree, p)).read(), re.M):
            for d in (os.path.dirname(p), ""):
                q = os.path.normpath(os.path.join(d, name))
                if os.path.isfile(os.path.join(tree, q)):
                    todo.append(q)
                    break
    return False


def append(tree, rel, text):
    with open(os.path.join(tree, rel), "a") as f:
        f.write(text)


def run(args, env):
    return subprocess.run(["bash", script] + args, env=env, capture_output=True, text=True,
                          timeout=300)


def read_units(path):
    out = {}
    for line in open(path):
        unit, _, how = line.rstrip("\n").partition(" ")
        out[unit] = how
    return out


def linked(lib):
    """The objects a stub library was linked from, with the source each object holds."""
    out = {}
    obj = None
    for line in open(lib):
        if line.startswith("OBJECT "):
            obj = line[len("OBJECT "):].rstrip("\n")
        elif line.startswith("SOURCE ") and obj:
            out[obj] = line[len("SOURCE "):].rstrip("\n")
    return out


with tempfile.TemporaryDirectory() as tmp:
    stub = os.path.join(tmp, "stubcc")
    with open(stub, "w") as f:
        f.write(STUB)
    os.chmod(stub, os.stat(stub).st_mode | stat.S_IXUSR)
    env = dict(os.environ, SML_NVCC=stub, SML_CXX=stub)

    base = os.path.join(tmp, "base")
    copy_tree(base)
    all_units = units(base)
    if len(all_units) < 10 or "kernels/best/hold.cu" not in all_units:
        errors.append(f"this repository's units look wrong: {all_units}")

    # A: a tree whose kernels/best/reduce.cuh changed (a header only some of best's units use).
    a = os.path.join(tmp, "tree_a")
    copy_tree(a)
    append(a, "kernels/best/reduce.cuh", "\n// trial A\n")
    # B: a patch to kernels/best/grid.cu, as `git diff` writes one.
    grid = open(os.path.join(base, "kernels/best/grid.cu")).read().splitlines(keepends=True)
    patch = os.path.join(tmp, "b.diff")
    with open(patch, "w") as f:
        f.writelines(difflib.unified_diff(grid, grid + ["// trial B\n"], "a/kernels/best/grid.cu",
                                          "b/kernels/best/grid.cu"))
    # C: kernels/launch.h changed (the host launch code) and a unit added.
    c = os.path.join(tmp, "tree_c")
    copy_tree(c)
    append(c, "kernels/launch.h", "\n// trial C\n")
    with open(os.path.join(c, "kernels/best/added.cu"), "w") as f:
        f.write('#include "kernels/best/shapes.h"\n')

    out = os.path.join(tmp, "trial")
    r = run(["--trial", out, f"old={base}", f"A={a}", f"B={patch}", f"C={c}"], env)
    if r.returncode != 0:
        errors.append(f"--trial failed ({r.returncode}): {r.stdout}{r.stderr}")
    else:
        expect = {
            "old": {u: True for u in all_units},
            "A": {u: reaches(base, u, "kernels/best/reduce.cuh") for u in all_units},
            "B": {u: u == "kernels/best/grid.cu" for u in all_units},
            "C": {u: reaches(base, u, "kernels/launch.h") for u in all_units},
        }
        expect["C"]["kernels/best/added.cu"] = True
        for name, want in expect.items():
            if not any(want.values()) or (name != "old" and all(want.values())):
                errors.append(f"{name}: the test's own expectation is degenerate: {want}")
            got = read_units(os.path.join(out, f"{name}.units"))
            want_text = {u: ("compiled" if w else "from old") for u, w in want.items()}
            if got != want_text:
                diff = {u: (got.get(u), want_text.get(u)) for u in set(got) | set(want_text)
                        if got.get(u) != want_text.get(u)}
                errors.append(f"{name}.units: (listed, expected) differ at {diff}")
            objs = linked(os.path.join(out, f"{name}.so"))
            tree = {"old": base, "A": a, "B": os.path.join(out, "src", "B"), "C": c}[name]
            srcs = sorted(objs.values())
            want_srcs = sorted(os.path.join(tree if w else base, u) for u, w in want.items())
            if srcs != want_srcs:
                errors.append(f"{name}.so links objects of {srcs}, expected {want_srcs}")
        b_grid = os.path.join(out, "src", "B", "kernels/best/grid.cu")
        if not os.path.isfile(b_grid) or not open(b_grid).read().endswith("// trial B\n"):
            errors.append("the patch B was not applied to its copy of the base's tree")

    # The plain build every device script runs: all of ROOT's units compiled and linked.
    plain = os.path.join(tmp, "plain.so")
    r = run([plain, base], env)
    if r.returncode != 0:
        errors.append(f"plain build failed ({r.returncode}): {r.stdout}{r.stderr}")
    elif sorted(linked(plain).values()) != sorted(os.path.join(base, u) for u in all_units):
        errors.append(f"plain build links {sorted(linked(plain).values())}, expected every unit "
                      f"of {base}")

    # Refusals: each a clear message and exit 2, nothing built.
    def refused(args, says, why):
        r = run(args, env)
        if r.returncode != 2 or says not in r.stderr:
            errors.append(f"{why}: expected exit 2 saying {says!r}, got {r.returncode}: "
                          f"{r.stderr.strip()}")
    refused(["--trial", out, f"old={base}"], "is not empty", "a folder already used")
    refused(["--trial", os.path.join(tmp, "t2"), f"old={patch}"], "must be a tree", "a patch base")
    refused(["--trial", os.path.join(tmp, "t3"), f"old={base}", f"old={a}"], "given twice",
            "a name twice")
    refused(["--trial", os.path.join(tmp, "t4"), f"old={base}", "A=/nonexistent.diff"],
            "no such folder or patch", "a missing patch")
    bad = os.path.join(tmp, "bad.diff")
    with open(bad, "w") as f:
        f.writelines(difflib.unified_diff(["no such line\n"], ["other\n"],
                                          "a/kernels/best/grid.cu", "b/kernels/best/grid.cu"))
    refused(["--trial", os.path.join(tmp, "t5"), f"old={base}", f"A={bad}"], "does not apply",
            "a patch that does not apply")
    refused(["--trial", os.path.join(tmp, "t6")], "at least one library", "no library")

    # A unit that fails to compile is named, with its messages, and the run fails.
    d = os.path.join(tmp, "tree_d")
    copy_tree(d)
    append(d, "kernels/best/tile.cu", "\n#error stub\n")
    r = run(["--trial", os.path.join(tmp, "t7"), f"old={base}", f"D={d}"], env)
    if r.returncode == 0 or "D: kernels/best/tile.cu failed" not in r.stderr or \
            "stub says no" not in r.stderr:
        errors.append(f"a failing unit: expected its name and message, got {r.returncode}: "
                      f"{r.stderr.strip()}")
    # The same in the plain build: exit 1, the unit named, no library; a tree without best: exit 2.
    plain_d = os.path.join(tmp, "plain-d.so")
    r = run([plain_d, d], env)
    if r.returncode != 1 or "kernels/best/tile.cu failed to compile" not in r.stderr or \
            "stub says no" not in r.stderr or os.path.exists(plain_d):
        errors.append(f"plain build, a failing unit: expected exit 1 naming it, got "
                      f"{r.returncode}: {r.stderr.strip()}")
    r = run([os.path.join(tmp, "plain-e.so"), tmp], env)
    if r.returncode != 2 or "has no kernels/best_softmax.cu" not in r.stderr:
        errors.append(f"plain build of a folder without best: expected exit 2, got "
                      f"{r.returncode}: {r.stderr.strip()}")

    # bench/trial_steps.sh, the steps a trial's device script sources, with the stub compilers
    # and a stub Python that records what it was asked to run.
    out_dir = os.path.join(tmp, "out")
    os.makedirs(out_dir)
    calls = os.path.join(tmp, "python-calls.txt")
    py = os.path.join(tmp, "stubpython")
    with open(py, "w") as f:
        f.write("#!/bin/sh\necho \"$*\" >> " + calls + "\necho \"round 1 x\"\necho \"| summary |\"\n")
    os.chmod(py, os.stat(py).st_mode | stat.S_IXUSR)
    tdir = os.path.join(tmp, "trial-steps")
    steps = f"""set -e
source bench/trial_steps.sh
trial_start abc123
trial_libs old={base} B={patch}
trial_ab band --draw 16:64:2 --dtypes fp16
trial_tune tiles fp16 567,671 --only 'auto|tile'
if trial_ab 'bad name' --cols 5; then echo accepted-bad-name; fi
trial_pack
OUT={tmp}/out2
mkdir "$OUT"
if trial_libs old={base} >/dev/null; then echo reused-a-full-folder; fi
unset TRIAL_DIR_GIVEN TRIAL_DIR
first_dir=$(trial_libs old={base} >/dev/null; echo "$TRIAL_DIR")
trial_libs old={base} >/dev/null
[ -n "$first_dir" ] && [ -f "$first_dir/old.so" ] && [ "$TRIAL_DIR" != "$first_dir" ] &&
    [ -f "$TRIAL_DIR/old.so" ] && echo "new-folders-ok"
rm -rf "$first_dir" "$TRIAL_DIR"
"""
    r = subprocess.run(["bash", "-c", steps], cwd=root, capture_output=True, text=True, timeout=300,
                       env=dict(env, OUT=out_dir, TRIAL_DIR=tdir, TRIAL_PYTHON=py))
    if r.returncode != 0 or "accepted-bad-name" in r.stdout or "name a step" not in r.stderr or \
            "reused-a-full-folder" in r.stdout or "new-folders-ok" not in r.stdout:
        errors.append(f"trial_steps.sh: {r.returncode}: {r.stdout}{r.stderr}")
    else:
        import tarfile
        with tarfile.open(os.path.join(out_dir, "trial.tar.gz")) as t:
            packed = sorted(t.getnames())
        want = ["ab-band.txt", "build.txt", "gpu.txt", "times.txt", "tune-tiles.txt", "units.txt"]
        if packed != want:
            errors.append(f"trial_pack packed {packed}, expected {want}")
        left = sorted(os.listdir(out_dir))
        if left != ["gpu.txt", "times.txt", "trial.tar.gz"]:
            errors.append(f"trial_pack left {left} in OUT")
        asked = open(calls).read().splitlines()
        ab_want = (f"bench/ab_libs.py --rounds 2 --draw 16:64:2 --dtypes fp16 --out "
                   f"{out_dir}/ab-band.json old={tdir}/old.so B={tdir}/B.so")
        tune_want = (f"bench/peers.py --lib {tdir}/old.so --tune --no-peers --dtype fp16 --cols "
                     "567,671 --only auto|tile")
        if asked != [ab_want, tune_want]:
            errors.append(f"trial_steps.sh ran {asked}, expected {[ab_want, tune_want]}")
        times = open(os.path.join(out_dir, "times.txt")).read()
        # The digest of the files the libraries are built from, as trial_tree_digest defines it.
        import hashlib
        listing = ""
        files = []
        for top in ("kernels", "common"):
            for d, _, names in os.walk(os.path.join(root, top)):
                files += [os.path.relpath(os.path.join(d, n), root) for n in names]
        files.append("bench/best_capi.cu")
        for rel in sorted(files, key=lambda p: p.encode()):
            with open(os.path.join(root, rel), "rb") as f:
                listing += f"{hashlib.sha256(f.read()).hexdigest()}  {rel}\n"
        digest = hashlib.sha256(listing.encode()).hexdigest()[:16]
        for mark in ("start", f"(base abc123, files {digest})", "built", "ab band", "tune tiles"):
            if mark not in times:
                errors.append(f"times.txt lacks {mark!r}: {times}")
        if "== ab-band.txt" not in r.stdout or "| summary |" not in r.stdout:
            errors.append(f"trial_pack did not print the A/B summary: {r.stdout}")

for e in errors:
    print("FAIL:", e)
print(f"build_libsmlbest.sh --trial and trial_steps.sh: {len(errors)} problems")
sys.exit(1 if errors else 0)
