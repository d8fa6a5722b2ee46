#!/usr/bin/env bash
# Plays Ataxx nets against the hand-made evaluation (`--classic`) and rebuilds the
# changelog of evaluation changes (issue 17).
#
# Each NET (a net file, for example nets/ataxx/net1b.nnue) plays GAMES games (default 200)
# under UAI in the built-in match runner: `self-uai:--eval-file NET` against
# `self-uai:--classic` (the hand-made evaluation), same binary, standard rules, 1 s + 10 ms, the bundled openings with both colours, 2 games at a
# time. Each match writes results/ataxx/nets/<net>-vs-classic.{txt,pgn}. Then
# results/ataxx/changelog.md is rebuilt from every match file there (Elo of the change with its
# 95% error bar, as the match runner printed it), then a table of the SPRT and fixed-match tests
# of nets and engine changes from results/ataxx/sprt/*/match.log (cuteataxx logs), each with its
# verdict from results/ataxx/sprt/verdicts.tsv (test, verdict, deciding test and rule: the record
# of results/ataxx/sprt/README.md's decisions; add a line with each new test).
#
#   scripts/ataxx-nets.sh [-g GAMES] NET...     (about 6 minutes per 200 games on 2 cores)
#   scripts/ataxx-nets.sh                       (only rebuild the changelog)
# Results must come from a committed revision: the script refuses a dirty tree.
set -euo pipefail
cd "$(dirname "$0")/.."
games=200
while getopts g: opt; do
  case $opt in g) games=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ]; then
  if [ -n "$(git status --porcelain --untracked-files=no)" ] && [ -z "${ALLOW_DIRTY:-}" ]; then
    echo "the tree has uncommitted changes: commit first (or ALLOW_DIRTY=1 for a trial run)" >&2
    exit 1
  fi
  cargo build --release --quiet
  bin=$(mktemp)
  cp target/release/bitsolve "$bin"
  chmod +x "$bin"
  trap 'rm -f "$bin"' EXIT
  mkdir -p results/ataxx/nets
  for net in "$@"; do
    name=$(basename "$net" .nnue)
    nice -n 10 "$bin" ataxx match --p1 "self-uai:--eval-file $net" --p2 "self-uai:--classic" \
      --rules standard --games "$games" --tc 1000+10 --concurrency 2 \
      --openings datasets/ataxx/openings.txt --names "$name" classic \
      --pgn "results/ataxx/nets/$name-vs-classic.pgn" --out "results/ataxx/nets/$name-vs-classic.txt"
  done
fi

# The changelog: one row per match file, in the order of the files' names.
{
  echo "# Ataxx evaluation changelog"
  echo
  echo "Written by \`scripts/ataxx-nets.sh\` from the match files in \`results/ataxx/nets/\`: each"
  echo "change (a net, see \`nets/ataxx/README.md\`) played against the hand-made evaluation under"
  echo "UAI in \`bitsolve ataxx match\` (same binary, standard rules, bundled openings with both"
  echo "colours). Elo of the change with its 95% error bar; positive means stronger than the"
  echo "hand-made evaluation."
  echo
  echo "| change | against | revision | time control | games | score (+ = -) | Elo |"
  echo "|---|---|---|---|---:|---|---|"
  for f in results/ataxx/nets/*-vs-*.txt; do
    [ -e "$f" ] || continue
    awk -v file="$f" '
      NR == 1 { rev = $0; sub(/.*\(/, "", rev); sub(/\).*/, "", rev) }
      /^p1: / && !p1 { p1 = substr($0, 5) }
      /^p2: / && !p2 { p2 = substr($0, 5) }
      /^rules: / { tc = $0; sub(/.*time control: /, "", tc); sub(/;.*/, "", tc)
                   g = $0; sub(/.*games: /, "", g); sub(/;.*/, "", g) }
      /^score of p1/ { s = $0; sub(/.*: /, "", s); elo = s; sub(/ \(.*/, "", s)
                       sub(/.*Elo /, "", elo); sub(/ \(95%\)/, "", elo) }
      END { printf "| %s | %s | %s | %s | %s | %s | %s |\n", p1, p2, rev, tc, g, s, elo }
    ' "$f"
  done
  echo
  echo "Engine changes and nets against their predecessors by SPRT or fixed match under cuteataxx"
  echo "(\`results/ataxx/sprt/\`, its README has the commands, builds and conditions), from the last"
  echo "summary lines of each \`match.log\`; the verdict (adopted or not, and which test and rule"
  echo "decided) from \`results/ataxx/sprt/verdicts.tsv\`, the record of the README's decisions:"
  echo
  echo "| test | games | score (+ - =) | Elo | LLR | verdict | by |"
  echo "|---|---:|---|---|---|---|---|"
  verdicts=results/ataxx/sprt/verdicts.tsv
  for f in results/ataxx/sprt/*/match.log; do
    [ -e "$f" ] || continue
    test=$(basename "$(dirname "$f")")
    verdict=$(awk -F '\t' -v t="$test" 'NR > 1 && $1 == t { print $2 " | " $3 }' "$verdicts" 2>/dev/null)
    awk -v test="$test" -v verdict="${verdict:-(no verdict recorded) | }" '
      /^Score of / { s = $0; sub(/.*: /, "", s); sub(/ +\[.*/, "", s); n = $NF }
      /^Elo difference: / { e = $0; sub(/^Elo difference: /, "", e); sub(/,.*/, "", e) }
      /^SPRT: / { l = $0; sub(/^SPRT: llr /, "", l); sub(/,.*/, "", l) }
      END { gsub(/ - /, " ", s); split(s, x, " ")
            printf "| %s | %s | +%s -%s =%s | %s | %s | %s |\n", test, n, x[1], x[2], x[3], e, l, verdict }
    ' "$f"
  done
} >results/ataxx/changelog.md
echo "wrote results/ataxx/changelog.md" >&2
