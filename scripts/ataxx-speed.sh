#!/usr/bin/env bash
# Search speed and depth in a fixed time of the Ataxx UAI engine, with the embedded net (the
# default) and with the hand-made evaluation (`--classic`): each of the first N bundled openings
# (datasets/ataxx/openings.txt, standard rules) is searched with `go movetime MS` on one thread
# and a 64 MiB table, a fresh engine per evaluation; the last `info` line of each search gives
# its depth, nodes and nodes per second. Writes results/ataxx/speed.md (never edit it by hand).
# Timing depends on the machine's load: the load average is written before and after.
# Usage: scripts/ataxx-speed.sh [N=20] [MS=1000]   (env: BIN, a built bitsolve; OUT; NET, a net
# file the "net" rows search with through `--eval-file` instead of the embedded net)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20}
ms=${2:-1000}
out=${OUT:-results/ataxx/speed.md}
bin=${BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-target}/release/bitsolve
fi
version=$("$bin" --version)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
mapfile -t openings < <(grep -v '^#' datasets/ataxx/openings.txt | head -n "$n")
tmp=$(mktemp -d)
for eval in net classic; do
  flag=()
  [ "$eval" = classic ] && flag=(--classic)
  [ "$eval" = net ] && [ -n "${NET:-}" ] && flag=(--eval-file "$NET")
  {
    echo "uai"
    for o in "${openings[@]}"; do
      echo "uainewgame"
      echo "position startpos moves $o"
      echo "go movetime $ms"
      # Wait for this search's bestmove before the next command (the engine answers
      # isready only once the search is done or stopped, so pace by sleeping).
      sleep "$(awk -v m="$ms" 'BEGIN{print m/1000 + 0.3}')"
    done
    echo "quit"
  } | "$bin" ataxx uai --hash 64 --threads 1 "${flag[@]}" > "$tmp/$eval.out"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
summary() {
  # The last info line before each bestmove: depth, nodes, nps.
  awk '/^info depth/{d=$3; for(i=1;i<=NF;i++){if($i=="nodes")nd=$(i+1); if($i=="nps")np=$(i+1)}}
       /^bestmove/{print d, nd, np}' "$1"
}
{
  echo "# Ataxx engine: speed and depth in $ms ms"
  echo
  echo "Written by \`scripts/ataxx-speed.sh $n $ms\` with \`$version\`: the first $n bundled openings"
  echo "(\`datasets/ataxx/openings.txt\`, standard rules), \`go movetime $ms\`, one thread, 64 MiB"
  echo "table. Load average (1, 5, 15 min) before: $load_before; after: $load_after (2 cores)."
  [ -n "${NET:-}" ] && echo "The net rows searched with \`--eval-file $NET\` (NET=$NET)."
  echo "A search that proves a win or a loss stops before its time (a low depth below)."
  echo
  echo "| evaluation | searches | mean depth | min depth | max depth | mean nodes | mean nodes/s |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for eval in net classic; do
    summary "$tmp/$eval.out" | awk -v e="$eval" '
      {n++; d+=$1; if(min==""||$1<min)min=$1; if($1>max)max=$1; nd+=$2; np+=$3}
      END{printf "| %s | %d | %.1f | %d | %d | %.0f | %.0f |\n", e, n, d/n, min, max, nd/n, np/n}'
  done
  echo
  echo "Per opening (depth, nodes/s):"
  echo
  echo "| opening | net depth | net nodes/s | classic depth | classic nodes/s |"
  echo "|---|---:|---:|---:|---:|"
  paste -d' ' <(summary "$tmp/net.out") <(summary "$tmp/classic.out") | nl -w1 -s' ' |
    while read -r i d1 _ p1 d2 _ p2; do
      echo "| ${openings[$((i - 1))]} | $d1 | $p1 | $d2 | $p2 |"
    done
} > "$out"
rm -rf "$tmp"
cat "$out"
