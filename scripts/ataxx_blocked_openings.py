#!/usr/bin/env python3
"""Writes Ataxx start positions with blocked squares as FEN lines (a cuteataxx openings file).

    python3 scripts/ataxx_blocked_openings.py --count 300 --seed 1 [--exclude FILE ...] > OUT

Each line is the standard start (`x5o/7/7/7/7/7/o5x x 0 1`)
with a pattern drawn as `bitsolve ataxx datagen --blocked-share` draws its patterns
(src/cli/ataxx/datagen.rs, `blocked_pattern`): 1 to 4 distinct squares of the lower left 4x4
quadrant other than the corner, each with its mirror images in both axes. Patterns are distinct,
and any pattern that occurs in an `--exclude` file (for example cuteataxx's
`res/openings/tournament.txt`, kept for a test on openings nothing was tuned on) is left out.
Python's `random.Random(seed)`: the same arguments give the same file.
"""

import argparse
import random
import sys



def fen(board, side="x"):
    """The FEN of `board`, a dict (rank, file) -> 'x', 'o' or '-' (0-based; empty squares
    absent), with `side` to move."""
    ranks = []
    for r in range(6, -1, -1):
        row, run = "", 0
        for f in range(7):
            c = board.get((r, f), "")
            if c:
                row += (str(run) if run else "") + c
                run = 0
            else:
                run += 1
        ranks.append(row + (str(run) if run else ""))
    return "/".join(ranks) + f" {side} 0 1"


def start_fen(blocked):
    """The start position's FEN with the squares `blocked` ((rank, file), 0-based) blocked."""
    board = {sq: "-" for sq in blocked}
    board.update({(6, 0): "x", (0, 6): "x", (0, 0): "o", (6, 6): "o"})
    return fen(board)


def pattern(rng):
    cells = [(r, f) for r in range(4) for f in range(4)][1:]
    squares = set()
    for r, f in rng.sample(cells, rng.randint(1, 4)):
        squares |= {(r, f), (r, 6 - f), (6 - r, f), (6 - r, 6 - f)}
    return frozenset(squares)


def board_part(line):
    return line.split()[0] if line.strip() and not line.startswith("#") else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--exclude", nargs="*", default=[], help="openings files whose boards are left out")
    args = ap.parse_args()
    excluded = set()
    for path in args.exclude:
        with open(path) as f:
            excluded |= {b for b in map(board_part, f) if b}
    rng = random.Random(args.seed)
    seen, out = set(), []
    for _ in range(1000 * args.count):
        if len(out) == args.count:
            break
        p = pattern(rng)
        line = start_fen(p)
        if p in seen or line.split()[0] in excluded:
            continue
        seen.add(p)
        out.append(line)
    if len(out) < args.count:
        sys.exit(f"only {len(out)} distinct patterns")
    print(f"# Ataxx start positions with blocked squares: scripts/ataxx_blocked_openings.py "
          f"--count {args.count} --seed {args.seed}" + (" --exclude " + " ".join(args.exclude) if args.exclude else ""))
    print("\n".join(out))


if __name__ == "__main__":
    main()
