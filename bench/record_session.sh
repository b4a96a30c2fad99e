#!/usr/bin/env bash
# Records everything the repository publishes from a GPU run, in ONE device call:
#   1. bench/device_run.sh: build, `ctest -L gpu`, the full sweep with default metrics, every
#      variant, and the L2-resident naive point the lessons talk about; the SASS and PTX of the
#      functions the sweep launched, with their sources' hashes (bench/record_code.sh);
#   2. bench/peers.py: best vs torch.softmax vs the Triton tutorial vs copy, same machine, same
#      call, plus the lesson kernels through the CLI.
# The device tool returns at most 8 files, so logs travel as one tarball. Files in $OUT:
#   session.json session.csv summary.txt code.tar.xz logs.tar.gz peers-<device>-<date>-fp32.json
# Usage (through the device tool, from the repo root): bash bench/record_session.sh
#   SKIP_PEERS=1 leaves out step 2, which with a cold Triton cache can outlast one device call.
set -uo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
LOGS=$(mktemp -d)/logs
mkdir -p "$LOGS"
export PYTHONUNBUFFERED=1

# libsmlbest.so for peers.py, built while CMake builds the rest.
bash bench/build_libsmlbest.sh /tmp/libsmlbest.so >"$LOGS/libsmlbest.log" 2>&1 &
LIB_PID=$!

OUT_DR=$(mktemp -d)
OUT=$OUT_DR bash bench/device_run.sh --variants all --extra naive:4096x1024 --jobs 14
DR=$?
cp "$OUT_DR/session.json" "$OUT_DR/session.csv" "$OUT_DR/summary.txt" "$OUT/" 2>/dev/null
cp "$OUT_DR/code.tar.xz" "$OUT/" 2>/dev/null
cp "$OUT_DR"/*.log "$LOGS/" 2>/dev/null

wait $LIB_PID
PEERS=$(mktemp -d)
if [ "${SKIP_PEERS:-0}" = 1 ]; then
  echo "peers skipped (SKIP_PEERS=1): run bench/peers.py in calls of their own"
elif [ -f /tmp/libsmlbest.so ]; then
  # The lesson kernels come from this call's sweep (session.json), so peers.py skips its --cli.
  timeout 480 python3 bench/peers.py --lib /tmp/libsmlbest.so --samples 30 --out "$PEERS" \
    >"$LOGS/peers.txt" 2>&1
  echo "peers rc=$?" >>"$LOGS/peers.txt"
  for f in "$PEERS"/*.json; do [ -f "$f" ] && cp "$f" "$OUT/peers-$(basename "$f")"; done
  tail -32 "$LOGS/peers.txt"
else
  echo "libsmlbest.so did not build; see logs/libsmlbest.log"
fi
tar -czf "$OUT/logs.tar.gz" -C "$(dirname "$LOGS")" logs
echo "record_session: device_run exit $DR"
exit $DR
