#!/usr/bin/env bash
# Regenerates results/ataxx/: our engine driven through the arbiter protocol (a child process
# per game) against the built-in players, 1000 games each at 1 s per game, and an Elo match of
# the engine under UAI against its depth-3-limited reference, from the bundled openings.
# Usage: scripts/ataxx-matches.sh [BITSOLVE]   (default: target/release/bitsolve)
# Copy the binary elsewhere first if you rebuild while it runs: `self-*` players run the same file.
set -euo pipefail
B=${1:-target/release/bitsolve}
mkdir -p results/ataxx
for opp in random greedy; do
  nice -n 10 "$B" ataxx match --p1 self-arbiter --p2 "$opp" --rules polish --games 1000 \
    --tc 1000+0 --concurrency 2 --names bitsolve-arbiter "$opp" \
    --pgn "results/ataxx/arbiter-vs-$opp.pgn" --out "results/ataxx/arbiter-vs-$opp.txt"
done
nice -n 10 "$B" ataxx match --p1 self-uai --p2 "self-uai:--depth 3" --rules standard --games 120 \
  --tc 1000+10 --concurrency 2 --openings datasets/ataxx/openings.txt \
  --names bitsolve-uai bitsolve-uai-depth3 \
  --pgn results/ataxx/uai-vs-depth3.pgn --out results/ataxx/uai-vs-depth3.txt
