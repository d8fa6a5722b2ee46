#!/usr/bin/env python3
"""Seeded random directed graphs for the digraph game (datasets/digraph/random-graphs.tsv).

Each vertex gets 0..4 out-edges to uniformly random vertices (self-loops allowed), so graphs
have sinks (a side to move there loses), cycles (draws) and long forced lines. The token starts
at vertex 0. Usage: scripts/digraph_graphs.py [seed] > datasets/digraph/random-graphs.tsv
"""
import random
import sys

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
rng = random.Random(seed)
print(f"# Random digraphs, token at vertex 0 (scripts/digraph_graphs.py {seed}; Python random).")
print("# Position notation: `current|succ0;succ1;...;` (bitsolve info --game digraph).")
print("id\tposition\texpected")
for n in (8, 16, 24, 32, 48, 64):
    for k in range(4):
        succ = []
        for _ in range(n):
            degree = rng.choice((0, 1, 1, 2, 2, 2, 3, 3, 4))
            succ.append(" ".join(str(rng.randrange(n)) for _ in range(degree)))
        print(f"n{n}-{k}\t0|{';'.join(succ)};\t-")
