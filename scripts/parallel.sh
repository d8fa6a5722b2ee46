#!/usr/bin/env bash
# The scaling study of the parallel solvers (issue 15): writes results/parallel.md with
# `bitsolve parallel-study` on a fixed suite: node counts summed over threads with 1, 2, 4, 8
# and 16 threads, the search overhead (nodes with N threads / nodes with 1) per thread count,
# and with TIMED=K (default 3) the wall-clock speedup at 2 threads, best of K runs per position.
#
# Usage: scripts/parallel.sh            (full study; a quiet 2-core machine for the timings)
#        TIMED=0 scripts/parallel.sh    (node counts only: valid on a busy machine)
#        THREADS=1,2,4 scripts/parallel.sh
#        OUT=results/parallel-timed.md THREADS=1,2 scripts/parallel.sh   (timings only)
#        JOIN=0 scripts/parallel.sh     (every helper starts at once; default: the solvers' own)
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
out=${OUT:-results/parallel.md}
join=${JOIN:-}
tmp_out=$suite/parallel.md

# Ataxx: the 3x5 start, and random mid-game positions of 3x5 and 4x4 (12 and 16 random plies).
{ grep '^id' datasets/ataxx/small-boards.tsv; grep -E '^3x5' datasets/ataxx/small-boards.tsv; } \
  >"$suite/ataxx-3x5.tsv"
{ grep '^id' datasets/ataxx/small-boards.tsv; grep -E '^(3x5|4x4)\b' datasets/ataxx/small-boards.tsv; } \
  >"$suite/ataxx-starts.tsv"
"$bin" dataset --game ataxx --from "$suite/ataxx-starts.tsv" --seed 15 -n 4 --depth 12,16 \
  >"$suite/ataxx-mid.tsv"
# GIPF side 3: the start positions of the side-3 variants of datasets/gipf/small-variants.tsv
# that alpha-beta solves in 1e5 to 1e6 nodes (K = 4 and 5, reserves 7 and 8; the bundled random
# side-3 positions are either decided in a few nodes or out of reach). df-pn runs on the two
# K = 5 ones only: on the K = 4 ones it is out of reach (over 3M nodes in 20 s).
gipf_ids='^(id|S3-K4-W7-B7|S3-K4-W7-B8|S3-K4-W8-B7|S3-K5-W7-B7|S3-K5-W7-B8)\b'
grep -E "$gipf_ids" datasets/gipf/small-variants.tsv >"$suite/gipf-s3.tsv"
grep -E '^(id|S3-K5-W7-B7|S3-K5-W7-B8)\b' datasets/gipf/small-variants.tsv >"$suite/gipf-s3-k5.tsv"
# Geography: positions of 170-180 edges in the token's component from the random games of
# `examples/geography_reach.rs positions` (seeds 1..12, one a game), keeping the first 3 that
# df-pn does not decide in under 1000 nodes (the reductions decide many at once).
cargo build --release --quiet --example geography_reach
./target/release/examples/geography_reach positions 12 170 180 >"$suite/geo-all.tsv"
"$bin" solve --game geography --solver dfpn --jobs 1 --out "$suite/geo-probe.csv" \
  "$suite/geo-all.tsv" >/dev/null 2>&1
keep=$(awk -F, 'NR > 1 && $13 + 0 >= 1000 { print $3 }' "$suite/geo-probe.csv" | head -3 | paste -sd'|')
grep -E "^(id|${keep:-none})\b" "$suite/geo-all.tsv" >"$suite/geography.tsv"
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
  echo "Helper threads join one by one as the search grows (the first at once, helper k >= 2"
  echo "once the threads have counted J x 2^(k-1) nodes; J is in each section's text, 0 = all"
  echo "at once), so a small search stays on few threads."
  echo
} >"$tmp_out"

run() {
  local game=$1 title=$2 file=$3 solvers=$4 source=$5
  echo "== $title" >&2
  nice -n 5 "$bin" parallel-study --game "$game" --solver "$solvers" --threads "$threads" \
    --tt-mib "$tt" ${join:+--join-nodes "$join"} --timed "$timed" --time-limit "$limit" --title "$title" --out "$tmp_out" \
    --source "$source" "$file" >/dev/null
}
run ataxx "Ataxx 3x5 from the start" "$suite/ataxx-3x5.tsv" alphabeta,alphabeta-lazy,dfpn \
  "the 3x5 row of datasets/ataxx/small-boards.tsv"
run ataxx "Ataxx 3x5 and 4x4 mid-game (random)" "$suite/ataxx-mid.tsv" alphabeta,dfpn \
  "bitsolve dataset --from (3x5 and 4x4 starts) --seed 15 -n 4 --depth 12,16"
run gipf "GIPF side 3, variants' starts" "$suite/gipf-s3.tsv" alphabeta \
  "$(grep -v '^id' "$suite/gipf-s3.tsv" | cut -f1 | paste -sd' ') of datasets/gipf/small-variants.tsv"
run gipf "GIPF side 3, K = 5 starts (df-pn)" "$suite/gipf-s3-k5.tsv" dfpn \
  "S3-K5-W7-B7 S3-K5-W7-B8 of datasets/gipf/small-variants.tsv"
run geography "Geography, 170-180 component edges" "$suite/geography.tsv" dfpn \
  "$(grep -v '^id' "$suite/geography.tsv" | cut -f1 | paste -sd' ') (examples/geography_reach.rs positions 12 170 180: seed, plies, edges)"
run gauss "Gauss, 8 placements left (outcome)" "$suite/gauss-8.tsv" alphabeta,dfpn \
  "bitsolve gauss gen --remaining 8 --count 4 --seed 15"
# The exact final scores of the same positions (threads test different thresholds side by
# side); not in the summary's means.
run gauss "Gauss, 8 placements left (exact score)" "$suite/gauss-8.tsv" alphabeta-score \
  "bitsolve gauss gen --remaining 8 --count 4 --seed 15"
# The summary: per section and solver, the overhead at 8 threads and the 2-thread speedup; the
# suite's means (unweighted over the section x solver rows; plain Lazy SMP, shown on 3x5 for
# comparison, is left out of the means).
awk -F'|' '
  /^### / { section = substr($0, 5); next }
  $2 ~ /^ *(alphabeta|alphabeta-lazy|dfpn) *$/ && $3 + 0 == 8 { ov[section "|" $2] = $6 + 0; order[section "|" $2] = 1 }
  $2 ~ /^ *(alphabeta|alphabeta-lazy|dfpn) *$/ && $3 + 0 == 2 && NF >= 10 && $9 !~ /-/ { sp[section "|" $2] = $9 + 0; order[section "|" $2] = 1 }
  END {
    print "0a\t## Summary"
    print "0b\t"
    print "0c\t| part | solver | overhead at 8 threads | speedup at 2 threads |"
    print "0d\t|---|---|---:|---:|"
    for (k in order) {
      split(k, p, "|")
      o = (k in ov) ? sprintf("%.2f", ov[k]) : "-"
      s = (k in sp) ? sprintf("%.2fx", sp[k]) : "-"
      print "1\t| " p[1] " |" p[2] "| " o " | " s " |"
      if (p[2] ~ /lazy/) continue  # the comparison variant, not a solver of the suite
      if (k in ov) { so += ov[k]; no++ }
      if (k in sp) { ss += sp[k]; ns++ }
    }
    printf "2\t| **suite mean** | | %s | %s |\n", no ? sprintf("%.2f", so / no) : "-", ns ? sprintf("%.2fx", ss / ns) : "-"
  }' "$tmp_out" | sort | cut -f2- >"$suite/summary.md"
cat "$suite/summary.md" >>"$tmp_out"
mv "$tmp_out" "$out"
echo "wrote $out" >&2
