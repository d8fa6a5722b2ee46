#!/usr/bin/env bash
# Ataxx 5x5 from the four-corner start (issue 19's moonshot): how far this machine gets.
#
# 1. The layered index of 5x5 (layer k = the positions with k stones, C(25, k) * 2^k ranks):
#    which layers the indexed retrograde engine could table here, at its ~3 bytes per position
#    of working memory (2-byte cell + 1-byte counter) and its limit of 2^31 ranks a layer.
# 2. Depth-first proof-number search from the start on THREADS threads with a TT_MIB table
#    for TIME seconds (`bitsolve solve --solver dfpn`), its result line and peak memory.
# Writes results/ataxx/5x5.md (never edit it by hand: rerun this script).
# Usage: scripts/ataxx-5x5.sh   (env: TIME=600, THREADS=2, TT_MIB=4096, BIN, OUT)
set -euo pipefail
cd "$(dirname "$0")/.."
time_limit=${TIME:-600}
threads=${THREADS:-2}
tt=${TT_MIB:-4096}
out=${OUT:-results/ataxx/5x5.md}
bin=${BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=$(mktemp -d)/bitsolve
  cp "${CARGO_TARGET_DIR:-target}/release/bitsolve" "$bin"
fi
version=$("$bin" --version)
start="x3o/5/5/5/o3x x 0 1"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
timing=$(mktemp)
line=$(/usr/bin/time -f "%M %e %U" -o "$timing" "$bin" solve --game ataxx --position "$start" \
  --solver dfpn --threads "$threads" --tt-mib "$tt" --time-limit "$time_limit" 2>/dev/null | tail -1)
read -r rss wall user < "$timing"
rm -f "$timing"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
mem_gib=$(awk '/MemTotal/{printf "%.1f", $2/1048576}' /proc/meminfo)
{
  echo "# Ataxx 5x5 from the start: how far it got"
  echo
  echo "Written by \`TIME=$time_limit THREADS=$threads TT_MIB=$tt scripts/ataxx-5x5.sh\` with \`$version\`"
  echo "on $(nproc) cores and $mem_gib GiB. Start: \`$start\` (standard rules, the four corner stones)."
  echo
  echo "**Value from the start: ${line%% *}** (df-pn's result below)."
  echo
  echo "## Depth-first proof-number search from the start"
  echo
  echo "| threads | table (MiB) | time limit (s) | wall (s) | CPU (s) | peak RSS (MiB) | load before | load after |"
  echo "|---:|---:|---:|---:|---:|---:|---|---|"
  echo "| $threads | $tt | $time_limit | $wall | $user | $((rss / 1024)) | $load_before | $load_after |"
  echo
  echo "Result line: \`$line\`"
  echo
  echo "## Endgame tables: the layers of the 5x5 index"
  echo
  echo "The indexed retrograde engine (\`bitsolve table\`) solves a layer (positions with k"
  echo "stones, side to move's view) from the next one. Working memory is about 3 bytes per"
  echo "position of the layer being solved plus 2 per position of the next; a layer may have at"
  echo "most 2^31 ranks. A table as df-pn leaves needs every layer from 25 stones down to its"
  echo "lowest one:"
  echo
  python3 - "$mem_gib" <<'PY'
import math, sys
mem = float(sys.argv[1]) * 2**30
print("| stones k | empty squares | positions C(25,k) 2^k | working memory (GiB) | fits here |")
print("|---:|---:|---:|---:|---|")
for k in range(25, 16, -1):
    n = math.comb(25, k) * 2**k
    nxt = math.comb(25, k + 1) * 2**(k + 1) if k < 25 else 0
    need = (3 * n + 2 * nxt) / 2**30
    ok = "yes" if n <= 2**31 and need * 2**30 <= 0.8 * mem else ("no (over 2^31 ranks)" if n > 2**31 else "no (memory)")
    print(f"| {k} | {25 - k} | {n:,} | {need:.1f} | {ok} |")
PY
  echo
  echo "Only the layers with at most one empty square fit (24 and 25 stones), and the search"
  echo "meets those positions only at the very end of a game, where it decides them itself in a"
  echo "ply or two. Tables as leaves therefore cannot shorten this search on this machine, and"
  echo "df-pn with table leaves was not built. Tables that would shorten it start near 17-20"
  echo "stones (5.6x10^10 to 1.4x10^11 positions a layer: 13-35 GiB at 2 bits alone, hundreds"
  echo "of GiB of working memory) or need a proof search orders of magnitude larger than this one."
} > "$out"
cat "$out"
