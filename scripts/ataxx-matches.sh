#!/usr/bin/env bash
# Regenerates results/ataxx/: our engine through the arbiter protocol against the built-in
# players (1000 games each, 1 s per game), and an Elo match against a reference opponent.
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
