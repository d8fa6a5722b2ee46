#!/usr/bin/env bash
# Solves the initial position of every small GIPF variant (datasets/gipf/small-variants.tsv, made
# by scripts/gipf_variants.py) in passes, each pass only on the positions still unknown:
#   1. df-pn with the GIPF options (--no-mobility --win-probe --epsilon 2), $1 s (default 3);
#   2. alphabeta, $2 s (default 10): it proves draws (repetitions) that df-pn struggles with;
#   3. df-pn again, $3 s (default 20);
#   4. S=2 only: pns, $4 s (default 30) (the S=2, K=2 draws need a long repetition search);
#   5. every position (solved or not): retro, the retrograde solver, $5 s (default 120) and at
#      most RETRO_MAX positions (default 1000000, about 100 MB): exact with draws by infinite
#      play; it decides the rows passes 1-4 left unknown, checks the others and measures the
#      number of reachable positions (or shows it is above the cap).
# FROM_PASS=n keeps the raw rows of the passes before n and runs from pass n on.
# Raw rows of `bitsolve solve --out` go to results/gipf/raw/pass*.csv; scripts/gipf_table.py then
# writes results/gipf/small-variants.csv (one row per position: the deciding pass, plus retro's
# check) and results/gipf/small-variants.md (winner grids, position counts).
# Usage: nice -n 10 scripts/gipf_variants.sh [limit1 limit2 limit3 limit4 limit5]
set -euo pipefail
cd "$(dirname "$0")/.."
limits=("${1:-3}" "${2:-10}" "${3:-20}" "${4:-30}" "${5:-120}")
# The df-pn passes name GIPF's settings (its defaults since they became per-game); the pns pass
# keeps the mobility initialisation it was run with.
solvers=("dfpn --no-mobility --win-probe --epsilon 2" "alphabeta" "dfpn --no-mobility --win-probe --epsilon 2" "pns --mobility"
  "retro --node-limit ${RETRO_MAX:-1000000}")
sides=("" "" "" "--side 2" "")
from=${FROM_PASS:-1}
cargo build --release --quiet
# A private copy: rebuilding target/ during the run must not change the solver between passes.
bin=$(mktemp -d)/bitsolve
cp target/release/bitsolve "$bin"
raw=results/gipf/raw
mkdir -p "$raw"
for pass in 1 2 3 4 5; do
  if [ "$pass" -ge "$from" ]; then rm -f "$raw/pass$pass".*  "$raw/pass$pass"-input.tsv; fi
done
input=datasets/gipf/small-variants.tsv
for pass in 1 2 3 4 5; do
  i=$((pass - 1))
  if [ "$pass" -lt "$from" ]; then continue; fi
  if [ "$pass" -eq 5 ]; then
    input=datasets/gipf/small-variants.tsv
  elif [ "$pass" -gt 1 ]; then
    # The positions every earlier pass left unknown.
    # shellcheck disable=SC2086
    python3 scripts/gipf_table.py --unknown datasets/gipf/small-variants.tsv "$raw"/pass*.csv \
      ${sides[$i]} > "$raw/pass$pass-input.tsv"
    input="$raw/pass$pass-input.tsv"
    if [ "$(grep -vc -e '^#' -e '^id' "$input")" -eq 0 ]; then continue; fi
  fi
  # shellcheck disable=SC2086
  "$bin" solve --game gipf --solver ${solvers[$i]} --tt-mib 256 \
    --time-limit "${limits[$i]}" "$input" --out "$raw/pass$pass.csv" > "$raw/pass$pass.log"
done
python3 scripts/gipf_table.py --table datasets/gipf/small-variants.tsv "$raw"/pass*.csv
