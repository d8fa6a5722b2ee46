#!/usr/bin/env bash
# The scaling study of the parallel solvers (issue 15): writes results/parallel.md with
# `bitsolve parallel-study` on a fixed suite: node counts summed over threads with 1, 2, 4, 8
# and 16 threads, the search overhead (nodes with N threads / nodes with 1) per thread count,
# and with TIMED=K (default 3) the wall-clock speedup at 2 threads, best of K runs per position.
#
# Usage: scripts/parallel.sh            (full study; a quiet 2-core machine for the timings)
#        TIMED=0 scripts/parallel.sh    (node counts only: valid on a busy machine)
#        THREADS=1,2,4 scripts/parallel.sh
# The suite is generated here from bundled datasets with fixed seeds, so it is the same on
# every run. Refuses to run from a dirty tree (results must come from a committed revision).
set -euo pipefail
cd "$(dirname "$0")/.."
timed=${TIMED:-3}
threads=${THREADS:-1,2,4,8,16}
tt=${TT_MIB:-256}
limit=${TIME_LIMIT:-20}
if [ -n "$(git status --porcelain --untracked-files=no)" ] && [ -z "${ALLOW_DIRTY:-}" ]; then
  echo "the tree has uncommitted changes: commit first (or ALLOW_DIRTY=1 for a trial run)" >&2
  exit 1
fi
cargo build --release --quiet
bin=./target/release/bitsolve
suite=$(mktemp -d)
trap 'rm -rf "$suite"' EXIT
out=results/parallel.md
tmp_out=$suite/parallel.md

# Ataxx: the 3x5 start, and random mid-game positions of 3x5 and 4x4 (12 and 16 random plies).
{ grep '^id' datasets/ataxx/small-boards.tsv; grep -E '^3x5' datasets/ataxx/small-boards.tsv; } \
  >"$suite/ataxx-3x5.tsv"
{ grep '^id' datasets/ataxx/small-boards.tsv; grep -E '^(3x5|4x4)\b' datasets/ataxx/small-boards.tsv; } \
  >"$suite/ataxx-starts.tsv"
"$bin" dataset --game ataxx --from "$suite/ataxx-starts.tsv" --seed 15 -n 4 --depth 12,16 \
  >"$suite/ataxx-mid.tsv"
# GIPF side 3: the bundled random positions of side 3 that df-pn solved within 1 s.
awk -F'\t' 'NR == 1 || /^id\t/ || ($2 ~ /^3 / && $3 != "-")' datasets/gipf/random-small.tsv \
  | grep -v '^#' >"$suite/gipf-s3.tsv"
# Gauss with 8 placements left.
"$bin" gauss gen --remaining 8 --count 4 --seed 15 >"$suite/gauss-8.tsv"

{
  echo "# Parallel search: scaling study"
  echo
  echo "Written by \`scripts/parallel.sh\` (\`bitsolve parallel-study\`) with $("$bin" --version),"
  echo "on $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ). Table $tt MiB, time limit $limit s a position."
  echo
  echo "*overhead* = nodes of all threads with N threads / nodes with 1 thread over the positions"
  echo "solved at 1 thread (the search overhead; < 1 means the threads together did less work than"
  echo "one). *worst position* = the largest such ratio of a single position. Node counts are"
  echo "summed until the first thread has the exact value, so they do not depend on the load of"
  echo "the machine but vary a little from run to run (thread interleaving). With N threads on"
  echo "fewer cores the threads are time-sliced: the overhead is the one of N cores only as far"
  echo "as the interleaving is alike. Timings (1 and 2 threads, best of $timed a position) are"
  echo "meaningful only on a quiet machine; speedup = time(1) / time(2) summed over positions."
  echo "\`alphabeta\` = ABDADA deferral on top of Lazy SMP; \`alphabeta-lazy\` = plain Lazy SMP."
  echo
} >"$tmp_out"

run() {
  local game=$1 title=$2 file=$3 solvers=$4
  echo "== $title" >&2
  nice -n 5 "$bin" parallel-study --game "$game" --solver "$solvers" --threads "$threads" \
    --tt-mib "$tt" --timed "$timed" --time-limit "$limit" --title "$title" --out "$tmp_out" \
    "$file" >/dev/null
}
run ataxx "Ataxx 3x5 from the start" "$suite/ataxx-3x5.tsv" alphabeta,alphabeta-lazy,dfpn
run ataxx "Ataxx 3x5 and 4x4 mid-game (random)" "$suite/ataxx-mid.tsv" alphabeta,dfpn
run gipf "GIPF side 3 (random)" "$suite/gipf-s3.tsv" alphabeta,dfpn
run gauss "Gauss, 8 placements left (outcome)" "$suite/gauss-8.tsv" alphabeta,dfpn
mv "$tmp_out" "$out"
echo "wrote $out" >&2
