#!/usr/bin/env bash
# Runs the sharded table build of scripts/slurm-table.sh without Slurm, on this machine: the
# same step commands (`scripts/slurm-table.sh step ...`) as plain processes in dependency
# order (reach; per layer from the last down, SHARDS shard processes at once, then the
# merge; assemble), then builds the same root in one process (`bitsolve table build`) and
# checks that both table files are byte-identical and that both CSV rows are equal.
#
# Usage: scripts/table-shards-local.sh [GAME] [ROOT] [SHARDS] [DIR]
#   e.g. scripts/table-shards-local.sh ataxx 3x5 3 /tmp/bitsolve-shards
#        scripts/table-shards-local.sh gipf "2 2 9 9/6 6 W/WB/B_W/WB" 3 /tmp/bitsolve-shards
# Env: BITSOLVE (binary), THREADS (threads per shard process, default 1).
# Timings per layer go to standard error, the lines of each step to DIR/BOARD-GAME-steps.log;
# the exit code is 1 if the tables differ (or a step fails).
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:-ataxx}
board=${2:-3x4}
shards=${3:-3}
dir=${4:-/tmp/bitsolve-shards}
export BITSOLVE=${BITSOLVE:-./target/release/bitsolve}
export THREADS=${THREADS:-1}
if [ "$game" = gipf ]; then root=(--position "$board"); else root=(--board "$board"); fi
name=$(echo "$board" | tr ' /' '_-')
mkdir -p "$dir"
sharded=$dir/$name-$game-sharded.tbl
single=$dir/$name-$game-single.tbl
layers=$("$BITSOLVE" table info --game "$game" "${root[@]}" --out "$single" | sed -n 's/^layers=\([0-9]*\).*/\1/p')
step=scripts/slurm-table.sh
log=$dir/$name-$game-steps.log
: > "$log"
now() { date +%s.%N; }
since() { echo "$(now) - $1" | bc; }

t0=$(now)
"$step" step reach "$game" "$board" "$sharded" "$shards"
echo "reach: $(since "$t0") s" >&2
for ((k = layers - 1; k >= 0; k--)); do
  t=$(now)
  pids=()
  for ((s = 0; s < shards; s++)); do
    SLURM_ARRAY_TASK_ID=$s SLURM_ARRAY_TASK_COUNT=$shards \
      "$step" step layer "$game" "$board" "$sharded" "$shards" "$k" 2>> "$log" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  t_scan=$(since "$t")
  "$step" step merge "$game" "$board" "$sharded" "$shards" "$k" 2>> "$log"
  echo "layer $k: $shards shards scanned in $t_scan s, merged in $(since "$t") s in all" >&2
done
"$step" step assemble "$game" "$board" "$sharded" "$shards"
echo "sharded build: $(since "$t0") s" >&2

t1=$(now)
"$BITSOLVE" table build --game "$game" "${root[@]}" --out "$single" --threads "$THREADS" \
  --quiet --csv > "$single.csv"
echo "one-process build: $(since "$t1") s" >&2
cat "$sharded.csv"
if cmp "$sharded" "$single" && cmp "$sharded.csv" "$single.csv"; then
  echo "sharded = one process: byte-identical tables ($(stat -c %s "$single") bytes), same row"
else
  echo "sharded and one-process builds differ" >&2
  exit 1
fi
