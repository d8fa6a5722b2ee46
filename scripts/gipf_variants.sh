#!/usr/bin/env bash
# Solves the initial position of every small GIPF variant (datasets/gipf/small-variants.tsv, made
# by scripts/gipf_variants.py) in passes, each pass only on the positions still unknown:
#   1. df-pn with the GIPF options (--no-mobility --win-probe --epsilon 2), $1 s (default 3);
#   2. alphabeta, $2 s (default 10): it proves draws (repetitions) that df-pn struggles with;
#   3. df-pn again, $3 s (default 20).
# Raw rows of `bitsolve solve --out` go to results/gipf/raw/pass*.csv; scripts/gipf_table.py then
# writes results/gipf/small-variants.csv (one row per position: the deciding pass) and
# results/gipf/small-variants.md (winner grids).
# Usage: nice -n 10 scripts/gipf_variants.sh [limit1 limit2 limit3]
set -euo pipefail
cd "$(dirname "$0")/.."
limits=("${1:-3}" "${2:-10}" "${3:-20}")
solvers=("dfpn --no-mobility --win-probe --epsilon 2" "alphabeta" "dfpn --no-mobility --win-probe --epsilon 2")
cargo build --release --quiet
# A private copy: rebuilding target/ during the run must not change the solver between passes.
bin=$(mktemp -d)/bitsolve
cp target/release/bitsolve "$bin"
raw=results/gipf/raw
mkdir -p "$raw"
rm -f "$raw"/pass*.csv "$raw"/pass*.tsv
input=datasets/gipf/small-variants.tsv
for pass in 1 2 3; do
  i=$((pass - 1))
  if [ "$pass" -gt 1 ]; then
    # The positions every earlier pass left unknown.
    python3 scripts/gipf_table.py --unknown "$input" "$raw"/pass*.csv > "$raw/pass$pass-input.tsv"
    input="$raw/pass$pass-input.tsv"
    if [ "$(grep -vc -e '^#' -e '^id' "$input")" -eq 0 ]; then break; fi
  fi
  # shellcheck disable=SC2086
  "$bin" solve --game gipf --solver ${solvers[$i]} --tt-mib 256 \
    --time-limit "${limits[$i]}" "$input" --out "$raw/pass$pass.csv" > "$raw/pass$pass.log"
done
python3 scripts/gipf_table.py --table datasets/gipf/small-variants.tsv "$raw"/pass*.csv
