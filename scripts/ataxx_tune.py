#!/usr/bin/env python3
"""Texel-style tuning of the Ataxx evaluation weights (Python 3 standard library only).

Reads the self-play positions written by `examples/ataxx_selfplay.rs` (CSV, optionally
gzip-compressed): per row the game result from the side to move's view (1, 0.5, 0), the phase
(empty squares per valid square, in 1/256ths) and the features f0..f7 of
`src/games/ataxx/eval.rs`.

The positions are split into three phase bands: opening (phase 128..256), middle game
(64..128) and endgame (0..64). In each band the script fits P(result) = sigmoid(w . f) by
logistic regression (Newton's method on the cross-entropy, which accepts the draws' 0.5
targets, with a small L2 penalty), then divides the band's weights by its material weight and
multiplies by 100: the engine's weight sets keep a stone worth 100 everywhere and take the
*relative* weights from the data. (The logit value of a stone itself grows from about 0.05 in
the opening to 0.7 in the endgame: early results are far away and noisy, which says how
predictable a game is, not what a stone is worth against the other features. A fixed material
scale also keeps the search's pruning margins meaningful in every phase.) The bands become the
evaluation's anchors at phase 256, 128 and 0.

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
    """(target, phase, features) per row."""
    opener = gzip.open if path.endswith(".gz") else open
    rows = []
    with opener(path, "rt", newline="") as f:
        for row in csv.DictReader(f):
            feats = [float(row[f"f{i}"]) for i in range(FEATURES)]
            rows.append((float(row["result"]), int(row["phase"]), feats))
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
    w = [0.0] * FEATURES
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


BANDS = [("OPENING", 128, 257), ("MIDDLE", 64, 128), ("ENDGAME", 0, 64)]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "datasets/ataxx/tuning/selfplay.csv.gz"
    rows = read_rows(path)
    print(f"{len(rows)} positions from {path}")
    everything = list(range(FEATURES))
    base_mask = [0, 7]  # material and tempo only
    sets = []
    for label, lo, hi in BANDS:
        band = [(y, x) for y, phase, x in rows if lo <= phase < hi]
        base = fit(band, base_mask)
        w = fit(band, everything)
        print(f"{label.lower():8} phase {lo:3}..{hi - 1:3}: {len(band):6} positions, "
              f"cross-entropy constant {loss(band, [0.0] * FEATURES, everything):.5f}, "
              f"material+tempo {loss(band, base, base_mask):.5f}, "
              f"all features {loss(band, w, everything):.5f}")
        print("   logits: " + " ".join(f"{v:+.4f}" for v in w))
        sets.append((label, [round(100.0 * v / w[0]) for v in w]))
    for i, name in enumerate(NAMES):
        print(f"  f{i} {name:15} " + "  ".join(f"{label.lower()} {ws[i]:5}" for label, ws in sets))
    for label, ws in sets:
        print(f"pub const WEIGHTS_{label}: [i32; FEATURES] = {ws};")


if __name__ == "__main__":
    main()
