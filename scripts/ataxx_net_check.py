#!/usr/bin/env python3
"""Checks that the engine evaluates a tuples net (format version 2, 3 or 4) as the trainer computes it.

    python3 scripts/ataxx_net_check.py BITSOLVE NET DATA [COUNT]

Takes COUNT (default 500) positions of the data file DATA (every k-th record, so that boards
with blocked squares come in as often as the file has them), asks `BITSOLVE ataxx uai` with
`setoption name EvalFile value NET` for `eval` of each, and compares the net's value with the
trainer's integer mirror of the engine (`scripts/ataxx_train.py`, `quantised_logits`) times the
net's scale, truncated as the engine truncates. Prints the positions compared, how many have
blocked squares and the largest difference; exits 1 if any differs by more than one unit.
"""

import os
import struct
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ataxx_train as tr  # noqa: E402
from ataxx_blocked_openings import fen  # noqa: E402


def record_fen(rec):
    """The FEN of a data record."""
    board = {}
    for r in range(7):
        for f in range(7):
            bit = np.uint64(1) << np.uint64(8 * r + f)
            for name, c in (("x", "x"), ("o", "o"), ("blocked", "-")):
                if rec[name] & bit:
                    board[(r, f)] = c
    return fen(board, "o" if rec["side"] == 1 else "x")


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    binary, net_path, data_path = sys.argv[1:4]
    count = int(sys.argv[4]) if len(sys.argv) == 5 else 500
    data = open(net_path, "rb").read()
    version, inputs, hidden = struct.unpack("<III", data[8:20])
    scale = struct.unpack("<i", data[28:32])[0]
    arch = {2: tr.TupleNet, 3: tr.BlockedTupleNet, 4: tr.BucketTupleNet}.get(version)
    if arch is None:
        sys.exit(f"{net_path}: format version {version}; this check reads tuples nets (2 to 4)")
    rec = tr.load_file(data_path)
    rec = rec[:: max(1, rec.size // count)][:count]
    enc = tr.BlockedTupleNet.encode(rec)
    if version == 4:
        enc = (*enc, tr.buckets_of(rec, struct.unpack("<I", data[32:36])[0]))
    logits = arch.quantised_logits(data, enc, np.arange(rec.size))
    want = np.clip(np.trunc(np.round(logits * tr.QA * tr.QB) * scale / (tr.QA * tr.QB)), -20000, 20000)
    lines = [f"setoption name EvalFile value {net_path}"]
    for r in rec:
        lines += [f"position fen {record_fen(r)}", "eval"]
    out = subprocess.run([binary, "ataxx", "uai"], input="\n".join(lines + ["quit"]) + "\n",
                         capture_output=True, text=True, check=True).stdout
    got = [int(line.split()[4]) for line in out.splitlines() if line.startswith("eval classic")]
    if len(got) != rec.size:
        sys.exit(f"the engine answered {len(got)} evals for {rec.size} positions:\n{out[-2000:]}")
    diff = np.abs(np.array(got) - want)
    blocked = int((rec["blocked"] != 0).sum())
    print(f"{net_path} (version {version}, {inputs} inputs, {hidden} hidden, scale {scale}): "
          f"{rec.size} positions of {data_path}, {blocked} with blocked squares; largest "
          f"difference {int(diff.max())} units")
    sys.exit(1 if diff.max() > 1 else 0)


if __name__ == "__main__":
    main()
