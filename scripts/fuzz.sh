#!/usr/bin/env bash
# Fuzzes every input surface: 10^7 inputs per target with the stable driver (`bitsolve fuzz`,
# release build), in two lanes, each target's run capped by a share of the time left before
# FUZZ_END (a `date -d` time, default: 70 minutes from now). A target too slow for 10^7 inputs
# in its share runs what fits; results/fuzz.md says how many ran.
#
# Checkpoint/resume: each finished target appends one line to results/raw/fuzz/done.tsv
# (target, inputs, crashes, slowest ms, seconds, inputs/s); a rerun skips the targets that
# reached INPUTS there and tops up the others with the next seed (delete the file to start over). Crash inputs go to fuzz/crashes/ (with the panic
# message beside each); results/raw/fuzz/<target>.stderr keeps the last 200 KB of its chatter.
#
#   scripts/fuzz.sh                        # the full run, then results/fuzz.md
#   FUZZ_INPUTS=20000 scripts/fuzz.sh      # a short slice (CI); writes no results/fuzz.md
#   FUZZ_REPORT_ONLY=1 scripts/fuzz.sh     # rewrite results/fuzz.md from done.tsv
#
# Coverage-guided fuzzing of the library targets with cargo-fuzz (nightly) is separate:
#   cargo +nightly fuzz run <target> -- -runs=10000000     (targets: ls fuzz/fuzz_targets)
set -euo pipefail
cd "$(dirname "$0")/.."

INPUTS=${FUZZ_INPUTS:-10000000}
END=$(date -d "${FUZZ_END:-70 minutes}" +%s)
RAW=results/raw/fuzz
DONE=$RAW/done.tsv
mkdir -p "$RAW" fuzz/crashes
touch "$DONE"

if [[ -z "${FUZZ_REPORT_ONLY:-}" ]]; then
    # A copy, so that rebuilding during a long run does not change the binary under it
    # (FUZZ_NO_BUILD=1 reuses the copy of an earlier run).
    if [[ -z "${FUZZ_NO_BUILD:-}" ]]; then
        nice cargo build --release --quiet
        mkdir -p target/fuzz-bin
        cp target/release/bitsolve target/fuzz-bin/bitsolve
    fi
    BIN=target/fuzz-bin/bitsolve
    "$BIN" --version > "$RAW/commit.txt"

    # Lane A: the fast notation and file targets, then the UAI loop (slowest per input).
    LANE_A="ataxx ataxx-polish gipf-notation gauss geography digraph szochy geography-server dataset results szochy-json uai"
    # Lane B: the line reader, the arbiter loop, the GIPF interpreter on whole streams.
    LANE_B="lineio arbiter gipf-interpreter"
    names=$("$BIN" fuzz --target list)
    for t in $LANE_A $LANE_B; do
        grep -qx "$t" <<< "$names" || { echo "unknown target $t" >&2; exit 1; }
    done

    lane() {
        local targets=($@) i n left share
        n=${#targets[@]}
        for ((i = 0; i < n; i++)); do
            local t=${targets[$i]}
            # A target that ran short of INPUTS in an earlier run is topped up: the inputs
            # still missing, with the next seed (the report sums a target's runs).
            local ran runs want seed
            ran=$(awk -F'\t' -v t="$t" '$1 == t && NF >= 6 { s += $2 } END { print s + 0 }' "$DONE")
            runs=$(awk -F'\t' -v t="$t" '$1 == t && NF >= 6 { n++ } END { print n + 0 }' "$DONE")
            ((ran >= INPUTS)) && continue
            want=$((INPUTS - ran))
            seed=$((runs + 1))
            left=$((END - $(date +%s)))
            share=$((left / (n - i)))
            ((share < 5)) && share=5
            local line
            if line=$(nice -n 15 "$BIN" fuzz --target "$t" --inputs "$want" --seed "$seed" \
                --seconds "$share" --crashes fuzz/crashes 2> >(tail -c 200000 > "$RAW/$t.stderr")); then :; fi
            line=$(echo "$line" | tail -1)
            if [[ $(echo "$line" | cut -f2) == hang ]]; then
                echo "$t: hang (see fuzz/crashes)" >&2
            fi
            echo "$line" >> "$DONE"
            echo "$line"
        done
    }
    if [[ -n "${FUZZ_INPUTS:-}" ]]; then
        # A short slice: both lanes in a row, nothing kept.
        DONE=$(mktemp)
        lane $LANE_A $LANE_B
        if awk -F'\t' '$3 != 0 { bad = 1 } END { exit bad }' "$DONE"; then
            echo "fuzz slice: no crash"
            rm -f "$DONE"
            exit 0
        fi
        echo "fuzz slice: crashes (see fuzz/crashes)" >&2
        rm -f "$DONE"
        exit 1
    fi
    lane $LANE_A &
    a=$!
    lane $LANE_B &
    b=$!
    wait $a $b
fi

{
    echo "# Fuzzing: every input surface"
    echo
    echo "Produced by \`scripts/fuzz.sh\` (stable driver \`bitsolve fuzz\`, release build, seed 1 and the next seeds for top-ups, at"
    echo "commit $(cat "$RAW/commit.txt" 2>/dev/null || echo unknown)) on the 2-core machine shared with"
    echo "other builds, niced; raw lines in \`results/raw/fuzz/done.tsv\`. Each input is a seed from"
    echo "\`datasets/\` (GIPF: the official test inputs) or a written seed, mutated by 1-6 edits:"
    echo "bit flips, random bytes, hostile strings (\`ff fe\`, bare CR, CRLF, NUL, escape codes,"
    echo "truncated UTF-8), the surface's keywords, numbers at the edges of their types, copies,"
    echo "deletions, splices from other seeds; 1 input in 20,000 gets a line past the 64 KiB cap."
    echo "Properties: no panic in any thread, no input longer than 10 s, and the target's own"
    echo "checks (see \`src/fuzzing.rs\`, \`src/cli/fuzz.rs\`)."
    echo
    echo "| target | inputs | crashes | slowest input (ms) | seconds | inputs/s | runs (seeds) |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    # One row per target, summing its runs (a run that fell short was topped up with the
    # next seed).
    totals() {
        awk -F'\t' 'NF >= 6 {
            if (!($1 in inputs)) order[++n] = $1
            inputs[$1] += $2; crashes[$1] += $3; secs[$1] += $5; runs[$1]++
            if ($4 + 0 > slow[$1] + 0) slow[$1] = $4
        } END {
            for (i = 1; i <= n; i++) {
                t = order[i]
                printf "%s\t%d\t%d\t%s\t%.1f\t%.0f\t%d\n", t, inputs[t], crashes[t], slow[t], secs[t], inputs[t] / (secs[t] > 0 ? secs[t] : 1), runs[t]
            }
        }' "$DONE"
    }
    totals | awk -F'\t' '{ printf "| %s | %d | %d | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }'
    totals | awk -F'\t' '{ i += $2; c += $3 } END { printf "\nIn all: %d inputs, %d crashes.\n", i, c }'
    echo
    short=$(totals | awk -F'\t' -v n="$INPUTS" '$2 < n { printf "%s%s (%d)", sep, $1, $2; sep = ", " }')
    if [[ -n "$short" ]]; then
        echo "Targets that did not reach $INPUTS inputs in their share of the time: $short."
        echo "They are the slow ones per input (a whole UAI session with searches, or a GIPF"
        echo "stream with capped solves); the run was sized to end before the deadline."
        echo
    fi
} > results/fuzz.md.new
mv results/fuzz.md.new results/fuzz.md
echo "wrote results/fuzz.md"
