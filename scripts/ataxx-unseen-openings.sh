#!/usr/bin/env bash
# Draws an openings file the engine was never tuned on: N three-ply positions from the standard
# start taken at random (seed SEED, Python's random.Random) from cuteataxx's
# res/openings/ply3.txt (6,459 lines, 4,396 distinct) less those of ply3_fair.txt (the 881 that every
# SPRT and Zataxx match of results/ataxx/ was played on). Choose the seed after the engine is
# frozen; play the file with OPENINGS=OUT scripts/ataxx-match.sh (each opening with both
# colours, as cuteataxx cycles through the file).
#   scripts/ataxx-unseen-openings.sh SEED N [OUT]   (default OUT /tmp/ataxx/unseen-SEED-N.txt;
#                                                   A: cuteataxx's parent, default /tmp/ataxx)
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,9p' "$0"; exit 2; }
A=${A:-/tmp/ataxx}
dir=$A/cuteataxx/res/openings
out=${3:-$A/unseen-$1-$2.txt}
python3 - "$dir/ply3.txt" "$dir/ply3_fair.txt" "$1" "$2" "$out" <<'PY'
import random, sys
all3, fair, seed, n, out = sys.argv[1:]
def fens(path):
    with open(path) as f:
        return {l.strip() for l in f if l.strip() and not l.startswith("#")}
pool = sorted(fens(all3) - fens(fair))
n = int(n)
if not 0 < n <= len(pool):
    sys.exit(f"N must be in 1..={len(pool)} (three-ply openings outside ply3_fair)")
pick = random.Random(int(seed)).sample(pool, n)
with open(out, "w") as f:
    f.write(f"# {n} of the {len(pool)} three-ply openings of cuteataxx's ply3.txt that are not in\n")
    f.write(f"# ply3_fair.txt, drawn with seed {seed} by scripts/ataxx-unseen-openings.sh\n")
    f.writelines(p + "\n" for p in pick)
print(f"wrote {out}: {n} of {len(pool)} openings")
PY
