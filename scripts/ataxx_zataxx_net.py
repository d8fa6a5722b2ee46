#!/usr/bin/env python3
"""Rewrites Zataxx's embedded net (`src/net6.bin` of zzzzz151/Zataxx) as a bitsolve net file, for
one diagnostic only: our search with their evaluation, to tell how much of the gap to Zataxx is
the net and how much the search (`results/ataxx/zataxx-their-net/`). The converted net is not
shipped or embedded: it is their trained data, not ours.

Both nets have the same shape (2916 inputs, the 36 windows of 2x2 squares with 81 states each,
-> 256 SCReLU units -> 1, QA 255, QB 64); Zataxx's file is the raw i16 arrays (input weights
2916 x 256, biases 256, output weights 256, output bias one i16), its evaluation scale 400. Our
format version 2 (scripts/ataxx_train.py) adds a header and stores the output bias as i32. The
window and digit order are the same in both (checked: `eval` of both engines agrees on
asymmetric positions, see the results README).

    python3 scripts/ataxx_zataxx_net.py /tmp/ataxx/Zataxx/src/net6.bin /tmp/zataxx-net6.nnue
"""
import struct
import sys

import numpy as np

HIDDEN = 256
INPUTS = 2916
SCALE = 400


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    raw = open(sys.argv[1], "rb").read()
    count = INPUTS * HIDDEN + 2 * HIDDEN + 1
    if len(raw) != 2 * count:
        print(f"{sys.argv[1]}: {len(raw)} bytes, expected {2 * count}", file=sys.stderr)
        return 1
    words = np.frombuffer(raw, dtype="<i2")
    weights = words[: INPUTS * HIDDEN]
    biases = words[INPUTS * HIDDEN : INPUTS * HIDDEN + HIDDEN]
    output = words[INPUTS * HIDDEN + HIDDEN : INPUTS * HIDDEN + 2 * HIDDEN]
    if np.abs(output).max() > 127:
        print("output weights beyond +-127: our SCReLU products would overflow", file=sys.stderr)
        return 1
    header = b"BSAXNNUE" + struct.pack("<IIIIIi", 2, INPUTS, HIDDEN, 255, 64, SCALE)
    body = weights.tobytes() + biases.tobytes() + output.tobytes()
    with open(sys.argv[2], "wb") as out:
        out.write(header + body + struct.pack("<i", int(words[-1])))
    print(f"wrote {sys.argv[2]}: largest input weight {np.abs(weights).max()}, "
          f"output weight {np.abs(output).max()}, output bias {int(words[-1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
