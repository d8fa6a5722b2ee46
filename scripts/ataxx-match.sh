#!/usr/bin/env bash
# Copied from the lead's /work/shared/tools/ataxx-match.sh (session of issue 17) so that the project runs
# matches from its own files; keep the two in step when either changes.
# Runs a cuteataxx match from the template cuteataxx-settings.json (next to this script; it too
# was copied from /work/shared/tools) (standard rules, 2 s + 20 ms,
# ply3_fair openings played with both colours, no adjudication).
#   ataxx-match.sh [-g GAMES] [-t TIME_MS] [-i INC_MS] [-c CONCURRENCY] [-o OUTDIR] ENGINE1 ENGINE2
# (-c is this copy's addition: games played side by side, default 1 as in the template; so is
# SPRT="ELO0 ELO1" in the environment: a sequential test with alpha = beta = 0.05 that stops the
# match once it decides, as the changelog's search changes were tested; and OPENINGS=FILE, an
# openings file of FEN lines instead of ply3_fair, e.g. datasets/ataxx/blocked-openings.txt.)
# ENGINE: bitsolve (= $BITSOLVE ataxx uai, default ./target/release/bitsolve),
#         zataxx ($A/Zataxx/target-native/release/zataxx, the target-cpu=native build of
#         ataxx-anchors.sh, as Zataxx's README builds it; A default /tmp/ataxx), builtin:random, builtin:mostcaptures,
#         builtin:leastcaptures, or NAME=/path/to/engine [arguments]
# Writes OUTDIR/settings.json, OUTDIR/match.log and OUTDIR/games.pgn (default OUTDIR
# $A/match/<engine1>-vs-<engine2>); prints cuteataxx's output.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
A=${A:-/tmp/ataxx}
CUTE=${CUTEATAXX:-$A/cuteataxx/build/cuteataxx-cli}
games=""; tms=""; inc=""; out=""; conc=""
while getopts g:t:i:c:o: opt; do
  case $opt in g) games=$OPTARG;; t) tms=$OPTARG;; i) inc=$OPTARG;; c) conc=$OPTARG;; o) out=$OPTARG;; *) exit 2;; esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { sed -n '2,16p' "$0"; exit 2; }
[ -x "$CUTE" ] || { echo "cuteataxx-cli not found at $CUTE: build it with ataxx-anchors.sh"; exit 1; }
n1=$(printf '%s' "${1%%=*}" | tr -c 'A-Za-z0-9_.\n-' '_'); n1=${n1#builtin:}
n2=$(printf '%s' "${2%%=*}" | tr -c 'A-Za-z0-9_.\n-' '_'); n2=${n2#builtin:}
out=${out:-$A/match/${n1#builtin_}-vs-${n2#builtin_}}
mkdir -p "$out"
export A
python3 - "$HERE/cuteataxx-settings.json" "$out" "$games" "$tms" "$inc" "$conc" "$1" "$2" <<'PY'
import json, os, sys
tpl, out, games, tms, inc, conc, e1, e2 = sys.argv[1:]
s = json.load(open(tpl))
if games: s["games"] = int(games)
if conc: s["concurrency"] = int(conc)
if tms: s["timecontrol"]["time"] = int(tms)
if inc: s["timecontrol"]["inc"] = int(inc)
def engine(spec):
    if spec == "bitsolve":
        return {"name": "bitsolve", "path": os.path.abspath(os.environ.get("BITSOLVE", "target/release/bitsolve")),
                "arguments": "ataxx uai", "protocol": "UAI"}
    if spec == "zataxx":
        return {"name": "Zataxx", "path": os.environ["A"] + "/Zataxx/target-native/release/zataxx", "protocol": "UAI"}
    if spec.startswith("builtin:"):
        b = spec.split(":", 1)[1]
        return {"name": b.capitalize(), "builtin": b}
    name, _, cmd = spec.partition("=")
    path, _, args = cmd.partition(" ")
    e = {"name": name, "path": path, "protocol": "UAI"}
    if args.strip():
        e["arguments"] = args.strip()
    return e
sprt = os.environ.get("SPRT", "").split()
if sprt:
    s["sprt"] = {"enabled": True, "autostop": True, "elo0": float(sprt[0]), "elo1": float(sprt[1]),
                 "alpha": 0.05, "beta": 0.05}
s["openings"]["path"] = os.path.abspath(os.environ.get("OPENINGS") or
                                        os.environ["A"] + "/cuteataxx/res/openings/ply3_fair.txt")
s["engines"] = [engine(e1), engine(e2)]
names = [e["name"] for e in s["engines"]]
s["pgn"]["path"] = os.path.join(out, "games.pgn")
s["pgn"]["event"] = "%s-vs-%s" % tuple(names)
json.dump(s, open(os.path.join(out, "settings.json"), "w"), indent=4)
PY
echo "settings: $out/settings.json"
start=$(date +%s)
"$CUTE" "$out/settings.json" 2>&1 | tee "$out/match.log"
echo "wall $(( $(date +%s) - start )) s; log $out/match.log; pgn $out/games.pgn"
