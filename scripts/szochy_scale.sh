#!/usr/bin/env bash
# Szochy at scale: runs `bitsolve szochy` on growing instances and writes
# results/szochy/scale.md from the tool's JSON output (wall and CPU time, peak memory from
# /usr/bin/time) and the phase times the tool prints on stderr (positions/s per phase).
# Usage: nice -n 10 scripts/szochy_scale.sh [THREADS] [TIMEOUT_S] [INSTANCE...] (default: all below)
# The machine is shared: each instance gets TIMEOUT_S seconds (default 900) and 20 GB.
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${1:-2}
timeout_s=${2:-900}
bin=target/release/bitsolve
[ -x "$bin" ] || cargo build --release
out=results/szochy/scale.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/phases"
instances=(
  "8 8||k1,1 q4,4 r8,8"
  "8 8||n1,1 n2,1 n3,1 n4,1"
  "8 8|4,4 5,5|k1,1 q4,5 r8,8 b3,3"
  "8 8||n1,1 n2,1 n3,1 n4,1 n5,1"
  "8 8||k1,1 q4,4 r8,8 b3,3"
  "8 8||k1,1 q4,4 r8,8 n3,3"
  "8 9|3,3 6,3 3,7 6,7|k1,1 n2,1 n3,1 n4,1 n5,1"
)
if [ $# -gt 2 ]; then
  instances=("${@:3}")
fi
{
  echo "# Szochy at scale"
  echo
  echo "Written by \`scripts/szochy_scale.sh $threads $timeout_s${3:+ (selected instances)}\` on $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores (shared;"
  echo "load average $(cut -d' ' -f1-3 /proc/loadavg)), bitsolve $(git rev-parse --short HEAD), \`--threads $threads\`."
  echo "Wall times depend on the machine's load; CPU time is user+system seconds over all threads."
  echo "Phase times (wall, positions/s = positions / phase time) follow the table."
  echo
  echo "| instance | first player wins | positions | moves | matching | enumerate (s) | matching (s) | wall (s) | CPU (s) | positions/s (enumeration) | peak RSS (GiB) |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$out"
for inst in "${instances[@]}"; do
  echo "== $inst" >&2
  if ( ulimit -v $((20 * 1024 * 1024)); timeout "$timeout_s" /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" \
        "$bin" szochy --threads "$threads" --position "$inst" --max-positions 100000000 > "$tmp/json" 2> "$tmp/err" ); then
    python3 - "$inst" "$tmp/json" "$tmp/time" >> "$out" <<'PY'
import json, sys
inst, jpath, tpath = sys.argv[1:]
r = json.loads(open(jpath).read())
wall, user, sys_, rss = open(tpath).read().split()[-4:]
e, m = r["enumerate_ms"] / 1e3, r["matching_ms"] / 1e3
print(f"| `{inst}` | {str(r['first_player_wins']).lower()} | {r['positions']:,} | {r['moves']:,} | {r['matching']:,} | "
      f"{e:.2f} | {m:.2f} | {float(wall):.2f} | {float(user) + float(sys_):.2f} | {r['positions'] / e:,.0f} | {int(rss) / 2**20:.2f} |")
PY
    python3 - "$inst" "$tmp/json" "$tmp/err" >> "$tmp/phases" <<'PY'
import json, sys
inst, jpath, epath = sys.argv[1:]
n = json.loads(open(jpath).read())["positions"]
for line in open(epath):
    if line.startswith("szochy: phases: "):
        for part in line[len("szochy: phases: "):].strip().split("; "):
            name, secs, _ = part.rsplit(" ", 2)
            s = float(secs)
            rate = f"{n / s:,.0f}" if s > 0 else "-"
            print(f"| `{inst}` | {name} | {s:.3f} | {rate} |")
PY
  else
    echo "| \`$inst\` | not solved within ${timeout_s} s / 20 GB | | | | | | | | | |" >> "$out"
  fi
  tail -1 "$out" >&2
done
{
  echo
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "| instance | phase | wall (s) | positions/s |"
  echo "|---|---|---:|---:|"
  cat "$tmp/phases"
} >> "$out"
