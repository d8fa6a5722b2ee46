#!/usr/bin/env python3
"""How well nets predict the games of a data file: for each net file (format version 2, tuples),
the cross-entropy of sigmoid(logit) against the game results of a random sample of positions,
against the search scores (sigmoid(score / K), K fitted to the sample) and against the training
target with result weight 0.2, then the cross-entropy against the results with the logit scale
that fits best (a net trained to other targets may be confident by another factor). Uses the
trainer's readers and the engine-exact quantised evaluation (scripts/ataxx_train.py).

    python3 scripts/ataxx_net_loss.py /work/data/ataxx/gen7.bin nets/ataxx/net6a.nnue OTHER.nnue
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ataxx_train as t  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", help="a datagen file")
    ap.add_argument("nets", nargs="+", help="net files (tuples, format version 2)")
    ap.add_argument("--sample", type=int, default=200000, help="positions drawn (seed 1)")
    args = ap.parse_args()
    rec, _ = t.load([args.data])
    rng = np.random.default_rng(1)
    rec = rec[np.sort(rng.choice(rec.size, min(args.sample, rec.size), replace=False))]
    enc = t.TupleNet.encode(rec)
    result = (rec["result"].astype(np.float32) + 1) / 2
    score = rec["score"].astype(np.float32)
    k, k_loss = t.fit_k(score, result)
    print(f"{rec.size} positions; K = {k:.1f}; the search scores predict the results with "
          f"cross-entropy {k_loss:.4f}")
    searched = t.sigmoid(score / k)
    print("| net | vs results | vs scores | vs target (0.2) | vs results, best scale | scale |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in args.nets:
        with open(name, "rb") as f:
            y = t.TupleNet.quantised_logits(f.read(), enc, np.arange(rec.size))
        p = t.sigmoid(y)
        best = min((t.cross_entropy(t.sigmoid(c * y), result), c)
                   for c in np.arange(0.2, 2.001, 0.05))
        print(f"| {name} | {t.cross_entropy(p, result):.4f} | {t.cross_entropy(p, searched):.4f} "
              f"| {t.cross_entropy(p, 0.2 * result + 0.8 * searched):.4f} | {best[0]:.4f} "
              f"| {best[1]:.2f} |")


if __name__ == "__main__":
    main()
