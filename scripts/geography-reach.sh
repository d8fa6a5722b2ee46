#!/bin/sh
# How far the exact solver reaches on contest graphs: plays one random-vs-random game on our
# server (gsize 100, seed $1, default 5), then solves the position after every 5th ply from the
# end backwards with df-pn (time limit $2 seconds, default 5) and prints
# `plies_played edges_left result nodes time_ms`.
set -eu
seed=${1:-5}
limit=${2:-5}
bin=${BITSOLVE:-target/release/bitsolve}
log=$(mktemp)
out=$(mktemp)
"$bin" geography serve --port 0 --gsize 100 --time 2 --seed "$seed" --games 1 --games-log "$log" >"$out" &
server=$!
sleep 0.3
port=$(head -1 "$out" | sed 's/.*:\([0-9]*\) seed.*/\1/')
"$bin" geography random --port "$port" --seed 1 >/dev/null 2>&1 &
sleep 0.2
"$bin" geography random --port "$port" --seed 2 >/dev/null 2>&1 || true
wait "$server"
moves=$(cut -f7 "$log")
start=$(cut -f8 "$log")
total=$(echo "$moves" | wc -w)
k=$total
while [ "$k" -ge 0 ]; do
    prefix=$(echo "$moves" | cut -d' ' -f1-"$k" 2>/dev/null || true)
    [ "$k" -eq 0 ] && prefix=""
    edges=$(( $(echo "$start" | cut -d' ' -f3) - k ))
    pos=$("$bin" geography replay --position "$start" --moves "$prefix")
    line=$("$bin" solve --game geography --solver dfpn --time-limit "$limit" --position "$pos" | tail -1)
    echo "$k $edges $(echo "$line" | awk '{print $1, $4, $5}')"
    k=$((k - 5))
done
rm -f "$log" "$out"
