#!/usr/bin/env bash
# Redraws the README's charts (assets/charts/) from the newest recorded session and the newest
# bench/peers.py results, through the project's own exporter (softmaxlab-cli chart). Needs a
# build (scripts/build.sh); no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${SML_BUILD_DIR:-build}/app/cli/softmaxlab-cli
SESSION=$(ls assets/sessions/*.json | sort | tail -1)
PEERS=$(ls bench/results/*-fp32.json | sort | tail -1)
STEM=${PEERS%-fp32.json}  # the same run's three dtypes
PEERS_ALL=$STEM-fp32.json,$STEM-fp16.json,$STEM-bf16.json
echo "session: $SESSION; peers: $PEERS"
for c in bandwidth pct bytes naive; do
  "$CLI" chart --session "$SESSION" --chart "$c" --out "assets/charts/$c.png"
done
"$CLI" chart --session "$SESSION" --chart bytes --cols 1048576 --out assets/charts/bytes-1m.png
"$CLI" chart --session "$SESSION" --chart metrics --cols 1024 --out assets/charts/metrics.png
"$CLI" chart --session "$SESSION" --chart bandwidth --theme dark --out assets/charts/bandwidth-dark.png
"$CLI" chart --session "$SESSION" --chart bandwidth --out assets/charts/bandwidth.csv
"$CLI" chart --chart peers --peers "$PEERS" --out assets/charts/peers.png
"$CLI" chart --chart peers --peers "$PEERS_ALL" --out assets/charts/peers-dtypes.png
