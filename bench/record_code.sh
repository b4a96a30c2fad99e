#!/usr/bin/env bash
# Records the kernels' generated code for the viewer's PTX and SASS views, on the GPU machine
# (cuobjdump and nvdisasm are not on the build machine). Called by bench/device_run.sh.
#
#   1. SASS of every kernel object, with line info: cuobjdump -xelf extracts the cubin, and
#      nvdisasm -c -gi prints its code with `//## File "...", line N inlined at ...` comments
#      (what links each instruction to its CUDA lines) and without encodings;
#   2. `softmaxlab-cli record-code` keeps, per kernel file, the entry points the session launched
#      (its launch records name the function), or the fp32 ones of a file with many; copies the
#      build's PTX the same way; and writes manifest.json with the hash of every source file
#      (core/code/source_hash.h), so the viewer can tell when the checkout has changed since;
#   3. one tarball, code/{manifest.json,ptx/,sass/}, xz-compressed.
#
# Usage: bench/record_code.sh BUILD_DIR OUT.tar.xz [SESSION.json]
# Commit the result as assets/code/<device>-<date>-code.tar.xz, replacing the one there (the
# build unpacks the newest into build/code/).
set -uo pipefail
SCRIPT=$(readlink -f "$0")
cd "$(dirname "$SCRIPT")/.."
[ $# -ge 2 ] || { sed -n '2,18p' "$SCRIPT"; exit 2; }
BUILD=$(readlink -f "$1")
OUT_TAR=$(readlink -f "$(dirname "$2")")/$(basename "$2")
SESSION=${3:-}
for tool in cuobjdump nvdisasm; do
  command -v $tool >/dev/null || { echo "record_code: $tool not found (CUDA toolkit's bin/)"; exit 1; }
done
CLI=$BUILD/app/cli/softmaxlab-cli
[ -x "$CLI" ] || { echo "record_code: no $CLI; build first"; exit 1; }
WORK=$(mktemp -d)
RAW=$WORK/raw
mkdir -p "$RAW"
OBJ=$BUILD/kernels/CMakeFiles/sml_kernels.dir
arch=""
for obj in "$OBJ"/*_softmax.cu.o "$OBJ"/best/*.cu.o; do
  [ -f "$obj" ] || continue
  stem=$(basename "$obj" .cu.o)
  case "$obj" in */best/*) stem=best_$stem ;; esac   # core/lessons/annotated_source.h's rule
  x=$WORK/elf-$stem
  mkdir -p "$x"
  (cd "$x" && cuobjdump -xelf all "$obj" >/dev/null) || { echo "record_code: cuobjdump failed on $obj"; continue; }
  cubin=$(ls "$x"/*.cubin 2>/dev/null | head -1)
  [ -n "$cubin" ] || { echo "record_code: no cubin in $obj"; continue; }
  arch=$(basename "$cubin" .cubin); arch=${arch##*.}
  nvdisasm -c -gi "$cubin" >"$RAW/$stem.sass" || echo "record_code: nvdisasm failed on $cubin"
done
args=(--ptx-dir "$BUILD/ptx" --sass-dir "$RAW" --out "$WORK/code"
      --created "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
      --git "${SML_GIT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
      --arch "${arch:-unknown}"
      --software "nvcc=$(nvcc --version | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/\2/p')"
      --software "nvdisasm=$(nvdisasm --version | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/\2/p')")
command -v nvidia-smi >/dev/null &&
  args+=(--device "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)")
[ -n "$SESSION" ] && [ -f "$SESSION" ] && args+=(--session "$SESSION")
"$CLI" record-code "${args[@]}" || exit 1
tar -C "$WORK" -cJf "$OUT_TAR" code || exit 1
echo "record_code: $(du -h "$OUT_TAR" | cut -f1) in $OUT_TAR ($(du -sh "$RAW" | cut -f1) of SASS before keeping the entries that matter)"
rm -rf "$WORK"
