#!/usr/bin/env bash
# Times two builds of `bitsolve solve --solver retro` on the same positions, alternately, with
# peak memory (issue 48: the breadth-first solver moved onto the layered engine).
#
#   OLD=/path/to/old/bitsolve NEW=target/release/bitsolve ROUNDS=2 scripts/retro-old-new.sh
#
# Prints one TSV row per run: input, build, threads, result, positions, seconds, peak KiB.
# NEW runs once per entry of NEW_THREADS (the engine is rayon-parallel; RAYON_NUM_THREADS sets
# the global pool); OLD is single-threaded.
set -euo pipefail
OLD=${OLD:?path of the old bitsolve binary}
NEW=${NEW:-target/release/bitsolve}
ROUNDS=${ROUNDS:-1}
NEW_THREADS=${NEW_THREADS:-"1 2"}

# name, game, position
inputs=(
  "gipf S4-K4-W5-B5|gipf|4 4 5 5/2 2 W/W__B/_____/______/B_____W/______/_____/W__B"
  "gipf S3-K5-W6-B5|gipf|3 5 6 5/3 2 W/W_B/____/B___W/____/W_B"
  "gipf S4-K4-W6-B5|gipf|4 4 6 5/3 2 W/W__B/_____/______/B_____W/______/_____/W__B"
  "ataxx 3x4|ataxx|x2o/4/o2x x 0 1"
  "ataxx 3x5|ataxx|x3o/5/o3x x 0 1"
)
if [[ -n ${ONLY:-} ]]; then
  mapfile -t inputs < <(printf '%s\n' "${inputs[@]}" | grep -- "$ONLY")
fi

run() { # label threads binary game position
  local out
  out=$(RAYON_NUM_THREADS=$2 /usr/bin/time -f 'TIME %M %e' "$3" solve --game "$4" \
    --solver retro --position "$5" 2>&1 || true)
  local kib secs result nodes
  read -r kib secs < <(grep '^TIME' <<<"$out" | awk '{print $2, $3}')
  result=$(grep -E '^(win|loss|draw|unknown)' <<<"$out" | head -1 | awk '{print $1, $2}' || true)
  nodes=$(grep -oE 'nodes=[0-9]+' <<<"$out" | head -1 | cut -d= -f2 || true)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$1" "$2" "$result" "$nodes" "$secs" "$kib"
}

printf 'input\tbuild\tthreads\tresult\tpositions\ts\tpeak_KiB\n'
for ((r = 0; r < ROUNDS; r++)); do
  for entry in "${inputs[@]}"; do
    IFS='|' read -r name game position <<<"$entry"
    run old 1 "$OLD" "$game" "$position"
    for t in $NEW_THREADS; do
      run new "$t" "$NEW" "$game" "$position"
    done
  done
done
