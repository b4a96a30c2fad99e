#!/usr/bin/env bash
# Is the lab's NVRTC build of a lesson file the same machine code as the app's nvcc build?
# The per-line counters a session records (bench/record_lines.sh) come from the NVRTC build;
# the code views show the nvcc build's SASS. For each lesson kernel this compares, function by
# function, every SASS instruction with its address (cuobjdump -sass; encodings dropped).
# Needs build-lines/ (bench/record_lines.sh) and the toolkit's cuobjdump.
set -uo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
B=${BUILD:-build-lines}
CLI=$B/app/cli/softmaxlab-cli
ARCH=${ARCH:-sm_90}
T=$(mktemp -d)
command -v cuobjdump >/dev/null || PATH=$PATH:/usr/local/cuda/bin
command -v cuobjdump >/dev/null || { echo "no cuobjdump on PATH or in /usr/local/cuda/bin"; exit 1; }
[ -x "$CLI" ] || { echo "no $CLI: build it first (bench/record_lines.sh)"; exit 1; }
# lab compile finds the file's kernels in the build's PTX (core/lab/kernel_names.h).
cmake --build "$B" -j"${JOBS:-16}" --target sml_ptx >/dev/null 2>&1 || { echo "sml_ptx failed"; exit 1; }
for pair in naive:naive_softmax fused:fused_softmax warp:warp_softmax block:block_softmax \
            smem:smem_softmax online:online_softmax online_tiled:online_tiled_softmax; do
  id=${pair%%:*}; f=${pair#*:}
  "$CLI" lab compile --kernel "$id" --source "kernels/$f.cu" --arch "$ARCH" --out "$T/$id.cubin" \
    >"$T/$id.compile.log" 2>&1 || { echo "$id: NVRTC compile failed"; cat "$T/$id.compile.log"; continue; }
  # Instruction lines only ("/*0050*/  FADD R1, R2, R3 ;"), per function, both builds.
  # Names are compared demangled (an anonymous namespace's hash differs per compilation, as the
  # code views do) and with "long long" read as "long": NVRTC's int64_t is long long, the host
  # compiler's is long, so the same kernel mangles differently.
  norm() { awk '/Function :/ {fn=$3} /\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]\*\// && fn!="" {sub(/^[ \t]*/,""); gsub(/[ \t]+/," "); print fn": "$0}' |
           python3 -c '
import subprocess, sys
rows = [l.split(": ", 1) for l in sys.stdin]
names = sorted({r[0] for r in rows})
out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout
plain = dict(zip(names, out.split("\n")))
for name, rest in rows:
    sys.stdout.write(plain.get(name, name).replace("long long", "long").replace(": ", ":") + ": " + rest)'; }
  cuobjdump -sass "$T/$id.cubin" | norm | sed 's#/\*[^*]*\*/ *$##' | sort >"$T/$id.nvrtc"
  cuobjdump -sass -arch "$ARCH" "$B/kernels/CMakeFiles/sml_kernels.dir/$f.cu.o" | norm |
    sed 's#/\*[^*]*\*/ *$##' | sort >"$T/$id.nvcc"
  # Functions the NVRTC build holds that the nvcc build also holds (nvcc may hold more
  # template instances); compare those.
  awk -F': ' '{print $1}' "$T/$id.nvrtc" | sort -u >"$T/$id.fn"
  awk -F': ' 'NR==FNR {f[$1]; next} ($1 in f)' "$T/$id.fn" "$T/$id.nvcc" >"$T/$id.nvcc.same"
  [ "$(wc -l <"$T/$id.nvrtc")" -gt 0 ] || { echo "$id: no SASS read from the NVRTC cubin"; continue; }
  n=$(wc -l <"$T/$id.nvrtc"); m=$(wc -l <"$T/$id.nvcc.same"); fns=$(wc -l <"$T/$id.fn")
  if cmp -s "$T/$id.nvrtc" "$T/$id.nvcc.same"; then
    echo "$id: identical SASS in $fns function(s), $n instructions"
  else
    d=$(diff "$T/$id.nvrtc" "$T/$id.nvcc.same" | grep -c '^[<>]')
    echo "$id: DIFFERENT: $fns function(s), NVRTC $n vs nvcc $m instruction lines, $d differing"
    diff "$T/$id.nvrtc" "$T/$id.nvcc.same" | head -6
  fi
done
