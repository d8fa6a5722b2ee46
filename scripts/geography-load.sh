#!/usr/bin/env bash
# The geography server under load: GAMES games at once on loopback between well-behaved and
# hostile clients (`bitsolve geography load`), written to results/geography/load.md.
# Usage: scripts/geography-load.sh [GAMES] [SECONDS_PER_MOVE]   (env BIN: the binary to use)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}
time=${2:-1.5}
bin=${BIN:-target/release/bitsolve}
[ -x "$bin" ] || cargo build --release --quiet
out=results/geography/load.md
tmp=$(mktemp)
"$bin" geography load --games "$games" --time "$time" --seed 1 > "$tmp"
{
  echo "# Geography server under load"
  echo
  echo "Written by \`scripts/geography-load.sh $games $time\` on $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
  echo "(load average $(cut -d' ' -f1-3 /proc/loadavg)), $("$bin" --version)."
  echo "Binary: \`$bin\`. Peak RSS is the whole process: the server and all $((2 * games)) client threads."
  echo
  cat "$tmp"
} > "$out"
rm -f "$tmp"
cat "$out"
