#!/usr/bin/env bash
# Issue 48's one-off check of a GIPF table against a forward search: builds the table of ROOT
# with the one retrograde driver (`bitsolve table build`), draws COUNT of its positions at random
# (`bitsolve table sample`, seed SEED), solves each with alpha-beta within TIME seconds (`bitsolve
# solve`, the batch path, JOBS processes) and writes results/gipf/table-check.md: how many
# alpha-beta decided, how many of those agree with the table (value; distance too where both
# give one), and every disagreement. Build from a clean committed tree.
#
#   scripts/gipf-table-check.sh           (S=3 K=3 5+5, 10,000 positions, 2 s each)
#
# Env: ROOT (one-line form), SYM (1: the table of classes under the board's symmetries, the
# default; 0: of positions), COUNT, SEED (default 20261129), TIME, JOBS (default 2), DIR (work
# files, default /tmp/gipf-table-check), BIN (default: build target/release/bitsolve), OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${ROOT:-"3 3 5 5/2 2 W/W_B/____/B___W/____/W_B"}
SYM=${SYM:-1}
COUNT=${COUNT:-10000}
SEED=${SEED:-20261129}
TIME=${TIME:-2}
JOBS=${JOBS:-2}
DIR=${DIR:-/tmp/gipf-table-check}
OUT=${OUT:-results/gipf/table-check.md}
BIN=${BIN:-}
if [ -z "$BIN" ]; then
  cargo build --release --quiet
  BIN=target/release/bitsolve
fi
mkdir -p "$DIR"
sym=()
[ "$SYM" = 1 ] && sym=(--symmetry)
table=$DIR/table.tbl
began=$(date +%s)
if [ ! -f "$table" ]; then
  "$BIN" table build --game gipf --position "$ROOT" "${sym[@]}" --out "$table" --threads 2 --quiet --csv \
    > "$DIR/table.csv"
fi
"$BIN" table verify --table "$table" > "$DIR/verify.txt"
"$BIN" table sample --table "$table" --count "$COUNT" --seed "$SEED" > "$DIR/sample.tsv"
rm -f "$DIR/rows.csv"
"$BIN" solve --game gipf --solver alphabeta --time-limit "$TIME" --jobs "$JOBS" \
  "$DIR/sample.tsv" --out "$DIR/rows.csv" > "$DIR/solve.log" 2>&1
secs=$(( $(date +%s) - began ))
python3 - "$DIR/rows.csv" "$DIR/sample.tsv" "$DIR/table.csv" "$("$BIN" --version)" "$ROOT" "$SYM" \
  "$COUNT" "$SEED" "$TIME" "$secs" > "$OUT" <<'PY'
import csv, sys
rows_path, sample_path, table_csv, version, root, sym, count, seed, limit, secs = sys.argv[1:]
plies = {}
for line in open(sample_path):
    if line.startswith("sample-"):
        ident = line.split("\t")[0]
        plies[ident] = ident.rsplit("-plies-", 1)[1]
rows = list(csv.DictReader(open(rows_path)))
decided = [r for r in rows if r["outcome"] in ("win", "loss", "draw")]
agree = [r for r in decided if r["agree"] == "true"]
wrong = [r for r in decided if r["agree"] != "true"]
with_plies = [r for r in agree if r.get("plies") not in (None, "", "-") and plies.get(r["id"], "-") != "-"]
same_plies = [r for r in with_plies if r["plies"] == plies[r["id"]]]
table_row = open(table_csv).read().strip() if table_csv else ""
print("# A GIPF table against alpha-beta\n")
print("Written by `scripts/gipf-table-check.sh` (issue 48: the table of the one retrograde driver, checked")
print(f"by a forward search). Build: `{version}`. Root: `{root}`; table of "
      f"{'classes under the board symmetries' if sym == '1' else 'positions'}: `{table_row}`")
print("(variant, symmetry, positions, wins, draws, losses, root value, plies, method).")
print(f"{count} positions drawn at random from the table (seed {seed}, `bitsolve table sample`), each")
print(f"solved by `bitsolve solve --solver alphabeta --time-limit {limit}`; {secs} s in all.\n")
print("| drawn | decided by alpha-beta | agree on the value | disagree | distance given by both | same distance |")
print("|---:|---:|---:|---:|---:|---:|")
print(f"| {len(rows)} | {len(decided)} | {len(agree)} | {len(wrong)} | {len(with_plies)} | {len(same_plies)} |")
if wrong:
    print("\nDisagreements (position, table, alpha-beta):\n")
    for r in wrong:
        print(f"- `{r['position']}`: table {r['expected']}, alpha-beta {r['outcome']}")
diff = [r for r in with_plies if r["plies"] != plies[r["id"]]]
if diff:
    print("\nDistances that differ (position, table, alpha-beta):\n")
    for r in diff[:50]:
        print(f"- `{r['position']}`: table {plies[r['id']]}, alpha-beta {r['plies']}")
PY
cat "$OUT"
