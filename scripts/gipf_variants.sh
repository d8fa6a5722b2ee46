#!/usr/bin/env bash
# Solves the initial position of every small GIPF variant (datasets/gipf/small-variants.tsv,
# made by scripts/gipf_variants.py) with df-pn and writes the machine-written rows to
# results/gipf/small-variants.csv. Usage: scripts/gipf_variants.sh [time-limit-seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-10}
cargo build --release --quiet
mkdir -p results/gipf
out=results/gipf/small-variants.csv
rm -f "$out"
./target/release/bitsolve solve --game gipf --solver dfpn --no-mobility --win-probe --epsilon 2 \
  --tt-mib 256 --time-limit "$limit" \
  datasets/gipf/small-variants.tsv --out "$out"
