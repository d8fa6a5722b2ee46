#!/usr/bin/env bash
# The Ataxx self-play pipeline on idle cores: runs `bitsolve ataxx datagen` (format version 3:
# a CRC per game, blocked-square openings; src/cli/ataxx/datafile.rs) in the background at the
# lowest priority (SCHED_IDLE and nice 19), so builds, tests and matches come first, and pauses
# or stops it on demand.
# A stopped or killed run resumes from its last complete game with the same command.
#
#   GEN=10 scripts/ataxx-selfplay.sh start    # data/gen10.bin with the embedded net (an
#                                             # existing gen10 resumes with its own command)
#   scripts/ataxx-selfplay.sh pause           # SIGSTOP: before a match or a timing
#   scripts/ataxx-selfplay.sh resume          # SIGCONT
#   scripts/ataxx-selfplay.sh status          # games, positions, checksums, rate since last status
#   scripts/ataxx-selfplay.sh stop            # SIGTERM; `start` again resumes the file
#
# Variables (start): GEN (generation number, required), DATA (/work/data/ataxx), NET (net file,
# default nets/ataxx/default.nnue), SEED (default GEN), GAMES (1000000: the run is stopped long
# before), NODES (5000 per move), THREADS (2), MIN_PLIES/MAX_PLIES (14/17 random opening
# plies), MAX_OPENING_SCORE (1280: the opening is drawn again while the search scores it beyond
# this; 1280 in the units of scale-700 nets is about 300 with K = 164), BLOCKED_SHARE (0.25 of
# the games start with blocked squares), FRESH (1: see above, a new command for an existing file).
# The binary is built for this processor (RUSTFLAGS="-C target-cpu=native", in its own target
# directory DATA/target: 1.10x the nodes per second of the plain build on this machine, and the
# same games, as a move's search is fixed by its node count and the integer net) and copied to
# DATA/bin/bitsolve-REV-native (REV the clean commit it was built from; a dirty tree is refused
# unless ALLOW_DIRTY=1) so that later builds do not change a running or resumed generation;
# DATA/genGEN.cmd records the exact command (nets/ataxx/README.md cites it).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-/work/data/ataxx}
PIDFILE=$DATA/selfplay.pid
mkdir -p "$DATA/bin"

running() { [[ -f $PIDFILE ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

# launch WORD GEN: runs the command of DATA/genGEN.cmd in the background at the lowest priority:
# SCHED_IDLE (chrt --idle) where the system has chrt, so the run gets a core only when nothing
# else wants it (nice 19 alone still takes a small share of a busy machine).
launch() {
  local cmd idle=()
  read -r -a cmd < "$DATA/gen$2.cmd"
  echo "$DATA/gen$2.bin" > "$DATA/current"
  command -v chrt > /dev/null && idle=(chrt --idle 0)
  nohup "${idle[@]}" nice -n 19 "${cmd[@]}" >> "$DATA/gen$2.log" 2>&1 &
  echo $! > "$PIDFILE"
  echo "$1 pid $! -> $DATA/gen$2.bin ($(cat "$DATA/gen$2.cmd"))"
}

case ${1:-} in
start)
  if running; then echo "already running: pid $(cat "$PIDFILE") ($(cat "$DATA/current"))"; exit 1; fi
  : "${GEN:?set GEN, the generation number}"
  out=$DATA/gen$GEN.bin
  cmdfile=$DATA/gen$GEN.cmd
  # A generation already begun resumes with the command it began with (its binary, net and
  # arguments), so that it stays one engine's self-play whatever HEAD is now; FRESH=1 builds
  # HEAD and writes a new command instead (a new engine for the rest of the file).
  if [[ -f $cmdfile && -f $out && ${FRESH:-0} != 1 ]]; then
    read -r bin _ < "$cmdfile"
    [[ -x $bin ]] || { echo "$bin (from $cmdfile) is gone: rebuild that revision or FRESH=1"; exit 1; }
    launch resumed "$GEN"
    exit 0
  fi
  rev=$(git rev-parse --short=7 HEAD)
  if [[ -n $(git status --porcelain --untracked-files=no) && ${ALLOW_DIRTY:-0} != 1 ]]; then
    echo "the tree has uncommitted changes: commit first (or ALLOW_DIRTY=1)"; exit 1
  fi
  bin=$DATA/bin/bitsolve-$rev-native
  [[ -x $bin ]] || {
    RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=$DATA/target cargo build --release --quiet &&
      cp "$DATA/target/release/bitsolve" "$bin"
  }
  args=(ataxx datagen --out "$out" --games "${GAMES:-1000000}" --nodes "${NODES:-5000}"
        --seed "${SEED:-$GEN}" --min-plies "${MIN_PLIES:-14}" --max-plies "${MAX_PLIES:-17}"
        --max-opening-score "${MAX_OPENING_SCORE:-1280}" --blocked-share "${BLOCKED_SHARE:-0.25}"
        --threads "${THREADS:-2}" --net "${NET:-nets/ataxx/default.nnue}" --quiet)
  echo "$bin ${args[*]}" > "$DATA/gen$GEN.cmd"
  launch started "$GEN";;
pause)  running && kill -STOP "$(cat "$PIDFILE")" && echo paused;;
resume) running && kill -CONT "$(cat "$PIDFILE")" && echo resumed;;
stop)
  if running; then kill -CONT "$(cat "$PIDFILE")"; kill -TERM "$(cat "$PIDFILE")"; echo stopped; fi
  rm -f "$PIDFILE";;
status)
  out=$(cat "$DATA/current" 2>/dev/null) || { echo "no generation started"; exit 1; }
  if running; then state="running pid $(cat "$PIDFILE") ($(ps -o stat= -p "$(cat "$PIDFILE")"))"; else state=stopped; fi
  echo "$out: $state"
  bin=$(cut -d' ' -f1 < "${out%.bin}.cmd")
  line=$("$bin" ataxx data "$out" | sed -n 1p) || true
  echo "$line"
  now=$(date +%s); pos=$(sed -n 's/.* positions=\([0-9]*\).*/\1/p' <<< "$line")
  if [[ -n $pos && -f ${out%.bin}.rate ]]; then
    read -r t0 p0 < <(tail -1 "${out%.bin}.rate")
    (( now > t0 )) && echo "rate since $(date -d "@$t0" +%H:%M): $(( (pos - p0) * 3600 / (now - t0) )) positions/hour"
  fi
  [[ -n $pos ]] && echo "$now $pos" >> "${out%.bin}.rate";;
*) sed -n '2,26p' "$0"; exit 2;;
esac
