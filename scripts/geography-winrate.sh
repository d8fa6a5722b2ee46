#!/bin/sh
# Win rate of our geography client (`geography client`, exact solver + engine) against the
# random client and against the plain alpha-beta client (`geography client --engine plain`),
# through our server over loopback on contest graphs (n = 100, a fresh seeded graph per game),
# our client moving first in half of the games and second in the other half.
#
# usage: scripts/geography-winrate.sh [games per opponent, default 200] [seconds per move,
#        default 0.2] [seed, default 1]
# Writes results/geography/winrate/vs-{random,plain}/{games,standings}.tsv and
# results/geography/winrate/summary.md. Set BITSOLVE to use another binary.
set -eu
games=${1:-200}
time=${2:-0.2}
seed=${3:-1}
bin=${BITSOLVE:-target/release/bitsolve}
ms=$(awk -v t="$time" 'BEGIN { printf "%d", t * 1000 }')
out=results/geography/winrate
mkdir -p "$out"
started=$(date +%s)
for opp in random plain; do
    case $opp in
    random) cmd="$bin geography random --seed {seed}" ;;
    plain) cmd="$bin geography client --engine plain --time-ms $ms" ;;
    esac
    mkdir -p "$out/vs-$opp"
    "$bin" geography tournament --format round-robin --rounds "$games" --seed "$seed" \
        --gsize 100 --time "$time" --out "$out/vs-$opp" \
        --players "$bin geography client --time-ms $ms,$cmd" 2>"$out/vs-$opp/log.txt" >/dev/null ||
        { echo "the tournament against $opp failed, see $out/vs-$opp/log.txt" >&2; exit 1; }
done
elapsed=$(( $(date +%s) - started ))
{
    echo "# Geography: our client against a random and a plain alpha-beta client"
    echo
    echo "Written by \`scripts/geography-winrate.sh $games $time $seed\` on $(date -u +%Y-%m-%d)"
    echo "(commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores shared"
    echo "with other jobs; $elapsed s wall time). Server time limit $time s per move, measured by the"
    echo "server from its send to its receive; both clients get \`--time-ms $ms\` and think at most"
    echo "0.75 x limit - 30 ms. Contest graphs, n = 100, one seeded graph per game (the same"
    echo "$games graphs against both opponents). Per-game rows: \`vs-*/games.tsv\`."
    echo
    echo "| opponent | games | our wins moving first | our wins moving second | total | our time losses | our illegal moves | opponent time losses | our longest move (ms) | opponent's longest (ms) |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    for opp in random plain; do
        awk -F'\t' -v opp="$opp" '
            NR > 1 && $2 == 0 { games = $4; wf = $7; lf = $8; ws = $9; ls = $10; tl = $11; il = $12; us = $15 }
            NR > 1 && $2 == 1 { otl = $11; them = $15 }
            END {
                printf "| %s | %d | %d / %d | %d / %d | %d / %d (%.1f%%) | %d | %d | %d | %s | %s |\n",
                    opp, games, wf, wf + lf, ws, ws + ls, wf + ws, games,
                    games ? 100 * (wf + ws) / games : 0, tl, il, otl, us, them
            }' "$out/vs-$opp/standings.tsv"
    done
} >"$out/summary.md"
cat "$out/summary.md"
