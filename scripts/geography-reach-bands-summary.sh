#!/bin/sh
# Summarises a (possibly partial) solve-by-solve log of geography_reach bands mode, such as
# results/geography/reach-bands-cpu.log while or after scripts/geography-reach-bands.sh runs
# (the log is the run's checkpoint: one line per finished solve), into a band table:
# positions finished, solved within 1 s, 10 s and $3 s (the log's time_s column: CPU seconds
# for a cpu-clock run), most nodes of a solved one. Usage: $0 LOG WIDTH LIMIT REVISION > table.md
# (REVISION: the commit whose clean build wrote the log).
set -eu
log=$1
width=${2:-10}
limit=${3:-60}
revision=${4:-unknown}
echo "# Geography reach by band, summarised from \`$(basename "$log")\`"
echo
echo "Written by \`scripts/geography-reach-bands-summary.sh $log $width $limit $revision\` at"
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) from the log of a clean build of $revision ($(grep -c '^seed ' "$log") solves"
echo "finished; $(head -1 "$log")). Load average now: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| component edges | positions finished | solved <= 1 s | solved <= 10 s | solved <= $limit s | most nodes solved | nodes of the unsolved |"
echo "|---|---|---|---|---|---|---|"
grep '^seed ' "$log" | awk -v w="$width" -v lim="$limit" '
{
    edges = $6; result = $7; t = $9; nodes = $11
    b = int(edges / w) * w
    n[b]++
    if (result != "unknown") {
        if (t <= 1) s1[b]++
        if (t <= 10) s10[b]++
        if (t <= lim) sl[b]++
        if (nodes + 0 > most[b] + 0) most[b] = nodes
    } else {
        un[b] = un[b] (un[b] == "" ? "" : ", ") nodes
    }
}
END {
    for (b in n) {
        printf "| %d-%d | %d | %d | %d | %d | %s | %s |\n", b, b + w - 1, n[b], s1[b] + 0, s10[b] + 0, sl[b] + 0, (most[b] == "" ? "-" : most[b]), (un[b] == "" ? "-" : un[b])
    }
}' | sort -t'|' -k2 -n
