#!/usr/bin/env bash
# Pass 6 of the GIPF variant table: the indexed retrograde solver retro2 on the cells named in the
# arguments (ids of datasets/gipf/small-variants.tsv, e.g. S3-K3-W5-B5), one process per cell so
# that each cell's peak memory is measured (/usr/bin/time), checkpointed (`--checkpoint CHECKPOINT`:
# a killed run resumes its reachability pass and its solved layers; a finished cell leaves its table
# file CHECKPOINT/gipf-S-K-GW-GB-KEY.tbl, readable with `--solver table`), each run at
# most TIME_LIMIT seconds (default 1700). MIB: the run's memory budget in MiB (default 16000).
# SYM=1: one position per class under the board's twelve symmetries (`--symmetry`; the node
# count of the row is then of classes, and its options end in -sym).
#   CHECK=1: instead of ids, every cell already solved whose index has at most CHECK_MAX positions
#            (default 40000000): retro2 re-solves them to check it against the earlier passes.
#   UNKNOWN=1: instead of ids, every cell still unknown, smallest index first.
# Rows go to results/gipf/raw/pass6.csv (bitsolve solve --out), peak memory to
# results/gipf/raw/retro2-memory.csv, and with SYM=1 the positions the classes stand for (the
# solver's log line "N classes stand for M positions") to results/gipf/raw/retro2-classes.csv.
# A cell whose table is in CHECKPOINT is answered from it in seconds (SYM=1 on a solved
# cell: its classes' positions counted again). Then scripts/gipf_table.py rewrites
# results/gipf/small-variants.{csv,md}. Build from a clean committed tree: the git column of the
# rows must not end in -dirty. BIN=path runs that binary instead of building one.
# Usage: nice -n 10 scripts/gipf_retro2.sh ID... | CHECK=1 nice -n 10 scripts/gipf_retro2.sh
set -euo pipefail
cd "$(dirname "$0")/.."
raw=results/gipf/raw
data=datasets/gipf/small-variants.tsv
mib=${MIB:-16000}
# The batch's memory budget (GiB) must hold the one job's budget: by default it is 3/4 of RAM.
gib=$(( (mib + 1023) / 1024 ))
threads=${THREADS:-2}
sym=()
[ "${SYM:-0}" = 1 ] && sym=(--symmetry)
limit=${TIME_LIMIT:-1700}
ckpt=${CHECKPOINT:-${TMPDIR:-/tmp}/gipf-retro2-checkpoints}
bin=${BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=$(mktemp -d)/bitsolve
  cp "${CARGO_TARGET_DIR:-target}/release/bitsolve" "$bin"
fi
ids=("$@")
if [ "${CHECK:-0}" = 1 ]; then
  mapfile -t ids < <(python3 - "${CHECK_MAX:-40000000}" <<'EOF'
import csv, math, sys
cap = int(sys.argv[1])
def bound(s, gw, gb):
    n = 3 * s * (s - 1) + 1
    return sum(math.comb(n, w) * math.comb(n - w, b) * (gw - w + 1) * (gb - b + 1) * 2
               for w in range(min(gw, n) + 1) for b in range(min(gb, n - w) + 1))
for r in csv.DictReader(open("results/gipf/small-variants.csv")):
    if r["winner"] != "?" and bound(int(r["S"]), int(r["GW"]), int(r["GB"])) <= cap:
        print(r["id"])
EOF
)
fi
if [ "${UNKNOWN:-0}" = 1 ]; then
  mapfile -t ids < <(python3 - <<'EOF'
import csv, math
def bound(s, gw, gb):
    n = 3 * s * (s - 1) + 1
    return sum(math.comb(n, w) * math.comb(n - w, b) * (gw - w + 1) * (gb - b + 1) * 2
               for w in range(min(gw, n) + 1) for b in range(min(gb, n - w) + 1))
rows = [r for r in csv.DictReader(open("results/gipf/small-variants.csv")) if r["winner"] == "?"]
for r in sorted(rows, key=lambda r: bound(int(r["S"]), int(r["GW"]), int(r["GB"]))):
    print(r["id"])
EOF
)
fi
mkdir -p "$raw" "$ckpt"
[ -f "$raw/retro2-memory.csv" ] || echo "id,peak_kib,seconds" > "$raw/retro2-memory.csv"
[ -f "$raw/retro2-classes.csv" ] || echo "id,classes,positions" > "$raw/retro2-classes.csv"
for id in "${ids[@]}"; do
  input=$(mktemp)
  { echo -e "id\tposition\texpected"; grep -P "^$id\t" "$data"; } > "$input"
  tlog=$(mktemp)
  elog=$(mktemp)
  /usr/bin/time -f "%M %e" -o "$tlog" \
    "$bin" solve --game gipf --solver retro2 --progress --checkpoint "$ckpt" \
    --threads "$threads" --tt-mib "$mib" --memory "$gib" \
    --time-limit "$limit" "${sym[@]}" "$input" --out "$raw/pass6.csv" >> "$raw/pass6.log" 2> "$elog" || true
  cat "$elog" >> "$raw/pass6.err"
  # The last line is "%M %e"; a failed run has "Command exited with ..." before it.
  read -r kib secs < <(tail -n 1 "$tlog")
  echo "$id,$kib,$secs" >> "$raw/retro2-memory.csv"
  orbits=$(sed -n 's/^retro2: \([0-9]*\) classes stand for \([0-9]*\) positions.*/\1,\2/p' "$elog" | tail -n 1)
  [ -z "$orbits" ] || echo "$id,$orbits" >> "$raw/retro2-classes.csv"
  rm -f "$input" "$tlog" "$elog"
done
python3 scripts/gipf_table.py --table "$data" "$raw"/pass[1-9].csv
