#!/usr/bin/env bash
# Strongly solves every Ataxx board R x C with 2 <= R <= C <= 7 and R*C <= 21 from the
# four-corner start, under the standard and the Polish rules, with the indexed retrograde
# engine (`bitsolve table build`), and appends one row per board to the results table:
#
#   board,rules,positions,wins,draws,losses,start,plies,method
#
# Boards already in the table are skipped; a killed run resumes from the per-layer
# checkpoints (`--resume`). Time and peak memory of each board (`/usr/bin/time -v`) go to
# the log. Usage: scripts/ataxx-solved-boards.sh  (env: BIN, OUT, LOG, TABLES, THREADS, MEMORY in GiB,
# BOARDS: only these boards, both rule sets, e.g. BOARDS=3x7 MEMORY=21 for the 21-square board,
# whose largest layer of 1.9 billion positions needs about 17 GiB with the solved layers mapped)
set -euo pipefail

BIN=${BIN:-target/release/bitsolve}
OUT=${OUT:-results/ataxx/solved-boards.csv}
LOG=${LOG:-results/ataxx/solved-boards.log}
TABLES=${TABLES:-/tmp/bitsolve-tables}
THREADS=${THREADS:-2}
MEMORY=${MEMORY:-8}
VERSION=$("$BIN" --version)

mkdir -p "$(dirname "$OUT")" "$(dirname "$LOG")" "$TABLES"
[ -s "$OUT" ] || echo "board,rules,positions,wins,draws,losses,start,plies,method" > "$OUT"

# The big standard board first, so that it is there when time runs short.
jobs=("4x5 ataxx")
for b in 2x2 2x3 2x4 2x5 2x6 2x7 3x3 3x4 3x5 3x6 4x4; do
    jobs+=("$b ataxx" "$b ataxx-polish")
done
jobs+=("4x5 ataxx-polish" "3x7 ataxx" "3x7 ataxx-polish")
if [ -n "${BOARDS:-}" ]; then
    jobs=()
    for b in $BOARDS; do jobs+=("$b ataxx" "$b ataxx-polish"); done
fi

for job in "${jobs[@]}"; do
    read -r board game <<< "$job"
    rules=standard
    [ "$game" = ataxx-polish ] && rules=polish
    if grep -q "^$board,$rules," "$OUT"; then
        continue
    fi
    row=$(mktemp)
    timing=$(mktemp)
    /usr/bin/time -v -o "$timing" "$BIN" table build --game "$game" --board "$board" \
        --out "$TABLES/$board-$rules.tbl" --threads "$THREADS" --memory "$MEMORY" --resume --csv --quiet \
        > "$row" 2>> "$LOG"
    cat "$row" >> "$OUT"
    wall=$(grep "Elapsed (wall clock)" "$timing" | awk '{print $NF}')
    rss=$(grep "Maximum resident set size" "$timing" | awk '{print $NF}')
    user=$(grep "User time" "$timing" | awk '{print $NF}')
    echo "$board $rules: wall $wall, user ${user}s, max RSS ${rss} KiB, threads $THREADS, $VERSION" >> "$LOG"
    rm -f "$row" "$timing"
done
