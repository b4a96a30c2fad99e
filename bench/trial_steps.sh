# shellcheck shell=bash
# The steps of a device call that times versions of best side by side, to be sourced by the
# call's own script, so that script holds only what differs from call to call: which versions,
# and which draws. Run from the repository root on the GPU machine, with $OUT set (the device
# tool's output folder). For example, tmp_trial/trial.sh:
#
#   source bench/trial_steps.sh
#   trial_start "$1"                                  # the base's commit, for the records
#   trial_libs old=. A=tmp_trial/A.diff B=tmp_trial/b_tree
#   trial_ab 16-band --draw 380000:500000:16 --dtypes fp16,bf16
#   trial_tune tiles fp16 567,671 --only "auto|tile"
#   trial_pack
#
# trial_libs builds every version with bench/build_libsmlbest.sh --trial (the first is the
# base; the others a tree or a patch) in a new folder (TRIAL_DIR names one, which must be
# empty; nothing is ever emptied); trial_ab times them all with bench/ab_libs.py, two rounds,
# every output checked against float64, N drawn at run time unless --cols is given; trial_tune
# runs bench/peers.py --tune on the base's library (TRIAL_TUNE_LIB: another); each step's
# output is $OUT/ab-NAME.json and .txt, or $OUT/tune-NAME.txt, and a line in $OUT/times.txt.
# trial_pack puts them in $OUT/trial.tar.gz (the device tool returns few files) and prints the
# A/B summaries. TRIAL_PYTHON names the Python (default python3).

TRIAL_DIR_GIVEN=${TRIAL_DIR:-}  # where the libraries are built: a new folder unless given
TRIAL_PYTHON=${TRIAL_PYTHON:-python3}
TRIAL_LIBS=()

trial_note() { date -u +"$1 %T" | tee -a "$OUT/times.txt"; }

# A step's name: it names files under $OUT.
trial_name_ok() {
    [[ $1 =~ ^[A-Za-z0-9_.-]+$ ]] || { echo "trial: '$1': name a step with letters, digits, '_', '.', '-'" >&2; return 2; }
}

# trial_tree_digest [DIR]: what the libraries are built from (kernels/, common/ and
# bench/best_capi.cu under DIR, default .), as the first 16 hex digits of the sha256 of their
# `sha256sum` listing, paths in C order. The same on any machine for the same files: to tell
# which commit a call ran, `git archive COMMIT kernels common bench/best_capi.cu | tar -x -C D`
# here, then `source bench/trial_steps.sh; trial_tree_digest D`.
trial_tree_digest() {
    (cd "${1:-.}" && find kernels common bench/best_capi.cu -type f 2>/dev/null | LC_ALL=C sort |
        xargs -r sha256sum | sha256sum | cut -c1-16)
}

# trial_start COMMIT: the records every call keeps (start time, GPU, the base's commit and the
# digest of its files). Give COMMIT from your own checkout: the device's copy of the tree can
# carry older git metadata than its files (a call of 2026-11-28 named a192258 for 3d0116f's
# files), and the digest tells them apart.
trial_start() {
    if [ -z "${OUT:-}" ] || [ ! -d "$OUT" ]; then
        echo "trial_start: set OUT to a folder" >&2
        return 2
    fi
    export SML_GIT_COMMIT=${1:-unknown}
    date -u +"start %F %T UTC (base $SML_GIT_COMMIT, files $(trial_tree_digest .))" | tee "$OUT/times.txt"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$OUT/gpu.txt" 2>&1 ||
        echo "nvidia-smi: no answer" >>"$OUT/gpu.txt"
}

# trial_libs NAME=ROOT|NAME=PATCH ...: builds them all; the first is the base.
trial_libs() {
    # A folder of its own each time (build_libsmlbest.sh refuses one that holds anything).
    TRIAL_DIR=$TRIAL_DIR_GIVEN
    [ -n "$TRIAL_DIR" ] || TRIAL_DIR=$(mktemp -d "${TMPDIR:-/tmp}/trial.XXXXXX") || return 1
    if ! bash bench/build_libsmlbest.sh --trial "$TRIAL_DIR" "$@" >"$OUT/build.txt" 2>&1; then
        tail -40 "$OUT/build.txt"
        return 1
    fi
    cat "$TRIAL_DIR"/*.units >"$OUT/units.txt"
    TRIAL_LIBS=()
    local spec
    for spec in "$@"; do TRIAL_LIBS+=("${spec%%=*}=$TRIAL_DIR/${spec%%=*}.so"); done
    trial_note built
}

# trial_ab NAME ab_libs.py-arguments...: every library side by side, two rounds.
trial_ab() {
    local name=$1
    shift
    trial_name_ok "$name" || return 2
    [ ${#TRIAL_LIBS[@]} -gt 0 ] || { echo "trial_ab: run trial_libs first" >&2; return 2; }
    timeout "${TRIAL_STEP_LIMIT:-200}" "$TRIAL_PYTHON" bench/ab_libs.py --rounds 2 "$@" \
        --out "$OUT/ab-$name.json" "${TRIAL_LIBS[@]}" >"$OUT/ab-$name.txt" 2>&1
    trial_note "ab $name"
}

# trial_tune NAME DTYPE COLS peers.py-arguments...: the tune on the base's library.
trial_tune() {
    local name=$1 dtype=$2 cols=$3
    shift 3
    trial_name_ok "$name" || return 2
    local lib=${TRIAL_TUNE_LIB:-${TRIAL_LIBS[0]#*=}}
    [ -n "$lib" ] || { echo "trial_tune: run trial_libs first, or set TRIAL_TUNE_LIB" >&2; return 2; }
    timeout "${TRIAL_STEP_LIMIT:-200}" "$TRIAL_PYTHON" bench/peers.py --lib "$lib" --tune \
        --no-peers --dtype "$dtype" --cols "$cols" "$@" >"$OUT/tune-$name.txt" 2>&1
    trial_note "tune $name"
}

# trial_pack: every step's output in $OUT/trial.tar.gz (times.txt and gpu.txt stay beside it
# too); the A/B summaries printed.
trial_pack() {
    local f parts=()
    for f in "$OUT"/ab-*.txt; do
        [ -f "$f" ] || continue
        echo "== $(basename "$f")"
        grep -v "^round" "$f" | tail -40
    done
    for f in "$OUT"/ab-* "$OUT"/tune-* "$OUT"/build.txt "$OUT"/units.txt; do
        [ -e "$f" ] && parts+=("$(basename "$f")")
    done
    (cd "$OUT" && tar czf trial.tar.gz -- "${parts[@]}" times.txt gpu.txt && rm -rf -- "${parts[@]}")
}
