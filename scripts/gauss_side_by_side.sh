#!/usr/bin/env bash
# Two builds of bitsolve solving the same Gauss positions exactly (`solve --score`), run side
# by side (A, B, A, B, ...), so a change of the score search is measured under the same load.
# Prints one line per solve and, per run, the total nodes and milliseconds.
#
# Positions: `bitsolve gauss gen` with the seeds of scripts/gauss_depth.sh (2026 + count):
# r12-0, r12-1, r12-4, r12-8, r12-9 (12 left) and r11-4..r11-7 (11 left), the nine used for the
# session-17 measurements in docs/gauss.md.
#
# Usage: scripts/gauss_side_by_side.sh BIN_A BIN_B [THREADS] [RUNS]
# Environment: IDS (space-separated `count:id` items, default the nine above), CAP (seconds per
# solve, default 300), MIB (table size, default 256), SEED_BASE (positions of count c come from
# seed SEED_BASE + c, default 2026; 4026 gives the fresh sample of docs/gauss.md).
set -euo pipefail
A=${1:?usage: gauss_side_by_side.sh BIN_A BIN_B [THREADS] [RUNS]}
B=${2:?usage: gauss_side_by_side.sh BIN_A BIN_B [THREADS] [RUNS]}
THREADS=${3:-1}
RUNS=${4:-1}
IDS=${IDS:-"12:r12-0 12:r12-1 12:r12-4 12:r12-8 12:r12-9 11:r11-4 11:r11-5 11:r11-6 11:r11-7"}
CAP=${CAP:-300}
MIB=${MIB:-256}
SEED_BASE=${SEED_BASE:-2026}
POS=$(mktemp -d)
trap 'rm -rf "$POS"' EXIT
for item in $IDS; do
  count=${item%%:*}
  [[ -f "$POS/$count.tsv" ]] ||
    "$A" gauss gen --remaining "$count" --count 10 --seed $((SEED_BASE + count)) > "$POS/$count.tsv"
done
for run in $(seq "$RUNS"); do
  for bin in "$A" "$B"; do
    total_nodes=0
    total_ms=0
    for item in $IDS; do
      count=${item%%:*}
      id=${item##*:}
      position=$(awk -F'\t' -v id="$id" '$1 == id { print $2 }' "$POS/$count.tsv")
      [[ -n "$position" ]] || { echo "no position $id" >&2; exit 1; }
      line=$("$bin" solve --game gauss --score --solver alphabeta --tt-mib "$MIB" \
        --threads "$THREADS" --time-limit "$CAP" --position "$position" | tail -1)
      nodes=$(sed -n 's/.* nodes=\([0-9]*\).*/\1/p' <<< "$line")
      ms=$(sed -n 's/.* time_ms=\([0-9.]*\).*/\1/p' <<< "$line")
      echo "run $run $bin $id ${line%% *} nodes=$nodes time_ms=$ms"
      total_nodes=$((total_nodes + nodes))
      total_ms=$(awk -v a="$total_ms" -v b="$ms" 'BEGIN { printf "%.3f", a + b }')
    done
    echo "run $run $bin TOTAL nodes=$total_nodes time_ms=$total_ms"
  done
done
