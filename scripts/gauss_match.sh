#!/usr/bin/env bash
# Engine matches of the Gauss player (engine + exact endgame solve) against a greedy player and
# against itself without the endgame solve; writes results/gauss/match.txt.
#
# Usage: nice -n 10 scripts/gauss_match.sh [OPENINGS] [SECONDS_PER_MOVE]
set -euo pipefail
cd "$(dirname "$0")/.."
OPENINGS=${1:-4}
TIME=${2:-0.5}
cargo build --release --quiet
BIN=target/release/bitsolve
OUT=results/gauss/match.txt
mkdir -p results/gauss
{
  echo "# bitsolve gauss match, git $(git rev-parse --short HEAD), $(date -u +%F), $(nproc) shared cores"
  for opponent in greedy no-solve; do
    echo "## $BIN gauss match --openings $OPENINGS --opening-plies 4 --seed 1 --time $TIME --opponent $opponent"
    "$BIN" gauss match --openings "$OPENINGS" --opening-plies 4 --seed 1 --time "$TIME" --opponent "$opponent"
  done
} | tee "$OUT"
