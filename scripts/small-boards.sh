#!/usr/bin/env bash
# Solves the bundled Ataxx small-board dataset under both rule sets with every solver, 1 and 2
# threads, and writes the rows (machine-written, never edited) to results/raw/.
# Usage: scripts/small-boards.sh [time-limit-seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-60}
cargo build --release --quiet
mkdir -p results/raw
for game in ataxx ataxx-polish; do
  out=results/raw/${game}-small-boards.csv
  rm -f "$out"
  for threads in 1 2; do
    # pns has no parallel mode (`--threads 2` is refused for it)
    solvers=alphabeta,dfpn
    [ "$threads" = 1 ] && solvers=alphabeta,pns,dfpn
    ./target/release/bitsolve solve --game "$game" --solver "$solvers" \
      --threads "$threads" --tt-mib 256 --time-limit "$limit" \
      datasets/ataxx/small-boards.tsv --out "$out"
  done
done
