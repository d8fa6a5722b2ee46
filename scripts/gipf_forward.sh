#!/usr/bin/env bash
# Pass 7 of the GIPF variant table: forward alpha-beta (the exact solver with repetition draws)
# with a long limit, on every cell still unknown after passes 1-6, or on the cells named in the
# arguments (ids of datasets/gipf/small-variants.tsv, e.g. S4-K4-W7-B7).
# Passes 1-3 gave the forward solvers 3-20 s with an engine some 30 times slower than today's;
# the big cells that retro2 cannot index (S=4 from 7+7, S=3 from 8+8) are often won in a few
# plies, which a forward search proves at once.
#   TIME_LIMIT: seconds per cell (default 120); THREADS (default 1); MIB: table size (default 1024).
#   PASS=8 MIB=1: into pass8.csv, the check of the cells pass 7 decided (any two passes that
#   solve a cell must agree): alpha-beta with a 1 MiB table, nearly a plain search, so no
#   result rests on table entries carried between paths (the graph history interaction).
#   SOLVER=dfpn: df-pn with the GIPF options of passes 1 and 3 instead (it could not check
#   these cells: in 150 s it wandered down lines of thousands of plies).
# Rows go to results/gipf/raw/pass7.csv (bitsolve solve --out, resumable: a cell already in it
# with the same options is skipped); then scripts/gipf_table.py rewrites
# results/gipf/small-variants.{csv,md}. Build from a clean committed tree: the git column of the
# rows must not end in -dirty. BIN=path runs that binary instead of building one.
# Usage: nice -n 10 scripts/gipf_forward.sh [ID...]
set -euo pipefail
cd "$(dirname "$0")/.."
raw=results/gipf/raw
data=datasets/gipf/small-variants.tsv
mib=${MIB:-1024}
threads=${THREADS:-1}
limit=${TIME_LIMIT:-120}
pass=${PASS:-7}
case ${SOLVER:-alphabeta} in
  alphabeta) solver=(alphabeta) ;;
  dfpn) solver=(dfpn --no-mobility --win-probe --epsilon 2) ;;
  *) echo "SOLVER must be alphabeta or dfpn" >&2; exit 2 ;;
esac
bin=${BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=$(mktemp -d)/bitsolve
  cp "${CARGO_TARGET_DIR:-target}/release/bitsolve" "$bin"
fi
mkdir -p "$raw"
input=$(mktemp)
if [ $# -gt 0 ]; then
  echo -e "id\tposition\texpected" > "$input"
  for id in "$@"; do grep -P "^$id\t" "$data" >> "$input"; done
else
  python3 scripts/gipf_table.py --unknown "$data" "$raw"/pass[1-9].csv > "$input"
fi
"$bin" solve --game gipf --solver "${solver[@]}" --threads "$threads" --tt-mib "$mib" \
  --time-limit "$limit" "$input" --out "$raw/pass$pass.csv" --resume >> "$raw/pass$pass.log"
rm -f "$input"
python3 scripts/gipf_table.py --table "$data" "$raw"/pass[1-9].csv
