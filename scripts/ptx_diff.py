#!/usr/bin/env python3
"""Checks that a refactor left the generated GPU code alone.

Compares the kernels of two sets of files, entry by entry, and prints what differs:
  PTX    (nvcc -ptx): the set of .entry functions and each one's body, ignoring .loc and .file
         lines, comments, whitespace and the function's number in its branch labels (its place
         in the file); .func bodies too (a helper the compiler did not inline);
  ptxas  (nvcc -c -Xptxas -v, its stderr): each function's registers, spills, stack, barriers and
         shared memory.
The files of each side are concatenated, so one side may be one big .cu and the other several.

  scripts/ptx_diff.py --ptx before.ptx -- after/*.ptx
  scripts/ptx_diff.py --ptxas before.txt -- after/*.txt
Exit status 0 when both sides are the same, 1 otherwise.
"""
import re
import sys

LABEL = re.compile(r"\$L__BB\d+_")
FUNC = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?(\.entry|\.func)\s+(?:\([^)]*\)\s*)?([\w$]+)")


def ptx_functions(paths):
    """{(kind, name): normalised body} over every file."""
    out = {}
    for path in paths:
        with open(path) as f:
            lines = f.read().splitlines()
        i = 0
        while i < len(lines):
            m = FUNC.match(lines[i])
            if not m:
                i += 1
                continue
            kind, name = m.group(1), m.group(2)
            body, depth, opened = [], 0, False
            while i < len(lines):
                line = lines[i].split("//")[0].strip()
                i += 1
                if not line or line.startswith(".loc") or line.startswith(".file"):
                    continue
                # Branch labels carry the function's position in its module ($L__BB<k>_<n>).
                body.append(LABEL.sub("$L__BB_", " ".join(line.split())))
                depth += line.count("{") - line.count("}")
                opened = opened or "{" in line
                if line.endswith(";") and not opened:  # a declaration, not a definition
                    body = None
                    break
                if opened and depth == 0:
                    break
            if body is not None:
                key = (kind, name)
                if key in out and out[key] != body:
                    print(f"{path}: {kind} {name} defined twice, differently")
                out[key] = body
    return out


PTXAS_FUNC = re.compile(r"(?:Compiling entry function|Function properties for) '?([\w$]+)'?")


def ptxas_properties(paths):
    """{function: [its stack/spill line, its registers/smem line]} over every file."""
    out = {}
    for path in paths:
        current = None
        with open(path) as f:
            for line in f:
                m = PTXAS_FUNC.search(line)
                if m:
                    current = m.group(1)
                    out.setdefault(current, [])
                    continue
                if current and ("stack frame" in line or "Used " in line):
                    text = " ".join(line.replace("ptxas info    :", "").split())
                    if text not in out[current]:
                        out[current].append(text)
    return out


def compare(before, after, what):
    same = True
    for key in sorted(set(before) - set(after)):
        print(f"{what}: only before: {key}")
        same = False
    for key in sorted(set(after) - set(before)):
        print(f"{what}: only after: {key}")
        same = False
    differ = [k for k in sorted(set(before) & set(after)) if before[k] != after[k]]
    for key in differ:
        print(f"{what}: differs: {key}")
        if isinstance(before[key], list) and len(before[key]) < 5:
            print(f"  before: {before[key]}\n  after:  {after[key]}")
    same = same and not differ
    print(f"{what}: {len(set(before) & set(after))} compared, {len(differ)} differ, "
          f"{len(set(before) ^ set(after))} on one side only")
    return same


def main(argv):
    if len(argv) < 4 or argv[0] not in ("--ptx", "--ptxas") or "--" not in argv:
        print(__doc__)
        return 2
    split = argv.index("--")
    before, after = argv[1:split], argv[split + 1:]
    if argv[0] == "--ptx":
        b, a = ptx_functions(before), ptx_functions(after)
        entries = sum(1 for k in b if k[0] == ".entry")
        print(f"before: {entries} .entry, {len(b) - entries} .func")
        return 0 if compare(b, a, "ptx") else 1
    return 0 if compare(ptxas_properties(before), ptxas_properties(after), "ptxas") else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
