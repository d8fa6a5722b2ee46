#!/usr/bin/env python3
"""How many moves one engine still played in cuteataxx games, by the empty squares on the board.

Replays each game of a cuteataxx PGN with python-ataxx (`pip install ataxx==2.2.0`, standard
rules) and, for every position where ENGINE (the PGN's Black or White name) is to move, records
the number of empty squares e and how many more moves ENGINE played in that game (this one
included), and the `movetime` comment of its move. Prints one row per e with at least 20
positions: count, mean, median, 90th percentile and largest number of moves left, and the mean
movetime in ms. Used in docs/ataxx.md to check the clock's estimate of moves left (e + 8).

Usage: python3 scripts/ataxx_moves_left.py results/ataxx/zataxx-net14d/games.pgn net14d
"""
import collections
import re
import statistics
import sys

import ataxx


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, engine = sys.argv[1:]
    left = collections.defaultdict(list)
    spent = collections.defaultdict(list)
    for game in re.split(r"\n\n(?=\[Event)", open(path).read().strip()):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
        moves = []
        for tok in re.findall(r"\{[^}]*\}|\S+", game.split("\n\n", 1)[1]):
            if tok.startswith("{"):
                m = re.search(r"movetime (\d+)", tok)
                if m and moves:
                    moves[-1][1] = int(m.group(1))
            elif not re.match(r"^\d+\.+$", tok) and tok not in ("1-0", "0-1", "1/2-1/2", "*"):
                moves.append([tok, None])
        board = ataxx.Board(tags.get("FEN", "startpos"))
        ours = []
        for word, movetime in moves:
            empties = sum(int(c) for c in board.get_fen().split()[0] if c.isdigit())
            if (tags["Black"] == engine) == (board.turn == ataxx.BLACK):
                ours.append((empties, movetime))
            board.makemove(ataxx.Move.from_san(word))
        for j, (empties, movetime) in enumerate(ours):
            left[empties].append(len(ours) - j)
            if movetime is not None:
                spent[empties].append(movetime)
    print("empties positions mean median p90 max movetime_ms")
    for e in sorted(left):
        v = sorted(left[e])
        n = len(v)
        if n < 20:
            continue
        mt = statistics.mean(spent[e]) if spent[e] else float("nan")
        print(f"{e} {n} {statistics.mean(v):.1f} {v[n // 2]} {v[int(n * 0.9)]} {v[-1]} {mt:.1f}")


if __name__ == "__main__":
    main()
