#!/bin/bash
# A/B of two versions of best in one device call: both are built into their own libsmlbest.so,
# then `peers.py --tune --only auto` times each dispatcher's pick, the two libraries alternating
# (A, B, A, B), so machine-to-machine differences (about 1% across the device pool) drop out of
# the comparison. Tune-7's calls 9-10 were run this way.
# bench/ab_libs.py compares builds inside one process instead, interleaved at every N, for any
# number of versions (the dispatcher's pick only).
#
# A version is a folder holding its kernels/, its common/ (where it has one) and the C entry
# point written for it, bench/best_capi.cu. The GPU machine's checkout may not hold your commits,
# so put the old version in the working tree first, e.g.
#     mkdir -p bench/ab_old
#     git archive C kernels common bench/best_capi.cu | tar -x -C bench/ab_old
# (leave out `common` for a commit before it existed).
# Versions from before best's machinery moved to kernels/best/ build too; their library reports
# no configuration fields, so only "auto" (the default AB_ONLY) runs on them.
# Usage: bash bench/ab_best.sh OLD_ROOT [NEW_ROOT] [ROUNDS]
#   NEW_ROOT defaults to . (this tree), ROUNDS to 2; N lists per dtype from the
#   environment: AB_FP32 (default 50001,100003,65536,131072), AB_FP16 and AB_BF16 (default
#   100003,100008,131072,262144); AB_ONLY the configurations timed (peers.py --only, "auto" by
#   default: the dispatcher's pick). Writes $OUT/ab.txt and the build logs.
set -o pipefail
OUT=${OUT:-/tmp/sml-out}
mkdir -p "$OUT"
OLD=${1:?usage: bash bench/ab_best.sh OLD_ROOT [NEW_ROOT] [ROUNDS]}
NEW=${2:-.}
ROUNDS=${3:-2}
for root in "$OLD" "$NEW"; do
    for f in kernels/best_softmax.cu bench/best_capi.cu; do
        [ -f "$root/$f" ] || { echo "ab_best: no such file: $root/$f" >&2; exit 2; }
    done
done
build() {
    bash bench/build_libsmlbest.sh "/tmp/lib-$1.so" "$2" > "$OUT/build-$1.txt" 2>&1
}
build old "$OLD" & build new "$NEW" &
wait
for v in old new; do
    [ -f "/tmp/lib-$v.so" ] || { echo "ab_best: build of $v failed, see build-$v.txt" >&2; exit 1; }
done
export PYTHONUNBUFFERED=1
for dt in fp32 fp16 bf16; do
    case $dt in
        fp32) cols=${AB_FP32:-50001,100003,65536,131072} ;;
        fp16) cols=${AB_FP16:-100003,100008,131072,262144} ;;
        bf16) cols=${AB_BF16:-100003,100008,131072,262144} ;;
    esac
    for ((r = 0; r < ROUNDS; r++)); do
        for v in old new; do
            echo "## $v $dt" >> "$OUT/ab.txt"
            python3 bench/peers.py --lib "/tmp/lib-$v.so" --tune --samples 20 --dtype $dt \
                --cols "$cols" --only "${AB_ONLY:-auto}" 2>&1 | grep "^N=" >> "$OUT/ab.txt"
        done
    done
done
grep -v " copy " "$OUT/ab.txt"
