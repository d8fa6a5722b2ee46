#!/usr/bin/env bash
# Two builds of bitsolve solving the same Gauss positions exactly (`solve --score`), run side
# by side (A, B, A, B, ...), so a change of the score search is measured under the same load.
# Prints one line per solve and, per run, the total nodes and milliseconds.
#
# Positions: `bitsolve gauss gen` with the seeds of scripts/gauss_depth.sh (2026 + count):
# r12-0, r12-1, r12-4, r12-8, r12-9 (12 left) and r11-4..r11-7 (11 left), the nine used for the
# session-17 measurements in docs/gauss.md.
#
# Usage: scripts/gauss_side_by_side.sh BIN_A BIN_B [THREADS] [RUNS]
# Environment: IDS (space-separated `count:id` items, default the nine above), CAP (seconds per
# solve, default 300), MIB (table size, default 256), SEED_BASE (positions of count c come from
# seed SEED_BASE + c, default 2026; 4026 gives the fresh sample of docs/gauss.md), PAIRED=1
# (run A and B on each position at the same time, one core each, instead of one after the
# other: on a virtual machine whose speed drifts by tens of per cent between runs, the pair
# meets the same drift; use it with THREADS=1 on two cores and nothing else running).
set -euo pipefail
A=${1:?usage: gauss_side_by_side.sh BIN_A BIN_B [THREADS] [RUNS]}
B=${2:?usage: gauss_side_by_side.sh BIN_A BIN_B [THREADS] [RUNS]}
THREADS=${3:-1}
RUNS=${4:-1}
IDS=${IDS:-"12:r12-0 12:r12-1 12:r12-4 12:r12-8 12:r12-9 11:r11-4 11:r11-5 11:r11-6 11:r11-7"}
CAP=${CAP:-300}
MIB=${MIB:-256}
SEED_BASE=${SEED_BASE:-2026}
POS=$(mktemp -d)
trap 'rm -rf "$POS"' EXIT
for item in $IDS; do
  count=${item%%:*}
  [[ -f "$POS/$count.tsv" ]] ||
    "$A" gauss gen --remaining "$count" --count 10 --seed $((SEED_BASE + count)) > "$POS/$count.tsv"
done
solve() { # BIN ID -> the solver's last line
  local count=${2%%:*} id=${2##*:} position
  position=$(awk -F'\t' -v id="$id" '$1 == id { print $2 }' "$POS/$count.tsv")
  [[ -n "$position" ]] || { echo "no position $id" >&2; exit 1; }
  "$1" solve --game gauss --score --solver alphabeta --tt-mib "$MIB" \
    --threads "$THREADS" --time-limit "$CAP" --position "$position" | tail -1
}
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<< "$2"; }
if [[ "${PAIRED:-0}" == 1 ]]; then
  for run in $(seq "$RUNS"); do
    declare -A nodes=([A]=0 [B]=0) ms=([A]=0 [B]=0)
    for item in $IDS; do
      solve "$A" "$item" > "$POS/a.out" &
      solve "$B" "$item" > "$POS/b.out" &
      wait
      for side in A B; do
        f=$POS/${side,,}.out
        line=$(cat "$f")
        n=$(field nodes "$line")
        t=$(field time_ms "$line")
        echo "run $run $side $item ${line%% *} nodes=$n time_ms=$t"
        nodes[$side]=$((nodes[$side] + n))
        ms[$side]=$(awk -v a="${ms[$side]}" -v b="$t" 'BEGIN { printf "%.3f", a + b }')
      done
    done
    echo "run $run A $A TOTAL nodes=${nodes[A]} time_ms=${ms[A]}"
    echo "run $run B $B TOTAL nodes=${nodes[B]} time_ms=${ms[B]}" \
      "ratio $(awk -v a="${ms[A]}" -v b="${ms[B]}" 'BEGIN { printf "%.3f", b / a }')"
  done
  exit 0
fi
for run in $(seq "$RUNS"); do
  for bin in "$A" "$B"; do
    total_nodes=0
    total_ms=0
    for item in $IDS; do
      id=${item##*:}
      line=$(solve "$bin" "$item")
      nodes=$(field nodes "$line")
      ms=$(field time_ms "$line")
      echo "run $run $bin $id ${line%% *} nodes=$nodes time_ms=$ms"
      total_nodes=$((total_nodes + nodes))
      total_ms=$(awk -v a="$total_ms" -v b="$ms" 'BEGIN { printf "%.3f", a + b }')
    done
    echo "run $run $bin TOTAL nodes=$total_nodes time_ms=$total_ms"
  done
done
