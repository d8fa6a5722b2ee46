#!/usr/bin/env bash
# A sharded strong solve on a Slurm cluster: the table file of `bitsolve table build`, computed by
# Slurm jobs that share FILE.parts/ on a shared file system. ROOT is an Ataxx board (RxC, games
# ataxx and ataxx-polish) or a GIPF position in one-line form (game gipf; quote it).
#
#   scripts/slurm-table.sh submit GAME ROOT OUT [SHARDS]     (on the login node)
#   e.g. scripts/slurm-table.sh submit ataxx 4x5 /shared/tables/4x5.tbl 16
#        scripts/slurm-table.sh submit gipf "3 4 10 10/7 7 W/W_B/____/B___W/____/W_B" /shared/g.tbl 16
#
# submits, each job depending (--dependency=afterok) on the one before it:
#
#   reach                 1 job: positions reachable from the root, in OUT.parts/
#   layer N (the last)    array of SHARDS tasks: task S scans shard S/SHARDS of the layer's
#                         positions (reads the reachable sets and the finished later layers,
#                         memory-mapped) into OUT.parts/layer-N.part-S-of-SHARDS
#   merge N               1 job: joins the parts, propagates inside the layer, stores the
#                         finished layer; removes the parts
#   layer N-1, merge N-1, ... down to layer 0
#   assemble              1 job: writes OUT from the layers and the CSV row to OUT.csv
#
# The number of layers comes from `bitsolve table info` (Ataxx: one per stone count; GIPF: one
# per pair of piece totals). Layer K needs the later layers (Ataxx: only K+1), so the chain is
# reach -> (layer N array -> merge N) -> ... -> (layer 0 array -> merge 0) -> assemble. A failed
# task stops the chain (afterok); fix and resubmit from the failed layer with FROM=K.
# The same step commands run without Slurm, as plain processes, in
# scripts/table-shards-local.sh. Each step is also a job of its own:
#
#   scripts/slurm-table.sh step reach|layer|merge|assemble GAME ROOT OUT SHARDS [LAYER]
#
# (a `layer` step takes its shard from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT).
# Env: BITSOLVE (binary, default ./target/release/bitsolve), THREADS (per task, default
# SLURM_CPUS_PER_TASK or 1), FROM (first layer to submit, default the last), and
# SBATCH_ARGS (extra sbatch options, e.g. "--partition=long --mem=8G").
#SBATCH --job-name=bitsolve-table
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=04:00:00
#SBATCH --output=slurm-table-%A_%a.out
set -euo pipefail
mode=${1:?usage: slurm-table.sh submit|step ...}
shift

if [ "$mode" = step ]; then
  step=${1:?step}
  game=${2:?game}
  board=${3:?board}
  out=${4:?table file}
  shards=${5:?shards}
  layer=${6:-}
  bin=${BITSOLVE:-./target/release/bitsolve}
  threads=${THREADS:-${SLURM_CPUS_PER_TASK:-1}}
  if [ "$game" = gipf ]; then root=(--position "$board"); else root=(--board "$board"); fi
  common=(--game "$game" "${root[@]}" --out "$out" --threads "$threads" --quiet)
  case "$step" in
    reach) exec "$bin" table reach "${common[@]}" ;;
    layer)
      task=${SLURM_ARRAY_TASK_ID:?a layer step runs as an array task}
      count=${SLURM_ARRAY_TASK_COUNT:-$shards}
      exec "$bin" table layer "${common[@]}" --layer "${layer:?layer}" --shard "$task/$count" ;;
    merge) exec "$bin" table merge "${common[@]}" --layer "${layer:?layer}" --shards "$shards" ;;
    assemble) "$bin" table assemble "${common[@]}" --csv > "$out.csv" ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
  exit 0
fi

[ "$mode" = submit ] || { echo "usage: slurm-table.sh submit|step ..." >&2; exit 2; }
game=${1:?game}
board=${2:?root: an Ataxx board RxC or a GIPF position}
out=${3:?table file on a shared file system}
shards=${4:-4}
bin=${BITSOLVE:-./target/release/bitsolve}
if [ "$game" = gipf ]; then root=(--position "$board"); else root=(--board "$board"); fi
layers=$("$bin" table info --game "$game" "${root[@]}" --out "$out" | sed -n 's/^layers=\([0-9]*\).*/\1/p')
last=$((layers - 1))
from=${FROM:-$last}
self=$(realpath "$0")
# shellcheck disable=SC2206
extra=(${SBATCH_ARGS:-})
submit() { sbatch --parsable "${extra[@]}" "$@"; }

prev=
if [ "$from" -eq "$last" ]; then
  prev=$(submit --job-name="reach" "$self" step reach "$game" "$board" "$out" "$shards")
  echo "reach: job $prev"
fi
for ((k = from; k >= 0; k--)); do
  dep=()
  [ -n "$prev" ] && dep=(--dependency="afterok:$prev")
  arr=$(submit "${dep[@]}" --job-name="layer-$k" --array="0-$((shards - 1))" \
    "$self" step layer "$game" "$board" "$out" "$shards" "$k")
  prev=$(submit --dependency="afterok:$arr" --job-name="merge-$k" \
    "$self" step merge "$game" "$board" "$out" "$shards" "$k")
  echo "layer $k: array job $arr, merge job $prev"
done
last=$(submit --dependency="afterok:$prev" --job-name="assemble" \
  "$self" step assemble "$game" "$board" "$out" "$shards")
echo "assemble: job $last (table $out, row $out.csv)"
