#!/usr/bin/env python3
"""Writes datasets/szochy/official.tsv (one-line notation) from datasets/szochy/official.json."""
import json
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
cases = json.loads((root / "datasets/szochy/official.json").read_text())
out = ["# Szochy official tests 0-35 (see SOURCES.md); `bitsolve solve --game szochy --solver matching`",
       "id\tposition\texpected"]
for c in cases:
    n, m = c["N"], c["M"]
    on = lambda i, j: 1 <= i <= n and 1 <= j <= m
    holes = " ".join(f"{i},{j}" for i, j in c["holes"] if on(i, j))
    pieces = " ".join(f"{t}{i},{j}" for t, i, j in c["pieces"] if on(i, j))
    out.append(f"official-{c['test']}\t{n} {m}|{holes}|{pieces}\t{'win' if c['expected'] else 'loss'}")
(root / "datasets/szochy/official.tsv").write_text("\n".join(out) + "\n")
print(f"{len(cases)} cases", file=sys.stderr)
