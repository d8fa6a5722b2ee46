#!/usr/bin/env python3
"""Writes a copy of a bitsolve Ataxx net file (either format version) with another evaluation
scale: the i32 at bytes 28..32 of the header, by which the engine multiplies the net's output
logit to get its evaluation in centipawn-like units. The weights are unchanged, so the copy
ranks positions exactly as the original; only the size of the evaluation against the search's
fixed margins (futility, aspiration windows, singular-extension margins, ...) changes.
The trainer writes the fitted K (the units of the data's search scores); the SPRTs in
`results/ataxx/sprt/` measured larger scales as stronger (`nets/ataxx/README.md`).

    python3 scripts/ataxx_net_scale.py nets/ataxx/net6a.nnue 700 nets/ataxx/net6b.nnue
"""
import struct
import sys


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    source, scale, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    data = bytearray(open(source, "rb").read())
    if data[:8] != b"BSAXNNUE" or len(data) < 32:
        print(f"{source}: not a bitsolve Ataxx net file", file=sys.stderr)
        return 1
    if not 1 <= scale <= 10_000:
        print(f"scale {scale}: expected 1..=10000 (what the engine reads)", file=sys.stderr)
        return 1
    old = struct.unpack("<i", data[28:32])[0]
    data[28:32] = struct.pack("<i", scale)
    with open(target, "wb") as out:
        out.write(data)
    print(f"wrote {target}: scale {old} -> {scale}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
