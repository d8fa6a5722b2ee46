#!/usr/bin/env bash
# Issue 48's speed check: the same strong solves by two builds, side by side, alternately, on
# 1 and 2 threads: Ataxx boards by `table build` and a GIPF cell by `solve --solver retro2`
# (the engine before and after the one driver). Positions per second are the positions the
# build scanned (Ataxx: every rank of the board's index below the start's layer is skipped, so
# the count is the index's; GIPF: the reachable positions) over the wall time of the whole run
# (reach, layers, file). Writes results/retro-driver-bench.md (never edit it by hand); run it on
# a quiet machine (self-play paused).
#
#   OLD=/path/to/old/bitsolve NEW=target/release/bitsolve scripts/retro-driver-bench.sh
#
# Env: BOARDS (default "3x5 4x5"), GIPF (a one-line GIPF root, default S=3 K=3 5+5; empty: none),
# GIPF_FLAGS (default --symmetry), ROUNDS (default 1), THREADS (default "1 2"), OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=${OLD:?path of the old bitsolve binary}
NEW=${NEW:-target/release/bitsolve}
BOARDS=${BOARDS:-"3x5 4x5"}
GIPF=${GIPF-"3 3 5 5/2 2 W/W_B/____/B___W/____/W_B"}
GIPF_FLAGS=${GIPF_FLAGS:---symmetry}
ROUNDS=${ROUNDS:-1}
THREADS=${THREADS:-"1 2"}
out=${OUT:-results/retro-driver-bench.md}
tmp=$(mktemp -d)
rows=$tmp/rows.tsv
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# time_run LABEL BUILD THREADS POSITIONS CMD...: one row, wall seconds and peak KiB.
time_run() {
  local label=$1 build=$2 threads=$3 positions=$4
  shift 4
  /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" > "$tmp/out" 2> "$tmp/err" || {
    echo "failed: $*" >&2; cat "$tmp/err" >&2; exit 1; }
  read -r secs kib < <(tail -n 1 "$tmp/time")
  local result
  result=$(grep -Eo '(win|loss|draw)[^ ,]*' "$tmp/out" | head -n 1 || true)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$build" "$threads" "$positions" "$secs" "$kib" "$result" >> "$rows"
  echo "$label $build t$threads: $secs s, $kib KiB, $result" >&2
}

for ((round = 1; round <= ROUNDS; round++)); do
  for board in $BOARDS; do
    r=${board%x*}; c=${board#*x}
    positions=$(python3 -c "print(3 ** ($r * $c))")
    for t in $THREADS; do
      for build in old new; do
        bin=$OLD; [ "$build" = new ] && bin=$NEW
        time_run "ataxx $board" "$build" "$t" "$positions" \
          "$bin" table build --game ataxx --board "$board" --out "$tmp/t.tbl" --threads "$t" --quiet --csv
        rm -rf "$tmp/t.tbl" "$tmp/t.tbl.parts"
      done
    done
  done
  if [ -n "$GIPF" ]; then
    for t in $THREADS; do
      for build in old new; do
        bin=$OLD; [ "$build" = new ] && bin=$NEW
        # shellcheck disable=SC2086
        time_run "gipf $GIPF_FLAGS" "$build" "$t" "reached" \
          "$bin" solve --game gipf --solver retro2 $GIPF_FLAGS --threads "$t" --tt-mib 16000 \
          --position "$GIPF"
        grep -Eo 'nodes=[0-9]+' "$tmp/out" | head -n 1 | cut -d= -f2 > "$tmp/nodes" || true
        n=$(cat "$tmp/nodes")
        sed -i "\$s/\treached\t/\t${n:-0}\t/" "$rows"
      done
    done
  fi
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$rows" "$($OLD --version)" "$($NEW --version)" "$load_before" "$load_after" "$GIPF" > "$out" <<'PY'
import sys, collections
rows_path, old, new, before, after, gipf = sys.argv[1:]
runs = collections.defaultdict(list)
for line in open(rows_path):
    label, build, threads, positions, secs, kib, result = line.rstrip("\n").split("\t")
    runs[(label, int(threads))].append((build, int(positions), float(secs), int(kib), result))
print("# The one retrograde driver against the engines before it: same solves, side by side\n")
print("Written by `scripts/retro-driver-bench.sh` (issue 48), 2 cores, each run alternating old and new.")
print(f"Old: `{old}`; new: `{new}`. Load average before: {before}; after: {after}.")
print("Ataxx: `table build --board B` (positions: the board's index, 3^n); GIPF: `solve --solver")
print(f"retro2` on `{gipf}` (positions: the classes reached). Positions per second over the")
print("wall time of the whole run (reach, layers and the table file).\n")
print("| solve | threads | positions | old s | new s | old positions/s | new positions/s | new/old speed | old KiB | new KiB | answers |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for (label, threads), rs in sorted(runs.items()):
    old_runs = [r for r in rs if r[0] == "old"]
    new_runs = [r for r in rs if r[0] == "new"]
    if not old_runs or not new_runs:
        continue
    n = max(r[1] for r in rs)
    to = sum(r[2] for r in old_runs) / len(old_runs)
    tn = sum(r[2] for r in new_runs) / len(new_runs)
    ko = max(r[3] for r in old_runs)
    kn = max(r[3] for r in new_runs)
    same = "same" if len({r[4] for r in rs}) == 1 else "DIFFER: " + ", ".join(sorted({r[4] for r in rs}))
    print(f"| {label} | {threads} | {n:,} | {to:.2f} | {tn:.2f} | {n / to:,.0f} | {n / tn:,.0f} | {to / tn:.2f} | {ko:,} | {kn:,} | {same} |")
PY
rm -rf "$tmp"
cat "$out"
