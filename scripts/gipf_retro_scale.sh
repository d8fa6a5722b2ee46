#!/usr/bin/env bash
# How far the retrograde solver gets on the GIPF variants scripts/gipf_variants.sh leaves unknown:
# the smallest unknown variant of each (S, K), enumerated up to $1 positions (default 20000000,
# about 2.5 GB; use 50000000 for about 4-7 GB). Raw rows: results/gipf/raw/scale.csv; table:
# results/gipf/retro-scale.md (scripts/gipf_table.py --scale).
# Usage: nice -n 10 scripts/gipf_retro_scale.sh [max_positions]
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-20000000}
cargo build --release --quiet
raw=results/gipf/raw
mkdir -p "$raw"
input="$raw/scale-input.tsv"
{
  echo "id	position	expected"
  grep -E '^S3-K3-W5-B5|^S3-K4-W5-B6|^S3-K4-W8-B8|^S3-K5-W8-B8|^S4-K4-W7-B7' \
    datasets/gipf/small-variants.tsv
} > "$input"
rm -f "$raw"/scale.csv "$raw"/scale.jsonl
target/release/bitsolve solve --game gipf --solver retro --node-limit "$max" --time-limit 1200 \
  "$input" --out "$raw/scale.csv" > "$raw/scale.log"
python3 scripts/gipf_table.py --scale "$raw/scale.csv"
