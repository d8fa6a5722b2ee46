#!/usr/bin/env python3
"""Texel-style tuning of the Ataxx evaluation weights (Python 3 standard library only).

Reads the self-play positions written by `examples/ataxx_selfplay.rs` (CSV, optionally
gzip-compressed): per row the game result from the side to move's view (1, 0.5, 0), the phase
(empty squares per valid square, in 1/256ths) and the features f0..f7 of
`src/games/ataxx/eval.rs`. The evaluation is

    eval = sum_i f_i * (W_open[i] * p + W_end[i] * (1 - p)),   p = phase / 256,

so it is linear in the 16 products f_i * p and f_i * (1 - p). The script fits
P(result) = sigmoid(eval) by logistic regression (Newton's method on the cross-entropy, which
accepts the draws' 0.5 targets, with a small L2 penalty), then scales the weights so that a
stone of material is worth 100 in the opening and prints them as Rust constants.

Usage: scripts/ataxx_tune.py [datasets/ataxx/tuning/selfplay.csv.gz]
"""

import csv
import gzip
import math
import sys

FEATURES = 8
NAMES = ["material", "safe", "exposed", "clone mobility", "jump mobility",
         "best gain", "threat", "tempo"]
L2 = 1e-4


def read_rows(path):
    """(target, inputs) per row: inputs are the 2 * FEATURES phase products."""
    opener = gzip.open if path.endswith(".gz") else open
    rows = []
    with opener(path, "rt", newline="") as f:
        for row in csv.DictReader(f):
            p = int(row["phase"]) / 256.0
            feats = [float(row[f"f{i}"]) for i in range(FEATURES)]
            x = [v * p for v in feats] + [v * (1.0 - p) for v in feats]
            rows.append((float(row["result"]), x))
    return rows


def solve(a, b):
    """Solves a x = b (a small dense system) by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c and m[r][c] != 0.0:
                k = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= k * m[c][j]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def sigmoid(z):
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def loss(rows, w, mask):
    total = 0.0
    for y, x in rows:
        q = sigmoid(sum(w[i] * x[i] for i in mask))
        q = min(max(q, 1e-12), 1.0 - 1e-12)
        total -= y * math.log(q) + (1.0 - y) * math.log(1.0 - q)
    return total / len(rows)


def fit(rows, mask, iterations=12):
    """Newton's method on the mean cross-entropy over the inputs in `mask`."""
    d = len(mask)
    w = [0.0] * (2 * FEATURES)
    for _ in range(iterations):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for y, x in rows:
            xs = [x[i] for i in mask]
            q = sigmoid(sum(w[i] * x[i] for i in mask))
            g = q - y
            h = q * (1.0 - q)
            for a in range(d):
                grad[a] += g * xs[a]
                ha = h * xs[a]
                row = hess[a]
                for b in range(a, d):
                    row[b] += ha * xs[b]
        n = len(rows)
        for a in range(d):
            grad[a] = grad[a] / n + L2 * w[mask[a]]
            for b in range(a, d):
                hess[a][b] /= n
                hess[b][a] = hess[a][b]
            hess[a][a] += L2
        step = solve(hess, grad)
        for a in range(d):
            w[mask[a]] -= step[a]
        if max(abs(s) for s in step) < 1e-7:
            break
    return w


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "datasets/ataxx/tuning/selfplay.csv.gz"
    rows = read_rows(path)
    print(f"{len(rows)} positions from {path}")
    everything = list(range(2 * FEATURES))
    # Baseline: material and tempo only (both phases).
    base_mask = [0, 7, FEATURES + 0, FEATURES + 7]
    base = fit(rows, base_mask)
    w = fit(rows, everything)
    print(f"cross-entropy: material+tempo {loss(rows, base, base_mask):.5f}, "
          f"all features {loss(rows, w, everything):.5f}, "
          f"constant {loss(rows, [0.0] * 16, everything):.5f}")
    scale = 100.0 / w[0]
    print(f"scale: {scale:.2f} engine units per logit (a stone = 100 in the opening)")
    opening = [round(v * scale) for v in w[:FEATURES]]
    endgame = [round(v * scale) for v in w[FEATURES:]]
    for i, name in enumerate(NAMES):
        print(f"  f{i} {name:15} opening {opening[i]:5}  endgame {endgame[i]:5}")
    print(f"pub const WEIGHTS_OPENING: [i32; FEATURES] = {opening};")
    print(f"pub const WEIGHTS_ENDGAME: [i32; FEATURES] = {endgame};")


if __name__ == "__main__":
    main()
