#!/usr/bin/env bash
# Regenerates results/README.md and results/plots/: alphabeta, pns and dfpn with 1 and 2 threads
# on the same positions of every game with a bundled comparison dataset (`bitsolve compare`),
# then `bitsolve report` over every result file. Rerun after a game is added (give it a line in
# the table below). Usage: scripts/results.sh [time-limit-seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-5}
cargo build --release --quiet
bin=./target/release/bitsolve
mkdir -p results/raw
# game             dataset
runs=(
  "ataxx            datasets/ataxx/random-small.tsv"
  "ataxx-polish     datasets/ataxx/small-boards.tsv"
  "gipf             datasets/gipf/random-small.tsv"
  "digraph          datasets/digraph/random-graphs.tsv"
  "szochy           datasets/szochy/official.tsv"
  "gauss            datasets/gauss/endgames.tsv"
)
for run in "${runs[@]}"; do
  read -r game dataset <<<"$run"
  out=results/raw/compare-$game.csv
  rm -f "$out" "${out%.csv}.jsonl"
  echo "== $game $dataset" >&2
  nice -n 10 "$bin" compare --game "$game" --solver alphabeta,pns,dfpn --threads 1,2 \
    --tt-mib 128 --time-limit "$limit" --out "$out" "$dataset" >/dev/null
done
inputs=(results/raw/*.csv)
# results/gipf/small-variants.csv has its own schema; its table is results/gipf/small-variants.md.
rm -rf results/plots
"$bin" report "${inputs[@]}" --plots results/plots --out results/README.md
echo "wrote results/README.md" >&2
