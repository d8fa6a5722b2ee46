#!/usr/bin/env bash
# Mean number of moves (the branching factor) of random Gauss positions by remaining placements:
# PER positions per count from `bitsolve gauss gen` (seed SEED + count), each counted with
# `perft --depth 1`. Prints "remaining mean" lines.
#
# Usage: scripts/gauss_branching.sh [BIN] [MAX] [PER] [SEED]   (BIN defaults to target/release/bitsolve)
set -euo pipefail
BIN=${1:-target/release/bitsolve}
MAX=${2:-14}
PER=${3:-300}
SEED=${4:-4242}
POS=$(mktemp)
trap 'rm -f "$POS"' EXIT
for n in $(seq 1 "$MAX"); do
  "$BIN" gauss gen --remaining "$n" --count "$PER" --seed $((SEED + n)) > "$POS"
  total=0
  count=0
  while IFS=$'\t' read -r id position _; do
    [[ "$id" == id || "$id" == \#* ]] && continue
    moves=$("$BIN" perft --game gauss --depth 1 --position "$position" 2>/dev/null | tail -1)
    total=$((total + moves))
    count=$((count + 1))
  done < "$POS"
  awk -v n="$n" -v t="$total" -v c="$count" 'BEGIN { printf "%d %.2f\n", n, t / c }'
done
