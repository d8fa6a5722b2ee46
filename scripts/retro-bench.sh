#!/usr/bin/env bash
# The indexed retrograde engine's bench (benches/retro.rs: whole Ataxx boards 3x4 and 3x5, every
# position of the index, on 1 and 2 threads) as a table: criterion's mean time per solve,
# positions per second (3^n / time) and the 1-to-2-thread speedup, side by side in one run.
# Writes results/retro-bench.md (never edit it by hand). Run it on a quiet machine.
# Usage: scripts/retro-bench.sh   (env: OUT)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-results/retro-bench.md}
rev=$(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- src benches Cargo.toml || echo -dirty)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
log=$(mktemp)
cargo bench -p bitsolve-benches --bench retro -- --noplot 2>/dev/null | tee "$log" >&2
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
# Criterion prints "retro-index/3x4/threads=1" then "time:   [low mean high]" with units.
python3 - "$log" "$rev" "$load_before" "$load_after" > "$out" <<'PY'
import re, sys
log, rev, before, after = sys.argv[1:]
text = open(log).read()
unit = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
rows = {}
for m in re.finditer(r"retro-index/(\dx\d)/threads=(\d)\s+time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", text):
    board, threads, mean, u = m.group(1), int(m.group(2)), float(m.group(3)), m.group(4)
    rows[(board, threads)] = mean * unit[u]
print("# Indexed retrograde engine: positions per second and the 1-to-2-thread speedup\n")
print(f"Written by `scripts/retro-bench.sh` (`cargo bench -p bitsolve-benches --bench retro`, criterion, 10 samples) at")
print(f"revision {rev}, 2 cores. Load average (1, 5, 15 min) before: {before}; after: {after}.")
print("Each solve is a whole board from the full layer down, every position of the index (3^n).\n")
print("| board | positions (3^n) | 1 thread (s) | 2 threads (s) | positions/s, 1 thread | positions/s, 2 threads | speedup |")
print("|---|---:|---:|---:|---:|---:|---:|")
for board in sorted({b for b, _ in rows}):
    h, w = map(int, board.split("x"))
    n = 3 ** (h * w)
    t1, t2 = rows.get((board, 1)), rows.get((board, 2))
    if t1 is None or t2 is None:
        continue
    print(f"| {board} | {n:,} | {t1:.3f} | {t2:.3f} | {n / t1:,.0f} | {n / t2:,.0f} | {t1 / t2:.2f} |")
PY
rm -f "$log"
cat "$out"
