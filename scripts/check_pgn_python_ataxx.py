#!/usr/bin/env python3
"""Replays PGN files written by `bitsolve ataxx match` with the independent python-ataxx rules
library (`pip install ataxx==2.2.0`, standard rules) and reports moves it finds illegal and
results it disagrees with. Polish-rules games that end with a stuck side are expected to differ
(python-ataxx passes instead), so those are counted apart.

Usage: python3 scripts/check_pgn_python_ataxx.py results/ataxx/*.pgn
"""
import re
import sys

import ataxx


def check(path):
    text = open(path).read().strip()
    games = illegal = differ = stuck = 0
    for game in re.split(r"\n\n(?=\[Event)", text):
        games += 1
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
        body = game.split("\n\n", 1)[1]
        words = [w for w in body.split()
                 if not re.match(r"^\d+\.+$", w) and w not in ("1-0", "0-1", "1/2-1/2", "*")]
        board = ataxx.Board(tags.get("FEN", "startpos"))
        for word in words:
            move = ataxx.Move.from_san(word)
            if not board.is_legal(move):
                print(f"{path}: round {tags['Round']}: illegal move {word}")
                illegal += 1
                break
            board.makemove(move)
        if board.result() != tags["Result"]:
            if "stuck" in tags.get("Termination", ""):
                stuck += 1
            else:
                print(f"{path}: round {tags['Round']}: result {board.result()} != {tags['Result']}")
                differ += 1
    print(f"{path}: {games} games, {illegal} illegal moves, {differ} results differ, "
          f"{stuck} polish stuck-side endings")
    return illegal + differ


if __name__ == "__main__":
    sys.exit(1 if sum(check(p) for p in sys.argv[1:]) else 0)
