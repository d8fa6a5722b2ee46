#!/usr/bin/env python3
"""The assignment's interface, `solve(N, M, holes, pieces) -> bool`, by calling `bitsolve szochy`.

    from szochy import solve
    solve(3, 3, [(2, 1), (2, 2), (2, 3)], [("k", 1, 2), ("q", 3, 3)])   # False

The binary is found through $BITSOLVE, else target/release/bitsolve next to this repository,
else `bitsolve` on PATH. Off-board holes and pieces are passed on as given (the binary applies the
bad-data readings and warns on stderr). Run as a script to check the official tests:
`python3 scripts/szochy.py datasets/szochy/official.json`.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path


def _binary():
    if os.environ.get("BITSOLVE"):
        return os.environ["BITSOLVE"]
    local = Path(__file__).resolve().parent.parent / "target" / "release" / "bitsolve"
    if local.exists():
        return str(local)
    found = shutil.which("bitsolve")
    if not found:
        raise RuntimeError("bitsolve binary not found: build with `cargo build --release` or set BITSOLVE")
    return found


def solve_many(cases):
    """Solves a list of (N, M, holes, pieces); returns the list of answers (one process)."""
    data = [{"test": k, "N": n, "M": m, "holes": [list(h) for h in holes], "pieces": [list(p) for p in pieces]}
            for k, (n, m, holes, pieces) in enumerate(cases)]
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"szochy-{os.getpid()}.json"
    tmp.write_text(json.dumps(data))
    try:
        out = subprocess.run([_binary(), "szochy", "--tests", str(tmp)], capture_output=True, text=True)
    finally:
        tmp.unlink(missing_ok=True)
    answers = {}
    for line in out.stdout.splitlines():
        row = json.loads(line)
        if "error" in row:
            raise ValueError(f"case {row['test']}: {row['error']}")
        if "first_player_wins" in row:
            answers[row["test"]] = row["first_player_wins"]
    if len(answers) != len(cases):
        raise RuntimeError(out.stderr.strip() or "bitsolve failed")
    return [answers[k] for k in range(len(cases))]


def solve(N, M, holes, pieces):
    """True iff the first player wins szochy on an N x M board (1-based (i, j), i horizontal)."""
    return solve_many([(N, M, holes, pieces)])[0]


if __name__ == "__main__":
    tests = json.loads(Path(sys.argv[1]).read_text())
    got = solve_many([(t["N"], t["M"], t["holes"], t["pieces"]) for t in tests])
    bad = [t["test"] for t, g in zip(tests, got) if "expected" in t and t["expected"] != g]
    print(f"{len(tests) - len(bad)}/{len(tests)} correct" + (f"; wrong: {bad}" if bad else ""))
    sys.exit(1 if bad else 0)
