#!/usr/bin/env bash
# The lab bench on a GPU (issue 23), in ONE device call. Everything else is tested on the CPU;
# this checks the parts only a GPU can:
#   1. build softmaxlab-cli and the lab's GPU test (SML_WITH_GUI=OFF, sm_90);
#   2. list the GPU's SASS (per-instruction) metrics: the names the per-line counters pick from;
#   3. through the CLI (`run --source`, a child process per run): the warp kernel unedited and
#      with a deliberately strided load (tests/data/lab/edits.json): the load's line must be
#      less coalesced and the run a lower share of copy; a faulting edit and an endless loop
#      must each end in a clear error while the CLI carries on and the edit file stays intact;
#   4. the viewer's job path without a window (tests/test_viewmodel_lab_gpu.cpp): the same, plus
#      a refused launch and an out-of-memory problem, with the edit saved by autosave;
#   5. every exercise's solution through its own check (and one unsolved exercise, which must
#      not pass);
#   6. keep the raw per-instruction records and cubins (lab results) for the CPU fold test.
# Files in $OUT: summary.txt, sass-metrics.txt, lab-results.tar.gz, logs.tar.gz.
# A short summary table is printed last.
# Usage (from the repo root, on the GPU machine): OUT=out bash bench/lab_device_check.sh
set -uo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
WORK=$(mktemp -d)
LOGS=$WORK/logs
RES=$WORK/lab-results
mkdir -p "$LOGS" "$RES"
BUILD=${BUILD:-build-lab}
JOBS=${JOBS:-$(nproc)}
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
ROWS=()
say() { echo "$*" | tee -a "$SUMMARY"; }
row() { ROWS+=("$(printf '%-44s %-6s %s' "$1" "$2" "$3")"); say "[$2] $1: $3"; }
finish() {
  tar -czf "$OUT/lab-results.tar.gz" -C "$WORK" lab-results
  tar -czf "$OUT/logs.tar.gz" -C "$WORK" logs
  echo
  echo "=== lab device check: summary ==="
  printf '%-44s %-6s %s\n' "check" "result" "detail"
  for r in "${ROWS[@]}"; do echo "$r"; done
  echo "files: $OUT/{summary.txt,sass-metrics.txt,lab-results.tar.gz,logs.tar.gz}"
}
trap finish EXIT

say "lab device check, $(date -u +%Y-%m-%dT%H:%M:%SZ), git ${SML_GIT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
command -v nvidia-smi >/dev/null && say "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"

# --- 1. build -------------------------------------------------------------------------------
t0=$(date +%s)
if [ "${SKIP_BUILD:-0}" = 1 ]; then
  row "build" skip "SKIP_BUILD=1: using $BUILD as it is"
elif cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSML_WITH_GUI=OFF \
     -DCMAKE_CUDA_ARCHITECTURES=90 >"$LOGS/build.log" 2>&1 &&
   cmake --build "$BUILD" -j"$JOBS" --target softmaxlab-cli test_viewmodel_lab_gpu \
     >>"$LOGS/build.log" 2>&1; then
  row "build (cli + lab GPU test)" ok "$(( $(date +%s) - t0 )) s"
else
  row "build (cli + lab GPU test)" FAIL "see logs/build.log"
  grep -E "error|FAILED" "$LOGS/build.log" | head -20
  exit 1
fi
CLI=$PWD/$BUILD/app/cli/softmaxlab-cli
export SML_CLI=$CLI

# --- 2. the GPU's SASS metrics ----------------------------------------------------------------
if "$CLI" lab sass-metrics --out "$OUT/sass-metrics.txt" >"$LOGS/sass-metrics.log" 2>&1; then
  n=$(grep -vc '^#' "$OUT/sass-metrics.txt")
  picks=$(grep -oE '^smsp__sass_(inst_executed|sectors_mem_global|sectors_mem_global_ideal|sectors_mem_local)\b' \
          "$OUT/sass-metrics.txt" | tr '\n' ' ')
  row "SASS metrics listed" ok "$n metrics; candidates present: ${picks:-none}"
else
  row "SASS metrics listed" FAIL "$(tail -2 "$LOGS/sass-metrics.log" | tr '\n' ' ')"
fi

# --- the edits (the same recipes the GPU test applies) ------------------------------------
python3 - "$WORK" <<'PY'
import json, re, sys
work = sys.argv[1]
doc = json.load(open('tests/data/lab/edits.json'))
src_of = {'warp': 'kernels/warp_softmax.cu', 'online': 'kernels/online_softmax.cu'}
for name, e in doc['edits'].items():
    text = open(src_of[e['kernel']]).read()
    for region, body in e.get('regions', {}).items():
        lines = text.split('\n')
        b = next(i for i, l in enumerate(lines) if re.match(r'\s*// @region %s:' % re.escape(region), l))
        end = next(i for i, l in enumerate(lines) if re.match(r'\s*// @endregion %s$' % re.escape(region), l))
        text = '\n'.join(lines[:b + 1] + body.rstrip('\n').split('\n') + lines[end:])
    for old, new in e.get('replace', []):
        assert old in text, (name, old)
        text = text.replace(old, new, 1)
    text = e.get('prepend', '') + text
    open('%s/%s.cu' % (work, name), 'w').write(text)
PY
sha() { sha256sum "$1" | cut -c1-16; }

# --- 3. the CLI path: run --source in a child process -------------------------------------
run_edit() {  # name source extra-args...
  local name=$1 src=$2; shift 2
  local before; before=$(sha "$src")
  timeout 600 "$CLI" run --kernel warp --source "$src" --label "$name" \
    --result "$RES/cli-$name.result.json" "$@" >"$LOGS/cli-$name.log" 2>&1
  local rc=$?
  echo "$rc" >"$LOGS/cli-$name.rc"
  [ "$(sha "$src")" = "$before" ] || echo "EDIT FILE CHANGED" >>"$LOGS/cli-$name.log"
  return 0
}
run_edit unedited kernels/warp_softmax.cu --rows 65536 --cols 1024
run_edit strided "$WORK/strided.cu" --rows 65536 --cols 1024
python3 - "$RES" "$WORK" >"$LOGS/strided-compare.txt" 2>&1 <<'PY'
import json, sys
res, work = sys.argv[1], sys.argv[2]
edits = json.load(open('tests/data/lab/edits.json'))['edits']['strided']
def line_of(path, needle):
    for i, l in enumerate(open(path).read().split('\n'), 1):
        if needle in l: return i
def point(name):
    r = json.load(open('%s/cli-%s.result.json' % (res, name)))
    return r, (r.get('session') or {}).get('points', [{}])[0]
def eff(p, line):
    for l in (p.get('source_lines') or {}).get('lines', []):
        if l['line'] == line and l['file'].endswith('warp_softmax.cu'):
            return l['values'].get('global_sector_efficiency_pct')
ro, po = point('unedited'); rs, ps = point('strided')
lo = line_of('kernels/warp_softmax.cu', edits['original_line']); ls = line_of(work + '/strided.cu', edits['edit_line'])
eo, es = eff(po, lo), eff(ps, ls)
print('status', ro['status'], rs['status'])
print('names', (po.get('source_lines') or {}).get('metric_names'))
print('reason', (po.get('source_lines') or {}).get('reason'))
print('unedited line %s: %s%% coalesced, %.1f%% of copy' % (lo, eo, po.get('pct_of_copy', 0)))
print('strided  line %s: %s%% coalesced, %.1f%% of copy' % (ls, es, ps.get('pct_of_copy', 0)))
ok = (ro['status'] == 'ok' and rs['status'] == 'ok' and eo is not None and es is not None
      and es < 0.5 * eo and ps.get('pct_of_copy', 0) < po.get('pct_of_copy', 0))
print('VERDICT', 'ok' if ok else 'FAIL',
      'load line %s%% -> %s%% coalesced; %.0f%% -> %.0f%% of copy' % (
          None if eo is None else round(eo, 1), None if es is None else round(es, 1),
          po.get('pct_of_copy', 0), ps.get('pct_of_copy', 0)))
PY
v=$(grep VERDICT "$LOGS/strided-compare.txt" | cut -d' ' -f2-)
if [ -n "$v" ]; then
  row "strided load vs unedited (CLI, 65536x1024)" "${v%% *}" "${v#* }"
else
  row "strided load vs unedited (CLI, 65536x1024)" FAIL "$(tail -3 "$LOGS/strided-compare.txt" | tr '\n' ' ')"
fi

status_of() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); f=r.get('fault') or {}; print(r['status'], '|', r['message'], '| line', f.get('line'), f.get('located_by'))" "$1" 2>/dev/null || echo "no result"; }
run_edit fault "$WORK/fault.cu" --rows 4096 --cols 1024 --metrics off --no-per-line
s=$(status_of "$RES/cli-fault.result.json"); rc=$(cat "$LOGS/cli-fault.rc")
if [[ $s == fault* ]] && [ "$rc" = 1 ] && ! grep -q "EDIT FILE CHANGED" "$LOGS/cli-fault.log"; then
  row "faulting edit (CLI, child process)" ok "$s; CLI exit $rc, edit intact"
else
  row "faulting edit (CLI, child process)" FAIL "$s; CLI exit $rc"
fi
t1=$(date +%s)
run_edit loop "$WORK/loop.cu" --rows 4096 --cols 1024 --metrics off --no-per-line --time-limit 15
s=$(status_of "$RES/cli-loop.result.json"); rc=$(cat "$LOGS/cli-loop.rc")
if [[ $s == timeout* ]] && [ "$rc" = 1 ] && ! grep -q "EDIT FILE CHANGED" "$LOGS/cli-loop.log"; then
  row "endless loop (CLI, 15 s limit)" ok "$s; stopped after $(( $(date +%s) - t1 )) s, edit intact"
else
  row "endless loop (CLI, 15 s limit)" FAIL "$s; CLI exit $rc"
fi
# The GPU is usable after both: one more unedited run.
run_edit after kernels/warp_softmax.cu --rows 4096 --cols 1024 --metrics off --no-per-line
s=$(status_of "$RES/cli-after.result.json")
row "a run after the fault and the loop" "$([[ $s == ok* ]] && echo ok || echo FAIL)" "$s"

# --- 4. the viewer's job path, no window ---------------------------------------------------
SML_LAB_DUMP_DIR=$RES timeout 900 "$BUILD/tests/test_viewmodel_lab_gpu" >"$LOGS/test_viewmodel_lab_gpu.log" 2>&1
detail_of() { grep -m1 -F "$1" "$LOGS/test_viewmodel_lab_gpu.log" | cut -c1-110; }
for t in "StridedLoadIsLessCoalescedAndSlower|load line:" \
         "FaultEndsInAClearErrorAndTheEditorGoesOn|[warp-fault]" \
         "EndlessLoopIsStoppedAndTheEditorGoesOn|[warp-loop]" \
         "RefusedLaunchAndTooLargeAProblemAreReported|[warp-out-of-memory]"; do
  name=${t%%|*}
  if grep -q "\[       OK \] LabGpu.$name" "$LOGS/test_viewmodel_lab_gpu.log"; then r=ok
  elif grep -q "\[  SKIPPED \] LabGpu.$name" "$LOGS/test_viewmodel_lab_gpu.log"; then r=SKIP
  else r=FAIL; fi
  row "viewer job path: $name" $r "$(detail_of "${t#*|}")"
done

# --- 5. exercises ---------------------------------------------------------------------------
for id in $(python3 -c "import json; print(' '.join(e['id'] for e in json.load(open('lessons/exercises/exercises.json'))['exercises']))"); do
  "$CLI" lab exercise --solution "$id" --out "$WORK/solution-$id.cu" >/dev/null 2>&1
  timeout 600 "$CLI" lab exercise --check "$id" --source "$WORK/solution-$id.cu" >"$LOGS/exercise-$id.log" 2>&1
  rc=$?
  detail=$(grep -E "speed at" "$LOGS/exercise-$id.log" | sed 's/^ *\[..\] //' | head -1)
  row "exercise $id: the solution passes" "$([ $rc = 0 ] && echo ok || echo FAIL)" "${detail:-$(tail -1 "$LOGS/exercise-$id.log")}"
done
timeout 300 "$CLI" lab exercise --check warp-reduce >"$LOGS/exercise-unsolved.log" 2>&1
rc=$?
row "exercise warp-reduce unsolved: must not pass" "$([ $rc = 1 ] && grep -q 'NOT YET' "$LOGS/exercise-unsolved.log" && echo ok || echo FAIL)" \
    "$(grep -m1 '\[--\]' "$LOGS/exercise-unsolved.log" | cut -c1-90)"

# --- 6. the fold from stored records -------------------------------------------------------
if "$CLI" lab fold --result "$RES/cli-strided.result.json" >"$LOGS/fold-strided.txt" 2>&1 &&
   [ -s "$LOGS/fold-strided.txt" ]; then
  row "re-fold stored strided records" ok "$(wc -l <"$LOGS/fold-strided.txt") lines (logs/fold-strided.txt)"
else
  row "re-fold stored strided records" FAIL "$(tail -1 "$LOGS/fold-strided.txt")"
fi
ls -la "$RES" >>"$SUMMARY"
