#!/usr/bin/env bash
# Connect Four side by side with Pascal Pons' solver (github.com/PascalPons/connect4, AGPL):
# his source is built in a scratch folder outside the repository (nothing of it is copied in),
# with a small driver of ours that calls his Solver (reset, then solve, timed) and prints
# `moves score nodes time_us` for each line on stdin, as his blog's benchmark did.
#
#   scripts/connect4-pons.sh          run both on datasets/connect4/*.tsv, write results/connect4/pons.md
#   scripts/connect4-pons.sh sets     (re)make datasets/connect4/*.tsv: random positions scored by his solver
#
# Environment: PONS_GIT (his repository's git dir; default the local mirror), BUILD (scratch
# folder, default /tmp/c4pons), SEED (of the sets, default 2026), PER_SET (positions a set, 200),
# THREADS (ours, "1 2"), TT_MIB (ours, 4: on the seed-2031 sets 4 MiB took less time than 16 on
# every set, the hard ones too, as it mostly stays in the processor's caches; his table is 2^24
# entries, about 80 MB), SETS_DIR
# (where the sets are written and read, default datasets/connect4: a fresh draw, SEED=2027
# SETS_DIR=/tmp/c4fresh, reports on positions nothing was tuned on), RUNS (3: every set run that
# many times, the table gives the median of the runs' means; one run of the easy sets varied by
# a third from run to run).
# His opening book (7x6.book) is not in his repository and is not used: every position is
# searched from scratch by both solvers.
set -euo pipefail
cd "$(dirname "$0")/.."
PONS_GIT=${PONS_GIT:-/work/.mirror/PascalPons+connect4/repo}
BUILD=${BUILD:-/tmp/c4pons}
SEED=${SEED:-2026}
PER_SET=${PER_SET:-200}
THREADS=${THREADS:-1 2}
TT_MIB=${TT_MIB:-4}
RUNS=${RUNS:-3}
SETS_DIR=${SETS_DIR:-datasets/connect4}
SETS="L3_R1 L2_R1 L2_R2 L1_R1 L1_R2 L1_R3"

build_pons() {
    rm -rf "$BUILD" && mkdir -p "$BUILD/src"
    git --git-dir="$PONS_GIT" archive HEAD | tar -x -C "$BUILD/src"
    PONS_REV=$(git --git-dir="$PONS_GIT" rev-parse --short HEAD)
    cat > "$BUILD/driver.cpp" <<'EOF'
// Ours: reads positions (Pons' move sequences, `-` = empty board) and prints
// `moves score nodes time_us`, resetting his table before each untimed.
#include "Solver.hpp"
#include <chrono>
#include <iostream>
using namespace GameSolver::Connect4;
int main() {
  Solver solver;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::string moves = line == "-" ? std::string() : line;
    Position P;
    if (P.play(moves) != moves.size()) { std::cout << line << " invalid" << std::endl; continue; }
    solver.reset();
    auto t0 = std::chrono::steady_clock::now();
    int score = solver.solve(P);
    auto t1 = std::chrono::steady_clock::now();
    // Microseconds with the clock's own resolution: a cast to whole microseconds truncated
    // solves of 1-2 us (the easy sets) by half a microsecond on average.
    double us = std::chrono::duration<double, std::micro>(t1 - t0).count();
    std::cout << line << " " << score << " " << solver.getNodeCount() << " " << us << std::endl;
  }
}
EOF
    # His Makefile's flags.
    g++ --std=c++11 -O3 -DNDEBUG -I"$BUILD/src" -o "$BUILD/driver" "$BUILD/driver.cpp" \
        "$BUILD/src/Solver.cpp"
}

cargo build --release --quiet
B=target/release/bitsolve
[ -n "${CARGO_TARGET_DIR:-}" ] && B=$CARGO_TARGET_DIR/release/bitsolve
build_pons

if [ "${1:-}" = sets ]; then
    mkdir -p "$SETS_DIR"
    # Pools of random positions by stones played (uniformly random moves from the empty board,
    # unfinished positions, distinct), then scored by his solver and sorted into his six sets
    # by stones played (L3: 29-42, L2: 15-28, L1: 10-14, his L1 is 0-14) and by the moves left
    # under perfect play (R1: < 14, R2: 14-27, R3: >= 28).
    $B dataset --game connect4 --seed "$SEED" -n 40 --depth "$(seq -s, 29 41)" -o "$BUILD/pool-l3.tsv"
    $B dataset --game connect4 --seed "$SEED" -n 90 --depth "$(seq -s, 15 28)" -o "$BUILD/pool-l2.tsv"
    $B dataset --game connect4 --seed "$SEED" -n 250 --depth "$(seq -s, 10 14)" -o "$BUILD/pool-l1.tsv"
    for p in l3 l2 l1; do
        grep -v '^#' "$BUILD/pool-$p.tsv" | grep -v '^id' | cut -f2 | "$BUILD/driver" > "$BUILD/pool-$p.scored"
    done
    python3 - "$BUILD" "$SEED" "$PER_SET" "$PONS_REV" "$SETS_DIR" <<'EOF'
import random, sys
build, seed, per_set, rev, sets_dir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
def left(n, s):
    # Stones at the end under perfect play: a draw fills the board; a win with the winner's
    # k-th stone (score 22 - k) ends at stone 2k - 1 (first player) or 2k (second).
    if s == 0:
        return 42 - n
    k = 22 - abs(s)
    first_wins = (n % 2 == 0) == (s > 0)
    return (2 * k - 1 if first_wins else 2 * k) - n
sets = {k: [] for k in ["L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3"]}
for pool in ["l3", "l2", "l1"]:
    for line in open(f"{build}/pool-{pool}.scored"):
        moves, score, _, _ = line.split()
        n, s = len(moves), int(score)
        level = "L3" if n > 28 else "L2" if n > 14 else "L1"
        r = left(n, s)
        rate = "R1" if r < 14 else "R2" if r < 28 else "R3"
        if f"{level}_{rate}" in sets:
            sets[f"{level}_{rate}"].append((moves, s))
rng = random.Random(seed)
for name, rows in sets.items():
    rng.shuffle(rows)
    rows = rows[:per_set]
    with open(f"{sets_dir}/{name}.tsv", "w") as f:
        f.write(f"# Connect Four 7x6, set {name} after Pons' benchmark sets (his blog, part 2): "
                f"{len(rows)} random positions by stones played and moves left under perfect play.\n")
        f.write(f"# Made by `scripts/connect4-pons.sh sets` (SEED={seed}): `bitsolve dataset` pools, "
                f"scored by Pons' solver (PascalPons/connect4 {rev}, no opening book).\n")
        f.write("# pons_score: Pons' score for the side to move; expected: its sign.\n")
        f.write("id\tposition\texpected\tpons_score\n")
        for i, (moves, s) in enumerate(rows):
            word = "win" if s > 0 else "loss" if s < 0 else "draw"
            f.write(f"{name}-{i:03}\t{moves}\t{word}\t{s}\n")
    print(name, len(rows))
EOF
    exit 0
fi

mkdir -p results/connect4 "$BUILD/out"
COMMIT=$(git rev-parse --short HEAD)
rm -f "$BUILD"/out/*
for run in $(seq "$RUNS"); do
    for set in $SETS; do
        file=$SETS_DIR/$set.tsv
        grep -v '^#' "$file" | grep -v '^id' | cut -f2 | "$BUILD/driver" > "$BUILD/out/$set.pons.$run"
        for t in $THREADS; do
            $B solve --game connect4 --score --solver alphabeta --threads "$t" --jobs 1 \
                --tt-mib "$TT_MIB" --out "$BUILD/out/$set.t$t.$run.csv" "$file" > /dev/null
        done
    done
done
python3 - "$BUILD/out" "$COMMIT" "$PONS_REV" "$TT_MIB" "$THREADS" "$SETS_DIR" "$SEED" "$RUNS" $SETS > results/connect4/pons.md <<'EOF'
import csv, statistics, sys
out, commit, rev, mib, threads, sets_dir, seed, runs, sets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5].split(), sys.argv[6], sys.argv[7], int(sys.argv[8]), sys.argv[9:]
print("# Connect Four: bitsolve against Pascal Pons' solver\n")
print(f"`scripts/connect4-pons.sh` at bitsolve {commit}, Pons' solver {rev} (his `Solver`, -O3, no "
      f"opening book; his table 2^24 entries, ours `--tt-mib {mib}`), one position at a time "
      "(`--jobs 1`), each solver's table cleared before each position and outside the timing. "
      "Ours: `bitsolve solve --game connect4 --score --solver alphabeta --threads T`. "
      + (f"Positions: `{sets_dir}/` (random positions sorted into Pons' six sets, scored by "
         "his solver; see its README)." if sets_dir == "datasets/connect4" else
         f"Positions: a fresh draw, `SEED={seed} SETS_DIR={sets_dir} scripts/connect4-pons.sh sets` "
         "(random positions sorted into Pons' six sets as in `datasets/connect4/`, scored by his "
         "solver), which no setting was tuned on.") + "\n")
print(f"Each set was run {runs} times (the sets in turn, both solvers each time); a mean is the "
      "median of the runs' means, a max the largest time of any run, nodes are the first run's. "
      "Nodes are not the same unit: his count negamax calls; ours count every position the "
      "search reaches, finished children included.\n")
head = "| set | positions | solved (all runs) | mismatches | Pons mean ms | Pons max ms | Pons mean nodes |"
rule = "|---|---:|---:|---:|---:|---:|---:|"
for t in threads:
    head += f" ours {t}t mean ms | ours {t}t max ms | ours {t}t mean nodes | ours/Pons time {t}t |"
    rule += "---:|---:|---:|---:|"
print(head)
print(rule)
totals, sum_n, by_run = [], 0, []
for s in sets:
    expected = {}
    for line in open(f"{sets_dir}/{s}.tsv"):
        if line.startswith("#") or line.startswith("id\t"):
            continue
        f = line.rstrip("\n").split("\t")
        expected[f[0]] = int(f[3])
    n = len(expected)
    sum_n += n
    solved, mism, means, worst = n, 0, [], 0.0
    for run in range(1, runs + 1):
        pons = [l.split() for l in open(f"{out}/{s}.pons.{run}") if len(l.split()) == 4]
        solved = min(solved, len(pons))
        mism += sum(1 for p, e in zip(pons, expected.values()) if int(p[1]) != e)
        means.append(sum(float(p[3]) for p in pons) / len(pons) / 1000)
        worst = max(worst, max(float(p[3]) for p in pons) / 1000)
        if run == 1:
            nodes = sum(int(p[2]) for p in pons) / len(pons)
    pm = statistics.median(means)
    pons_means = means
    cells = [f"{pm:.4f}", f"{worst:.1f}", f"{nodes:.0f}"]
    for t in threads:
        means, worst = [], 0.0
        for run in range(1, runs + 1):
            rows = list(csv.DictReader(open(f"{out}/{s}.t{t}.{run}.csv")))
            done = [r for r in rows if r["score"] != ""]
            solved = min(solved, len(done))
            mism += sum(1 for r in done if int(r["score"]) != expected[r["id"]])
            means.append(sum(float(r["millis"]) for r in rows) / len(rows))
            worst = max(worst, max(float(r["millis"]) for r in rows))
            if run == 1:
                nodes = sum(int(r["nodes"]) for r in rows) / len(rows)
        om = statistics.median(means)
        cells += [f"{om:.4f}", f"{worst:.1f}", f"{nodes:.0f}", f"{om / pm:.2f}"]
        by_run.append(f"{s} {t}t: " + ", ".join(f"{o / p:.2f}" for o, p in zip(means, pons_means)))
    print(f"| {s} | {n} | {solved} | {mism} | " + " | ".join(cells) + " |")
    totals.append(cells)
# Every set has the same number of positions: the mean over all is the mean of the set means.
pons_all = sum(float(t[0]) for t in totals) / len(totals)
cells = [f"{pons_all:.4f}", "", ""]
for j in range(len(threads)):
    ours_all = sum(float(t[3 + 4 * j]) for t in totals) / len(totals)
    cells += [f"{ours_all:.4f}", "", "", f"{ours_all / pons_all:.2f}"]
print(f"| all six | {sum_n} | | | " + " | ".join(cells) + " |")
print("\nMismatches: scores that differ from the file's `pons_score` column (his solver's, "
      "from the run that made the file), over every run of both solvers. The last row is the "
      "mean time per position over all six sets (the mean of the set means: every set has the "
      "same number of positions). Times are measured inside each solver, to the nanosecond.")
print("\nThe ratio of each run's means (ours / Pons, the two measured one after the other), run "
      "by run; the table's ratio is of the medians:\n")
for line in by_run:
    print(f"- {line}")
EOF
cat results/connect4/pons.md
