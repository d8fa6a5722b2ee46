#!/usr/bin/env bash
# Self-play training data for the Ataxx NNUE (format version 3: src/cli/ataxx/datafile.rs;
# scripts/ataxx-selfplay.sh runs the same generation in the background with blocked squares).
# Resumable: run the same command again to continue (or with a larger GAMES to extend).
#
#   scripts/ataxx-datagen.sh                 # net-1 data: hand-made evaluation, 2000 nodes/move
#   NET=nets/ataxx/default.nnue OUT=/work/data/ataxx/gen2.bin SEED=2 scripts/ataxx-datagen.sh
#
# Variables: OUT (data file, kept out of git), GAMES (total games), NODES (per move), SEED,
# THREADS, NET (a net file: play with it instead of the hand-made evaluation), BITSOLVE,
# MIN_PLIES and MAX_PLIES (random opening plies, default 4 and 8), MAX_OPENING_SCORE (draw the
# opening again while the engine scores it beyond this; unset: no filter).
# Scores are in the playing net's units: 300 with net6a (scale 164) is about 1280 with net6b
# (scale 700, the same weights; nets/ataxx/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/work/data/ataxx/gen1.bin}
GAMES=${GAMES:-20000}
NODES=${NODES:-2000}
SEED=${SEED:-1}
THREADS=${THREADS:-1}
BITSOLVE=${BITSOLVE:-target/release/bitsolve}
mkdir -p "$(dirname "$OUT")"
args=(ataxx datagen --out "$OUT" --games "$GAMES" --nodes "$NODES" --seed "$SEED"
      --min-plies "${MIN_PLIES:-4}" --max-plies "${MAX_PLIES:-8}" --threads "$THREADS")
if [[ -n ${MAX_OPENING_SCORE:-} ]]; then args+=(--max-opening-score "$MAX_OPENING_SCORE"); fi
if [[ -n ${NET:-} ]]; then args+=(--net "$NET"); fi
exec nice -n 10 "$BITSOLVE" "${args[@]}"
