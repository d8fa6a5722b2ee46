#!/usr/bin/env bash
# Regenerates datasets/gauss/endgames.tsv: random-play positions with 4 to 9 placements left
# (`bitsolve gauss gen`, seed 1), the expected column filled by the alpha-beta solver
# (result with the tie-breaks) and the exact score noted in a comment per row.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN=target/release/bitsolve
OUT=datasets/gauss/endgames.tsv
TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT
"$BIN" gauss gen --remaining 4,5,6,7,8,9 --count 3 --seed 1 > "$TMP"
{
  echo "# Gauss endgames: random play from the start (bitsolve gauss gen --remaining 4,5,6,7,8,9"
  echo "# --count 3 --seed 1); expected = result for the side to move with the default rules"
  echo "# (solve --solver alphabeta), exact scores by: bitsolve solve --game gauss --score $OUT"
  echo -e "id\tposition\texpected"
  "$BIN" solve --game gauss --solver alphabeta "$TMP" | awk -F'\t' 'NF >= 3 { split($3, w, " "); print $1 "\t" w[1] }' |
    join -t $'\t' <(grep -v '^#' "$TMP" | grep -v '^id' | cut -f1,2 | sort) <(sort -) |
    sort
} > "$OUT"
wc -l "$OUT"
