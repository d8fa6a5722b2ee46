#!/usr/bin/env bash
# Example Slurm job array: each task solves one shard of a dataset; `bitsolve merge` joins them.
#   sbatch --array=0-3 scripts/slurm-array.sh ataxx datasets/ataxx/random-small.tsv results/slurm
# Task i of n (n = SLURM_ARRAY_TASK_COUNT) solves positions k with k % n == i into
# <outdir>/shard-<i>.csv (resumable: a requeued task skips its finished rows). Then:
#   bitsolve merge --out <outdir>/all.csv <outdir>/shard-*.csv
#SBATCH --job-name=bitsolve
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
#SBATCH --time=01:00:00
#SBATCH --output=slurm-%A_%a.out
set -euo pipefail
game=${1:?game}
dataset=${2:?dataset file}
outdir=${3:?output directory}
solvers=${SOLVERS:-alphabeta,pns,dfpn}
bin=${BITSOLVE:-./target/release/bitsolve}
task=${SLURM_ARRAY_TASK_ID:?run under sbatch --array}
count=${SLURM_ARRAY_TASK_COUNT:?run under sbatch --array}
mkdir -p "$outdir"
echo "task $task of $count on $(hostname): $game $dataset"
"$bin" solve --game "$game" --solver "$solvers" --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --tt-mib "${TT_MIB:-64}" ${TIME_LIMIT:+--time-limit "$TIME_LIMIT"} \
  --shard "$task/$count" --out "$outdir/shard-$task.csv" --resume "$dataset"
