#!/bin/bash
# Nsight Compute on one of best's tuning configurations (bench/peers.py --tune --only LABEL): where
# a kernel's time goes (warp stall reasons, issue, memory throughput), for the GPU machine.
# Usage: bash bench/profile_best.sh DTYPE COLS KERNEL_REGEX "LABEL" ["LABEL" ...]
#   e.g. bash bench/profile_best.sh fp32 524288 best_grid "grid 132x256x4p lag4 ahead2 teams2"
# Writes $OUT/ncu-<dtype>-<cols>-<n>.txt per label (OUT defaults to /tmp/sml-out). The clocks are
# left alone (--clock-control none), as the device notes ask; the 3rd launch is profiled (after
# warm-up). SOURCE=1 also collects per-instruction counts (SourceCounters) and writes the SASS
# page, every instruction with its executions and stall samples, to
# $OUT/sass-<dtype>-<cols>-<n>.csv.gz: where a kernel's issue slots go, instruction by instruction.
# CONFIGS="FIELD=V,...;FIELD=V,..." adds configurations (peers.py --config; their labels are
# "cfg " and the fields); SML_DEVICE_PROFILE restricts dispatch to a class, as everywhere.
set -o pipefail
OUT=${OUT:-/tmp/sml-out}
mkdir -p "$OUT"
dtype=$1 cols=$2 regex=$3
shift 3
LIB=/tmp/libsmlbest.so
given=()
IFS=';' read -ra specs <<<"${CONFIGS:-}"
for c in "${specs[@]}"; do given+=(--config "$c"); done
# Built every time: a warm machine may hold a library from an earlier call's tree.
bash bench/build_libsmlbest.sh $LIB || exit 1
n=0
for label in "$@"; do
    n=$((n + 1))
    {
        echo "# $dtype N=$cols: $label"
        ncu --clock-control none --kernel-name "regex:$regex" --launch-skip 2 --launch-count 1 \
            --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
            --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
            --section InstructionStats ${SOURCE:+--section SourceCounters --export /tmp/ncu-$n} \
            python3 bench/peers.py --lib $LIB --tune --samples 20 --dtype "$dtype" --cols "$cols" \
            --only "$label" "${given[@]}" 2>&1
    } > "$OUT/ncu-$dtype-$cols-$n.txt"
    if [ -n "$SOURCE" ]; then
        # With --export, ncu prints no sections: they are read back from the report.
        ncu --import /tmp/ncu-$n.ncu-rep --page details >> "$OUT/ncu-$dtype-$cols-$n.txt" 2>&1
        ncu --import /tmp/ncu-$n.ncu-rep --page source --print-source sass --csv 2>&1 |
            gzip > "$OUT/sass-$dtype-$cols-$n.csv.gz"
        rm -f /tmp/ncu-$n.ncu-rep
    fi
    summary="^N=|Duration|DRAM Throughput|Issued Warp|No Eligible|Warp Cycles Per Issued|Executed Ins"
    grep -E "$summary" "$OUT/ncu-$dtype-$cols-$n.txt" | head -30
done
