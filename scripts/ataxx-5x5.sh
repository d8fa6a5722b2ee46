#!/usr/bin/env bash
# Ataxx 5x5 from the four-corner start (issue 19's moonshot): how far this machine gets.
#
# 1. Depth-first proof-number search from the start on THREADS threads with a TT_MIB table
#    for TIME seconds (`bitsolve solve --solver dfpn`), its result line and peak memory.
# 2. What a strong solution by the one retrograde driver would need (memory per layer, disk,
#    hours on 2 cores and on a cluster through Slurm), from the layered index of 5x5 (layer k =
#    the positions with k stones, C(25, k) 2^k ranks) and the driver's measured cost per
#    indexed position: the run RATES_BOARD (default "3x7 standard") of
#    results/ataxx/solved-boards.log (written by scripts/ataxx-solved-boards.sh).
# Writes results/ataxx/5x5.md (never edit it by hand: rerun this script).
# Usage: scripts/ataxx-5x5.sh   (env: TIME=600, THREADS=2, TT_MIB=4096, RATES_BOARD, BIN, OUT)
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
rates_board=${RATES_BOARD:-3x7 standard}
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
  echo "## A strong solution of 5x5 by the one retrograde driver: what a run would need"
  echo
  python3 - "$mem_gib" "$rates_board" results/ataxx/solved-boards.log <<'PY'
import math, re, sys
mem_gib, board, log = float(sys.argv[1]), sys.argv[2], sys.argv[3]
lines = open(log).read().splitlines()
# The measured run: the last "BOARD RULES: wall ..." line of the log and the driver's lines before it.
at = max(i for i, l in enumerate(lines) if l.startswith(board + ":"))
run = lines[at]
solve = next(l for l in reversed(lines[:at]) if l.startswith("table: reach"))
index = next(l for l in reversed(lines[:at]) if "positions indexed" in l or "positions in" in l)
reach_s, solve_s = map(float, re.search(r"reach ([\d.]+) s, solve ([\d.]+) s", solve).groups())
rate = float(re.search(r"\((\d+) positions/s", solve).group(1))
indexed = int(re.search(r"(\d+) positions", index).group(1))
cpu = float(re.search(r"user ([\d.]+)s", run).group(1))
rss = int(re.search(r"max RSS (\d+) KiB", run).group(1))
version = re.search(r"bitsolve [^)]*\)", run).group(0)
per_pos = cpu / indexed
n = 25
sizes = [math.comb(n, k) * 2**k for k in range(n + 1)]
total = sum(sizes)
assert total == 3**n
gib = 2**30
reach = total / 4
big = 2**31
def work(k):
    # cells (2 B) + counters (1 B) + bucket entries (4 B; 8 B once ranks pass 2^31)
    return sizes[k] * (2 + 1 + (4 if sizes[k] <= big else 8))
print(f"Measured: the driver's {board} run in `results/ataxx/solved-boards.log` ({version}, "
      f"{indexed:,} indexed positions): reach {reach_s:.0f} s, solve {solve_s:.0f} s "
      f"({rate / 1e6:.1f}M positions/s on 2 threads), {cpu:.0f} s of CPU, "
      f"{rss / 2**20:.1f} GiB peak RSS, so **{per_pos * 1e9:.0f} ns of CPU per indexed position**.")
print()
print(f"5x5 has 3^25 = {total:,} indexed positions in 26 layers (layer k: the positions with k "
      "stones, C(25, k) 2^k ranks, the side to move's view). A clone moves into layer k + 1, a "
      "jump stays in k, so solving layer k reads the cells of k + 1 (2 bytes a position, "
      "memory-mapped from their file) and holds its own cells, counters and bucket entries "
      "(2 + 1 + 4 bytes a position; 8-byte entries once a layer passes the engine's 2^31 ranks, "
      f"which it refuses today: `solve::MAX_LAYER`). The reachable sets of all layers stay in "
      f"memory at 2 bits a position ({reach / gib:,.0f} GiB).")
print()
print(f"| stones k | positions | solving it (GiB) | with the reachable sets (GiB) | over 2^31 ranks | fits here ({mem_gib} GiB) |")
print("|---:|---:|---:|---:|---|---|")
for k in range(n, -1, -1):
    w = work(k) / gib
    t = (work(k) + reach) / gib
    print(f"| {k} | {sizes[k]:,} | {w:,.1f} | {t:,.1f} | {'yes' if sizes[k] > big else 'no'} | "
          f"{'yes' if t <= 0.8 * mem_gib else 'no'} |")
peak = max(range(n + 1), key=work)
cpu_h = per_pos * total / 3600
disk_vals = total / 4 / gib
disk_cells = max(2 * (sizes[k] + (sizes[k + 1] if k < n else 0)) for k in range(n + 1)) / gib
print()
print("What a run would need, at the measured cost per position (a lower bound: a 5x5 position "
      "has more moves than a 3x7 one, up to 24 jumps and 8 clones a stone):")
print()
print(f"- **Memory:** the largest layer (k = {peak}, {sizes[peak]:,} positions) needs "
      f"{work(peak) / gib:,.0f} GiB to solve plus {reach / gib:,.0f} GiB of reachable sets, "
      f"{(work(peak) + reach) / gib:,.0f} GiB in one process; {sum(1 for s in sizes if s > big)} "
      "of the 26 layers pass 2^31 ranks.")
print(f"- **Disk:** the table file {disk_vals:,.0f} GiB (2 bits a position); during the run "
      f"the 2-bit values of the layers solved plus the 16-bit cells of two adjacent layers, "
      f"at most {disk_vals + disk_cells:,.0f} GiB.")
print(f"- **Time on this machine's 2 cores:** {cpu_h:,.0f} CPU hours, {cpu_h / 2:,.0f} hours "
      "(about {:.1f} days) if the memory were there; it is not (the largest layer's process needs "
      "{:.0f} times this machine's RAM).".format(cpu_h / 48, (work(peak) + reach) / gib / mem_gib))
need = (work(peak) + reach) / gib * 1.1
share = reach_s / (reach_s + solve_s)
print(f"- **On a cluster through Slurm** (`scripts/slurm-table.sh`: `table reach` in one "
      "task, then per layer from the last down `table layer --shard S/N` in N tasks and "
      "`table merge` in one, then `table assemble`): the reach pass (a share of "
      f"{share:.0%} of the measured run's wall) and each layer's propagation (in the task "
      "that merges the layer) run in one process; only the scans split over tasks. On one "
      f"node of 32 cores with about {need:,.0f} GiB the whole is at least {cpu_h / 32:.1f} "
      "hours; 16 nodes of 32 cores cut the scans to a sixteenth but every merging task "
      f"still needs a node of about {need:,.0f} GiB and the reach pass its "
      f"{reach / gib:,.0f} GiB of sets. The split of the layer loop between scan and "
      "propagation was not measured on a board this size.")
print()
print("Tables as leaves of the df-pn search above would need every layer from 25 stones down; "
      "only those with at most one empty square (24 and 25 stones) fit here, and the search "
      "meets them only in a game's last plies, where it decides them itself. So df-pn with "
      "table leaves was not built.")
PY
} > "$out"
cat "$out"
